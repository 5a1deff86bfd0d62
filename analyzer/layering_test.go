package analyzer_test

import (
	"go/build"
	"path/filepath"
	"strings"
	"testing"
)

const module = "github.com/cudaforklint/cudaforklint"

// TestLayering holds the layering the package docs state: the driver knows
// no pass (the caller hands it the analyzers and the splitter), so no
// package under passes/ is among analyzer's dependencies; and the command
// line knows no parser: cli does not import syntax itself (the parse-tree
// cache reaches the driver as cache.Trees).
func TestLayering(t *testing.T) {
	for _, tc := range []struct {
		pkg        string
		transitive bool // check every dependency, not only the imports
		banned     string
	}{
		{"analyzer", true, "passes/"},
		{"analyzer/runstate", true, "passes/"},
		{"cli", false, "syntax"},
	} {
		seen := map[string]bool{}
		var visit func(rel string, chain []string)
		visit = func(rel string, chain []string) {
			if seen[rel] {
				return
			}
			seen[rel] = true
			p, err := build.ImportDir(filepath.Join("..", filepath.FromSlash(rel)), 0)
			if err != nil {
				t.Fatalf("%s: %v", rel, err)
			}
			for _, imp := range p.Imports {
				dep, ok := strings.CutPrefix(imp, module+"/")
				if !ok {
					continue
				}
				path := append(chain[:len(chain):len(chain)], dep)
				if dep == tc.banned || strings.HasSuffix(tc.banned, "/") && strings.HasPrefix(dep, tc.banned) {
					t.Errorf("%s imports %s: %s", tc.pkg, dep, strings.Join(path, " → "))
					continue
				}
				if tc.transitive {
					visit(dep, path)
				}
			}
		}
		visit(tc.pkg, []string{tc.pkg})
		if len(seen) == 0 {
			t.Errorf("%s: nothing read", tc.pkg)
		}
	}
}
