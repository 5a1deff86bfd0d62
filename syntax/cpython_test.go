package syntax_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cudaforklint/cudaforklint/syntax"
	"github.com/cudaforklint/cudaforklint/tokcheck"
)

// TestAcceptsWhatCPythonAccepts is a differential test of what `check`
// calls a syntax error against CPython's parser: a region syntax.Parse
// cannot parse, or what tokcheck says CPython's tokenizer rejects. Every
// .py file of the standard library of each CPython 3 found (python3 on
// PATH, every other python3.X on PATH, in /usr/bin or installed by pyenv),
// of the project's fixtures, and of a generated corpus of f-strings and
// format specifiers is parsed here in parallel; the files with a syntax
// error are handed, in one process per interpreter, to CPython's
// compile(): what it compiles is valid Python (a file its parser reads
// but its compiler refuses, `from __future__ import *`, is not). A file an interpreter parses that we reject
// fails the test, naming the file, the line and the error. Files CPython
// rejects too (fixtures written to be broken, Python 2 test data in the
// standard library) are not compared; files whose declared encoding is not
// UTF-8 are left out (Parse refuses them, documented, as a tool error and
// not a syntax error). Only our rejections go to CPython: the direction
// the test checks is "CPython accepts, we reject", and those files are the
// only candidates.
func TestAcceptsWhatCPythonAccepts(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil && os.Getenv("CI") != "" {
		t.Fatalf("python3 is required in CI: %v", err)
	}
	pys := interpreters(t)
	if len(pys) == 0 {
		if os.Getenv("CI") != "" {
			t.Fatal("no CPython 3 interpreter runs; CI needs python3")
		}
		t.Log("no CPython 3 interpreter: nothing to compare against")
		return
	}
	// Each file and the interpreters that judge it: an interpreter's own
	// standard library goes to that interpreter, the fixtures and the
	// generated corpus to all of them (a file any of them parses must
	// parse here).
	judges := map[string][]int{}
	var all []int
	for i, py := range pys {
		all = append(all, i)
		n := 0
		walkPy(py.stdlib, true, func(p string) {
			judges[p] = append(judges[p], i)
			n++
		})
		t.Logf("%s (Python %s): %d files under %s", py.path, py.version, n, py.stdlib)
	}
	fixtures := 0
	walkPy("../testdata", false, func(p string) { judges[p] = all; fixtures++ })
	walkPy("testdata", false, func(p string) { judges[p] = all; fixtures++ })
	if fixtures < 100 {
		t.Fatalf("found %d fixtures; run from the syntax directory", fixtures)
	}
	gen := t.TempDir()
	for i, src := range fstringCorpus() {
		p := filepath.Join(gen, fmt.Sprintf("fstring_%04d.py", i))
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		judges[p] = all
	}

	start := time.Now()
	rejected, encodings := rejections(t, judges)
	t.Logf("parsed %d files in %v: %d with a syntax error here, %d left out for their encoding", len(judges), time.Since(start).Round(time.Millisecond), len(rejected), encodings)

	byPy := make([][]string, len(pys))
	for p := range rejected {
		for _, i := range judges[p] {
			byPy[i] = append(byPy[i], p)
		}
	}
	accepted := map[string][]string{}
	for i, py := range pys {
		if len(byPy[i]) == 0 {
			continue
		}
		sort.Strings(byPy[i])
		for _, p := range py.accepts(t, byPy[i]) {
			accepted[p] = append(accepted[p], py.version)
		}
	}
	var fails []string
	for p, versions := range accepted {
		fails = append(fails, fmt.Sprintf("%s:%s (CPython %s parses it)", p, rejected[p], strings.Join(versions, ", ")))
	}
	sort.Strings(fails)
	for _, f := range fails {
		t.Error(f)
	}
}

// python is one CPython interpreter.
type python struct {
	path, version, stdlib string
}

// probeScript prints an interpreter's version and standard library.
const probeScript = `import sys, sysconfig; print("%d.%d" % sys.version_info[:2]); print(sysconfig.get_paths()["stdlib"])`

// interpreters returns the CPython 3 interpreters of this machine, one per
// standard library: python3 and python3.X on PATH, in /usr/bin, and in
// pyenv's versions (whose shims on PATH run only the selected version).
// Candidates that do not run (a shim of a version not selected) are left
// out, and so are versions before minVersion.
func interpreters(t *testing.T) []python {
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
	var out []python
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
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			b, err := exec.CommandContext(ctx, p, "-c", probeScript).Output()
			cancel()
			lines := strings.Split(strings.TrimSpace(string(b)), "\n")
			if err != nil || len(lines) != 2 || seen[lines[1]] || olderThan(lines[0], minVersion) {
				continue
			}
			seen[lines[1]] = true
			out = append(out, python{path: p, version: lines[0], stdlib: lines[1]})
		}
	}
	return out
}

// minVersion is the oldest CPython whose standard library is parsed: the
// libraries before it hold no syntax the newer ones do not (what was
// removed since, `async` as a name, the grammar reads too), and parsing
// them would double the test's time.
const minVersion = "3.9"

// olderThan compares "3.N" versions.
func olderThan(v, than string) bool {
	var a, b, c, d int
	fmt.Sscanf(v, "%d.%d", &a, &b)
	fmt.Sscanf(than, "%d.%d", &c, &d)
	return a < c || a == c && b < d
}

// walkPy calls fn with every .py file under root; in a standard library,
// installed packages are left out.
func walkPy(root string, stdlib bool, fn func(string)) {
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return nil
		case d.IsDir() && stdlib && (d.Name() == "site-packages" || d.Name() == "dist-packages"):
			return filepath.SkipDir
		case !d.IsDir() && d.Type().IsRegular() && strings.HasSuffix(p, ".py"):
			fn(p)
		}
		return nil
	})
}

// rejections parses every file (each distinct content once, on every
// core) and returns those `check` would report a syntax error in, with
// the first error's line, and how many were left out for their encoding.
func rejections(t *testing.T, files map[string][]int) (map[string]string, int) {
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	var (
		mu        sync.Mutex
		byContent = map[[32]byte]*verdict{}
		rejected  = map[string]string{}
		encodings int
		wg        sync.WaitGroup
		next      = make(chan string)
	)
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range next {
				src, err := os.ReadFile(p)
				if err != nil {
					t.Error(err)
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
	return rejected, encodings
}

// verdict is what judge found in a source.
type verdict struct {
	where    string // "line: what", "" when it parses
	encoding bool   // left out: its declared encoding is not UTF-8
}

// judge says whether `check` would report a syntax error in src, and
// where: a region Parse could not parse, a source Parse refuses, or what
// CPython's tokenizer rejects (tokcheck).
func judge(src []byte) *verdict {
	line := func(off int) int { return bytes.Count(src[:min(off, len(src))], []byte{'\n'}) + 1 }
	f, err := syntax.Parse(src)
	var se *syntax.SourceError
	switch {
	case errors.As(err, &se) && errors.Is(err, syntax.ErrEncoding):
		return &verdict{encoding: true}
	case err != nil:
		return &verdict{where: fmt.Sprintf("%d: %v", max(1, line(0)), err)}
	case len(f.Errors) > 0:
		e := f.Errors[0]
		end := min(int(e.End), len(src), int(e.Start)+40)
		return &verdict{where: fmt.Sprintf("%d: cannot parse %q", line(int(e.Start)), src[e.Start:end])}
	}
	if ps := tokcheck.Scan(src).Problems; len(ps) > 0 {
		return &verdict{where: fmt.Sprintf("%d: %s", line(ps[0].Offset), ps[0].Message())}
	}
	return &verdict{}
}

// acceptScript reads paths, one a line, and prints those CPython parses.
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

// accepts returns the files of paths that py parses, asking one process.
func (py python) accepts(t *testing.T, paths []string) []string {
	cmd := exec.Command(py.path, "-c", acceptScript)
	cmd.Stdin = strings.NewReader(strings.Join(paths, "\n") + "\n")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v\n%s", py.path, err, stderr.Bytes())
	}
	var ok []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		ok = append(ok, sc.Text())
	}
	return ok
}

// fstringCorpus returns the generated sources: f-strings (and t-strings)
// combining every part of a format specifier ([[fill]align][sign][z][#]
// [0][width][grouping][.precision][type], widths and precisions as nested
// fields too) with the shapes of a replacement field (conversions, the `=`
// debugging specifier, nested quotes, subscripts, slices, calls, a
// parenthesized walrus, nested fields with specifiers of their own) in
// every kind of quote, with doubled braces around. The choice is
// pseudo-random from a fixed seed: the same cases every run.
func fstringCorpus() []string {
	fills := []string{"", "=", "!", ":", "x", "'", "\"", " ", "*", "0", "#", "<", "é"}
	aligns := []string{"", "<", ">", "^", "="}
	signs := []string{"", "+", "-", " "}
	zs := []string{"", "z"}
	alts := []string{"", "#"}
	zeros := []string{"", "0"}
	widths := []string{"", "8", "{w}", "{w:d}", "{'1'}"}
	groups := []string{"", ",", "_"}
	precs := []string{"", ".3", ".{p}", ".{p!s}"}
	types := []string{"", "f", "d", "x", "e", "%", "s", "n", "g", "b"}
	fields := []string{
		"x:%s", "x=:%s", "x = !r:%s", "x!s:%s", "x!a:%s", " x :%s",
		"d['k']:%s", `d["k"]:%s`, "(x:=1.5):%s", "f(x, y=2):%s", "x if x else y:%s",
		"xs[1:2]:%s", "(lambda: x)():%s", "x:{w:%s}", "{'a': x}['a']:%s", "x:%s}}",
		"*xs,:%s", "x!r:{w!s:%s}", "x:{f'{w}'}%s", "x:\\N{DIGIT ONE}%s", "{x for x in xs}:%s",
		"\n  x  # a comment (3.12)\n:%s", "x\n=\n:%s", "'a' 'b':%s", "f'{x:{w}}':%s",
	}
	quotes := []string{`"`, `'`, `"""`, `'''`}
	prefixes := []string{"f", "F", "rf", "fR", "t", "Rt"}
	r := rand.New(rand.NewSource(49))
	pick := func(xs []string) string { return xs[r.Intn(len(xs))] }
	const header = "x = y = 1.5\nw, p = 10, 3\nd = {'k': 2}\nxs = [1, 2, 3]\ndef f(*a, **k):\n    return 1\n"
	var out []string
	for i := 0; i < 3000; i++ {
		spec := pick(fills) + pick(aligns)
		if spec == "" || len(spec) == 1 && i%3 == 0 {
			spec = pick(aligns)
		}
		spec += pick(signs) + pick(zs) + pick(alts) + pick(zeros) + pick(widths) + pick(groups) + pick(precs) + pick(types)
		q := quotes[i%len(quotes)]
		field := fmt.Sprintf(pick(fields), spec)
		lit := prefixes[i%len(prefixes)] + q + "{{a}} {" + field + "} }}" + q
		if i%7 == 0 {
			// Two fields, the second with a conversion and no spec.
			lit = prefixes[i%len(prefixes)] + q + "{" + field + "}{x!r}" + q
		}
		out = append(out, header+"s = "+lit+"\nprint(s)\n")
	}
	return out
}
