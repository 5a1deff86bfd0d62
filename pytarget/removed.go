package pytarget

import "strings"

// Removed APIs. A program that imports, whatever the path it takes, a
// module or name its library removed runs only with a release of that
// library from before the removal, and so only on the Pythons those
// releases were built for. PyTorch supports Python 3.14 from torch 2.9
// (October 2025) on; code that imports `torch._six` stopped importing with
// torch 2.0 (March 2023), whose newest Python was 3.11. Such a program never
// meets 3.14's default start method (forkserver on Linux): wherever it
// runs, Linux forks.
//
// Each row names what an import statement names (a module, or a module's
// attribute taken by a from-import) and the newest CPython minor release
// that the last library release still having it was built for. A row may
// err towards a newer Python, never an older one: a too new bound keeps a
// finding a program cannot meet, a too old one would drop findings it can.

// RemovedAPI is one row: an importable name a library removed.
type RemovedAPI struct {
	// Name is the dotted name as an import writes it: a module
	// ("torch._six"), or a module's attribute ("torch._utils._accumulate",
	// written `from torch._utils import _accumulate`).
	Name string
	// RemovedIn is the first release without it, LastRelease the last one
	// with it.
	RemovedIn, LastRelease string
	// NewestPython is the newest CPython minor release (3.NewestPython)
	// LastRelease was built for.
	NewestPython int
	// Evidence is where the removal and the supported Pythons are stated.
	Evidence string
}

// removedAPIs is the table.
var removedAPIs = []RemovedAPI{
	{Name: "torch._six", RemovedIn: "2.0.0", LastRelease: "1.13.1", NewestPython: 11,
		Evidence: "PyTorch 2.0.0 release notes (github.com/pytorch/pytorch/releases/tag/v2.0.0), Releng: " +
			"\"Deprecated private API torch._six\", removed by pytorch/pytorch#94709 (2023-02) with six and future; " +
			"1.13.1's newest wheels are CPython 3.11, on Linux only (pytorch/pytorch#86566, #92826)"},
	{Name: "torch._utils._accumulate", RemovedIn: "2.3.0", LastRelease: "2.2.2", NewestPython: 12,
		Evidence: "torch/_utils.py defines _accumulate up to v2.2.0 and not in 2.3.0 (JaidedAI/EasyOCR#1243, " +
			"clovaai/deep-text-recognition-benchmark#416 with 2.3.0, pyro-ppl/pyro#3364: \"removed in PyTorch 2.3\"); " +
			"2.2 is the first release with CPython 3.12 wheels (pytorch/pytorch#112882, merged 2023-11 for 2.2.0); 2.2.2 is the last 2.2 release"},
	{Name: "torch.utils.ffi", RemovedIn: "1.0.0", LastRelease: "0.4.1", NewestPython: 7,
		Evidence: "pytorch/pytorch#12122 (2018-09, released in 1.0.0) replaced torch/utils/ffi/__init__.py by " +
			"`raise ImportError(\"torch.utils.ffi is deprecated. Please use cpp extensions instead.\")`; " +
			"0.4.1 (2018-07) predates any build for 3.8 (released 2019-10)"},
}

// RemovedAPIs returns the table.
func RemovedAPIs() []RemovedAPI { return removedAPIs }

// LookupRemoved finds the row of an imported dotted name: the row's name
// itself, or a name inside it (`torch._six.inf`, `torch.utils.ffi.create_extension`).
func LookupRemoved(name string) (*RemovedAPI, bool) {
	for i := range removedAPIs {
		r := &removedAPIs[i]
		if name == r.Name || strings.HasPrefix(name, r.Name+".") {
			return r, true
		}
	}
	return nil, false
}

// UpTo is s without the versions newer than 3.minor: the configs a
// program that runs on no newer Python can meet. On a platform where s has
// no version that old (a program bound to 3.7 checked for 3.11–3.15), s's
// oldest version there stays, standing for the older releases the program
// does run on: those behave as the oldest target does wherever it is older
// than 3.14 (fork by default on Linux, spawn elsewhere, a forkserver that
// does not import __main__), and a target range that starts later was
// chosen for the program by its project.
func (s Set) UpTo(minor int) Set {
	var out Set
	for p := Platform(0); p < numPlatforms; p++ {
		oldest := Set(0)
		for v := Version(0); v < numVersions; v++ {
			c := Config{v, p}
			if !s.Has(c) {
				continue
			}
			if oldest == 0 {
				oldest = bit(c)
			}
			if buckets[v].minor <= minor {
				out |= bit(c)
			}
		}
		if out&platformMask(p) == 0 {
			out |= oldest
		}
	}
	return out
}
