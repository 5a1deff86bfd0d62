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
	if inits := s.entryImportInits(procChild); len(inits) > 0 && s.fn == nil && !s.libraryReinitMoot(inits) {
		s.out.add(&Hazard{Kind: ReinitInChildren, Init: inits[0], Start: rec}, s)
	}
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
func (s *simulator) libraryReinitMoot(inits []*InitRecord) bool {
	memo := s.entry.importInitsMemo(s.cfg, procChild)
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
	if serverImportsMain && s.fn == nil {
		if inits := s.entryImportInits(procServer); len(inits) > 0 && inherits {
			hazards = append(hazards, &Hazard{Kind: ForkserverInherits, Init: inits[0], Start: rec, Via: "__main__"})
		}
	}
	if len(hazards) > 0 {
		child := s.childUseIn(o, s.forkserverKey(preload, serverImportsMain && s.fn == nil, st))
		for _, z := range hazards {
			z.Child = child
			s.out.add(z, s)
		}
	}
	if s.fn != nil || serverImportsMain {
		return
	}
	if inits := s.entryImportInits(procChild); len(inits) > 0 && !rec.Unseen() && !s.libraryReinitMoot(inits) {
		// Each child imports the main module itself, as a spawn child does.
		s.out.add(&Hazard{Kind: ReinitInChildren, Init: inits[0], Start: rec}, s)
	}
}

// forkserverKey describes the forkserver to the search of its children's
// code: the modules it imported before forking them (the preloaded ones
// and, when importsMain, the main module, with what each imports on every
// path) are in their sys.modules, and their imports run nothing. The
// parent's own imports are not: the server was started apart from it.
func (s *simulator) forkserverKey(preload []string, importsMain bool, st *simState) touchKey {
	imported := newCowSet[moduleSetKey]()
	add := func(m *Module) {
		if memo := m.importInitsMemo(s.cfg, procServer); memo.done {
			for _, k := range memo.imported.d.keys {
				imported.add(k)
			}
		}
	}
	for _, name := range preload {
		if name == "__main__" {
			if importsMain {
				add(s.entry)
			}
		} else if m := s.entry.importedModule(name, 0); m != nil {
			add(m)
		}
	}
	return newTouchKey(st.defaultCUDA, &imported)
}

// preloadInits simulates the forkserver importing a preloaded module.
func (s *simulator) preloadInits(name string, o *Object) []*InitRecord {
	if mod := s.entry.importedModule(name, 0); mod != nil {
		return s.importInits(mod, procServer)
	}
	if e, ok := catalog.Lookup(catalog.Import, catalog.Canonical(name)); ok && e.Effect.Initializes() {
		return []*InitRecord{{Site: o.Site, API: "import " + name, Lib: e.Lib}}
	}
	return nil
}

// entryImportInits is what running the entry module's top level as an
// import initializes in proc: what a spawn child, or the forkserver, does
// to it. Nothing, for a main module children never re-import.
func (s *simulator) entryImportInits(proc procKind) []*InitRecord {
	if !s.entry.ReimportedByChildren() {
		return nil
	}
	return s.importInits(s.entry, proc)
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

// importInitsMemo is the cache of importTimeInits for a target and a
// process.
func (m *Module) importInitsMemo(cfg pytarget.Config, proc procKind) *importInitsCache {
	k := 2 * int(cfg.Platform)
	if cfg.HasLazyImports() {
		k++
	}
	return &m.importInits[k][proc]
}

// importTimeInits simulates importing m (its top level, name guards
// skipped) in proc, a child or the forkserver, which differ in what they do
// with process guards, and returns the CUDA initializations, cached: they
// do not depend on the start method, and on the version only through lazy
// imports (lazy.go).
func (m *Module) importTimeInits(cfg pytarget.Config, proc procKind) []*InitRecord {
	memo := m.importInitsMemo(cfg, proc)
	if memo.done {
		return memo.inits
	}
	memo.done = true
	memo.imported = newCowSet[moduleSetKey]()
	memo.imported.add(m.setKey())
	if !m.importFacts().relevant {
		return nil
	}
	sub := &simulator{cfg: cfg, entry: m, out: &hazardSet{}, budget: maxSimEvents, importOnly: true, collectOnly: true, proc: proc}
	st := newState()
	st.imported.add(m.setKey())
	sub.run(m.topSummary(), st)
	memo.read = sub.read
	memo.imported = st.imported
	m.Prog.noteBudgetCut(sub, BudgetCut{Module: m, Import: true})
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
