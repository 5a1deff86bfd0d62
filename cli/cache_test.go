package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// The results cache as users meet it: a cached run prints exactly what an
// uncached one prints, and no change to an input the findings depend on
// is ever answered with the old result.

// copyLocalModules copies the fixture testdata/py/cfl001_local_modules (a
// training script, train.py, that forks after a local module, gpu_setup.py,
// initializes CUDA) to dir, each file's name after prefix.
func copyLocalModules(t *testing.T, dir, prefix string) {
	t.Helper()
	for _, name := range []string{"train.py", "gpu_setup.py", "workers.py"} {
		b, err := os.ReadFile(filepath.Join("..", "testdata", "py", "cfl001_local_modules", name))
		if err != nil {
			t.Fatal(err)
		}
		write(t, dir, prefix+name, string(b))
	}
}

// cacheProject writes a project whose check has every kind of output: a
// finding in an imported module that an entry causes (train.py →
// gpu_setup.py), a suppressed one, a syntax error, a notice (a template
// string), a tool error that the file's bytes decide (latin-1 source), and
// a notebook with a finding.
func cacheProject(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	copyLocalModules(t, dir, "app/")
	nb, err := os.ReadFile(filepath.Join("..", "testdata", "py", "notebooks", "hazard.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	write(t, dir, "nb/hazard.ipynb", string(nb))
	write(t, dir, "hazard.py", hazard)
	write(t, dir, "quiet.py", strings.Replace(hazard, "torch.cuda.init()", "torch.cuda.init()  # noqa: CFL001", 1))
	write(t, dir, "broken.py", "def f(:\n    pass\n")
	write(t, dir, "tstring.py", "name = 'x'\nmsg = t\"hello {name}\"\n")
	write(t, dir, "latin.py", "# -*- coding: latin-1 -*-\ns = '\xe9'\n")
	settle()
	return dir
}

// settle waits out the cache's racy window: a file written less than that
// before a run starts may have changed while it ran, and the run is not
// stored (cache.changedSince).
func settle() { time.Sleep(120 * time.Millisecond) }

// cachedRun is one run of the command line with the cache's debug lines
// split from its standard error.
type cachedRun struct {
	code        int
	out, errs   string
	cache       []string // the "cache: ..." lines
	outputFiles map[string]string
}

func runCached(t *testing.T, dir string, args ...string) cachedRun {
	t.Helper()
	t.Setenv("CUDAFORKLINT_CACHE_DEBUG", "1")
	code, out, errs := run(t, dir, args...)
	r := cachedRun{code: code, out: out}
	var rest []string
	for _, l := range strings.SplitAfter(errs, "\n") {
		if strings.HasPrefix(l, "cache: ") {
			r.cache = append(r.cache, strings.TrimSpace(strings.TrimPrefix(l, "cache: ")))
		} else {
			rest = append(rest, l)
		}
	}
	r.errs = strings.Join(rest, "")
	return r
}

func (r cachedRun) outcome() string {
	if len(r.cache) == 0 {
		return "none"
	}
	return r.cache[len(r.cache)-1]
}

func (r cachedRun) same(o cachedRun) bool {
	return r.code == o.code && r.out == o.out && r.errs == o.errs
}

// cachedAndUncached runs check with args through the cache (got) and with
// --no-cache (want), and reports an error when they print differently.
func cachedAndUncached(t *testing.T, dir string, args ...string) (got, want cachedRun) {
	t.Helper()
	want = runCached(t, dir, append(args, "--no-cache")...)
	got = runCached(t, dir, args...)
	if !got.same(want) {
		t.Errorf("cached run (cache %q):\nexit %d\n%s%s\nwant, as --no-cache prints:\nexit %d\n%s%s", got.cache, got.code, got.out, got.errs, want.code, want.out, want.errs)
	}
	return got, want
}

// TestCacheReplaysEveryFormat: for every format and output flag, the run
// that stores and the run that replays print, byte for byte, what a run
// with --no-cache prints, exit code included.
func TestCacheReplaysEveryFormat(t *testing.T) {
	dir := cacheProject(t)
	for _, args := range [][]string{
		{"--format", "full"},
		{"--format", "concise"},
		{"--format", "json"},
		{"--format", "json-lines"},
		{"--format", "github"},
		{"--format", "sarif"},
		{"--format", "full", "--show-suppressed", "--unsafe-fixes"},
		{"--format", "concise", "--no-unsafe-fixes", "--exit-zero"},
		{"--statistics"},
		{"--format", "full", "--quiet"},
		{"--format", "full", "-o", "out.txt", "--output", "sarif:out.sarif", "--output", "json:out.json"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			cache := filepath.Join(t.TempDir(), "cache")
			base := append([]string{"check", "--cache-dir", cache}, args...)
			want := runCached(t, dir, append(base, "--no-cache")...)
			want.outputFiles = readOutputs(t, dir)
			if want.code != ExitError || !strings.Contains(want.errs, "latin.py") {
				t.Fatalf("the project should end in a tool error decided by latin.py's bytes: exit %d\n%s", want.code, want.errs)
			}
			for i, wantOutcome := range []string{"stored", "hit", "hit"} {
				got := runCached(t, dir, base...)
				got.outputFiles = readOutputs(t, dir)
				if got.outcome() != wantOutcome {
					t.Errorf("run %d: cache %q, want %s", i+1, got.cache, wantOutcome)
				}
				if !got.same(want) {
					t.Errorf("run %d (%s) differs from --no-cache:\nexit %d, want %d\nstdout:\n%s\nwant:\n%s\nstderr:\n%s\nwant:\n%s",
						i+1, got.outcome(), got.code, want.code, got.out, want.out, got.errs, want.errs)
				}
				for name, w := range want.outputFiles {
					if got.outputFiles[name] != w {
						t.Errorf("run %d: %s differs from --no-cache:\n%s\nwant:\n%s", i+1, name, got.outputFiles[name], w)
					}
				}
			}
		})
	}
}

// readOutputs returns and removes the output files a run wrote in dir.
func readOutputs(t *testing.T, dir string) map[string]string {
	out := map[string]string{}
	for _, name := range []string{"out.txt", "out.sarif", "out.json"} {
		p := filepath.Join(dir, name)
		if b, err := os.ReadFile(p); err == nil {
			out[name] = string(b)
			os.Remove(p)
		}
	}
	settle() // the removals changed dir
	return out
}

// TestCacheInvalidation: each change to an input of the findings is seen by
// the next run, which then prints what an uncached run prints; a change to
// nothing the run depends on is not a reason to analyze again.
func TestCacheInvalidation(t *testing.T) {
	const harmless = "def init_gpu(rank=0):\n    return rank\n"
	for _, tc := range []struct {
		name string
		// args are the paths checked; setup prepares the project, change
		// alters it after a run was stored.
		args    []string
		setup   func(t *testing.T, dir string)
		change  func(t *testing.T, dir string)
		replays bool
	}{
		{"an imported module not named on the command line", []string{"app/train.py"}, nil, func(t *testing.T, dir string) {
			write(t, dir, "app/gpu_setup.py", harmless)
		}, false},
		{"the same bytes written again", []string{"app/train.py"}, nil, func(t *testing.T, dir string) {
			b, _ := os.ReadFile(filepath.Join(dir, "app/gpu_setup.py"))
			write(t, dir, "app/gpu_setup.py", string(b))
		}, true},
		{"a module created where an import looks for it", []string{"app/train.py"}, func(t *testing.T, dir string) {
			// train.py imports a module that does not exist yet: the
			// run reads nothing of it.
			bootFrom(t, dir, "from late import boot")
		}, func(t *testing.T, dir string) {
			write(t, dir, "app/late.py", boot)
		}, false},
		{"a package created in a directory a relative import climbs to", []string{"app/train.py"}, func(t *testing.T, dir string) {
			// Above the package root (app/ has no __init__.py): CPython
			// refuses it, the model still looks.
			bootFrom(t, dir, "from ..up import boot")
		}, func(t *testing.T, dir string) {
			write(t, dir, "up/__init__.py", boot)
		}, false},
		{"a file that no import can name", []string{"app/train.py"}, nil, func(t *testing.T, dir string) {
			write(t, dir, "app/notes.txt", "hello\n")
			write(t, dir, "app/.hidden/x.py", "import torch\n")
		}, true},
		{"a project root made above the checked script", []string{"app/train.py"}, func(t *testing.T, dir string) {
			// kit/ resolves from app/train.py only through the import
			// roots of its project, and it has none yet.
			write(t, dir, "kit/__init__.py", "")
			write(t, dir, "kit/gpu.py", boot)
			bootFrom(t, dir, "from kit.gpu import boot")
		}, func(t *testing.T, dir string) {
			write(t, dir, "setup.py", "from setuptools import setup\n\nsetup(name=\"kit\")\n")
		}, false},
		{"a module created in the project's src layout", []string{"app/train.py"}, func(t *testing.T, dir string) {
			write(t, dir, "pyproject.toml", "[project]\nname = \"kit\"\n")
			os.Mkdir(filepath.Join(dir, "src"), 0o755)
			bootFrom(t, dir, "from gpukit import boot")
		}, func(t *testing.T, dir string) {
			write(t, dir, "src/gpukit.py", boot)
		}, false},
		{"a configuration file that now applies", []string{"app/train.py"}, nil, func(t *testing.T, dir string) {
			write(t, dir, "app/pyproject.toml", "[tool.cudaforklint]\nignore = [\"CFL001\"]\n")
		}, false},
		{"a checked file added to a named directory", []string{"app"}, nil, func(t *testing.T, dir string) {
			write(t, dir, "app/more.py", hazard)
		}, false},
		{"a .gitignore that drops a checked file", []string{"."}, nil, func(t *testing.T, dir string) {
			os.Mkdir(filepath.Join(dir, ".git"), 0o755)
			write(t, dir, ".gitignore", "app/\n")
		}, false},
		{"a notebook's cell", []string{"nb"}, nil, func(t *testing.T, dir string) {
			write(t, dir, "nb/hazard.ipynb", strings.Replace(readFile(t, dir, "nb/hazard.ipynb"), "fork", "spawn", -1))
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := cacheProject(t)
			os.Remove(filepath.Join(dir, "latin.py")) // a clean exit: any difference is the change's
			if tc.setup != nil {
				tc.setup(t, dir)
			}
			settle()
			args := append([]string{"check", "--cache-dir", filepath.Join(t.TempDir(), "cache")}, tc.args...)
			if r := runCached(t, dir, args...); r.outcome() != "stored" {
				t.Fatalf("first run: cache %q\n%s%s", r.cache, r.out, r.errs)
			}
			before := runCached(t, dir, args...)
			if before.outcome() != "hit" {
				t.Fatalf("second run: cache %q", before.cache)
			}
			tc.change(t, dir)
			settle()
			got, want := cachedAndUncached(t, dir, args...)
			if tc.replays {
				if got.outcome() != "hit" {
					t.Errorf("the change should not matter: cache %q", got.cache)
				}
			} else {
				if got.outcome() == "hit" {
					t.Errorf("replayed a result the change invalidates")
				}
				if want.same(before) {
					t.Errorf("the change does not change the output; the test proves nothing:\n%s", want.out)
				}
			}
		})
	}
}

// boot initializes CUDA, in a module train.py imports once it exists.
const boot = "import torch\n\n\ndef boot():\n    torch.cuda.init()\n"

// bootFrom makes app/train.py initialize CUDA through boot, imported with
// the statement imp, instead of through gpu_setup.
func bootFrom(t *testing.T, dir, imp string) {
	src := readFile(t, dir, "app/train.py")
	src = strings.Replace(src, "from gpu_setup import init_gpu", imp, 1)
	src = strings.Replace(src, "device = init_gpu()", "device = boot()", 1)
	write(t, dir, "app/train.py", src)
}

func readFile(t *testing.T, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestCacheDamagedEntry: an entry that is truncated, overwritten or
// emptied is a miss, never an error, and the run stores a good one again.
func TestCacheDamagedEntry(t *testing.T) {
	dir := cacheProject(t)
	cache := filepath.Join(t.TempDir(), "cache")
	args := []string{"check", "--cache-dir", cache, "--format", "concise"}
	want := runCached(t, dir, append(args, "--no-cache")...)
	for _, damage := range []struct {
		name string
		fn   func([]byte) []byte
	}{
		{"truncated", func(b []byte) []byte { return b[:len(b)/2] }},
		{"a flipped byte", func(b []byte) []byte { b[len(b)-10] ^= 1; return b }},
		{"empty", func([]byte) []byte { return nil }},
		{"garbage", func([]byte) []byte { return []byte("not an entry\n") }},
	} {
		t.Run(damage.name, func(t *testing.T) {
			runCached(t, dir, args...)
			entries, _ := filepath.Glob(filepath.Join(cache, "v1", "*"))
			if len(entries) != 1 {
				t.Fatalf("entries: %q", entries)
			}
			b, _ := os.ReadFile(entries[0])
			if err := os.WriteFile(entries[0], damage.fn(b), 0o644); err != nil {
				t.Fatal(err)
			}
			got := runCached(t, dir, args...)
			if !got.same(want) || got.outcome() != "stored" {
				t.Errorf("damaged entry: cache %q, exit %d\n%s%s\nwant exit %d\n%s%s", got.cache, got.code, got.out, got.errs, want.code, want.out, want.errs)
			}
			if again := runCached(t, dir, args...); again.outcome() != "hit" || !again.same(want) {
				t.Errorf("after the rewrite: cache %q", again.cache)
			}
		})
	}
}

// TestCacheConcurrentRuns: runs in processes of their own, at once, on one
// cache: each prints the uncached output, and the entry they leave is
// replayed.
func TestCacheConcurrentRuns(t *testing.T) {
	dir := cacheProject(t)
	cache := filepath.Join(t.TempDir(), "cache")
	args := []string{"check", "--cache-dir", cache, "--format", "json"}
	want := runCached(t, dir, append(args, "--no-cache")...)
	const n = 4
	var wg sync.WaitGroup
	outs := make([]string, n)
	codes := make([]int, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			cmd := command(t, dir, args...)
			var out bytes.Buffer
			cmd.Stdout = &out
			err := cmd.Run()
			codes[i] = cmd.ProcessState.ExitCode()
			outs[i] = out.String()
			_ = err
		}(i)
	}
	wg.Wait()
	for i := range outs {
		if outs[i] != want.out || codes[i] != want.code {
			t.Errorf("concurrent run %d: exit %d\n%s\nwant exit %d\n%s", i, codes[i], outs[i], want.code, want.out)
		}
	}
	if got := runCached(t, dir, args...); got.outcome() != "hit" || !got.same(want) {
		t.Errorf("after the concurrent runs: cache %q, exit %d\n%s", got.cache, got.code, got.out)
	}
	if tmp, _ := filepath.Glob(filepath.Join(cache, "v1", ".tmp-*")); len(tmp) > 0 {
		t.Errorf("temporary files left: %q", tmp)
	}
}

// TestCacheDirectory: where the cache lives (--cache-dir, the environment,
// the config's cache-dir, the project root) and what is in it; --no-cache
// and --fix write nothing, and a fix is seen by the next run.
func TestCacheDirectory(t *testing.T) {
	dir := cacheProject(t)
	os.Remove(filepath.Join(dir, "latin.py"))
	settle()
	if r := runCached(t, dir, "check", "--no-cache"); r.outcome() != "none" {
		t.Errorf("--no-cache: cache %q", r.cache)
	}
	if _, err := os.Stat(filepath.Join(dir, ".cudaforklint_cache")); err == nil {
		t.Errorf("--no-cache wrote a cache")
	}
	t.Setenv("CUDAFORKLINT_NO_CACHE", "1")
	if r := runCached(t, dir, "check"); r.outcome() != "none" {
		t.Errorf("CUDAFORKLINT_NO_CACHE=1: cache %q", r.cache)
	}
	t.Setenv("CUDAFORKLINT_NO_CACHE", "")

	// The default: the project root, with ruff's CACHEDIR.TAG and .gitignore.
	if r := runCached(t, dir, "check"); r.outcome() != "stored" {
		t.Fatalf("cache %q", r.cache)
	}
	tag := readFile(t, dir, ".cudaforklint_cache/CACHEDIR.TAG")
	if !strings.HasPrefix(tag, "Signature: 8a477f597d28d172789f06886806bc55") {
		t.Errorf("CACHEDIR.TAG:\n%s", tag)
	}
	if gi := readFile(t, dir, ".cudaforklint_cache/.gitignore"); !strings.HasSuffix(gi, "\n*\n") {
		t.Errorf(".gitignore:\n%s", gi)
	}
	// From a subdirectory of a configured project: next to its config.
	write(t, dir, "pyproject.toml", "[tool.cudaforklint]\nextend-select = [\"CFL003\"]\n")
	settle()
	runCached(t, filepath.Join(dir, "app"), "check", "train.py")
	if _, err := os.Stat(filepath.Join(dir, "app", ".cudaforklint_cache")); err == nil {
		t.Errorf("the cache should be in the project root, not in app/")
	}
	// The config's cache-dir, then the environment, then the flag.
	write(t, dir, "pyproject.toml", "[tool.cudaforklint]\ncache-dir = \"var/lint\"\n")
	settle()
	runCached(t, dir, "check")
	settle() // the run made var/lint/ in dir
	env := filepath.Join(t.TempDir(), "env")
	t.Setenv("CUDAFORKLINT_CACHE_DIR", env)
	runCached(t, dir, "check")
	flag := filepath.Join(t.TempDir(), "flag")
	runCached(t, dir, "check", "--cache-dir", flag)
	for _, d := range []string{filepath.Join(dir, "var", "lint"), env, flag} {
		if m, _ := filepath.Glob(filepath.Join(d, "v1", "*")); len(m) != 1 {
			t.Errorf("%s: entries %q", d, m)
		}
	}

	// --fix neither reads nor writes the cache; the next check sees the fix.
	args := []string{"check", "--cache-dir", flag, "hazard.py"}
	if r := runCached(t, dir, args...); r.code != ExitFindings {
		t.Fatalf("hazard.py: exit %d", r.code)
	}
	if r := runCached(t, dir, append(args, "--fix", "--unsafe-fixes")...); r.outcome() != "none" {
		t.Errorf("--fix: cache %q", r.cache)
	}
	settle()
	want := runCached(t, dir, append(args, "--no-cache")...)
	if got := runCached(t, dir, args...); got.outcome() == "hit" || !got.same(want) || got.code != ExitClean {
		t.Errorf("after --fix: cache %q, exit %d\n%s%s\nwant exit %d\n%s", got.cache, got.code, got.out, got.errs, want.code, want.out)
	}
}

// TestCacheTrees: the parse trees a run stores spare the next analysis
// the parse of every file whose bytes did not change. After an edit of the
// entry script (the results miss), the check prints what a --no-cache
// check of the edited tree prints, the debug line shows the helpers' trees
// loaded and only the script parsed, and the run after it replays: the
// trees are written after the run recorded its inputs, and a cache
// directory in the project, hidden or not, does not make the next run
// miss. --no-cache, CUDAFORKLINT_NO_CACHE=1, --fix and --diff write
// nothing.
func TestCacheTrees(t *testing.T) {
	for _, where := range []struct {
		name string
		dir  func(t *testing.T, project string) []string // the flags naming it
	}{
		{"outside the project", func(t *testing.T, _ string) []string {
			return []string{"--cache-dir", filepath.Join(t.TempDir(), "cache")}
		}},
		{"in the project, the default", func(*testing.T, string) []string { return nil }},
		{"in the project, not hidden", func(t *testing.T, project string) []string {
			// Made before the first run: its creation is a change of the
			// project's directory tree.
			os.MkdirAll(filepath.Join(project, "var", "lint"), 0o755)
			return []string{"--cache-dir", "var/lint"}
		}},
	} {
		t.Run(where.name, func(t *testing.T) {
			dir := treesProject(t)
			args := append(append([]string{"check"}, where.dir(t, dir)...), "train.py")
			settle()
			first := runCached(t, dir, args...)
			if first.code != ExitFindings || first.outcome() != "stored" {
				t.Fatalf("first run: exit %d, cache %q\n%s%s", first.code, first.cache, first.out, first.errs)
			}
			st, ok := treeCounts(first)
			if !ok || st[0] != 0 || st[1] < 3 || st[2] != st[1] {
				t.Errorf("first run: cache %q, want every file parsed and stored", first.cache)
			}
			files := st[1]
			if r := runCached(t, dir, args...); r.outcome() != "hit" {
				t.Errorf("second run: cache %q", r.cache)
			} else if _, ok := treeCounts(r); ok {
				t.Errorf("a replay reports trees: %q", r.cache)
			}

			// A line more at the top of the script: its finding moves,
			// the helpers' bytes stay.
			write(t, dir, "train.py", "# edited\n"+readFile(t, dir, "train.py"))
			settle()
			got, want := cachedAndUncached(t, dir, args...)
			if want.same(first) {
				t.Errorf("the edit does not change the output; the test proves nothing:\n%s", want.out)
			}
			if got.outcome() != "stored" {
				t.Errorf("after the edit: cache %q", got.cache)
			}
			if st, ok := treeCounts(got); !ok || st != [3]int{files - 1, 1, 1} {
				t.Errorf("after the edit: cache %q, want trees: %d loaded, 1 parsed, 1 stored", got.cache, files-1)
			}
			if r := runCached(t, dir, args...); r.outcome() != "hit" || !r.same(want) {
				t.Errorf("the run after the edit: cache %q", r.cache)
			}
		})
	}

	// Nothing written without the cache, nor by --fix or --diff.
	dir := treesProject(t)
	for _, extra := range [][]string{{"--no-cache"}, {"--diff"}, {"--fix", "--unsafe-fixes"}} {
		fresh := filepath.Join(t.TempDir(), "cache")
		r := runCached(t, dir, append([]string{"check", "--cache-dir", fresh, "train.py"}, extra...)...)
		if len(r.cache) > 0 {
			t.Errorf("%s: cache %q", extra, r.cache)
		}
		if _, err := os.Stat(fresh); err == nil {
			t.Errorf("%s wrote the cache directory", extra)
		}
	}
	t.Setenv("CUDAFORKLINT_NO_CACHE", "1")
	fresh := filepath.Join(t.TempDir(), "cache")
	if r := runCached(t, dir, "check", "--cache-dir", fresh, "train.py"); len(r.cache) > 0 {
		t.Errorf("CUDAFORKLINT_NO_CACHE=1: cache %q", r.cache)
	}
	if _, err := os.Stat(fresh); err == nil {
		t.Errorf("CUDAFORKLINT_NO_CACHE=1 wrote the cache directory")
	}
}

// TestCacheTreesNotebook: a notebook's module is parsed once, through the
// tree cache, when the notebook is read (to find the cells that do not
// compile); the passes decode that tree instead of parsing the module
// again, and a run after an edit of another file decodes it too.
func TestCacheTreesNotebook(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "nb.ipynb", `{"cells": [{"cell_type": "code", "source": ["import multiprocessing as mp\n", "import torch\n", "torch.cuda.init()\n", "def f(x):\n", "    return torch.ones(x, device='cuda')\n", "mp.get_context('fork').Pool(2).map(f, [1])\n"]}], "metadata": {"kernelspec": {"language": "python"}}, "nbformat": 4, "nbformat_minor": 5}`)
	write(t, dir, "other.py", "import json\n")
	args := []string{"check", "--cache-dir", filepath.Join(t.TempDir(), "cache"), "."}
	settle()
	first := runCached(t, dir, args...)
	if first.code != ExitFindings || first.outcome() != "stored" {
		t.Fatalf("first run: exit %d, cache %q\n%s%s", first.code, first.cache, first.out, first.errs)
	}
	if st, ok := treeCounts(first); !ok || st != [3]int{1, 2, 2} {
		t.Errorf("first run: cache %q, want trees: 1 loaded (the notebook's, by the passes), 2 parsed, 2 stored", first.cache)
	}
	write(t, dir, "other.py", "import json\n# edited\n")
	settle()
	got, want := cachedAndUncached(t, dir, args...)
	if !got.same(want) || !want.same(first) {
		t.Errorf("after the edit:\n%s%s\nwant:\n%s%s", got.out, got.errs, first.out, first.errs)
	}
	if st, ok := treeCounts(got); !ok || st != [3]int{1, 1, 1} {
		t.Errorf("after the edit: cache %q, want trees: 1 loaded (the notebook's, for its finding's cell), 1 parsed, 1 stored", got.cache)
	}
}

// TestCacheNotebookReads: a run after an edit takes each unchanged
// notebook's module and notices from what the run that stored read
// (notebook reads), parses the cells only of the notebooks whose findings
// or notices name them, and prints what --no-cache prints.
func TestCacheNotebookReads(t *testing.T) {
	dir := t.TempDir()
	nb := func(language string, cells ...string) string {
		var cs []string
		for _, c := range cells {
			cs = append(cs, fmt.Sprintf(`{"cell_type": "code", "metadata": {}, "outputs": [{"output_type": "stream", "text": ["ok\n"]}], "source": %q}`, c))
		}
		return fmt.Sprintf(`{"cells": [%s], "metadata": {"kernelspec": {"language": %q}}, "nbformat": 4, "nbformat_minor": 5}`, strings.Join(cs, ", "), language)
	}
	write(t, dir, "clean.ipynb", nb("python", "import torch\n", "x = torch.zeros(3)\n"))
	write(t, dir, "broken.ipynb", nb("python", "import os\n", "def f(:\n    pass\n"))
	write(t, dir, "r.ipynb", nb("R", "library(ggplot2)\n"))
	write(t, dir, "hazard.ipynb", nb("python", "import multiprocessing as mp\nimport torch\ntorch.cuda.init()\n",
		"def f(x):\n    return torch.ones(x, device='cuda')\n", "mp.get_context('fork').Pool(2).map(f, [1])\n"))
	write(t, dir, "other.py", "import json\n")
	args := []string{"check", "--format", "json", "--cache-dir", filepath.Join(t.TempDir(), "cache"), "."}
	settle()
	first := runCached(t, dir, args...)
	if first.code != ExitFindings || first.outcome() != "stored" {
		t.Fatalf("first run: exit %d, cache %q\n%s%s", first.code, first.cache, first.out, first.errs)
	}
	for _, want := range []string{"broken.ipynb", "not analyzed", "r.ipynb", "runs R, not Python", "hazard.ipynb", "CFL001"} {
		if !strings.Contains(first.out+first.errs, want) {
			t.Errorf("first run: no %q in\n%s%s", want, first.out, first.errs)
		}
	}
	if n, ok := notebookReads(first); !ok || n != [2]int{0, 4} {
		t.Errorf("first run: cache %q, want notebook reads: 0 replayed, 4 stored", first.cache)
	}
	write(t, dir, "other.py", "import json\n# edited\n")
	settle()
	got, want := cachedAndUncached(t, dir, args...)
	if !want.same(first) {
		t.Errorf("after the edit, --no-cache:\n%s%s\nwant the first run's:\n%s%s", want.out, want.errs, first.out, first.errs)
	}
	if n, ok := notebookReads(got); !ok || n != [2]int{4, 0} {
		t.Errorf("after the edit: cache %q, want notebook reads: 4 replayed, 0 stored", got.cache)
	}
	// The notebooks whose finding (hazard.ipynb) or notices (broken.ipynb,
	// r.ipynb) name them are parsed again for their cells, and their
	// modules' trees loaded; clean.ipynb is not.
	if st, ok := treeCounts(got); !ok || st[0] != 3 {
		t.Errorf("after the edit: cache %q, want trees: 3 loaded", got.cache)
	}
}

// notebookReads reads a run's "notebook reads:" counts: replayed, stored.
func notebookReads(r cachedRun) (n [2]int, ok bool) {
	for _, l := range r.cache {
		if _, rest, found := strings.Cut(l, "; notebook reads: "); found {
			if _, err := fmt.Sscanf(rest, "%d replayed, %d stored", &n[0], &n[1]); err == nil {
				return n, true
			}
		}
	}
	return n, false
}

// treesProject writes a training script that imports two helper modules,
// with a finding.
func treesProject(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	copyLocalModules(t, dir, "")
	return dir
}

// treeCounts reads a run's "trees:" line: loaded, parsed, stored.
func treeCounts(r cachedRun) (st [3]int, ok bool) {
	for _, l := range r.cache {
		if _, err := fmt.Sscanf(l, "trees: %d loaded, %d parsed, %d stored", &st[0], &st[1], &st[2]); err == nil {
			return st, true
		}
	}
	return st, false
}

// TestInterruptedCheck: a check interrupted (its analysis's context
// cancelled, as Ctrl-C does) exits 2 saying so, reports nothing, and
// leaves the cache without a result or a parse tree: the next run
// analyzes and stores both.
func TestInterruptedCheck(t *testing.T) {
	dir := cacheProject(t)
	saved := interruptContext
	defer func() { interruptContext = saved }()
	interruptContext = func() (context.Context, context.CancelFunc) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		return ctx, cancel
	}
	stored := func() []string {
		var files []string
		filepath.WalkDir(filepath.Join(dir, ".cudaforklint_cache"), func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && (strings.Contains(p, string(filepath.Separator)+"v1"+string(filepath.Separator)) || strings.HasSuffix(p, ".pack")) {
				files = append(files, p)
			}
			return nil
		})
		return files
	}
	r := runCached(t, dir, "check", ".")
	if r.code != ExitError || !strings.Contains(r.errs, "cudaforklint: interrupted") || r.out != "" {
		t.Errorf("interrupted: exit %d, stdout %q, stderr %q; want exit 2, nothing on stdout, \"interrupted\"", r.code, r.out, r.errs)
	}
	if files := stored(); len(files) != 0 {
		t.Errorf("an interrupted check left %q in the cache", files)
	}
	interruptContext = saved
	if r := runCached(t, dir, "check", "."); !strings.Contains(r.out, "CFL001") || !slices.Contains(r.cache, "stored") || len(stored()) < 2 {
		t.Errorf("the next check: stdout %q, cache %q, cache files %q; want findings, an entry and a pack stored", r.out, r.cache, stored())
	}
}
