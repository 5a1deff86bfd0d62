package notebook

import (
	"unicode/utf8"

	"github.com/cudaforklint/cudaforklint/finding"
)

// Position is a point of a notebook, in a cell.
type Position struct {
	Cell *Cell
	// Offset is the byte offset in the cell's Text.
	Offset int
	// Line and Column are 1-based, in the cell; Column counts bytes,
	// UTF16Column UTF-16 code units.
	Line, Column, UTF16Column int
}

// FilePosition is where a point of a cell is written in the notebook's
// file: a 1-based line of the JSON, and 1-based columns counted in
// characters (code points) and in UTF-16 code units.
type FilePosition struct {
	Line, Column, UTF16Column int
}

// end is the offset in Source just after the cell (its text and the
// newline Source adds when the text does not end in one).
func (c *Cell) end() int {
	n := len(c.Text)
	if n == 0 || c.Text[n-1] != '\n' {
		n++
	}
	return c.Start + n
}

// CellAt returns the code cell whose part of Source holds off; an offset
// at the very end of Source belongs to the last cell.
func (nb *Notebook) CellAt(off int) (*Cell, bool) {
	if len(nb.code) == 0 || off < 0 || off > len(nb.Source) {
		return nil, false
	}
	lo, hi := 0, len(nb.code)
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if nb.code[mid].Start <= off {
			lo = mid
		} else {
			hi = mid
		}
	}
	return nb.code[lo], true
}

// At maps an offset of Source to its cell, line and columns. An offset on
// the newline Source adds after a cell is the end of the cell's text.
func (nb *Notebook) At(off int) (Position, bool) {
	c, ok := nb.CellAt(off)
	if !ok {
		return Position{}, false
	}
	return c.At(min(off-c.Start, len(c.Text))), true
}

// At maps an offset of the cell's Text to its line and columns.
func (c *Cell) At(o int) Position {
	li := searchLine(c.lineStarts, o)
	start := c.lineStarts[li]
	return Position{Cell: c, Offset: o, Line: li + 1, Column: o - start + 1, UTF16Column: finding.UTF16Len(c.Text[start:o]) + 1}
}

// Line returns the text of a 1-based line of the cell, without its line
// ending.
func (c *Cell) Line(n int) (string, bool) {
	if n < 1 || n > len(c.lineStarts) {
		return "", false
	}
	start, end := c.lineStarts[n-1], len(c.Text)
	if n < len(c.lineStarts) {
		end = c.lineStarts[n] - 1
	}
	line := c.Text[start:end]
	if len(line) > 0 && line[len(line)-1] == '\r' {
		line = line[:len(line)-1]
	}
	return line, true
}

// FilePos returns where the byte at offset o of a cell's Text is written in
// the notebook's file (the start of its escape, for an escaped character;
// the closing quote, at the end of the text). A cell without source text
// maps to its `source` value, or the start of the cell.
func (nb *Notebook) FilePos(c *Cell, o int) FilePosition {
	return nb.filePosition(nb.rawOffset(c, o))
}

// rawOffset maps an offset of a cell's Text to an offset of Raw.
func (nb *Notebook) rawOffset(c *Cell, o int) int {
	if len(c.elems) == 0 {
		if c.source != nil {
			return c.source.start
		}
		return 0
	}
	k := len(c.elemStarts) - 1
	for k > 0 && c.elemStarts[k] > o {
		k--
	}
	el := c.elems[k]
	raw := nb.Raw[el.start:el.end]
	d := o - c.elemStarts[k]
	at := -1
	walkString(raw, func(off int, text []byte) {
		if at >= 0 {
			return
		}
		if d < len(text) {
			if raw[off] == '\\' {
				at = off
			} else {
				at = off + d
			}
			return
		}
		d -= len(text)
	})
	if at < 0 {
		at = len(raw) - 1 // the closing quote
	}
	return el.start + at
}

// filePosition turns an offset of Raw into a line and columns.
func (nb *Notebook) filePosition(off int) FilePosition {
	li := searchLine(nb.lines(), off)
	seg := nb.Raw[nb.lines()[li]:off]
	return FilePosition{Line: li + 1, Column: utf8.RuneCount(seg) + 1, UTF16Column: finding.UTF16Len(seg) + 1}
}
