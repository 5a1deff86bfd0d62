package analyzer

import (
	"bytes"
	"fmt"
	"go/token"
	"sort"

	"golang.org/x/tools/go/analysis"

	"github.com/cudaforklint/cudaforklint/finding"
	"github.com/cudaforklint/cudaforklint/fixsafety"
	"github.com/cudaforklint/cudaforklint/ruledoc"
)

// converter turns analysis.Diagnostics into findings.
type converter struct {
	fset    *token.FileSet
	read    func(string) ([]byte, error)
	workDir string
}

// abs is the absolute path of a finding's (working-directory-relative) path.
func (c *converter) abs(path string) string { return finding.AbsPath(c.workDir, path) }

func (c *converter) position(pos token.Pos) (string, finding.Position) {
	p := c.fset.PositionFor(pos, false)
	out := finding.Position{Offset: p.Offset, Line: p.Line, Column: p.Column, UTF16Column: p.Column}
	if src, err := c.read(p.Filename); err == nil && p.Offset <= len(src) {
		start := bytes.LastIndexByte(src[:p.Offset], '\n') + 1
		if start > p.Offset-(p.Column-1) {
			// The end of a file that ends with a line break: go/token
			// has no line after that break, and calls it a column past
			// the end of the last line; it is the start of the next
			// line (as LSP, SARIF and ruff count), which an edit there
			// (a fix appending to the file) must say.
			out.Line, out.Column = p.Line+1, 1
		}
		out.UTF16Column = finding.UTF16Len(src[start:p.Offset]) + 1
	}
	return p.Filename, out
}

func (c *converter) location(pos, end token.Pos) finding.Location {
	if !end.IsValid() {
		end = pos
	}
	path, start := c.position(pos)
	_, stop := c.position(end)
	return finding.Location{Path: finding.RelPath(c.workDir, path), Start: start, End: stop}
}

// finding converts a diagnostic of analyzer a, whose result holds the
// applicability of its fixes (a *fixsafety.Table; anything else leaves them
// unsafe). The rule's code, name and severity come from the registry.
func (c *converter) finding(d analysis.Diagnostic, a *analysis.Analyzer, result any) finding.Finding {
	f := finding.Finding{
		Code:     a.Name,
		Severity: finding.Warning,
		Message:  d.Message,
		Location: c.location(d.Pos, d.End),
		URL:      d.URL,
	}
	if doc, ok := ruledoc.ByCode(a.Name); ok {
		f.Name, f.Severity = doc.Name, doc.Severity
		if f.URL == "" {
			f.URL = doc.URL()
		}
	}
	if f.URL == "" {
		f.URL = a.URL
	}
	for _, ri := range d.Related {
		f.Related = append(f.Related, finding.Related{Location: c.location(ri.Pos, ri.End), Message: ri.Message})
	}
	fixes, _ := result.(*fixsafety.Table)
	for _, sf := range d.SuggestedFixes {
		fx := finding.Fix{Message: sf.Message, Applicability: fixes.Of(d, sf)}
		for _, e := range sf.TextEdits {
			fx.Edits = append(fx.Edits, finding.Edit{Location: c.location(e.Pos, e.End), NewText: string(e.NewText)})
		}
		f.Fixes = append(f.Fixes, fx)
	}
	return f
}

// dedupe sorts findings and drops exact duplicates (the same hazard reached
// from two entry points).
func dedupe(fs []finding.Finding) []finding.Finding {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Start.Offset != b.Start.Offset {
			return a.Start.Offset < b.Start.Offset
		}
		if a.Code != b.Code {
			return a.Code < b.Code
		}
		return a.Message < b.Message
	})
	var out []finding.Finding
	seen := map[string]bool{}
	for _, f := range fs {
		k := fmt.Sprintf("%s|%d|%d|%s|%s", f.Path, f.Start.Offset, f.End.Offset, f.Code, f.Message)
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, f)
	}
	return out
}
