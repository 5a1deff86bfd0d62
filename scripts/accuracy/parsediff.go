//go:build ignore

// parsediff runs the syntax layer's differential comparison against CPython
// (syntax/cpython_test.go's TestAcceptsWhatCPythonAccepts) over directory
// trees: every .py file is parsed by syntax.Parse and scanned by tokcheck,
// as `check` does, and the files where that finds a syntax error are handed
// to each CPython 3 interpreter's compile(). A file some interpreter
// compiles and we reject is a disagreement: a bug of the syntax layer.
// Only our rejections go to CPython, the direction the test checks.
//
//	go run scripts/accuracy/parsediff.go [-python python3.12,...] [-record scripts/accuracy/parsediff.tsv -rev COMMIT] DIR...
//
// It prints the numbers and each disagreement (file, line, what we found)
// and exits 1 when there is one. With -record it appends a row (date, this
// checkout's commit, interpreters, files compared, rejected by both,
// encodings left out, disagreements) that accuracy.go puts in
// docs/accuracy.md.
package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/cudaforklint/cudaforklint/syntax"
	"github.com/cudaforklint/cudaforklint/tokcheck"
)

func main() {
	pythons := flag.String("python", "", "CPython interpreters, comma-separated (default: python3.9 and later found on PATH and in pyenv's versions)")
	record := flag.String("record", "", "append the result as a row of this TSV file")
	rev := flag.String("rev", "", "the commit of the syntax layer compared, for -record (default: this checkout's HEAD)")
	flag.Parse()
	if flag.NArg() == 0 {
		fail("name the directories to compare")
	}
	pys := interpreters(*pythons)
	if len(pys) == 0 {
		fail("no CPython 3.9+ interpreter found")
	}
	var files []string
	for _, root := range flag.Args() {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && d.Type().IsRegular() && strings.HasSuffix(p, ".py") {
				files = append(files, p)
			}
			return nil
		})
	}
	start := time.Now()
	rejected, encodings := rejections(files)
	fmt.Printf("parsed %d files in %v: %d with a syntax error here, %d left out for their encoding\n",
		len(files), time.Since(start).Round(time.Millisecond), len(rejected), encodings)
	var ours []string
	for p := range rejected {
		ours = append(ours, p)
	}
	sort.Strings(ours)
	accepted := map[string][]string{}
	var names []string
	for _, py := range pys {
		names = append(names, py.version)
		for _, p := range py.accepts(ours) {
			accepted[p] = append(accepted[p], py.version)
		}
	}
	var disagree []string
	for p, versions := range accepted {
		disagree = append(disagree, fmt.Sprintf("%s:%s (CPython %s parses it)", p, rejected[p], strings.Join(versions, ", ")))
	}
	sort.Strings(disagree)
	fmt.Printf("CPython %s: %d files compared, %d rejected by both, %d disagreements\n",
		strings.Join(names, ", "), len(files)-encodings, len(rejected)-len(accepted), len(disagree))
	for _, d := range disagree {
		fmt.Println(d)
	}
	if *record != "" {
		if *rev == "" {
			*rev = "unknown"
			if b, err := exec.Command("git", "rev-parse", "--short=7", "HEAD").Output(); err == nil {
				*rev = strings.TrimSpace(string(b))
			}
		}
		row := fmt.Sprintf("%s\t%s\t%s\t%d\t%d\t%d\t%d\n", time.Now().UTC().Format("2006-01-02"), *rev,
			strings.Join(names, ","), len(files)-encodings, len(rejected)-len(accepted), encodings, len(disagree))
		head := ""
		if _, err := os.Stat(*record); err != nil {
			head = "# date\tcudaforklint commit\tCPython versions\tfiles compared\trejected by both\tleft out (encoding)\tdisagreements\n"
		}
		f, err := os.OpenFile(*record, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			fail("%v", err)
		}
		if _, err := f.WriteString(head + row); err != nil {
			fail("%v", err)
		}
		if err := f.Close(); err != nil {
			fail("%v", err)
		}
	}
	if len(disagree) > 0 {
		os.Exit(1)
	}
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "parsediff: "+format+"\n", args...)
	os.Exit(2)
}

type python struct {
	path, version string
	minor         int
}

// interpreters returns the named interpreters, or those found: python3 and
// python3.X on PATH and in pyenv's versions, one per version, 3.9 and later
// (the versions the differential test compares against).
func interpreters(named string) []python {
	var cands []string
	if named != "" {
		cands = strings.Split(named, ",")
	} else {
		dirs := filepath.SplitList(os.Getenv("PATH"))
		root := os.Getenv("PYENV_ROOT")
		if home, err := os.UserHomeDir(); root == "" && err == nil {
			root = filepath.Join(home, ".pyenv")
		}
		bins, _ := filepath.Glob(filepath.Join(root, "versions", "*", "bin"))
		dirs = append(dirs, bins...)
		name := regexp.MustCompile(`^python3(\.\d+)?$`)
		for _, d := range dirs {
			entries, _ := os.ReadDir(d)
			for _, e := range entries {
				if name.MatchString(e.Name()) {
					cands = append(cands, filepath.Join(d, e.Name()))
				}
			}
		}
	}
	var out []python
	seen := map[string]bool{}
	for _, p := range cands {
		b, err := exec.Command(p, "-c", `import sys; print("%d.%d" % sys.version_info[:2])`).Output()
		v := strings.TrimSpace(string(b))
		var major, minor int
		if err != nil || seen[v] {
			continue
		}
		if _, err := fmt.Sscanf(v, "%d.%d", &major, &minor); err != nil || major != 3 || minor < 9 {
			continue
		}
		seen[v] = true
		out = append(out, python{p, v, minor})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].minor < out[j].minor })
	return out
}

// rejections parses every file (each distinct content once, on every
// core) and returns those `check` would report a syntax error in, with the
// first error's line, and how many were left out for their encoding.
func rejections(paths []string) (map[string]string, int) {
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
					fmt.Fprintln(os.Stderr, err)
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

type verdict struct {
	where    string // "line: what", "" when it parses
	encoding bool   // left out: its declared encoding is not UTF-8
}

// judge says whether `check` would report a syntax error in src, and where:
// the same reading as the differential test's.
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

// acceptScript reads paths, one a line, and prints those CPython compiles.
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

// accepts returns the files of paths that py compiles, asking one process.
func (py python) accepts(paths []string) []string {
	if len(paths) == 0 {
		return nil
	}
	cmd := exec.Command(py.path, "-c", acceptScript)
	cmd.Stdin = strings.NewReader(strings.Join(paths, "\n") + "\n")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		fail("%s: %v\n%s", py.path, err, stderr.Bytes())
	}
	var ok []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		ok = append(ok, sc.Text())
	}
	return ok
}
