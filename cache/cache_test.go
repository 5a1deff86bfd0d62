package cache

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cudaforklint/cudaforklint/analyzer"
	"github.com/cudaforklint/cudaforklint/config"
	"github.com/cudaforklint/cudaforklint/passes/pyprogram"
	"github.com/cudaforklint/cudaforklint/ruledoc"
	"github.com/cudaforklint/cudaforklint/rules"
)

func TestStoreDamagedEntries(t *testing.T) {
	s := Open(t.TempDir())
	k := Key{1}
	payload := []byte(`{"key":"x"}`)
	if err := s.save(k, payload); err != nil {
		t.Fatal(err)
	}
	if got, ok := s.load(k); !ok || !bytes.Equal(got, payload) {
		t.Fatalf("load: %q %v", got, ok)
	}
	good, _ := os.ReadFile(s.entryPath(k))
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"empty", nil},
		{"truncated in the header", good[:10]},
		{"truncated in the payload", good[:len(good)-2]},
		{"a flipped payload byte", append(good[:len(good)-1:len(good)-1], good[len(good)-1]^1)},
		{"another format", bytes.Replace(good, []byte(format), []byte("v0"), 1)},
		{"a bad checksum digit", bytes.Replace(good, good[len(magic):len(magic)+1], []byte("z"), 1)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := os.WriteFile(s.entryPath(k), tc.data, 0o644); err != nil {
				t.Fatal(err)
			}
			if got, ok := s.load(k); ok {
				t.Errorf("damaged entry loaded: %q", got)
			}
		})
	}
	if _, ok := s.load(Key{2}); ok {
		t.Errorf("a missing entry loaded")
	}
}

// TestStoreConcurrent: writers and readers of one key at once; a reader
// sees no entry or a whole one, never a torn one, and no temporary file
// is left.
func TestStoreConcurrent(t *testing.T) {
	s := Open(t.TempDir())
	k := Key{7}
	payloads := make([][]byte, 8)
	for i := range payloads {
		payloads[i] = bytes.Repeat([]byte{byte('a' + i)}, 200000+i)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 1000)
	for w := 0; w < len(payloads); w++ {
		wg.Add(2)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				if err := s.save(k, payloads[w]); err != nil {
					errs <- err.Error()
				}
			}
		}(w)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				if got, ok := s.load(k); ok {
					whole := false
					for _, p := range payloads {
						whole = whole || bytes.Equal(got, p)
					}
					if !whole {
						errs <- fmt.Sprintf("torn entry of %d bytes", len(got))
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	checkTidy(t, s, format)
}

// writeTemps writes two temporary files in dir as writers leave them: one
// two hours old (its writer died: pruning removes it), one fresh (a writer
// may still be at work).
func writeTemps(t *testing.T, dir string) (dead, live string) {
	t.Helper()
	dead, live = filepath.Join(dir, tmpPrefix+"123"), filepath.Join(dir, tmpPrefix+"456")
	for _, p := range []string{dead, live} {
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	twoHours := time.Now().Add(-2 * time.Hour)
	os.Chtimes(dead, twoHours, twoHours)
	return dead, live
}

// checkTidy checks that concurrent writers left s's directory tidy: no
// temporary file in the entries' directory pattern sub, and the tags at the
// top.
func checkTidy(t *testing.T, s *Store, sub string) {
	t.Helper()
	if tmp, _ := filepath.Glob(filepath.Join(s.Dir(), sub, tmpPrefix+"*")); len(tmp) > 0 {
		t.Errorf("temporary files left: %q", tmp)
	}
	for _, name := range []string{"CACHEDIR.TAG", ".gitignore"} {
		if _, err := os.Stat(filepath.Join(s.Dir(), name)); err != nil {
			t.Error(err)
		}
	}
}

func TestPrune(t *testing.T) {
	s := Open(t.TempDir())
	old, fresh, used := Key{1}, Key{2}, Key{3}
	for _, k := range []Key{old, fresh, used} {
		if err := s.save(k, []byte("{}")); err != nil {
			t.Fatal(err)
		}
	}
	long := time.Now().Add(-MaxAge - time.Hour)
	os.Chtimes(s.entryPath(old), long, long)
	os.Chtimes(s.entryPath(used), long, long)
	s.touch(used) // replayed today
	deadTmp, liveTmp := writeTemps(t, filepath.Join(s.Dir(), format))
	if err := s.Prune(MaxAge); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]bool{
		s.entryPath(old): false, s.entryPath(fresh): true, s.entryPath(used): true, deadTmp: false, liveTmp: true,
	} {
		if _, err := os.Stat(p); (err == nil) != want {
			t.Errorf("%s: exists %v, want %v", filepath.Base(p), err == nil, want)
		}
	}
}

func TestRelativeImports(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want []relImport
	}{
		{"import os\nfrom os import path\n", nil},
		{"from . import a\n", []relImport{{1, []string{"import", "a"}}}},
		{"from ..pkg.mod import (a,\n  b as c)\nx = 1\n", []relImport{{2, []string{"pkg", "mod", "import", "a", "b", "as", "c"}}}},
		{"from . . .x import y\n", []relImport{{3, []string{"x", "import", "y"}}}},
		{"from \\\n  .. import z\n", []relImport{{2, []string{"import", "z"}}}},
		{"from ...a import \\\n  b\nc = 2\n", []relImport{{3, []string{"a", "import", "b"}}}},
		// In a string: the prefilter reads bytes, so it counts.
		{"doc = '''\n    from ...... import attr\n'''\n", []relImport{{6, []string{"import", "attr"}}}},
		// Not the word from.
		{"xfrom .a import b\nfromx = .5\n", nil},
		{"if x: from .m import n\n", []relImport{{1, []string{"m", "import", "n"}}}},
	} {
		got := relativeImports([]byte(tc.src))
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("relativeImports(%q) = %v, want %v", tc.src, got, tc.want)
		}
	}
}

// TestUniverse: the digest changes with what an import can find, and only
// with that.
func TestUniverse(t *testing.T) {
	for _, tc := range []struct {
		name    string
		change  func(dir string)
		changes bool
	}{
		{"a module created", func(d string) { write(t, d, "pkg/new.py", "") }, true},
		{"a package created", func(d string) { write(t, d, "sub/__init__.py", "") }, true},
		{"a directory created", func(d string) { os.Mkdir(filepath.Join(d, "plain"), 0o755) }, true},
		{"a module removed", func(d string) { os.Remove(filepath.Join(d, "pkg", "mod.py")) }, true},
		{"a module made unreadable", func(d string) { os.Chmod(filepath.Join(d, "pkg", "mod.py"), 0o200) }, true},
		{"a module grown over the limit", func(d string) { write(t, d, "pkg/mod.py", string(make([]byte, 2000))) }, true},
		{"a module's content, under the limit", func(d string) { write(t, d, "pkg/mod.py", "x = 2\n") }, false},
		{"a text file", func(d string) { write(t, d, "pkg/notes.txt", "") }, false},
		{"a dotted module name", func(d string) { write(t, d, "pkg/a.b.py", "") }, false},
		{"a hidden directory", func(d string) { write(t, d, ".venv/x.py", "") }, false},
		{"outside the base", func(d string) { write(t, filepath.Dir(d), "elsewhere.py", "") }, false},
		// A cache directory in the project, not hidden: its entries'
		// directories are left out, the rest of it is not.
		{"a tree pack in a cache dir", func(d string) { write(t, d, "var/lint/trees/"+strings.Repeat("c", 16)+packExt, "") }, false},
		{"a results entry in a cache dir", func(d string) { write(t, d, "var/lint/v1/"+strings.Repeat("c", 64), "") }, false},
		{"a module in a cache dir", func(d string) { write(t, d, "var/lint/mod.py", "") }, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			top := t.TempDir()
			dir := filepath.Join(top, "base")
			write(t, dir, "pkg/__init__.py", "")
			write(t, dir, "pkg/mod.py", "x = 1\n")
			os.MkdirAll(filepath.Join(dir, "var", "lint"), 0o755)
			skip := []string{filepath.Join(dir, "var", "lint", format), filepath.Join(dir, "var", "lint", treesDir)}
			before, err := universeDigest([]string{dir}, nil, 1000, time.Time{}, skip)
			if err != nil {
				t.Fatal(err)
			}
			tc.change(dir)
			after, err := universeDigest([]string{dir}, nil, 1000, time.Time{}, skip)
			if err != nil {
				t.Fatal(err)
			}
			if (before != after) != tc.changes {
				t.Errorf("digest changed: %v, want %v", before != after, tc.changes)
			}
		})
	}
}

// TestUniverseNarrow: above a package root only the names a relative
// import spells count, and the directory's own churn (/tmp) does not stop
// a run from being stored.
func TestUniverseNarrow(t *testing.T) {
	dir := t.TempDir()
	narrow := []restricted{{Dir: dir, Names: []string{"attr", "import"}, Depth: 2}}
	before, err := universeDigest(nil, narrow, 1000, time.Time{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	write(t, dir, "unrelated/x.py", "")
	write(t, dir, "other.py", "")
	if after, _ := universeDigest(nil, narrow, 1000, time.Time{}, nil); after != before {
		t.Errorf("an entry no import names changed the digest")
	}
	start := time.Now()
	time.Sleep(60 * time.Millisecond)
	write(t, dir, "more/y.py", "") // the directory changes while a run reads it
	if _, err := universeDigest(nil, narrow, 1000, start, nil); err != nil {
		t.Errorf("an unrelated change made the run unstorable: %v", err)
	}
	write(t, dir, "attr/__init__.py", "")
	if _, err := universeDigest(nil, narrow, 1000, start, nil); err == nil {
		t.Errorf("a named package created during the run was not seen as racy")
	}
	if after, _ := universeDigest(nil, narrow, 1000, time.Time{}, nil); after == before {
		t.Errorf("a package the import names did not change the digest")
	}
}

func TestTopmost(t *testing.T) {
	got := topmost([]string{"/a/b", "/a-b/c", "/a", "/a/b/c", "/x/y", "/a-b"})
	want := []string{"/a", "/a-b", "/x/y"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("topmost = %q, want %q", got, want)
	}
}

func write(t *testing.T, dir, name, content string) {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestAnalyzedAsOnDiskNotebook: a notebook is compared by the sum of the
// file the run read when it kept one, else by the module its bytes make.
func TestAnalyzedAsOnDiskNotebook(t *testing.T) {
	const path = "/p/nb.ipynb"
	nb := func(code string) []byte {
		return []byte(`{"cells": [{"cell_type": "code", "source": ["` + code + `"]}], "metadata": {"kernelspec": {"language": "python"}}, "nbformat": 4, "nbformat_minor": 5}`)
	}
	read, rewritten := nb("x = 1"), nb("x = 2")
	module, err := analyzer.SourceReader(0, map[string][]byte{path: read})(path)
	if err != nil {
		t.Fatal(err)
	}
	kept := func(b []byte) func(string) ([sha256.Size]byte, int64, bool) {
		return func(p string) ([sha256.Size]byte, int64, bool) { return sha256.Sum256(b), int64(len(b)), p == path }
	}
	for _, tc := range []struct {
		name    string
		disk    []byte
		sum     func(string) ([sha256.Size]byte, int64, bool)
		changed bool
	}{
		{"the sum of the file read", read, kept(read), false},
		{"rewritten since, by the sum", rewritten, kept(read), true},
		{"no sum kept: the module", read, nil, false},
		{"rewritten since, by the module", rewritten, nil, true},
		{"a sum for another path: the module", rewritten, func(string) ([sha256.Size]byte, int64, bool) { return [sha256.Size]byte{}, 0, false }, true},
	} {
		err := analyzedAsOnDisk(path, tc.disk, module, tc.sum, 1<<20)
		if (err != nil) != tc.changed {
			t.Errorf("%s: %v, want changed %v", tc.name, err, tc.changed)
		}
	}
}

// TestRecordFileChangedAfterItWasRead: a file the run read is recorded by
// the sum of the bytes it read only while it has not changed since the run
// started. One rewritten after the analysis read it (the same size: only
// its times tell) leaves the run unstored, and the next run analyzes and
// stores it; the one after replays. The file is a notebook: the universe's
// walk, which sees a module changed during the run, lists no notebooks.
func TestRecordFileChangedAfterItWasRead(t *testing.T) {
	dir := t.TempDir()
	nb := func(code string) string {
		return `{"cells": [{"cell_type": "code", "source": ["` + code + `"]}], "metadata": {"kernelspec": {"language": "python"}}, "nbformat": 4, "nbformat_minor": 5}`
	}
	write(t, dir, "main.py", "import json\n")
	write(t, dir, "nb.ipynb", nb("x = 1"))
	store := Open(filepath.Join(t.TempDir(), "cache"))
	time.Sleep(60 * time.Millisecond) // past the racy window of the writes
	check := func(during func()) Outcome {
		t.Helper()
		l, err := config.NewLoader(ruledoc.All(), config.Overrides{Isolated: true})
		if err != nil {
			t.Fatal(err)
		}
		pol := func() *config.Policy {
			p := config.NewPolicy(l)
			p.Roots = []string{dir}
			return p
		}
		r := &Run{Store: store, Key: Key{7}, WorkDir: dir, Policy: pol()}
		_, out, err := r.Result(func(pc analyzer.ProgramCache, read map[string][]byte) (*analyzer.Result, error) {
			res, err := analyzer.Run(context.Background(), analyzer.Options{Analyzers: rules.All(), Policy: pol(), WorkDir: dir, Programs: pc, Read: read, Split: pyprogram.Split})
			if err == nil {
				if _, _, ok := res.DiskSum(filepath.Join(dir, "nb.ipynb")); !ok {
					t.Fatalf("the run did not read nb.ipynb from disk: %q", res.FilesRead)
				}
			}
			during()
			return res, err
		})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	rewrite := func() { write(t, dir, "nb.ipynb", nb("x = 2")) }
	if out := check(rewrite); out != Miss {
		t.Errorf("a run during which a file it read was rewritten: %v, want miss", out)
	}
	time.Sleep(60 * time.Millisecond) // past the racy window of the rewrite
	if out := check(func() {}); out != Stored {
		t.Errorf("the next run: %v, want stored", out)
	}
	if out := check(func() {}); out != Hit {
		t.Errorf("the run after: %v, want hit", out)
	}
}

// TestCancelledRunStoresNothing: an analysis cancelled (analyzer.Run's
// context) fails the run with context.Canceled and leaves no entry: the
// next run analyzes and stores, the one after replays.
func TestCancelledRunStoresNothing(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "train.py", "import multiprocessing as mp\n\nimport torch\n\ntorch.cuda.init()\nmp.get_context(\"fork\").Pool(2).map(print, [1])\n")
	store := Open(filepath.Join(t.TempDir(), "cache"))
	time.Sleep(60 * time.Millisecond) // past the racy window of the write
	l, err := config.NewLoader(ruledoc.All(), config.Overrides{Isolated: true})
	if err != nil {
		t.Fatal(err)
	}
	check := func(ctx context.Context) (Outcome, error) {
		pol := func() *config.Policy {
			p := config.NewPolicy(l)
			p.Roots = []string{dir}
			return p
		}
		r := &Run{Store: store, Key: Key{9}, WorkDir: dir, Policy: pol()}
		_, out, err := r.Result(func(pc analyzer.ProgramCache, read map[string][]byte) (*analyzer.Result, error) {
			return analyzer.Run(ctx, analyzer.Options{Analyzers: rules.All(), Policy: pol(), WorkDir: dir, Programs: pc, Read: read, Split: pyprogram.Split})
		})
		return out, err
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	if out, err := check(cancelled); !errors.Is(err, context.Canceled) || out != Miss {
		t.Errorf("a cancelled run: %v, %v; want miss, context.Canceled", out, err)
	}
	if _, ok := store.load(Key{9}); ok {
		t.Errorf("a cancelled run left an entry")
	}
	for _, want := range []Outcome{Stored, Hit} {
		if out, err := check(context.Background()); err != nil || out != want {
			t.Errorf("after the cancelled run: %v, %v; want %v", out, err, want)
		}
	}
}
