package model

import (
	"context"
	"sort"
	"strings"

	"github.com/cudaforklint/cudaforklint/pytarget"
	"github.com/cudaforklint/cudaforklint/syntax"
)

// Entries: what the simulation runs. Every checked module is run as
// __main__, and every function nothing calls (by name) as an entry point of
// its own, once per class of target configurations that behave alike; the
// hazards found are merged and sorted.

// Analyze simulates every module in mods as __main__, and every function
// of them that nothing calls as an entry point of its own, on every config
// in targets, and returns the hazards found, sorted by position.
func (p *Program) Analyze(mods []*Module, targets pytarget.Set) []*Hazard {
	hz, _ := p.AnalyzeLoading(context.Background(), loadedEntries(mods), targets)
	return hz
}

// Entries are the modules a run simulates as __main__, in order, while the
// run may still be loading them and its other checked files
// (AnalyzeLoading).
type Entries interface {
	Len() int
	// At returns the i-th entry once it is built, or nil when it did not
	// load.
	At(i int) *Module
	// Wait returns once every checked file of the run is built: from then
	// on, Loaded holds what it holds once the load is over.
	Wait()
}

type loadedEntries []*Module

func (l loadedEntries) Len() int         { return len(l) }
func (l loadedEntries) At(i int) *Module { return l[i] }
func (l loadedEntries) Wait()            {}

// AnalyzeLoading is Analyze on entries that may still be loading: it runs
// the first entries as __main__ as soon as each is built, while the others
// load on other goroutines, and waits for the whole load before anything
// that reads the loaded modules as a whole (the prescan, nameUsed). It
// asks the model the same questions in the same order as Analyze on the
// loaded entries, so it finds the same hazards: a module's index is built
// from its own file alone (newModule), and what the first loop evaluates
// it reaches through Module, which builds or waits for what it needs.
//
// Once ctx is done it returns ctx.Err() and no hazards, before the next
// entry's simulation (a module as __main__, an uncalled function): one
// simulation is not interrupted, so the error comes after at most one.
// It does not wait for entries still loading then.
func (p *Program) AnalyzeLoading(ctx context.Context, entries Entries, targets pytarget.Set) ([]*Hazard, error) {
	hz, _, err := p.analyzeLoading(ctx, entries, targets)
	return hz, err
}

// analyzeLoading is AnalyzeLoading, with the runs it made of each entry.
func (p *Program) analyzeLoading(ctx context.Context, entries Entries, targets pytarget.Set) ([]*Hazard, entryRuns, error) {
	defer p.stopPrefetch()
	out := &hazardSet{}
	var mods []*Module // the entries, once the load is over
	runs := entryRuns{}
	out.targets = targets
	for k, class := range configClasses(targets) {
		out.class, out.uncalled, out.classConfigs = k, false, class.all
		if k == 0 {
			for i := range entries.Len() {
				if err := ctx.Err(); err != nil {
					return nil, nil, err
				}
				if m := entries.At(i); m != nil {
					mods = append(mods, m)
					p.runAsMain(m, class.rep, out, runs)
				}
			}
			entries.Wait()
		} else {
			for _, m := range mods {
				if err := ctx.Err(); err != nil {
					return nil, nil, err
				}
				p.runAsMain(m, class.rep, out, runs)
			}
		}
		importers := p.importersByStem()
		may := p.mayStart()
		out.uncalled = true
		for _, m := range mods {
			if isProcessLibrary(m) || !m.cudaPossible() {
				continue
			}
			var imported *importRun // the module's import, run by its first uncalled function
			for _, f := range m.Funcs {
				if !may[f] || f.referenced || nameUsed(f, importers) || f.Lambda != nil || isDunder(f.Name) || !f.facts().starts {
					continue
				}
				if err := ctx.Err(); err != nil {
					return nil, nil, err
				}
				if configMemo && runs.replay(entryKey{m, f}, class.rep, out) {
					continue
				}
				if imported == nil {
					// A module's uncalled functions (a test module's tests)
					// share one budget of contexts, as a main module does.
					p.values().newEntry()
				}
				s := &simulator{cfg: class.rep, entry: m, fn: f, out: out, budget: maxSimEvents}
				var st *simState
				if imported == nil || !uncalledShortcuts {
					st = newState()
					s.importOnly = true
					s.run(m.topSummary(), st)
					s.importOnly = false
					imported = s.importRun(st)
				} else {
					st = s.resume(imported)
				}
				st.phase = PhaseMain
				s.stack = []*Function{f}
				var ev evaluator
				if body := summaryIn(f, ev.parametrizedContext(f)); !uncalledShortcuts || bodyMayStart(body, st) {
					s.run(body, st)
				}
				p.noteBudgetCut(s, BudgetCut{Module: m, Func: f})
				runs.add(entryKey{m, f}, s)
			}
		}
	}
	for _, z := range out.list {
		z.Configs &= targets
	}
	// Hazards at the same place are ordered by rank, not by when they were
	// found (hazardSet).
	sort.Slice(out.list, func(i, j int) bool {
		a, b := out.list[i], out.list[j]
		if hazardLess(a, b) || hazardLess(b, a) {
			return hazardLess(a, b)
		}
		return a.rank.less(b.rank)
	})
	return out.list, runs, nil
}

// runAsMain simulates m as __main__ on cfg, if running it can start a
// process at all and no earlier run of it stands for this one (runs).
func (p *Program) runAsMain(m *Module, cfg pytarget.Config, out *hazardSet, runs entryRuns) {
	if !m.topFacts().starts {
		return
	}
	if configMemo && runs.replay(entryKey{m, nil}, cfg, out) {
		return
	}
	p.values().newEntry()
	s := &simulator{cfg: cfg, entry: m, out: out, budget: maxSimEvents}
	s.run(m.topSummary(), newState())
	p.noteBudgetCut(s, BudgetCut{Module: m})
	runs.add(entryKey{m, nil}, s)
}

// nameUsed reports whether f's name is used in an expression of its own
// module or of a loaded module that imports it. A function whose name
// appears in none is called by no code here and is analyzed as an entry
// point of its own; one whose name appears may be called, directly or
// through an attribute, and is analyzed where it is. Deciding this from
// names rather than from resolved calls saves summarizing every function of
// every module.
//
// In its own module, a function that is not a method is used by its name
// alone: `model.train()` there is a call of a method of model's, not of
// the module's train(), which it used to hide from the entry points (the
// usual training function that puts its model in training mode,
// testdata/py/cfl003/train_sets_model_train.py). A method is called
// through an attribute; so is a function of a module its importers import
// as a module (`import lib; lib.train()`), but not in one that only takes
// names from it (`from lib import evaluate`, then `model.train()`).
func nameUsed(f *Function, importers map[string][]stemImporter) bool {
	own := usedAsName
	if f.Class != nil {
		own |= usedAsAttr
	}
	if f.Module.usedNames()[f.Name]&own != 0 {
		return true
	}
	for _, im := range importers[lastPart(f.Module.Name)] {
		if im.m == f.Module {
			continue
		}
		used := im.m.usedNames()[f.Name]
		if used&usedAsName != 0 || used&usedAsAttr != 0 && im.asModule {
			return true
		}
	}
	return false
}

// useKind is how a module's code uses a name: as a name (or the constant
// name of a getattr call), as an attribute's name, or both.
type useKind uint8

const (
	usedAsName useKind = 1 << iota
	usedAsAttr
)

// usedWord is a name a deferred body uses, and how.
type usedWord struct {
	word string
	kind useKind
}

// importersByStem maps the last component of every module name an import
// statement of a loaded module names (import a.stem, from a import stem,
// from .stem import x) to the modules with such a statement. Like the
// prescan, it is extended with the modules loaded since it was last asked
// for (the order of each list does not matter to nameUsed).
func (p *Program) importersByStem() map[string][]stemImporter {
	if p.stems == nil {
		p.stems = &stemIndex{seen: map[*Module]bool{}, byStem: map[string][]stemImporter{}}
	}
	out := p.stems.byStem
	for _, m := range p.Loaded() {
		if p.stems.seen[m] {
			continue
		}
		p.stems.seen[m] = true
		at := map[string]int{} // each stem's place in out[stem]
		add := func(dotted string, asModule bool) {
			for _, part := range strings.Split(dotted, ".") {
				if part == "" {
					continue
				}
				if i, ok := at[part]; ok {
					out[part][i].asModule = out[part][i].asModule || asModule
					continue
				}
				at[part] = len(out[part])
				out[part] = append(out[part], stemImporter{m: m, asModule: asModule})
			}
		}
		for _, s := range m.imports() {
			switch s := s.(type) {
			case *syntax.Import:
				for _, a := range s.Names {
					add(a.Name, true)
				}
			case *syntax.ImportFrom:
				add(s.Module, false)
				for _, a := range s.Names {
					add(a.Name, true)
				}
			}
		}
	}
	return out
}

// stemImporter is a module with an import statement naming a stem.
type stemImporter struct {
	m *Module
	// asModule: a statement binds a module of that name itself (import
	// a.stem, from a import stem), whose attributes the importer may
	// call; otherwise the importer only takes names from it (from a.stem
	// import x), and `x.f()` there is not the stem's f.
	asModule bool
}

// stemIndex is the state of importersByStem.
type stemIndex struct {
	seen   map[*Module]bool
	byStem map[string][]stemImporter
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
			case *syntax.FunctionDef:
				return !holdsNoImports(n)
			case syntax.Expr:
				return false
			}
			return true
		})
	}
	return m.importStmts
}

// importTimeImports are the import statements of m that run when it is
// imported: all but those in function bodies.
func (m *Module) importTimeImports() []syntax.Stmt {
	var out []syntax.Stmt
	for _, s := range m.File.Body {
		syntax.InspectShallow(s, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.Import:
				out = append(out, n)
			case *syntax.ImportFrom:
				out = append(out, n)
			case *syntax.FunctionDef, syntax.Expr:
				return false
			}
			return true
		})
	}
	return out
}

// usedNames are the names m's code uses anywhere: identifiers, attribute
// names, and the constant names of getattr calls (addUsedNames). Other
// strings are data: counting each short string's parts as names, as the
// first version did, hid every function named like a string of its module
// (`def train()` beside `load("train")`) from the entry points, while a
// call through a string the model cannot resolve never analyzed it either
// (testdata/py/cfl003/split_named_like_train.py).
func (m *Module) usedNames() map[string]useKind {
	if m.used != nil {
		return m.used
	}
	m.used = make(map[string]useKind, len(m.bodyWords))
	for _, w := range m.bodyWords {
		m.used[w.word] |= w.kind
	}
	m.bodyWords = nil
	for _, s := range m.File.Body {
		syntax.InspectShallow(s, func(n syntax.Node) bool {
			addUsedNames(m.used, n)
			return true
		})
	}
	return m.used
}

// addUsedNames adds to used the names node n uses: a name, an attribute's
// name, or the constant name getattr(obj, "name") reads.
func addUsedNames(used map[string]useKind, n syntax.Node) {
	switch n := n.(type) {
	case *syntax.Name:
		used[n.ID] |= usedAsName
	case *syntax.Attribute:
		used[n.Attr] |= usedAsAttr
	case *syntax.Call:
		if name, ok := getattrName(n); ok {
			used[name] |= usedAsName
		}
	}
}

// getattrName is the constant name a getattr(obj, "name") call reads, the
// only string the model resolves to code (builtins.go).
func getattrName(c *syntax.Call) (string, bool) {
	n, ok := c.Func.(*syntax.Name)
	if !ok || n.ID != "getattr" || len(c.Args) < 2 || c.Args[1].Keyword != "" || c.Args[1].Star != 0 {
		return "", false
	}
	s, ok := c.Args[1].Value.(*syntax.String)
	if !ok || s.Interpolated {
		return "", false
	}
	return s.Value, true
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

func primarySite(z *Hazard) Site { return z.At }

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
	rep pytarget.Config
	all pytarget.Set
}

// configClasses groups configs by the behaviour the simulation depends on:
// every family's default start method, whether the forkserver imports __main__,
// whether fork and CUDA exist, whether imports can be lazy, and the platform.
func configClasses(s pytarget.Set) []configClass {
	type key struct {
		defaults     string // familyDefaults
		importsMain  bool
		fork, hasGPU bool
		lazy         bool
		platform     pytarget.Platform // tests on the platform (platform.go)
	}
	var order []key
	classes := map[key]*configClass{}
	for _, c := range s.Configs() {
		// Without fork there is no forkserver, so its import of __main__ cannot matter.
		k := key{familyDefaults(c), c.ForkserverImportsMain() && c.HasFork(), c.HasFork(), c.HasCUDA(), c.HasLazyImports(), c.Platform}
		if cl, ok := classes[k]; ok {
			cl.all |= pytarget.Of(c)
			continue
		}
		classes[k] = &configClass{rep: c, all: pytarget.Of(c)}
		order = append(order, k)
	}
	out := make([]configClass, 0, len(order))
	for _, k := range order {
		out = append(out, *classes[k])
	}
	return out
}
