package analyzer

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/cudaforklint/cudaforklint/config"
	"github.com/cudaforklint/cudaforklint/ruledoc"
)

// TestDiscoverExplicitPaths: a directory named on the command line is
// walked even when the default excludes or .gitignore hide it from a walk
// of its parent; --force-exclude skips it; and the files found do not
// depend on the working directory.
func TestDiscoverExplicitPaths(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{".git/HEAD", ".gitignore", "app.py", "build/gen.py", "venv/pyvenv.cfg", "venv/lib/site.py", "out/o.py", "out/build/deep.py"} {
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		content := ""
		if p == ".gitignore" {
			content = "out/\n"
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rel := func(files []string) []string {
		var out []string
		for _, f := range files {
			r, err := filepath.Rel(dir, f)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, filepath.ToSlash(r))
		}
		return out
	}
	on := true
	tests := []struct {
		name  string
		paths []string
		ov    config.Overrides
		want  []string
	}{
		{"the project", []string{"."}, config.Overrides{}, []string{"app.py"}},
		{"build/ named", []string{"build"}, config.Overrides{}, []string{"build/gen.py"}},
		{"a virtualenv named", []string{"venv"}, config.Overrides{}, []string{"venv/lib/site.py"}},
		{".gitignored out/ named: excludes below it still apply", []string{"out"}, config.Overrides{}, []string{"out/o.py"}},
		{"--force-exclude skips a named excluded directory", []string{"build", "app.py"}, config.Overrides{ForceExclude: &on}, []string{"app.py"}},
		{"an empty directory", []string{"empty"}, config.Overrides{}, nil},
	}
	if err := os.Mkdir(filepath.Join(dir, "empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, wd := range []string{dir, filepath.Join(dir, "build"), t.TempDir()} {
		t.Chdir(wd)
		for _, tt := range tests {
			l, err := config.NewLoader(ruledoc.All(), tt.ov)
			if err != nil {
				t.Fatal(err)
			}
			pol := config.NewPolicy(l)
			var abs []string
			for _, p := range tt.paths {
				abs = append(abs, filepath.Join(dir, p))
			}
			files, errs, _ := discover(abs, wd, pol.Excluded, nil)
			if len(errs) > 0 || len(pol.Errors()) > 0 {
				t.Fatalf("%s: errors %v %v", tt.name, errs, pol.Errors())
			}
			if got := rel(files); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("cwd %s, %s: found %v, want %v", wd, tt.name, got, tt.want)
			}
		}
	}
}

// TestDiscoverThroughSymlinkedDirectories: a file reached both through a
// symlinked directory and where it lives is checked once, under the path
// where it lives, whichever the walk meets first (composer's
// docs/source/examples links to examples/, and "docs" sorts first).
func TestDiscoverThroughSymlinkedDirectories(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"examples/train.py", "examples/helper.py", "docs/conf.py"} {
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("../examples", filepath.Join(dir, "docs", "examples")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("examples/train.py", filepath.Join(dir, "a_train.py")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		paths []string
		want  []string
	}{
		{[]string{"."}, []string{"docs/conf.py", "examples/helper.py", "examples/train.py"}},
		{[]string{"docs", "examples"}, []string{"docs/conf.py", "examples/helper.py", "examples/train.py"}},
		// Named on the command line, the link is the file's path.
		{[]string{"docs/examples"}, []string{"docs/examples/helper.py", "docs/examples/train.py"}},
		{[]string{"a_train.py"}, []string{"a_train.py"}},
	}
	for _, tt := range tests {
		var abs []string
		for _, p := range tt.paths {
			abs = append(abs, filepath.Join(dir, p))
		}
		files, errs, _ := discover(abs, dir, nil, nil)
		if len(errs) > 0 {
			t.Fatalf("%v: errors %v", tt.paths, errs)
		}
		var got []string
		for _, f := range files {
			r, err := filepath.Rel(dir, f)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, filepath.ToSlash(r))
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%v: found %v, want %v", tt.paths, got, tt.want)
		}
	}
}

// TestBrokenSymlinks: a dangling link the walk finds (a recipe linking to a
// file of another recipe that is not there) names nothing to check: a
// notice, so that `check .` on such a repository does not fail. Named on
// the command line it is an error, and an excluded one is not mentioned.
func TestBrokenSymlinks(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"recipe/train.py", "build/keep.txt"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), []byte("x = 1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, to := range map[string]string{
		"recipe/profile.py": "../../other_recipe/profile.py",
		"recipe/README.md":  "missing.md", // not Python: not mentioned
		"recipe/gen/mod.py": "nowhere.py",
	} {
		p := filepath.Join(dir, link)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(to, p); err != nil {
			t.Fatal(err)
		}
	}
	excludeGen := func(path, root string, isDir bool) bool {
		return root != "" && filepath.Base(filepath.Dir(path)) == "gen"
	}
	files, errs, notices := discover([]string{dir}, dir, excludeGen, nil)
	if len(files) != 1 || filepath.Base(files[0]) != "train.py" {
		t.Errorf("files %v, want recipe/train.py", files)
	}
	if len(errs) != 0 {
		t.Errorf("errors %v, want none", errs)
	}
	if len(notices) != 1 || notices[0].Path != filepath.Join(dir, "recipe/profile.py") || notices[0].Message != "broken symbolic link: nothing to check" {
		t.Errorf("notices %v, want one for recipe/profile.py", notices)
	}

	_, errs, _ = discover([]string{filepath.Join(dir, "recipe/profile.py")}, dir, nil, nil)
	if len(errs) != 1 || errs[0].Message != "broken symbolic link" {
		t.Errorf("named on the command line: errors %v, want the broken link", errs)
	}
}
