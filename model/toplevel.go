package model

import (
	"strings"

	"github.com/cudaforklint/cudaforklint/catalog"
	"github.com/cudaforklint/cudaforklint/pytarget"
	"github.com/cudaforklint/cudaforklint/syntax"
)

// Top-level CUDA: what a module does when it is imported, that is what its
// top level does with the main guard skipped. Under spawn and forkserver
// the children (or the forkserver process itself) import the main module
// and the preloaded modules afresh, so what those imports initialize, or
// start, happens again there: the forkserver inherits CUDA (CFL002), every
// child initializes it again (CFL004), or every child starts processes
// while bootstrapping (CFL005).

// startAtImport checks a start made while the main module is imported
// (CFL005): under anything but fork its children re-import that module and
// make the same start.
//
// A script-runner app (a Streamlit script, run by `streamlit run`) cannot
// have a main guard: the whole file is its top level, and its starts are
// behind widgets (`if st.button(...):`). A child re-importing it runs
// outside the runner, where every widget returns its default, so a start
// under a branch is not made again there: only unconditional starts are
// reported in such a script.
func (s *simulator) startAtImport(o *Object, rec *StartRecord, st *simState) {
	if st.phase != PhaseImport || rec.Method == pytarget.Fork || !o.Kind.api().StartAtImportMatters() || s.fn != nil || !s.entry.ReimportedByChildren() {
		return
	}
	if rec.Conditional && s.entry.scriptRunnerApp() {
		return
	}
	s.out.add(&Hazard{Kind: StartAtImport, Start: rec}, s)
}

// scriptRunners are the libraries whose apps are scripts a runner executes
// as __main__ for each session, with no main guard: `streamlit run app.py`.
var scriptRunners = map[string]bool{"streamlit": true}

// scriptRunnerApp reports whether m is a script-runner app: its top level
// imports a script runner.
func (m *Module) scriptRunnerApp() bool {
	for _, st := range m.File.Body {
		switch st := st.(type) {
		case *syntax.Import:
			for _, a := range st.Names {
				if scriptRunners[rootOf(a.Name)] {
					return true
				}
			}
		case *syntax.ImportFrom:
			if st.Level == 0 && scriptRunners[rootOf(st.Module)] {
				return true
			}
		}
	}
	return false
}

// spawnReimport checks a spawn start (CFL004): each child imports the main
// module, and initializes CUDA again if its top level does.
func (s *simulator) spawnReimport(o *Object, rec *StartRecord, st *simState) {
	boot := s.childBootstrap(o, st)
	if inits := s.entryImportInits(procChild, boot); len(inits) > 0 && s.fn == nil && !s.libraryReinitMoot(inits, boot) {
		s.out.add(&Hazard{Kind: ReinitInChildren, Init: inits[0], Start: rec}, s)
	}
}

// bootstrap is what decides which process starts raise while a process
// imports the main module to bootstrap itself: a spawn or forkserver
// child, or the forkserver process. CPython's Lib/multiprocessing:
//
//   - spawn.py, _main: a child sets current_process()._inheriting, and
//     prepare() sets the start method to the parent's (the start_method
//     that get_preparation_data took from get_start_method() in the
//     parent, with force=True) before it imports the main module as
//     __mp_main__ (_fixup_main_from_path, _fixup_main_from_name).
//   - forkserver.py, main: the server sets _inheriting around
//     spawn.import_main_path(main_path), with no handler around it, and
//     imports the other preloaded modules afterwards, without it. Its
//     start method is nobody's choice: it was started as a fresh
//     interpreter (`python -c "from multiprocessing.forkserver import
//     main; main(...)"`), so it is the platform's default.
//   - spawn.py, get_preparation_data, which popen_spawn_posix,
//     popen_spawn_win32 and popen_forkserver call to launch a child (and
//     popen_fork does not), first calls _check_not_importing_main: while
//     _inheriting it raises RuntimeError ("An attempt has been made to
//     start a new process before the current process has finished its
//     bootstrapping phase").
//
// So a spawn or forkserver start of the bootstrapping family, made by the
// import, raises there (and so does a child's set_start_method without
// force=True: setterRaisesAtBootstrap), and unless a handler catches it
// the import ends:
// a child dies before it runs what follows, the forkserver dies and forks
// nobody. The zero bootstrap raises nowhere: an import that is no
// bootstrap (a preloaded module's), or whose family is not known.
type bootstrap struct {
	// family is the multiprocessing family whose process object is
	// bootstrapping: its _inheriting is the one set (multiprocess has a
	// process module of its own).
	family string
	// inherited is the family's start method when the import begins: the
	// parent's global method (a child), or the default (the forkserver);
	// familyUnseen where the parent's could not be evaluated.
	inherited methodBits
}

// childBootstrap is the bootstrap of the children of o, started in st: they
// begin with the method the parent's family has at the start. Where the
// import cannot start processes that method is not read (left unseen):
// only a set_start_method can raise there.
func (s *simulator) childBootstrap(o *Object, st *simState) bootstrap {
	fam := o.Method.Family
	if o.Kind == ObjFork || fam == "" || !s.entry.ReimportedByChildren() {
		return bootstrap{}
	}
	if !s.entryImportStarts() {
		return bootstrap{family: fam, inherited: familyUnseen}
	}
	bits := st.methodsOf(fam)
	if bits&familyDefault != 0 {
		bits = bits&^familyDefault | bitOf(s.defaultStartMethod(fam))
	}
	return bootstrap{family: fam, inherited: bits}
}

// serverBootstrap is the bootstrap of the forkserver that o's starts use:
// its family's default method.
func (s *simulator) serverBootstrap(o *Object) bootstrap {
	if o.Method.Family == "" || !s.entryImportStarts() {
		return bootstrap{}
	}
	return bootstrap{family: o.Method.Family, inherited: bitOf(s.defaultStartMethod(o.Method.Family))}
}

// entryImportStarts reports whether importing the entry module may start
// processes: where it cannot, no start raises during the import, and the
// zero bootstrap answers alike without reading the config's default
// method (which would keep the entry's run on one class of configs from
// standing for the others', configreads.go).
func (s *simulator) entryImportStarts() bool {
	return s.entry.ReimportedByChildren() && s.entry.importFacts().starts
}

// raisesAtBootstrap reports whether the start of o that eff makes, in st,
// certainly raises in the bootstrapping process s simulates the import
// of, and ends it: the start certainly starts a process, of the
// bootstrapping family, with spawn or forkserver, and nothing may catch
// the error or skip the start, here or in a caller or importer the import
// ran through (effect.unsure, simulator.unsure). A start that may start
// nothing (a loader whose worker count the model did not read as a
// number, one with no workers where CUDA is available, a launcher, a
// trainer) may let the import go on.
func (s *simulator) raisesAtBootstrap(eff *effect, o *Object, st *simState) bool {
	if s.boot.family == "" || eff.unsure || s.unsure > 0 || o.Method.Family != s.boot.family || o.NoWorkersWithCUDA {
		return false
	}
	switch o.Kind {
	case ObjProcess, ObjPool, ObjExecutor, ObjManager, ObjSpawn:
	case ObjLoader:
		if !o.WorkersSeen {
			return false
		}
	default:
		return false
	}
	var bits methodBits
	switch o.Method.Kind {
	case MethodExplicit:
		bits = bitOf(o.Method.Method)
	case MethodUnknown:
		return false
	default:
		bits = st.methodsOf(o.Method.Family)
		if bits&familyDefault != 0 {
			bits = bits&^familyDefault | s.boot.inherited
		}
	}
	raising := bitOf(pytarget.Spawn) | bitOf(pytarget.Forkserver)
	return bits != 0 && bits&^raising == 0
}

// setterRaisesAtBootstrap reports whether the set_start_method eff makes
// certainly raises in the child s simulates the import of: a child's
// family has its method set already (spawn.py's prepare, with
// force=True), and context.py's DefaultContext.set_start_method raises
// RuntimeError ("context has already been set") when called again without
// force=True (eff.ifUnset). The forkserver's method is not set: its
// setters succeed.
func (s *simulator) setterRaisesAtBootstrap(eff *effect) bool {
	return s.proc == procChild && s.boot.family != "" && eff.ifUnset && !eff.unsure && s.unsure == 0 &&
		eff.method().Family == s.boot.family
}

// raiseAtBootstrap ends the path st is on: a start, or a setter, raised. A
// child's state is kept (s.raised): what it initialized before it died it
// did initialize.
func (s *simulator) raiseAtBootstrap(st *simState) {
	if s.proc == procChild {
		s.raised = append(s.raised, st.clone())
	}
	s.trace.raises++
	st.ended = true
}

// libraryReinitMoot reports whether what a child's re-import of the entry
// initializes again is not worth reporting (inits, from entryImportInits):
// every initialization is a library's own, run by importing it — inside a
// library the main module imports, or a catalogued import such as `import
// cudf` — which children usually need anyway, and none that always runs
// creates a context: a child pays a cuInit and no GPU memory (libraries.md:
// `import torch_geometric` runs cuInit, makes no context). An
// initialization the program's own code calls is always reported: it can
// move under the main guard.
func (s *simulator) libraryReinitMoot(inits []*InitRecord, boot bootstrap) bool {
	memo := s.entry.importInitsMemo(s.cfg, procChild, boot)
	s.read |= memo.read
	sure := memo.sure
	for i, r := range inits {
		library := !ownCode(s.entry, r.Site.Mod) || strings.HasPrefix(r.API, "import ")
		if !library || (i < sure && !r.DriverOnly) {
			return false
		}
	}
	return true
}

// forkserver checks what the forkserver process imports before forking
// every child: __main__ (with the preload fix, when it is in the preload
// list, as it is by default) and the set_forkserver_preload modules.
//
// A Manager's server inherits the forkserver's state too, but runs only
// multiprocessing's own code: no CFL002 or CFL006 for it. Where the
// children import the main module themselves (CFL004), the server does
// like any child.
func (s *simulator) forkserver(o *Object, rec *StartRecord, st *simState) {
	inherits := o.Kind != ObjManager
	preload, set := st.preload[o.Method.Family]
	if !set {
		preload = []string{"__main__"}
	}
	serverImportsMain := false
	var hazards []*Hazard // their children's use is read once the server's imports are known
	for _, name := range preload {
		if name == "__main__" {
			serverImportsMain = s.forkserverImportsMain()
			continue
		}
		for _, r := range s.preloadInits(name, o) {
			if !inherits {
				break
			}
			hazards = append(hazards, &Hazard{Kind: ForkserverInherits, Init: r, Start: rec, Via: name})
			break
		}
	}
	// An uncalled function may run in any program: which module is
	// __main__ there is unknown.
	server := s.serverBootstrap(o)
	if serverImportsMain && s.fn == nil {
		if inits := s.entryImportInits(procServer, server); len(inits) > 0 && inherits {
			hazards = append(hazards, &Hazard{Kind: ForkserverInherits, Init: inits[0], Start: rec, Via: "__main__"})
		}
	}
	if len(hazards) > 0 {
		child := s.childUseIn(o, s.forkserverKey(preload, serverImportsMain && s.fn == nil, server, st))
		for _, z := range hazards {
			z.Child = child
			s.out.add(z, s)
		}
	}
	if s.fn != nil || serverImportsMain {
		return
	}
	boot := s.childBootstrap(o, st)
	if inits := s.entryImportInits(procChild, boot); len(inits) > 0 && !rec.Unseen() && !s.libraryReinitMoot(inits, boot) {
		// Each child imports the main module itself, as a spawn child does.
		s.out.add(&Hazard{Kind: ReinitInChildren, Init: inits[0], Start: rec}, s)
	}
}

// forkserverKey describes the forkserver to the search of its children's
// code: the modules it imported before forking them (the preloaded ones
// and, when importsMain, the main module, with what each imports on every
// path) are in their sys.modules, and their imports run nothing. The
// parent's own imports are not: the server was started apart from it.
func (s *simulator) forkserverKey(preload []string, importsMain bool, server bootstrap, st *simState) touchKey {
	imported := newCowSet[moduleSetKey]()
	add := func(m *Module, boot bootstrap) {
		if memo := m.importInitsMemo(s.cfg, procServer, boot); memo.done {
			for _, k := range memo.imported.d.keys {
				imported.add(k)
			}
		}
	}
	for _, name := range preload {
		if name == "__main__" {
			if importsMain {
				add(s.entry, server)
			}
		} else if m := s.entry.importedModule(name, 0); m != nil {
			add(m, bootstrap{}) // imported after main, not bootstrapping
		}
	}
	return newTouchKey(st.defaultCUDA, &imported)
}

// preloadInits simulates the forkserver importing a preloaded module: after
// the main module, with no bootstrap under way (forkserver.py's main).
func (s *simulator) preloadInits(name string, o *Object) []*InitRecord {
	if mod := s.entry.importedModule(name, 0); mod != nil {
		return s.importInits(mod, procServer, bootstrap{})
	}
	if e, ok := catalog.Lookup(catalog.Import, catalog.Canonical(name)); ok && e.Effect.Initializes() {
		return []*InitRecord{{Site: o.Site, API: "import " + name, Lib: e.Lib}}
	}
	return nil
}

// entryImportInits is what running the entry module's top level as an
// import initializes in proc, bootstrapping as boot: what a spawn child, or
// the forkserver, does to it. Nothing, for a main module children never
// re-import.
func (s *simulator) entryImportInits(proc procKind, boot bootstrap) []*InitRecord {
	if !s.entry.ReimportedByChildren() {
		return nil
	}
	return s.importInits(s.entry, proc, boot)
}

// importInitsCache is what importTimeInits found for one kind of target
// and process.
type importInitsCache struct {
	inits []*InitRecord
	sure  int // inits[:sure] run on every path of the import
	done  bool
	// read is what of the config the import's simulation read: the
	// memo's other version (lazy imports or not) holds the same answer
	// when that is not among them.
	read cfgReads
	// imported holds the module and the local modules the import imports
	// on every path: what a forkserver that imported it hands its
	// children in sys.modules.
	imported cowSet[moduleSetKey]
}

// importInitsKey is what an import's simulation depends on besides the
// module: the platform, lazy imports, the process and its bootstrap.
type importInitsKey struct {
	platform pytarget.Platform
	lazy     bool
	proc     procKind
	boot     bootstrap
}

// importInitsMemo is the cache of importTimeInits for a target, a process
// and a bootstrap.
func (m *Module) importInitsMemo(cfg pytarget.Config, proc procKind, boot bootstrap) *importInitsCache {
	k := importInitsKey{platform: cfg.Platform, lazy: cfg.HasLazyImports(), proc: proc, boot: boot}
	memo := m.importInits[k]
	if memo == nil {
		if m.importInits == nil {
			m.importInits = map[importInitsKey]*importInitsCache{}
		}
		memo = &importInitsCache{}
		m.importInits[k] = memo
	}
	return memo
}

// importTimeInits simulates importing m (its top level, name guards
// skipped) in proc, a child or the forkserver, which differ in what they do
// with process guards, bootstrapping as boot, and returns the CUDA
// initializations, cached: they depend on the start methods only through
// boot (the starts that raise), and on the version only through lazy
// imports (lazy.go).
//
// A start that raises (raisesAtBootstrap) ends the import on its path. A
// child keeps what it initialized before, on that path; the forkserver
// dies there and forks no child, so only the paths on which its import
// completes count.
func (m *Module) importTimeInits(cfg pytarget.Config, proc procKind, boot bootstrap) []*InitRecord {
	memo := m.importInitsMemo(cfg, proc, boot)
	if memo.done {
		return memo.inits
	}
	memo.done = true
	memo.imported = newCowSet[moduleSetKey]()
	memo.imported.add(m.setKey())
	if !m.importFacts().relevant {
		return nil
	}
	sub := &simulator{cfg: cfg, entry: m, out: &hazardSet{}, budget: maxSimEvents, importOnly: true, collectOnly: true, proc: proc, boot: boot}
	st := newState()
	st.imported.add(m.setKey())
	sub.run(m.topSummary(), st)
	memo.read = sub.read
	m.Prog.noteBudgetCut(sub, BudgetCut{Module: m, Import: true})
	var ends []*simState
	if !st.ended {
		ends = append(ends, st)
	}
	ends = append(ends, sub.raised...)
	if len(ends) == 0 {
		return nil // the forkserver's import raises on every path
	}
	st = ends[0]
	st.join(ends[1:]...)
	memo.imported = st.imported
	// Those that always run first, in execution order, then the others.
	for _, sure := range []bool{true, false} {
		for _, r := range st.inits {
			if r.Phase == PhaseImport && st.sure.has(r.Site.setKey()) == sure {
				memo.inits = append(memo.inits, r)
			}
		}
		if sure {
			memo.sure = len(memo.inits)
		}
	}
	return memo.inits
}
