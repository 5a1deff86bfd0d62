package model

import (
	"fmt"
	"maps"
	"sort"
	"strings"
	"testing"

	"github.com/cudaforklint/cudaforklint/pytarget"
	"github.com/cudaforklint/cudaforklint/syntax"
)

// hazardKeys are the hazards of hz as the rules report them, without the
// entry that represents each (entries that find the same hazard are
// merged into one), by entry.
func hazardKeys(hz []*Hazard) (all map[string]bool, byEntry map[string]map[string]bool) {
	all, byEntry = map[string]bool{}, map[string]map[string]bool{}
	for _, z := range hz {
		k := fmt.Sprintf("kind %d at %s:%d configs %v child %v", z.Kind, z.At.Mod.Path, z.At.Span.Start, z.Configs, z.Child.Verdict)
		all[k] = true
		if byEntry[z.Entry.Path] == nil {
			byEntry[z.Entry.Path] = map[string]bool{}
		}
		byEntry[z.Entry.Path][k] = true
	}
	return all, byEntry
}

// analyzeEntries analyzes the given entries of files, every file loaded.
func analyzeEntries(files memSource, paths, entries []string) []*Hazard {
	prog := NewProgram(files, Options{})
	for _, p := range paths {
		prog.Module(p)
	}
	var mods []*Module
	for _, p := range entries {
		if m, err := prog.Module(p); err == nil {
			mods = append(mods, m)
		}
	}
	return prog.Analyze(mods, pytarget.All())
}

// TestEntryAloneOrTogether: an entry analyzed alone finds what it finds
// analyzed with every other entry of its program, on every fixture
// directory: what the analysis stores while running one entry must not
// change what another finds. A hazard two entries find is represented by
// one of them, so a hazard an entry finds alone need only be found by some
// entry when together, and one it is named for together must be one it
// finds alone.
//
// testdata/py/entry_independence is the case the per-module summaries
// (Function.summaryOf) are for: export_columns.py, simulated first, binds
// features.column with more constants than one module's budget of full and
// constant contexts holds, then calls gpu_batch, whose summary it builds
// with column(table, "lepton_pT", device="cuda") bound in no context. A
// summary built once for all modules hands train_classifier.py that
// summary: its pool's children were unknown where alone they use CUDA.
func TestEntryAloneOrTogether(t *testing.T) {
	dirs := fixtureDirs(t)
	if dirs["../testdata/py/entry_independence"] == nil {
		t.Fatal("no testdata/py/entry_independence")
	}
	compared := 0
	for d, files := range dirs {
		var paths []string
		for p := range files {
			paths = append(paths, p)
		}
		sort.Strings(paths)
		if len(paths) < 2 {
			continue
		}
		together, byEntry := hazardKeys(analyzeEntries(files, paths, paths))
		for _, p := range paths {
			_, alone := hazardKeys(analyzeEntries(files, paths, []string{p}))
			for k := range alone[p] {
				compared++
				if !together[k] {
					t.Errorf("%s: %s alone finds %s, not found with the others", d, p, k)
				}
			}
			for k := range byEntry[p] {
				if !alone[p][k] {
					t.Errorf("%s: %s with the others finds %s, not found alone", d, p, k)
				}
			}
		}
	}
	if compared < 50 {
		t.Errorf("only %d hazards compared", compared)
	}
}

// TestObjectsMadePerEntry: a process object made outside of any call
// context is shared by the evaluations of one module simulated as
// __main__. One whose making bound call contexts (a library's DataLoader,
// whose dataset's __getitem__ is read in a context) is made again for the
// next module, whose budget of contexts may bind others: a train.py
// checked with inference.py got the DataLoader made while inference.py
// was analyzed, and an error it does not get alone. One whose making
// bound none is kept, so that the summaries that hold it stay valid.
func TestObjectsMadePerEntry(t *testing.T) {
	prog := NewProgram(memSource{"/p/loaders.py": "import multiprocessing as mp\n\npool = mp.Pool(2)\n"}, Options{})
	m, err := prog.Module("/p/loaders.py")
	if err != nil {
		t.Fatal(err)
	}
	vs := prog.values()
	for _, binds := range []bool{true, false} {
		site := Site{Mod: m, Span: syntax.Span{Start: 29, End: 39}}
		if !binds {
			site.Span.Start++
		}
		made := 0
		mk := func() *Object {
			made++
			if binds {
				vs.budgetReads++ // as intern counts a context asked for
			}
			return newObject(&Object{Kind: ObjPool, Site: site})
		}
		vs.newEntry()
		first := m.object(site, mk)
		if again := m.object(site, mk); again != first || made != 1 {
			t.Errorf("binds %v: within one module's run, %d objects made", binds, made)
		}
		vs.newEntry()
		next := m.object(site, mk)
		if binds && (next == first || made != 2) {
			t.Errorf("the next module's run was handed the object whose contexts the module before it bound (%d made)", made)
		}
		if !binds && (next != first || made != 1) {
			t.Errorf("an object that bound no context was made again for the next module (%d made)", made)
		}
	}
}

// TestSummaryBudgetPerEntry: a function's summary binds its calls in
// contexts as far as the budget of the module simulated then allows. A
// warm-up script that used up to_device's contexts (maxContextsPerFunc
// and maxConstContextsPerFunc devices) and then called encode left encode's summary with its
// to_device("cuda") call out of any context, where the device is not
// known; the training script run after it must still see its pool's
// children move their batch to the GPU, as it does checked alone.
func TestSummaryBudgetPerEntry(t *testing.T) {
	files := memSource{"/p/gpu.py": `import torch


def to_device(x, device):
    return x.to(device)


def encode(batch):
    return to_device(batch, "cuda")
`}
	var warm strings.Builder
	for i := range maxContextsPerFunc + maxConstContextsPerFunc {
		fmt.Fprintf(&warm, "gpu.to_device(x, \"cpu:%d\")\n", i)
	}
	files["/p/a_warm.py"] = "import sys\n\nimport gpu\n\nx = sys.argv\n" + warm.String() + "gpu.encode(x)\n"
	files["/p/train.py"] = `import multiprocessing as mp
import sys

import torch

import gpu

torch.cuda.init()
with mp.Pool(2) as pool:
    pool.map(gpu.encode, sys.argv)
`
	paths := []string{"/p/a_warm.py", "/p/gpu.py", "/p/train.py"}
	_, alone := hazardKeys(analyzeEntries(files, paths, []string{"/p/train.py"}))
	_, together := hazardKeys(analyzeEntries(files, paths, []string{"/p/a_warm.py", "/p/train.py"}))
	if len(alone["/p/train.py"]) == 0 {
		t.Fatalf("train.py alone finds nothing")
	}
	if !maps.Equal(alone["/p/train.py"], together["/p/train.py"]) {
		t.Errorf("train.py after a_warm.py: %v; alone: %v", together["/p/train.py"], alone["/p/train.py"])
	}
}
