package output

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/cudaforklint/cudaforklint/finding"
)

// fullPrinter writes ruff's "full" format: a header per finding, the source
// line with carets under the span, the related locations as notes, the fix
// as help, then a summary.
//
//	hazard.py:6:1: CFL001 [*] Process forked after CUDA was initialized
//	  |
//	6 | os.fork()
//	  | ^^^^^^^^^ CFL001
//	  |
//	  = note: hazard.py:4:1: CUDA is initialized here
//	  = help: Use the `spawn` start method
//
//	Checked 1 file. Found 1 error.
//	[*] 1 fixable with the `--fix` option.
//
// Syntax errors come after the findings, as ruff shows them:
//
//	broken.py:1:7: SyntaxError: cannot parse this code (the rest of the file was checked)
type fullPrinter struct {
	c   *palette
	src *sources
}

func (p *fullPrinter) print(w io.Writer, r *Report, opt Options) error {
	p.c = newPalette(opt.Color)
	p.src = newSources(r)
	bw := bufio.NewWriter(w)
	shown := visible(r)
	for i := range shown {
		p.finding(bw, &shown[i], opt)
	}
	for _, e := range r.SyntaxErrors {
		p.syntaxError(bw, e)
	}
	if !opt.Quiet {
		p.summary(bw, r, shown, opt)
	}
	return bw.Flush()
}

func (p *fullPrinter) codeColor(s finding.Severity) func(a ...any) string {
	switch s {
	case finding.Error:
		return p.c.errCode.Sprint
	case finding.Warning:
		return p.c.warnCode.Sprint
	}
	return p.c.infoCode.Sprint
}

func (p *fullPrinter) finding(w *bufio.Writer, f *finding.Finding, opt Options) {
	code := p.codeColor(f.Severity)
	fmt.Fprintf(w, "%s: %s ", p.c.path.Sprint(p.src.where(f.Location, f.Start)), code(f.Code))
	if fixable(f, opt.UnsafeFixes) {
		w.WriteString(p.c.fixMark.Sprint("[*]") + " ")
	}
	w.WriteString(f.Message)
	if f.Suppressed {
		w.WriteString(p.c.dim.Sprint(" (suppressed)"))
	}
	w.WriteByte('\n')

	gutterW := len(strconv.Itoa(f.Start.Line))
	pad := strings.Repeat(" ", gutterW)
	bar := p.c.gutter.Sprint("|")
	if line, ok := p.src.lineOf(f.Location, f.Start); ok {
		fmt.Fprintf(w, "%s %s\n", pad, bar)
		fmt.Fprintf(w, "%s %s %s\n", p.c.gutter.Sprint(strconv.Itoa(f.Start.Line)), bar, strings.TrimRight(expandTabs(line), " "))
		startB := clamp(f.Start.Column-1, 0, len(line))
		endB := len(line)
		if f.End.Line == f.Start.Line {
			endB = clamp(f.End.Column-1, startB, len(line))
		}
		lead := displayWidth(line[:startB])
		n := displayWidth(line[startB:endB])
		if n == 0 {
			n = 1
		}
		fmt.Fprintf(w, "%s %s %s%s\n", pad, bar, strings.Repeat(" ", lead), p.c.caret.Sprint(strings.Repeat("^", n)+" "+f.Code))
		if f.End.Line > f.Start.Line {
			fmt.Fprintf(w, "%s %s %s\n", pad, bar, p.c.dim.Sprint("..."))
		}
		fmt.Fprintf(w, "%s %s\n", pad, bar)
	}
	eq := pad + " " + p.c.gutter.Sprint("=")
	for i := range f.Related {
		rel := &f.Related[i]
		if sameSpan(f, rel) {
			continue
		}
		fmt.Fprintf(w, "%s %s %s: %s\n", eq, p.c.note.Sprint("note:"), p.src.where(rel.Location, rel.Start), rel.Message)
	}
	for i, fx := range f.Fixes {
		label := "help:"
		msg := fx.Message
		if fx.Applicability == finding.Unsafe {
			msg += " (unsafe fix)"
		} else if fx.Applicability == finding.DisplayOnly {
			msg += " (suggestion; never applied automatically)"
		}
		if i > 0 {
			msg = "or: " + msg
		}
		fmt.Fprintf(w, "%s %s %s\n", eq, p.c.help.Sprint(label), msg)
	}
	if f.Status != "" {
		fmt.Fprintf(w, "%s %s %s\n", eq, p.c.note.Sprint("verify:"), f.Status)
	}
	for _, e := range f.Evidence {
		fmt.Fprintf(w, "%s %s %s\n", eq, p.c.note.Sprint("evidence:"), e)
	}
	w.WriteByte('\n')
}

func clamp(x, lo, hi int) int {
	if x < lo {
		return lo
	}
	if x > hi {
		return hi
	}
	return x
}

// syntaxError writes a syntax error like a finding: its position, the
// message, the line with a caret.
func (p *fullPrinter) syntaxError(w *bufio.Writer, e finding.SyntaxError) {
	fmt.Fprintf(w, "%s: %s\n", p.c.path.Sprint(e.Where()), p.c.errCode.Sprint(e.Message))
	line, ok := p.src.line(e.Path, e.Line)
	if !ok || e.Cell > 0 {
		w.WriteByte('\n')
		return
	}
	pad := strings.Repeat(" ", len(strconv.Itoa(e.Line)))
	bar := p.c.gutter.Sprint("|")
	lead := 0
	if e.Column > 1 {
		n := 0
		for i := range string(line) {
			if n == e.Column-1 {
				lead = displayWidth(line[:i])
				break
			}
			n++
		}
		if n < e.Column-1 || lead == 0 && n > 0 {
			lead = displayWidth(line)
		}
	}
	fmt.Fprintf(w, "%s %s\n", pad, bar)
	fmt.Fprintf(w, "%s %s %s\n", p.c.gutter.Sprint(strconv.Itoa(e.Line)), bar, strings.TrimRight(expandTabs(line), " "))
	fmt.Fprintf(w, "%s %s %s%s\n", pad, bar, strings.Repeat(" ", lead), p.c.caret.Sprint("^"))
	fmt.Fprintf(w, "%s %s\n\n", pad, bar)
}

// summary writes the closing lines, in ruff's words
// (crates/ruff/src/printer.rs) with the number of files checked and the
// findings counted by severity: "Checked 12 files. Found 2 errors and 3
// warnings." Syntax errors count as errors. A run with tool errors never
// says "All checks passed!": it points to the problems on standard error.
func (p *fullPrinter) summary(w *bufio.Writer, r *Report, shown []finding.Finding, opt Options) {
	errs, warns := len(r.SyntaxErrors), 0
	safe := 0
	for i := range shown {
		f := &shown[i]
		if f.Suppressed {
			continue
		}
		if f.Severity == finding.Error {
			errs++
		} else {
			warns++
		}
		if fixable(f, opt.UnsafeFixes) {
			safe++
		}
	}
	var line strings.Builder
	if r.Files > 0 || !r.Verified {
		fmt.Fprintf(&line, "Checked %d %s.", r.Files, Plural(r.Files, "file", "files"))
	}
	if r.Fixed > 0 {
		fmt.Fprintf(&line, " Fixed %d %s.", r.Fixed, Plural(r.Fixed, "finding", "findings"))
	}
	switch {
	case errs+warns > 0:
		line.WriteString(" Found " + counted(errs, warns) + ".")
	case len(r.Errors) > 0:
		line.WriteString(" No findings.")
	case r.Files > 0 || r.Verified:
		line.WriteString(" " + p.c.bold.Sprint("All checks passed!"))
	}
	if n := len(r.Errors); n > 0 {
		fmt.Fprintf(&line, " %d %s on standard error.", n, Plural(n, "problem is listed", "problems are listed"))
	}
	fmt.Fprintln(w, strings.TrimPrefix(line.String(), " "))
	hint := HiddenFixes(shown, opt)
	switch {
	case safe > 0 && hint != "":
		fmt.Fprintf(w, "%s %d fixable with the `--fix` option (%s).\n", p.c.fixMark.Sprint("[*]"), safe, hint)
	case safe > 0:
		fmt.Fprintf(w, "%s %d fixable with the `--fix` option.\n", p.c.fixMark.Sprint("[*]"), safe)
	case hint != "":
		fmt.Fprintf(w, "No fixes available (%s).\n", hint)
	}
}

// counted says "2 errors and 3 warnings", "1 error", "2 warnings".
func counted(errs, warns int) string {
	e := fmt.Sprintf("%d %s", errs, Plural(errs, "error", "errors"))
	w := fmt.Sprintf("%d %s", warns, Plural(warns, "warning", "warnings"))
	switch {
	case warns == 0:
		return e
	case errs == 0:
		return w
	}
	return e + " and " + w
}
