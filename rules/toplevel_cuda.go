package rules

// The "move it under the main guard" family: CUDA initialized, or
// processes started, while the main module is imported, which the
// forkserver and spawn children do again (model/toplevel.go records the
// hazards: model.ForkserverInherits for CFL002 and CFL006,
// model.ReinitInChildren for CFL004, model.StartAtImport for CFL005).
// Here are their messages, how an import-time initialization is reached
// (importDetail), and the fix they share, moving the reported top-level
// statements under `if __name__ == "__main__":` (guardFix), with the
// def-use checks that withhold it when a name the move binds is read where
// the moved code no longer runs (guardMove).

import (
	"bytes"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/cudaforklint/cudaforklint/fixsafety"
	"github.com/cudaforklint/cudaforklint/model"
	"github.com/cudaforklint/cudaforklint/syntax"
)

// reportForkserver reports a ForkserverInherits hazard as CFL002 or CFL006.
func (r reporter) reportForkserver(z *model.Hazard, code string) {
	at := z.At
	subject, detail := r.initSubject(z)
	// What happens to the children, on which versions.
	children := "children that touch CUDA will fail or hang " + versions(z)
	switch z.Child.Verdict {
	case model.ChildUsesCUDA:
		children = "the children use CUDA and will fail or hang " + versions(z)
		if z.Child.Evidence.Valid() {
			children = fmt.Sprintf("the children use CUDA (%s, %s) and will fail or hang %s", apiName(z.Child.API), r.where(z.Child.Evidence, at), versions(z))
		}
	case model.ChildUnknown:
		children = fmt.Sprintf("%s, and children that touch CUDA will fail or hang %s", z.Child.Reason, versions(z))
	case model.ChildNoCUDA:
		what := "the children never touch CUDA"
		if z.Child.Assumed {
			what = assumedCPU(z.Child)
		}
		children = fmt.Sprintf("%s, so this works %s, but any CUDA use in the children would fail", what, versions(z))
	}
	if z.Start.MethodUnseen != "" {
		children = fmt.Sprintf("%s; if that method is \"forkserver\", %s", z.Start.MethodUnseen, children)
	}
	var msg string
	if z.Via == "__main__" {
		msg = fmt.Sprintf("%s initializes CUDA%s while the main module is imported%s, and the forkserver imports it before forking each child it starts for %s; %s%s. Move it under `if __name__ == \"__main__\":`",
			subject, detail, r.importDetail(z), r.startsRef(z, at), children, r.processGuardNote(z.Init, at))
	} else {
		msg = fmt.Sprintf("%s initializes CUDA%s when `%s` is imported, and `set_forkserver_preload` makes the forkserver import it before forking each child it starts for %s; %s. Initialize CUDA in the children instead",
			subject, detail, z.Via, r.startsRef(z, at), children)
	}
	d := r.diagnostic(code, at, msg, r.processGuardRelated(z.Init), r.initRelated(z.Init), r.startRelated(z.Start), r.moreStartsRelated(z), r.childRelated(z))
	var fixes []fixsafety.Fix
	if z.Via == "__main__" && at.Mod == z.Entry && len(z.Init.Chain) == 0 {
		if f, ok := r.guardFix(at, "Move the top-level CUDA initialization under `if __name__ == \"__main__\":`"); ok {
			fixes = append(fixes, f)
		}
	}
	r.report(d, fixes...)
}

// processGuardNote says, for an initialization under `if
// current_process().name == "MainProcess":`, why that guard does not keep it
// out of the forkserver.
func (r reporter) processGuardNote(init *model.InitRecord, at model.Site) string {
	if !init.ProcessGuard.Valid() {
		return ""
	}
	return fmt.Sprintf("; it runs under `if %s:` (%s), which does not keep it out of the forkserver: the server process is itself named MainProcess when it imports the main module",
		source(init.ProcessGuard), r.where(init.ProcessGuard, at))
}

func (r reporter) processGuardRelated(init *model.InitRecord) []analysis.RelatedInformation {
	if !init.ProcessGuard.Valid() {
		return nil
	}
	return []analysis.RelatedInformation{r.related(init.ProcessGuard, "This guard is true in the forkserver, which is named MainProcess")}
}

// reportReinit reports a ReinitInChildren hazard (CFL004).
func (r reporter) reportReinit(z *model.Hazard, code string) {
	at := z.At
	subject, detail := r.initSubject(z)
	msg := fmt.Sprintf("%s initializes CUDA%s while the main module is imported%s, and every child started at %s re-imports it, initializing CUDA again %s. Move it under `if __name__ == \"__main__\":`",
		subject, detail, r.importDetail(z), r.startsRef(z, at), versions(z))
	d := r.diagnostic(code, at, msg, r.initRelated(z.Init), r.startRelated(z.Start), r.moreStartsRelated(z))
	var fixes []fixsafety.Fix
	if at.Mod == z.Entry && len(z.Init.Chain) == 0 {
		if f, ok := r.guardFix(at, "Move the top-level CUDA initialization under `if __name__ == \"__main__\":`"); ok {
			fixes = append(fixes, f)
		}
	}
	r.report(d, fixes...)
}

// reportStartAtImport reports a StartAtImport hazard (CFL005).
func (r reporter) reportStartAtImport(z *model.Hazard, code string) {
	at := z.At
	msg := fmt.Sprintf("Children are started at %s at import time, outside `if __name__ == \"__main__\":`; each child re-imports this module and stops with RuntimeError while bootstrapping %s. Move the start under the main guard",
		r.startsRef(z, at), versions(z))
	d := r.diagnostic(code, at, msg, r.startRelated(z.Start), r.moreStartsRelated(z))
	var fixes []fixsafety.Fix
	if len(z.Start.Chain) == 0 {
		if f, ok := r.guardFix(at, "Move the process start under `if __name__ == \"__main__\":`"); ok {
			fixes = append(fixes, f)
		}
	}
	r.report(d, fixes...)
}

// importDetail says how an import-time initialization is reached from the
// main module's top level: "" when it is written there, " (in `helper`,
// which it imports at its top level)", " (in `get_model`, called from its
// top level at line 95)".
func (r reporter) importDetail(z *model.Hazard) string {
	if len(z.Init.Chain) == 0 || z.At != z.Init.Site {
		return ""
	}
	first := z.Init.Chain[0]
	if first.Import != "" {
		return fmt.Sprintf(" (in `%s`, which it imports at its top level)", first.Import)
	}
	return fmt.Sprintf(" (in `%s`, called from its top level at %s)", first.Func, r.where(first.Site, z.Init.Site))
}

// guardFix moves the run of plain top-level statements that starts at
// site (assignments and expression statements, up to the next import,
// definition or compound statement) to the start of the module's main
// guard, creating one at the end of the file when there is none. The run
// keeps its order, and so does everything else but the definitions and
// imports it moves past.
//
// The fix is offered only when the def-use analysis (guardMove.blocker)
// shows that nothing outside the guard reads what the run binds: spawn and
// forkserver children import the module without running the guard, so a
// worker function reading a moved name would fail with NameError. Otherwise
// it is display-only and says which name is read where.
func (r reporter) guardFix(site model.Site, message string) (fixsafety.Fix, bool) {
	m := site.Mod
	body := m.File.Body
	idx := -1
	for i, s := range body {
		if s.Pos().Contains(site.Span) {
			idx = i
			break
		}
	}
	if idx < 0 || !plainStatement(body[idx]) {
		return fixsafety.Fix{}, false
	}
	first, last := idx, idx
	for last+1 < len(body) && plainStatement(body[last+1]) {
		last++
	}
	start := lineStart(m.Src, int(body[first].Pos().Start))
	end := lineEnd(m.Src, int(body[last].Pos().End))
	// The run must own its lines: nothing else may share them.
	if strings.TrimSpace(string(m.Src[start:body[first].Pos().Start])) != "" || !onlyComment(m.Src[body[last].Pos().End:end]) {
		return fixsafety.Fix{}, false
	}
	for i := first; i <= last; i++ {
		if hasMultilineString(m.Src, body[i]) {
			return fixsafety.Fix{}, false
		}
	}
	guard := -1 // index in body of the guard the run moves into
	if len(m.Guards) > 0 {
		g := m.Guards[0]
		if !g.Plain() || len(g.Body) == 0 || int(g.If.Start) < end {
			return fixsafety.Fix{}, false
		}
		for i, s := range body {
			if s == syntax.Stmt(g.If) {
				guard = i
			}
		}
		if guard < 0 {
			return fixsafety.Fix{}, false
		}
	}
	mv := guardMove{m: m, first: first, last: last, guard: guard, line: r.lineOf(m)}
	if why := mv.blocker(); why != "" {
		return fixsafety.DisplayOnly(fmt.Sprintf("%s, with the code that reads it: %s", message, why)), true
	}
	eol := lineEnding(m.Src)
	moved := string(m.Src[start:end])
	tf := r.prog.File(m)
	del := analysis.TextEdit{Pos: tf.Pos(start), End: tf.Pos(end)}
	if guard >= 0 {
		g := m.Guards[0]
		at := lineStart(m.Src, int(g.Body[0].Pos().Start))
		indent := string(m.Src[at:g.Body[0].Pos().Start])
		if strings.Trim(indent, " \t") != "" {
			return fixsafety.Fix{}, false
		}
		ins := analysis.TextEdit{Pos: tf.Pos(at), End: tf.Pos(at), NewText: []byte(indentLines(moved, indent, eol))}
		return fixsafety.Unsafe(message, del, ins), true
	}
	tail := ""
	if end == len(m.Src) {
		// The run ends the file: the blank lines before it go too, and
		// the new guard follows what remains after two blank lines.
		for start > 0 && bytes.TrimSpace(m.Src[lineStart(m.Src, start-1):start]) == nil {
			start = lineStart(m.Src, start-1)
		}
		del.Pos = tf.Pos(start)
	} else if len(m.Src) > 0 && m.Src[len(m.Src)-1] != '\n' && m.Src[len(m.Src)-1] != '\r' {
		tail = eol
	}
	text := tail + eol + eol + "if __name__ == \"__main__\":" + eol + indentLines(moved, indentUnit(m.Src), eol)
	eof := tf.Pos(len(m.Src))
	ins := analysis.TextEdit{Pos: eof, End: eof, NewText: []byte(text)}
	return fixsafety.Unsafe(message, del, ins), true
}

// lineOf returns a function giving the line of an offset in m.
func (r reporter) lineOf(m *model.Module) func(off int) int {
	tf := r.prog.File(m)
	return func(off int) int { return tf.Line(tf.Pos(off)) }
}

// guardMove is a planned move of body[first..last] of m to the start of
// body[guard] (the main guard), or into a new guard at the end of the file
// when guard is -1.
type guardMove struct {
	m                  *model.Module
	first, last, guard int
	line               func(off int) int
}

// moved reports whether top-level statement i moves.
func (mv *guardMove) moved(i int) bool { return mv.first <= i && i <= mv.last }

// inGuard reports whether span lies in the body of a main guard after the
// run: code there runs only in the main process, after the moved code.
func (mv *guardMove) inGuard(sp syntax.Span) bool {
	for _, g := range mv.m.Guards {
		if g.If.Start < mv.m.File.Body[mv.last].Pos().End || len(g.Body) == 0 {
			continue
		}
		body := syntax.Span{Start: g.Body[0].Pos().Start, End: g.Body[len(g.Body)-1].Pos().End}
		if body.Contains(sp) {
			return true
		}
	}
	return false
}

// blocker returns why moving the run could break the program, or "": a
// read of a moved name that can run where the moved code no longer does
// (at the top level outside the guard, in a function a child process may
// run, in another module), a name the run reads that the statements it
// moves past rebind, or a statement it moves past whose order with the run
// matters.
func (mv *guardMove) blocker() string {
	m := mv.m
	body := m.File.Body
	if at, ok := m.DynamicGlobalAccess(); ok {
		return fmt.Sprintf("the module reaches its globals without naming them (`%s` at line %d), so what reads them cannot be known", m.Src[at.Start:at.End], mv.line(int(at.Start)))
	}
	if imps := m.ImportedBy(); len(imps) > 0 {
		by := imps[0]
		return fmt.Sprintf("%s imports this module (line %d), and the guarded code does not run there", filepath.Base(by.By.Path), lineIn(by.By.Src, int(by.Span.Start)))
	}
	bound := map[string]bool{}
	for i := mv.first; i <= mv.last; i++ {
		for n := range model.TopLevelBinds(body[i]) {
			bound[n] = true
		}
	}
	reads := m.GlobalReads()
	runs := mv.guardOnly(reads)
	// Name the reads of what the reported statement binds first.
	site := model.TopLevelBinds(body[mv.first])
	ordered := append([]model.GlobalRead(nil), reads...)
	sort.SliceStable(ordered, func(i, j int) bool { return site[ordered[i].Name] && !site[ordered[j].Name] })
	for _, rd := range ordered {
		if !bound[rd.Name] || mv.moved(rd.Stmt) || mv.inGuard(rd.Span) {
			continue
		}
		s := body[rd.Stmt]
		line := mv.line(int(rd.Span.Start))
		switch s := s.(type) {
		case *syntax.FunctionDef:
			if !rd.Deferred {
				if rd.Stmt < mv.first {
					continue
				}
				return fmt.Sprintf("`%s` is read at line %d when `%s` is defined, before the guard runs", rd.Name, line, s.Name)
			}
			if why := runs[rd.Stmt]; why != "" {
				return fmt.Sprintf("`%s` is read by `%s` (line %d), %s", rd.Name, rd.Func, line, why)
			}
		case *syntax.ClassDef:
			if !rd.Deferred {
				if rd.Stmt < mv.first {
					continue
				}
				return fmt.Sprintf("`%s` is read at line %d when class `%s` is defined, before the guard runs", rd.Name, line, s.Name)
			}
			return fmt.Sprintf("`%s` is read by `%s` (line %d), and objects of `%s` can be sent to child processes, which run its methods without the guard", rd.Name, rd.Func, line, s.Name)
		default:
			if rd.Deferred {
				return fmt.Sprintf("`%s` is read by `%s` at line %d, which may run outside the guard", rd.Name, rd.Func, line)
			}
			if rd.Stmt < mv.first {
				continue
			}
			return fmt.Sprintf("`%s` is read at line %d, outside the guard", rd.Name, line)
		}
	}
	return mv.reorderBlocker(reads)
}

// reorderBlocker returns why the run may not move past the statements
// between it and the guard (or the end of the file): they must be
// definitions, imports or assignments without calls, and must not bind a
// name the run reads.
func (mv *guardMove) reorderBlocker(reads []model.GlobalRead) string {
	body := mv.m.File.Body
	end := len(body)
	if mv.guard >= 0 {
		end = mv.guard
	}
	runReads := map[string]bool{}
	for _, rd := range reads {
		if mv.moved(rd.Stmt) {
			runReads[rd.Name] = true
		}
	}
	for i := mv.last + 1; i < end; i++ {
		s := body[i]
		line := mv.line(int(s.Pos().Start))
		for n := range model.TopLevelBinds(s) {
			if runReads[n] {
				return fmt.Sprintf("`%s` is bound again at line %d, which the moved code would then run after", n, line)
			}
		}
		if !declarative(s) {
			return fmt.Sprintf("it would move past the statement at line %d, changing the order in which they run", line)
		}
	}
	return ""
}

// declarative reports whether a top-level statement may run before the
// moved code instead of after it: a definition, an import, a docstring or
// pass, or an assignment that calls nothing.
func declarative(s syntax.Stmt) bool {
	switch s := s.(type) {
	case *syntax.FunctionDef, *syntax.ClassDef, *syntax.Import, *syntax.ImportFrom:
		return true
	case *syntax.ExprStmt:
		_, doc := s.X.(*syntax.String)
		return doc
	case *syntax.OtherStmt:
		return s.Kind == "pass_statement"
	case *syntax.Assign:
		calls := false
		syntax.Inspect(s, func(n syntax.Node) bool {
			switch n.(type) {
			case *syntax.Call, *syntax.Await, *syntax.Opaque:
				calls = true
			}
			return !calls
		})
		return !calls
	}
	return false
}

// guardOnly decides, for each top-level def, whether it can run only in
// the main process after the guard started: every use of its name is a
// call from the guard's body, from the moved run, or from another such
// function. It maps the def's statement index to "" when so, and otherwise
// to why not (for the message). Undecorated defs only; a function used as a
// value (a Process target, a pool's function) may run in a child.
func (mv *guardMove) guardOnly(reads []model.GlobalRead) map[int]string {
	body := mv.m.File.Body
	defs := map[string]int{} // name → statement index, for names bound once by a def
	count := map[string]int{}
	for i, s := range body {
		for n := range model.TopLevelBinds(s) {
			count[n]++
		}
		if d, ok := s.(*syntax.FunctionDef); ok {
			defs[d.Name] = i
		}
	}
	why := map[int]string{}
	for i, s := range body {
		d, ok := s.(*syntax.FunctionDef)
		if !ok {
			continue
		}
		switch {
		case count[d.Name] > 1:
			why[i] = "which is bound more than once, so what calls it cannot be told"
		case len(d.Decorators) > 0:
			why[i] = fmt.Sprintf("which is decorated (line %d) and may run without the guard", mv.line(int(d.Span.Start)))
		default:
			why[i] = ""
		}
	}
	for changed := true; changed; {
		changed = false
		for _, rd := range reads {
			i, isDef := defs[rd.Name]
			if !isDef || why[i] != "" {
				continue
			}
			if reason := mv.callBlocker(rd, i, defs, why); reason != "" {
				why[i] = reason
				changed = true
			}
		}
	}
	return why
}

// callBlocker returns why the use rd of the def at body[def] lets it run
// outside the guard, or "" when it does not (given what why says so far
// about the other defs).
func (mv *guardMove) callBlocker(rd model.GlobalRead, def int, defs map[string]int, why map[int]string) string {
	line := mv.line(int(rd.Span.Start))
	switch {
	case !rd.Called:
		return fmt.Sprintf("which may run in a child process without the guard (it is passed as a value at line %d)", line)
	case mv.inGuard(rd.Span), mv.moved(rd.Stmt) && !rd.Deferred, rd.Stmt == def:
		return ""
	case !rd.Deferred:
		return fmt.Sprintf("which is called at line %d, outside the guard", line)
	}
	if caller, ok := mv.m.File.Body[rd.Stmt].(*syntax.FunctionDef); ok && defs[caller.Name] == rd.Stmt {
		if w := why[rd.Stmt]; w != "" {
			return fmt.Sprintf("which `%s` calls (line %d), %s", caller.Name, line, w)
		}
		return ""
	}
	return fmt.Sprintf("which is called at line %d by code that may run without the guard", line)
}

func plainStatement(s syntax.Stmt) bool {
	switch s.(type) {
	case *syntax.Assign, *syntax.ExprStmt:
		if e, ok := s.(*syntax.ExprStmt); ok {
			if _, isDoc := e.X.(*syntax.String); isDoc {
				return false
			}
		}
		return true
	}
	return false
}

func hasMultilineString(src []byte, s syntax.Stmt) bool {
	found := false
	syntax.Inspect(s, func(n syntax.Node) bool {
		if st, ok := n.(*syntax.String); ok && bytes.ContainsAny(src[st.Start:st.End], "\r\n") {
			found = true
		}
		return !found
	})
	return found
}

// indentLines indents every non-blank line of text, which ends each line
// with the file's line break eol (added to a last line without one).
func indentLines(text, indent, eol string) string {
	var b strings.Builder
	for _, l := range splitLines(text) {
		if strings.TrimSpace(l) == "" {
			b.WriteString(l)
			continue
		}
		b.WriteString(indent + l)
	}
	s := b.String()
	if !strings.HasSuffix(s, "\n") && !strings.HasSuffix(s, "\r") {
		s += eol
	}
	return s
}
