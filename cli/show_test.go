package cli

import (
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cudaforklint/cudaforklint/ruledoc"
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

// settingsOf runs --show-settings for path in dir and returns its lines
// by key.
func settingsOf(t *testing.T, dir, path string, args ...string) map[string]string {
	t.Helper()
	code, out, stderr := run(t, dir, append([]string{"check", "--show-settings", path}, args...)...)
	if code != ExitClean {
		t.Fatalf("--show-settings %s: exit %d\n%s", path, code, stderr)
	}
	got := map[string]string{}
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n")[1:] {
		k, v, ok := strings.Cut(l, ":")
		if !ok {
			t.Fatalf("not a setting line: %q", l)
		}
		got[k] = strings.TrimSpace(v)
	}
	return got
}

// TestShowSettings: the settings of files of a repository that holds a
// nested project: each file's own project root, configuration, import
// roots, targets, rules and per-file-ignores, whatever the working
// directory; and a file outside any project.
func TestShowSettings(t *testing.T) {
	dir := t.TempDir()
	if err := exec.Command("git", "init", "-q", dir).Run(); err != nil {
		t.Skipf("git: %v", err)
	}
	for name, content := range map[string]string{
		"pyproject.toml": `[project]
requires-python = ">=3.12"

[tool.cudaforklint]
extend-select = ["CFL100"]
ignore = ["CFL007"]
extend-exclude = ["generated"]
src = ["tools"]

[tool.cudaforklint.per-file-ignores]
"tests/**" = ["CFL001"]
"docs/*" = ["CFL002"]
`,
		"src/lab/__init__.py":          "",
		"tools/helper.py":              "",
		"train.py":                     hazard,
		"tests/test_train.py":          hazard,
		"services/api/pyproject.toml":  "[tool.cudaforklint]\nplatform = [\"linux\", \"windows\"]\ncache-dir = \".cache\"\n",
		"services/api/app.py":          hazard,
		"services/api/tests/test_a.py": hazard,
	} {
		write(t, dir, name, content)
	}
	abs := func(rel string) string { return filepath.Join(dir, filepath.FromSlash(rel)) }
	allRules := func(except ...string) []string {
		var out []string
		for _, d := range ruledoc.All() {
			if !slices.Contains(except, d.Code) {
				out = append(out, d.Code)
			}
		}
		return out
	}
	// The root project's: the defaults, CFL100 added, CFL007 taken out.
	var rootSelected, defaultSelected []string
	for _, d := range ruledoc.All() {
		if (d.DefaultEnabled || d.Code == "CFL100") && d.Code != "CFL007" {
			rootSelected = append(rootSelected, d.Code)
		}
		if d.DefaultEnabled {
			defaultSelected = append(defaultSelected, d.Code)
		}
	}
	for _, tc := range []struct {
		file string
		want map[string]string
	}{
		{"tests/test_train.py", map[string]string{
			"project root":     abs("."),
			"config file":      abs("pyproject.toml"),
			"import roots":     abs(".") + ", " + abs("src") + ", " + abs("tools"),
			"targets":          "Python 3.12–3.15 on Linux",
			"selected rules":   strings.Join(rootSelected, ", "),
			"ignored rules":    strings.Join(allRules(rootSelected...), ", "),
			"per-file-ignores": `"tests/**" = CFL001`,
			"excluded":         "no",
		}},
		{"train.py", map[string]string{
			"project root":     abs("."),
			"per-file-ignores": "(none)",
		}},
		{"generated/out.py", map[string]string{
			"excluded": "yes: a run over its directory skips it; named on the command line it is checked",
		}},
		{"services/api/tests/test_a.py", map[string]string{
			"project root":     abs("services/api"),
			"config file":      abs("services/api/pyproject.toml"),
			"import roots":     abs("services/api"),
			"targets":          "Python 3.11–3.15 on Linux and Windows",
			"selected rules":   strings.Join(defaultSelected, ", "),
			"ignored rules":    strings.Join(allRules(defaultSelected...), ", "),
			"per-file-ignores": "(none)",
		}},
	} {
		// From the repository and from elsewhere, by absolute and by
		// relative path: the same settings.
		for _, wd := range []string{dir, abs("services/api")} {
			rel, _ := filepath.Rel(wd, abs(tc.file))
			for _, p := range []string{abs(tc.file), rel} {
				got := settingsOf(t, wd, p)
				for k, v := range tc.want {
					if got[k] != v {
						t.Errorf("%s from %s: %s = %q, want %q", p, wd, k, got[k], v)
					}
				}
			}
		}
	}
	// The nested project's cache directory is its own, for a run there.
	if got := settingsOf(t, abs("services/api"), "app.py")["cache dir"]; !strings.HasPrefix(got, abs("services/api/.cache")) {
		t.Errorf("cache dir = %q", got)
	}
	// Outside any project: no root, no config file.
	loose := t.TempDir()
	write(t, loose, "script.py", hazard)
	got := settingsOf(t, loose, "script.py")
	if !strings.HasPrefix(got["project root"], "(none") || got["config file"] != "(none: the defaults)" || got["import roots"] != "(none)" {
		t.Errorf("outside a project: %q", got)
	}
	// The command line counts: --isolated, --select, --target-version.
	got = settingsOf(t, dir, "train.py", "--isolated", "--select", "CFL001", "--target-version", "py313")
	if got["config file"] != "(none: --isolated)" || got["selected rules"] != "CFL001" || got["targets"] != "Python 3.13–3.15 on Linux" {
		t.Errorf("with flags: %q", got)
	}
}
