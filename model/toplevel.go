package model

import (
	"github.com/cudaforklint/cudaforklint/catalog"
	"github.com/cudaforklint/cudaforklint/target"
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
func (s *simulator) startAtImport(o *Object, rec *StartRecord, st *simState) {
	if st.phase == PhaseImport && rec.Method != target.Fork && o.Kind.api().StartAtImportMatters() && s.fn == nil && s.entry.ReimportedByChildren() {
		s.out.add(&Hazard{Kind: StartAtImport, Start: rec}, s)
	}
}

// spawnReimport checks a spawn start (CFL004): each child imports the main
// module, and initializes CUDA again if its top level does.
func (s *simulator) spawnReimport(rec *StartRecord) {
	if inits := s.entryImportInits(); len(inits) > 0 && s.fn == nil {
		s.out.add(&Hazard{Kind: ReinitInChildren, Init: inits[0], Start: rec}, s)
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
