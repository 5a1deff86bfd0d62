package config

import (
	"os"
	"path/filepath"
	"slices"
)

// Import roots. `import megatron.core` written in a file resolves (after
// the file's own package root and directory: model.ResolveImport) against
// the import roots of the file's project, which depend on where the file
// is and never on the working directory or on the other files of the run,
// so that a file's findings are the same checked from anywhere, alone or
// with its repository. In order:
//
//  1. the project root: the nearest directory at or above the file's that
//     holds pyproject.toml, setup.py, setup.cfg or .git (a directory, or
//     the file of a worktree or submodule), as ruff's project root;
//  2. its src/ directory, when there is one (the src layout);
//  3. the src directories of the configuration that governs the file (the
//     key src of its closest configuration file, relative to that file).
//
// A file with no such marker above it has no project root: only the
// configured src are added.

// projectMarkers are the names whose presence makes a directory a project
// root, whatever they contain.
var projectMarkers = []string{"pyproject.toml", "setup.py", "setup.cfg", ".git"}

// ProjectMarkers are the names (files, or .git also a directory) whose
// presence in a directory makes it a project root (Loader.ImportRoots): a
// cache of results depends on their presence in every directory from a
// checked file upwards.
func ProjectMarkers() []string { return append([]string(nil), projectMarkers...) }

// ProjectRoot returns the project root of the files in dir (absolute): the
// nearest directory at or above it holding one of ProjectMarkers, or ""
// when there is none.
func (l *Loader) ProjectRoot(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	l.rootsMu.Lock()
	defer l.rootsMu.Unlock()
	return l.projectRootLocked(abs)
}

func (l *Loader) projectRootLocked(dir string) string {
	if r, ok := l.projects[dir]; ok {
		return r
	}
	r := ""
	if hasMarker(dir) {
		r = dir
	} else if parent := filepath.Dir(dir); parent != dir {
		r = l.projectRootLocked(parent)
	}
	if l.projects == nil {
		l.projects = map[string]string{}
	}
	l.projects[dir] = r
	return r
}

func hasMarker(dir string) bool {
	for _, m := range projectMarkers {
		// Lstat: a dangling link still marks the directory, as a .git file
		// does for git.
		if _, err := os.Lstat(filepath.Join(dir, m)); err == nil {
			return true
		}
	}
	return false
}

// ImportRoots returns the import roots of the files in dir, in the order
// they are searched: the project root, its src/ directory, then the src
// directories of the configuration that governs dir. A configuration that
// cannot be loaded adds no src (the files it governs are reported and not
// checked; a module they import still resolves against its project).
// The slice is shared: callers must not modify it.
func (l *Loader) ImportRoots(dir string) []string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil
	}
	l.rootsMu.Lock()
	if r, ok := l.importRoots[abs]; ok {
		l.rootsMu.Unlock()
		return r
	}
	project := l.projectRootLocked(abs)
	l.rootsMu.Unlock()

	var roots []string
	add := func(d string) {
		if d != "" && !slices.Contains(roots, d) {
			roots = append(roots, d)
		}
	}
	if project != "" {
		add(project)
		if st, err := os.Stat(filepath.Join(project, "src")); err == nil && st.IsDir() {
			add(filepath.Join(project, "src"))
		}
	}
	if c, err := l.ConfigFor(abs); err == nil {
		for _, d := range c.Src {
			add(d)
		}
	}

	l.rootsMu.Lock()
	defer l.rootsMu.Unlock()
	if l.importRoots == nil {
		l.importRoots = map[string][]string{}
	}
	l.importRoots[abs] = roots
	return roots
}
