package analyzer

import (
	"go/token"
	"testing"

	"github.com/cudaforklint/cudaforklint/finding"
)

// TestPositionAtTheEnd: every offset's line and columns agree, the end of
// a file that ends with a line break included (the start of the line after
// it, where go/token says "a column past the last line").
func TestPositionAtTheEnd(t *testing.T) {
	for _, tc := range []struct {
		src  string
		off  int
		want finding.Position
	}{
		{"a = 1\npool.join()\n", 18, finding.Position{Offset: 18, Line: 3, Column: 1, UTF16Column: 1}},
		{"a = 1\r\npool.join()\r\n", 20, finding.Position{Offset: 20, Line: 3, Column: 1, UTF16Column: 1}},
		{"a = 1\npool.join()", 17, finding.Position{Offset: 17, Line: 2, Column: 12, UTF16Column: 12}},
		{"a = 1\npool.join()\n", 17, finding.Position{Offset: 17, Line: 2, Column: 12, UTF16Column: 12}},
		{"s = \"é😀\"\n", 11, finding.Position{Offset: 11, Line: 1, Column: 12, UTF16Column: 9}},
	} {
		fset := token.NewFileSet()
		tf := fset.AddFile("a.py", -1, len(tc.src))
		tf.SetLinesForContent([]byte(tc.src))
		c := converter{fset: fset, read: func(string) ([]byte, error) { return []byte(tc.src), nil }}
		if _, got := c.position(tf.Pos(tc.off)); got != tc.want {
			t.Errorf("%q at %d: %+v, want %+v", tc.src, tc.off, got, tc.want)
		}
	}
}
