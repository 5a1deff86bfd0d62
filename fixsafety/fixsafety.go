// Package fixsafety carries a suggested fix's applicability (ruff's safe,
// unsafe and display-only) from a rule to the driver. analysis.SuggestedFix
// has no field for it, so a rule records each fix it reports in a Table and
// returns the Table as its analyzer's result; the driver asks the Table
// about every fix of the rule's diagnostics.
package fixsafety

import (
	"go/token"
	"reflect"
	"sync"

	"golang.org/x/tools/go/analysis"

	"github.com/cudaforklint/cudaforklint/finding"
)

// Fix is a suggested fix with its applicability.
type Fix struct {
	analysis.SuggestedFix
	Applicability finding.Applicability
}

// Safe is a fix --fix may apply: it keeps the program's behaviour apart from
// removing the hazard.
func Safe(message string, edits ...analysis.TextEdit) Fix {
	return Fix{analysis.SuggestedFix{Message: message, TextEdits: edits}, finding.Safe}
}

// Unsafe is a fix that may change behaviour; applied only with
// --unsafe-fixes.
func Unsafe(message string, edits ...analysis.TextEdit) Fix {
	return Fix{analysis.SuggestedFix{Message: message, TextEdits: edits}, finding.Unsafe}
}

// DisplayOnly is advice shown with the finding and never applied.
func DisplayOnly(message string) Fix {
	return Fix{analysis.SuggestedFix{Message: message}, finding.DisplayOnly}
}

// TableType is the ResultType of an analyzer that returns a *Table.
var TableType = reflect.TypeOf((*Table)(nil))

// Table records the applicability of the fixes one analyzer reported. Safe
// for concurrent use.
type Table struct {
	mu sync.Mutex
	m  map[fixKey]finding.Applicability
}

// fixKey identifies a fix: go/analysis requires fix messages to be unique
// within a diagnostic, and a diagnostic is identified by its range and
// category.
type fixKey struct {
	pos, end token.Pos
	category string
	message  string
}

func keyOf(d *analysis.Diagnostic, f *analysis.SuggestedFix) fixKey {
	return fixKey{d.Pos, d.End, d.Category, f.Message}
}

// Attach appends fixes to d and records their applicability.
func (t *Table) Attach(d *analysis.Diagnostic, fixes ...Fix) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.m == nil {
		t.m = map[fixKey]finding.Applicability{}
	}
	for _, f := range fixes {
		d.SuggestedFixes = append(d.SuggestedFixes, f.SuggestedFix)
		t.m[keyOf(d, &f.SuggestedFix)] = f.Applicability
	}
}

// Of returns the applicability recorded for fix f of diagnostic d. A fix
// the table does not know is unsafe: applying it needs the user's opt-in.
func (t *Table) Of(d analysis.Diagnostic, f analysis.SuggestedFix) finding.Applicability {
	if t == nil {
		return finding.Unsafe
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if a, ok := t.m[keyOf(&d, &f)]; ok {
		return a
	}
	return finding.Unsafe
}
