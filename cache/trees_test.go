package cache

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
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
	if ps := packPaths(t, s); len(ps) != 1 || len(packIndex(t, ps[0])) != len(distinct) {
		t.Errorf("packs %q, want one of %d trees", ps, len(distinct))
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

// packPaths returns the paths of s's packs.
func packPaths(t *testing.T, s *Store) []string {
	t.Helper()
	ps, err := filepath.Glob(filepath.Join(s.Dir(), treesDir, "*"+packExt))
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

// packIndex returns the index of the pack at path, which must open.
func packIndex(t *testing.T, path string) []indexEntry {
	t.Helper()
	p, err := openPack(path)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	defer p.f.Close()
	return p.index
}

// copies counts the copies of every key in s's packs (of this format).
func copies(s *Store) map[treeKey]int {
	packs := openPacks(filepath.Join(s.Dir(), treesDir))
	defer closePacks(packs)
	n := map[treeKey]int{}
	for _, p := range packs {
		for _, e := range p.index {
			n[e.key]++
		}
	}
	return n
}

func keyOf(t *testing.T, src []byte) treeKey {
	t.Helper()
	k, err := entryKey(src)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// store stores the tree of every src in tr.
func store(tr *Trees, srcs ...[]byte) {
	for _, src := range srcs {
		f, _ := syntax.Parse(src)
		tr.Store(src, f)
	}
}

// TestTreesMiss: only the bytes stored hit; another source, or another
// directory, misses. Before Flush a tree stored is loaded by its own run
// (from the pack being written) and by no other, and no pack exists;
// Flush makes one pack, holding it once however often it was stored, and a
// second Flush writes nothing.
func TestTreesMiss(t *testing.T) {
	for _, c := range codecs() {
		t.Run(c.name, func(t *testing.T) {
			s := Open(t.TempDir())
			tr := newTrees(t, s, c)
			a := []byte("import torch\ntorch.cuda.init()\n")
			fa, _ := syntax.Parse(a)
			tr.Store(a, fa)
			tr.Store(a, fa)
			if ps := packPaths(t, s); len(ps) > 0 {
				t.Errorf("a pack before Flush: %q", ps)
			}
			if f, ok := tr.Load(a, nil); !ok || !reflect.DeepEqual(f, fa) {
				t.Errorf("a tree of the pack being written: loaded %v", ok)
			}
			if _, ok := newTrees(t, s, c).Load(a, nil); ok {
				t.Errorf("another run loaded a tree not flushed yet")
			}
			tr.Flush()
			tr.Flush()
			ps := packPaths(t, s)
			if len(ps) != 1 {
				t.Fatalf("%d packs after Flush, want 1", len(ps))
			}
			if idx := packIndex(t, ps[0]); len(idx) != 1 || idx[0].key != keyOf(t, a) {
				t.Errorf("the pack holds %d trees, want a's alone", len(idx))
			}
			if _, ok := newTrees(t, s, c).Load(a, nil); !ok {
				t.Errorf("another run did not load a tree flushed")
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
			tr.Flush()
			if ps := packPaths(t, s); len(ps) != 1 {
				t.Errorf("a Flush with nothing stored wrote a pack: %q", ps)
			}
			other := newTrees(t, Open(t.TempDir()), c)
			if _, ok := other.Load(a, nil); ok {
				t.Errorf("loaded from an empty directory")
			}
		})
	}
}

// TestTreesWriter: Store writes each tree to the run's pack when it is
// stored (the file grows by each: no encoded tree waits in memory for
// Flush), in trees/ when the run found it, and in os.TempDir() when not:
// then nothing is created in the cache directory before Flush, which
// renames the pack into trees/ and leaves nothing in os.TempDir().
func TestTreesWriter(t *testing.T) {
	for _, found := range []bool{true, false} {
		t.Run(fmt.Sprintf("trees/ found %v", found), func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "cache")
			tmp := t.TempDir()
			t.Setenv("TMPDIR", tmp)
			trees := filepath.Join(dir, treesDir)
			where, elsewhere := tmp, trees
			if found {
				if err := os.MkdirAll(trees, 0o755); err != nil {
					t.Fatal(err)
				}
				where, elsewhere = trees, tmp
			}
			s := Open(dir)
			tr := s.Trees()
			fakeCodec(tr)
			var srcs [][]byte
			size := int64(len(packMagic))
			for i := range 3 {
				src := fmt.Appendf(nil, "x = %d\n", i)
				srcs = append(srcs, src)
				store(tr, src)
				tmps, _ := filepath.Glob(filepath.Join(where, tmpPrefix+"*"))
				if len(tmps) != 1 {
					t.Fatalf("after %d stores: temporary files %q in %s", i+1, tmps, where)
				}
				fi, err := os.Stat(tmps[0])
				if err != nil {
					t.Fatal(err)
				}
				size += int64(len(fakeEncoding(src)))
				if fi.Size() != size {
					t.Errorf("after %d stores: the pack being written has %d bytes, want %d", i+1, fi.Size(), size)
				}
				if _, ok := tr.Load(src, nil); !ok {
					t.Errorf("a tree of the pack being written not loaded")
				}
			}
			if left, _ := filepath.Glob(filepath.Join(elsewhere, "*")); len(left) > 0 {
				t.Errorf("written in %s too: %q", elsewhere, left)
			}
			if _, err := os.Stat(dir); !found && err == nil {
				t.Errorf("the cache directory created before Flush")
			}
			tr.Flush()
			if left, _ := filepath.Glob(filepath.Join(tmp, "*")); len(left) > 0 {
				t.Errorf("left in os.TempDir(): %q", left)
			}
			ps := packPaths(t, s)
			if len(ps) != 1 {
				t.Fatalf("packs %q, want 1", ps)
			}
			if idx := packIndex(t, ps[0]); len(idx) != len(srcs) {
				t.Errorf("the pack holds %d trees, want %d", len(idx), len(srcs))
			}
			checkTidy(t, s, treesDir)
			next := s.Trees()
			fakeCodec(next)
			for _, src := range srcs {
				if _, ok := next.Load(src, nil); !ok {
					t.Errorf("%q not loaded by the next run", src)
				}
			}
		})
	}
}

// TestTreesOtherFileSystem: a pack written in an os.TempDir() on another
// file system than the cache, which Flush cannot rename into trees/, is
// copied there.
func TestTreesOtherFileSystem(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cache")
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	s := Open(dir)
	tr := s.Trees()
	fakeCodec(tr)
	tr.rename = func(oldpath, newpath string) error {
		return &os.LinkError{Op: "rename", Old: oldpath, New: newpath, Err: syscall.EXDEV}
	}
	src := []byte("x = 1\n")
	store(tr, src)
	if tmps, _ := filepath.Glob(filepath.Join(tmp, tmpPrefix+"*")); len(tmps) != 1 {
		t.Fatalf("temporary files %q in %s", tmps, tmp)
	}
	tr.Flush()
	if left, _ := filepath.Glob(filepath.Join(tmp, "*")); len(left) > 0 {
		t.Errorf("left in os.TempDir(): %q", left)
	}
	if ps := packPaths(t, s); len(ps) != 1 {
		t.Fatalf("packs %q, want 1", ps)
	}
	checkTidy(t, s, treesDir)
	next := s.Trees()
	fakeCodec(next)
	if _, ok := next.Load(src, nil); !ok {
		t.Errorf("the copied pack's tree not loaded")
	}
}

// TestTreesEmptyEncoding: a tree that encodes to nothing is not stored,
// and nothing is created, in the cache nor in os.TempDir().
func TestTreesEmptyEncoding(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cache")
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	tr := Open(dir).Trees()
	tr.encode = func(buf []byte, f *syntax.File, src []byte) []byte { return buf }
	src := []byte("x = 1\n")
	f, _ := syntax.Parse(src)
	tr.Store(src, f)
	tr.Flush()
	if _, err := os.Stat(dir); err == nil {
		t.Errorf("an empty encoding created the directory")
	}
	if left, _ := filepath.Glob(filepath.Join(tmp, "*")); len(left) > 0 {
		t.Errorf("an empty encoding wrote %q", left)
	}
	if _, ok := tr.Load(src, nil); ok || tr.Stats().Stored != 0 {
		t.Errorf("an empty encoding was stored: %s", tr.Stats())
	}
}

// TestTreesDamagedEntries: a pack that is truncated, altered (in a
// payload, the index or the footer), or not a pack, and a tree that does
// not decode (an error, a panic, no tree), is a miss, never a panic. A
// pack whose header, index or footer does not check is removed when
// opened; one of another format is left alone. A tree whose checksum does
// not match is not decoded. The parse that follows stores a good copy,
// the damaged one is merged away, and the next run loads it.
func TestTreesDamagedEntries(t *testing.T) {
	src := []byte("import multiprocessing as mp\nimport torch\n\nif __name__ == '__main__':\n    torch.cuda.init()\n")
	tree, _ := syntax.Parse(src)
	h := len(packMagic)
	indexOff := func(b []byte) int { return int(binary.LittleEndian.Uint64(b[len(b)-footerSize:])) }
	flip := func(at func(b []byte) int) func([]byte) []byte {
		return func(b []byte) []byte { b[at(b)] ^= 0x10; return b }
	}
	for _, c := range codecs() {
		t.Run(c.name, func(t *testing.T) {
			for _, tc := range []struct {
				name   string
				damage func([]byte) []byte
				decode func(data, src []byte, _ *syntax.Arenas) (*syntax.File, error) // replaces the codec's, when set
				// kept: the pack is not removed when opened (its index
				// checks, or it is another format's).
				kept bool
			}{
				{name: "empty", damage: func([]byte) []byte { return nil }},
				{name: "truncated in the header", damage: func(b []byte) []byte { return b[:h-3] }},
				{name: "truncated in the payload", damage: func(b []byte) []byte { return b[:h+10] }},
				{name: "truncated in the index", damage: func(b []byte) []byte { return b[:indexOff(b)+7] }},
				{name: "truncated in the footer", damage: func(b []byte) []byte { return b[:len(b)-3] }},
				{name: "a byte more", damage: func(b []byte) []byte { return append(b, 0) }},
				{name: "a flipped payload byte", damage: flip(func(b []byte) int { return (h + indexOff(b)) / 2 }), kept: true},
				{name: "a flipped index key byte", damage: flip(func(b []byte) int { return indexOff(b) + 3 })},
				{name: "a flipped index offset byte", damage: flip(func(b []byte) int { return indexOff(b) + sha256.Size })},
				{name: "a flipped index day byte", damage: flip(func(b []byte) int { return indexOff(b) + indexEntrySize - 1 })},
				{name: "a flipped footer offset byte", damage: flip(func(b []byte) int { return len(b) - footerSize })},
				{name: "a flipped footer count byte", damage: flip(func(b []byte) int { return len(b) - footerSize + 8 })},
				{name: "a flipped footer checksum byte", damage: flip(func(b []byte) int { return len(b) - footerSize + 12 })},
				{name: "a flipped tail byte", damage: flip(func(b []byte) int { return len(b) - 2 })},
				{name: "another format", damage: func(b []byte) []byte {
					return bytes.Replace(b, []byte(packMagic), []byte(packFamily+"t9\n"), 1)
				}, kept: true},
				{name: "a results entry's header", damage: func(b []byte) []byte { return append([]byte(magic), b[h:]...) }},
				{name: "garbage", damage: func([]byte) []byte { return []byte("not a pack\n") }},
				{name: "a decode error", decode: func(data, src []byte, _ *syntax.Arenas) (*syntax.File, error) { return nil, errors.New("bad") }, kept: true},
				{name: "a decode panic", decode: func(data, src []byte, _ *syntax.Arenas) (*syntax.File, error) { panic("index out of range") }, kept: true},
				{name: "a nil tree", decode: func(data, src []byte, _ *syntax.Arenas) (*syntax.File, error) { return nil, nil }, kept: true},
			} {
				t.Run(tc.name, func(t *testing.T) {
					s := Open(t.TempDir())
					tr := newTrees(t, s, c)
					tr.Store(src, tree)
					tr.Flush()
					ps := packPaths(t, s)
					if len(ps) != 1 {
						t.Fatalf("packs %q, want 1", ps)
					}
					p := ps[0]
					good, err := os.ReadFile(p)
					if err != nil {
						t.Fatal(err)
					}
					if tc.damage != nil {
						if err := os.WriteFile(p, tc.damage(bytes.Clone(good)), 0o644); err != nil {
							t.Fatal(err)
						}
					}
					damaged := s.Trees()
					failed := c.setup(t, damaged)
					if tc.decode != nil {
						damaged.decode = tc.decode
					}
					if f, ok := damaged.Load(src, nil); ok {
						t.Fatalf("damaged entry loaded: %v", f)
					}
					if failed != nil && tc.decode == nil && failed.Load() > 0 {
						t.Errorf("a damaged tree was decoded (%d)", failed.Load())
					}
					if _, err := os.Stat(p); (err == nil) != tc.kept {
						t.Errorf("the damaged pack exists %v, want %v", err == nil, tc.kept)
					}
					// The parse that follows (syntax.ParseCached) stores it.
					damaged.Store(src, tree)
					damaged.Flush()
					if st := damaged.Stats(); st.Stored != 1 {
						t.Errorf("not stored again: %s", st)
					}
					if _, err := os.Stat(p); (err == nil) != (tc.name == "another format") {
						t.Errorf("after the repair the damaged pack exists %v", err == nil)
					}
					if n := copies(s); len(n) != 1 || n[keyOf(t, src)] != 1 {
						t.Errorf("after the repair: %d keys, %d copies of the tree", len(n), n[keyOf(t, src)])
					}
					again := newTrees(t, s, c)
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
// temporary file is left, in the cache nor in os.TempDir(). The packs hold
// every tree, once each after a merge. Run it with -race.
func TestTreesConcurrent(t *testing.T) {
	var srcs [][]byte
	for i := range 12 {
		// Eight sources, four of them twice: two files with the same bytes.
		srcs = append(srcs, fmt.Appendf(nil, "import torch\nx%d = torch.ones(%d)\n", i%8, i%8))
	}
	want := make([]*syntax.File, len(srcs))
	for i, src := range srcs {
		want[i], _ = syntax.Parse(src)
	}
	for _, c := range codecs() {
		t.Run(c.name, func(t *testing.T) {
			s := Open(t.TempDir())
			tmp := t.TempDir()
			t.Setenv("TMPDIR", tmp)
			const runs, workers, rounds = 3, 8, 40
			var failed []*atomic.Int64
			var trees []*Trees
			for r := range runs {
				tr := s.Trees()
				if n := c.setup(t, tr); n != nil {
					failed = append(failed, n)
				}
				tr.maxPacks = 2 + r // merges, concurrent ones too
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
			if n := copies(s); len(n) != 8 {
				t.Errorf("%d keys in the packs for 8 distinct sources", len(n))
			}
			last := s.Trees()
			c.setup(t, last)
			last.maxPacks = 0
			last.Flush()
			ps := packPaths(t, s)
			if len(ps) != 1 {
				t.Fatalf("after a merge: packs %q, want 1", ps)
			}
			if n := copies(s); len(n) != 8 || len(packIndex(t, ps[0])) != 8 {
				t.Errorf("after a merge: %d keys, %d trees, want 8", len(n), len(packIndex(t, ps[0])))
			}
			checkTidy(t, s, treesDir)
			if left, _ := filepath.Glob(filepath.Join(tmp, "*")); len(left) > 0 {
				t.Errorf("left in os.TempDir(): %q", left)
			}
		})
	}
}

// TestTreesMergeMaxPacks: a Flush that finds more than maxPacks packs
// merges them into one holding the union of their trees, and removes
// them.
func TestTreesMergeMaxPacks(t *testing.T) {
	s := Open(t.TempDir())
	srcs := [][]byte{[]byte("x = 1\n"), []byte("x = 2\n"), []byte("x = 3\n")}
	var before []string
	for i, src := range srcs {
		tr := s.Trees()
		fakeCodec(tr)
		tr.maxPacks = 2
		store(tr, src)
		if i == 2 {
			store(tr, srcs[0]) // in a pack: not stored again
		}
		tr.Flush()
		ps := packPaths(t, s)
		wantPacks, wantMerged := i+1, int64(0)
		if i == 2 {
			wantPacks, wantMerged = 1, 3
		}
		if len(ps) != wantPacks || tr.Stats().Merged != wantMerged {
			t.Fatalf("after run %d: %d packs (%s), want %d packs, %d merged", i+1, len(ps), tr.Stats(), wantPacks, wantMerged)
		}
		if i < 2 {
			before = ps
		}
	}
	for _, p := range before {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s left after the merge", p)
		}
	}
	ps := packPaths(t, s)
	if idx := packIndex(t, ps[0]); len(idx) != len(srcs) {
		t.Errorf("the merged pack holds %d trees, want %d", len(idx), len(srcs))
	}
	next := s.Trees()
	fakeCodec(next)
	for _, src := range srcs {
		if f, ok := next.Load(src, nil); !ok {
			t.Errorf("%q not loaded from the merged pack", src)
		} else if want, _ := syntax.Parse(src); !reflect.DeepEqual(f, want) {
			t.Errorf("%q: a wrong tree", src)
		}
	}
	checkTidy(t, s, treesDir)
}

// TestTreesMergeDays: a run that loads a tree not marked used for more
// than staleDays merges the packs: the trees it used get today's day, the
// others keep the latest day recorded, and those not used for MaxAge are
// dropped. A run that loads only recent trees merges nothing.
func TestTreesMergeDays(t *testing.T) {
	s := Open(t.TempDir())
	now := time.Now()
	at := func(d time.Time) func() time.Time { return func() time.Time { return d } }
	run := func(when time.Time) *Trees {
		tr := s.Trees()
		fakeCodec(tr)
		tr.now = at(when)
		return tr
	}
	used, unused, recent := []byte("used = 1\n"), []byte("unused = 1\n"), []byte("recent = 1\n")
	long, days := now.Add(-MaxAge-48*time.Hour), now.Add(-3*24*time.Hour)
	old := run(long)
	store(old, used, unused)
	old.Flush()
	mid := run(days)
	store(mid, recent)
	mid.Flush()

	quiet := run(now)
	if _, ok := quiet.Load(recent, nil); !ok {
		t.Fatal("not loaded")
	}
	quiet.Flush()
	if ps := packPaths(t, s); len(ps) != 2 || quiet.Stats().Merged != 0 {
		t.Errorf("a load of a recent tree merged: %d packs, %s", len(ps), quiet.Stats())
	}

	this := run(now)
	if _, ok := this.Load(used, nil); !ok {
		t.Fatal("not loaded")
	}
	this.Flush()
	ps := packPaths(t, s)
	if len(ps) != 1 || this.Stats().Merged != 2 {
		t.Fatalf("after a load of an old tree: %d packs, %s", len(ps), this.Stats())
	}
	got := map[treeKey]uint32{}
	for _, e := range packIndex(t, ps[0]) {
		got[e.key] = e.day
	}
	want := map[treeKey]uint32{keyOf(t, used): dayOf(now), keyOf(t, recent): dayOf(days)}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("merged days %v, want %v", got, want)
	}
	next := run(now)
	for src, hit := range map[string]bool{string(used): true, string(recent): true, string(unused): false} {
		if _, ok := next.Load([]byte(src), nil); ok != hit {
			t.Errorf("%q: loaded %v, want %v", src, ok, hit)
		}
	}
}

// TestTreesPrune: Prune removes the packs not written for maxAge, the
// temporary files a dead writer left, and the old layout's fan-out
// directories, and keeps fresh packs and temporary files; in the system's
// temporary directory, it removes the packs a killed first run left there
// once a day old, and nothing else. A run that loaded a tree from a pack
// Prune removed keeps it: its Flush merges, and the open pack still reads.
func TestTreesPrune(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	s := Open(t.TempDir())
	dir := filepath.Join(s.Dir(), treesDir)
	long := time.Now().Add(-MaxAge - 48*time.Hour) // whole days older than MaxAge
	fresh, old, used := []byte("fresh = 1\n"), []byte("old = 1\n"), []byte("used = 1\n")
	tr := s.Trees()
	fakeCodec(tr)
	store(tr, fresh)
	tr.Flush()
	freshPack := packPaths(t, s)[0]
	tr = s.Trees()
	fakeCodec(tr)
	tr.now = func() time.Time { return long }
	store(tr, old, used)
	tr.Flush()
	var oldPack string
	for _, p := range packPaths(t, s) {
		if p != freshPack {
			oldPack = p
		}
	}
	os.Chtimes(oldPack, long, long)
	legacy := filepath.Join(dir, "ab", strings.Repeat("c", 62))
	write(t, dir, filepath.Join("ab", strings.Repeat("c", 62)), "an entry of format t1")
	deadTmp, liveTmp := writeTemps(t, dir)
	killedPack, livePack, othersTmp := filepath.Join(tmp, tmpPrefix+"cudaforklint-pack-1"),
		filepath.Join(tmp, tmpPrefix+"cudaforklint-pack-2"), filepath.Join(tmp, tmpPrefix+"another-program")
	for _, p := range []string{killedPack, livePack, othersTmp} {
		write(t, tmp, filepath.Base(p), "")
	}
	dayAgo := time.Now().Add(-25 * time.Hour)
	os.Chtimes(killedPack, dayAgo, dayAgo)
	os.Chtimes(othersTmp, dayAgo, dayAgo)
	twoHours := time.Now().Add(-2 * time.Hour)
	os.Chtimes(livePack, twoHours, twoHours)

	this := s.Trees()
	fakeCodec(this)
	if _, ok := this.Load(used, nil); !ok {
		t.Fatal("not loaded")
	}
	// No results entry at all: pruning the trees alone is no error.
	if err := s.Prune(MaxAge); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]bool{
		freshPack: true, oldPack: false, filepath.Dir(legacy): false, deadTmp: false, liveTmp: true,
		killedPack: false, livePack: true, othersTmp: true,
	} {
		if _, err := os.Stat(p); (err == nil) != want {
			t.Errorf("%s: exists %v, want %v", p, err == nil, want)
		}
	}
	this.Flush()
	next := s.Trees()
	fakeCodec(next)
	for src, hit := range map[string]bool{string(fresh): true, string(used): true, string(old): false} {
		if _, ok := next.Load([]byte(src), nil); ok != hit {
			t.Errorf("%q: loaded %v, want %v", src, ok, hit)
		}
	}
}

// TestTreesMergeDamaged: a merge takes a tree from a pack where its
// checksum matches, the newest such, and leaves out a damaged copy even
// when it is the newest.
func TestTreesMergeDamaged(t *testing.T) {
	s := Open(t.TempDir())
	src := []byte("x = 1\n")
	tr := s.Trees()
	fakeCodec(tr)
	store(tr, src)
	tr.Flush()
	good := packPaths(t, s)[0]
	b, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	b[len(packMagic)+5] ^= 1
	damaged := filepath.Join(filepath.Dir(good), strings.Repeat("d", 16)+packExt)
	if err := os.WriteFile(damaged, b, 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Hour)
	os.Chtimes(damaged, later, later)
	merging := s.Trees()
	fakeCodec(merging)
	merging.maxPacks = 1
	merging.Flush()
	ps := packPaths(t, s)
	if len(ps) != 1 || merging.Stats().Merged != 2 {
		t.Fatalf("packs %q after a merge (%s)", ps, merging.Stats())
	}
	next := s.Trees()
	failed := fakeCodec(next)
	if _, ok := next.Load(src, nil); !ok || failed.Load() > 0 {
		t.Errorf("the merged tree: loaded %v, %d decodes failed", ok, failed.Load())
	}
}

// FuzzReadPack: any bytes in a pack's place (a disk error, another
// program's file, a pack cut short) are read without a panic; what
// readPack accepts has every payload inside the file, after the header and
// before the index, where it reads whole. The seeds are a real pack and
// pieces of one.
func FuzzReadPack(f *testing.F) {
	dir := f.TempDir()
	s := Open(dir)
	tr := s.Trees()
	fakeCodec(tr)
	store(tr, []byte("x = 1\n"), []byte("import torch\ntorch.cuda.init()\n"))
	tr.Flush()
	ps, _ := filepath.Glob(filepath.Join(dir, treesDir, "*"+packExt))
	if len(ps) != 1 {
		f.Fatalf("packs %q", ps)
	}
	good, err := os.ReadFile(ps[0])
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add(good[:len(good)-footerSize])
	f.Add(good[:len(packMagic)+3])
	f.Add([]byte(packMagic + packTail))
	f.Add(append([]byte(packMagic), make([]byte, footerSize)...))
	// Indexes whose checksum matches and whose entries do not: one in the
	// header, one running into the index, an empty one.
	payload := []byte("a tree")
	for _, e := range []indexEntry{
		{off: 2, n: uint32(len(payload))},
		{off: int64(len(packMagic)), n: uint32(len(payload)) + 1},
		{off: int64(len(packMagic)), n: 0},
	} {
		b := append([]byte(packMagic), payload...)
		f.Add(append(b, packEnd([]indexEntry{e}, int64(len(b)))...))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		p := filepath.Join(t.TempDir(), strings.Repeat("a", 16)+packExt)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		pk, err := openPack(p)
		if err != nil {
			return
		}
		defer pk.f.Close()
		indexOff := int64(binary.LittleEndian.Uint64(b[len(b)-footerSize:]))
		for _, e := range pk.index {
			if e.off < int64(len(packMagic)) || e.n == 0 || e.off+int64(e.n) > indexOff {
				t.Fatalf("an entry at %d+%d outside the payloads (index at %d, %d bytes)", e.off, e.n, indexOff, len(b))
			}
			l := location{pk.f, e}
			if _, err := l.payload(); err != nil {
				t.Fatalf("an accepted entry does not read: %v", err)
			}
		}
	})
}

// TestTreesMergeTwice: two first runs at once each write a pack of the
// same trees; the next run merges them into one, since a quarter of its
// trees are in two packs. A tree or two in two packs (a file edited back)
// does not make a run merge.
func TestTreesMergeTwice(t *testing.T) {
	srcs := [][]byte{[]byte("a = 1\n"), []byte("b = 1\n"), []byte("c = 1\n"), []byte("d = 1\n"), []byte("e = 1\n"),
		[]byte("f = 1\n"), []byte("g = 1\n"), []byte("h = 1\n")}
	for _, tc := range []struct {
		name        string
		first, also [][]byte // what two runs at once store
		merged      int64
	}{
		{"the same trees", srcs, srcs, 2},
		{"one tree in common", srcs[:5], srcs[4:], 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := Open(t.TempDir())
			a, b := s.Trees(), s.Trees()
			fakeCodec(a)
			fakeCodec(b)
			store(a, tc.first...)
			store(b, tc.also...)
			a.Flush()
			b.Flush()
			if ps := packPaths(t, s); len(ps) != 2 {
				t.Fatalf("%d packs after two runs, want 2", len(ps))
			}
			next := s.Trees()
			fakeCodec(next)
			if _, ok := next.Load(srcs[4], nil); !ok {
				t.Fatal("not loaded")
			}
			next.Flush()
			if got := next.Stats().Merged; got != tc.merged {
				t.Errorf("%d packs merged, want %d", got, tc.merged)
			}
			later := s.Trees()
			fakeCodec(later)
			for _, src := range append(tc.first, tc.also...) {
				if _, ok := later.Load(src, nil); !ok {
					t.Errorf("%q not loaded after the merge", src)
				}
			}
		})
	}
}

// TestTreesRefresh: a reader kept between runs (the language server's)
// reads the packs' indexes once; Refresh keeps them while the trees
// directory is unchanged, and once a run has added a pack, closes them, so
// that the next read sees the new pack's trees.
func TestTreesRefresh(t *testing.T) {
	s := Open(t.TempDir())
	a, b := []byte("a = 1\n"), []byte("b = 1\n")
	first := s.Trees()
	fakeCodec(first)
	store(first, a)
	first.Flush()

	reader := s.Trees()
	defer reader.Close()
	if _, ok := reader.Encoded(a); !ok {
		t.Fatal("a stored tree not read")
	}
	reader.Refresh()
	if !reader.opened {
		t.Errorf("Refresh closed the packs of an unchanged directory")
	}
	later := time.Now().Add(time.Second) // past the directory's time, whatever its clock's grain
	writer := s.Trees()
	fakeCodec(writer)
	store(writer, b)
	writer.Flush()
	os.Chtimes(filepath.Join(s.Dir(), treesDir), later, later)
	if _, ok := reader.Encoded(b); ok {
		t.Fatalf("a pack written after the indexes were read was seen without a Refresh")
	}
	reader.Refresh()
	for _, src := range [][]byte{a, b} {
		if _, ok := reader.Encoded(src); !ok {
			t.Errorf("%q not read after Refresh", src)
		}
	}
}

// TestTreesMergeNothingLeft: a merge whose trees were all unused for
// MaxAge writes no pack and removes the packs it merged.
func TestTreesMergeNothingLeft(t *testing.T) {
	s := Open(t.TempDir())
	long := time.Now().Add(-MaxAge - 48*time.Hour)
	for _, src := range [][]byte{[]byte("a = 1\n"), []byte("b = 1\n")} {
		tr := s.Trees()
		fakeCodec(tr)
		tr.now = func() time.Time { return long }
		store(tr, src)
		tr.Flush()
	}
	if ps := packPaths(t, s); len(ps) != 2 {
		t.Fatalf("%d packs, want 2", len(ps))
	}
	merging := s.Trees()
	fakeCodec(merging)
	merging.maxPacks = 1
	merging.Flush()
	if ps, _ := filepath.Glob(filepath.Join(s.Dir(), treesDir, "*")); len(ps) != 0 || merging.Stats().Merged != 2 {
		t.Errorf("left after merging two packs of expired trees: %q (%s)", ps, merging.Stats())
	}
}

// TestNotebookReads: a notebook read stored is found by its file's sum by
// the run that stored it and, once flushed, by the next; it is an entry of
// its own, never the tree of the same bytes; and the counts say which is
// which.
func TestNotebookReads(t *testing.T) {
	s := Open(t.TempDir())
	tr := s.Trees()
	src := []byte("import torch\ntorch.cuda.init()\n")
	sum := sha256.Sum256(src)
	memo := []byte("what a read of the notebook gave")
	if _, ok := tr.NotebookRead(sum); ok {
		t.Fatal("a notebook read before any was stored")
	}
	f, _ := syntax.Parse(src)
	tr.Store(src, f)
	tr.StoreNotebookRead(sum, memo)
	tr.StoreNotebookRead(sum, []byte("stored again: ignored"))
	if got, ok := tr.NotebookRead(sum); !ok || string(got) != string(memo) {
		t.Errorf("the run that stored it read %q, %v", got, ok)
	}
	tr.Flush()
	if st := tr.Stats(); st.Stored != 1 || st.NotebooksStored != 1 || st.NotebooksReplayed != 1 {
		t.Errorf("stats %+v: want 1 tree stored, 1 notebook read stored and 1 replayed", st)
	}
	next := s.Trees()
	if got, ok := next.NotebookRead(sum); !ok || string(got) != string(memo) {
		t.Errorf("the next run read %q, %v", got, ok)
	}
	if got, ok := next.NotebookRead(sha256.Sum256(memo)); ok {
		t.Errorf("another sum read %q", got)
	}
	if g, ok := next.Load(src, nil); !ok || !reflect.DeepEqual(g, f) {
		t.Errorf("the tree of the same bytes: loaded %v", ok)
	}
}
