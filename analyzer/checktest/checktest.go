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
// with a header comment in its first ten lines:
//
//	# checktest: target-version=py314 platform=linux
package checktest

import (
	"bufio"
	"bytes"
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
	"github.com/cudaforklint/cudaforklint/ruledoc"
	"github.com/cudaforklint/cudaforklint/rules"
	"github.com/cudaforklint/cudaforklint/target"
)

// Expectation is one `# want` regexp.
type Expectation struct {
	Path string
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
	res, err := analyzer.Run(analyzer.Options{
		Paths:     []string{abs},
		Analyzers: rules.All(),
		WorkDir:   abs,
		Policy:    Policy(t),
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
		for _, w := range wants[key{f.Path, f.Start.Line}] {
			if !w.met && w.Re.MatchString(text) {
				w.met, matched = true, true
				break
			}
		}
		if !matched {
			t.Errorf("%s:%d:%d: unexpected finding: %s", f.Path, f.Start.Line, f.Start.Column, text)
		}
	}
	var missed []string
	for _, ws := range wants {
		for _, w := range ws {
			if !w.met {
				missed = append(missed, fmt.Sprintf("%s:%d: no finding matched %q", w.Path, w.Line, w.Re))
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
	return config.NewPolicyFunc(func(path string) (*config.Settings, error) {
		s, err := l.For(path)
		if err != nil {
			return nil, err
		}
		s.Targets = targetsFromHeader(path)
		return s, nil
	})
}

type key struct {
	path string
	line int
}

// Expectations reads every `# want` comment of the .py files under dir,
// keyed by path relative to dir and line.
func Expectations(dir string) (map[key][]*Expectation, error) {
	out := map[key][]*Expectation{}
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() || !strings.HasSuffix(p, ".py") {
			return err
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		sc := bufio.NewScanner(bytes.NewReader(src))
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for line := 1; sc.Scan(); line++ {
			text := sc.Text()
			i := strings.Index(text, "# want ")
			if i < 0 {
				continue
			}
			res, err := parseWants(text[i+len("# want "):])
			if err != nil {
				return fmt.Errorf("%s:%d: %v", rel, line, err)
			}
			for _, re := range res {
				out[key{rel, line}] = append(out[key{rel, line}], &Expectation{Path: rel, Line: line, Re: re})
			}
		}
		return sc.Err()
	})
	return out, err
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

// targetsFromHeader reads a fixture's `# checktest:` header.
func targetsFromHeader(path string) target.Set {
	set := target.Default()
	src, err := os.ReadFile(path)
	if err != nil {
		return set
	}
	lines := strings.SplitN(string(src), "\n", 11)
	for _, l := range lines[:min(10, len(lines))] {
		l = strings.TrimSpace(l)
		if !strings.HasPrefix(l, "# checktest:") {
			continue
		}
		versions, platforms := target.Versions(target.Py310, target.Py314), target.Platforms(target.Linux)
		for _, f := range strings.Fields(strings.TrimPrefix(l, "# checktest:")) {
			k, v, _ := strings.Cut(f, "=")
			switch k {
			case "target-version":
				if s, err := target.ParseTargetVersion(v); err == nil {
					versions = s
				}
			case "only-version":
				if s, err := target.ParseTargetVersion(v); err == nil {
					next, _ := nextVersion(v)
					versions = s &^ next
				}
			case "platform":
				if s, err := target.ParsePlatforms(v); err == nil {
					platforms = s
				}
			}
		}
		set = versions & platforms
	}
	return set
}

// nextVersion returns the versions after v, to turn "from v on" into "only v".
func nextVersion(v string) (target.Set, error) {
	order := []string{"py310", "py311", "py312", "py313", "py314"}
	for i, o := range order {
		if o == v && i+1 < len(order) {
			return target.ParseTargetVersion(order[i+1])
		}
	}
	return 0, nil
}
