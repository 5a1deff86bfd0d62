package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/cudaforklint/cudaforklint/pytarget"
	"github.com/cudaforklint/cudaforklint/ruledoc"
)

func testRules() []*ruledoc.Doc {
	var out []*ruledoc.Doc
	for _, c := range []string{"CFL001", "CFL002", "CFL003", "CFL004", "CFL005"} {
		out = append(out, &ruledoc.Doc{Code: c, DefaultEnabled: c != "CFL005"})
	}
	return out
}

// tree writes files (path → content) under a new temp dir and returns it.
func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for p, content := range files {
		full := filepath.Join(dir, p)
		if strings.HasSuffix(p, "/") {
			if err := os.MkdirAll(full, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func loader(t *testing.T, ov Overrides) *Loader {
	t.Helper()
	l, err := NewLoader(testRules(), ov)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func settings(t *testing.T, l *Loader, path string) *Settings {
	t.Helper()
	s, err := l.For(path)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestDiscovery(t *testing.T) {
	dir := tree(t, map[string]string{
		"pyproject.toml":          "[project]\nname = \"x\"\n\n[tool.cudaforklint]\nselect = [\"CFL001\"]\n",
		"sub/cudaforklint.toml":   "select = [\"CFL002\"]\n",
		"sub/deeper/x.py":         "",
		"other/x.py":              "",
		"pkg/pyproject.toml":      "[project]\nname = \"pkg\"\n", // no table: does not count
		"pkg/x.py":                "",
		"both/.cudaforklint.toml": "select = [\"CFL003\"]\n",
		"both/cudaforklint.toml":  "select = [\"CFL004\"]\n",
		"both/pyproject.toml":     "[tool.cudaforklint]\nselect = [\"CFL005\"]\n",
		"both/x.py":               "",
		"named/cudaforklint.toml": "select = [\"CFL004\"]\n",
		"named/pyproject.toml":    "[tool.cudaforklint]\nselect = [\"CFL005\"]\n",
		"named/x.py":              "",
	})
	l := loader(t, Overrides{})
	tests := []struct {
		path, config string
		codes        []string
	}{
		{"x.py", "pyproject.toml", []string{"CFL001"}},
		{"sub/deeper/x.py", "sub/cudaforklint.toml", []string{"CFL002"}},
		{"other/x.py", "pyproject.toml", []string{"CFL001"}},
		{"pkg/x.py", "pyproject.toml", []string{"CFL001"}},
		{"both/x.py", "both/.cudaforklint.toml", []string{"CFL003"}},
		{"named/x.py", "named/cudaforklint.toml", []string{"CFL004"}},
	}
	for _, tt := range tests {
		s := settings(t, l, filepath.Join(dir, tt.path))
		if s.Config.Path != filepath.Join(dir, tt.config) {
			t.Errorf("%s: config %s, want %s", tt.path, s.Config.Path, tt.config)
		}
		if !reflect.DeepEqual(s.Codes(), tt.codes) {
			t.Errorf("%s: codes %v, want %v", tt.path, s.Codes(), tt.codes)
		}
	}
	// Isolated ignores every file.
	s := settings(t, loader(t, Overrides{Isolated: true}), filepath.Join(dir, "x.py"))
	if s.Config.Path != "" || len(s.Codes()) != 4 {
		t.Errorf("isolated: config %q codes %v", s.Config.Path, s.Codes())
	}
	// --config uses one file for everything.
	s = settings(t, loader(t, Overrides{ConfigFile: filepath.Join(dir, "sub/cudaforklint.toml")}), filepath.Join(dir, "x.py"))
	if !reflect.DeepEqual(s.Codes(), []string{"CFL002"}) {
		t.Errorf("--config: codes %v", s.Codes())
	}
	// The cache returns the same Config for files of one directory.
	a := settings(t, l, filepath.Join(dir, "other/x.py"))
	b := settings(t, l, filepath.Join(dir, "other/y.py"))
	if a.Config != b.Config {
		t.Error("config not cached per directory")
	}
}

func TestSelection(t *testing.T) {
	tests := []struct {
		name string
		toml string
		ov   Overrides
		want []string
	}{
		{"defaults", "", Overrides{}, []string{"CFL001", "CFL002", "CFL003", "CFL004"}},
		{"ALL", `select = ["ALL"]`, Overrides{}, []string{"CFL001", "CFL002", "CFL003", "CFL004", "CFL005"}},
		{"prefix", `select = ["CFL00"]`, Overrides{}, []string{"CFL001", "CFL002", "CFL003", "CFL004", "CFL005"}},
		{"code", `select = ["CFL003"]`, Overrides{}, []string{"CFL003"}},
		{"ignore narrower wins", "select = [\"CFL\"]\nignore = [\"CFL002\"]", Overrides{}, []string{"CFL001", "CFL003", "CFL004", "CFL005"}},
		{"select narrower wins", "select = [\"CFL002\"]\nignore = [\"CFL\"]", Overrides{}, []string{"CFL002"}},
		{"tie: ignore wins", "select = [\"CFL002\"]\nignore = [\"CFL002\"]", Overrides{}, nil},
		{"extend-select adds to defaults", `extend-select = ["CFL005"]`, Overrides{}, []string{"CFL001", "CFL002", "CFL003", "CFL004", "CFL005"}},
		{"ignore from defaults", `ignore = ["CFL001", "CFL004"]`, Overrides{}, []string{"CFL002", "CFL003"}},
		{"cli select replaces config", "select = [\"CFL\"]\nignore = [\"CFL001\"]", Overrides{Select: []string{"CFL001"}}, []string{"CFL001"}},
		{"cli ignore adjusts config", `select = ["CFL001", "CFL002"]`, Overrides{Ignore: []string{"CFL002"}}, []string{"CFL001"}},
		{"cli extend-select adjusts config", `select = ["CFL001"]`, Overrides{ExtendSelect: []string{"CFL005"}}, []string{"CFL001", "CFL005"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := tree(t, map[string]string{"cudaforklint.toml": tt.toml + "\n"})
			s := settings(t, loader(t, tt.ov), filepath.Join(dir, "a.py"))
			if got := s.Codes(); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("codes %v, want %v", got, tt.want)
			}
			for _, c := range tt.want {
				if !s.Selected(c) {
					t.Errorf("Selected(%s) = false", c)
				}
			}
		})
	}
}

func TestPerFileIgnores(t *testing.T) {
	dir := tree(t, map[string]string{"pyproject.toml": `
[tool.cudaforklint.per-file-ignores]
"__init__.py" = ["CFL001"]
"tests/*" = ["CFL002"]
"**/{scripts,examples}/*.py" = ["CFL003"]
"!src/**" = ["CFL004"]
"legacy/old.py" = ["CFL"]

[tool.cudaforklint]
extend-per-file-ignores = { "conftest.py" = ["CFL005"] }
`})
	l := loader(t, Overrides{})
	tests := []struct {
		path string
		want []string
	}{
		{"src/pkg/__init__.py", []string{"CFL001"}},
		{"src/pkg/mod.py", nil},
		{"tests/a/b/test_x.py", []string{"CFL002", "CFL004"}},
		{"examples/demo.py", []string{"CFL003", "CFL004"}},
		{"src/scripts/run.py", []string{"CFL003"}},
		{"legacy/old.py", []string{"CFL001", "CFL002", "CFL003", "CFL004", "CFL005"}},
		{"tests/conftest.py", []string{"CFL002", "CFL004", "CFL005"}},
	}
	for _, tt := range tests {
		s := settings(t, l, filepath.Join(dir, tt.path))
		var got []string
		for _, c := range []string{"CFL001", "CFL002", "CFL003", "CFL004", "CFL005"} {
			if s.PerFileIgnored(c) {
				got = append(got, c)
			}
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: ignored %v, want %v", tt.path, got, tt.want)
		}
	}
}

func TestTargets(t *testing.T) {
	linux := pytarget.Platforms(pytarget.Linux)
	tests := []struct {
		name  string
		files map[string]string
		ov    Overrides
		want  pytarget.Set
	}{
		{"default", nil, Overrides{}, pytarget.Default()},
		{"default leaves out 3.10", nil, Overrides{}, pytarget.Versions(pytarget.Py311, pytarget.Py315) & linux},
		{"target-version", map[string]string{"cudaforklint.toml": `target-version = "py312"`},
			Overrides{}, pytarget.Versions(pytarget.Py312, pytarget.Py315) & linux},
		{"target-version widens to 3.10", map[string]string{"cudaforklint.toml": `target-version = "py310"`},
			Overrides{}, pytarget.Versions(pytarget.Py310, pytarget.Py315) & linux},
		{"target-version py315", map[string]string{"cudaforklint.toml": `target-version = "py315"`},
			Overrides{}, pytarget.Versions(pytarget.Py315, pytarget.Py315) & linux},
		{"requires-python narrows", map[string]string{"pyproject.toml": "[project]\nrequires-python = \">=3.13.8\"\n[tool.cudaforklint]\ntarget-version = \"py311\"\n"},
			Overrides{}, pytarget.Versions(pytarget.Py313Late, pytarget.Py315) & linux},
		{"requires-python next to cudaforklint.toml", map[string]string{
			"pyproject.toml":    "[project]\nrequires-python = \"<3.12\"\n",
			"cudaforklint.toml": "platform = [\"linux\", \"windows\"]\n"},
			Overrides{}, pytarget.Versions(pytarget.Py310, pytarget.Py311) & pytarget.Platforms(pytarget.Linux, pytarget.Windows)},
		{"requires-python without a config", map[string]string{"pyproject.toml": "[project]\nrequires-python = \"~=3.14\"\n"},
			Overrides{}, pytarget.Versions(pytarget.Py314Early, pytarget.Py315) & linux},
		{"requires-python widens to 3.10 without a config", map[string]string{"pyproject.toml": "[project]\nrequires-python = \">=3.10\"\n"},
			Overrides{}, pytarget.Versions(pytarget.Py310, pytarget.Py315) & linux},
		{"requires-python widens to 3.10 with a config", map[string]string{"pyproject.toml": "[project]\nrequires-python = \">=3.9\"\n[tool.cudaforklint]\nplatform = \"linux\"\n"},
			Overrides{}, pytarget.Versions(pytarget.Py310, pytarget.Py315) & linux},
		{"platform string", map[string]string{"cudaforklint.toml": `platform = "all"`},
			Overrides{}, pytarget.DefaultVersions()},
		{"cli target-version replaces both", map[string]string{"pyproject.toml": "[project]\nrequires-python = \">=3.13\"\n[tool.cudaforklint]\nplatform = \"windows\"\n"},
			Overrides{TargetVersion: "py310"}, pytarget.Versions(pytarget.Py310, pytarget.Py315) & pytarget.Platforms(pytarget.Windows)},
		{"cli platform", map[string]string{"cudaforklint.toml": `target-version = "py314"`},
			Overrides{Platform: "macos"}, pytarget.Versions(pytarget.Py314Early, pytarget.Py315) & pytarget.Platforms(pytarget.MacOS)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := tree(t, tt.files)
			s := settings(t, loader(t, tt.ov), filepath.Join(dir, "a.py"))
			if s.Targets != tt.want {
				t.Errorf("targets %s, want %s", s.Targets.Describe(), tt.want.Describe())
			}
		})
	}
}

func TestExtraInitializers(t *testing.T) {
	dir := tree(t, map[string]string{"cudaforklint.toml": `extra-initializers = ["mylab.gpu.setup", "warm_up"]`})
	s := settings(t, loader(t, Overrides{ExtraInitializers: []string{"cli.init"}}), filepath.Join(dir, "a.py"))
	if want := []string{"mylab.gpu.setup", "warm_up", "cli.init"}; !reflect.DeepEqual(s.ExtraInitializers, want) {
		t.Errorf("extra initializers %v, want %v", s.ExtraInitializers, want)
	}
}

func TestSrc(t *testing.T) {
	dir := tree(t, map[string]string{"pyproject.toml": "[tool.cudaforklint]\nsrc = [\"tests\", \"python/\", \"/opt/shared\"]\n"})
	s := settings(t, loader(t, Overrides{}), filepath.Join(dir, "a.py"))
	want := []string{filepath.Join(dir, "tests"), filepath.Join(dir, "python"), "/opt/shared"}
	if !reflect.DeepEqual(s.Config.Src, want) {
		t.Errorf("src %v, want %v (relative to the config's directory)", s.Config.Src, want)
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		name string
		file string
		toml string
		want string
	}{
		{"unknown key with suggestion", "pyproject.toml",
			"[project]\nname = \"x\"\n\n[tool.cudaforklint]\nselect = [\"CFL001\"]\nselct = [\"CFL002\"]\n",
			`pyproject.toml:6: unknown key "selct" in [tool.cudaforklint] (did you mean "select"?)`},
		{"unknown key in cudaforklint.toml", "cudaforklint.toml", "\nextend_exclude = []\n",
			`cudaforklint.toml:2: unknown key "extend_exclude" in cudaforklint.toml (did you mean "extend-exclude"?)`},
		{"unknown sub-table", "pyproject.toml", "[tool.cudaforklint.lint]\nselect = []\n",
			`pyproject.toml:1: unknown key "lint" in [tool.cudaforklint]`},
		{"bad target-version", "cudaforklint.toml", "select = [\"CFL\"]\ntarget-version = \"py39\"\n",
			`cudaforklint.toml:2: target-version: unknown target version "py39"`},
		{"bad selector names its element line", "cudaforklint.toml", "select = [\n  \"CFL001\",\n  \"F401\",\n]\n",
			`cudaforklint.toml:3: select: unknown rule selector "F401"`},
		{"lowercase selector", "cudaforklint.toml", "ignore = [\"cfl001\"]\n",
			`cudaforklint.toml:1: ignore: unknown rule selector "cfl001"`},
		{"wrong type", "cudaforklint.toml", "select = \"CFL001\"\n",
			`cudaforklint.toml:1: select must be an array of strings, not a string`},
		{"wrong element type", "cudaforklint.toml", "exclude = [\"a\", 3]\n",
			`cudaforklint.toml:1: exclude must be an array of strings; found an integer`},
		{"bad platform", "cudaforklint.toml", "\n\nplatform = [\"linux\", \"beos\"]\n",
			`cudaforklint.toml:3: platform: unknown platform "beos"`},
		{"bool", "cudaforklint.toml", "respect-gitignore = \"yes\"\n",
			`cudaforklint.toml:1: respect-gitignore must be true or false, not a string`},
		{"bad initializer", "cudaforklint.toml", "extra-initializers = [\"my-lab.setup\"]\n",
			`cudaforklint.toml:1: extra-initializers: "my-lab.setup" is not a dotted name`},
		{"empty src", "cudaforklint.toml", "src = [\"tests\", \"\"]\n",
			`cudaforklint.toml:1: src: an empty directory name`},
		{"per-file-ignores code", "pyproject.toml", "[tool.cudaforklint.per-file-ignores]\n\"a.py\" = [\"CFL9\"]\n",
			`pyproject.toml:2: per-file-ignores."a.py": unknown rule selector "CFL9"`},
		{"no version left", "pyproject.toml", "[project]\nrequires-python = \"<3.12\"\n[tool.cudaforklint]\ntarget-version = \"py313\"\nplatform = \"linux\"\n",
			`pyproject.toml:4: target-version and requires-python "<3.12" (pyproject.toml:2) leave no supported Python version`},
		{"requires-python allows nothing", "pyproject.toml", "[project]\nrequires-python = \"<3.8\"\n[tool.cudaforklint]\n",
			`pyproject.toml:2: requires-python "<3.8" allows no supported Python version`},
		{"bad requires-python", "pyproject.toml", "[project]\nrequires-python = \"3.11\"\n[tool.cudaforklint]\n",
			`pyproject.toml:2: requires-python "3.11": bad specifier`},
		{"invalid TOML", "cudaforklint.toml", "select = [\"CFL001\"]\nignore = [\n",
			`cudaforklint.toml:`},
		{"duplicate key", "cudaforklint.toml", "select = []\nselect = []\n",
			`cudaforklint.toml:2: invalid TOML: key "select" is defined twice (first on line 1)`},
		{"duplicate table", "pyproject.toml", "[tool.cudaforklint]\nselect = []\n[tool.cudaforklint]\n",
			`pyproject.toml:3: invalid TOML: table [tool.cudaforklint] is defined twice (first on line 1)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := tree(t, map[string]string{tt.file: tt.toml})
			t.Chdir(dir)
			l := loader(t, Overrides{})
			_, err := l.For("a.py")
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Fatalf("error %v\nwant prefix %s", err, tt.want)
			}
			if !IsConfigError(err) {
				t.Errorf("%T is not a config error", err)
			}
			// The error is cached, not re-read with a different answer.
			if _, err2 := l.For("b.py"); err2 == nil || err2.Error() != err.Error() {
				t.Errorf("second lookup: %v", err2)
			}
		})
	}
}

func TestOverrideErrors(t *testing.T) {
	for _, ov := range []Overrides{
		{Select: []string{"XYZ"}},
		{Ignore: []string{"CFL9"}},
		{TargetVersion: "py27"},
		{Platform: "amiga"},
		{ExtraInitializers: []string{"a..b"}},
	} {
		if _, err := NewLoader(testRules(), ov); err == nil || !strings.HasPrefix(err.Error(), "command line: ") {
			t.Errorf("%+v: error %v", ov, err)
		}
	}
}

func TestExclude(t *testing.T) {
	dir := tree(t, map[string]string{
		".git/":                  "",
		".gitignore":             "generated/\n*.tmp.py\n!keep.tmp.py\n/rootonly.py\n",
		"sub/.gitignore":         "local.py\n",
		"pyproject.toml":         "[tool.cudaforklint]\nextend-exclude = [\"src/vendored/*.py\", \"legacy\"]\n",
		"src/app.py":             "",
		"src/vendored/lib.py":    "",
		"src/vendored/deep/x.py": "",
		".venv/lib/site.py":      "",
		"pkg/build/out.py":       "",
		"legacy/a/b.py":          "",
		"generated/g.py":         "",
		"x.tmp.py":               "",
		"keep.tmp.py":            "",
		"rootonly.py":            "",
		"sub/rootonly.py":        "",
		"sub/local.py":           "",
		"local.py":               "",
	})
	l := loader(t, Overrides{})
	tests := []struct {
		path     string
		excluded bool
	}{
		{"src/app.py", false},
		{"src/vendored/lib.py", true},
		{"src/vendored/deep/x.py", false}, // '*' does not cross '/'
		{".venv/lib/site.py", true},       // default exclude, by a parent
		{"pkg/build/out.py", true},        // default "build" at any depth
		{"legacy/a/b.py", true},
		{"generated/g.py", true}, // .gitignore directory pattern
		{"x.tmp.py", true},
		{"keep.tmp.py", false}, // negated
		{"rootonly.py", true},
		{"sub/rootonly.py", false}, // anchored pattern
		{"sub/local.py", true},     // nested .gitignore
		{"local.py", false},        // ...applies only below its directory
	}
	for _, tt := range tests {
		got, err := l.Excluded(filepath.Join(dir, tt.path), false)
		if err != nil {
			t.Fatal(err)
		}
		if got != tt.excluded {
			t.Errorf("Excluded(%s) = %v, want %v", tt.path, got, tt.excluded)
		}
		if s := settings(t, l, filepath.Join(dir, tt.path)); s.Excluded != tt.excluded {
			t.Errorf("For(%s).Excluded = %v", tt.path, s.Excluded)
		}
	}
	if ex, _ := l.Excluded(filepath.Join(dir, "src/vendored"), true); ex {
		t.Error("directory src/vendored excluded by a file pattern")
	}
	if ex, _ := l.Excluded(filepath.Join(dir, "generated"), true); !ex {
		t.Error("directory generated/ not excluded")
	}

	// respect-gitignore = false via the command line.
	off := false
	l2 := loader(t, Overrides{RespectGitignore: &off})
	if ex, _ := l2.Excluded(filepath.Join(dir, "x.tmp.py"), false); ex {
		t.Error("--no-respect-gitignore still applies .gitignore")
	}
	// Command-line exclude replaces... and is relative to the working directory.
	t.Chdir(dir)
	l3 := loader(t, Overrides{ExtendExclude: []string{"src/app.py"}})
	if ex, _ := l3.Excluded("src/app.py", false); !ex {
		t.Error("--extend-exclude not applied")
	}
}

func TestExcludeReplacesDefaults(t *testing.T) {
	dir := tree(t, map[string]string{"cudaforklint.toml": "exclude = [\"only_this\"]\n"})
	l := loader(t, Overrides{})
	if ex, _ := l.Excluded(filepath.Join(dir, "build/x.py"), false); ex {
		t.Error("exclude did not replace the default list")
	}
	if ex, _ := l.Excluded(filepath.Join(dir, "a/only_this/x.py"), false); !ex {
		t.Error("exclude pattern not applied")
	}
}

func TestShouldCheck(t *testing.T) {
	dir := tree(t, map[string]string{
		"cudaforklint.toml":       "extend-exclude = [\"skip.py\"]\n",
		"force/cudaforklint.toml": "extend-exclude = [\"skip.py\"]\nforce-exclude = true\n",
	})
	on := true
	tests := []struct {
		name     string
		ov       Overrides
		path     string
		explicit bool
		want     bool
	}{
		{"walked, excluded", Overrides{}, "skip.py", false, false},
		{"explicit, excluded", Overrides{}, "skip.py", true, true},
		{"explicit, --force-exclude", Overrides{ForceExclude: &on}, "skip.py", true, false},
		{"explicit, force-exclude in config", Overrides{}, "force/skip.py", true, false},
		{"explicit, not excluded", Overrides{ForceExclude: &on}, "ok.py", true, true},
	}
	for _, tt := range tests {
		got, err := loader(t, tt.ov).ShouldCheck(filepath.Join(dir, tt.path), tt.explicit)
		if err != nil || got != tt.want {
			t.Errorf("%s: ShouldCheck = %v, %v; want %v", tt.name, got, err, tt.want)
		}
	}
}

func TestSuggest(t *testing.T) {
	for in, want := range map[string]string{
		"selct": "select", "ignor": "ignore", "target_version": "target-version",
		"platforms": "platform", "extra-initializer": "extra-initializers", "zzz": "",
	} {
		if got := suggest(in, knownKeys); got != want {
			t.Errorf("suggest(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestExcludedBelow: below a directory named on the command line only the
// components under it count, wherever the working directory is; .gitignore
// and the config's patterns still apply inside it.
func TestExcludedBelow(t *testing.T) {
	dir := tree(t, map[string]string{
		".git/":                   "",
		".gitignore":              "ignored/\n*.gen.py\n",
		"build/x.py":              "",
		"build/venv/y.py":         "",
		"ignored/z.py":            "",
		"ignored/w.gen.py":        "",
		"ignored/build/v.py":      "",
		"src/build/u.py":          "",
		".pyenv/lib/python3/a.py": "",
	})
	tests := []struct {
		root, path string
		excluded   bool
	}{
		{"build", "build/x.py", false},                           // named: its own name does not count
		{"build", "build/venv/y.py", true},                       // a default exclude below it does
		{"ignored", "ignored/z.py", false},                       // .gitignored directory, named
		{"ignored", "ignored/w.gen.py", true},                    // .gitignore patterns still apply below
		{"ignored", "ignored/build/v.py", true},                  // so do the default excludes
		{".", "src/build/u.py", true},                            // walked from the top: excluded
		{"src/build", "src/build/u.py", false},                   // named: checked
		{".pyenv/lib/python3", ".pyenv/lib/python3/a.py", false}, // a hidden, excluded tree, named
		{".", "ignored/z.py", true},
	}
	for _, wd := range []string{dir, filepath.Join(dir, "src"), t.TempDir()} {
		t.Chdir(wd)
		l := loader(t, Overrides{})
		for _, tt := range tests {
			got, err := l.ExcludedBelow(filepath.Join(dir, tt.root), filepath.Join(dir, tt.path), false)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.excluded {
				t.Errorf("cwd %s: ExcludedBelow(%s, %s) = %v, want %v", wd, tt.root, tt.path, got, tt.excluded)
			}
		}
	}
}

// TestForceExcludeIgnoresTheWorkingDirectory: with force-exclude, a file
// named on the command line is excluded by the default list the same way
// from every working directory (the list is anchored at the repository).
func TestForceExcludeIgnoresTheWorkingDirectory(t *testing.T) {
	dir := tree(t, map[string]string{".git/": "", "build/gen/x.py": "", "src/y.py": ""})
	on := true
	for _, wd := range []string{dir, filepath.Join(dir, "build"), filepath.Join(dir, "build", "gen"), t.TempDir()} {
		t.Chdir(wd)
		l := loader(t, Overrides{ForceExclude: &on})
		for path, want := range map[string]bool{"build/gen/x.py": false, "src/y.py": true} {
			got, err := l.ShouldCheck(filepath.Join(dir, path), true)
			if err != nil || got != want {
				t.Errorf("cwd %s: ShouldCheck(%s) = %v, %v; want %v", wd, path, got, err, want)
			}
		}
	}
}
