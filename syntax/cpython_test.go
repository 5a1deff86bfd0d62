package syntax_test

import (
	"fmt"
	"maps"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/cudaforklint/cudaforklint/internal/cpythondiff"
)

// TestAcceptsWhatCPythonAccepts is a differential test of what `check`
// calls a syntax error against CPython's compiler (internal/cpythondiff
// says how files are compared). Every .py file of the standard library of
// each CPython 3.9+ found (python3 and python3.X on PATH, in /usr/bin or
// installed by pyenv), of the project's fixtures, and of a generated corpus
// of f-strings and format specifiers is parsed here; a file an interpreter
// compiles that we reject fails the test, naming the file, the line and
// the error. Files CPython rejects too (fixtures written to be broken,
// Python 2 test data in the standard library) are not compared, nor files
// whose declared encoding is not UTF-8 (Parse refuses them as a tool
// error, not a syntax error).
func TestAcceptsWhatCPythonAccepts(t *testing.T) {
	pys := cpythondiff.ForTest(t)
	if len(pys) == 0 {
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
		files := py.StdlibFiles()
		for _, p := range files {
			judges[p] = append(judges[p], i)
		}
		t.Logf("%s (Python %s): %d files under %s", py.Path, py.Version, len(files), py.Stdlib)
	}
	fixtures := 0
	for _, root := range []string{"../testdata", "testdata"} {
		for _, p := range cpythondiff.PyFiles(root) {
			judges[p] = all
			fixtures++
		}
	}
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
	rejected, encodings, err := cpythondiff.Rejected(slices.Collect(maps.Keys(judges)))
	if err != nil {
		t.Error(err)
	}
	t.Logf("parsed %d files in %v: %d with a syntax error here, %d left out for their encoding", len(judges), time.Since(start).Round(time.Millisecond), len(rejected), encodings)
	disagree, err := cpythondiff.Compare(pys, rejected, judges)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range disagree {
		t.Error(d)
	}
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
