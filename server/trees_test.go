package server

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/cudaforklint/cudaforklint/config"
	"github.com/cudaforklint/cudaforklint/ruledoc"
	"github.com/cudaforklint/cudaforklint/syntax"
)

// TestTreeMemo: a stored tree comes back equal to Parse's; beyond the
// budget the least recently used tree goes.
func TestTreeMemo(t *testing.T) {
	srcs := [][]byte{
		[]byte("import torch\n\ndef f(x):\n    return torch.zeros(x, device='cuda')\n"),
		[]byte("import multiprocessing as mp\nmp.set_start_method('spawn')\n"),
		[]byte("x = [i for i in range(3)]\n# a comment\n"),
	}
	parse := func(src []byte) *syntax.File {
		f, err := syntax.Parse(src)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	size := len(syntax.AppendEncoded(nil, parse(srcs[0]), srcs[0])) + len(syntax.AppendEncoded(nil, parse(srcs[1]), srcs[1]))
	m := newTreeMemo(size) // room for the first two
	if _, ok := m.Load(srcs[0], nil); ok {
		t.Fatal("an empty memo loaded a tree")
	}
	m.Store(srcs[0], parse(srcs[0]))
	m.Store(srcs[1], parse(srcs[1]))
	for _, src := range srcs[:2] {
		got, ok := m.Load(src, nil)
		if !ok {
			t.Fatalf("%q: not kept", src)
		}
		// Compared by encoding: a decoded tree also keeps its deferrable
		// bodies' encodings, which reflect.DeepEqual would count.
		if want := parse(src); !bytes.Equal(syntax.AppendEncoded(nil, got, src), syntax.AppendEncoded(nil, want, src)) {
			t.Errorf("%q: the kept tree differs from Parse's", src)
		}
	}
	// srcs[1] was used last: storing a third drops srcs[0].
	m.Store(srcs[2], parse(srcs[2]))
	for i, want := range []bool{false, true, true} {
		if _, ok := m.Load(srcs[i], nil); ok != want {
			t.Errorf("source %d kept %v, want %v", i, ok, want)
		}
	}
	if m.bytes > m.maxBytes {
		t.Errorf("%d bytes kept, budget %d", m.bytes, m.maxBytes)
	}
}

// TestChecksReuseTrees: the second check of a document decodes the
// modules it imports instead of parsing them, and finds the same.
func TestChecksReuseTrees(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("gpu.py", "import torch\n\ndef warm():\n    torch.cuda.init()\n")
	write("pool.py", "import multiprocessing as mp\n\ndef run(fn):\n    mp.get_context('fork').Process(target=fn).start()\n")
	main := "import gpu\nimport pool\nimport torch\n\ndef child():\n    torch.zeros(1, device='cuda')\n\nif __name__ == '__main__':\n    gpu.warm()\n    pool.run(child)\n"
	path := write("train.py", main)
	loader, err := config.NewLoader(ruledoc.All(), config.Overrides{})
	if err != nil {
		t.Fatal(err)
	}
	snap := func(text string, trees *treeMemo) *snapshot {
		return &snapshot{path: path, folder: dir, overlay: map[string][]byte{path: []byte(text)}, loader: loader, trees: trees}
	}
	findings := func(r *result) string {
		return fmt.Sprint(r.findings, r.problems, r.config)
	}
	first := check(snap(main, nil))
	if len(first.findings) == 0 {
		t.Fatalf("no finding (%s): the case tests nothing", findings(first))
	}
	want := findings(first)
	memo := newTreeMemo(treeMemoBytes)
	if got := findings(check(snap(main, memo))); got != want {
		t.Errorf("first check with the memo:\n%s\nwant\n%s", got, want)
	}
	loaded, parsed := memo.counts()
	if loaded != 0 || parsed != 3 {
		t.Errorf("first check: %d loaded, %d parsed; want 0 and 3", loaded, parsed)
	}
	// An edit of the document: its imports are decoded.
	edited := main + "\n# edited\n"
	if got, want := findings(check(snap(edited, memo))), findings(check(snap(edited, nil))); got != want {
		t.Errorf("check after an edit with the memo:\n%s\nwant\n%s", got, want)
	}
	loaded, parsed = memo.counts()
	if loaded != 2 || parsed != 4 {
		t.Errorf("after the edit: %d loaded, %d parsed in all; want 2 (gpu, pool) and 4 (train.py twice)", loaded, parsed)
	}
}
