package cli

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// TestFindingsDoNotDependOnWhereCheckRuns checks a repository of three
// projects (testdata/py/project_roots: a package at a project's root, a src
// layout, a nested project whose configuration ignores CFL001, tools
// importing a package at the repository root) from its root, from its
// parent, from elsewhere, and file by file from the root and from
// elsewhere: every way gives the same findings. Each file's imports resolve
// against its own project (config.Loader.ImportRoots) and its settings come
// from its own configuration, whatever the working directory and whatever
// else is checked with it.
func TestFindingsDoNotDependOnWhereCheckRuns(t *testing.T) {
	for _, marker := range []string{"directory", "file"} {
		t.Run(".git "+marker, func(t *testing.T) {
			parent := t.TempDir()
			repo := filepath.Join(parent, "repo")
			if err := os.CopyFS(repo, os.DirFS("../testdata/py/project_roots")); err != nil {
				t.Fatal(err)
			}
			// The repository root, which tools/ and shared/ belong to: a
			// clone's .git is a directory, a worktree's a file.
			if marker == "directory" {
				if err := os.Mkdir(filepath.Join(repo, ".git"), 0o755); err != nil {
					t.Fatal(err)
				}
			} else {
				write(t, repo, ".git", "gitdir: /elsewhere/.git/worktrees/repo\n")
			}
			elsewhere := t.TempDir()

			// check returns the findings of a check run in dir on paths,
			// as "path:line: CODE message" with the path relative to repo.
			check := func(dir string, paths ...string) []string {
				t.Helper()
				code, out, errOut := run(t, dir, append([]string{"check", "--no-cache", "--format", "json"}, paths...)...)
				if code != 0 && code != 1 {
					t.Fatalf("check %q in %s: exit %d: %s", paths, dir, code, errOut)
				}
				var findings []struct {
					Code     string `json:"code"`
					Message  string `json:"message"`
					Filename string `json:"filename"`
					Location struct {
						Row int `json:"row"`
					} `json:"location"`
				}
				if err := json.Unmarshal([]byte(out), &findings); err != nil {
					t.Fatalf("check %q in %s: %v\n%s", paths, dir, err, out)
				}
				var got []string
				for _, f := range findings {
					path := f.Filename
					if !filepath.IsAbs(path) {
						path = filepath.Join(dir, path)
					}
					rel, err := filepath.Rel(repo, path)
					if err != nil || strings.HasPrefix(rel, "..") {
						t.Fatalf("finding outside the repository: %s", f.Filename)
					}
					got = append(got, fmt.Sprintf("%s:%d: %s %s", filepath.ToSlash(rel), f.Location.Row, f.Code, f.Message))
				}
				return got
			}

			var files []string
			err := filepath.WalkDir(repo, func(p string, d fs.DirEntry, err error) error {
				if err == nil && !d.IsDir() && strings.HasSuffix(p, ".py") {
					files = append(files, p)
				}
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			ways := map[string][]string{
				"from the root":    check(repo, "."),
				"from the parent":  check(parent, "repo"),
				"from elsewhere":   check(elsewhere, repo),
				"a project alone":  check(filepath.Join(repo, "speech"), "."),
				"file by file":     nil,
				"files, elsewhere": nil,
			}
			for _, f := range files {
				rel, _ := filepath.Rel(repo, f)
				ways["file by file"] = append(ways["file by file"], check(repo, rel)...)
				ways["files, elsewhere"] = append(ways["files, elsewhere"], check(elsewhere, f)...)
			}
			// "a project alone" is the speech project: the others' findings
			// come from the root's run.
			for _, f := range ways["from the root"] {
				if !strings.HasPrefix(f, "speech/") {
					ways["a project alone"] = append(ways["a project alone"], f)
				}
			}

			// What the repository gives, in short: the scripts whose
			// package initializes CUDA at import, found through each one's
			// project; the CFL001 the nested project ignores, not reported;
			// the look-alikes importing CPU-only modules, clean.
			want := []string{
				"speech/scripts/extract.py:7: CFL001",
				"tools/warm_cache.py:5: CFL003",
				"vision/scripts/train.py:6: CFL001",
			}
			root := ways["from the root"]
			sort.Strings(root)
			var short []string
			for _, f := range root {
				short = append(short, strings.Join(strings.Fields(f)[:2], " "))
			}
			if !reflect.DeepEqual(short, want) {
				t.Errorf("from the root: %q, want %q", root, want)
			}
			for way, got := range ways {
				sort.Strings(got)
				if !reflect.DeepEqual(got, root) {
					t.Errorf("%s:\n  %s\nfrom the root:\n  %s", way, strings.Join(got, "\n  "), strings.Join(root, "\n  "))
				}
			}
		})
	}
}
