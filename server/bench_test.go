package server

import (
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cudaforklint/cudaforklint/benchcorpus"
	"github.com/cudaforklint/cudaforklint/cache"
	"github.com/cudaforklint/cudaforklint/server/internal/protocol"
	"github.com/cudaforklint/cudaforklint/syntax"
)

// longScript writes a training script of about lines lines that imports
// the generated project's helpers (local modules: gpu, workers, data,
// text), spends most of its length on ordinary functions that call them,
// and forks a pool after initializing CUDA (CFL001). It returns the script
// and the 0-based line of `SCALE = 1`, which a benchmark can edit.
func longScript(lines int) (string, int) {
	var b strings.Builder
	b.WriteString(`"""A long training script: the project's helpers, many utilities, a fork pool."""
import logging
import multiprocessing as mp
import os

import torch

from helpers import gpu, pools, workers
from helpers.data import Synthetic
from helpers.text import counts, tokenize

log = logging.getLogger(__name__)
SCALE = 1

`)
	const tail = `
def main():
    torch.cuda.init()
    device = gpu.pick_device(int(os.environ.get("LOCAL_RANK", 0)))
    items = [[float(j), float(j * 2)] for j in range(64)]
    with mp.get_context("fork").Pool(4) as pool:
        out = pool.map(workers.gpu_score, items)
    log.info("%s %s", device, out[:2])
    return out


if __name__ == "__main__":
    main()
`
	r := rand.New(rand.NewSource(1))
	for k := 0; strings.Count(b.String(), "\n")+strings.Count(tail, "\n") < lines-6; k++ {
		switch k % 4 {
		case 0:
			fmt.Fprintf(&b, "def summarize_%d(rows, k=%d):\n    out = []\n    for i, row in enumerate(rows):\n        if i %% k == 0:\n            out.append(workers.score(row) * SCALE)\n        elif row is None:\n            continue\n        else:\n            out.append({\"i\": i, \"n\": len(tokenize(str(row)))})\n    return out\n\n\n", k, 2+r.Intn(7))
		case 1:
			fmt.Fprintf(&b, "class Window%d:\n    def __init__(self, size=%d):\n        self.size = size\n        self.items = []\n\n    def add(self, x):\n        self.items.append(workers.normalize([x]))\n        if len(self.items) > self.size:\n            self.items.pop(0)\n        return self\n\n\n", k, 4+r.Intn(60))
		case 2:
			fmt.Fprintf(&b, "def load_%d(n=%d):\n    data = Synthetic(n=n)\n    words = counts([str(data[i]) for i in range(min(n, 4))])\n    log.debug(\"loaded %%d rows, %%d words\", len(data), len(words))\n    return data\n\n\n", k, 16+r.Intn(100))
		case 3:
			fmt.Fprintf(&b, "def run_%d(items):\n    if not items:\n        return []\n    return pools.run_executor(workers.score, items)\n\n\n", k)
		}
	}
	b.WriteString(tail)
	return b.String(), 12 // SCALE = 1
}

// BenchmarkDidChangeToDiagnostics measures the time from a didChange to
// the publishDiagnostics of the new version, without the debounce delay
// (debounceMs 0; in an editor the default adds 150 ms of quiet first), on
// a 2,000-line script with local imports, in a generated project. It
// reports the median and 95th percentile besides the mean (ns/op), the CPU
// time per change, and the time syntax.Parse alone takes on the script at
// the same time (the floor: a loaded machine slows both alike).
//
//	go test -run '^$' -bench DidChange -benchtime 100x ./server
func BenchmarkDidChangeToDiagnostics(b *testing.B) { benchDidChange(b, nil) }

// BenchmarkDidChangeWithCheckedProject is BenchmarkDidChangeToDiagnostics
// in a folder whose cache directory holds the parse trees of a project the
// size of Python's standard library (1,790 files), as a `check` of a large
// project leaves it: what the server's reading of the folder's packs adds
// to each keystroke's check (the edited buffer always misses the memo, and
// the packs are read on a miss).
func BenchmarkDidChangeWithCheckedProject(b *testing.B) {
	out, err := exec.Command("python3", "-c", `import sysconfig; print(sysconfig.get_paths()["stdlib"])`).Output()
	if err != nil {
		b.Skip("no python3")
	}
	benchDidChange(b, func(proj string) { storeTrees(b, strings.TrimSpace(string(out)), proj) })
}

// benchDidChange times edits of a 2,000-line script in a generated project,
// whose cache directory prime, when not nil, fills first.
func benchDidChange(b *testing.B, prime func(proj string)) {
	root := b.TempDir()
	if _, err := benchcorpus.Generate(root, 1, 1); err != nil {
		b.Fatal(err)
	}
	proj := filepath.Join(root, "proj00")
	text, edit := longScript(2000)
	if n := strings.Count(text, "\n"); n < 1990 || n > 2010 {
		b.Fatalf("the script has %d lines, want 2000", n)
	}
	path := filepath.Join(proj, "train_long.py")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		b.Fatal(err)
	}
	if prime != nil {
		prime(proj)
	}
	c := startServer(b, clientOptions{folders: []string{proj}})
	uri := c.open(path, text)
	p := c.waitPublish(uri, 0, hasVersion(1))
	if got := codes(p.Diagnostics); len(got) == 0 {
		b.Fatalf("no diagnostics on the benchmark script: the run did no real work")
	}
	// The floor, measured now, on the same machine under the same load:
	// parsing the script alone (best of 5). A check parses it, and reads
	// and analyzes its helpers.
	parse := time.Hour
	for i := 0; i < 5; i++ {
		start := time.Now()
		if _, err := syntax.Parse([]byte(text)); err != nil {
			b.Fatal(err)
		}
		parse = min(parse, time.Since(start))
	}
	times := timeChanges(b, c, uri, edit, func(i int) string { return fmt.Sprintf("SCALE = %d\n", i+2) })
	b.ReportMetric(float64(times[len(times)*95/100].Microseconds())/1000, "ms-p95")
	b.ReportMetric(float64(parse.Microseconds())/1000, "ms-parse-floor")
}

// timeChanges replaces line edit of the document b.N times with line(i),
// timing each change from the didChange to the diagnostics of its
// version, and reports the median and the CPU time per change (the
// process's: server and client together), which is what a change costs
// whatever else the machine runs, where the wall times grow with its load.
// It returns the times, sorted.
func timeChanges(b *testing.B, c *testClient, uri string, edit int, line func(i int) string) []time.Duration {
	times := make([]time.Duration, 0, b.N)
	cpu0 := cpuTime()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r := protocol.Range{Start: protocol.Position{Line: edit}, End: protocol.Position{Line: edit + 1}}
		start := time.Now()
		v := c.change(uri, protocol.TextDocumentContentChangeEvent{Range: &r, Text: line(i)})
		c.waitPublish(uri, 0, hasVersion(v))
		times = append(times, time.Since(start))
	}
	b.StopTimer()
	if cpu := cpuTime() - cpu0; cpu > 0 {
		b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "ms-cpu/op")
	}
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "ms-median")
	return times
}

// BenchmarkOpenFiles measures what choosing the documents to re-check
// saves: with 20 generated jobs and a helper module open, an edit in one
// job re-checks that job only, while an edit in the helper re-checks it and
// the 15 jobs that import it, about what re-checking every open document
// would cost for any edit. Each op is one change and the wait until the
// server is idle (debounce off).
func BenchmarkOpenFiles(b *testing.B) {
	root := b.TempDir()
	files, err := benchcorpus.Generate(root, 20, 1)
	if err != nil {
		b.Fatal(err)
	}
	proj := filepath.Join(root, "proj00")
	c := startServer(b, clientOptions{folders: []string{proj}})
	var job string
	for _, f := range files {
		if strings.Contains(f, "job_") {
			src, err := os.ReadFile(f)
			if err != nil {
				b.Fatal(err)
			}
			c.open(f, string(src))
			if job == "" {
				job = f
			}
		}
	}
	helper := filepath.Join(proj, "helpers", "gpu.py")
	src, err := os.ReadFile(helper)
	if err != nil {
		b.Fatal(err)
	}
	helperURI := c.open(helper, string(src))
	c.barrier(proj)
	for _, tc := range []struct{ name, uri string }{
		{"edit one job", uriOf(job)},
		{"edit the helper 15 jobs import", helperURI},
	} {
		b.Run(tc.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				// Append a comment line at the end: the text changes, the
				// findings do not.
				end := protocol.Position{Line: 100000}
				c.change(tc.uri, protocol.TextDocumentContentChangeEvent{Range: &protocol.Range{Start: end, End: end}, Text: fmt.Sprintf("# edit %d\n", i)})
				c.barrier(proj)
			}
		})
	}
}

// BenchmarkDidChangeInLargePackage edits a module of a large package: the
// standard library's json/decoder.py, whose local imports load about 170
// modules into each check. With the server's memo of parse trees
// (trees.go) a change decodes them; without it ("parse") it parsed them
// all each time. "ms-first-check" is the open's check, which parses them
// in both.
//
//	go test -run '^$' -bench LargePackage -benchtime 20x ./server
func BenchmarkDidChangeInLargePackage(b *testing.B) {
	stdlib, path, text, edit := decoderInStdlib(b)
	// Last, the folder as a `check` of it leaves it: the parse trees of its
	// files in its cache directory, which the first check reads.
	for _, mode := range []struct {
		name    string
		bytes   int
		checked bool
	}{{"memo", treeMemoBytes, false}, {"parse", 0, false}, {"memo-checked", treeMemoBytes, true}} {
		b.Run(mode.name, func(b *testing.B) {
			saved := treeMemoBytes
			treeMemoBytes = mode.bytes
			defer func() { treeMemoBytes = saved }()
			if mode.checked {
				storeTrees(b, stdlib, stdlib)
				defer os.RemoveAll(filepath.Join(stdlib, cache.DirName))
			}
			c := startServer(b, clientOptions{folders: []string{stdlib}})
			start := time.Now()
			uri := c.open(path, text)
			c.waitPublish(uri, 0, hasVersion(1))
			first := time.Since(start)
			timeChanges(b, c, uri, edit, func(i int) string { return fmt.Sprintf("EDIT = %d\n", i+1) })
			b.ReportMetric(float64(first.Microseconds())/1000, "ms-first-check")
		})
	}
}

// decoderInStdlib copies Python's standard library and returns the copy,
// the path of its json/decoder.py, that module's text with a line
// `EDIT = 0` appended, and that line's 0-based number.
func decoderInStdlib(b *testing.B) (stdlib, path, text string, edit int) {
	out, err := exec.Command("python3", "-c", `import sysconfig; print(sysconfig.get_paths()["stdlib"])`).Output()
	if err != nil {
		b.Skip("no python3")
	}
	// A copy: a .gitignore above the installed library (pyenv ignores
	// versions/) would exclude it.
	stdlib = filepath.Join(b.TempDir(), "stdlib")
	if err := copyPython(strings.TrimSpace(string(out)), stdlib); err != nil {
		b.Fatal(err)
	}
	path = filepath.Join(stdlib, "json", "decoder.py")
	src, err := os.ReadFile(path)
	if err != nil {
		b.Skip("no json/decoder.py")
	}
	text = string(src) + "\nEDIT = 0\n"
	return stdlib, path, text, strings.Count(text, "\n") - 1
}

// BenchmarkEditBurstInLargePackage sends bursts of 5 changes to the
// standard library's json/decoder.py (whose checks load about 170
// modules), back to back (debounce off, as an editor's quick keystrokes
// past its debounce), each op one burst and the wait for the diagnostics
// of its last version. It reports the checks per burst that ran to
// completion and those cancelled as stale: a check the next change makes
// stale is cancelled, so a burst costs one complete check, not one per
// change the worker was busy through.
//
//	go test -run '^$' -bench EditBurst -benchtime 5x ./server
func BenchmarkEditBurstInLargePackage(b *testing.B) {
	stdlib, path, text, edit := decoderInStdlib(b)
	var mu sync.Mutex
	completed, cancelled := 0, 0
	hooks := &checkHooks{ended: func(_ *snapshot, c bool) {
		mu.Lock()
		defer mu.Unlock()
		if c {
			cancelled++
		} else {
			completed++
		}
	}}
	c := startServer(b, clientOptions{folders: []string{stdlib}, hooks: hooks})
	uri := c.open(path, text)
	c.waitPublish(uri, 0, hasVersion(1))
	mu.Lock()
	completed, cancelled = 0, 0
	mu.Unlock()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		v := 0
		for k := 0; k < 5; k++ {
			r := protocol.Range{Start: protocol.Position{Line: edit}, End: protocol.Position{Line: edit + 1}}
			v = c.change(uri, protocol.TextDocumentContentChangeEvent{Range: &r, Text: fmt.Sprintf("EDIT = %d\n", i*5+k+1)})
		}
		c.waitPublish(uri, 0, hasVersion(v))
		c.barrier(stdlib)
	}
	b.StopTimer()
	mu.Lock()
	defer mu.Unlock()
	b.ReportMetric(float64(completed)/float64(b.N), "checks-completed/burst")
	b.ReportMetric(float64(cancelled)/float64(b.N), "checks-cancelled/burst")
}

// storeTrees stores the parse tree of every .py file below dir (outside
// site-packages) in the cache directory of folder, as a `check` of dir
// from folder does.
func storeTrees(b *testing.B, dir, folder string) {
	trees := cache.Open(filepath.Join(folder, cache.DirName)).Trees()
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if d != nil && d.IsDir() && d.Name() == "site-packages" {
			return filepath.SkipDir
		}
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".py") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		if f, err := syntax.Parse(src); err == nil {
			trees.Store(src, f)
		}
		return nil
	})
	trees.Flush()
	if st := trees.Stats(); st.Stored == 0 {
		b.Fatalf("no tree stored: %s", st)
	}
}

// copyPython copies the .py files below src to dst, site-packages left out.
func copyPython(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && d.Name() == "site-packages" {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".py") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(src, p)
		if err := os.MkdirAll(filepath.Join(dst, filepath.Dir(rel)), 0o755); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
}
