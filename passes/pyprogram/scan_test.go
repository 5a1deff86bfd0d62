package pyprogram

import (
	"strings"
	"testing"

	"github.com/cudaforklint/cudaforklint/procapi"
)

// qualifiedNames lists the names a module-level row is called by: its
// names, under each family's modules for a row of the multiprocessing API.
func qualifiedNames(api procapi.API) []string {
	if api.Family != procapi.EachFamily {
		return api.Names
	}
	var out []string
	for _, f := range procapi.Families() {
		for _, m := range f.Modules {
			for _, n := range api.Names {
				out = append(out, m+"."+n)
			}
		}
	}
	return out
}

// callSource is a file that imports the root of a qualified name and calls
// it: "import os\nos.fork()\n".
func callSource(name string) string {
	root, _, _ := strings.Cut(name, ".")
	return "import " + root + "\n" + name + "()\n"
}

// TestEveryProcessAPIKeepsItsFile checks the prefilter against the process
// table: every root and identifier of a row that starts processes is a
// token, a file that calls the row through any of its names is kept, with a
// CUDA initialization beside it when only that makes its start a hazard, and
// without one only when its start at import is a hazard by itself.
func TestEveryProcessAPIKeepsItsFile(t *testing.T) {
	const cudaInit = "import torch\ntorch.cuda.init()\n"
	sc := newScanner(nil)
	starts := 0
	for _, api := range procapi.Rows() {
		if !api.Kind.Starts() || api.On != 0 {
			continue
		}
		starts++
		for _, id := range append(api.Roots(), api.Idents()...) {
			if baseTokens[id]&(1<<tokenBits-1) == 0 {
				t.Errorf("%s row %v: %q has no token bit", api.Kind, api.Names, id)
			}
		}
		for _, name := range qualifiedNames(api) {
			src := callSource(name)
			if api.Kind == procapi.MapAny {
				// a method on any receiver, told apart by its keyword
				src = "ds = load()\nds." + name + "(f, " + api.Workers.Keyword + "=4)\n"
			}
			if !relevantBits(sc.scan([]byte(src + cudaInit)).bits) {
				t.Errorf("%s: a file calling it after a CUDA initialization is dropped", name)
			}
			bits := sc.scan([]byte(src)).bits
			if bits&bitCUDA != 0 {
				continue // the name itself names a CUDA library (torch.multiprocessing)
			}
			if got, want := relevantBits(bits), api.Kind.StartAtImportMatters(); got != want {
				t.Errorf("%s with no CUDA in reach: kept %v, want %v", name, got, want)
			}
		}
	}
	if starts == 0 {
		t.Fatal("no process-starting rows")
	}
}

// TestProcessRootsAloneAreDropped checks that the roots of the process
// table are not enough by themselves: a file that uses multiprocessing, os
// or torch for something else, with CUDA, is not simulated.
func TestProcessRootsAloneAreDropped(t *testing.T) {
	sc := newScanner(nil)
	for _, src := range []string{
		"import multiprocessing\nn = multiprocessing.cpu_count()\nimport torch\ntorch.cuda.init()\n",
		"import os\nos.getpid()\nimport torch\ntorch.cuda.init()\n",
		"import concurrent.futures\nconcurrent.futures.ThreadPoolExecutor()\nimport torch\ntorch.cuda.init()\n",
	} {
		if relevantBits(sc.scan([]byte(src)).bits) {
			t.Errorf("kept:\n%s", src)
		}
	}
}

// TestPreloadNamesModules checks that a file calling a Preload row of the
// process table has its dotted strings read as module names.
func TestPreloadNamesModules(t *testing.T) {
	sc := newScanner(nil)
	for _, api := range procapi.Rows() {
		if api.Kind != procapi.Preload {
			continue
		}
		for _, name := range qualifiedNames(api) {
			src := callSource(name)
			src = strings.TrimSuffix(src, "()\n") + `(["gpu.setup"])` + "\n"
			fs := sc.scan([]byte(src))
			if fs.bits&bitPreload == 0 || len(fs.strs) != 1 || fs.strs[0] != "gpu.setup" {
				t.Errorf("%s: bits %x, strings %q", name, fs.bits, fs.strs)
			}
		}
	}
}

// TestScanPanicKeepsEverything: a scan that panics (a nil scanner here,
// standing for any bug) keeps its file and everything that reaches it,
// with a message for the notice, instead of ending the process from its
// worker goroutine.
func TestScanPanicKeepsEverything(t *testing.T) {
	fs, msg := scanSafely(nil, []byte("import os\n"))
	if !strings.Contains(msg, "internal error in the prefilter's scan") {
		t.Errorf("message %q, want the internal error", msg)
	}
	if !relevantBits(fs.bits) {
		t.Errorf("bits %#x of a failed scan do not keep its importers", fs.bits)
	}
	if fs, msg := scanSafely(newScanner(nil), []byte("import os\n")); msg != "" || fs.bits == ^uint64(0) {
		t.Errorf("a scan that works: message %q, bits %#x", msg, fs.bits)
	}
}
