// Package fixsafety carries a suggested fix's applicability (ruff's safe,
// unsafe and display-only) through analysis.SuggestedFix, which has no field
// for it: rules build fixes with Safe, Unsafe or DisplayOnly, and the driver
// reads them back with Decode. The marker lives at the end of the fix
// message and never reaches users.
package fixsafety

import (
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/cudaforklint/cudaforklint/finding"
)

const (
	unsafeMark  = "\x00unsafe"
	displayMark = "\x00display-only"
)

// Safe is a fix --fix may apply: it keeps the program's behaviour apart from
// removing the hazard.
func Safe(message string, edits ...analysis.TextEdit) analysis.SuggestedFix {
	return analysis.SuggestedFix{Message: message, TextEdits: edits}
}

// Unsafe is a fix that may change behaviour; applied only with
// --unsafe-fixes.
func Unsafe(message string, edits ...analysis.TextEdit) analysis.SuggestedFix {
	return analysis.SuggestedFix{Message: message + unsafeMark, TextEdits: edits}
}

// DisplayOnly is advice shown with the finding and never applied.
func DisplayOnly(message string) analysis.SuggestedFix {
	return analysis.SuggestedFix{Message: message + displayMark}
}

// Decode returns a fix's applicability and its message without the marker.
func Decode(f analysis.SuggestedFix) (finding.Applicability, string) {
	switch {
	case strings.HasSuffix(f.Message, unsafeMark):
		return finding.Unsafe, strings.TrimSuffix(f.Message, unsafeMark)
	case strings.HasSuffix(f.Message, displayMark):
		return finding.DisplayOnly, strings.TrimSuffix(f.Message, displayMark)
	}
	return finding.Safe, f.Message
}
