package analyzer

import (
	"reflect"
	"testing"
)

// TestNotebookReadEncoding: a notebook read decodes to what was encoded,
// and any other bytes (cut short, grown, another format) are refused, so
// that a damaged memo is a miss, never a wrong module.
func TestNotebookReadEncoding(t *testing.T) {
	for _, tc := range []struct {
		name    string
		module  string
		notices []cellNotice
	}{
		{"empty module, no notices", "", nil},
		{"module", "import torch\nx = torch.zeros(3)\n", nil},
		{"notices", "import os\n         \n", []cellNotice{{cell: 0, msg: "the notebook's kernel runs R, not Python: not checked"}, {cell: 2, msg: "the cell has a syntax error at line 1, column 7: the kernel would run none of it; not analyzed"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := encodeNotebookRead([]byte(tc.module), tc.notices)
			module, notices, ok := decodeNotebookRead(b)
			if !ok || string(module) != tc.module || !reflect.DeepEqual(notices, tc.notices) {
				t.Fatalf("decoded %q, %v, %v; want %q, %v", module, notices, ok, tc.module, tc.notices)
			}
			for n := range len(b) {
				if _, _, ok := decodeNotebookRead(b[:n]); ok {
					t.Errorf("the first %d of %d bytes decoded", n, len(b))
				}
			}
			if _, _, ok := decodeNotebookRead(append(b[:len(b):len(b)], 0)); ok {
				t.Error("a byte more decoded")
			}
			other := append([]byte{notebookReadFormat + 1}, b[1:]...)
			if _, _, ok := decodeNotebookRead(other); ok {
				t.Error("another format decoded")
			}
		})
	}
}
