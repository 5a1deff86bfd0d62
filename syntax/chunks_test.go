package syntax

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// wholeRecs returns the records of one parse of in, copied out of C memory.
func wholeRecs(t *testing.T, in []byte) []rec {
	t.Helper()
	rb := getRecs(0)
	defer putRecs(rb)
	r, err := parseWalk(in, rb)
	if err != nil {
		t.Fatal(err)
	}
	return append([]rec(nil), r...)
}

// firstDifferentRecord returns the index of the first record where a and
// b differ, or -1 if they are equal.
func firstDifferentRecord(a, b []rec) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	return -1
}

// piecesOf returns the texts chunkStarts cuts src into, at every start it
// finds.
func piecesOf(src string) []string {
	starts := chunkStarts([]byte(src), 1)
	bounds := append(append([]int{0}, starts...), len(src))
	var out []string
	for i := 0; i+1 < len(bounds); i++ {
		out = append(out, src[bounds[i]:bounds[i+1]])
	}
	return out
}

// TestChunkStarts checks where a file may be cut: only before top-level
// statements whose start leaves nothing open.
func TestChunkStarts(t *testing.T) {
	cases := []struct {
		name   string
		src    string
		pieces []string
	}{
		{"statements", "import os\nx = 1\n\ndef f():\n    return x\n",
			[]string{"import os\n", "x = 1\n\n", "def f():\n    return x\n"}},
		{"a docstring holding code", "s = '''\ndef f():\n    pass\n'''\ny = 2\n",
			[]string{"s = '''\ndef f():\n    pass\n'''\n", "y = 2\n"}},
		{"an f-string field holding a newline", "s = f'''{\nx\n}'''\ny = 2\n",
			[]string{"s = f'''{\nx\n}'''\n", "y = 2\n"}},
		{"brackets", "x = [\na,\nb]\ny = 2\n",
			[]string{"x = [\na,\nb]\n", "y = 2\n"}},
		{"a continuation", "x = 1 + \\\ny\nz = 2\n",
			[]string{"x = 1 + \\\ny\n", "z = 2\n"}},
		{"arms of compound statements", "if a:\n    pass\nelif b:\n    pass\nelse:\n    pass\ntry:\n    pass\nexcept E:\n    pass\nfinally:\n    pass\nz = 1\n",
			[]string{"if a:\n    pass\nelif b:\n    pass\nelse:\n    pass\n", "try:\n    pass\nexcept E:\n    pass\nfinally:\n    pass\n", "z = 1\n"}},
		{"a decorator, a comment and a blank line before its definition", "@dec\n# why\n\ndef f():\n    pass\nz = 1\n",
			[]string{"@dec\n# why\n\ndef f():\n    pass\n", "z = 1\n"}},
		{"comments and indented lines are not starts", "def f():\n    pass\n# trailing\n    # indented\nclass C:\n    x = 1\n",
			[]string{"def f():\n    pass\n# trailing\n    # indented\n", "class C:\n    x = 1\n"}},
		{"CRLF line ends", "x = 1\r\ny = 2\r\n",
			[]string{"x = 1\r\n", "y = 2\r\n"}},
		{"a string starting the line is not a start", "x = 1\n'''doc'''\ny = 2\n",
			[]string{"x = 1\n'''doc'''\n", "y = 2\n"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := piecesOf(c.src)
			if strings.Join(got, "|") != strings.Join(c.pieces, "|") {
				t.Errorf("pieces\n got %q\nwant %q", got, c.pieces)
			}
		})
	}
}

// TestChunkStartsSpacing checks that pieces are at least gap bytes long.
func TestChunkStartsSpacing(t *testing.T) {
	src := []byte(strings.Repeat("x = 1\n", 1000)) // 6 bytes a statement
	starts := chunkStarts(src, 600)
	if len(starts) != 9 {
		t.Fatalf("%d starts, want 9: %v", len(starts), starts)
	}
	for i, s := range starts {
		if s != 600*(i+1) {
			t.Errorf("start %d at %d, want %d", i, s, 600*(i+1))
		}
	}
}

// TestChunkedParse parses files cut at every start chunkStarts finds and
// checks that the records are those of the whole file's parse, byte for
// byte, or that the pieced parse gave up: it must give up on every file
// whose whole parse has a syntax error, and on no other but those where
// tree-sitter reads past a line end that ends the line for Python.
func TestChunkedParse(t *testing.T) {
	cases := map[string]struct {
		src      string
		givesUp  bool // the pieced parse must give up
		joinedUp bool // and the whole parse has no syntax error
	}{
		"comments between definitions": {src: "def f():\n    pass\n# after f\n\n    # indented after f\nclass C:\n    pass\n# end\n"},
		"a comment ending a block":     {src: "if x:\n    y = 1\n    # last\nz = 2\n"},
		"a byte order mark":            {src: "\ufeffimport os\nx = 1\n"},
		"no newline at the end":        {src: "import os\nx = 1"},
		"soft keywords":                {src: "match x:\n    case 1:\n        pass\ntype T = int\nmatch = 1\ncase = 2\n"},
		// Tree-sitter reads `y` as the value; Python rejects the line.
		"an assignment cut by a comment": {src: "x = # why\ny\nz = 1\n", givesUp: true, joinedUp: true},
		"a decorator without definition": {src: "@dec\n\ny = 1\nz = 2\n", givesUp: true},
		// Tree-sitter reads an empty block, in the whole file and in pieces.
		"a block at column 0":     {src: "if x:\ny = 1\nz = 2\n"},
		"a stray closing bracket": {src: "x = 1)\ny = 2\n", givesUp: true},
	}
	// Every Python file of the repository's fixtures too.
	fixtures := 0
	for _, root := range []string{"testdata", "../testdata/py"} {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && strings.HasSuffix(p, ".py") {
				b, err := os.ReadFile(p)
				if err != nil {
					return err
				}
				fixtures++
				cases[p] = struct {
					src               string
					givesUp, joinedUp bool
				}{src: string(b)}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	compared := 0
	for name, c := range cases {
		in := []byte(c.src)
		if checkSource(in) != nil {
			continue
		}
		starts := chunkStarts(in, 1)
		if len(starts) == 0 {
			if !strings.HasSuffix(name, ".py") {
				t.Errorf("%s: no place to cut", name)
			}
			continue
		}
		whole := wholeRecs(t, in)
		recs, rb, ok := parseChunked(in, starts)
		if ok {
			recs = append([]rec(nil), recs...)
			putRecs(rb)
		}
		switch {
		case c.givesUp && ok:
			t.Errorf("%s: the pieced parse did not give up", name)
		case !ok && !hasErrors(whole) && !c.joinedUp:
			t.Errorf("%s: the pieced parse gave up on a file without syntax errors", name)
		case ok && hasErrors(whole):
			t.Errorf("%s: the pieced parse has no syntax error where the whole parse has", name)
		case ok:
			compared++
			if i := firstDifferentRecord(recs, whole); i >= 0 {
				t.Errorf("%s: record %d differs from the whole parse's", name, i)
			}
		}
	}
	if fixtures < 250 || compared < 200 {
		t.Errorf("read %d fixtures and compared %d files; the repository has over 250 and 200", fixtures, compared)
	}
}

// TestCutsChunkStartsAvoids shows why chunkStarts never cuts before an
// else, elif, except or finally arm, nor after a decorator: tree-sitter
// reads a piece that starts with `else:` as an annotated assignment to a
// name `else`, without a syntax error, so a pieced parse cut there would
// not give up, and would return another tree than the whole file's.
func TestCutsChunkStartsAvoids(t *testing.T) {
	cases := []struct{ head, tail string }{
		{"if x:\n    pass\n", "else:\n    pass\n"},
		{"if x:\n    pass\n", "elif y:\n    pass\n"},
		{"try:\n    pass\n", "except E:\n    pass\n"},
		{"try:\n    pass\n", "finally:\n    pass\n"},
		{"@decorator\n", "def f():\n    pass\n"},
	}
	for _, c := range cases {
		src := []byte(c.head + c.tail)
		if starts := chunkStarts(src, 1); len(starts) != 0 {
			t.Errorf("%q: chunkStarts cuts at %v", src, starts)
		}
		recs, rb, ok := parseChunked(src, []int{len(c.head)})
		if ok {
			recs = append([]rec(nil), recs...)
			putRecs(rb)
		}
		if ok && firstDifferentRecord(recs, wholeRecs(t, src)) < 0 {
			t.Errorf("%q: cutting before %q changes nothing; chunkStarts could cut there", src, c.tail)
		}
	}
}

// TestParseLargeFileInPieces checks Parse itself on a source large enough
// to be parsed in pieces: the same File as from one whole parse.
func TestParseLargeFileInPieces(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	var b bytes.Buffer
	for i := 0; b.Len() < 2*minChunked; i++ {
		b.WriteString(strings.ReplaceAll(`import torch
from multiprocessing import Pool

# worker NUMBER: squares on the GPU
def worker_NUMBER(x):
    """Runs in the child.

def not_a_start(): inside the docstring
"""
    return torch.ones(x, device="cuda").sum().item()

if __name__ == "__main__":
    with Pool(NUMBER % 4 + 1) as pool:
        print(pool.map(worker_NUMBER, [1, 2, 3]))
`, "NUMBER", strings.Repeat("1", i%7+1)))
	}
	src := b.Bytes()
	if n := chunkCount(len(src)); n < 2 || len(chunkStarts(src, len(src)/n)) == 0 {
		t.Fatalf("a %d-byte source on 4 threads is not parsed in pieces", len(src))
	}
	f, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	whole := convert(wholeRecs(t, src), src, nil, NewArenas())
	if len(f.Errors) != 0 {
		t.Fatalf("syntax errors: %v", f.Errors)
	}
	if d := firstDifference(reflect.ValueOf(f), reflect.ValueOf(whole), "File"); d != "" {
		t.Errorf("the pieced parse's File differs from the whole parse's: %s", d)
	}
}
