package cli

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestShowFiles: --show-files lists what a run checks, sorted, and
// nothing that discovery skips: excluded paths (the nested project's own
// exclude too), .gitignored files, virtual environments, hidden
// directories, other file types.
func TestShowFiles(t *testing.T) {
	dir := t.TempDir()
	if err := exec.Command("git", "init", "-q", dir).Run(); err != nil {
		t.Skipf("git: %v", err)
	}
	for name, content := range map[string]string{
		"pyproject.toml":                  "[tool.cudaforklint]\nextend-exclude = [\"build\"]\n",
		".gitignore":                      "generated.py\n",
		"train.py":                        hazard,
		"Analysis.ipynb":                  "{}",
		"generated.py":                    "x = 1\n",
		"notes.txt":                       "not Python\n",
		"build/out.py":                    "x = 1\n",
		".hidden/secret.py":               "x = 1\n",
		"venv/pyvenv.cfg":                 "home = /usr\n",
		"venv/lib/site.py":                "x = 1\n",
		"pkg/__init__.py":                 "",
		"pkg/stub.pyi":                    "x: int\n",
		"services/api/pyproject.toml":     "[tool.cudaforklint]\nextend-exclude = [\"migrations\"]\n",
		"services/api/app.py":             "x = 1\n",
		"services/api/migrations/0001.py": "x = 1\n",
	} {
		write(t, dir, name, content)
	}
	for _, tc := range []struct {
		name string
		args []string
		want []string
	}{
		{"the repository", nil, []string{
			"Analysis.ipynb", "pkg/__init__.py", "pkg/stub.pyi", "services/api/app.py", "train.py"}},
		{"a directory", []string{"services"}, []string{"services/api/app.py"}},
		{"a file named is listed even when excluded", []string{"build/out.py", "train.py"}, []string{"build/out.py", "train.py"}},
		{"unless --force-exclude", []string{"--force-exclude", "build/out.py", "train.py"}, []string{"train.py"}},
		{"--extend-exclude", []string{"--extend-exclude", "pkg"}, []string{
			"Analysis.ipynb", "services/api/app.py", "train.py"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, stderr := run(t, dir, append([]string{"check", "--show-files"}, tc.args...)...)
			if code != ExitClean {
				t.Fatalf("exit %d:\n%s", code, stderr)
			}
			var want []string
			for _, w := range tc.want {
				want = append(want, filepath.FromSlash(w))
			}
			if got := strings.Fields(out); strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("got:\n%s\nwant:\n%s", out, strings.Join(want, "\n"))
			}
		})
	}
	// From a subdirectory, the paths are relative to it.
	code, out, _ := run(t, filepath.Join(dir, "services"), "check", "--show-files")
	if code != ExitClean || out != filepath.FromSlash("api/app.py")+"\n" {
		t.Errorf("from services/: exit %d\n%s", code, out)
	}
	// A missing path is a tool error.
	if code, _, stderr := run(t, dir, "check", "--show-files", "missing.py"); code != ExitError {
		t.Errorf("a missing path: exit %d\n%s", code, stderr)
	}
}
