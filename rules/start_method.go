package rules

// The "use spawn" family: CFL001 and CFL003 report a model.ForkAfterInit
// hazard (a process forked after CUDA was initialized in it; recorded by
// the fork check in model/simulate.go, the start method decided in
// model/startmethod.go). Here are what they share: the fork-after-init
// message, the phrases that name a process start and its start method
// (which every rule's message uses), and the two fixes with what blocks
// them: switching the start method to "spawn" (spawnFix, spawnBlocker)
// and making torch.cuda.is_available() ask NVML (nvmlFix).

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/cudaforklint/cudaforklint/fixsafety"
	"github.com/cudaforklint/cudaforklint/model"
	"github.com/cudaforklint/cudaforklint/syntax"
)

// reportForkAfterInit reports a ForkAfterInit hazard as CFL001 or CFL003.
func (r reporter) reportForkAfterInit(z *model.Hazard, code string) {
	at := z.At
	subject, detail := r.initSubject(z)
	start := r.startsRef(z, at) + loopNote(z)
	var msg string
	switch {
	case z.Start.MethodUnseen != "":
		// The fork rests on the default start method, which may not be the
		// one the program uses: say so first, then what a fork would do.
		var children string
		switch z.Child.Verdict {
		case model.ChildUsesCUDA:
			children = fmt.Sprintf("the child uses CUDA (%s) and will fail or hang %s", r.childUse(z, at), versions(z))
		case model.ChildUnknown:
			children = fmt.Sprintf("%s, and it fails or hangs %s if it touches CUDA", z.Child.Reason, versions(z))
		default:
			children = fmt.Sprintf("the children never touch CUDA, so this works %s", versions(z))
		}
		msg = fmt.Sprintf("%s initializes CUDA%s before the process starts at %s; %s. If that method is \"fork\", %s. Choose the \"spawn\" or \"forkserver\" start method%s, or initialize CUDA after the start",
			subject, detail, start, z.Start.MethodUnseen, children, r.howToSwitch(z.Start, at))
	case z.Child.Verdict == model.ChildUsesCUDA:
		msg = fmt.Sprintf("%s initializes CUDA%s before the process forks at %s; the child uses CUDA (%s) and will fail or hang %s. Use the \"spawn\" or \"forkserver\" start method%s, or initialize CUDA after the fork",
			subject, detail, start, r.childUse(z, at), versions(z), r.howToSwitch(z.Start, at))
	case z.Child.Verdict == model.ChildUnknown:
		msg = fmt.Sprintf("%s initializes CUDA%s before the process forks at %s; %s, and it fails or hangs %s if it touches CUDA. Use the \"spawn\" or \"forkserver\" start method%s, or initialize CUDA after the fork",
			subject, detail, start, z.Child.Reason, versions(z), r.howToSwitch(z.Start, at))
	default:
		what := "the children never touch CUDA"
		if z.Child.Assumed {
			what = assumedCPU(z.Child)
		}
		msg = fmt.Sprintf("%s initializes CUDA%s before the process forks at %s; %s, so this works %s, but any CUDA use in the children would fail. Prefer the \"spawn\" start method%s, or initialize CUDA after the fork",
			subject, detail, start, what, versions(z), r.howToSwitch(z.Start, at))
	}
	d := r.diagnostic(code, at, msg, r.initRelated(z.Init), r.startRelated(z.Start), r.moreStartsRelated(z), r.childRelated(z))
	var fixes []fixsafety.Fix
	if f, ok := r.spawnFix(z); ok {
		fixes = append(fixes, f)
	}
	if f, ok := r.nvmlFix(z); ok {
		fixes = append(fixes, f)
	}
	r.report(d, fixes...)
}

// childUse names where a child uses CUDA: "`torch.randn()`, line 12", or
// "it" where the evidence has no place.
func (r reporter) childUse(z *model.Hazard, at model.Site) string {
	if !z.Child.Evidence.Valid() {
		return "it"
	}
	return fmt.Sprintf("%s, %s", apiName(z.Child.API), r.where(z.Child.Evidence, at))
}

// howToSwitch says, for a message, how the source gives a start another
// method: " (`DataLoader(..., multiprocessing_context=\"spawn\")`)", or ""
// for a start that has none (os.fork) or is started by a library.
func (r reporter) howToSwitch(rec *model.StartRecord, from model.Site) string {
	how := ""
	switch {
	case rec.MethodLit.Valid() && rec.Explicit:
		how = "`\"spawn\"` in place of the `\"fork\"` at " + r.where(rec.MethodLit, from)
	case rec.Obj.Kind == model.ObjPool:
		how = "`multiprocessing.get_context(\"spawn\").Pool(...)`"
	case rec.Obj.Kind == model.ObjProcess:
		how = "`multiprocessing.get_context(\"spawn\").Process(...)`"
	case rec.Obj.Kind == model.ObjExecutor:
		how = "`ProcessPoolExecutor(..., mp_context=multiprocessing.get_context(\"spawn\"))`"
	case rec.Obj.Kind == model.ObjLoader:
		how = "`DataLoader(..., multiprocessing_context=\"spawn\")`"
	case rec.Obj.Kind == model.ObjSpawn:
		how = "`start_method=\"spawn\"`"
	default:
		return ""
	}
	return " (" + how + ")"
}

// kindPhrase names what a start creates.
func kindPhrase(o *model.Object) string {
	switch o.Kind {
	case model.ObjProcess:
		return "a Process"
	case model.ObjPool:
		return "Pool workers"
	case model.ObjExecutor:
		return "ProcessPoolExecutor workers"
	case model.ObjLoader:
		return "DataLoader workers"
	case model.ObjFork:
		return "os.fork"
	case model.ObjManager:
		return "a Manager process"
	case model.ObjSpawn:
		return "torch.multiprocessing workers"
	}
	return "processes"
}

// startRef names a process start for a message read at from:
// "`ctx.Pool(4)` (line 12: Pool workers, the "fork" start method)".
func (r reporter) startRef(rec *model.StartRecord, from model.Site) string {
	detail := r.where(rec.Site, from)
	if rec.Obj.Kind != model.ObjFork {
		detail += ": " + kindPhrase(rec.Obj)
		if f := rec.Obj.WorkersFlag; f != "" {
			detail += fmt.Sprintf(" when `%s` > 0 (its default is 0)", f)
		}
		if m := methodPhrase(rec); m != "" {
			detail += ", " + m
		}
	}
	if rec.IterationUnseen != "" {
		// A loader starts where it is iterated; this one's iteration was
		// assumed: say why.
		detail += "; " + rec.IterationUnseen
	}
	return fmt.Sprintf("`%s` (%s)", source(rec.Site), detail)
}

// methodPhrase says which start method a start uses and why.
func methodPhrase(rec *model.StartRecord) string {
	if rec.Obj.Kind == model.ObjFork {
		return ""
	}
	if rec.Explicit {
		return fmt.Sprintf("the %q start method", rec.Method.String())
	}
	return fmt.Sprintf("the default %q start method", rec.Method.String())
}

// startsRef is startRef for a hazard's first start, counting the others.
func (r reporter) startsRef(z *model.Hazard, from model.Site) string {
	s := r.startRef(z.Start, from)
	switch n := len(otherStartSites(z)); n {
	case 0:
	case 1:
		s += " and 1 other place"
	default:
		s += fmt.Sprintf(" and %d other places", n)
	}
	return s
}

// startRelated lists the chain to a process start, the start, and where its
// start method was chosen.
func (r reporter) startRelated(rec *model.StartRecord) []analysis.RelatedInformation {
	out := r.chain(rec.Chain)
	verb := "started"
	if rec.Method.String() == "fork" {
		verb = "forked"
	}
	what := kindPhrase(rec.Obj)
	if m := methodPhrase(rec); m != "" {
		what += ", " + m
	}
	if rec.Obj.Kind == model.ObjLoader && rec.Obj.Site.Valid() && rec.Obj.Site != rec.Site {
		// Its workers start where it is iterated, not where it is made.
		out = append(out, r.related(rec.Obj.Site, "The DataLoader is made here"))
	}
	are := "are"
	if rec.IterationUnseen != "" {
		are = "may be" // where it is made, or handed to a library call
	}
	out = append(out, r.related(rec.Site, "Children %s %s here (%s)", are, verb, what))
	if rec.MethodLit.Valid() && rec.MethodLit != rec.Site {
		out = append(out, r.related(rec.MethodLit, "The %q start method is chosen here", rec.Method.String()))
	}
	return out
}

// moreStartsRelated lists a hazard's further starts.
func (r reporter) moreStartsRelated(z *model.Hazard) []analysis.RelatedInformation {
	var out []analysis.RelatedInformation
	for _, m := range otherStartSites(z) {
		verb := "started"
		if m.Method.String() == "fork" {
			verb = "forked"
		}
		out = append(out, r.related(m.Site, "Children are also %s here (%s)", verb, kindPhrase(m.Obj)))
	}
	return out
}

// otherStartSites are the further starts of a hazard at sites other than
// its start's, one per site: the places a message names (a site that
// starts several objects is one place).
func otherStartSites(z *model.Hazard) []*model.StartRecord {
	var out []*model.StartRecord
	seen := map[model.Site]bool{z.Start.Site: true}
	for _, m := range z.MoreStarts {
		if !seen[m.Site] {
			seen[m.Site] = true
			out = append(out, m)
		}
	}
	return out
}

// loopNote explains an init that comes after the start in the source: the
// fork happens again on the loop's next iteration.
func loopNote(z *model.Hazard) string {
	if z.Init == nil || z.Init.Site.Mod != z.Start.Site.Mod || z.Init.Site.Span.Start < z.Start.Site.Span.Start {
		return ""
	}
	if len(z.Init.Chain) > 0 || len(z.Start.Chain) > 0 {
		return ""
	}
	return " on the loop's next iteration"
}

// spawnFix switches every start of the hazard to the "spawn" start method
// (a start left forking keeps the finding): a "fork" literal becomes
// "spawn", and a start that takes the default method is given "spawn"
// where its object is made (switchDefault). A spawn child starts a new
// interpreter, imports the main module without running its guard, and
// unpickles the function it runs and its arguments; the fix is
// display-only when a start or a function the children run would break
// under that (spawnBlocker). It is not offered when a start cannot be
// switched by an edit (os.fork, a method chosen by an expression), nor
// when the children run code defined in a notebook: spawn children cannot
// find it (CFL007).
func (r reporter) spawnFix(z *model.Hazard) (fixsafety.Fix, bool) {
	var edits []analysis.TextEdit
	for _, rec := range hazardStarts(z) {
		if len(model.NotebookTargets(rec.Obj)) > 0 {
			return fixsafety.Fix{}, false
		}
		es, ok := r.switchEdits(rec)
		if !ok {
			return fixsafety.Fix{}, false
		}
		for _, e := range es {
			if !slices.ContainsFunc(edits, func(o analysis.TextEdit) bool {
				return o.Pos == e.Pos && o.End == e.End && bytes.Equal(o.NewText, e.NewText)
			}) {
				edits = append(edits, e)
			}
		}
	}
	const message = `Use the "spawn" start method`
	if why := spawnBlocker(z); why != "" {
		return fixsafety.DisplayOnly(message + ", once " + why), true
	}
	// The title states what the fix cannot check: spawnBlocker checked the
	// guard and the functions the children run, not their arguments.
	return fixsafety.Unsafe(message+"; the children's arguments must pickle", edits...), true
}

// hazardStarts are a hazard's start and its further starts.
func hazardStarts(z *model.Hazard) []*model.StartRecord {
	return append([]*model.StartRecord{z.Start}, z.MoreStarts...)
}

// switchEdits returns the edits that make one start use "spawn": its
// "fork" literal replaced, or, for a start that takes the default method,
// the method given where its object is made.
func (r reporter) switchEdits(rec *model.StartRecord) ([]analysis.TextEdit, bool) {
	if rec.Method.String() != "fork" {
		return nil, false
	}
	// The literal decides the method only where every path to the start
	// set it: where another path left the default, which forks too up to
	// 3.13, the start takes "spawn" where its object is made.
	if lit := rec.MethodLit; lit.Valid() && rec.Explicit {
		text := string(lit.Mod.Src[lit.Span.Start:lit.Span.End])
		i := strings.Index(text, "fork")
		if i < 0 || strings.Count(text, "fork") != 1 {
			return nil, false
		}
		pos, end := r.span(lit)
		return []analysis.TextEdit{{Pos: pos, End: end, NewText: []byte(text[:i] + "spawn" + text[i+len("fork"):])}}, true
	}
	if rec.Explicit || rec.Obj.Method.Kind != model.MethodDefault || !rec.Obj.Site.Valid() {
		return nil, false
	}
	return r.switchDefault(rec.Obj)
}

// spawnModules are the modules whose Pool and Process a context of
// get_context("spawn") makes instead (torch.multiprocessing re-exports the
// standard library's), and contextModule the module whose get_context the
// fix calls for each family.
var spawnModules = map[string]bool{"multiprocessing": true, "torch.multiprocessing": true, "multiprocess": true}

func contextModule(family string) string {
	if family == "multiprocess" {
		return "multiprocess"
	}
	return "multiprocessing"
}

// switchDefault gives "spawn" to an object that takes the default start
// method, where it is made:
//
//	mp.Pool(4)                  → mp.get_context("spawn").Pool(4)
//	Process(target=f)           → multiprocessing.get_context("spawn").Process(target=f)
//	ProcessPoolExecutor(4)      → ProcessPoolExecutor(4, mp_context=multiprocessing.get_context("spawn"))
//	DataLoader(ds, num_workers=4) → DataLoader(ds, num_workers=4, multiprocessing_context="spawn")
//
// importing multiprocessing when no top-level import binds it. It declines
// when the call is not one it can tell apart (a subclass, a name the
// module binds otherwise, or one a function around the call binds) or
// already passes the argument, or may pass it through ** or by position.
func (r reporter) switchDefault(o *model.Object) ([]analysis.TextEdit, bool) {
	m, at := o.Site.Mod, o.Site.Span
	call := callAt(m, at)
	if call == nil {
		return nil, false
	}
	tf := r.prog.File(m)
	insert := func(off int, text string) analysis.TextEdit {
		return analysis.TextEdit{Pos: tf.Pos(off), End: tf.Pos(off), NewText: []byte(text)}
	}
	switch o.Kind {
	case model.ObjPool, model.ObjProcess:
		switch fn := call.Func.(type) {
		case *syntax.Attribute:
			// mp.Pool → mp.get_context("spawn").Pool: the module's and a
			// context's get_context both give the spawn context.
			if path, ok := importedPath(m, fn.X, at); !ok || !spawnModules[path] || (fn.Attr != "Pool" && fn.Attr != "Process") {
				return nil, false
			}
			return []analysis.TextEdit{insert(int(fn.AttrSpan.Start), `get_context("spawn").`)}, true
		case *syntax.Name:
			// Pool, imported from the module → multiprocessing.get_context("spawn").Pool
			path, ok := importedPath(m, fn, at)
			i := strings.LastIndexByte(path, '.')
			if !ok || i < 0 || !spawnModules[path[:i]] {
				return nil, false
			}
			attr := path[i+1:]
			if attr != "Pool" && attr != "Process" {
				return nil, false
			}
			ref, edits, ok := r.moduleRef(m, contextModule(o.Method.Family), at)
			if !ok {
				return nil, false
			}
			pos, end := r.span(model.Site{Mod: m, Span: fn.Span})
			return append(edits, analysis.TextEdit{Pos: pos, End: end, NewText: []byte(ref + `.get_context("spawn").` + attr)}), true
		}
		return nil, false
	case model.ObjExecutor:
		// ProcessPoolExecutor(max_workers, mp_context, ...)
		if !canAddKeyword(call, "mp_context", 1) {
			return nil, false
		}
		ref, edits, ok := r.moduleRef(m, contextModule(o.Method.Family), at)
		if !ok {
			return nil, false
		}
		return append(edits, insert(keywordOffset(call), keywordText(call, `mp_context=`+ref+`.get_context("spawn")`))), true
	case model.ObjLoader:
		// torch's DataLoader(dataset, batch_size, shuffle, sampler,
		// batch_sampler, num_workers, collate_fn, pin_memory, drop_last,
		// timeout, worker_init_fn, multiprocessing_context, ...); the
		// loaders of PyG, MONAI and DGL named DataLoader hand it their
		// keywords.
		name := ""
		switch fn := call.Func.(type) {
		case *syntax.Name:
			name = fn.ID
		case *syntax.Attribute:
			name = fn.Attr
		}
		if name != "DataLoader" || !canAddKeyword(call, "multiprocessing_context", 11) {
			return nil, false
		}
		return []analysis.TextEdit{insert(keywordOffset(call), keywordText(call, `multiprocessing_context="spawn"`))}, true
	}
	return nil, false
}

// callAt finds the call whose span is sp in m.
func callAt(m *model.Module, sp syntax.Span) *syntax.Call {
	var found *syntax.Call
	for _, s := range m.File.Body {
		if !s.Pos().Contains(sp) {
			continue
		}
		syntax.Inspect(s, func(n syntax.Node) bool {
			if c, ok := n.(*syntax.Call); ok && c.Span == sp {
				found = c
			}
			// Inspect ends each node's children with f(nil).
			return found == nil && n != nil && n.Pos().Contains(sp)
		})
	}
	return found
}

// canAddKeyword reports whether call can be given keyword kw: it does not
// pass it already, by keyword, through **, or as one of its first
// positional arguments (kw being the one at index pos).
func canAddKeyword(call *syntax.Call, kw string, pos int) bool {
	positional := 0
	for _, a := range call.Args {
		switch {
		case a.Star == 2, a.Keyword == kw:
			return false
		case a.Star == 1:
			positional = pos + 1 // *args may reach it
		case a.Keyword == "":
			positional++
		}
	}
	return positional <= pos
}

// keywordOffset is where a keyword argument is added: after the last
// argument (before a trailing comma), or inside the empty parentheses.
func keywordOffset(call *syntax.Call) int {
	if n := len(call.Args); n > 0 {
		return int(call.Args[n-1].End)
	}
	return int(call.ArgsSpan.Start) + 1
}

func keywordText(call *syntax.Call, kw string) string {
	if len(call.Args) > 0 {
		return ", " + kw
	}
	return kw
}

// importedPath is the dotted path e names through m's top-level imports
// ("torch.multiprocessing" for `torch.multiprocessing` after `import
// torch`, "multiprocessing.Pool" for `Pool` after `from multiprocessing
// import Pool`), when its first name is bound at the top level by one
// imports of one module only (`import torch` and `import
// torch.multiprocessing` both bind torch) and not by a function around at.
func importedPath(m *model.Module, e syntax.Expr, at syntax.Span) (string, bool) {
	switch e := e.(type) {
	case *syntax.Name:
		bs := m.Scope.Bindings[e.ID]
		if len(bs) == 0 || boundAround(m, at, e.ID) {
			return "", false
		}
		for _, b := range bs {
			if b.Kind != model.BindImport && b.Kind != model.BindImportFrom || b.Import() != bs[0].Import() {
				return "", false
			}
		}
		return bs[0].Import(), true
	case *syntax.Attribute:
		p, ok := importedPath(m, e.X, at)
		return p + "." + e.Attr, ok
	}
	return "", false
}

// boundAround reports whether a function whose body holds at binds name
// (a parameter, or a name its body binds).
func boundAround(m *model.Module, at syntax.Span, name string) bool {
	for _, f := range m.Funcs {
		if f.Def == nil || !f.Def.Span.Contains(at) {
			continue
		}
		for _, p := range f.Def.Params {
			if p.Name == name {
				return true
			}
		}
		for _, s := range f.Def.Body() {
			if model.TopLevelBinds(s)[name] {
				return true
			}
		}
	}
	return false
}

// moduleRef returns a name for module mod at at: one a top-level `import`
// before at binds to it, or mod itself, imported by the edit returned when
// nothing in the module binds that name.
func (r reporter) moduleRef(m *model.Module, mod string, at syntax.Span) (string, []analysis.TextEdit, bool) {
	// The first such import, whatever the order of the bindings' map.
	var first *model.Binding
	for name, bs := range m.Scope.Bindings {
		if len(bs) == 1 && bs[0].Kind == model.BindImport && bs[0].Import() == mod && bs[0].Span.End <= at.Start && !boundAround(m, at, name) &&
			(first == nil || bs[0].Span.Start < first.Span.Start) {
			first = bs[0]
		}
	}
	if first != nil {
		return first.Name, nil, true
	}
	if len(m.Scope.Bindings[mod]) > 0 || boundAround(m, at, mod) {
		return "", nil, false
	}
	return mod, []analysis.TextEdit{r.insertLines(m, insertionPoint(m), "import "+mod)}, true
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
	// Every start the fix switches must be under it.
	if z.EntryFunc == nil && z.Entry != nil && z.Entry.ReimportedByChildren() {
		for _, rec := range hazardStarts(z) {
			at := rec.Site
			if len(rec.Chain) > 0 {
				at = rec.Chain[0].Site
			}
			if at.Mod == z.Entry && !underGuard(z.Entry, at.Span) {
				return fmt.Sprintf("the start at line %d runs under `if __name__ == \"__main__\":` (spawn children import this module and would start it again)", lineIn(at.Mod.Src, int(at.Span.Start)))
			}
		}
	}
	var targets []model.Target
	for _, rec := range hazardStarts(z) {
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
// module (after its docstring and __future__ imports). It fixes the hazard
// only when every initialization that may run before the fork is such a
// check (Hazard.Inits): another one (a `.to(device)`) initializes CUDA
// regardless, and the fork stays a hazard.
func (r reporter) nvmlFix(z *model.Hazard) (fixsafety.Fix, bool) {
	if z.At != z.Init.Site || len(z.Inits) == 0 {
		return fixsafety.Fix{}, false
	}
	for _, init := range z.Inits {
		if init.API != "torch.cuda.is_available()" || init.Site.Mod != z.Init.Site.Mod {
			return fixsafety.Fix{}, false
		}
	}
	m := z.Init.Site.Mod
	at := afterImportOS(m, insertionPoint(m))
	var lines []string
	if !importsOSBefore(m, at) {
		lines = append(lines, "import os")
	}
	lines = append(lines, "os.environ.setdefault(\"PYTORCH_NVML_BASED_CUDA_CHECK\", \"1\")  # torch.cuda.is_available() asks NVML, not the driver")
	return fixsafety.Unsafe("Set PYTORCH_NVML_BASED_CUDA_CHECK=1 so `torch.cuda.is_available()` does not initialize CUDA",
		r.insertLines(m, at, lines...)), true
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
