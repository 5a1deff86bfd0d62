package config

import (
	"path/filepath"
	"reflect"
	"testing"
)

// TestImportRoots: the import roots of a directory are its project root
// (the nearest pyproject.toml, setup.py, setup.cfg or .git), the root's
// src/ directory, then the configured src, whatever the working directory.
func TestImportRoots(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		dir   string
		want  []string // relative to the tree; nil: none
	}{
		{"pyproject.toml", map[string]string{"p/pyproject.toml": "[project]\nname = \"p\"\n", "p/scripts/": ""},
			"p/scripts", []string{"p"}},
		{"setup.py with a src layout", map[string]string{"q/setup.py": "", "q/src/": "", "q/tools/": ""},
			"q/tools", []string{"q", "q/src"}},
		{"setup.cfg, deep below", map[string]string{"r/setup.cfg": "", "r/a/b/": ""},
			"r/a/b", []string{"r"}},
		{"a clone's .git directory", map[string]string{"g/.git/": "", "g/x/": ""},
			"g/x", []string{"g"}},
		{"a worktree's .git file", map[string]string{"w/.git": "gitdir: /elsewhere/.git/worktrees/w\n", "w/x/": ""},
			"w/x", []string{"w"}},
		{"the nearest project wins", map[string]string{"m/.git/": "", "m/sub/pyproject.toml": "[project]\n", "m/sub/pkg/": ""},
			"m/sub/pkg", []string{"m/sub"}},
		{"the project root itself", map[string]string{"m/.git/": "", "m/sub/pyproject.toml": "[project]\n"},
			"m/sub", []string{"m/sub"}},
		{"configured src after the project's", map[string]string{
			"c/pyproject.toml": "[tool.cudaforklint]\nsrc = [\"tests\", \"python\", \".\"]\n", "c/src/": "", "c/tests/": ""},
			"c/tests", []string{"c", "c/src", "c/tests", "c/python"}},
		{"src of a configuration above the project", map[string]string{
			"mono/cudaforklint.toml": "src = [\"common\"]\n", "mono/.git/": "",
			"mono/app/pyproject.toml": "[project]\nname = \"app\"\n", "mono/app/bin/": ""},
			"mono/app/bin", []string{"mono/app", "mono/common"}},
		{"a file named src is no layout", map[string]string{"f/pyproject.toml": "", "f/src": "not a directory\n"},
			"f", []string{"f"}},
		{"a broken configuration adds no src", map[string]string{"b/pyproject.toml": "[tool.cudaforklint]\nsrc = 3\n", "b/src/": ""},
			"b", []string{"b", "b/src"}},
		{"no project", map[string]string{"loose/": ""},
			"loose", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := tree(t, tt.files)
			var want []string
			for _, w := range tt.want {
				want = append(want, filepath.Join(dir, w))
			}
			// From the tree, from the directory itself and from elsewhere,
			// with the directory absolute or relative: the same roots.
			for _, wd := range []string{dir, filepath.Join(dir, tt.dir), t.TempDir()} {
				t.Chdir(wd)
				l := loader(t, Overrides{})
				for _, d := range []string{filepath.Join(dir, tt.dir), relTo(t, wd, filepath.Join(dir, tt.dir))} {
					if got := l.ImportRoots(d); !reflect.DeepEqual(got, want) {
						t.Errorf("from %s: ImportRoots(%s) = %q, want %q", wd, d, got, want)
					}
				}
			}
		})
	}
}

// TestPolicyImportRoots: a policy searches a file's project roots first,
// then its own Roots (a workspace folder), each directory once.
func TestPolicyImportRoots(t *testing.T) {
	dir := tree(t, map[string]string{"p/setup.py": "", "p/src/pkg/": "", "p/bin/": ""})
	p := filepath.Join(dir, "p")
	pol := NewPolicy(loader(t, Overrides{Isolated: true}))
	pol.Roots = []string{dir, p}
	want := []string{p, filepath.Join(p, "src"), dir}
	for _, file := range []string{filepath.Join(p, "bin", "run.py"), filepath.Join(p, "bin", "other.py")} {
		if got := pol.ImportRoots(file); !reflect.DeepEqual(got, want) {
			t.Errorf("ImportRoots(%s) = %q, want %q", file, got, want)
		}
	}
	// Isolated reads no configuration, but a project is still a project.
	if got := pol.ImportRoots(filepath.Join(p, "src", "pkg", "mod.py")); !reflect.DeepEqual(got, want) {
		t.Errorf("in the src layout: %q, want %q", got, want)
	}
}

func relTo(t *testing.T, base, path string) string {
	t.Helper()
	rel, err := filepath.Rel(base, path)
	if err != nil {
		t.Fatal(err)
	}
	return rel
}
