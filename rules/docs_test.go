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
	docs := ruledoc.All()
	if *updateDocs {
		if err := ruledoc.WriteDocs("../docs/rules", docs); err != nil {
			t.Fatal(err)
		}
	}
	if err := ruledoc.CheckDocs("../docs/rules", docs); err != nil {
		t.Fatalf("%v\n(run `go test ./rules -run TestRuleDocs -update-docs`)", err)
	}
}

// TestAnalyzersMatchRegistry keeps the analyzers and the registry in step:
// each analyzer is named by a documented code and links its page, and every
// documented rule but the driver's CFL100 has an analyzer.
func TestAnalyzersMatchRegistry(t *testing.T) {
	seen := map[string]bool{}
	for _, a := range rules.All() {
		doc, ok := ruledoc.ByCode(a.Name)
		if !ok {
			t.Errorf("analyzer %s has no ruledoc entry", a.Name)
			continue
		}
		if a.URL != doc.URL() {
			t.Errorf("%s: URL %q, want %q", a.Name, a.URL, doc.URL())
		}
		if seen[a.Name] {
			t.Errorf("duplicate analyzer %s", a.Name)
		}
		seen[a.Name] = true
	}
	for _, doc := range ruledoc.All() {
		if !seen[doc.Code] && doc != ruledoc.CFL100 {
			t.Errorf("rule %s is documented but has no analyzer in rules.All", doc.Code)
		}
	}
}
