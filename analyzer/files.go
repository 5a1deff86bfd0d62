package analyzer

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/cudaforklint/cudaforklint/config"
	"github.com/cudaforklint/cudaforklint/finding"
	"github.com/cudaforklint/cudaforklint/notebook"
)

// skipDir lists directory names never walked into, whatever the config says:
// they hold other people's code or generated files (ruff's defaults).
var skipDir = map[string]bool{
	"__pycache__": true, "node_modules": true, "site-packages": true, "__pypackages__": true,
	"_build": true, "buck-out": true, "build": true, "dist": true, "venv": true,
}

// isPython reports whether a walked file is checked: Python sources, stubs
// and Jupyter notebooks (checked by default, as ruff does).
func isPython(name string) bool {
	return strings.HasSuffix(name, ".py") || strings.HasSuffix(name, ".pyi") || notebook.IsPath(name)
}

// discover expands paths into absolute file names, sorted and unique (by
// real path, so a file reached through a symlink is checked once). A path
// named on the command line, file or directory, is checked whatever the
// exclude rules say unless exclude (called with root "") says otherwise,
// which it does only under force-exclude: a user who names build/ or a
// .gitignored directory wants it checked, as ruff does. Directories are
// walked for *.py, *.pyi and *.ipynb files, following symlinks to directories with
// loop detection; below a named directory, hidden directories, the
// skipDir names, virtualenvs and what exclude reports for the walk's root
// are skipped. Nothing here depends on the working directory but the
// resolution of relative paths. A file named that exists only in the
// overlay is checked too.
//
// A broken symbolic link found by the walk (repositories keep links to
// files that exist only in another checkout or after a build step) names
// no file to check: it is a notice, not an error, and the run's exit code
// does not change. One named on the command line is an error.
func discover(paths []string, workDir string, exclude func(path, root string, isDir bool) bool, overlay map[string][]byte) (files []string, errs, notices []finding.ToolError) {
	seenReal := map[string]int{}    // a file's real path → its index in files
	var directAt []bool             // files[i] is reached without a symlink below its root
	rootReal := map[string]string{} // EvalSymlinks of each root, once
	direct := func(p, root, real string) bool {
		rr, ok := rootReal[root]
		if !ok {
			var err error
			if rr, err = filepath.EvalSymlinks(root); err != nil {
				rr = ""
			}
			rootReal[root] = rr
		}
		return rr != "" && reachedDirectly(p, root, rr, real)
	}
	// addFile adds the file at p, found under root; real is its real path
	// when the walk knows it ("": resolve it here).
	addFile := func(p, root, real string) {
		if real == "" {
			var err error
			if real, err = filepath.EvalSymlinks(p); err != nil {
				real = p
			}
		}
		i, seen := seenReal[real]
		switch {
		case !seen:
			seenReal[real] = len(files)
			files = append(files, p)
			directAt = append(directAt, direct(p, root, real))
		case !directAt[i] && direct(p, root, real):
			// The same file reached again, this time without going
			// through a symlinked directory: that is where it lives in
			// the project (composer's docs/source/examples links to
			// examples/), and where its findings should point.
			files[i], directAt[i] = p, true
		}
	}
	for _, arg := range paths {
		p := arg
		if !filepath.IsAbs(p) {
			p = filepath.Join(workDir, p)
		}
		p = filepath.Clean(p)
		fi, err := os.Stat(p)
		if _, ok := overlay[p]; ok && err != nil {
			if exclude == nil || !exclude(p, "", false) {
				addFile(p, filepath.Dir(p), "")
			}
			continue
		}
		if err != nil {
			errs = append(errs, finding.ToolError{Path: p, Message: statError(arg, err)})
			continue
		}
		if exclude != nil && exclude(p, "", fi.IsDir()) {
			continue
		}
		if !fi.IsDir() {
			if !fi.Mode().IsRegular() {
				errs = append(errs, finding.ToolError{Path: p, Message: "not a regular file"})
				continue
			}
			addFile(p, filepath.Dir(p), "")
			continue
		}
		w := walker{root: p, exclude: exclude, addFile: addFile, visiting: map[string]bool{}}
		errs = append(errs, w.walk(p)...)
		notices = append(notices, w.notices...)
	}
	sort.Strings(files)
	return files, errs, notices
}

// reachedDirectly reports whether p, found under root (the directory named
// on the command line, or a named file's directory; rootReal is its real
// path), reaches the file at real without a symlink between root and the
// file. Links above root (/tmp on macOS) do not count.
func reachedDirectly(p, root, rootReal, real string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && filepath.Join(rootReal, rel) == real
}

func statError(arg string, err error) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if _, lerr := os.Lstat(arg); lerr == nil {
			return "broken symbolic link"
		}
		return "no such file or directory"
	case errors.Is(err, fs.ErrPermission):
		return "permission denied"
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		if strings.Contains(pe.Err.Error(), "too many levels of symbolic links") {
			return "symbolic link loop"
		}
		return pe.Err.Error()
	}
	return err.Error()
}

type walker struct {
	root     string // the directory named on the command line
	exclude  func(path, root string, isDir bool) bool
	addFile  func(p, root, real string)
	visiting map[string]bool // real paths of the directories on the current walk path
	notices  []finding.ToolError
}

func (w *walker) walk(dir string) []finding.ToolError {
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return []finding.ToolError{{Path: dir, Message: statError(dir, err)}}
	}
	if w.visiting[real] {
		return []finding.ToolError{{Path: dir, Message: fmt.Sprintf("symbolic link loop: %s leads back to %s; not walked again", dir, real)}}
	}
	w.visiting[real] = true
	defer delete(w.visiting, real)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return []finding.ToolError{{Path: dir, Message: "cannot read directory: " + statError(dir, err)}}
	}
	var errs []finding.ToolError
	for _, e := range entries {
		name := e.Name()
		p := filepath.Join(dir, name)
		isDir := e.IsDir()
		if e.Type()&fs.ModeSymlink != 0 {
			fi, err := os.Stat(p)
			if err != nil {
				if !isPython(name) || (w.exclude != nil && w.exclude(p, w.root, false)) {
					continue
				}
				if msg := statError(p, err); msg == "broken symbolic link" {
					w.notices = append(w.notices, finding.ToolError{Path: p, Message: "broken symbolic link: nothing to check"})
				} else {
					errs = append(errs, finding.ToolError{Path: p, Message: msg})
				}
				continue
			}
			isDir = fi.IsDir()
		}
		if isDir {
			if strings.HasPrefix(name, ".") || skipDir[name] || isVirtualenv(p) {
				continue
			}
			if w.exclude != nil && w.exclude(p, w.root, true) {
				continue
			}
			errs = append(errs, w.walk(p)...)
			continue
		}
		if !isPython(name) || (w.exclude != nil && w.exclude(p, w.root, false)) {
			continue
		}
		// The real path of a file that is no symlink is its directory's
		// joined with its name: resolving every file's path again took
		// an lstat per component per file, most of a cached run's walk.
		fileReal := ""
		if e.Type()&fs.ModeSymlink == 0 {
			fileReal = filepath.Join(real, name)
		}
		w.addFile(p, w.root, fileReal)
	}
	return errs
}

// isVirtualenv recognises a virtual environment by its pyvenv.cfg.
func isVirtualenv(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, "pyvenv.cfg"))
	return err == nil
}

// Discover returns the files a Run over paths (empty: ".") with the policy
// pol would check, absolute and sorted, and the problems met finding them,
// without reading them. The results cache (package cache) compares it with
// the files a stored run checked: a file added, removed, excluded or
// re-included since is a different run.
func Discover(paths []string, workDir string, pol *config.Policy) ([]string, []finding.ToolError) {
	return DiscoverWith(paths, workDir, pol, nil)
}

// DiscoverWith is Discover with the files of an overlay (Options.Overlay)
// present too, whether or not they are on disk.
func DiscoverWith(paths []string, workDir string, pol *config.Policy, overlay map[string][]byte) ([]string, []finding.ToolError) {
	if len(paths) == 0 {
		paths = []string{"."}
	}
	files, errs, _ := discover(paths, workDir, pol.Excluded, overlay)
	return files, errs
}
