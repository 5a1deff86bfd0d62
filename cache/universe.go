package cache

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/cudaforklint/cudaforklint/finding"
	"github.com/cudaforklint/cudaforklint/model"
)

// The import universe. The model resolves `import a.b` written in the file
// f by asking whether D/a/b.py or D/a/b/__init__.py is a regular file, for
// D the package root of f (model.ModuleNameAndRoot), f's directory (below
// the root), the import roots, or for `from ..x import y` the ancestor of
// f's directory that the dots name; model.ResolveImport. The prefilter asks
// the same questions of the imports it finds in the bytes (in strings and
// comments too). Every question is about a path below one of those
// directories, made of components without a dot (they come from a dotted
// name split at its dots) and ending in ".py" or "/__init__.py".
//
// So the answers to every question the run asked, and to every one it
// could have asked, are fixed by the universe: the tree below every package
// root, import root and directory named on the command line, restricted to
// dot-free directory names and `name.py` files. Its digest records, per
// directory in path order, the dot-free subdirectories (symbolic links
// followed) and, for every `name.py`, whether it is a regular file, its
// permissions and whether it is over the size limit (the reader refuses
// such a file, and the import then resolves to nothing). Anything else in
// the tree (other files, hidden directories, this cache) is left out, so it
// does not invalidate. The cache's own directories of entries (v1/ and
// trees/) are left out even when the cache directory is not hidden (a
// cache-dir such as "var/lint" in the project): they hold no module, and
// the pack of trees a run writes in trees/ while it walks the project, and
// renames there after every run that parsed a new source, would otherwise
// make the run look racy and change the universe of the next.
//
// A relative import can climb above its package root (CPython refuses it;
// the model and the prefilter still look, and a docstring of the standard
// library has `from ...... import attr`). Walking the whole tree above (a
// home directory, /tmp) would be slow and never stable, so such an
// ancestor is recorded narrowly: only the entries named by an identifier
// of the statement, to the depth its identifiers can spell (restricted).
// The statement is read from the bytes as the prefilter reads them, more
// loosely (relativeImports).
//
// The walk has a budget: a universe larger than it (a run from a home
// directory) is not recorded, and the run is not stored.

// Budget of one universe walk.
const (
	maxUniverseDirs    = 20000
	maxUniverseEntries = 1000000
)

// errUncacheable says that a run's inputs cannot be recorded (too large, or
// changed while it ran): it is not stored. Never shown.
type errUncacheable string

func (e errUncacheable) Error() string { return string(e) }

// universe walks the trees below bases.
type universe struct {
	maxSize int64
	// skip are the directories left out (the cache's own).
	skip []os.FileInfo
	// racy, when not zero, is the start of the run being recorded: a
	// directory or module changed since then makes the walk fail.
	racy    time.Time
	h       hash.Hash
	dirs    int
	entries int
	// stack holds the directories on the current path, for symbolic link
	// loops.
	stack []os.FileInfo
}

// restricted is an ancestor above a package root that a relative import
// climbs to: only its entries named in Names matter, to Depth levels.
type restricted struct {
	Dir   string   `json:"dir"`
	Names []string `json:"names"`
	Depth int      `json:"depth"`
}

// universeDigest returns the digest of the universe below bases (sorted,
// none below another) and of the restricted ancestors, less the
// directories in skip.
func universeDigest(bases []string, narrow []restricted, maxSize int64, racy time.Time, skip []string) (string, error) {
	u := &universe{maxSize: maxSize, racy: racy, h: sha256.New()}
	for _, d := range skip {
		if fi, err := os.Stat(d); err == nil && fi.IsDir() {
			u.skip = append(u.skip, fi)
		}
	}
	for _, b := range bases {
		fi, err := os.Stat(b)
		if err != nil || !fi.IsDir() {
			fmt.Fprintf(u.h, "B %q absent\n", b)
			continue
		}
		if err := u.walk(b, fi, nil, 0); err != nil {
			return "", err
		}
	}
	for _, r := range narrow {
		names := map[string]bool{"__init__": true}
		for _, n := range r.Names {
			names[n] = true
		}
		fmt.Fprintf(u.h, "R %q %q %d\n", r.Dir, r.Names, r.Depth)
		fi, err := os.Stat(r.Dir)
		if err != nil || !fi.IsDir() {
			fmt.Fprintf(u.h, "absent\n")
			continue
		}
		if err := u.walk(r.Dir, fi, names, r.Depth); err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(u.h.Sum(nil)), nil
}

// walk records the universe below dir; with names, only the entries they
// name, depth levels down (see restricted), and without the directory's
// own change time (an ancestor such as /tmp changes all the time: a named
// entry created while the run read it still is caught by its own).
func (u *universe) walk(dir string, fi os.FileInfo, names map[string]bool, depth int) error {
	u.dirs++
	if u.dirs > maxUniverseDirs {
		return errUncacheable("import universe over budget")
	}
	if names == nil {
		if err := u.checkRacy(dir, fi); err != nil {
			return err
		}
	}
	fmt.Fprintf(u.h, "D %q\n", dir)
	entries, err := os.ReadDir(dir)
	if err != nil {
		fmt.Fprintf(u.h, "unreadable\n")
		return nil
	}
	u.entries += len(entries)
	if u.entries > maxUniverseEntries {
		return errUncacheable("import universe over budget")
	}
	type sub struct {
		path string
		fi   os.FileInfo
	}
	var subs []sub
	for _, e := range entries { // sorted by name
		name := e.Name()
		p := filepath.Join(dir, name)
		if mod, ok := strings.CutSuffix(name, ".py"); ok && mod != "" && !strings.Contains(mod, ".") {
			if names != nil && !names[mod] {
				continue
			}
			fi, err := os.Stat(p)
			switch {
			case err != nil:
				fmt.Fprintf(u.h, "F %q missing\n", name)
			case !fi.Mode().IsRegular():
				fmt.Fprintf(u.h, "F %q not regular\n", name)
			default:
				if err := u.checkRacy(p, fi); err != nil {
					return err
				}
				fmt.Fprintf(u.h, "F %q %v %t\n", name, fi.Mode().Perm(), fi.Size() > u.maxSize)
			}
			continue
		}
		if strings.Contains(name, ".") || names != nil && (!names[name] || depth <= 1) {
			continue
		}
		isDir := e.IsDir()
		var sfi os.FileInfo
		if isDir || e.Type()&fs.ModeSymlink != 0 {
			if sfi, err = os.Stat(p); err != nil || !sfi.IsDir() {
				continue
			}
			isDir = true
		}
		if isDir && u.skipped(sfi) {
			continue
		}
		if isDir && names != nil {
			if err := u.checkRacy(p, sfi); err != nil {
				return err
			}
		}
		if isDir {
			fmt.Fprintf(u.h, "d %q\n", name)
			subs = append(subs, sub{p, sfi})
		}
	}
	u.stack = append(u.stack, fi)
	defer func() { u.stack = u.stack[:len(u.stack)-1] }()
	for _, s := range subs {
		if u.onPath(s.fi) {
			// A symbolic link back to a directory on the path: its tree is
			// that directory's, recorded already.
			fmt.Fprintf(u.h, "L %q\n", s.path)
			continue
		}
		if err := u.walk(s.path, s.fi, names, depth-1); err != nil {
			return err
		}
	}
	return nil
}

func (u *universe) skipped(fi os.FileInfo) bool {
	for _, s := range u.skip {
		if os.SameFile(s, fi) {
			return true
		}
	}
	return false
}

func (u *universe) onPath(fi os.FileInfo) bool {
	for _, a := range u.stack {
		if os.SameFile(a, fi) {
			return true
		}
	}
	return false
}

func (u *universe) checkRacy(path string, fi os.FileInfo) error {
	if !u.racy.IsZero() && changedSince(fi, u.racy) {
		return errUncacheable(path + " changed while the run read it")
	}
	return nil
}

// changedSince reports whether fi's modification or status change time is
// at or after t, less the timestamp granularity: a file or directory
// changed while the run read it (racy git's rule). File systems stamp with
// a coarse clock (one tick, a few milliseconds, behind); one that keeps
// whole seconds (FAT keeps two) shows zero nanoseconds, and gets two
// seconds.
func changedSince(fi os.FileInfo, t time.Time) bool {
	for _, m := range []time.Time{fi.ModTime(), changeTime(fi)} {
		slack := 50 * time.Millisecond
		if m.Nanosecond() == 0 {
			slack = 2 * time.Second
		}
		if !m.Before(t.Add(-slack)) {
			return true
		}
	}
	return false
}

// importBases returns the package root of the file at path, with source
// src, and the ancestors above it that its relative imports climb to.
func importBases(path string, src []byte) (string, []restricted) {
	_, root := model.ModuleNameAndRoot(isFile, path)
	var narrow []restricted
	for _, ri := range relativeImports(src) {
		anc := filepath.Dir(path)
		for i := 1; i < ri.level; i++ {
			anc = filepath.Dir(anc)
		}
		if !finding.Within(root, anc) {
			narrow = append(narrow, restricted{Dir: anc, Names: ri.names, Depth: len(ri.names) + 1})
		}
	}
	return root, narrow
}

// mergeRestricted merges the entries of one directory, and drops those
// below a full base.
func mergeRestricted(list []restricted, bases []string) []restricted {
	byDir := map[string]*restricted{}
	for _, r := range list {
		covered := false
		for _, b := range bases {
			covered = covered || finding.Within(b, r.Dir)
		}
		if covered {
			continue
		}
		m := byDir[r.Dir]
		if m == nil {
			m = &restricted{Dir: r.Dir}
			byDir[r.Dir] = m
		}
		m.Names = append(m.Names, r.Names...)
		m.Depth = max(m.Depth, r.Depth)
	}
	out := make([]restricted, 0, len(byDir))
	for _, m := range byDir {
		sort.Strings(m.Names)
		m.Names = slices.Compact(m.Names)
		out = append(out, *m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Dir < out[j].Dir })
	return out
}

// isFile is model.Source.IsFile on the file system.
func isFile(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular()
}

// topmost sorts dirs and drops those below another.
func topmost(dirs []string) []string {
	set := make(map[string]bool, len(dirs))
	for _, d := range dirs {
		set[d] = true
	}
	var out []string
	for d := range set {
		below := false
		for a := filepath.Dir(d); !below; a = filepath.Dir(a) {
			below = set[a]
			if a == filepath.Dir(a) {
				break
			}
		}
		if !below {
			out = append(out, d)
		}
	}
	sort.Strings(out)
	return out
}

// relImport is a relative import read from bytes: its level and every
// identifier of its statement.
type relImport struct {
	level int
	names []string
}

// maxStatement bounds how far a statement is read.
const maxStatement = 64 << 10

// relativeImports returns the relative imports in src, read without a
// parser and so over, never under, what the model and the prefilter see:
// every "from" at a word start, followed by dots, blanks and line breaks,
// anywhere (in strings and comments too), with the identifiers up to the
// end of its line (of its parentheses, of its continued lines).
func relativeImports(src []byte) []relImport {
	var out []relImport
	for i := 0; i+4 <= len(src); i++ {
		if src[i] != 'f' || string(src[i:i+4]) != "from" || i > 0 && isIdent(src[i-1]) || i+4 < len(src) && isIdent(src[i+4]) {
			continue
		}
		level, j := 0, i+4
		for ; j < len(src); j++ {
			c := src[j]
			if c == '.' {
				level++
			} else if c != ' ' && c != '\t' && c != '\f' && c != '\\' && c != '\r' && c != '\n' {
				break
			}
		}
		if level == 0 {
			continue
		}
		ri := relImport{level: level}
		depth := 0
		for end := min(len(src), j+maxStatement); j < end; j++ {
			c := src[j]
			switch {
			case isIdent(c):
				k := j
				for k < end && isIdent(src[k]) {
					k++
				}
				ri.names = append(ri.names, string(src[j:k]))
				j = k - 1
				continue
			case c == '(':
				depth++
			case c == ')':
				depth--
			case c == '\n' && depth <= 0 && (j == 0 || src[j-1] != '\\' && !(src[j-1] == '\r' && j > 1 && src[j-2] == '\\')):
				end = j
			}
		}
		out = append(out, ri)
	}
	return out
}

func isIdent(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}
