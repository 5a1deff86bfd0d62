package model

import (
	"fmt"
	"sort"
	"strings"

	"github.com/cudaforklint/cudaforklint/catalog"
	"github.com/cudaforklint/cudaforklint/syntax"
	"github.com/cudaforklint/cudaforklint/target"
)

// The simulation runs an entry's event summary in order, for one target
// configuration, tracking what matters about the process: whether CUDA has
// been initialized (may-analysis: a branch that initializes counts), the
// start method each multiprocessing family will use, torch's default device,
// the forkserver preload list, which local modules were imported, and
// whether PYTORCH_NVML_BASED_CUDA_CHECK was set. Every process start is
// checked against that state.

const (
	maxCallDepth  = 40
	maxSimEvents  = 200000
	familyDefault = 1 << 3 // method bit: the family's default, unchanged
)

type methodBits uint8

func bitOf(m target.StartMethod) methodBits { return 1 << m }

type simState struct {
	inits       []*InitRecord
	methods     map[string]methodBits
	methodLits  map[string]Site
	defaultCUDA bool
	preload     map[string][]string
	nvml        bool
	imported    map[*Module]bool
	startedOnce map[*Object]bool
	phase       Phase
}

func newState() *simState {
	return &simState{
		methods:     map[string]methodBits{},
		methodLits:  map[string]Site{},
		preload:     map[string][]string{},
		imported:    map[*Module]bool{},
		startedOnce: map[*Object]bool{},
	}
}

func (s *simState) clone() *simState {
	c := *s
	c.inits = append([]*InitRecord(nil), s.inits...)
	c.methods = make(map[string]methodBits, len(s.methods))
	for k, v := range s.methods {
		c.methods[k] = v
	}
	c.methodLits = make(map[string]Site, len(s.methodLits))
	for k, v := range s.methodLits {
		c.methodLits[k] = v
	}
	c.preload = make(map[string][]string, len(s.preload))
	for k, v := range s.preload {
		c.preload[k] = v
	}
	c.imported = make(map[*Module]bool, len(s.imported))
	for k, v := range s.imported {
		c.imported[k] = v
	}
	c.startedOnce = make(map[*Object]bool, len(s.startedOnce))
	for k, v := range s.startedOnce {
		c.startedOnce[k] = v
	}
	return &c
}

// join merges the states at the end of alternative paths into s: what may
// have happened on any path (CUDA initialized, a start method chosen) is
// kept; what must have happened on every path (a module imported, an
// executor started, NVML checking on) only if it did on all.
func (s *simState) join(others ...*simState) {
	for _, o := range others {
		for _, r := range o.inits {
			if !hasInit(s.inits, r.Site) {
				s.inits = append(s.inits, r)
			}
		}
		for k, v := range o.methods {
			s.methods[k] = s.methodsOf(k) | v
		}
		for k := range s.methods {
			if _, ok := o.methods[k]; !ok {
				s.methods[k] |= familyDefault
			}
		}
		for k, v := range o.methodLits {
			if _, ok := s.methodLits[k]; !ok {
				s.methodLits[k] = v
			}
		}
		s.defaultCUDA = s.defaultCUDA || o.defaultCUDA
		for k, v := range o.preload {
			s.preload[k] = appendUnique(s.preload[k], v...)
		}
		s.nvml = s.nvml && o.nvml
		for k := range s.imported {
			if !o.imported[k] {
				delete(s.imported, k)
			}
		}
		for k := range s.startedOnce {
			if !o.startedOnce[k] {
				delete(s.startedOnce, k)
			}
		}
	}
}

func (s *simState) methodsOf(family string) methodBits {
	if b, ok := s.methods[family]; ok {
		return b
	}
	return familyDefault
}

func hasInit(list []*InitRecord, site Site) bool {
	for _, r := range list {
		if r.Site == site {
			return true
		}
	}
	return false
}

func appendUnique(list []string, more ...string) []string {
	for _, m := range more {
		found := false
		for _, l := range list {
			found = found || l == m
		}
		if !found {
			list = append(list, m)
		}
	}
	return list
}

// simulator runs one entry on one config.
type simulator struct {
	cfg    target.Config
	entry  *Module
	fn     *Function // the uncalled function entry, if any
	out    *hazardSet
	stack  []*Function
	chain  []Frame
	budget int
	// mainInits caches the inits of running the entry's top level as an
	// import (what spawn children and the forkserver do).
	// importOnly: running a module body as an import (guards skipped).
	importOnly bool
	// collectOnly: only collect CUDA initializations (the sub-simulations
	// of what an import does); process starts are not checked.
	collectOnly bool
}

func (s *simulator) run(events []event, st *simState) {
	for i := range events {
		if s.budget <= 0 {
			return
		}
		s.budget--
		e := &events[i]
		switch e.kind {
		case evEffect:
			s.effect(&e.eff, st)
		case evBranch:
			var ends []*simState
			for _, arm := range e.arms {
				c := st.clone()
				s.run(arm, c)
				ends = append(ends, c)
			}
			*st = *ends[0]
			st.join(ends[1:]...)
		case evLoop:
			before := st.clone()
			s.run(e.body, st)
			s.run(e.body, st) // the second iteration sees the first one's state
			st.join(before)
		case evGuard:
			if s.importOnly {
				continue
			}
			saved := st.phase
			st.phase = PhaseMain
			s.run(e.body, st)
			st.phase = saved
		}
	}
}

func (s *simulator) effect(e *effect, st *simState) {
	switch e.kind {
	case effInit:
		switch e.cond {
		case condDefaultDevice:
			if !st.defaultCUDA {
				return
			}
		case condNoNVMLCheck:
			if st.nvml {
				return
			}
		}
		if hasInit(st.inits, e.site) {
			return
		}
		rec := &InitRecord{Site: e.site, API: e.api, Chain: append([]Frame(nil), s.chain...), Phase: st.phase}
		if e.entry != nil {
			rec.Lib = e.entry.Lib
		}
		st.inits = append(st.inits, rec)
	case effCall:
		if len(s.stack) >= maxCallDepth || s.onStack(e.fn) || !e.fn.facts().relevant {
			return
		}
		s.stack = append(s.stack, e.fn)
		s.chain = append(s.chain, Frame{Site: e.site, Desc: fmt.Sprintf("calls `%s`", e.fn.QualName), Func: e.fn.QualName})
		s.run(e.fn.summaryOf(), st)
		s.chain = s.chain[:len(s.chain)-1]
		s.stack = s.stack[:len(s.stack)-1]
	case effStart:
		if e.once {
			if st.startedOnce[e.obj] {
				return
			}
			st.startedOnce[e.obj] = true
		}
		s.start(e.obj, e.site, st)
	case effPendingStart:
		if !e.obj.Iterated {
			s.start(e.obj, e.site, st)
		}
	case effSetMethod:
		switch e.method.Kind {
		case MethodExplicit:
			st.methods[e.method.Family] = bitOf(e.method.Method)
			if e.method.Lit.Valid() {
				st.methodLits[e.method.Family] = e.method.Lit
			} else {
				delete(st.methodLits, e.method.Family)
			}
		case MethodUnknown:
			// Chosen at run time: keep assuming the default.
		}
	case effDefaultDevice:
		st.defaultCUDA = e.cuda
	case effPreload:
		st.preload[e.method.Family] = e.mods
	case effNVMLCheck:
		st.nvml = true
	case effNVMLRestore:
		st.nvml = false
	case effImport:
		if st.imported[e.mod] || len(s.chain) >= maxCallDepth {
			return
		}
		st.imported[e.mod] = true
		if !e.mod.topFacts().relevant {
			return
		}
		s.chain = append(s.chain, Frame{Site: e.site, Desc: fmt.Sprintf("imports `%s`", e.api), Import: e.api})
		saved := s.importOnly
		s.importOnly = true
		s.run(e.mod.topSummary(), st)
		s.importOnly = saved
		s.chain = s.chain[:len(s.chain)-1]
	}
}

func (s *simulator) onStack(f *Function) bool {
	for _, g := range s.stack {
		if g == f {
			return true
		}
	}
	return false
}

// methodsFor resolves an object's start method against the state.
func (s *simulator) methodsFor(o *Object, st *simState) (methodBits, bool, Site) {
	if o.Kind == ObjFork {
		return bitOf(target.Fork), true, Site{}
	}
	if o.Method.Kind == MethodExplicit {
		return bitOf(o.Method.Method), true, o.Method.Lit
	}
	bits := st.methodsOf(o.Method.Family)
	explicit := bits&familyDefault == 0
	if bits&familyDefault != 0 {
		bits = bits&^familyDefault | bitOf(s.cfg.DefaultStartMethod())
	}
	return bits, explicit, st.methodLits[o.Method.Family]
}

func (s *simulator) start(o *Object, site Site, st *simState) {
	if s.collectOnly {
		return
	}
	bits, explicit, lit := s.methodsFor(o, st)
	for _, m := range []target.StartMethod{target.Fork, target.Forkserver, target.Spawn} {
		if bits&bitOf(m) == 0 {
			continue
		}
		if m != target.Spawn && !s.cfg.HasFork() {
			continue // no fork on Windows: the start raises instead
		}
		rec := &StartRecord{Site: site, Obj: o, Chain: append([]Frame(nil), s.chain...),
			Phase: st.phase, Method: m, Explicit: explicit, MethodLit: lit}
		if st.phase == PhaseImport && m != target.Fork && o.Kind != ObjFork && o.Kind != ObjManager && s.fn == nil && s.entry.ReimportedByChildren() {
			s.out.add(&Hazard{Kind: StartAtImport, Start: rec}, s)
		}
		if !s.cfg.HasCUDA() {
			continue
		}
		switch m {
		case target.Fork:
			if len(st.inits) > 0 && !o.ChildExecs {
				s.out.add(&Hazard{Kind: ForkAfterInit, Init: st.inits[0], Start: rec, Child: s.childUse(o, st)}, s)
			}
		case target.Forkserver:
			s.forkserver(o, rec, st)
		case target.Spawn:
			if inits := s.entryImportInits(); len(inits) > 0 && s.fn == nil {
				s.out.add(&Hazard{Kind: ReinitInChildren, Init: inits[0], Start: rec}, s)
			}
		}
	}
}

// forkserver checks what the forkserver process imports before forking
// every child: __main__ (with the preload fix, when it is in the preload
// list, as it is by default) and the set_forkserver_preload modules.
func (s *simulator) forkserver(o *Object, rec *StartRecord, st *simState) {
	preload, set := st.preload[o.Method.Family]
	if !set {
		preload = []string{"__main__"}
	}
	serverImportsMain := false
	for _, name := range preload {
		if name == "__main__" {
			serverImportsMain = s.cfg.ForkserverImportsMain()
			continue
		}
		for _, r := range s.preloadInits(name, o) {
			s.out.add(&Hazard{Kind: ForkserverInherits, Init: r, Start: rec, Child: s.childUse(o, st), Via: name}, s)
			break
		}
	}
	if s.fn != nil {
		// An uncalled function may run in any program: which module is
		// __main__ there is unknown.
		return
	}
	inits := s.entryImportInits()
	if len(inits) == 0 {
		return
	}
	if serverImportsMain {
		s.out.add(&Hazard{Kind: ForkserverInherits, Init: inits[0], Start: rec, Child: s.childUse(o, st), Via: "__main__"}, s)
	} else {
		// Each child imports the main module itself, as a spawn child does.
		s.out.add(&Hazard{Kind: ReinitInChildren, Init: inits[0], Start: rec}, s)
	}
}

// preloadInits simulates the forkserver importing a preloaded module.
func (s *simulator) preloadInits(name string, o *Object) []*InitRecord {
	if mod := s.entry.importedModule(name, 0); mod != nil {
		return mod.importTimeInits(s.cfg)
	}
	if e, ok := catalog.Lookup(catalog.Import, catalog.Canonical(name)); ok && e.Effect.Initializes() {
		return []*InitRecord{{Site: o.Site, API: "import " + name, Lib: e.Lib}}
	}
	return nil
}

// entryImportInits is what running the entry module's top level as an
// import initializes: what a spawn child, or the forkserver, does to it.
// Nothing, for a main module children never re-import.
func (s *simulator) entryImportInits() []*InitRecord {
	if !s.entry.ReimportedByChildren() {
		return nil
	}
	return s.entry.importTimeInits(s.cfg)
}

// importTimeInits simulates importing m (its top level, guards skipped) and
// returns the CUDA initializations, cached: they do not depend on the start
// method or the version.
func (m *Module) importTimeInits(cfg target.Config) []*InitRecord {
	if m.importInitsDone {
		return m.importInits
	}
	m.importInitsDone = true
	if !m.topFacts().relevant {
		return nil
	}
	sub := &simulator{cfg: cfg, entry: m, out: &hazardSet{}, budget: maxSimEvents, importOnly: true, collectOnly: true}
	st := newState()
	sub.run(m.topSummary(), st)
	for _, r := range st.inits {
		if r.Phase == PhaseImport {
			m.importInits = append(m.importInits, r)
		}
	}
	return m.importInits
}

// childUse classifies the code a started object's children run.
func (s *simulator) childUse(o *Object, st *simState) ChildUse {
	u := ChildUse{Targets: o.Targets}
	switch o.Kind {
	case ObjManager:
		u.Verdict = ChildNoCUDA
		return u
	case ObjFork:
		if !o.ChildFound {
			u.Verdict, u.Reason = ChildUnknown, "the child's branch after os.fork() (`if pid == 0:`) was not found"
			return u
		}
		b := &builder{m: o.ChildScope.Module, sc: o.ChildScope}
		b.stmts(o.ChildBody)
		if site, api, ok := s.touches(b.out, st, 0); ok {
			u.Verdict, u.Evidence, u.API = ChildUsesCUDA, site, api
			return u
		}
		u.Verdict = ChildNoCUDA
		return u
	}
	if o.ArgsCUDA {
		u.Verdict, u.Evidence, u.API = ChildUsesCUDA, o.Site, "CUDA objects passed to the child"
		return u
	}
	for _, ch := range o.Channels {
		if ch.CarriesCUDA {
			u.Verdict, u.Evidence, u.API = ChildUsesCUDA, ch.Site, "CUDA objects sent through a queue or pipe"
			return u
		}
	}
	unresolved, hidden := "", ""
	for _, t := range o.Targets {
		if t.Func == nil {
			if t.API != "" {
				u.Verdict, u.Evidence, u.API = ChildUsesCUDA, t.Site, t.API
				return u
			}
			if unresolved == "" {
				unresolved = t.Desc
			}
			continue
		}
		if site, api, ok := s.funcTouches(t.Func, st, 0); ok {
			u.Verdict, u.Evidence, u.API = ChildUsesCUDA, site, api
			return u
		}
		if hidden == "" {
			if api, ok := opaque(t.Func.summaryOf()); ok {
				hidden = api
			}
		}
	}
	switch {
	case o.Kind == ObjLoader:
		u.Verdict = ChildNoCUDA
		u.Assumed = o.AssumedCPU
	case unresolved != "":
		u.Verdict, u.Reason = ChildUnknown, fmt.Sprintf("the child runs `%s`, whose code could not be seen", unresolved)
	case hidden != "":
		u.Verdict, u.Reason = ChildUnknown, fmt.Sprintf("the child calls `%s`, whose code could not be seen", hidden)
	case len(o.Targets) == 0:
		u.Verdict, u.Reason = ChildUnknown, "no code handed to the children was found"
	default:
		u.Verdict = ChildNoCUDA
	}
	return u
}

// touchMemo caches whether a function touches CUDA.
type touchMemo struct {
	state factState
	site  Site
	api   string
	ok    bool
}

// opaque reports the first call of code the model cannot see in a child's
// entry function itself (not in what it calls: deep inside a code base,
// calling a parameter is usually a type or a callback of no consequence,
// while a target that calls a callable it was handed, like
// accelerate's PrepareForLaunch.__call__ calling self.launcher, runs the
// user's code).
func opaque(events []event) (string, bool) {
	for e := range effects(events) {
		if e.kind == effOpaqueCall {
			return e.api, true
		}
	}
	return "", false
}

// touches reports the first place a summary (following local calls) touches
// CUDA, given the parent's state at the fork (the default device is
// inherited).
func (s *simulator) touches(events []event, st *simState, depth int) (Site, string, bool) {
	if depth > maxCallDepth {
		return Site{}, "", false
	}
	for e := range effects(events) {
		switch e.kind {
		case effInit:
			if e.cond == condDefaultDevice && !st.defaultCUDA {
				continue
			}
			return e.site, e.api, true
		case effUse:
			return e.site, e.api, true
		case effCall:
			if site, api, ok := s.funcTouches(e.fn, st, depth+1); ok {
				return site, api, true
			}
		case effImport:
			if site, api, ok := s.moduleTouches(e.mod, st, depth+1); ok {
				return site, api, true
			}
		}
	}
	return Site{}, "", false
}

// moduleTouches memoizes touches for importing a module (its top level).
func (s *simulator) moduleTouches(m *Module, st *simState, depth int) (Site, string, bool) {
	return s.memoTouches(&m.touch, m.topSummary, st, depth)
}

// funcTouches memoizes touches for a function's summary.
func (s *simulator) funcTouches(f *Function, st *simState, depth int) (Site, string, bool) {
	return s.memoTouches(&f.touch, f.summaryOf, st, depth)
}

// memoTouches runs touches over events once per value of the default
// device (the only state it depends on), cutting recursion.
func (s *simulator) memoTouches(memo *[2]touchMemo, events func() []event, st *simState, depth int) (Site, string, bool) {
	t := &memo[0]
	if st.defaultCUDA {
		t = &memo[1]
	}
	switch t.state {
	case factDone:
		return t.site, t.api, t.ok
	case factBusy:
		return Site{}, "", false
	}
	t.state = factBusy
	site, api, ok := s.touches(events(), st, depth)
	*t = touchMemo{state: factDone, site: site, api: api, ok: ok}
	return site, api, ok
}

// hazardSet collects hazards, merging the same hazard found on several
// configs or through several entries.
type hazardSet struct {
	byKey map[string]*Hazard
	list  []*Hazard
}

func (h *hazardSet) add(z *Hazard, s *simulator) {
	if h.byKey == nil {
		h.byKey = map[string]*Hazard{}
	}
	z.Entry, z.EntryFunc = s.entry, s.fn
	// One hazard per cause: the same initialization found before several
	// starts (or the same object started at several places) is one problem
	// with one fix; the other starts become MoreStarts.
	var key string
	if z.Kind == StartAtImport {
		key = fmt.Sprintf("%d|%p", z.Kind, z.Start.Obj)
	} else {
		verdict := "uses"
		if z.Kind == ForkAfterInit && z.Child.Verdict == ChildNoCUDA {
			verdict = "benign"
		}
		key = fmt.Sprintf("%d|%s|%s|%s", z.Kind, siteKey(z.Init.Site), z.Via, verdict)
	}
	if old, ok := h.byKey[key]; ok {
		old.Configs |= target.Of(s.cfg)
		if old.Start.Site != z.Start.Site {
			dup := false
			for _, m := range old.MoreStarts {
				dup = dup || m.Site == z.Start.Site
			}
			if !dup {
				old.MoreStarts = append(old.MoreStarts, z.Start)
			}
		}
		return
	}
	z.Configs = target.Of(s.cfg)
	h.byKey[key] = z
	h.list = append(h.list, z)
}

func siteKey(s Site) string {
	if s.Mod == nil {
		return ""
	}
	return fmt.Sprintf("%s:%d-%d", s.Mod.Path, s.Span.Start, s.Span.End)
}

// Analyze simulates every module in mods as __main__, and every function
// of them that nothing calls as an entry point of its own, on every config
// in targets, and returns the hazards found, sorted by position.
func (p *Program) Analyze(mods []*Module, targets target.Set) []*Hazard {
	out := &hazardSet{}
	for _, class := range configClasses(targets) {
		for _, m := range mods {
			if !m.topFacts().starts {
				continue
			}
			s := &simulator{cfg: class.rep, entry: m, out: out, budget: maxSimEvents}
			st := newState()
			s.run(m.topSummary(), st)
		}
		importers := p.importersByStem()
		may := p.mayStart()
		for _, m := range mods {
			if isProcessLibrary(m) || !m.cudaPossible() {
				continue
			}
			for _, f := range m.Funcs {
				if !may[f] || f.referenced || nameUsed(f, importers) || f.Lambda != nil || isDunder(f.Name) || !f.facts().starts {
					continue
				}
				s := &simulator{cfg: class.rep, entry: m, fn: f, out: out, budget: maxSimEvents}
				st := newState()
				s.importOnly = true
				s.run(m.topSummary(), st)
				s.importOnly = false
				st.phase = PhaseMain
				s.stack = []*Function{f}
				s.run(f.summaryOf(), st)
			}
		}
		// Widen each hazard found on the representative to its whole class.
		for _, z := range out.list {
			if z.Configs&target.Of(class.rep) != 0 {
				z.Configs |= class.all
			}
		}
	}
	for _, z := range out.list {
		z.Configs &= targets
	}
	sort.SliceStable(out.list, func(i, j int) bool { return hazardLess(out.list[i], out.list[j]) })
	return out.list
}

// nameUsed reports whether f's name is used in an expression of its own
// module or of a loaded module that imports it. A function whose name
// appears in none is called by no code here and is analyzed as an entry
// point of its own; one whose name appears may be called, directly or
// through an attribute, and is analyzed where it is. Deciding this from
// names rather than from resolved calls saves summarizing every function of
// every module.
func nameUsed(f *Function, importers map[string][]*Module) bool {
	if f.Module.usedNames()[f.Name] {
		return true
	}
	for _, m := range importers[lastPart(f.Module.Name)] {
		if m != f.Module && m.usedNames()[f.Name] {
			return true
		}
	}
	return false
}

// importersByStem maps the last component of every module name an import
// statement of a loaded module names (import a.stem, from a import stem,
// from .stem import x) to the modules with such a statement.
func (p *Program) importersByStem() map[string][]*Module {
	out := map[string][]*Module{}
	for _, m := range p.Loaded() {
		seen := map[string]bool{}
		add := func(dotted string) {
			for _, part := range strings.Split(dotted, ".") {
				if part != "" && !seen[part] {
					seen[part] = true
					out[part] = append(out[part], m)
				}
			}
		}
		for _, s := range m.imports() {
			switch s := s.(type) {
			case *syntax.Import:
				for _, a := range s.Names {
					add(a.Name)
				}
			case *syntax.ImportFrom:
				add(s.Module)
				for _, a := range s.Names {
					add(a.Name)
				}
			}
		}
	}
	return out
}

func lastPart(dotted string) string {
	if i := strings.LastIndexByte(dotted, '.'); i >= 0 {
		return dotted[i+1:]
	}
	return dotted
}

// imports lists the module's import statements, wherever they are.
func (m *Module) imports() []syntax.Stmt {
	if m.importStmts != nil {
		return m.importStmts
	}
	m.importStmts = []syntax.Stmt{}
	for _, s := range m.File.Body {
		syntax.Inspect(s, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.Import:
				m.importStmts = append(m.importStmts, n)
			case *syntax.ImportFrom:
				m.importStmts = append(m.importStmts, n)
			case syntax.Expr:
				return false
			}
			return true
		})
	}
	return m.importStmts
}

func (m *Module) usedNames() map[string]bool {
	if m.used != nil {
		return m.used
	}
	m.used = map[string]bool{}
	for _, s := range m.File.Body {
		syntax.Inspect(s, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.Name:
				m.used[n.ID] = true
			case *syntax.Attribute:
				m.used[n.Attr] = true
			case *syntax.String:
				// getattr(obj, "name"), "module:function" entry points.
				if len(n.Value) < 64 {
					for _, part := range strings.FieldsFunc(n.Value, func(r rune) bool { return r == '.' || r == ':' }) {
						m.used[part] = true
					}
				}
			}
			return true
		})
	}
	return m.used
}

// isProcessLibrary reports whether m is part of multiprocessing,
// multiprocess or concurrent.futures themselves (when the checked tree is
// CPython's): their functions implement the APIs the model knows, so
// simulating them as entry points of their own finds only the APIs.
func isProcessLibrary(m *Module) bool {
	root := m.Name
	if i := strings.IndexByte(root, '.'); i >= 0 {
		root = root[:i]
	}
	return root == "multiprocessing" || root == "multiprocess" || root == "concurrent"
}

func isDunder(name string) bool {
	return strings.HasPrefix(name, "__") && strings.HasSuffix(name, "__")
}

func primarySite(z *Hazard) Site {
	if z.Init != nil && z.Kind != StartAtImport {
		return z.Init.Site
	}
	return z.Start.Site
}

func hazardLess(a, b *Hazard) bool {
	sa, sb := primarySite(a), primarySite(b)
	if sa.Mod.Path != sb.Mod.Path {
		return sa.Mod.Path < sb.Mod.Path
	}
	if sa.Span.Start != sb.Span.Start {
		return sa.Span.Start < sb.Span.Start
	}
	if a.Kind != b.Kind {
		return a.Kind < b.Kind
	}
	return a.Start.Site.Span.Start < b.Start.Site.Span.Start
}

// configClass is a set of configs the simulation cannot tell apart.
type configClass struct {
	rep target.Config
	all target.Set
}

// configClasses groups configs by the behaviour the simulation depends on:
// the default start method, whether the forkserver imports __main__, and
// whether fork and CUDA exist.
func configClasses(s target.Set) []configClass {
	type key struct {
		def          target.StartMethod
		importsMain  bool
		fork, hasGPU bool
	}
	var order []key
	classes := map[key]*configClass{}
	for _, c := range s.Configs() {
		// Without fork there is no forkserver, so its import of __main__ cannot matter.
		k := key{c.DefaultStartMethod(), c.ForkserverImportsMain() && c.HasFork(), c.HasFork(), c.HasCUDA()}
		if cl, ok := classes[k]; ok {
			cl.all |= target.Of(c)
			continue
		}
		classes[k] = &configClass{rep: c, all: target.Of(c)}
		order = append(order, k)
	}
	out := make([]configClass, 0, len(order))
	for _, k := range order {
		out = append(out, *classes[k])
	}
	return out
}
