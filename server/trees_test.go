package server

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cudaforklint/cudaforklint/cache"
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
	first := check(context.Background(), snap(main, nil))
	if len(first.findings) == 0 {
		t.Fatalf("no finding (%s): the case tests nothing", findings(first))
	}
	want := findings(first)
	memo := newTreeMemo(treeMemoBytes)
	if got := findings(check(context.Background(), snap(main, memo))); got != want {
		t.Errorf("first check with the memo:\n%s\nwant\n%s", got, want)
	}
	loaded, parsed := memo.counts()
	if loaded != 0 || parsed != 3 {
		t.Errorf("first check: %d loaded, %d parsed; want 0 and 3", loaded, parsed)
	}
	// An edit of the document: its imports are decoded.
	edited := main + "\n# edited\n"
	if got, want := findings(check(context.Background(), snap(edited, memo))), findings(check(context.Background(), snap(edited, nil))); got != want {
		t.Errorf("check after an edit with the memo:\n%s\nwant\n%s", got, want)
	}
	loaded, parsed = memo.counts()
	if loaded != 2 || parsed != 4 {
		t.Errorf("after the edit: %d loaded, %d parsed in all; want 2 (gpu, pool) and 4 (train.py twice)", loaded, parsed)
	}
}

// TestFirstCheckReadsProjectCache: the first check of a document decodes
// the modules it imports from the parse trees a `check` of the folder
// stored (the packs of its cache directory), finds what parsing finds, and
// writes nothing there; a folder never checked gets no cache directory,
// and CUDAFORKLINT_NO_CACHE turns the reading off.
func TestFirstCheckReadsProjectCache(t *testing.T) {
	t.Setenv("CUDAFORKLINT_CACHE_DIR", "")
	loader, err := config.NewLoader(ruledoc.All(), config.Overrides{})
	if err != nil {
		t.Fatal(err)
	}
	modules := map[string]string{
		"gpu.py":  "import torch\n\ndef warm():\n    torch.cuda.init()\n",
		"pool.py": "import multiprocessing as mp\n\ndef run(fn):\n    mp.get_context('fork').Process(target=fn).start()\n",
	}
	main := "import gpu\nimport pool\nimport torch\n\ndef child():\n    torch.zeros(1, device='cuda')\n\nif __name__ == '__main__':\n    gpu.warm()\n    pool.run(child)\n"
	// project writes the modules and the document into a new folder; with
	// checked, it stores the modules' trees as a check would.
	project := func(checked bool) (dir, path string) {
		dir = t.TempDir()
		for name, src := range modules {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		path = filepath.Join(dir, "train.py")
		if err := os.WriteFile(path, []byte(main), 0o644); err != nil {
			t.Fatal(err)
		}
		if checked {
			trees := cache.Open(filepath.Join(dir, cache.DirName)).Trees()
			for _, src := range modules {
				f, err := syntax.Parse([]byte(src))
				if err != nil {
					t.Fatal(err)
				}
				trees.Store([]byte(src), f)
			}
			trees.Flush()
		}
		return dir, path
	}
	// listing is every file below dir with its size and time.
	listing := func(dir string) string {
		var b strings.Builder
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if info, err := d.Info(); err == nil && !d.IsDir() {
				fmt.Fprintf(&b, "%s %d %s\n", p, info.Size(), info.ModTime())
			}
			return nil
		})
		return b.String()
	}
	for _, tc := range []struct {
		name             string
		checked, noCache bool
		fromDisk, parsed int
	}{
		{"a folder checked before", true, false, 2, 1},
		{"a folder never checked", false, false, 0, 3},
		{"CUDAFORKLINT_NO_CACHE", true, true, 0, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			noCache := ""
			if tc.noCache {
				noCache = "1"
			}
			t.Setenv("CUDAFORKLINT_NO_CACHE", noCache)
			dir, path := project(tc.checked)
			before := listing(dir)
			snap := func(trees *treeMemo) *snapshot {
				return &snapshot{path: path, folder: dir, overlay: map[string][]byte{path: []byte(main)}, loader: loader, trees: trees}
			}
			want := fmt.Sprint(check(context.Background(), snap(nil)).findings)
			memo := newTreeMemo(treeMemoBytes)
			defer memo.closeDisks()
			if got := fmt.Sprint(check(context.Background(), snap(memo)).findings); got != want || len(check(context.Background(), snap(nil)).findings) == 0 {
				t.Errorf("findings with the project's trees:\n%s\nwant (parsed)\n%s", got, want)
			}
			if memo.fromDisk != tc.fromDisk || memo.parsed != tc.parsed || memo.loaded != 0 {
				t.Errorf("first check: %d from the cache directory, %d parsed, %d from the memo; want %d, %d, 0",
					memo.fromDisk, memo.parsed, memo.loaded, tc.fromDisk, tc.parsed)
			}
			check(context.Background(), snap(memo)) // the document unchanged: all three from the memo
			if memo.loaded != 3 || memo.fromDisk != tc.fromDisk {
				t.Errorf("second check: %d from the memo, %d from the cache directory in all; want 3, %d", memo.loaded, memo.fromDisk, tc.fromDisk)
			}
			if after := listing(dir); after != before {
				t.Errorf("the checks wrote in the folder:\n%s\nwas\n%s", after, before)
			}
		})
	}
}
