package cache

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cudaforklint/cudaforklint/syntax"
)

// treeSources are sources whose trees are stored and loaded: ordinary
// files, and the corners of Parse (no source at all, a byte order mark,
// CRLF, PEP 810's lazy imports, syntax errors, a template string,
// non-ASCII names).
func treeSources(t *testing.T) map[string][]byte {
	t.Helper()
	srcs := map[string][]byte{
		"empty":         {},
		"bom":           []byte("\ufeffimport os\nprint(os.getpid())\n"),
		"crlf":          []byte("import torch\r\nif True:\r\n    torch.cuda.init()\r\n"),
		"lazy import":   []byte("lazy import torch\nlazy from a.b import c as d\nlazy = 1\n"),
		"syntax error":  []byte("def f(:\n    pass\nx = [1, 2\n"),
		"template":      []byte("name = 'x'\nmsg = t\"hello {name!r:>10}\"\n"),
		"non-ASCII":     []byte("# é\nnäme = 'ü'\ndef größe(ß=1): return ß\n"),
		"comments only": []byte("# one\n# two\n"),
	}
	files, err := filepath.Glob(filepath.Join("..", "testdata", "py", "*", "*.py"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no test files: %v", err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		srcs[filepath.ToSlash(f)] = b
	}
	return srcs
}

// TestTreesRoundTrip: a stored tree, loaded by a later run (another Trees
// on the directory), is deep-equal to the tree Parse gives, for every
// source, through syntax's codec.
func TestTreesRoundTrip(t *testing.T) {
	s := Open(t.TempDir())
	srcs := treeSources(t)
	store := s.Trees()
	distinct := map[string]bool{}
	for name, src := range srcs {
		f, err := syntax.Parse(src)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		store.Store(src, f)
		distinct[string(src)] = true
	}
	store.Flush()
	if st := store.Stats(); st.Stored != int64(len(distinct)) {
		t.Errorf("stored %d trees of %d distinct sources (%s)", st.Stored, len(distinct), st)
	}
	load := s.Trees()
	for name, src := range srcs {
		want, _ := syntax.Parse(src)
		got, ok := load.Load(src, nil)
		if !ok {
			t.Errorf("%s: not loaded", name)
			continue
		}
		// The same tree, compared by its encoding: a decoded tree also keeps
		// its deferrable bodies' encodings, for the model's DeferBodies,
		// which reflect.DeepEqual would count as a difference.
		if !bytes.Equal(syntax.AppendEncoded(nil, got, src), syntax.AppendEncoded(nil, want, src)) {
			t.Errorf("%s: the loaded tree differs from the parsed one", name)
		}
	}
	if st := load.Stats(); st.Loaded != int64(len(srcs)) || st.Parsed != 0 {
		t.Errorf("%s, want %d loaded", st, len(srcs))
	}
}

// fakeCodec makes tr store a stand-in for a tree: 64 KiB derived from the
// source's hash (big enough that a torn write would show), which decodes,
// when it is exactly what src encodes to, to Parse's tree. It tests the
// store apart from syntax's codec. It counts the decodes that failed.
func fakeCodec(tr *Trees) *atomic.Int64 {
	var failed atomic.Int64
	tr.encode = func(buf []byte, f *syntax.File, src []byte) []byte {
		return append(buf, fakeEncoding(src)...)
	}
	tr.decode = func(data, src []byte, _ *syntax.Arenas) (*syntax.File, error) {
		if !bytes.Equal(data, fakeEncoding(src)) {
			failed.Add(1)
			return nil, errors.New("not this source's encoding")
		}
		return syntax.Parse(src)
	}
	return &failed
}

func fakeEncoding(src []byte) []byte {
	sum := sha256.Sum256(src)
	return bytes.Repeat(sum[:], 2048)
}

// codec is a codec the store's tests run with: setup gives it to a Trees,
// and returns the count of failed decodes when it keeps one.
type codec struct {
	name  string
	setup func(t *testing.T, tr *Trees) *atomic.Int64
}

// codecs are the fake codec and syntax's, the latter once it encodes
// anything (until then its subtests are skipped).
func codecs() []codec {
	return []codec{
		{"fake codec", func(t *testing.T, tr *Trees) *atomic.Int64 { return fakeCodec(tr) }},
		{"syntax codec", func(t *testing.T, tr *Trees) *atomic.Int64 {
			src := []byte("x = 1\n")
			f, _ := syntax.Parse(src)
			if len(syntax.AppendEncoded(nil, f, src)) == 0 {
				t.Skip("syntax.AppendEncoded encodes nothing yet")
			}
			return nil
		}},
	}
}

// newTrees returns a Trees on s with c's codec.
func newTrees(t *testing.T, s *Store, c codec) *Trees {
	tr := s.Trees()
	c.setup(t, tr)
	return tr
}

// TestTreesMiss: only the bytes stored hit; another source, or another
// directory, misses. Store keeps a tree for Flush to write (it is loaded
// from memory meanwhile); a second Store of the same source, or a second
// Flush, writes nothing.
func TestTreesMiss(t *testing.T) {
	for _, c := range codecs() {
		t.Run(c.name, func(t *testing.T) {
			s := Open(t.TempDir())
			tr := newTrees(t, s, c)
			a := []byte("import torch\ntorch.cuda.init()\n")
			fa, _ := syntax.Parse(a)
			tr.Store(a, fa)
			tr.Store(a, fa)
			p, _ := tr.entryPath(a)
			if _, err := os.Stat(p); err == nil {
				t.Errorf("written before Flush")
			}
			if f, ok := tr.Load(a, nil); !ok || !reflect.DeepEqual(f, fa) {
				t.Errorf("a tree kept for Flush: loaded %v", ok)
			}
			if _, ok := newTrees(t, s, c).Load(a, nil); ok {
				t.Errorf("another run loaded a tree not written yet")
			}
			tr.Flush()
			tr.Flush()
			if _, err := os.Stat(p); err != nil {
				t.Errorf("not written by Flush: %v", err)
			}
			for _, tc := range []struct {
				name string
				src  []byte
				hit  bool
			}{
				{"the source stored", a, true},
				{"a copy of it", append([]byte(nil), a...), true},
				{"a byte more", append(append([]byte(nil), a...), '\n'), false},
				{"a byte changed", bytes.Replace(a, []byte("init"), []byte("inix"), 1), false},
				{"no source", nil, false},
			} {
				f, ok := tr.Load(tc.src, nil)
				if ok != tc.hit {
					t.Errorf("%s: loaded %v, want %v", tc.name, ok, tc.hit)
				}
				if ok {
					want, _ := syntax.Parse(tc.src)
					if !reflect.DeepEqual(f, want) {
						t.Errorf("%s: the loaded tree differs", tc.name)
					}
				}
			}
			if st := tr.Stats(); st != (TreeStats{Loaded: 3, Parsed: 3, Stored: 1}) {
				t.Errorf("%s", st)
			}
			other := newTrees(t, Open(t.TempDir()), c)
			if _, ok := other.Load(a, nil); ok {
				t.Errorf("loaded from an empty directory")
			}
		})
	}
}

// TestTreesWrittenAtOnce: a run that finds the trees directory writes each
// new tree when it is stored, not at Flush (so that a first run alone holds
// its trees in memory).
func TestTreesWrittenAtOnce(t *testing.T) {
	for _, c := range codecs() {
		t.Run(c.name, func(t *testing.T) {
			s := Open(t.TempDir())
			first := newTrees(t, s, c)
			a := []byte("import torch\ntorch.cuda.init()\n")
			fa, _ := syntax.Parse(a)
			first.Store(a, fa)
			first.Flush() // creates trees/
			next := newTrees(t, s, c)
			b := []byte("import os\nos.fork()\n")
			fb, _ := syntax.Parse(b)
			next.Store(b, fb)
			p, _ := next.entryPath(b)
			if _, err := os.Stat(p); err != nil {
				t.Errorf("not written when stored: %v", err)
			}
			if f, ok := newTrees(t, s, c).Load(b, nil); !ok || !reflect.DeepEqual(f, fb) {
				t.Errorf("another run did not load it: %v", ok)
			}
			if st := next.Stats(); st.Stored != 1 {
				t.Errorf("%s", st)
			}
		})
	}
}

// TestTreesEmptyEncoding: a tree that encodes to nothing is not stored,
// and nothing is created.
func TestTreesEmptyEncoding(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cache")
	tr := Open(dir).Trees()
	tr.encode = func(buf []byte, f *syntax.File, src []byte) []byte { return buf }
	src := []byte("x = 1\n")
	f, _ := syntax.Parse(src)
	tr.Store(src, f)
	tr.Flush()
	if _, err := os.Stat(dir); err == nil {
		t.Errorf("an empty encoding created the directory")
	}
	if _, ok := tr.Load(src, nil); ok || tr.Stats().Stored != 0 {
		t.Errorf("an empty encoding was stored: %s", tr.Stats())
	}
}

// TestTreesDamagedEntries: an entry that is truncated, altered, of another
// format, or that does not decode (an error, a panic) is a miss, never a
// panic, and the next Store writes a good one.
func TestTreesDamagedEntries(t *testing.T) {
	src := []byte("import multiprocessing as mp\nimport torch\n\nif __name__ == '__main__':\n    torch.cuda.init()\n")
	tree, _ := syntax.Parse(src)
	for _, c := range codecs() {
		t.Run(c.name, func(t *testing.T) {
			for _, tc := range []struct {
				name   string
				damage func([]byte) []byte
				decode func(data, src []byte, _ *syntax.Arenas) (*syntax.File, error) // replaces the codec's, when set
			}{
				{name: "empty", damage: func([]byte) []byte { return nil }},
				{name: "truncated in the header", damage: func(b []byte) []byte { return b[:len(treesMagic)-3] }},
				{name: "truncated in the checksum", damage: func(b []byte) []byte { return b[:len(treesMagic)+2] }},
				{name: "no payload", damage: func(b []byte) []byte { return b[:treesHeader] }},
				{name: "truncated in the payload", damage: func(b []byte) []byte { return b[:len(b)-7] }},
				{name: "a byte more", damage: func(b []byte) []byte { return append(b, 0) }},
				{name: "a flipped payload byte", damage: func(b []byte) []byte { b[treesHeader+(len(b)-treesHeader)/2] ^= 0x10; return b }},
				{name: "a flipped checksum byte", damage: func(b []byte) []byte { b[len(treesMagic)+1] ^= 1; return b }},
				{name: "another format", damage: func(b []byte) []byte {
					return bytes.Replace(b, []byte(treesMagic), []byte("cudaforklint parse tree t0\n"), 1)
				}},
				{name: "a results entry's header", damage: func(b []byte) []byte {
					return append([]byte(magic), b[len(treesMagic):]...)
				}},
				{name: "garbage", damage: func([]byte) []byte { return []byte("not an entry\n") }},
				{name: "a decode error", decode: func(data, src []byte, _ *syntax.Arenas) (*syntax.File, error) { return nil, errors.New("bad") }},
				{name: "a decode panic", decode: func(data, src []byte, _ *syntax.Arenas) (*syntax.File, error) { panic("index out of range") }},
				{name: "a nil tree", decode: func(data, src []byte, _ *syntax.Arenas) (*syntax.File, error) { return nil, nil }},
			} {
				t.Run(tc.name, func(t *testing.T) {
					s := Open(t.TempDir())
					tr := newTrees(t, s, c)
					tr.Store(src, tree)
					tr.Flush()
					p, _ := tr.entryPath(src)
					good, err := os.ReadFile(p)
					if err != nil {
						t.Fatal(err)
					}
					if tc.damage != nil {
						if err := os.WriteFile(p, tc.damage(bytes.Clone(good)), 0o644); err != nil {
							t.Fatal(err)
						}
					}
					damaged := newTrees(t, s, c)
					if tc.decode != nil {
						damaged.decode = tc.decode
					}
					if f, ok := damaged.Load(src, nil); ok {
						t.Fatalf("damaged entry loaded: %v", f)
					}
					if _, err := os.Stat(p); err == nil {
						t.Errorf("the damaged entry was left")
					}
					again := newTrees(t, s, c)
					again.Store(src, tree)
					again.Flush()
					if b, _ := os.ReadFile(p); !bytes.Equal(b, good) {
						t.Errorf("not repaired: %d bytes, want %d", len(b), len(good))
					}
					if f, ok := again.Load(src, nil); !ok || !reflect.DeepEqual(f, tree) {
						t.Errorf("after the repair: loaded %v", ok)
					}
				})
			}
		})
	}
}

// TestTreesConcurrent: the goroutines of several runs (Trees on one
// directory) store, flush and load the same and different sources at once;
// every load is the source's tree, none sees a torn entry, and no
// temporary file is left. Run it with -race.
func TestTreesConcurrent(t *testing.T) {
	var srcs [][]byte
	for i := range 12 {
		// Four sources twice: two files with the same bytes.
		srcs = append(srcs, fmt.Appendf(nil, "import torch\nx%d = torch.ones(%d)\n", i%8, i%8))
	}
	want := make([]*syntax.File, len(srcs))
	for i, src := range srcs {
		want[i], _ = syntax.Parse(src)
	}
	for _, c := range codecs() {
		t.Run(c.name, func(t *testing.T) {
			s := Open(t.TempDir())
			const runs, workers, rounds = 3, 8, 40
			var failed []*atomic.Int64
			var trees []*Trees
			for range runs {
				tr := s.Trees()
				if n := c.setup(t, tr); n != nil {
					failed = append(failed, n)
				}
				trees = append(trees, tr)
			}
			var wg sync.WaitGroup
			errs := make(chan string, runs*workers*rounds)
			for r, tr := range trees {
				for w := range workers {
					wg.Add(1)
					go func() {
						defer wg.Done()
						for i := range rounds {
							j := (r*7 + w*3 + i) % len(srcs)
							// A copy, as each read of a file is.
							src := bytes.Clone(srcs[j])
							f, err := syntax.ParseCached(src, tr, nil)
							if err != nil {
								errs <- err.Error()
							} else if !reflect.DeepEqual(f, want[j]) {
								errs <- fmt.Sprintf("source %d: a wrong tree", j)
							}
							if i%5 == w%5 {
								tr.Flush()
							}
						}
					}()
				}
			}
			wg.Wait()
			close(errs)
			for e := range errs {
				t.Error(e)
			}
			var total TreeStats
			for _, tr := range trees {
				tr.Flush()
				st := tr.Stats()
				total.Loaded += st.Loaded
				total.Parsed += st.Parsed
				total.Stored += st.Stored
			}
			if total.Loaded+total.Parsed != runs*workers*rounds || total.Loaded == 0 || total.Stored < 8 {
				t.Errorf("%s over %d parses", total, runs*workers*rounds)
			}
			for _, f := range failed {
				if n := f.Load(); n > 0 {
					t.Errorf("%d torn or foreign entries decoded", n)
				}
			}
			entries, _ := filepath.Glob(filepath.Join(s.Dir(), treesDir, "*", "*"))
			if len(entries) != 8 {
				t.Errorf("%d entries for 8 distinct sources: %q", len(entries), entries)
			}
			checkTidy(t, s, filepath.Join(treesDir, "*"))
		})
	}
}

// TestTreesPrune: Prune removes the trees not used for maxAge (and their
// fan-out directories once empty) and temporary files a dead writer left,
// and keeps the fresh ones; a Load marks an entry used, at most once a day.
func TestTreesPrune(t *testing.T) {
	s := Open(t.TempDir())
	tr := s.Trees()
	fakeCodec(tr)
	// Sources whose entries lie in fan-out directories of their own.
	var old, fresh, used []byte
	dirs := map[string]bool{}
	for i := 0; used == nil; i++ {
		src := fmt.Appendf(nil, "x = %d\n", i)
		p, _ := tr.entryPath(src)
		if dirs[filepath.Dir(p)] {
			continue
		}
		dirs[filepath.Dir(p)] = true
		switch {
		case old == nil:
			old = src
		case fresh == nil:
			fresh = src
		default:
			used = src
		}
	}
	path := func(src []byte) string { p, _ := tr.entryPath(src); return p }
	for _, src := range [][]byte{old, fresh, used} {
		f, _ := syntax.Parse(src)
		tr.Store(src, f)
	}
	tr.Flush()
	long := time.Now().Add(-MaxAge - time.Hour)
	os.Chtimes(path(old), long, long)
	os.Chtimes(path(used), long, long)
	if _, ok := tr.Load(used, nil); !ok { // used today: marked
		t.Fatal("not loaded")
	}
	if fi, err := os.Stat(path(used)); err != nil || time.Since(fi.ModTime()) > time.Hour {
		t.Errorf("a load of an old entry did not mark it used")
	}
	hourAgo := time.Now().Add(-time.Hour)
	os.Chtimes(path(fresh), hourAgo, hourAgo)
	tr.Load(fresh, nil)
	if fi, _ := os.Stat(path(fresh)); !fi.ModTime().Equal(hourAgo) {
		t.Errorf("a load of an entry used within the day changed its time")
	}
	deadTmp, liveTmp := writeTemps(t, filepath.Dir(path(fresh)))

	// No results entry at all: pruning the trees alone is no error.
	if err := s.Prune(MaxAge); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]bool{
		path(old): false, filepath.Dir(path(old)): false,
		path(fresh): true, path(used): true, deadTmp: false, liveTmp: true,
	} {
		if _, err := os.Stat(p); (err == nil) != want {
			t.Errorf("%s: exists %v, want %v", p, err == nil, want)
		}
	}
	// A pruned tree is a miss, and stored again.
	if _, ok := tr.Load(old, nil); ok {
		t.Errorf("a pruned tree loaded")
	}
	f, _ := syntax.Parse(old)
	tr.Store(old, f)
	tr.Flush()
	later := s.Trees()
	fakeCodec(later)
	if _, ok := later.Load(old, nil); !ok {
		t.Errorf("a pruned tree was not stored again")
	}
}
