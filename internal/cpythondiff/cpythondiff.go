// Package cpythondiff finds which Python files CPython compiles that
// cudaforklint's syntax layer rejects: files in which `check` would report a
// syntax error (a region syntax.Parse cannot parse, a source Parse refuses,
// or what tokcheck says CPython's tokenizer rejects) and that some CPython 3
// interpreter's compile() accepts. Each such file is a bug of the syntax
// layer (issue #49).
//
// syntax's TestAcceptsWhatCPythonAccepts runs the comparison over the
// standard libraries, the fixtures and a generated corpus of f-strings;
// scripts/accuracy/parsediff.go runs it over directory trees. Both use the
// same steps, exported here:
//
//   - Interpreters finds the CPython 3.9+ interpreters (or probes the ones
//     named);
//   - Rejected parses files in parallel, as check does, and returns those
//     with a syntax error;
//   - Compare hands those files to the interpreters that judge them, in one
//     process per interpreter (Python.Accepts), and returns the
//     disagreements.
//
// Only our rejections go to CPython: the direction compared is "CPython
// accepts, we reject", and those files are the only candidates; starting
// one process per file would cost more than the parse.
package cpythondiff

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cudaforklint/cudaforklint/syntax"
	"github.com/cudaforklint/cudaforklint/tokcheck"
)

// Python is one CPython interpreter.
type Python struct {
	Path    string // the executable
	Version string // "3.N"
	Stdlib  string // the directory of its standard library
}

// MinVersion is the oldest CPython compared against: the standard
// libraries before it hold no syntax the newer ones do not (what was
// removed since, `async` as a name, the grammar reads too), and parsing
// them would double the differential test's time.
const MinVersion = "3.9"

// probeScript prints an interpreter's version and standard library.
const probeScript = `import sys, sysconfig; print("%d.%d" % sys.version_info[:2]); print(sysconfig.get_paths()["stdlib"])`

// Interpreters returns the named interpreters or, when none is named, the
// CPython 3 interpreters of this machine: python3 and python3.X on PATH, in
// /usr/bin, and in pyenv's versions (whose shims on PATH run only the
// selected version), one per standard library (two builds of one version,
// pyenv's and the distribution's, have libraries of their own). Found
// candidates that do not run (a shim of a version not selected) or are
// older than MinVersion are left out; a named one is an error. The result
// is sorted by version, the order of discovery kept within one.
func Interpreters(names ...string) ([]Python, error) {
	if len(names) > 0 {
		var out []Python
		for _, name := range names {
			py, err := probe(name)
			if err != nil {
				return nil, err
			}
			if olderThan(py.Version, MinVersion) {
				return nil, fmt.Errorf("%s is Python %s; the comparison needs %s or later", name, py.Version, MinVersion)
			}
			out = append(out, py)
		}
		sortByVersion(out)
		return out, nil
	}
	var dirs []string
	dirs = append(dirs, filepath.SplitList(os.Getenv("PATH"))...)
	dirs = append(dirs, "/usr/bin")
	root := os.Getenv("PYENV_ROOT")
	if home, err := os.UserHomeDir(); root == "" && err == nil {
		root = filepath.Join(home, ".pyenv")
	}
	if bins, _ := filepath.Glob(filepath.Join(root, "versions", "*", "bin")); len(bins) > 0 {
		dirs = append(dirs, bins...)
	}
	name := regexp.MustCompile(`^python3(\.\d+)?$`)
	var out []Python
	seen := map[string]bool{} // executables and standard libraries
	for _, dir := range dirs {
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if !name.MatchString(e.Name()) {
				continue
			}
			p := filepath.Join(dir, e.Name())
			real, err := filepath.EvalSymlinks(p)
			if err != nil || seen[real] {
				continue
			}
			seen[real] = true
			py, err := probe(p)
			if err != nil || seen[py.Stdlib] || olderThan(py.Version, MinVersion) {
				continue
			}
			seen[py.Stdlib] = true
			out = append(out, py)
		}
	}
	sortByVersion(out)
	return out, nil
}

// ForTest returns the interpreters found, for a test that compares
// against them. In CI (CI set) python3 is part of the machine, and a
// missing one fails the test: a comparison against nothing would pass. On
// another machine the test is told there is nothing to compare against
// and ForTest returns nil, for the test to end.
func ForTest(tb testing.TB) []Python {
	tb.Helper()
	ci := os.Getenv("CI") != ""
	if _, err := exec.LookPath("python3"); err != nil && ci {
		tb.Fatalf("python3 is required in CI: %v", err)
	}
	pys, err := Interpreters()
	switch {
	case err != nil:
		tb.Fatal(err)
	case len(pys) == 0 && ci:
		tb.Fatalf("no CPython %s+ interpreter runs; CI needs python3", MinVersion)
	case len(pys) == 0:
		tb.Logf("no CPython %s+ interpreter: nothing to compare against", MinVersion)
	}
	return pys
}

// probe runs an interpreter for its version and standard library, with a
// time limit: a broken shim may wait on a terminal.
func probe(path string) (Python, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	b, err := exec.CommandContext(ctx, path, "-c", probeScript).Output()
	var exit *exec.ExitError
	if errors.As(err, &exit) && len(bytes.TrimSpace(exit.Stderr)) > 0 {
		// What it said: a pyenv shim names the versions that have it.
		return Python{}, fmt.Errorf("%s: %v: %s", path, err, bytes.TrimSpace(exit.Stderr))
	}
	if err != nil {
		return Python{}, fmt.Errorf("%s: %w", path, err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	var major, minor int
	if len(lines) != 2 {
		return Python{}, fmt.Errorf("%s: unexpected answer %q", path, b)
	}
	if _, err := fmt.Sscanf(lines[0], "%d.%d", &major, &minor); err != nil || major != 3 {
		return Python{}, fmt.Errorf("%s: not CPython 3 (version %q)", path, lines[0])
	}
	return Python{Path: path, Version: lines[0], Stdlib: lines[1]}, nil
}

// olderThan compares "3.N" versions.
func olderThan(v, than string) bool {
	var a, b, c, d int
	fmt.Sscanf(v, "%d.%d", &a, &b)
	fmt.Sscanf(than, "%d.%d", &c, &d)
	return a < c || a == c && b < d
}

func sortByVersion(pys []Python) {
	slices.SortStableFunc(pys, func(x, y Python) int {
		switch {
		case olderThan(x.Version, y.Version):
			return -1
		case olderThan(y.Version, x.Version):
			return 1
		}
		return 0
	})
}

// PyFiles returns every regular .py file under root.
func PyFiles(root string) []string { return walkPy(root, false) }

// StdlibFiles returns the .py files of py's standard library, without the
// installed packages (site-packages, dist-packages): they are not CPython's.
func (py Python) StdlibFiles() []string { return walkPy(py.Stdlib, true) }

func walkPy(root string, stdlib bool) []string {
	var out []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return nil
		case d.IsDir() && stdlib && (d.Name() == "site-packages" || d.Name() == "dist-packages"):
			return filepath.SkipDir
		case !d.IsDir() && d.Type().IsRegular() && strings.HasSuffix(p, ".py"):
			out = append(out, p)
		}
		return nil
	})
	return out
}

// Rejected parses every file as check does (each distinct content once, on
// every core) and returns those check would report a syntax error in, each
// with where the first error is ("line: what"), and how many files were
// left out because their declared encoding is not UTF-8 (Parse refuses
// them, documented, as a tool error and not a syntax error). A file that
// cannot be read is neither; the error names every such file.
func Rejected(paths []string) (rejected map[string]string, encodings int, err error) {
	var (
		mu        sync.Mutex
		byContent = map[[32]byte]verdict{}
		errs      []error
		wg        sync.WaitGroup
		next      = make(chan string)
	)
	rejected = map[string]string{}
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range next {
				src, err := os.ReadFile(p)
				if err != nil {
					mu.Lock()
					errs = append(errs, err)
					mu.Unlock()
					continue
				}
				sum := sha256.Sum256(src)
				mu.Lock()
				v, ok := byContent[sum]
				mu.Unlock()
				if !ok {
					v = judge(src)
					mu.Lock()
					byContent[sum] = v
					mu.Unlock()
				}
				mu.Lock()
				switch {
				case v.encoding:
					encodings++
				case v.where != "":
					rejected[p] = v.where
				}
				mu.Unlock()
			}
		}()
	}
	for _, p := range paths {
		next <- p
	}
	close(next)
	wg.Wait()
	return rejected, encodings, errors.Join(errs...)
}

// verdict is what judge found in a source.
type verdict struct {
	where    string // "line: what", "" when it parses
	encoding bool   // left out: its declared encoding is not UTF-8
}

// judge says whether check would report a syntax error in src, and where:
// a region Parse could not parse, a source Parse refuses, or what CPython's
// tokenizer rejects (tokcheck).
func judge(src []byte) verdict {
	line := func(off int) int { return bytes.Count(src[:min(off, len(src))], []byte{'\n'}) + 1 }
	f, err := syntax.Parse(src)
	var se *syntax.SourceError
	switch {
	case errors.As(err, &se) && errors.Is(err, syntax.ErrEncoding):
		return verdict{encoding: true}
	case err != nil:
		return verdict{where: fmt.Sprintf("%d: %v", max(1, line(0)), err)}
	case len(f.Errors) > 0:
		e := f.Errors[0]
		end := min(int(e.End), len(src), int(e.Start)+40)
		return verdict{where: fmt.Sprintf("%d: cannot parse %q", line(int(e.Start)), src[e.Start:end])}
	}
	if ps := tokcheck.Scan(src).Problems; len(ps) > 0 {
		return verdict{where: fmt.Sprintf("%d: %s", line(ps[0].Offset), ps[0].Message())}
	}
	return verdict{}
}

// acceptScript reads paths, one a line, and prints those CPython compiles:
// compile(), not ast.parse, because a file its parser reads but its
// compiler refuses (`from __future__ import *`) is not valid Python.
const acceptScript = `import sys
for line in sys.stdin:
    p = line.rstrip("\n")
    try:
        with open(p, "rb") as f:
            compile(f.read(), p, "exec", dont_inherit=True)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        continue
    print(p, flush=True)
`

// Accepts returns the files of paths that py compiles, asking one process.
func (py Python) Accepts(paths []string) ([]string, error) {
	if len(paths) == 0 {
		return nil, nil
	}
	cmd := exec.Command(py.Path, "-c", acceptScript)
	cmd.Stdin = strings.NewReader(strings.Join(paths, "\n") + "\n")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%s: %v\n%s", py.Path, err, stderr.Bytes())
	}
	var ok []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		ok = append(ok, sc.Text())
	}
	return ok, sc.Err()
}

// A Disagreement is a file we reject and some interpreter compiles.
type Disagreement struct {
	Path     string
	Where    string   // our first error: "line: what"
	Versions []string // the versions of the interpreters that compile it
}

// String is how both callers print it: "path:line: what (CPython 3.12,
// 3.13 parses it)", a location editors jump to.
func (d Disagreement) String() string {
	return fmt.Sprintf("%s:%s (CPython %s parses it)", d.Path, d.Where, strings.Join(d.Versions, ", "))
}

// Compare hands each file of rejected (as Rejected returns them) to the
// interpreters judges names for it (indices into pys), in one process per
// interpreter, and returns the files some interpreter compiles, sorted as
// they print. A file judges has no entry for is judged by none: an
// interpreter's standard library, say, is judged only by that interpreter.
func Compare(pys []Python, rejected map[string]string, judges map[string][]int) ([]Disagreement, error) {
	byPy := make([][]string, len(pys))
	for p := range rejected {
		for _, i := range judges[p] {
			byPy[i] = append(byPy[i], p)
		}
	}
	accepted := map[string][]string{}
	for i, py := range pys {
		slices.Sort(byPy[i])
		ok, err := py.Accepts(byPy[i])
		if err != nil {
			return nil, err
		}
		for _, p := range ok {
			accepted[p] = append(accepted[p], py.Version)
		}
	}
	out := make([]Disagreement, 0, len(accepted))
	for p, versions := range accepted {
		out = append(out, Disagreement{Path: p, Where: rejected[p], Versions: versions})
	}
	slices.SortFunc(out, func(a, b Disagreement) int { return cmp.Compare(a.String(), b.String()) })
	return out, nil
}
