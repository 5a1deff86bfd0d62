package model

import (
	"fmt"

	"github.com/cudaforklint/cudaforklint/target"
)

// The simulation runs an entry's event summary in order, for one target
// configuration, tracking what matters about the process: whether CUDA has
// been initialized (may-analysis: a branch that initializes counts), the
// start method each multiprocessing family will use, torch's default device,
// the forkserver preload list, which local modules were imported, and
// whether PYTORCH_NVML_BASED_CUDA_CHECK was set. Every process start is
// checked against that state: its start method is resolved (startmethod.go),
// a fork after an initialization is a hazard here, and forkserver and spawn
// starts lead to what the children import (toplevel.go). Which modules and
// functions are run as entries is entries.go's.

const (
	maxCallDepth = 40
	maxSimEvents = 200000
)

// simState is the state of the simulated process at one point.
type simState struct {
	inits []*InitRecord
	methodState
	defaultCUDA bool
	preload     map[string][]string
	nvml        bool
	imported    map[*Module]bool
	startedOnce map[*Object]bool
	phase       Phase
}

func newState() *simState {
	return &simState{
		methodState: newMethodState(),
		preload:     map[string][]string{},
		imported:    map[*Module]bool{},
		startedOnce: map[*Object]bool{},
	}
}

func (s *simState) clone() *simState {
	c := *s
	c.inits = append([]*InitRecord(nil), s.inits...)
	c.methodState = s.methodState.clone()
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
		s.methodState.join(o.methodState)
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
		st.setMethod(e.method)
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
		s.startAtImport(o, rec, st)
		if !s.cfg.HasCUDA() {
			continue
		}
		switch m {
		case target.Fork:
			// CFL001, CFL003: the child inherits the parent's CUDA state.
			if len(st.inits) > 0 && !o.ChildExecs {
				s.out.add(&Hazard{Kind: ForkAfterInit, Init: st.inits[0], Start: rec, Child: s.childUse(o, st)}, s)
			}
		case target.Forkserver:
			s.forkserver(o, rec, st)
		case target.Spawn:
			s.spawnReimport(rec)
		}
	}
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
