package forkhazard_test

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"sync"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/cudaforklint/cudaforklint/analyzer"
	"github.com/cudaforklint/cudaforklint/config"
	"github.com/cudaforklint/cudaforklint/model"
	"github.com/cudaforklint/cudaforklint/passes/forkhazard"
	"github.com/cudaforklint/cudaforklint/passes/pyprogram"
	"github.com/cudaforklint/cudaforklint/pytarget"
	"github.com/cudaforklint/cudaforklint/ruledoc"
)

// hazardsOf runs the forkhazard pass over files (name → source) with the
// given per-file targets and returns its result.
func hazardsOf(t *testing.T, files map[string]string, targets map[string]pytarget.Set) []*model.Hazard {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	l, err := config.NewLoader(ruledoc.All(), config.Overrides{Isolated: true})
	if err != nil {
		t.Fatal(err)
	}
	pol := config.NewPolicyFunc(func(path string) (*config.Settings, error) {
		s, err := l.For(path)
		if err == nil {
			if ts, ok := targets[filepath.Base(path)]; ok {
				s.Targets = ts
			}
		}
		return s, err
	})
	// The driver runs the passes once per independent program: collect
	// every run's hazards.
	var mu sync.Mutex
	var got []*model.Hazard
	ran := false
	probe := &analysis.Analyzer{
		Name:       "probe",
		Doc:        "capture the forkhazard result",
		Requires:   []*analysis.Analyzer{forkhazard.Analyzer},
		ResultType: reflect.TypeOf(0),
		Run: func(pass *analysis.Pass) (any, error) {
			mu.Lock()
			defer mu.Unlock()
			got = append(got, pass.ResultOf[forkhazard.Analyzer].(*forkhazard.Result).Hazards...)
			ran = true
			return 0, nil
		},
	}
	res, err := analyzer.Run(context.Background(), analyzer.Options{Paths: []string{dir}, Analyzers: []*analysis.Analyzer{probe}, Policy: pol, WorkDir: dir,
		Split: pyprogram.Split, ForceFull: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range res.Errors {
		t.Errorf("tool error: %s: %s", e.Path, e.Message)
	}
	if !ran {
		t.Fatal("the probe never ran")
	}
	sort.SliceStable(got, func(i, j int) bool { return got[i].Entry.Path < got[j].Entry.Path })
	return got
}

const forkDefault = `import multiprocessing as mp
import torch

def work(i):
    return torch.ones(1, device="cuda").item()

if __name__ == "__main__":
    torch.cuda.init()
    with mp.Pool(2) as pool:
        pool.map(work, range(2))
`

// TestHazardConfigs: a fork through the default start method holds where
// the default is fork (3.11–3.13 on Linux by default), not on 3.14 and 3.15
// (forkserver).
func TestHazardConfigs(t *testing.T) {
	zs := hazardsOf(t, map[string]string{"train.py": forkDefault}, nil)
	if len(zs) != 1 {
		t.Fatalf("got %d hazards, want 1", len(zs))
	}
	z := zs[0]
	if z.Kind != model.ForkAfterInit || z.Child.Verdict != model.ChildUsesCUDA {
		t.Errorf("kind %v verdict %v, want ForkAfterInit with a child that uses CUDA", z.Kind, z.Child.Verdict)
	}
	want := pytarget.Versions(pytarget.Py311, pytarget.Py313Late) & pytarget.Platforms(pytarget.Linux)
	if z.Configs != want {
		t.Errorf("configs %s, want %s", z.Configs.Describe(), want.Describe())
	}
}

// TestTargetSetsAnalyzedSeparately: files with different targets are
// simulated for their own targets only, and the result is the same in
// every run (groups visited in a fixed order).
func TestTargetSetsAnalyzedSeparately(t *testing.T) {
	files := map[string]string{"old.py": forkDefault, "new.py": forkDefault}
	targets := map[string]pytarget.Set{
		"old.py": pytarget.Versions(pytarget.Py310, pytarget.Py310) & pytarget.Platforms(pytarget.Linux),
		"new.py": pytarget.Versions(pytarget.Py314Early, pytarget.Py315) & pytarget.Platforms(pytarget.Linux),
	}
	var first []string
	for run := 0; run < 3; run++ {
		var got []string
		for _, z := range hazardsOf(t, files, targets) {
			got = append(got, filepath.Base(z.Entry.Path)+" "+z.Configs.Describe())
		}
		// 3.14 and 3.15 default to forkserver: only old.py forks.
		if len(got) != 1 || got[0] != "old.py "+targets["old.py"].Describe() {
			t.Fatalf("run %d: hazards %q, want one for old.py on %s", run, got, targets["old.py"].Describe())
		}
		if run == 0 {
			first = got
		} else if !reflect.DeepEqual(got, first) {
			t.Fatalf("run %d gave %q, run 0 gave %q", run, got, first)
		}
	}
}
