package notebook

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
	"unicode/utf16"
)

// Edits are made on Source and written back cell by cell: the new file is
// the old one with the `source` value of each changed cell replaced, in the
// same form (one string, or a list of one string per line, laid out as the
// old list was), every other byte — outputs, metadata, key order,
// indentation, the final newline — untouched. A line a cell keeps is
// written with its old bytes. An edit must stay within one cell and leave
// IPython's lines alone.

// Edit replaces Source[Start:End] with Text.
type Edit struct {
	Start, End int
	Text       string
}

// Change is a cell an edit changed: its text before and after.
type Change struct {
	Cell     *Cell
	Old, New string
}

// Check returns why an edit cannot be made in the notebook, or "".
func (nb *Notebook) Check(e Edit) string {
	_, _, _, why := nb.locate(e)
	return why
}

// locate finds the cell an edit changes and the edit's span in the cell's
// Text, or says why it cannot be made.
func (nb *Notebook) locate(e Edit) (c *Cell, start, end int, why string) {
	if e.Start < 0 || e.End < e.Start || e.End > len(nb.Source) {
		return nil, 0, 0, fmt.Sprintf("the edit [%d, %d) is out of range", e.Start, e.End)
	}
	c, ok := nb.CellAt(e.Start)
	if !ok {
		return nil, 0, 0, "the notebook has no Python code cell"
	}
	if e.End > c.end() {
		return nil, 0, 0, "it spans two cells"
	}
	// The newline Source adds after a cell is not in the file.
	start, end = min(e.Start-c.Start, len(c.Text)), min(e.End-c.Start, len(c.Text))
	if c.CellMagic != "" {
		// Nothing may come before or into the %% line, the first one
		// replaced.
		for i, m := range c.magic {
			if m {
				l, _ := c.Line(i + 1)
				if start <= c.lineStarts[i]+len(l) {
					return nil, 0, 0, fmt.Sprintf("it would change the %s line of cell %d", c.CellMagic, c.Number)
				}
				break
			}
		}
	}
	for i, m := range c.magic {
		if !m {
			continue
		}
		ls := c.lineStarts[i]
		l, _ := c.Line(i + 1)
		le := ls + len(l)
		touches := start < le && end > ls // overlaps the line's content
		if start == end {
			touches = start > ls && start <= le // inside or at the end of it
		}
		if touches {
			return nil, 0, 0, fmt.Sprintf("it would change line %d of cell %d, which is not Python (IPython syntax)", i+1, c.Number)
		}
	}
	return c, start, end, ""
}

// Apply returns the notebook's file with the edits made (they must not
// overlap) and the cells they changed, in order.
func (nb *Notebook) Apply(edits []Edit) ([]byte, []Change, error) {
	if nb.Raw == nil {
		return nil, nil, fmt.Errorf("cannot edit the notebook: it was built from an editor's cells and has no file")
	}
	type cellEdit struct {
		start, end int
		text       string
	}
	byCell := map[*Cell][]cellEdit{}
	for _, e := range edits {
		c, start, end, why := nb.locate(e)
		if why != "" {
			return nil, nil, fmt.Errorf("cannot edit the notebook: %s", why)
		}
		byCell[c] = append(byCell[c], cellEdit{start, end, e.Text})
	}
	var changes []Change
	for _, c := range nb.code {
		es := byCell[c]
		if len(es) == 0 {
			continue
		}
		sort.SliceStable(es, func(i, j int) bool { return es[i].start < es[j].start })
		var b strings.Builder
		pos := 0
		for _, e := range es {
			if e.start < pos {
				return nil, nil, fmt.Errorf("cannot edit the notebook: edits overlap in cell %d", c.Number)
			}
			b.WriteString(c.Text[pos:e.start])
			b.WriteString(e.text)
			pos = e.end
		}
		b.WriteString(c.Text[pos:])
		if b.String() != c.Text {
			changes = append(changes, Change{Cell: c, Old: c.Text, New: b.String()})
		}
	}
	var out bytes.Buffer
	pos := 0
	for _, ch := range changes {
		out.Write(nb.Raw[pos:ch.Cell.source.start])
		out.Write(nb.encodeSource(ch.Cell, ch.New))
		pos = ch.Cell.source.end
	}
	out.Write(nb.Raw[pos:])
	return out.Bytes(), changes, nil
}

// encodeSource writes a cell's new text as its `source` value, in the old
// value's form and layout.
func (nb *Notebook) encodeSource(c *Cell, text string) []byte {
	if c.source.kind == kString {
		return nb.quote(text)
	}
	lines := strings.SplitAfter(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	if len(lines) == 0 {
		return []byte("[]")
	}
	old := map[string][]byte{}
	for _, el := range c.elems {
		if s, ok := el.str(nb.Raw); ok {
			old[s] = nb.Raw[el.start:el.end]
		}
	}
	prefix, sep, suffix := nb.listLayout(c)
	var b bytes.Buffer
	b.WriteByte('[')
	b.WriteString(prefix)
	for i, l := range lines {
		if i > 0 {
			b.WriteString(sep)
		}
		if raw, ok := old[l]; ok {
			b.Write(raw)
		} else {
			b.Write(nb.quote(l))
		}
	}
	b.WriteString(suffix)
	b.WriteByte(']')
	return b.Bytes()
}

// listLayout returns the whitespace a source list puts after its '[',
// between its elements and before its ']': the cell's own, another cell's
// when the cell's list is empty, or nbformat's (indent=1) when no cell has
// a list of several lines.
func (nb *Notebook) listLayout(c *Cell) (prefix, sep, suffix string) {
	layout := func(c *Cell) (string, string, string, bool) {
		if c.source == nil || c.source.kind != kArray || len(c.elems) == 0 {
			return "", "", "", false
		}
		first, last := c.elems[0], c.elems[len(c.elems)-1]
		prefix := string(nb.Raw[c.source.start+1 : first.start])
		suffix := string(nb.Raw[last.end : c.source.end-1])
		sep := "," + prefix
		if len(c.elems) > 1 {
			sep = string(nb.Raw[first.end:c.elems[1].start])
		}
		return prefix, sep, suffix, true
	}
	if p, s, x, ok := layout(c); ok {
		return p, s, x
	}
	for _, o := range nb.Cells {
		if p, s, x, ok := layout(o); ok {
			return p, s, x
		}
	}
	ls := nb.lines()[searchLine(nb.lines(), c.source.start)]
	indent := nb.Raw[ls:c.source.start]
	indent = indent[:len(indent)-len(bytes.TrimLeft(indent, " \t"))]
	return "\n" + string(indent) + " ", ",\n" + string(indent) + " ", "\n" + string(indent)
}

// quote writes s as a JSON string the way nbformat does (Python's
// json.dumps: two-character escapes for the usual control characters,
// \u00XX for the others, non-ASCII text as is unless the file escapes it).
func (nb *Notebook) quote(s string) []byte {
	var b bytes.Buffer
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r < 0x20:
			fmt.Fprintf(&b, `\u%04x`, r)
		case r >= 0x80 && nb.asciiOnly:
			if r > 0xffff {
				hi, lo := utf16.EncodeRune(r)
				fmt.Fprintf(&b, `\u%04x\u%04x`, hi, lo)
			} else {
				fmt.Fprintf(&b, `\u%04x`, r)
			}
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.Bytes()
}
