package config

import (
	"errors"
	"fmt"
	"strings"

	toml "github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
)

// The TOML document is read twice: go-toml's decoder validates it (syntax,
// redefined tables and keys) and gives the position of a syntax error; then
// the unstable parser's expression stream is folded into a small tree that
// remembers the line of every key, so that a bad value can name its line.

// tval is a TOML value with the line it was written on.
type tval struct {
	kind unstable.Kind // String, Bool, Integer, Float, Array, InlineTable (as a table), dates
	line int
	str  string // String: the value; others: the raw text
	b    bool
	arr  []*tval
	tbl  *ttable
}

// ttable is a TOML table: keys in order of appearance.
type ttable struct {
	line int
	keys []string
	vals map[string]*tval
}

func newTable(line int) *ttable { return &ttable{line: line, vals: map[string]*tval{}} }

func (t *ttable) set(k string, v *tval) {
	if _, ok := t.vals[k]; !ok {
		t.keys = append(t.keys, k)
	}
	t.vals[k] = v
}

// child returns the table at key k, creating it (implicitly defined tables
// take the line of the header or key that created them). For an array of
// tables it returns the last element; for a plain value, nil.
func (t *ttable) child(k string, line int) *ttable {
	v, ok := t.vals[k]
	if !ok {
		v = &tval{kind: unstable.InlineTable, line: line, tbl: newTable(line)}
		t.set(k, v)
	}
	switch {
	case v.tbl != nil:
		return v.tbl
	case v.kind == unstable.Array && len(v.arr) > 0 && v.arr[len(v.arr)-1].tbl != nil:
		return v.arr[len(v.arr)-1].tbl
	}
	return nil // a value, not a table
}

// parseTOML validates data and returns its tree. Errors are *Error values
// with the line: syntax errors from the parser, keys and tables defined
// twice from the walk, anything else go-toml's decoder rejects.
func parseTOML(file string, data []byte) (*ttable, error) {
	root, err := walkTOML(file, data)
	if err != nil {
		return nil, err
	}
	var probe map[string]any
	if err := toml.Unmarshal(data, &probe); err != nil {
		var de *toml.DecodeError
		if errors.As(err, &de) {
			row, _ := de.Position()
			return nil, &Error{File: file, Line: row, Msg: "invalid TOML: " + de.Error()}
		}
		return nil, &Error{File: file, Msg: "invalid TOML: " + strings.TrimPrefix(err.Error(), "toml: ")}
	}
	return root, nil
}

func walkTOML(file string, data []byte) (root *ttable, err error) {
	p := &unstable.Parser{}
	p.Reset(data)
	root = newTable(1)
	cur := root
	ctx := &fileCtx{file: file}
	headers := map[*ttable]int{} // explicitly defined tables → header line
	lineOf := func(n *unstable.Node) int {
		if n == nil || n.Raw.Length == 0 {
			return 0
		}
		return p.Shape(n.Raw).Start.Line
	}
	keyParts := func(it unstable.Iterator) (parts []string, line int) {
		for it.Next() {
			n := it.Node()
			if line == 0 {
				line = lineOf(n)
			}
			parts = append(parts, string(n.Data))
		}
		return parts, line
	}
	setOnce := func(t *ttable, k string, v *tval, line int) error {
		if old, ok := t.vals[k]; ok {
			return ctx.errf(line, "invalid TOML: key %q is defined twice (first on line %d)", k, old.line)
		}
		t.set(k, v)
		return nil
	}
	// descend follows keys from t, creating tables; a key that holds a value
	// is an error.
	descend := func(t *ttable, keys []string, line int) (*ttable, error) {
		for _, k := range keys {
			next := t.child(k, line)
			if next == nil {
				return nil, ctx.errf(line, "invalid TOML: key %q (line %d) holds a value, not a table", k, t.vals[k].line)
			}
			t = next
		}
		return t, nil
	}
	var convert func(n *unstable.Node, line int) (*tval, error)
	convert = func(n *unstable.Node, line int) (*tval, error) {
		if l := lineOf(n); l > 0 {
			line = l
		}
		v := &tval{kind: n.Kind, line: line}
		switch n.Kind {
		case unstable.String:
			v.str = string(n.Data)
		case unstable.Bool:
			v.b = string(n.Data) == "true"
			v.str = string(n.Data)
		case unstable.Array:
			v.arr = []*tval{}
			it := n.Children()
			for it.Next() {
				e, err := convert(it.Node(), line)
				if err != nil {
					return nil, err
				}
				v.arr = append(v.arr, e)
			}
		case unstable.InlineTable:
			v.tbl = newTable(line)
			it := n.Children()
			for it.Next() {
				kv := it.Node()
				parts, kl := keyParts(kv.Key())
				if kl == 0 {
					kl = line
				}
				t, err := descend(v.tbl, parts[:len(parts)-1], kl)
				if err != nil {
					return nil, err
				}
				e, err := convert(kv.Value(), kl)
				if err != nil {
					return nil, err
				}
				if err := setOnce(t, parts[len(parts)-1], e, kl); err != nil {
					return nil, err
				}
			}
		default:
			v.str = string(n.Data)
		}
		return v, nil
	}
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table:
			parts, line := keyParts(e.Key())
			t, err := descend(root, parts, line)
			if err != nil {
				return nil, err
			}
			if first, ok := headers[t]; ok {
				return nil, ctx.errf(line, "invalid TOML: table [%s] is defined twice (first on line %d)", strings.Join(parts, "."), first)
			}
			headers[t] = line
			t.line = line
			cur = t
		case unstable.ArrayTable:
			parts, line := keyParts(e.Key())
			t, err := descend(root, parts[:len(parts)-1], line)
			if err != nil {
				return nil, err
			}
			last := parts[len(parts)-1]
			arr, ok := t.vals[last]
			if !ok {
				arr = &tval{kind: unstable.Array, line: line}
				t.set(last, arr)
			}
			elem := &tval{kind: unstable.InlineTable, line: line, tbl: newTable(line)}
			arr.arr = append(arr.arr, elem)
			cur = elem.tbl
		case unstable.KeyValue:
			parts, line := keyParts(e.Key())
			t, err := descend(cur, parts[:len(parts)-1], line)
			if err != nil {
				return nil, err
			}
			v, err := convert(e.Value(), line)
			if err != nil {
				return nil, err
			}
			if err := setOnce(t, parts[len(parts)-1], v, line); err != nil {
				return nil, err
			}
		}
	}
	if err := p.Error(); err != nil {
		line := 0
		var pe *unstable.ParserError
		if errors.As(err, &pe) {
			if len(pe.Highlight) > 0 {
				func() {
					defer func() { recover() }() // a highlight outside the input: no line
					line = p.Shape(p.Range(pe.Highlight)).Start.Line
				}()
			} else {
				// Nothing to highlight: the document ended too early.
				line = strings.Count(strings.TrimRight(string(data), "\n"), "\n") + 1
			}
		}
		return nil, ctx.errf(line, "invalid TOML: %v", err)
	}
	return root, nil
}

// lookup follows a dotted path of tables; nil when absent.
func (t *ttable) lookup(path ...string) *tval {
	cur := t
	var v *tval
	for i, k := range path {
		v = cur.vals[k]
		if v == nil {
			return nil
		}
		if i < len(path)-1 {
			if v.tbl == nil {
				return nil
			}
			cur = v.tbl
		}
	}
	return v
}

func kindName(v *tval) string {
	switch v.kind {
	case unstable.String:
		return "a string"
	case unstable.Bool:
		return "a boolean"
	case unstable.Integer:
		return "an integer"
	case unstable.Float:
		return "a float"
	case unstable.Array:
		return "an array"
	case unstable.InlineTable:
		return "a table"
	}
	return "a date or time"
}

// strings returns v as a list of strings, or an error naming its line.
func (c *fileCtx) stringList(key string, v *tval) ([]string, error) {
	if v.kind != unstable.Array {
		return nil, c.errf(v.line, "%s must be an array of strings, not %s", key, kindName(v))
	}
	out := make([]string, 0, len(v.arr))
	for _, e := range v.arr {
		if e.kind != unstable.String {
			return nil, c.errf(e.line, "%s must be an array of strings; found %s", key, kindName(e))
		}
		out = append(out, e.str)
	}
	return out, nil
}

func (c *fileCtx) str(key string, v *tval) (string, error) {
	if v.kind != unstable.String {
		return "", c.errf(v.line, "%s must be a string, not %s", key, kindName(v))
	}
	return v.str, nil
}

func (c *fileCtx) boolean(key string, v *tval) (bool, error) {
	if v.kind != unstable.Bool {
		return false, c.errf(v.line, "%s must be true or false, not %s", key, kindName(v))
	}
	return v.b, nil
}

// fileCtx makes errors that name a config file and line.
type fileCtx struct{ file string }

func (c *fileCtx) errf(line int, format string, args ...any) error {
	return &Error{File: c.file, Line: line, Msg: fmt.Sprintf(format, args...)}
}

// suggest returns the known key closest to k (edit distance at most 2, or a
// prefix), or "".
func suggest(k string, known []string) string {
	best, bestD := "", 3
	for _, cand := range known {
		d := editDistance(k, cand)
		if d < bestD || (d == bestD && cand < best) {
			best, bestD = cand, d
		}
	}
	if best == "" {
		for _, cand := range known {
			if len(k) >= 3 && (strings.HasPrefix(cand, k) || strings.HasPrefix(k, cand)) {
				return cand
			}
		}
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
