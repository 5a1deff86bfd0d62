package analyzer

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/cudaforklint/cudaforklint/finding"
)

// skipDir lists directory names never walked into, whatever the config says:
// they hold other people's code or generated files (ruff's defaults).
var skipDir = map[string]bool{
	"__pycache__": true, "node_modules": true, "site-packages": true, "__pypackages__": true,
	"_build": true, "buck-out": true, "build": true, "dist": true, "venv": true,
}

// isPython reports whether a walked file is checked.
func isPython(name string) bool {
	return strings.HasSuffix(name, ".py") || strings.HasSuffix(name, ".pyi")
}

// discover expands paths into absolute file names, sorted and unique (by
// real path, so a file reached through a symlink is checked once). Files
// named explicitly are checked unless exclude says otherwise (also when they
// exist only in the overlay); directories are walked for *.py and *.pyi
// files, following symlinks to directories with loop detection.
func discover(paths []string, workDir string, exclude func(string, bool, bool) bool, overlay map[string][]byte) ([]string, []finding.ToolError) {
	var files []string
	var errs []finding.ToolError
	seenReal := map[string]bool{}
	addFile := func(p string) {
		real, err := filepath.EvalSymlinks(p)
		if err != nil {
			real = p
		}
		if seenReal[real] {
			return
		}
		seenReal[real] = true
		files = append(files, p)
	}
	for _, arg := range paths {
		p := arg
		if !filepath.IsAbs(p) {
			p = filepath.Join(workDir, p)
		}
		p = filepath.Clean(p)
		fi, err := os.Stat(p)
		if _, ok := overlay[p]; ok && err != nil {
			if exclude == nil || !exclude(p, false, true) {
				addFile(p)
			}
			continue
		}
		if err != nil {
			errs = append(errs, finding.ToolError{Path: p, Message: statError(arg, err)})
			continue
		}
		if !fi.IsDir() {
			if exclude != nil && exclude(p, false, true) {
				continue
			}
			if !fi.Mode().IsRegular() {
				errs = append(errs, finding.ToolError{Path: p, Message: "not a regular file"})
				continue
			}
			addFile(p)
			continue
		}
		w := walker{exclude: exclude, addFile: addFile, visiting: map[string]bool{}}
		errs = append(errs, w.walk(p)...)
	}
	sort.Strings(files)
	return files, errs
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
	exclude  func(string, bool, bool) bool
	addFile  func(string)
	visiting map[string]bool // real paths of the directories on the current walk path
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
				if isPython(name) {
					errs = append(errs, finding.ToolError{Path: p, Message: statError(p, err)})
				}
				continue
			}
			isDir = fi.IsDir()
		}
		if isDir {
			if strings.HasPrefix(name, ".") || skipDir[name] || isVirtualenv(p) {
				continue
			}
			if w.exclude != nil && w.exclude(p, true, false) {
				continue
			}
			errs = append(errs, w.walk(p)...)
			continue
		}
		if !isPython(name) || (w.exclude != nil && w.exclude(p, false, false)) {
			continue
		}
		w.addFile(p)
	}
	return errs
}

// isVirtualenv recognises a virtual environment by its pyvenv.cfg.
func isVirtualenv(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, "pyvenv.cfg"))
	return err == nil
}
