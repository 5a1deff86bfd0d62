package analyzer_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"sync"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/cudaforklint/cudaforklint/analyzer"
	"github.com/cudaforklint/cudaforklint/config"
	"github.com/cudaforklint/cudaforklint/passes/pyprogram"
	"github.com/cudaforklint/cudaforklint/ruledoc"
	"github.com/cudaforklint/cudaforklint/rules"
)

// TestSelectionBeforeAnalysis: a rule that no checked file selects does not
// run at all, and every analyzer that runs sees the policy the caller gave
// (config.For) rather than package state.
func TestSelectionBeforeAnalysis(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.py"), []byte("x = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	ran := map[string]*config.Policy{}
	fake := func(code string) *analysis.Analyzer {
		return &analysis.Analyzer{
			Name:       code,
			Doc:        "record that it ran",
			Requires:   []*analysis.Analyzer{config.Analyzer},
			ResultType: reflect.TypeOf(0),
			Run: func(pass *analysis.Pass) (any, error) {
				mu.Lock()
				ran[code] = config.For(pass)
				mu.Unlock()
				return 0, nil
			},
		}
	}
	for _, tc := range []struct {
		name     string
		selected []string
		want     []string
	}{
		{"defaults", nil, []string{"CFL001"}},
		{"extend-select", []string{"CFL001", "CFL003"}, []string{"CFL001", "CFL003"}},
		{"only CFL003", []string{"CFL003"}, []string{"CFL003"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ran = map[string]*config.Policy{}
			l, err := config.NewLoader(ruledoc.All(), config.Overrides{Select: tc.selected, Isolated: true})
			if err != nil {
				t.Fatal(err)
			}
			pol := config.NewPolicy(l)
			_, err = analyzer.Run(context.Background(), analyzer.Options{
				Split:     pyprogram.Split,
				Paths:     []string{dir},
				Analyzers: []*analysis.Analyzer{fake("CFL001"), fake("CFL003")},
				Policy:    pol,
				WorkDir:   dir,
			})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, code := range []string{"CFL001", "CFL003"} {
				if p, ok := ran[code]; ok {
					got = append(got, code)
					if p != pol {
						t.Errorf("%s saw another policy than the caller's", code)
					}
				}
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("ran %v, want %v", got, tc.want)
			}
		})
	}
}

// TestProjectAloneOrInAMonorepo: a project's findings do not depend on the
// unrelated projects checked with it. The monorepo fixture's two projects
// have modules of the same names; checked together they give what each
// gives alone, because the driver analyzes each independent program on its
// own (one model, with every loaded module, let the speech project's call
// of its prefetch_to_gpu hide the vision project's uncalled one).
func TestProjectAloneOrInAMonorepo(t *testing.T) {
	root, err := filepath.Abs("../testdata/py/monorepo")
	if err != nil {
		t.Fatal(err)
	}
	check := func(path string) []string {
		l, err := config.NewLoader(ruledoc.All(), config.Overrides{Select: []string{"ALL"}, Isolated: true})
		if err != nil {
			t.Fatal(err)
		}
		pol := config.NewPolicy(l)
		pol.Roots = []string{root}
		res, err := analyzer.Run(context.Background(), analyzer.Options{Split: pyprogram.Split, Paths: []string{path}, Analyzers: rules.All(), Policy: pol, WorkDir: root})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, f := range res.Findings {
			out = append(out, fmt.Sprintf("%s:%d: %s", f.Path, f.Start.Line, f.Code))
		}
		return out
	}
	together := check(root)
	var alone []string
	for _, project := range []string{"speech", "vision"} {
		alone = append(alone, check(filepath.Join(root, project))...)
	}
	sort.Strings(together)
	sort.Strings(alone)
	if len(alone) == 0 {
		t.Fatal("the projects alone have no findings: the fixture no longer tests anything")
	}
	if !reflect.DeepEqual(together, alone) {
		t.Errorf("checked together: %q\nchecked alone: %q", together, alone)
	}
}
