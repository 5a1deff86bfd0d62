package config

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// Gitignore answers whether git would ignore a path, reading .gitignore
// files lazily and caching them per directory. It applies, lowest priority
// first: the repository's .git/info/exclude, then the .gitignore of the
// repository root and of every directory down to the path's parent, the
// last matching line winning (so a deeper file or a later '!' line can
// re-include). A path under an ignored directory is ignored whatever its own
// patterns say, as in git. Outside a git repository (no .git directory or
// file above the path) nothing is ignored, as ripgrep and ruff behave. Not
// read: core.excludesFile (the user's global ignore file) and .ignore files.
// It is safe for concurrent use.
type Gitignore struct {
	mu    sync.Mutex
	files map[string][]ignorePattern // dir → patterns of its .gitignore (nil: none)
	roots map[string]string          // dir → repository root ("" = none)
	infos map[string][]ignorePattern // repository root → .git/info/exclude
}

// NewGitignore returns an empty matcher.
func NewGitignore() *Gitignore {
	return &Gitignore{files: map[string][]ignorePattern{}, roots: map[string]string{}, infos: map[string][]ignorePattern{}}
}

// Ignored reports whether path (absolute or relative to the working
// directory) is ignored; isDir says whether it is a directory.
func (g *Gitignore) Ignored(path string, isDir bool) bool {
	return g.IgnoredBelow("", path, isDir)
}

// IgnoredBelow is Ignored for a path met while walking root (a directory
// named on the command line; "" for none): the patterns of every .gitignore
// still apply, but only path and the directories strictly below root are
// tested, so an ignored directory that the user names is walked, as git's
// own pathspecs and ruff do with explicit paths.
func (g *Gitignore) IgnoredBelow(root, path string, isDir bool) bool {
	abs, err := filepath.Abs(path)
	if err != nil {
		return false
	}
	if root != "" {
		if root, err = filepath.Abs(root); err != nil {
			return false
		}
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	repo := g.repoRoot(filepath.Dir(abs))
	if repo == "" || abs == repo {
		return false
	}
	rel, err := filepath.Rel(repo, abs)
	if err != nil || strings.HasPrefix(rel, "..") {
		return false
	}
	parts := strings.Split(filepath.ToSlash(rel), "/")
	// tested: whether the path made of the first n parts is below root.
	tested := func(n int) bool {
		return root == "" || below(root, filepath.Join(repo, filepath.Join(parts[:n]...)))
	}
	if parts[0] == ".git" && tested(1) {
		return true
	}
	// Every ancestor directory first: an ignored directory hides its contents.
	for i := 1; i < len(parts); i++ {
		if tested(i) && g.ignoredSelf(repo, parts[:i], true) {
			return true
		}
	}
	return tested(len(parts)) && g.ignoredSelf(repo, parts, isDir)
}

// Root returns the repository root (the nearest directory holding .git)
// at or above path's directory, or "" outside a repository.
func (g *Gitignore) Root(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return ""
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.repoRoot(filepath.Dir(abs))
}

// ignoredSelf evaluates the patterns that apply to root/parts... itself.
func (g *Gitignore) ignoredSelf(root string, parts []string, isDir bool) bool {
	ignored := false
	apply := func(ps []ignorePattern, rel string) {
		for i := range ps {
			if ps[i].match(rel, isDir) {
				ignored = !ps[i].negate
			}
		}
	}
	full := strings.Join(parts, "/")
	apply(g.infoExclude(root), full)
	dir := root
	for i := 0; i < len(parts); i++ {
		apply(g.load(dir), strings.Join(parts[i:], "/"))
		dir = filepath.Join(dir, parts[i])
	}
	return ignored
}

// repoRoot finds the nearest directory at or above dir holding .git.
func (g *Gitignore) repoRoot(dir string) string {
	if r, ok := g.roots[dir]; ok {
		return r
	}
	var r string
	if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
		r = dir
	} else if parent := filepath.Dir(dir); parent != dir {
		r = g.repoRoot(parent)
	}
	g.roots[dir] = r
	return r
}

func (g *Gitignore) load(dir string) []ignorePattern {
	if ps, ok := g.files[dir]; ok {
		return ps
	}
	ps := readIgnoreFile(filepath.Join(dir, ".gitignore"))
	g.files[dir] = ps
	return ps
}

func (g *Gitignore) infoExclude(root string) []ignorePattern {
	if ps, ok := g.infos[root]; ok {
		return ps
	}
	ps := readIgnoreFile(filepath.Join(root, ".git", "info", "exclude"))
	g.infos[root] = ps
	return ps
}

// readIgnoreFile parses a gitignore file; a missing or unreadable file and
// bad lines are skipped, as git skips them.
func readIgnoreFile(path string) []ignorePattern {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	return parseIgnoreLines(data)
}

// parseIgnoreLines compiles the lines of a gitignore file, skipping blank
// lines, comments and malformed patterns.
func parseIgnoreLines(data []byte) []ignorePattern {
	var ps []ignorePattern
	sc := bufio.NewScanner(bytes.NewReader(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))))
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		if p, ok, err := compileIgnore(sc.Text()); err == nil && ok {
			ps = append(ps, p)
		}
	}
	return ps
}
