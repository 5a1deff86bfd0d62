package rules_test

import (
	"flag"
	"testing"

	"github.com/cudaforklint/cudaforklint/ruledoc"
	"github.com/cudaforklint/cudaforklint/rules"
)

var updateDocs = flag.Bool("update-docs", false, "rewrite docs/rules from the rules' docs")

// TestRuleDocs checks that docs/rules/*.md are what the rules' ruledoc.Doc
// render to (one source for the CLI, SARIF and the pages).
func TestRuleDocs(t *testing.T) {
	docs := rules.Docs()
	if *updateDocs {
		if err := ruledoc.WriteDocs("../docs/rules", docs); err != nil {
			t.Fatal(err)
		}
	}
	if err := ruledoc.CheckDocs("../docs/rules", docs); err != nil {
		t.Fatalf("%v\n(run `go test ./rules -run TestRuleDocs -update-docs`)", err)
	}
}

// TestAnalyzerNamesAreCodes keeps the analyzers' names, docs and registry in
// step: each analyzer is named by its code and has its Doc's URL.
func TestAnalyzerNamesAreCodes(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range rules.All() {
		if r.Analyzer.Name != r.Doc.Code {
			t.Errorf("analyzer %s documented as %s", r.Analyzer.Name, r.Doc.Code)
		}
		if r.Analyzer.URL != r.Doc.URL() {
			t.Errorf("%s: URL %q, want %q", r.Doc.Code, r.Analyzer.URL, r.Doc.URL())
		}
		if seen[r.Doc.Code] {
			t.Errorf("duplicate code %s", r.Doc.Code)
		}
		seen[r.Doc.Code] = true
		if got, ok := rules.ByCode(r.Doc.Code); !ok || got.Doc != r.Doc {
			t.Errorf("ByCode(%s) does not find its rule", r.Doc.Code)
		}
	}
	for _, code := range []string{"CFL001", "CFL002", "CFL003", "CFL004", "CFL005"} {
		if !seen[code] {
			t.Errorf("rule %s missing from rules.All", code)
		}
	}
}
