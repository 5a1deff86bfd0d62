// Package checktest runs cudaforklint over Python fixtures and checks the
// findings against expectations written in the fixtures themselves, in the
// style of golang.org/x/tools/go/analysis/analysistest:
//
//	torch.cuda.init()  # want "CFL001" "CFL004 .*re-imports"
//
// Each quoted string (Go syntax: "..." or `...`) is a regular expression
// matched against "CODE message" of a finding reported on that line. Every
// expectation must be met and every finding expected; suppressed findings
// (noqa) must not be. A fixture can narrow the targets it is checked for
// with a header comment in its first ten lines (targetsFromHeader lists the
// keys):
//
//	# checktest: target-version=py314 platform=linux
//	# checktest: only-version=3.14.0
//
// Fixtures are .py files and Jupyter notebooks (.ipynb), whose `# want`
// comments are in the lines of their code cells and expect findings on
// that line of that cell; a notebook's header is in the first ten lines of
// its code cells.
package checktest

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"text/scanner"

	"github.com/cudaforklint/cudaforklint/analyzer"
	"github.com/cudaforklint/cudaforklint/config"
	"github.com/cudaforklint/cudaforklint/finding"
	"github.com/cudaforklint/cudaforklint/notebook"
	"github.com/cudaforklint/cudaforklint/passes/pyprogram"
	"github.com/cudaforklint/cudaforklint/pytarget"
	"github.com/cudaforklint/cudaforklint/ruledoc"
	"github.com/cudaforklint/cudaforklint/rules"
)

// Expectation is one `# want` regexp.
type Expectation struct {
	Path string
	Cell int // the notebook cell, 0 in a .py file
	Line int
	Re   *regexp.Regexp
	met  bool
}

// Run checks every fixture under dir (recursively) with all rules, CFL003
// included, and returns the findings for further checks.
func Run(t testing.TB, dir string) []finding.Finding {
	t.Helper()
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	// As `cudaforklint check` run in dir: absolute imports also resolve
	// from there (a repository's examples importing its package).
	pol := Policy(t)
	pol.Roots = []string{abs}
	res, err := analyzer.Run(context.Background(), analyzer.Options{
		Paths:     []string{abs},
		Analyzers: rules.All(),
		WorkDir:   abs,
		Policy:    pol,
		Split:     pyprogram.Split,
	})
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	for _, e := range res.Errors {
		t.Errorf("tool error: %s: %s", e.Path, e.Message)
	}
	wants, err := Expectations(abs)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range res.Findings {
		if f.Suppressed {
			continue
		}
		text := f.Code + " " + f.Message
		matched := false
		for _, w := range wants[key{f.Path, f.Cell, f.Start.Line}] {
			if !w.met && w.Re.MatchString(text) {
				w.met, matched = true, true
				break
			}
		}
		if !matched {
			t.Errorf("%s: unexpected finding: %s", where(f.Path, f.Cell, f.Start.Line), text)
		}
	}
	var missed []string
	for _, ws := range wants {
		for _, w := range ws {
			if !w.met {
				missed = append(missed, fmt.Sprintf("%s: no finding matched %q", where(w.Path, w.Cell, w.Line), w.Re))
			}
		}
	}
	sort.Strings(missed)
	for _, m := range missed {
		t.Error(m)
	}
	return res.Findings
}

// Policy is the fixtures' configuration: every rule with an analyzer
// selected, no configuration file read, and the targets of each fixture's
// `# checktest:` header.
func Policy(t testing.TB) *config.Policy {
	t.Helper()
	var codes []string
	for _, a := range rules.All() {
		codes = append(codes, a.Name)
	}
	l, err := config.NewLoader(ruledoc.All(), config.Overrides{Select: codes, Isolated: true})
	if err != nil {
		t.Fatal(err)
	}
	pol := config.NewPolicyFunc(func(path string) (*config.Settings, error) {
		s, err := l.For(path)
		if err != nil {
			return nil, err
		}
		if s.Targets, err = targetsFromHeader(path); err != nil {
			return nil, err
		}
		return s, nil
	})
	// Imports resolve against each fixture's project, as check resolves
	// them (a fixture tree with a pyproject.toml is a project of its own).
	pol.ProjectRoots = l.ImportRoots
	return pol
}

type key struct {
	path string
	cell int
	line int
}

func where(path string, cell, line int) string {
	if cell > 0 {
		return fmt.Sprintf("%s:cell %d:%d", path, cell, line)
	}
	return fmt.Sprintf("%s:%d", path, line)
}

// Expectations reads every `# want` comment of the .py files and notebooks
// under dir, keyed by path relative to dir, cell and line.
func Expectations(dir string) (map[key][]*Expectation, error) {
	out := map[key][]*Expectation{}
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		var sources []cellSource
		switch {
		case strings.HasSuffix(p, ".py"):
			src, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			sources = []cellSource{{text: string(src)}}
		case notebook.IsPath(p):
			if sources, err = notebookCells(p); err != nil {
				return fmt.Errorf("%s: %v", rel, err)
			}
		}
		for _, s := range sources {
			sc := bufio.NewScanner(strings.NewReader(s.text))
			sc.Buffer(make([]byte, 1<<20), 1<<20)
			for line := 1; sc.Scan(); line++ {
				text := sc.Text()
				i := strings.Index(text, "# want ")
				if i < 0 {
					continue
				}
				res, err := parseWants(text[i+len("# want "):])
				if err != nil {
					return fmt.Errorf("%s: %v", where(rel, s.cell, line), err)
				}
				k := key{rel, s.cell, line}
				for _, re := range res {
					out[k] = append(out[k], &Expectation{Path: rel, Cell: s.cell, Line: line, Re: re})
				}
			}
			if err := sc.Err(); err != nil {
				return err
			}
		}
		return nil
	})
	return out, err
}

// cellSource is the text of a .py file (cell 0) or of a notebook's cell.
type cellSource struct {
	cell int
	text string
}

// notebookCells returns the code cells of a notebook.
func notebookCells(path string) ([]cellSource, error) {
	nb, err := readNotebook(path)
	if err != nil {
		return nil, err
	}
	var out []cellSource
	for _, c := range nb.CodeCells() {
		out = append(out, cellSource{cell: c.Number, text: c.Text})
	}
	return out, nil
}

func readNotebook(path string) (*notebook.Notebook, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return notebook.Parse(raw)
}

func parseWants(s string) ([]*regexp.Regexp, error) {
	var sc scanner.Scanner
	sc.Init(strings.NewReader(s))
	sc.Mode = scanner.ScanStrings | scanner.ScanRawStrings
	sc.Error = func(*scanner.Scanner, string) {}
	var out []*regexp.Regexp
	for tok := sc.Scan(); tok != scanner.EOF; tok = sc.Scan() {
		if tok != scanner.String && tok != scanner.RawString {
			break // the rest is commentary
		}
		pat, err := strconv.Unquote(sc.TokenText())
		if err != nil {
			return nil, err
		}
		re, err := regexp.Compile(pat)
		if err != nil {
			return nil, err
		}
		out = append(out, re)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("`# want` without a quoted regexp")
	}
	return out, nil
}

// targetsFromHeader reads a fixture's `# checktest:` header. Its keys:
//
//	target-version=py312     3.12 and later (as the config key)
//	only-version=py314       3.14 only (both of its buckets)
//	only-version=3.14.0      the bucket holding that release only
//	requires-python=>=3.13.8 the versions a PEP 440 specifier allows
//	platform=linux,windows   the platforms (default: Linux)
//
// Without a version key the fixture is checked for the default versions
// (3.11–3.15). An unknown key or value is an error: a typo must not quietly
// check a fixture for other versions than its expectations assume.
func targetsFromHeader(path string) (pytarget.Set, error) {
	set := pytarget.Default()
	src, err := os.ReadFile(path)
	if err != nil {
		return set, nil // the driver reports unreadable files
	}
	if notebook.IsPath(path) {
		nb, err := readNotebook(path)
		if err != nil {
			return set, nil // the driver reports notebooks it cannot read
		}
		src = nb.Source
	}
	lines := strings.SplitN(string(src), "\n", 11)
	for n, l := range lines[:min(10, len(lines))] {
		l = strings.TrimSpace(l)
		if !strings.HasPrefix(l, "# checktest:") {
			continue
		}
		versions, platforms := pytarget.DefaultVersions(), pytarget.Platforms(pytarget.Linux)
		for _, f := range strings.Fields(strings.TrimPrefix(l, "# checktest:")) {
			k, v, _ := strings.Cut(f, "=")
			var err error
			switch k {
			case "target-version":
				versions, err = pytarget.ParseTargetVersion(v)
			case "only-version":
				versions, err = onlyVersion(v)
			case "requires-python":
				versions, err = pytarget.ParseRequiresPython(v)
			case "platform":
				platforms, err = pytarget.ParsePlatforms(v)
			default:
				err = fmt.Errorf("unknown key %q (want target-version, only-version, requires-python or platform)", k)
			}
			if err != nil {
				return 0, fmt.Errorf("%s:%d: checktest header: %v", path, n+1, err)
			}
		}
		set = versions & platforms
		if set.Empty() {
			return 0, fmt.Errorf("%s:%d: checktest header leaves no version to check", path, n+1)
		}
	}
	return set, nil
}

// onlyVersion turns "py314" into the buckets of 3.14 and "3.14.0" into the
// bucket holding that release.
func onlyVersion(v string) (pytarget.Set, error) {
	spec := "==" + v
	if minor, ok := strings.CutPrefix(v, "py3"); ok {
		spec = "==3." + minor + ".*"
	}
	set, err := pytarget.ParseRequiresPython(spec)
	if err == nil && set.Empty() {
		err = fmt.Errorf("only-version %q: no such version", v)
	}
	return set, err
}
