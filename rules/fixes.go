package rules

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

// Fixes are built here so that every rule offers the same ones the same way.
// All of them change what the program does at run time (that is the point),
// so they are unsafe in ruff's sense: --fix applies them only with
// --unsafe-fixes. A fix that the module's def-use facts (model/defuse.go)
// say could break the program (a NameError in a child, a function a spawn
// child cannot import) is display-only instead, its message saying what is
// in the way (docs/fixes.md). Each edit keeps the file parseable; the fixer
// re-parses and rolls back otherwise.

// spawnFix replaces a "fork" start-method literal with "spawn". A spawn
// child starts a new interpreter, imports the main module without running
// its guard, and unpickles the function it runs; the fix is display-only
// when that would break the program (spawnBlocker). It is not offered when
// the children run code defined in a notebook: spawn children cannot find
// it (CFL007).
func (r reporter) spawnFix(z *model.Hazard) (fixsafety.Fix, bool) {
	rec := z.Start
	lit := rec.MethodLit
	if !lit.Valid() || rec.Method.String() != "fork" || len(model.NotebookTargets(rec.Obj)) > 0 {
		return fixsafety.Fix{}, false
	}
	text := string(lit.Mod.Src[lit.Span.Start:lit.Span.End])
	i := strings.Index(text, "fork")
	if i < 0 || strings.Count(text, "fork") != 1 {
		return fixsafety.Fix{}, false
	}
	const message = `Use the "spawn" start method`
	if why := spawnBlocker(z); why != "" {
		return fixsafety.DisplayOnly(message + ", once " + why), true
	}
	pos, end := r.span(lit)
	edit := analysis.TextEdit{Pos: pos, End: end, NewText: []byte(text[:i] + "spawn" + text[i+len("fork"):])}
	return fixsafety.Unsafe(message, edit), true
}

// spawnBlocker returns what must change before the children can be
// spawned instead of forked, or "": the process start must run under the
// main guard (a spawn child imports the main module and would start it
// again), and each function a child runs must be importable by name (no
// lambda, no nested function, nothing defined under the guard) and must
// not read a global that only the main guard binds.
func spawnBlocker(z *model.Hazard) string {
	// A main module that spawn children do not import (a notebook's kernel,
	// a package's __main__.py) does not need its start under the guard.
	if z.EntryFunc == nil && z.Entry != nil && z.Entry.ReimportedByChildren() {
		at := z.Start.Site
		if len(z.Start.Chain) > 0 {
			at = z.Start.Chain[0].Site
		}
		if at.Mod == z.Entry && !underGuard(z.Entry, at.Span) {
			return fmt.Sprintf("the start at line %d runs under `if __name__ == \"__main__\":` (spawn children import this module and would start it again)", lineIn(at.Mod.Src, int(at.Span.Start)))
		}
	}
	var targets []model.Target
	for _, rec := range append([]*model.StartRecord{z.Start}, z.MoreStarts...) {
		targets = append(targets, rec.Obj.Targets...)
	}
	targets = append(targets, z.Child.Targets...)
	for _, t := range targets {
		if t.Func == nil {
			continue // a library function: importable
		}
		if why := spawnTargetBlocker(t.Func); why != "" {
			return why
		}
	}
	return ""
}

// underGuard reports whether sp lies in the body of one of m's main
// guards.
func underGuard(m *model.Module, sp syntax.Span) bool {
	for _, g := range m.Guards {
		if len(g.Body) > 0 && (syntax.Span{Start: g.Body[0].Pos().Start, End: g.Body[len(g.Body)-1].Pos().End}).Contains(sp) {
			return true
		}
	}
	return false
}

// spawnTargetBlocker returns why a spawn child could not run f, or "".
func spawnTargetBlocker(f *model.Function) string {
	m := f.Module
	if f.Lambda != nil {
		return fmt.Sprintf("the child runs a function defined at the top level: a spawn child cannot receive the lambda at line %d", lineIn(m.Src, int(f.Lambda.Start)))
	}
	if strings.Contains(f.QualName, "<locals>") {
		return fmt.Sprintf("`%s` is defined at the top level: a spawn child cannot import a function defined inside another", f.QualName)
	}
	top := -1
	for i, s := range m.File.Body {
		if s.Pos().Contains(f.Span()) {
			top = i
		}
	}
	if top < 0 {
		return ""
	}
	switch m.File.Body[top].(type) {
	case *syntax.FunctionDef, *syntax.ClassDef:
	default:
		return fmt.Sprintf("`%s` is defined at the top level, not inside the statement at line %d, which a spawn child does not run", f.QualName, lineIn(m.Src, int(m.File.Body[top].Pos().Start)))
	}
	guarded := guardOnlyGlobals(m)
	if len(guarded) == 0 {
		return ""
	}
	reads := m.GlobalReads()
	defs := map[string]int{}
	for i, s := range m.File.Body {
		if d, ok := s.(*syntax.FunctionDef); ok {
			defs[d.Name] = i
		}
	}
	// The statements whose code the child may run: f's, and those of the
	// top-level functions it calls, transitively.
	runs := map[int]bool{top: true}
	for work := []int{top}; len(work) > 0; {
		i := work[0]
		work = work[1:]
		for _, rd := range reads {
			if rd.Stmt != i || !rd.Deferred {
				continue
			}
			if line, ok := guarded[rd.Name]; ok {
				who := rd.Func
				return fmt.Sprintf("`%s` is bound at the top level: only the main guard binds it (line %d), and `%s` reads it (line %d)", rd.Name, line, who, lineIn(m.Src, int(rd.Span.Start)))
			}
			if j, ok := defs[rd.Name]; ok && rd.Called && !runs[j] {
				runs[j] = true
				work = append(work, j)
			}
		}
	}
	return ""
}

// guardOnlyGlobals returns the module-level names that only the main
// guards bind (or functions, through `global`), with the line of a
// binding: a spawn child, which imports the module without running the
// guards, does not have them.
func guardOnlyGlobals(m *model.Module) map[string]int {
	outside := map[string]bool{}
	guards := map[syntax.Stmt]bool{}
	for _, g := range m.Guards {
		guards[g.If] = true
	}
	out := map[string]int{}
	for _, s := range m.File.Body {
		if guards[s] {
			continue
		}
		for n := range model.TopLevelBinds(s) {
			outside[n] = true
		}
	}
	for _, g := range m.Guards {
		for _, s := range g.Body {
			for n := range model.TopLevelBinds(s) {
				if !outside[n] {
					out[n] = lineIn(m.Src, int(s.Pos().Start))
				}
			}
		}
	}
	for _, f := range m.Funcs {
		if f.Def == nil {
			continue
		}
		syntax.Inspect(f.Def, func(n syntax.Node) bool {
			if g, ok := n.(*syntax.Global); ok && !g.Nonlocal {
				for _, name := range g.Names {
					if !outside[name] {
						out[name] = lineIn(m.Src, int(g.Start))
					}
				}
			}
			return true
		})
	}
	return out
}

// nvmlFix makes torch.cuda.is_available() ask NVML instead of initializing
// the driver, by setting PYTORCH_NVML_BASED_CUDA_CHECK=1 at the top of the
// module (after its docstring and __future__ imports).
func (r reporter) nvmlFix(init *model.InitRecord) (fixsafety.Fix, bool) {
	if init.API != "torch.cuda.is_available()" {
		return fixsafety.Fix{}, false
	}
	m := init.Site.Mod
	at := afterImportOS(m, insertionPoint(m))
	eol := lineEnding(m.Src)
	var text strings.Builder
	if at == len(m.Src) && at > 0 && m.Src[at-1] != '\n' && m.Src[at-1] != '\r' {
		text.WriteString(eol)
	}
	if !importsOSBefore(m, at) {
		text.WriteString("import os" + eol)
	}
	text.WriteString("os.environ.setdefault(\"PYTORCH_NVML_BASED_CUDA_CHECK\", \"1\")  # torch.cuda.is_available() asks NVML, not the driver" + eol)
	pos := r.prog.File(m).Pos(at)
	return fixsafety.Unsafe("Set PYTORCH_NVML_BASED_CUDA_CHECK=1 so `torch.cuda.is_available()` does not initialize CUDA",
		analysis.TextEdit{Pos: pos, End: pos, NewText: []byte(text.String())}), true
}

// afterImportOS moves the insertion point at past the module's opening
// imports when they include `import os` (on lines of their own), so that
// the inserted line can use it without importing it again.
func afterImportOS(m *model.Module, at int) int {
	for _, s := range m.File.Body {
		if int(s.Pos().Start) < at {
			continue
		}
		switch s := s.(type) {
		case *syntax.Import:
			for _, a := range s.Names {
				if a.Name == "os" && a.AsName == "" {
					if end := lineEnd(m.Src, int(s.End)); onlyComment(m.Src[s.End:end]) {
						return end
					}
					return at
				}
			}
			continue
		case *syntax.ImportFrom:
			continue
		}
		break
	}
	return at
}

// importsOSBefore reports whether the module binds os with `import os` at
// its top level before offset at: the inserted line may use it only then
// (another `import os` is harmless).
func importsOSBefore(m *model.Module, at int) bool {
	for _, b := range m.Scope.Bindings["os"] {
		if b.Kind == model.BindImport && b.Import() == "os" && b.Scope == m.Scope && int(b.Span.End) <= at {
			return true
		}
	}
	return false
}

// insertionPoint is the offset of the start of the module's first
// statement, or of the line after its docstring and __future__ imports:
// after the byte order mark, the #! line, the coding declaration and any
// comments that open the file, where CPython needs them.
func insertionPoint(m *model.Module) int {
	at := len(m.Src)
	if len(m.File.Body) > 0 {
		at = lineStart(m.Src, int(m.File.Body[0].Pos().Start))
	} else if bytes.HasPrefix(m.Src, bom) {
		at = len(bom)
	}
	for i, s := range m.File.Body {
		switch s := s.(type) {
		case *syntax.ExprStmt:
			if _, ok := s.X.(*syntax.String); ok && i == 0 {
				at = lineEnd(m.Src, int(s.End))
				continue
			}
		case *syntax.ImportFrom:
			if s.Module == "__future__" {
				at = lineEnd(m.Src, int(s.End))
				continue
			}
		}
		break
	}
	return at
}

// bom is the UTF-8 byte order mark: code goes after it.
var bom = []byte("\xef\xbb\xbf")

// lineStart is the offset of the start of the line holding off (after a
// byte order mark on the first line).
func lineStart(src []byte, off int) int {
	start := bytes.LastIndexAny(src[:off], "\r\n") + 1
	if start == 0 && bytes.HasPrefix(src, bom) && off >= len(bom) {
		start = len(bom)
	}
	return start
}

// lineEnd is the offset just after the line break ending the line that
// holds off (\n, \r\n or \r), or the end of src.
func lineEnd(src []byte, off int) int {
	i := bytes.IndexAny(src[off:], "\r\n")
	if i < 0 {
		return len(src)
	}
	i += off
	if src[i] == '\r' && i+1 < len(src) && src[i+1] == '\n' {
		i++
	}
	return i + 1
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

// lineIn returns the 1-based line of off in src.
func lineIn(src []byte, off int) int {
	return bytes.Count(src[:off], []byte{'\n'}) + 1
}

// lineEnding returns the file's line break, taken from its first line:
// "\r\n", "\r" or "\n" (also for a file without one).
func lineEnding(src []byte) string {
	i := bytes.IndexAny(src, "\r\n")
	switch {
	case i < 0 || src[i] == '\n':
		return "\n"
	case i+1 < len(src) && src[i+1] == '\n':
		return "\r\n"
	}
	return "\r"
}

// indentUnit is the indentation of the file's first indented line, or four
// spaces: a new block indents the way the file does.
func indentUnit(src []byte) string {
	for _, l := range splitLines(string(src)) {
		line := []byte(strings.TrimRight(l, "\r\n"))
		trimmed := bytes.TrimLeft(line, " \t")
		if len(trimmed) == len(line) || len(bytes.TrimSpace(trimmed)) == 0 || trimmed[0] == '#' {
			continue
		}
		return string(line[:len(line)-len(trimmed)])
	}
	return "    "
}

// onlyComment reports whether b (the rest of a line) holds nothing but
// white space and a comment.
func onlyComment(b []byte) bool {
	t := bytes.TrimSpace(b)
	return len(t) == 0 || t[0] == '#'
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

// splitLines splits text after each line break (\r\n, \n or a lone \r),
// keeping the breaks; a last line without one is kept.
func splitLines(text string) []string {
	var out []string
	for len(text) > 0 {
		i := strings.IndexAny(text, "\r\n")
		if i < 0 {
			out = append(out, text)
			break
		}
		if text[i] == '\r' && i+1 < len(text) && text[i+1] == '\n' {
			i++
		}
		out = append(out, text[:i+1])
		text = text[i+1:]
	}
	return out
}
