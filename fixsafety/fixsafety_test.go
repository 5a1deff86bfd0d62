package fixsafety_test

import (
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/cudaforklint/cudaforklint/finding"
	"github.com/cudaforklint/cudaforklint/fixsafety"
)

// TestTableRoundTrip: what a rule attaches is what the driver reads back,
// per diagnostic and per fix, and the messages reach users unchanged.
func TestTableRoundTrip(t *testing.T) {
	var tab fixsafety.Table
	edit := analysis.TextEdit{Pos: 10, End: 14, NewText: []byte("spawn")}
	d1 := analysis.Diagnostic{Pos: 10, End: 20, Category: "CFL001", Message: "m"}
	tab.Attach(&d1,
		fixsafety.Safe("Add the guard", edit),
		fixsafety.Unsafe(`Use the "spawn" start method`, edit),
		fixsafety.DisplayOnly("Move the initialization"))
	// The same fix message on another diagnostic keeps its own applicability.
	d2 := analysis.Diagnostic{Pos: 30, End: 40, Category: "CFL003", Message: "m"}
	tab.Attach(&d2, fixsafety.Safe(`Use the "spawn" start method`, edit))

	if len(d1.SuggestedFixes) != 3 || len(d2.SuggestedFixes) != 1 {
		t.Fatalf("attached %d and %d fixes, want 3 and 1", len(d1.SuggestedFixes), len(d2.SuggestedFixes))
	}
	for i, want := range []struct {
		msg string
		app finding.Applicability
	}{
		{"Add the guard", finding.Safe},
		{`Use the "spawn" start method`, finding.Unsafe},
		{"Move the initialization", finding.DisplayOnly},
	} {
		f := d1.SuggestedFixes[i]
		if f.Message != want.msg {
			t.Errorf("fix %d message %q, want %q", i, f.Message, want.msg)
		}
		if got := tab.Of(d1, f); got != want.app {
			t.Errorf("fix %q: applicability %v, want %v", f.Message, got, want.app)
		}
	}
	if got := tab.Of(d2, d2.SuggestedFixes[0]); got != finding.Safe {
		t.Errorf("second diagnostic's fix: %v, want safe", got)
	}
}

// TestUnknownFixIsUnsafe: a fix no table recorded needs the user's opt-in.
func TestUnknownFixIsUnsafe(t *testing.T) {
	d := analysis.Diagnostic{Pos: 1, End: 2}
	f := analysis.SuggestedFix{Message: "x"}
	var tab fixsafety.Table
	if got := tab.Of(d, f); got != finding.Unsafe {
		t.Errorf("empty table: %v, want unsafe", got)
	}
	var none *fixsafety.Table
	if got := none.Of(d, f); got != finding.Unsafe {
		t.Errorf("nil table: %v, want unsafe", got)
	}
}
