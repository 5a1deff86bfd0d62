package cache

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/cudaforklint/cudaforklint/analyzer"
	"github.com/cudaforklint/cudaforklint/config"
	"github.com/cudaforklint/cudaforklint/finding"
	"github.com/cudaforklint/cudaforklint/notebook"
	"github.com/cudaforklint/cudaforklint/syntax"
)

// inputs records what a stored run depended on besides its Key (see the
// package doc).
type inputs struct {
	// Checked are the files discovery found, absolute and sorted.
	Checked []string `json:"checked"`
	// Files are the files read (and checked), with their content.
	Files []fileSum `json:"files"`
	// Bases are the tops of the import universe, Narrow the ancestors
	// above them that relative imports climb to; Universe its digest.
	Bases    []string     `json:"bases"`
	Narrow   []restricted `json:"narrow"`
	Universe string       `json:"universe"`
	// Config is the digest of the configuration files that can apply.
	Config string `json:"config"`
}

type fileSum struct {
	Path string `json:"path"`
	Size int64  `json:"size"`
	Sum  string `json:"sha256"`
}

// env is what recording and checking inputs need of the run.
type env struct {
	workDir string
	paths   []string // as named, relative to workDir
	// roots returns the import roots of a file (config.Policy.ImportRoots).
	roots       func(path string) []string
	configFiles []string
	maxFileSize int64
	// skip are the directories the universe leaves out: the store's
	// directories of entries.
	skip []string
}

// record returns the inputs of a run that started at start, checked the
// files in checked and returned res; errUncacheable when they cannot be
// recorded faithfully, or when res has a tool error that the content of
// the files does not decide. A file the run read from disk and that has
// not changed since it started is recorded by the sum of what it read
// (analyzedSum); the others are read again and compared with what the
// passes saw (analyzedAsOnDisk).
func (e *env) record(start time.Time, checked []string, res *analyzer.Result) (*inputs, error) {
	in := &inputs{Checked: checked}
	paths := union(checked, res.FilesRead)
	var mu sync.Mutex
	var bases []string
	var narrow []restricted
	addBases := func(p string, src []byte) {
		root, up := importBases(p, src)
		roots := e.roots(p)
		mu.Lock()
		bases = append(bases, root)
		bases = append(bases, roots...)
		narrow = append(narrow, up...)
		mu.Unlock()
	}
	sums, err := hashFiles(paths, func(p string, fi os.FileInfo) (fileSum, bool, error) {
		return analyzedSum(p, fi, start, res, addBases)
	}, func(p string, fi os.FileInfo, disk []byte) error {
		if changedSince(fi, start) {
			return errUncacheable(p + " changed while the run read it")
		}
		src := disk
		if analyzed, err := res.ReadFile(p); err == nil {
			if err := analyzedAsOnDisk(p, disk, analyzed, res.DiskSum, e.maxFileSize); err != nil {
				return err
			}
			src = analyzed
		}
		addBases(p, src)
		return nil
	})
	if err != nil {
		return nil, err
	}
	in.Files = sums
	recorded := make(map[string]bool, len(paths))
	for _, p := range paths {
		recorded[p] = true
	}
	for _, te := range res.Errors {
		if !e.decidedByContent(te, recorded) {
			return nil, errUncacheable("tool error: " + te.Message)
		}
	}
	for _, p := range e.paths {
		if fi, err := os.Stat(e.abs(p)); err == nil && fi.IsDir() {
			bases = append(bases, e.abs(p))
		}
	}
	in.Bases = topmost(bases)
	in.Narrow = mergeRestricted(narrow, in.Bases)
	if in.Universe, err = universeDigest(in.Bases, in.Narrow, e.maxFileSize, start, e.skip); err != nil {
		return nil, err
	}
	if in.Config, err = e.configDigest(paths, start); err != nil {
		return nil, err
	}
	return in, nil
}

// decidedByContent reports whether a tool error is one the bytes of a
// recorded file decide, so that replaying it is as right as replaying a
// finding: reading the file again gives the same error (it is over the
// size limit, or a notebook that cannot be read), or its bytes are source
// the parser refuses with this very message (not UTF-8, another encoding,
// a NUL byte). An error that is not about a recorded file's content (an
// unreadable file or directory, a configuration error, an internal error)
// is not: such a run is always run again.
func (e *env) decidedByContent(te finding.ToolError, recorded map[string]bool) bool {
	if te.Path == "" || !recorded[e.abs(te.Path)] {
		return false
	}
	src, err := analyzer.SourceReader(e.maxFileSize, nil)(e.abs(te.Path))
	if err != nil {
		var pe *fs.PathError
		return !errors.As(err, &pe) && err.Error() == te.Message
	}
	var se *syntax.SourceError
	return errors.As(syntax.CheckSource(src), &se) && !errors.Is(se, syntax.ErrInternal) &&
		se.Msg == te.Message && se.Line == te.Line
}

// compare reports what changed of in's inputs. why names a change to the
// files checked, the configuration or the universe ("" for none); changed
// are the recorded files whose bytes changed (empty: none), read only
// when why is "". sources hold the bytes of the recorded files in keep, as
// hashed (the replayed result's snippets), and of every recorded file when
// one was modified after storedAt, the time the entry was stored: then
// the run is most likely analyzed again, and reads them anyway. That
// guess only saves reading the files twice, or holding the bytes of a
// replayed run; the sums decide.
func (e *env) compare(in *inputs, checked []string, keep map[string]bool, storedAt time.Time) (sources map[string][]byte, changed map[string]bool, why string) {
	if !slices.Equal(in.Checked, checked) {
		return nil, nil, "the files checked"
	}
	paths := make([]string, len(in.Files))
	for i, f := range in.Files {
		paths[i] = f.Path
	}
	// The guess costs a status of each file: on another core, while this
	// one walks the configuration and the universe.
	guess := make(chan bool, 1)
	go func() { guess <- modifiedSince(paths, storedAt) }()
	if d, err := e.configDigest(paths, time.Time{}); err != nil || d != in.Config {
		return nil, nil, "the configuration files"
	}
	if d, err := universeDigest(in.Bases, in.Narrow, e.maxFileSize, time.Time{}, e.skip); err != nil || d != in.Universe {
		return nil, nil, "the modules imports can find"
	}
	sources = make(map[string][]byte, len(paths))
	keepAll := <-guess
	var mu sync.Mutex
	sums, err := hashFiles(paths, nil, func(p string, _ os.FileInfo, disk []byte) error {
		if keepAll || keep[p] {
			mu.Lock()
			sources[p] = disk
			mu.Unlock()
		}
		return nil
	})
	if err != nil {
		return nil, nil, err.Error()
	}
	changed = map[string]bool{}
	for i := range sums {
		if sums[i] != in.Files[i] {
			changed[sums[i].Path] = true
		}
	}
	return sources, changed, ""
}

// modifiedSince reports whether a file at paths was modified, or its
// status changed, after t (true for a zero t, or a file it cannot stat).
func modifiedSince(paths []string, t time.Time) bool {
	if t.IsZero() {
		return true
	}
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil || fi.ModTime().After(t) || changeTime(fi).After(t) {
			return true
		}
	}
	return false
}

func (e *env) abs(p string) string { return finding.AbsPath(e.workDir, p) }

// analyzedSum returns the sum of the file at path, with fi its status now,
// without reading it (ok=false: the caller reads it) when the run read it
// from disk and it has not changed since the run started: the bytes the
// run read are then those on disk (racy git's rule, which decides whether
// a run is stored at all). sawSource is given the source the passes saw.
func analyzedSum(path string, fi os.FileInfo, start time.Time, res *analyzer.Result, sawSource func(p string, src []byte)) (fs fileSum, ok bool, err error) {
	if res.DiskSum == nil {
		return fs, false, nil
	}
	if changedSince(fi, start) {
		return fs, false, errUncacheable(path + " changed while the run read it")
	}
	sum, size, ok := res.DiskSum(path)
	if !ok || size != fi.Size() {
		return fs, false, nil
	}
	src, err := res.ReadFile(path)
	if err != nil {
		return fs, false, nil
	}
	sawSource(path, src)
	return fileSum{Path: path, Size: size, Sum: hex.EncodeToString(sum[:])}, true, nil
}

// analyzedAsOnDisk checks that the run analyzed the bytes now on disk (for
// a notebook, the module they make): a file rewritten while the run read
// it is not recorded. A notebook the run read from disk is compared by the
// sum of what it read (diskSum, nil for none), not by making its module
// again (a JSON parse and a parse of its cells: an eighth of a run after
// an edit of a repository of notebooks).
func analyzedAsOnDisk(path string, disk, analyzed []byte, diskSum func(string) ([sha256.Size]byte, int64, bool), maxFileSize int64) error {
	if notebook.IsPath(path) {
		if diskSum != nil {
			if sum, _, ok := diskSum(path); ok {
				if sum != sha256.Sum256(disk) {
					return errUncacheable(path + " changed while the run read it")
				}
				return nil
			}
		}
		var err error
		if disk, err = analyzer.SourceReader(maxFileSize, map[string][]byte{path: disk})(path); err != nil {
			return errUncacheable(path + " cannot be read back")
		}
	}
	if !bytes.Equal(disk, analyzed) {
		return errUncacheable(path + " changed while the run read it")
	}
	return nil
}

// hashFiles returns the size and SHA-256 of each file, in parallel. known,
// when set, is asked first, given the file's status: it returns the sum
// when it knows it without reading the file (ok), and its error stops the
// hashing. visit sees the bytes of each file read, and its error stops the
// hashing.
func hashFiles(paths []string, known func(p string, fi os.FileInfo) (fileSum, bool, error), visit func(p string, fi os.FileInfo, data []byte) error) ([]fileSum, error) {
	sums := make([]fileSum, len(paths))
	errs := make([]error, len(paths))
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				sums[i], errs[i] = hashFile(paths[i], known, visit)
			}
		}()
	}
	for i := range paths {
		next <- i
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return sums, nil
}

func hashFile(p string, known func(string, os.FileInfo) (fileSum, bool, error), visit func(string, os.FileInfo, []byte) error) (fileSum, error) {
	if known != nil {
		fi, err := os.Stat(p)
		if err != nil {
			return fileSum{}, err
		}
		if !fi.Mode().IsRegular() {
			return fileSum{}, fmt.Errorf("%s: not a regular file", p)
		}
		if fs, ok, err := known(p, fi); ok || err != nil {
			return fs, err
		}
	}
	f, err := os.Open(p)
	if err != nil {
		return fileSum{}, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return fileSum{}, err
	}
	if !fi.Mode().IsRegular() {
		return fileSum{}, fmt.Errorf("%s: not a regular file", p)
	}
	data := make([]byte, fi.Size())
	n, err := readFull(f, data)
	if err != nil {
		return fileSum{}, err
	}
	data = data[:n]
	if err := visit(p, fi, data); err != nil {
		return fileSum{}, err
	}
	sum := sha256.Sum256(data)
	return fileSum{Path: p, Size: int64(len(data)), Sum: hex.EncodeToString(sum[:])}, nil
}

// readFull reads f into buf, and fails if f holds more than buf (it grew
// since its size was read).
func readFull(f *os.File, buf []byte) (int, error) {
	n := 0
	for n < len(buf) {
		m, err := f.Read(buf[n:])
		n += m
		if err != nil {
			if n == len(buf) {
				break
			}
			return n, err
		}
	}
	var one [1]byte
	if m, _ := f.Read(one[:]); m > 0 {
		return n, errUncacheable(f.Name() + " grew while it was read")
	}
	return n, nil
}

// configDigest returns the digest of the configuration files that can
// apply to the files at paths or to the working directory: in every
// directory from theirs up to the root, each of config.FileNames, absent
// or with its content, and whether each of config.ProjectMarkers is there
// (they decide the files' import roots); and --config's file. With racy
// set, a file changed since then fails it.
func (e *env) configDigest(paths []string, racy time.Time) (string, error) {
	dirs := map[string]bool{}
	add := func(d string) {
		for !dirs[d] {
			dirs[d] = true
			parent := filepath.Dir(d)
			if parent == d {
				return
			}
			d = parent
		}
	}
	add(e.workDir)
	for _, p := range paths {
		add(filepath.Dir(p))
	}
	var files []string
	for _, c := range e.configFiles {
		files = append(files, e.abs(c))
		add(filepath.Dir(e.abs(c)))
	}
	sorted := make([]string, 0, len(dirs))
	for d := range dirs {
		sorted = append(sorted, d)
	}
	sort.Strings(sorted)
	for _, d := range sorted {
		for _, n := range config.FileNames() {
			files = append(files, filepath.Join(d, n))
		}
	}
	h := sha256.New()
	for _, p := range files {
		fi, err := os.Stat(p)
		switch {
		case err != nil:
			fmt.Fprintf(h, "%q absent\n", p)
		case !fi.Mode().IsRegular():
			fmt.Fprintf(h, "%q not regular\n", p)
		default:
			if !racy.IsZero() && changedSince(fi, racy) {
				return "", errUncacheable(p + " changed while the run read it")
			}
			data, err := os.ReadFile(p)
			if err != nil {
				fmt.Fprintf(h, "%q unreadable\n", p)
				continue
			}
			sum := sha256.Sum256(data)
			fmt.Fprintf(h, "%q %x\n", p, sum)
		}
	}
	// Their presence alone decides a project root (pyproject.toml's content
	// is hashed above already; setup.py's does not matter; a worktree's
	// .git is a file, a clone's a directory).
	for _, d := range sorted {
		for _, n := range config.ProjectMarkers() {
			_, err := os.Lstat(filepath.Join(d, n))
			fmt.Fprintf(h, "%q marker %v\n", filepath.Join(d, n), err == nil)
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// union returns the clean paths in a and b, sorted and unique.
func union(a, b []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, list := range [][]string{a, b} {
		for _, p := range list {
			if p = filepath.Clean(p); !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	sort.Strings(out)
	return out
}
