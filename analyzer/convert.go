package analyzer

import (
	"bytes"
	"fmt"
	"go/token"
	"sort"
	"strings"
	"unicode/utf8"

	"golang.org/x/tools/go/analysis"

	"github.com/cudaforklint/cudaforklint/finding"
	"github.com/cudaforklint/cudaforklint/fixsafety"
	"github.com/cudaforklint/cudaforklint/noqa"
	"github.com/cudaforklint/cudaforklint/passes/pyprogram"
	"github.com/cudaforklint/cudaforklint/rules"
)

// converter turns analysis.Diagnostics into findings.
type converter struct {
	fset     *token.FileSet
	read     func(string) ([]byte, error)
	workDir  string
	suppress func(path, code string) bool
	prog     *pyprogram.Result
	noqa     map[string]*noqa.Set
}

func (c *converter) position(pos token.Pos) (string, finding.Position) {
	p := c.fset.PositionFor(pos, false)
	out := finding.Position{Offset: p.Offset, Line: p.Line, Column: p.Column, UTF16Column: p.Column}
	if src, err := c.read(p.Filename); err == nil && p.Offset <= len(src) {
		start := bytes.LastIndexByte(src[:p.Offset], '\n') + 1
		out.UTF16Column = utf16Len(src[start:p.Offset]) + 1
	}
	return p.Filename, out
}

// utf16Len counts the UTF-16 code units of UTF-8 text (invalid bytes count
// as one unit each, as a replacement character would).
func utf16Len(b []byte) int {
	n := 0
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
		b = b[size:]
	}
	return n
}

func (c *converter) location(pos, end token.Pos) finding.Location {
	if !end.IsValid() {
		end = pos
	}
	path, start := c.position(pos)
	_, stop := c.position(end)
	return finding.Location{Path: relPath(c.workDir, path), Start: start, End: stop}
}

func (c *converter) finding(d analysis.Diagnostic, r rules.Rule) finding.Finding {
	f := finding.Finding{
		Code:     r.Doc.Code,
		Name:     r.Doc.Name,
		Severity: r.Doc.Severity,
		Message:  d.Message,
		Location: c.location(d.Pos, d.End),
		URL:      d.URL,
	}
	if f.URL == "" {
		f.URL = r.Doc.URL()
	}
	for _, ri := range d.Related {
		f.Related = append(f.Related, finding.Related{Location: c.location(ri.Pos, ri.End), Message: ri.Message})
	}
	for _, sf := range d.SuggestedFixes {
		app, msg := fixsafety.Decode(sf)
		fx := finding.Fix{Message: msg, Applicability: app}
		for _, e := range sf.TextEdits {
			fx.Edits = append(fx.Edits, finding.Edit{Location: c.location(e.Pos, e.End), NewText: string(e.NewText)})
		}
		f.Fixes = append(f.Fixes, fx)
	}
	path := c.fset.PositionFor(d.Pos, false).Filename
	f.Suppressed = c.suppressed(path, f.Code, f.Start.Line)
	return f
}

// suppressed applies per-file ignores and noqa comments.
func (c *converter) suppressed(absPath, code string, line int) bool {
	if c.suppress != nil && c.suppress(absPath, code) {
		return true
	}
	set := c.noqaSet(absPath)
	return set != nil && set.Suppresses(code, line)
}

// noqaSet parses (once) the suppression comments of a file.
func (c *converter) noqaSet(absPath string) *noqa.Set {
	if c.noqa == nil {
		c.noqa = map[string]*noqa.Set{}
	}
	if s, ok := c.noqa[absPath]; ok {
		return s
	}
	var set *noqa.Set
	if c.prog != nil {
		if m, err := c.prog.Prog.Module(absPath); err == nil {
			set = noqa.Parse(m.Src, m.File.Comments)
		}
	}
	c.noqa[absPath] = set
	return set
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

// unusedNoqa reports, for the checked files where CFL100 is enabled, the
// suppression comments that suppressed nothing (after every finding went
// through Suppresses).
func (c *converter) unusedNoqa(prog *pyprogram.Result, enabledFor func(string) bool, enabled func(path, code string) bool) []finding.Finding {
	var out []finding.Finding
	doc := rules.DocCFL100
	for _, m := range prog.Checked() {
		if !enabledFor(m.Path) {
			continue
		}
		set := c.noqaSet(m.Path)
		if set == nil {
			continue
		}
		opts := noqa.UnusedOptions{
			Known:         func(code string) bool { _, ok := rules.ByCode(code); return ok },
			IgnoreBlanket: true,
		}
		if enabled != nil {
			path := m.Path
			opts.Enabled = func(code string) bool { return enabled(path, code) }
		}
		tf := prog.File(m)
		for _, u := range set.Unused(opts) {
			msg := "Unused `noqa` directive"
			var parts []string
			if len(u.Unmatched) > 0 {
				parts = append(parts, "unused: "+codeList(u.Unmatched))
			}
			if len(u.Disabled) > 0 {
				parts = append(parts, "non-enabled: "+codeList(u.Disabled))
			}
			if len(u.Unknown) > 0 {
				parts = append(parts, "unknown: "+codeList(u.Unknown))
			}
			if u.Blanket {
				msg = "Unused blanket `noqa` directive"
			} else if len(parts) > 0 {
				msg += " (" + strings.Join(parts, "; ") + ")"
			}
			f := finding.Finding{
				Code: doc.Code, Name: doc.Name, Severity: doc.Severity, Message: msg, URL: doc.URL(),
				Location: c.location(tf.Pos(u.Span.Start), tf.Pos(u.Span.End)),
			}
			edit := finding.Edit{Location: c.location(tf.Pos(u.Edit.Start), tf.Pos(u.Edit.End)), NewText: u.Edit.NewText}
			f.Fixes = []finding.Fix{{Message: "Remove the unused `noqa` directive", Applicability: finding.Safe, Edits: []finding.Edit{edit}}}
			out = append(out, f)
		}
	}
	return out
}

func codeList(codes []string) string {
	q := make([]string, len(codes))
	for i, c := range codes {
		q[i] = "`" + c + "`"
	}
	return strings.Join(q, ", ")
}

// invalidNoqa turns malformed suppression comments into notices.
func (c *converter) invalidNoqa(prog *pyprogram.Result) []finding.Notice {
	if prog == nil {
		return nil
	}
	var out []finding.Notice
	for _, m := range prog.Checked() {
		set := c.noqaSet(m.Path)
		if set == nil {
			continue
		}
		for _, inv := range set.Invalid() {
			out = append(out, finding.Notice{Path: m.Path, Line: inv.Line, Message: inv.Message})
		}
	}
	return out
}
