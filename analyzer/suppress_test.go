package analyzer_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cudaforklint/cudaforklint/analyzer"
	"github.com/cudaforklint/cudaforklint/config"
	"github.com/cudaforklint/cudaforklint/passes/pyprogram"
	"github.com/cudaforklint/cudaforklint/ruledoc"
	"github.com/cudaforklint/cudaforklint/rules"
)

// TestNoqaInImportedModule: a finding that lies in a module the checked
// file imports is suppressed by that module's `# noqa`, as when the module
// is checked too (pre-commit checks the staged file alone; an editor checks
// the open one).
func TestNoqaInImportedModule(t *testing.T) {
	for _, tc := range []struct {
		name       string
		comment    string
		paths      []string
		suppressed bool
	}{
		{"no directive", "", []string{"main.py"}, false},
		{"directive, main.py checked alone", "  # noqa: CFL001", []string{"main.py"}, true},
		{"directive, both checked", "  # noqa: CFL001", []string{"main.py", "gpu.py"}, true},
		{"another code", "  # noqa: CFL002", []string{"main.py"}, false},
		{"blanket", "  # noqa", []string{"main.py"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			gpu := strings.Replace(gpuInit, "torch.cuda.init()\n", "torch.cuda.init()"+tc.comment+"\n", 1)
			for name, src := range map[string]string{"main.py": overlayDisk["main.py"], "gpu.py": gpu} {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			l, err := config.NewLoader(ruledoc.All(), config.Overrides{Isolated: true})
			if err != nil {
				t.Fatal(err)
			}
			pol := config.NewPolicy(l)
			pol.Roots = []string{dir}
			res, err := analyzer.Run(context.Background(), analyzer.Options{Split: pyprogram.Split, Paths: tc.paths, Analyzers: rules.All(), Policy: pol, WorkDir: dir})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range res.Findings {
				if f.Code == "CFL001" {
					got = append(got, f.Path)
					if f.Suppressed != tc.suppressed {
						t.Errorf("%s:%d CFL001 suppressed=%v, want %v", f.Path, f.Start.Line, f.Suppressed, tc.suppressed)
					}
				}
			}
			if len(got) != 1 || got[0] != "gpu.py" {
				t.Errorf("CFL001 findings in %v, want one in gpu.py", got)
			}
		})
	}
}
