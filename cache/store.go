// Package cache is check's cache. It holds two kinds of entries:
//
//   - results (v1/): a run's analysis result (findings, syntax errors,
//     notices: everything but their formatting) with a record of every
//     input the run depended on, replayed on a later run only when every
//     one of those inputs is unchanged. It is what makes a second `check`
//     of an unchanged tree cost a walk and a hash of the files instead of
//     an analysis.
//   - parse trees (trees/, Trees): the syntax.File of one source file,
//     keyed by the SHA-256 of its bytes and the executable's build ID, in
//     pack files that hold many. When the results miss (after an edit),
//     the files whose bytes did not change are decoded instead of parsed
//     again. Like results, new trees reach the cache directory only after
//     the run has recorded its inputs. The language server reads them
//     (Trees.Encoded) and never writes them.
//
// The two are sound for different reasons. A result depends on much more
// than the bytes of the file it is about (the modules it imports, the
// directory tree imports resolve against, the configuration: below), so it
// is cached per run and checked against everything it read. A tree is a
// function of the bytes alone and of the parser, which the build ID pins:
// the same bytes parse to the same tree wherever they are and whatever is
// around them, so a tree needs no record of inputs, and is cached per file
// and shared by every run, path and project that uses the directory.
//
// # What a stored result depends on
//
// Findings cross files: a finding in lib.py can come from an entry main.py
// that imports it, and a module that the checked file imports, or that it
// would import if it existed, changes its findings. So one entry covers one
// whole run, and is replayed only when all of these are unchanged:
//
//   - the Key: the format of the cache, the tool's version and the SHA-256
//     of its executable (a rebuilt binary never replays another build's
//     results, "devel" builds included), the working directory, the paths
//     named, and every setting that can change the analysis (the
//     command-line overrides, the file size limit, the prefilter switch).
//     Output-only flags (--format, --output, --unsafe-fixes, --show-*,
//     --statistics, --exit-zero, --color) are not in it: the result is
//     stored unformatted and formatted on every run.
//   - the files checked: discovery is run again (it is cheap), so a file
//     added, deleted, newly excluded or re-included by a .gitignore or a
//     config change is a different run.
//   - the content (SHA-256) of every file the run read: the checked files
//     and every local module the analysis or the prefilter loaded
//     (analyzer.Result.FilesRead), notebooks as their JSON.
//   - the import universe: imports resolve against the directory tree, so a
//     module created where an import looks for it changes the findings
//     without changing any file that was read. The entry records a digest
//     of the tree below every directory an import of a read file can
//     resolve from (its package root, its relative-import ancestors, its
//     import roots: config.Policy.ImportRoots): every subdirectory an import name can spell, every
//     `name.py` file's presence, kind, permissions and whether it is over
//     the size limit (see universe.go).
//   - the configuration: the content or absence of every configuration
//     file (.cudaforklint.toml, cudaforklint.toml, pyproject.toml) in every
//     directory from each read file and the working directory up to the
//     root, the presence of the names that make a project root there
//     (config.ProjectMarkers), and --config's file.
//
// # Programs
//
// A run is split into independent programs (pyprogram.Programs), and what
// the analysis finds in one depends on its own files only. So an entry
// also holds each program's share of the result with the files it read
// (programs.go), and a run that finds the entry changed only in the bytes
// of some files (the files checked, the configuration and the universe as
// they were: an edit) analyzes the programs that read a changed file and
// reuses the others' shares. The run after an edit in a repository of many
// programs then costs the analysis of one program.
//
// A run is stored only when its tool errors are all decided by the content
// of files it records (source that is not UTF-8, a file over the size
// limit: the standard library has four) and none is about an unreadable
// file or directory, a configuration or an internal error; when its result
// survives the encoding exactly,
// and when no input changed while it ran: a file or directory modified
// after the run started (the racy-git rule) or a file whose bytes on disk
// differ from those analyzed leaves nothing stored.
//
// # The directory
//
// Like ruff's .ruff_cache: a CACHEDIR.TAG and a .gitignore holding `*` at
// the top, results under v1/, one file per Key, and trees under
// trees/<16 hex>.pack, many sources per pack: each run that parsed a new
// source adds one, and a run that finds more than a few merges them
// (trees.go). One file per tree made a first run create thousands of files
// and a later one open as many. Writers write a temporary file and rename
// it into place, so concurrent runs never see a torn entry or pack (for a
// result the last writer wins; both wrote a valid one), and a pack, once
// in place, never changes. An entry or tree that cannot be read or
// decoded, or whose checksum does not match, is ignored and written again,
// never an error. Results not used for MaxAge, and packs not written for
// MaxAge, are removed when a run stores a result (Prune); a merge drops
// the trees not used for MaxAge.
package cache

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// DirName is the default cache directory's name, in the project root.
const DirName = ".cudaforklint_cache"

// MaxAge is how long an entry lives without being used.
const MaxAge = 30 * 24 * time.Hour

// format names the layout of the entries: a change to what an entry holds
// or means changes it, and old entries are never read again.
const format = "v1"

// magic starts every entry file.
const magic = "cudaforklint results cache " + format + "\n"

// cacheDirTag is the CACHEDIR.TAG of https://bford.info/cachedir/: backup
// tools skip the directory.
const cacheDirTag = "Signature: 8a477f597d28d172789f06886806bc55\n" +
	"# This file is a cache directory tag created by cudaforklint.\n" +
	"# For information about cache directory tags see https://bford.info/cachedir/\n"

// Store is a cache directory. Nothing is created before the first Save.
type Store struct {
	dir string
}

// Open returns the store in dir.
func Open(dir string) *Store { return &Store{dir: dir} }

// Dir is the store's directory.
func (s *Store) Dir() string { return s.dir }

func (s *Store) entryPath(k Key) string {
	return filepath.Join(s.dir, format, hex.EncodeToString(k[:]))
}

// load returns the payload of k's entry, or ok=false when there is none or
// it is damaged (wrong magic, wrong checksum, truncated): such an entry is
// a miss, and the next save replaces it.
func (s *Store) load(k Key) (payload []byte, ok bool) {
	b, err := os.ReadFile(s.entryPath(k))
	if err != nil {
		return nil, false
	}
	rest, found := bytes.CutPrefix(b, []byte(magic))
	if !found || len(rest) < 2*sha256.Size+1 || rest[2*sha256.Size] != '\n' {
		return nil, false
	}
	var want [sha256.Size]byte
	if _, err := hex.Decode(want[:], rest[:2*sha256.Size]); err != nil {
		return nil, false
	}
	payload = rest[2*sha256.Size+1:]
	if sha256.Sum256(payload) != want {
		return nil, false
	}
	return payload, true
}

// storedAt returns when k's entry was last written or marked used (zero
// when it cannot tell).
func (s *Store) storedAt(k Key) time.Time {
	fi, err := os.Stat(s.entryPath(k))
	if err != nil {
		return time.Time{}
	}
	return fi.ModTime()
}

// touch marks k's entry used, at most once a day (an entry replayed many
// times a day is not rewritten each time), so that pruning keeps it.
func (s *Store) touch(k Key) {
	p := s.entryPath(k)
	if fi, err := os.Stat(p); err == nil && time.Since(fi.ModTime()) > 24*time.Hour {
		now := time.Now()
		os.Chtimes(p, now, now)
	}
}

// save writes k's entry atomically: a temporary file in the same
// directory, renamed over the entry.
func (s *Store) save(k Key, payload []byte) error {
	if err := s.init(format); err != nil {
		return err
	}
	sum := sha256.Sum256(payload)
	var b bytes.Buffer
	b.Grow(len(magic) + 2*sha256.Size + 1 + len(payload))
	b.WriteString(magic)
	b.WriteString(hex.EncodeToString(sum[:]))
	b.WriteByte('\n')
	b.Write(payload)
	return writeAtomic(s.entryPath(k), b.Bytes())
}

// init creates the directory with its CACHEDIR.TAG and .gitignore, and its
// subdirectory sub (format's, or treesDir).
func (s *Store) init(sub string) error {
	if err := os.MkdirAll(filepath.Join(s.dir, sub), 0o755); err != nil {
		return err
	}
	for name, content := range map[string]string{
		"CACHEDIR.TAG": cacheDirTag,
		".gitignore":   "# Automatically created by cudaforklint.\n*\n",
	} {
		p := filepath.Join(s.dir, name)
		if _, err := os.Stat(p); errors.Is(err, os.ErrNotExist) {
			if err := writeAtomic(p, []byte(content)); err != nil {
				return err
			}
		}
	}
	return nil
}

// tmpPrefix starts the names of files being written.
const tmpPrefix = ".tmp-"

// writeAtomic writes data at path: a temporary file in the same
// directory, renamed over it, so that no reader sees a torn file.
func writeAtomic(path string, data []byte) error {
	return writeAtomicWith(path, tmpPrefix+"*", func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// writeAtomicWith is writeAtomic with what write writes, into a temporary
// file named after pattern (os.CreateTemp's); an error from write leaves
// nothing.
func writeAtomicWith(path, pattern string, write func(io.Writer) error) error {
	f, err := os.CreateTemp(filepath.Dir(path), pattern)
	if err != nil {
		return err
	}
	tmp := f.Name()
	werr := f.Chmod(0o644)
	if werr == nil {
		werr = write(f)
	}
	cerr := f.Close()
	if werr != nil || cerr != nil {
		os.Remove(tmp)
		return errors.Join(werr, cerr)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// Prune removes the results not used for maxAge, the tree packs not
// written for maxAge, temporary files a writer that died left behind
// (older than an hour), and the old layout's tree directories.
func (s *Store) Prune(maxAge time.Duration) error {
	now := time.Now()
	dir := filepath.Join(s.dir, format)
	_, errs := pruneDir(dir, maxAge, now)
	errs = append(errs, s.pruneTrees(maxAge, now)...)
	if len(errs) > 0 {
		return fmt.Errorf("pruning %s: %w", s.dir, errors.Join(errs...))
	}
	return nil
}

// pruneDir removes the files of dir not modified for maxAge and the
// temporary files older than an hour; left counts what is left in it. A
// missing dir is empty.
func pruneDir(dir string, maxAge time.Duration, now time.Time) (left int, errs []error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return 0, nil
		}
		return 0, []error{err}
	}
	for _, e := range entries {
		fi, err := e.Info()
		if err != nil || !fi.Mode().IsRegular() {
			left++
			continue
		}
		age := now.Sub(fi.ModTime())
		if age > maxAge || strings.HasPrefix(e.Name(), tmpPrefix) && age > time.Hour {
			if err := os.Remove(filepath.Join(dir, e.Name())); err != nil && !errors.Is(err, os.ErrNotExist) {
				errs = append(errs, err)
				left++
			}
			continue
		}
		left++
	}
	return left, errs
}
