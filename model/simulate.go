package model

import (
	"fmt"
	"slices"

	"github.com/cudaforklint/cudaforklint/catalog"
	"github.com/cudaforklint/cudaforklint/pytarget"
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
	// maxSimEvents bounds the events one entry runs on one config, a
	// replayed call counting one (callmemo.go); what comes after the cut
	// is not simulated, and its hazards are lost (a BudgetCut notice says
	// so). Once the facts of recursive code stopped depending on the order
	// they were asked in (factSolver), more of fairseq's code was rightly
	// relevant, and 43 of its test entries ran into the former bound of
	// 200,000 (18 before), losing two true CFL003 findings of the accuracy
	// corpus. That bound, and this one until replays counted one event,
	// counted each replay as the events of the run it stood for.
	maxSimEvents = 1000000
)

// simState is the state of the simulated process at one point.
type simState struct {
	inits []*InitRecord
	// sure holds the sites of the initializations that happened on every
	// path here (the others only may have).
	sure cowSet[siteSetKey]
	methodState
	defaultCUDA bool
	// outerDefault is the default device a `with torch.device(d):` block
	// being run replaced, restored when it ends.
	outerDefault outerDevice
	preload      map[string][]string
	nvml         bool
	imported     cowSet[moduleSetKey]
	startedOnce  cowSet[objectSetKey]
	// facts are the arms of stable tests this path took, and conds the
	// facts each initialization ran under (exclusive.go).
	facts []branchFact
	conds []initCond
	phase Phase
	// ended: this path left the function or the loop pass (a jump); the
	// rest of the events on it do not run.
	ended bool
}

func newState() *simState {
	return &simState{
		methodState: newMethodState(),
		sure:        newCowSet[siteSetKey](),
		preload:     map[string][]string{},
		imported:    newCowSet[moduleSetKey](),
		startedOnce: newCowSet[objectSetKey](),
	}
}

func (s *simState) clone() *simState {
	c := *s
	// A state's inits only grow: the copy shares the list, capped so that
	// an append by either copies it (join relies on the shared prefix).
	c.inits = s.inits[:len(s.inits):len(s.inits)]
	c.sure = s.sure.share()
	c.methodState = s.methodState.clone()
	c.preload = nil
	if len(s.preload) > 0 {
		c.preload = make(map[string][]string, len(s.preload))
		for k, v := range s.preload {
			c.preload[k] = v
		}
	}
	c.imported = s.imported.share()
	c.startedOnce = s.startedOnce.share()
	return &c
}

// join merges the states at the end of alternative paths into s: what may
// have happened on any path (CUDA initialized, a start method chosen) is
// kept; what must have happened on every path (a module imported, an
// executor started, NVML checking on) only if it did on all.
func (s *simState) join(others ...*simState) {
	for _, o := range others {
		s.joinFacts(o, s.inits, o.inits)
		// The paths were cloned from one state, and share its inits: a
		// site is recorded once per state, so what o added after the
		// shared part is new to that part too, and only s's own additions
		// need a look (a path through many initializations joined
		// hundreds of times spent most of a run comparing sites).
		k := sharedInits(s.inits, o.inits)
		for _, r := range o.inits[k:] {
			if !hasInit(s.inits[k:], r.Site) {
				s.inits = append(s.inits, r)
			}
		}
		s.sure.intersect(o.sure)
		s.methodState.join(o.methodState)
		s.defaultCUDA = s.defaultCUDA || o.defaultCUDA
		s.outerDefault = max(s.outerDefault, o.outerDefault)
		for k, v := range o.preload {
			if s.preload == nil {
				s.preload = map[string][]string{}
			}
			s.preload[k] = appendUnique(s.preload[k], v...)
		}
		s.nvml = s.nvml && o.nvml
		s.imported.intersect(o.imported)
		s.startedOnce.intersect(o.startedOnce)
	}
}

// sharedInits is the length of the prefix a and b share: the same records.
func sharedInits(a, b []*InitRecord) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	return n
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
	cfg   pytarget.Config
	entry *Module
	fn    *Function // the uncalled function entry, if any
	out   *hazardSet
	stack []*Function
	chain []Frame
	// frames are, for each function of stack, the loaders its parameters
	// were handed (effCall's binds, resolved).
	frames []map[string][]*Object
	budget int
	// ranOut: the budget ran out, and events were left unsimulated.
	ranOut bool
	// importOnly: running a module body as an import (guards skipped).
	importOnly bool
	// collectOnly: only collect CUDA initializations (the sub-simulations
	// of what an import does); process starts are not checked.
	collectOnly bool
	// proc is the process the code runs in, for process guards.
	proc procKind
	// boot is the bootstrap the import being simulated is part of, if any
	// (toplevel.go): which starts raise there. raised holds the states of
	// a child's paths that a start ended, and unsure counts the calls and
	// imports being run whose effect is unsure: what the code they run
	// raises may not go on up.
	boot   bootstrap
	raised []*simState
	unsure int
	// procGuard is the `current_process().name == "MainProcess"` guard
	// the forkserver is running the body of.
	procGuard Site
	// reported maps each start found to the initializations it was
	// reported with (initFor).
	reported map[[2]Site]bool
	// branches counts the branch arms being run.
	branches int
	// callSeq numbers the calls run, and callNo is the one running (0: the
	// entry's body): the facts of a test are those of one call.
	callSeq, callNo int32
	// returned holds, for each function call being run, the states its
	// returns left it in; jumped, for each loop being run, the states its
	// break and continue statements left the pass in.
	returned, jumped [][]*simState
	// calls holds the recorded runs of calls that changed nothing, and
	// trace what the runs being recorded do (callmemo.go).
	calls map[runKey][]*callRun
	trace runTrace
	// read are the properties of cfg the run has read, and touched the
	// keys of the hazards it added or found again (configreads.go).
	read    cfgReads
	touched []string
	// dropped: a hazard the run found was not added, since the entry's
	// program cannot meet the run's class of configs (hazardSet.add).
	dropped bool
}

// procKind is the process a simulation runs code in.
type procKind uint8

const (
	procMain   procKind = iota // the program's own process
	procChild                  // a spawn (or pre-fix forkserver) child importing the main module
	procServer                 // the forkserver process importing the main module or its preload
)

// running is the function whose call is being run, nil in the entry's
// body.
func (s *simulator) running() *Function {
	if len(s.stack) == 0 {
		return nil
	}
	return s.stack[len(s.stack)-1]
}

func (s *simulator) run(events []event, st *simState) {
	for i := range events {
		if st.ended {
			return
		}
		if s.budget <= 0 {
			s.trace.cuts++
			s.ranOut = true
			return
		}
		s.budget--
		e := &events[i]
		switch e.kind {
		case evEffect:
			s.effect(&e.eff, st)
		case evBranch:
			if arm, ok := e.plat.on(s.platform()); ok {
				// A test on the platform: one arm runs on this config's
				// (platform.go), as an arm a constant decides.
				s.run(e.arms[arm], st)
				continue
			}
			var ends []*simState
			s.branches++
			// The last arm runs on st itself when no arm is empty: no
			// arm after it needs the state the branch starts in. A copy
			// fewer per branch: the copies made for the arms of the
			// branches under way were most of the simulation's live
			// states (on composer, a tenth of the live heap at its peak).
			last := len(e.arms) - 1
			if slices.ContainsFunc(e.arms, func(arm []event) bool { return len(arm) == 0 }) {
				last = -1
			}
			for i, arm := range e.arms {
				if len(arm) == 0 {
					// An empty arm ends where the branch starts: in st,
					// which no arm changes (each runs on its own copy).
					if !slices.Contains(ends, st) {
						ends = append(ends, st)
					}
					continue
				}
				c := st
				if i != last {
					c = st.clone()
				}
				if e.site.Mod != nil {
					c.assume(branchFact{call: s.callNo, fn: s.running(), test: stableTestKey(e.site), arm: uint8(i)})
				}
				s.run(arm, c)
				if !c.ended {
					ends = append(ends, c)
				}
			}
			s.branches--
			if len(ends) == 0 {
				st.ended = true // every arm jumped
				return
			}
			// Join into the first end, which may be st itself, and only
			// then overwrite st: a later end may be st.
			first := ends[0]
			first.join(ends[1:]...)
			if first != st {
				*st = *first
			}
		case evReturn:
			if n := len(s.returned); n > 0 {
				s.returned[n-1] = append(s.returned[n-1], st.clone())
			}
			st.ended = true
		case evLoopJump:
			if n := len(s.jumped); n > 0 {
				s.jumped[n-1] = append(s.jumped[n-1], st.clone())
			}
			st.ended = true
		case evLoop:
			before := st.clone()
			s.pass(e.body(), st)
			s.pass(e.body(), st) // the second iteration sees the first one's state
			if st.ended {
				*st = *before // every pass returned: only skipping the loop goes on
			} else {
				st.join(before)
			}
		case evLazy:
			if s.hasLazyImports() {
				s.run(e.arms[0], st)
			} else {
				s.run(e.arms[1], st)
			}
		case evGuard:
			s.guard(e, st)
		}
	}
}

// pass runs one pass of a loop body: the states its breaks and continues
// left join the one at its end. st stays ended when every path of the pass
// returned from the function.
func (s *simulator) pass(body []event, st *simState) {
	if st.ended {
		return
	}
	s.jumped = append(s.jumped, nil)
	s.run(body, st)
	live := s.jumped[len(s.jumped)-1]
	s.jumped = s.jumped[:len(s.jumped)-1]
	if len(live) == 0 {
		return
	}
	if !st.ended {
		live = append(live, st)
	}
	// The jumps' states are copies of their own: join into the first.
	merged := live[0]
	merged.join(live[1:]...)
	merged.ended = false
	if merged != st {
		*st = *merged
	}
}

// call runs a function's events: the state after it joins those its
// returns left it in with the one at its end.
func (s *simulator) call(events []event, st *simState) {
	s.returned = append(s.returned, nil)
	s.run(events, st)
	live := s.returned[len(s.returned)-1]
	s.returned = s.returned[:len(s.returned)-1]
	if !st.ended {
		live = append(live, st)
	}
	if len(live) == 0 && st.ended {
		// No path returned: each raised (raiseAtBootstrap), and the
		// exception goes on up.
		return
	}
	if len(live) > 0 {
		// The returns' states are copies of their own: join into the
		// first.
		merged := live[0]
		merged.join(live[1:]...)
		if merged != st {
			*st = *merged
		}
	}
	st.ended = false
}

// guard runs the arm of a main guard that the process takes: the body as
// __main__ (a name guard) or in a process named MainProcess (a process
// guard: the program's own process and the forkserver), alt otherwise. What
// only the main module runs is PhaseMain: children never re-run it.
func (s *simulator) guard(e *event, st *simState) {
	var asMain bool
	switch e.guard {
	case NameGuard:
		asMain = !s.importOnly
	case ProcessGuard:
		asMain = s.proc != procChild
	}
	if !asMain {
		s.run(e.alt(), st)
		return
	}
	if s.proc == procServer {
		saved := s.procGuard
		s.procGuard = e.site
		s.run(e.body(), st)
		s.procGuard = saved
		return
	}
	saved := st.phase
	st.phase = PhaseMain
	s.run(e.body(), st)
	st.phase = saved
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
		st.sure.add(e.site.setKey())
		first := !hasInit(st.inits, e.site)
		st.initialized(e.site, first)
		if !first {
			return
		}
		rec := &InitRecord{Site: e.site, API: e.api, Chain: append([]Frame(nil), s.chain...), Phase: st.phase, ProcessGuard: s.procGuard}
		if e.entry != nil {
			rec.Lib = e.entry.Lib
			rec.DriverOnly = e.entry.Effect == catalog.InitDriver
		}
		st.inits = append(st.inits, rec)
	case effCall:
		if len(s.stack) >= maxCallDepth {
			s.trace.depthCuts++
			return
		}
		if i := slices.Index(s.stack, e.fn); i >= 0 {
			s.stackCut(e.fn, i)
			return
		}
		// Run it if it does something the simulation tracks, or iterates
		// a parameter this call hands loaders to (the loaders are only
		// looked up then: most calls do neither).
		f := factsIn(e.fn, e.ctx)
		if !f.relevant && !f.iterates {
			return
		}
		frame := s.bindFrame(e.binds())
		if !f.relevant && len(frame) == 0 {
			return
		}
		// A call handed loaders runs with whatever its caller handed it:
		// only calls handed none are recorded (callmemo.go).
		var key runKey
		var mark traceMark
		recorded := frame == nil && recordCalls
		if recorded {
			key = runKey{fn: e.fn, ctx: e.ctx, importOnly: s.importOnly, proc: s.proc, procGuard: s.procGuard, unsure: s.boot.family != "" && (s.unsure > 0 || e.unsure)}
			if run := s.recordedRun(key, st); run != nil {
				s.replay(run)
				return
			}
			mark = s.markTrace(st.clone())
		}
		s.entering(e.fn)
		s.stack = append(s.stack, e.fn)
		s.frames = append(s.frames, frame)
		s.chain = append(s.chain, Frame{Site: e.site, Func: e.fn.QualName})
		s.callSeq++
		caller := s.callNo
		s.callNo = s.callSeq
		if e.unsure {
			s.unsure++
		}
		s.call(summaryIn(e.fn, e.ctx), st)
		if e.unsure {
			s.unsure--
		}
		st.forget(s.callNo)
		s.callNo = caller
		s.chain = s.chain[:len(s.chain)-1]
		s.frames = s.frames[:len(s.frames)-1]
		s.stack = s.stack[:len(s.stack)-1]
		if recorded {
			if run := s.unmarkTrace(mark, st); run != nil {
				s.record(key, run)
			}
		}
	case effStart:
		if e.once {
			if st.startedOnce.has(e.obj.setKey()) {
				return
			}
			st.startedOnce.add(e.obj.setKey())
		}
		if s.raisesAtBootstrap(e, e.obj, st) {
			s.raiseAtBootstrap(st)
			return
		}
		s.start(e.obj, e.site, st, "")
	case effPendingStart:
		// Made, not iterated: no worker starts here, unless the loader goes
		// into a container whose iteration the model cannot see, where it
		// may start: unseen.
		if escapedLoader(e.obj) {
			s.start(e.obj, e.site, st, keptUnseen)
		}
	case effIterate:
		// Each iteration starts the workers again, but a persistent
		// loader's only once.
		why := ""
		if e.iterationUnseen() {
			why = handedUnseen
		}
		loaders := s.loaders(e.src())
		// An assumed iteration may not run, so it cannot end the import.
		if s.boot.family != "" && !e.iterationUnseen() && e.src().sure && len(loaders) > 0 && !slices.ContainsFunc(loaders, func(o *Object) bool {
			// The loaders are the values the iterated expression may
			// have (e.src().sure: all of them): the start raises if it
			// does whichever it is.
			return o.Persistent && st.startedOnce.has(o.setKey()) || !s.raisesAtBootstrap(e, o, st)
		}) {
			s.raiseAtBootstrap(st)
			return
		}
		for _, o := range loaders {
			if o.Persistent {
				if st.startedOnce.has(o.setKey()) {
					continue
				}
				st.startedOnce.add(o.setKey())
			}
			s.start(o, e.site, st, why)
		}
	case effSetMethod:
		if s.setterRaisesAtBootstrap(e) {
			s.raiseAtBootstrap(st)
			return
		}
		if e.ifUnset {
			st.setMethodIfUnset(e.method())
		} else {
			st.setMethod(e.method())
		}
	case effDefaultDevice:
		switch {
		case e.restore:
			// Leaving a `with torch.device(d):` block restores the
			// default it replaced (of the innermost block: nested
			// device blocks restore the outermost's).
			st.defaultCUDA, st.outerDefault = st.outerDefault == outerCUDA, outerNone
		case e.block:
			if st.outerDefault == outerNone {
				st.outerDefault = outerCPU
				if st.defaultCUDA {
					st.outerDefault = outerCUDA
				}
			}
			st.defaultCUDA = e.cuda
		default:
			st.defaultCUDA = e.cuda
		}
	case effPreload:
		if st.preload == nil {
			st.preload = map[string][]string{}
		}
		st.preload[e.method().Family] = e.mods()
	case effNVMLCheck:
		st.nvml = true
	case effNVMLRestore:
		st.nvml = false
	case effImport:
		if st.imported.has(e.mod.setKey()) {
			return
		}
		if len(s.chain) >= maxCallDepth {
			s.trace.cuts++
			return
		}
		st.imported.add(e.mod.setKey())
		if !e.mod.importFacts().relevant {
			return
		}
		s.chain = append(s.chain, Frame{Site: e.site, Import: e.api})
		saved := s.importOnly
		s.importOnly = true
		if e.unsure {
			s.unsure++
		}
		s.run(e.mod.topSummary(), st)
		if e.unsure {
			s.unsure--
		}
		s.importOnly = saved
		s.chain = s.chain[:len(s.chain)-1]
	}
}

// loaders resolves what an iteration iterates: its loaders, and those the
// current call handed to its parameters.
func (s *simulator) loaders(src loaderSrc) []*Object {
	if len(src.params) == 0 || len(s.frames) == 0 {
		return src.objs
	}
	out := append([]*Object(nil), src.objs...)
	frame := s.frames[len(s.frames)-1]
	for _, p := range src.params {
		for _, o := range frame[p] {
			if !containsObj(out, o) {
				out = append(out, o)
			}
		}
	}
	return out
}

// bindFrame resolves the loaders a call hands to its callee's parameters.
func (s *simulator) bindFrame(binds []paramLoaders) map[string][]*Object {
	if len(binds) == 0 {
		return nil
	}
	var frame map[string][]*Object // nil when no parameter gets loaders
	for _, b := range binds {
		if objs := s.loaders(b.src); len(objs) > 0 {
			if frame == nil {
				frame = map[string][]*Object{}
			}
			frame[b.param] = objs
		}
	}
	return frame
}

func (s *simulator) start(o *Object, site Site, st *simState, iterUnseen string) {
	if s.collectOnly {
		return
	}
	bits, explicit, lit := s.methodsFor(o, st)
	unseen := s.methodUnseen(o, explicit, st)
	for _, m := range []pytarget.StartMethod{pytarget.Fork, pytarget.Forkserver, pytarget.Spawn} {
		if bits&bitOf(m) == 0 {
			continue
		}
		if m != pytarget.Spawn && !s.hasFork() {
			continue // no fork on Windows: the start raises instead
		}
		rec := &StartRecord{Site: site, Obj: o, Chain: append([]Frame(nil), s.chain...),
			Phase: st.phase, Method: m, Explicit: explicit, MethodLit: lit(m), Conditional: s.branches > 0,
			MethodUnseen: unseen, IterationUnseen: iterUnseen}
		if !rec.Unseen() {
			// CFL005 and CFL007 are errors that rest on the start and its
			// method, and CFL004 on the children re-importing the module
			// under it.
			s.startAtImport(o, rec, st)
			s.notebookTarget(o, rec)
		}
		if !s.hasCUDA() || o.NoWorkersWithCUDA {
			// (With a GPU that CUDA could be initialized on, the start
			// has no workers: cudaoff.go.)
			continue
		}
		switch m {
		case pytarget.Fork:
			// CFL001, CFL003: the child inherits the parent's CUDA state.
			// A Manager's server runs only multiprocessing's own loop: no
			// edit of the program makes it touch CUDA, so it is not even
			// the benign hazard.
			if st.initsReach() && !o.ChildExecs && o.Kind != ObjManager {
				// st.inits only grows by append, and a capped slice of it
				// is never written through (simState.clone).
				child := s.childUse(o, st)
				if test, ok := st.acrossCalls(); ok && child.Verdict == ChildUsesCUDA {
					// The child's use is seen; the parent's initialization
					// meeting the fork is not (exclusive.go).
					child.Verdict, child.Reason = ChildUnknown, maybeReason(fmt.Sprintf(
						"`%s` can take this arm after an earlier call took the arm that initialized CUDA", test))
				}
				s.out.add(&Hazard{Kind: ForkAfterInit, Init: s.initFor(st, site), Inits: st.inits[:len(st.inits):len(st.inits)],
					Start: rec, Child: child}, s)
			}
		case pytarget.Forkserver:
			s.forkserver(o, rec, st)
		case pytarget.Spawn:
			if !rec.Unseen() {
				s.spawnReimport(o, rec, st)
			}
		}
	}
}

// initFor picks the initialization a start is reported with: the one an
// earlier visit of the same start was reported with, if it is still there
// (the same fork on a loop's next iteration is the same problem); else the
// first that happened on every path to the start; else the first that
// may have. The first in execution order that always runs is the one to
// act on; one that only a branch runs, or that a loop's body runs after
// the fork, is the answer only when nothing else initialized.
func (s *simulator) initFor(st *simState, start Site) *InitRecord {
	if s.reported == nil {
		s.reported = map[[2]Site]bool{}
	}
	r := s.pickInit(st, start)
	s.reported[[2]Site{start, r.Site}] = true
	if s.trace.recording > 0 {
		s.trace.picks = append(s.trace.picks, initPick{start: start, init: r.Site})
	}
	return r
}

// pickInit is the initialization initFor picks for start in st now.
func (s *simulator) pickInit(st *simState, start Site) *InitRecord {
	for _, r := range st.inits {
		if s.reported[[2]Site{start, r.Site}] && !st.unreachedFrom(r.Site) {
			return r
		}
	}
	for _, r := range st.inits {
		if st.sure.has(r.Site.setKey()) && !st.unreachedFrom(r.Site) {
			return r
		}
	}
	for _, r := range st.inits {
		if !st.unreachedFrom(r.Site) {
			return r
		}
	}
	return st.inits[0]
}

// initsReach reports whether an initialization ran on a path that meets
// the one st is on (exclusive.go).
func (st *simState) initsReach() bool {
	return slices.ContainsFunc(st.inits, func(r *InitRecord) bool { return !st.unreachedFrom(r.Site) })
}

// childUse classifies the code a started object's children run, forked
// from the parent in st.
func (s *simulator) childUse(o *Object, st *simState) ChildUse {
	return s.childUseIn(o, newTouchKey(st.defaultCUDA, &st.imported))
}

// childUseIn classifies the code o's children run, forked from a parent
// described by k.
func (s *simulator) childUseIn(o *Object, k touchKey) ChildUse {
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
		if h := s.prog().touchSearch(k).search(b.out); h.ok {
			u.Verdict, u.Evidence, u.API = ChildUsesCUDA, h.site, h.api
			return u
		}
		if h := s.prog().maybeSearch().search(b.out); h.ok {
			u.Verdict, u.Evidence, u.Reason = ChildUnknown, h.site, maybeReason(h.api)
			return u
		}
		u.Verdict = ChildNoCUDA
		return u
	}
	if o.ArgsDev == DevCUDA || o.ArgsDev == DevDefault && k.defaultCUDA {
		u.Verdict, u.Evidence, u.API = ChildUsesCUDA, o.ArgsSite, "CUDA objects passed to the child"
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
		if t.Builtin {
			continue // what it is handed was checked above
		}
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
		if h := s.prog().touchSearch(k).search(callEvents(t.Func, t.Ctx)); h.ok {
			u.Verdict, u.Evidence, u.API = ChildUsesCUDA, h.site, h.api
			return u
		}
		if hidden == "" {
			if api, ok := opaque(summaryIn(t.Func, t.Ctx)); ok {
				hidden = api
			}
		}
	}
	if o.Kind == ObjLoader || unresolved == "" && hidden == "" {
		if site, what, ok := s.maybeUsed(o); ok {
			u.Verdict, u.Evidence, u.Reason = ChildUnknown, site, maybeReason(what)
			if o.Kind == ObjLoader {
				// As for a dataset whose code could not be seen: workers
				// that would hold CUDA tensors are rare (PyTorch's
				// documentation warns against them), and an explicit CUDA
				// use in dataset code is found above. On 44 repositories
				// every such use in a worker was on the CPU (docs/accuracy.md).
				u.Verdict, u.Assumed = ChildNoCUDA, true
			}
			return u
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

// callEvents are the events of a call of f in context c (nil: any).
func callEvents(f *Function, c *callContext) []event {
	return []event{{kind: evEffect, eff: effect{kind: effCall, fn: f, ctx: c}}}
}

// hazardSet collects hazards, merging the same hazard found on several
// configs or through several entries.
//
// Which of the equivalent hazards represents them (its entry names the
// finding's message, related locations and fix) and the order of their
// further starts do not depend on the order the entries run in: each
// hazard carries its rank (hazardRank), the least rank represents, and the
// further starts are kept in the order of their ranks. The driver gives
// AnalyzeLoading its entries sorted by path, and in the order it runs them
// ranks only grow, so this is "the first found"; run in another order
// (TestEntryOrderChangesNothing), it is the same hazard.
type hazardSet struct {
	byKey map[string]*Hazard
	list  []*Hazard
	// class and uncalled are those of the entries running now (see
	// hazardRank); seq counts the hazards added.
	class    int
	uncalled bool
	seq      int
	// classConfigs are the configs of that class, and targets the run's:
	// a hazard an entry finds holds on those of classConfigs its program
	// can meet (configsOf).
	classConfigs, targets pytarget.Set
}

// configsOf are the configs hazard z, found now by the run on cfg of
// entry m (its function fn, nil for m as __main__), holds on: those of
// cfg's class, less those m's program cannot run on by the time it starts
// z's processes (pyrange.go). A set outside AnalyzeLoading (an import's
// own simulation, a test's) knows no class: cfg stands for itself.
func (h *hazardSet) configsOf(z *Hazard, m *Module, fn *Function, cfg pytarget.Config) pytarget.Set {
	class, targets := h.classConfigs, h.targets
	if class.Empty() {
		class, targets = pytarget.Of(cfg), pytarget.Of(cfg)
	}
	if m == nil {
		return class
	}
	return class & m.Prog.runsOn(m, targets, startsAt(z, m, fn), fn != nil)
}

// hazardRank orders hazards as AnalyzeLoading finds them: by class of
// configs, the modules run as __main__ before the functions nothing
// calls, the entry module by path, the uncalled function by its place in
// the module (-1 for the module run as __main__), then in the order the
// entry's simulation found them.
type hazardRank struct {
	class    int
	uncalled bool
	path     string
	fn       int
	seq      int
}

func (a hazardRank) less(b hazardRank) bool {
	switch {
	case a.class != b.class:
		return a.class < b.class
	case a.uncalled != b.uncalled:
		return !a.uncalled
	case a.path != b.path:
		return a.path < b.path
	case a.fn != b.fn:
		return a.fn < b.fn
	}
	return a.seq < b.seq
}

// rankOf is the rank of a hazard s finds now.
func (h *hazardSet) rankOf(s *simulator) hazardRank {
	h.seq++
	r := hazardRank{class: h.class, uncalled: h.uncalled, fn: -1, seq: h.seq}
	if s.entry != nil {
		r.path = s.entry.Path
		if s.fn != nil {
			r.fn = slices.Index(s.entry.Funcs, s.fn)
		}
	}
	return r
}

func (h *hazardSet) add(z *Hazard, s *simulator) {
	if h.byKey == nil {
		h.byKey = map[string]*Hazard{}
	}
	z.Entry, z.EntryFunc = s.entry, s.fn
	z.At = anchor(z)
	z.rank = h.rankOf(s)
	// One hazard per cause: the same initialization found before several
	// starts (or the same object started at several places) is one problem
	// with one fix; the other starts become MoreStarts.
	var key string
	if z.Init == nil {
		// StartAtImport, NotebookTarget: one per started object and file
		// it is reported in. Two scripts that start the same object inside
		// a library (the same writer made with the same arguments) are two
		// problems, each fixed in its own file; merged, the finding of one
		// would vanish whenever the other is checked with it.
		file := ""
		if z.At.Mod != nil {
			file = z.At.Mod.Path
		}
		key = fmt.Sprintf("%d|%p|%s", z.Kind, z.Start.Obj, file)
	} else {
		// A hazard whose children certainly use CUDA and one whose
		// children do not, or could not be seen to, are reported by
		// different rules (CFL001 and CFL003, CFL002 and CFL006): one
		// cannot stand for the other.
		verdict := "uses"
		if (z.Kind == ForkAfterInit || z.Kind == ForkserverInherits) && !z.Seen() {
			verdict = "warning"
		}
		key = fmt.Sprintf("%d|%s|%s|%s", z.Kind, siteKey(z.At), z.Via, verdict)
	}
	configs := h.configsOf(z, s.entry, s.fn, s.cfg)
	if configs.Empty() {
		// The entry's program cannot run where this class of configs
		// differs from the others (pyrange.go): nothing it finds here
		// holds, and its run cannot stand for another class's.
		s.dropped = true
		return
	}
	s.touched = append(s.touched, key)
	old, ok := h.byKey[key]
	if !ok {
		z.Configs = configs
		h.byKey[key] = z
		h.list = append(h.list, z)
		return
	}
	z.Configs = old.Configs | configs
	z.Inits = joinInits(old.Inits, z.Inits)
	if z.rank.less(old.rank) {
		// z represents from now on, in old's place; old's starts join its
		// further starts.
		z.MoreStarts, z.moreRanks = old.MoreStarts, old.moreRanks
		z.addStart(old.Start, old.rank)
		z.dropStart(z.Start)
		h.byKey[key] = z
		h.list[slices.Index(h.list, old)] = z
		return
	}
	old.Configs = z.Configs
	old.Inits = z.Inits
	if !sameStart(old.Start, z.Start) {
		old.addStart(z.Start, z.rank)
	}
}

// sameStart reports whether two records are the same start: the same site
// starting the same object. One site may start several (`for loader in
// [train, val]:` iterates two DataLoaders), and a fix that switches the
// start method must reach each of them.
func sameStart(a, b *StartRecord) bool {
	return a.Site == b.Site && a.Obj.Site == b.Obj.Site
}

// joinInits is a's initializations followed by those of b at sites a
// does not hold: a new list, since a and b may share their arrays with
// simulation states.
func joinInits(a, b []*InitRecord) []*InitRecord {
	out := a
	for _, r := range b {
		if !hasInit(a, r.Site) {
			if len(out) == len(a) {
				out = slices.Clone(a)
			}
			out = append(out, r)
		}
	}
	return out
}

// addStart adds rec, found at rank r, to z's further starts, in the order
// of their ranks: a start that is there already keeps the least rank of
// the two.
func (z *Hazard) addStart(rec *StartRecord, r hazardRank) {
	for i, m := range z.MoreStarts {
		if sameStart(m, rec) {
			if !r.less(z.moreRanks[i]) {
				return
			}
			z.MoreStarts = slices.Delete(z.MoreStarts, i, i+1)
			z.moreRanks = slices.Delete(z.moreRanks, i, i+1)
			break
		}
	}
	i := len(z.moreRanks)
	for i > 0 && r.less(z.moreRanks[i-1]) {
		i--
	}
	z.MoreStarts = slices.Insert(z.MoreStarts, i, rec)
	z.moreRanks = slices.Insert(z.moreRanks, i, r)
}

// dropStart removes the further start that is rec, if there is one.
func (z *Hazard) dropStart(rec *StartRecord) {
	for i, m := range z.MoreStarts {
		if sameStart(m, rec) {
			z.MoreStarts = slices.Delete(z.MoreStarts, i, i+1)
			z.moreRanks = slices.Delete(z.moreRanks, i, i+1)
			return
		}
	}
}

// anchor is where a hazard is reported (Hazard.At). An initialization in
// code of the entry's own project is reported where it is; one inside a
// library is reported at the last step of its call chain still in the
// project, so that each script importing the library gets its own finding
// where its author can act (a lazy import, the start method,
// PYTORCH_NVML_BASED_CUDA_CHECK before the import) and a noqa there. So is
// a start at import time (the script's top-level trainer.fit() that
// iterates a loader deep in the library: the script is what the children
// re-import, and what moves under the main guard); the other starts are
// reported where they are.
func anchor(z *Hazard) Site {
	switch {
	case z.Kind == StartAtImport:
		return ownSite(z.Entry, z.Start.Site, z.Start.Chain)
	case z.Init == nil:
		return z.Start.Site
	}
	return ownSite(z.Entry, z.Init.Site, z.Init.Chain)
}

// ownSite is site when it is in entry's own code, else the last step of
// the call chain that leads there from entry still in it.
func ownSite(entry *Module, site Site, chain []Frame) Site {
	if ownCode(entry, site.Mod) {
		return site
	}
	for i := len(chain) - 1; i >= 0; i-- {
		if f := chain[i]; ownCode(entry, f.Site.Mod) {
			return f.Site
		}
	}
	return site
}

// ownCode reports whether m is code of entry's own project rather than a
// library it uses: entry itself, a module outside any package (a script's
// helper next to it), or a module of a package under the same import root
// as entry (its project's package). A package found elsewhere — the
// library a repository's examples or tests import — is a library.
func ownCode(entry, m *Module) bool {
	if m == entry || m == nil {
		return true
	}
	return !m.inPackage() || m.importRoot == entry.importRoot
}

func siteKey(s Site) string {
	if s.Mod == nil {
		return ""
	}
	return fmt.Sprintf("%s:%d-%d", s.Mod.Path, s.Span.Start, s.Span.End)
}

// prog is the program the simulation runs in.
func (s *simulator) prog() *Program { return s.entry.Prog }
