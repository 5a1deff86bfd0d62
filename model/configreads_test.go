package model

import (
	"context"
	"testing"

	"github.com/cudaforklint/cudaforklint/pytarget"
)

// configShapes are programs whose runs read different properties of their
// configs: a start that names its method, one that takes the default (fork
// or forkserver by version, spawn elsewhere), a forkserver whose import of
// __main__ depends on the version, a spawn child that imports the main
// module, and a preloaded module whose import differs on 3.15.
var configShapes = map[string]memSource{
	"explicit fork": {"/p/train.py": `import multiprocessing as mp
import torch

torch.cuda.init()


def work():
    torch.ones(1, device="cuda")


if __name__ == "__main__":
    mp.get_context("fork").Process(target=work).start()
`},
	"default method": {"/p/train.py": `import multiprocessing as mp
import torch


def work():
    torch.ones(1, device="cuda")


if __name__ == "__main__":
    torch.cuda.init()
    mp.Process(target=work).start()
`},
	"import-time init, default method": {"/p/train.py": `import multiprocessing as mp
import torch

torch.cuda.init()


def work():
    return 1


if __name__ == "__main__":
    with mp.Pool(2) as pool:
        pool.map(work, range(4))
`},
	// What the preloaded module initializes depends on lazy imports (3.15),
	// which only the simulation of its import reads.
	"forkserver preload with lazy imports": {
		"/p/train.py": `import multiprocessing as mp


def work(i):
    return i


if __name__ == "__main__":
    mp.set_forkserver_preload(["gpu_state"])
    with mp.get_context("forkserver").Pool(2) as pool:
        print(pool.map(work, range(2)))
`,
		"/p/gpu_state.py": `__lazy_modules__ = ["cudf"]

import cudf
`},
	"uncalled tests": {"/p/train.py": `import multiprocessing as mp
import torch


def work():
    torch.ones(1, device="cuda")


def test_default():
    torch.cuda.init()
    mp.Process(target=work).start()


def test_fork():
    torch.cuda.init()
    mp.get_context("fork").Process(target=work).start()
`},
	// Whether the import initializes CUDA depends on lazy imports (3.15),
	// which the import shared by the tests reads, and not their bodies.
	"uncalled tests after a lazy import": {"/p/train.py": `import multiprocessing as mp

__lazy_modules__ = ["cudf"]

import cudf
import torch


def work():
    torch.ones(1, device="cuda")


def test_first():
    mp.get_context("fork").Process(target=work).start()


def test_second():
    mp.get_context("fork").Process(target=work).start()
`},
	"no start": {"/p/train.py": `import torch

torch.cuda.init()
print(torch.ones(1, device="cuda"))
`},
}

// TestConfigReplayChangesNoFinding: a module's run standing for its runs
// on the other classes of configs whose answers it read alike must give
// the findings, configs included, that running every class gives, on every
// fixture directory and on the shapes above.
func TestConfigReplayChangesNoFinding(t *testing.T) {
	dirs := fixtureDirs(t)
	for name, files := range configShapes {
		dirs[name] = files
	}
	dirs["pool at import"] = poolAtImport
	sameFindingsWithout(t, "the replay", dirs, &configMemo)
}

// TestConfigReplayRuns counts the runs of each entry over the ten classes
// of every target config (five on Linux, three on macOS, two on Windows):
// the module as __main__, and its uncalled functions.
func TestConfigReplayRuns(t *testing.T) {
	if n := len(configClasses(pytarget.All())); n != 10 {
		t.Fatalf("%d classes of configs, want 10", n)
	}
	tests := []struct {
		shape string
		runs  map[string]int // by entry: "" for __main__, or a function
	}{
		// Whether there is fork, and CUDA: Linux, macOS, Windows.
		{"explicit fork", map[string]int{"": 3}},
		// Linux: fork (3.12, 3.13.8+), forkserver without __main__
		// (3.14.0), with it (3.14.1+, 3.15); spawn without CUDA (macOS);
		// spawn with CUDA (Windows).
		{"default method", map[string]int{"": 5}},
		{"import-time init, default method", map[string]int{"": 5}},
		// Linux before 3.15, and 3.15; macOS; Windows.
		{"forkserver preload with lazy imports", map[string]int{"": 4}},
		// Each test as __main__'s default method does, or as the
		// explicit fork; the module's own run starts nothing.
		{"uncalled tests", map[string]int{"": 0, "test_default": 5, "test_fork": 3}},
		// Lazy imports or not, on each platform with fork.
		{"uncalled tests after a lazy import", map[string]int{"": 0, "test_first": 6, "test_second": 6}},
		{"no start", map[string]int{"": 0}},
	}
	for _, tt := range tests {
		t.Run(tt.shape, func(t *testing.T) {
			files := configShapes[tt.shape]
			prog := NewProgram(files, Options{})
			m, err := prog.Module("/p/train.py")
			if err != nil {
				t.Fatal(err)
			}
			hz, runs, _ := prog.analyzeLoading(context.Background(), loadedEntries{m}, pytarget.All())
			for name, want := range tt.runs {
				e := entryKey{m: m}
				if name != "" {
					for _, f := range m.Funcs {
						if f.Name == name {
							e.fn = f
						}
					}
					if e.fn == nil {
						t.Fatalf("no function %s", name)
					}
				}
				if got := len(runs[e]); got != want {
					t.Errorf("%q: %d runs, want %d", name, got, want)
				}
			}
			if tt.shape != "no start" && len(hz) == 0 {
				t.Errorf("no hazard found")
			}
		})
	}
}

// TestSameAnswers: two configs stand for each other exactly when they
// answer alike what was read.
func TestSameAnswers(t *testing.T) {
	linux312 := pytarget.Config{Version: pytarget.Py312, Platform: pytarget.Linux}
	linux3141 := pytarget.Config{Version: pytarget.Py314Late, Platform: pytarget.Linux}
	linux315 := pytarget.Config{Version: pytarget.Py315, Platform: pytarget.Linux}
	mac312 := pytarget.Config{Version: pytarget.Py312, Platform: pytarget.MacOS}
	tests := []struct {
		read cfgReads
		a, b pytarget.Config
		want bool
	}{
		{0, linux312, mac312, true},
		{readFork | readCUDA, linux312, linux315, true},
		{readFork | readCUDA, linux312, mac312, false},
		{readDefaultStart, linux312, linux3141, false},
		{readDefaultStart | readForkserverImportsMain, linux3141, linux315, true},
		{readDefaultStart | readForkserverImportsMain | readLazy, linux3141, linux315, false},
		{readFork, linux312, mac312, true},
	}
	for _, tt := range tests {
		if got := sameAnswers(tt.read, tt.a, tt.b); got != tt.want {
			t.Errorf("sameAnswers(%05b, %v, %v) = %v, want %v", tt.read, tt.a, tt.b, got, tt.want)
		}
	}
}
