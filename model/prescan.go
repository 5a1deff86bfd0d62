package model

import (
	"strings"

	"github.com/cudaforklint/cudaforklint/catalog"
	"github.com/cudaforklint/cudaforklint/procapi"
	"github.com/cudaforklint/cudaforklint/syntax"
)

// Before a function is simulated as an entry point of its own, the model
// asks whether it can start processes at all. Answering that with its
// summary (facts) means resolving every call in it; most functions of a large
// code base could never start anything, and their names show it. mayStart
// over-approximates from identifiers alone: a function may start processes
// if its body names a process-starting API (or imports something), or names
// a function that may. Only those get summarized.

// startIdents are the identifiers every process start is written with:
// those of the procapi rows that start processes, module-level (Pool,
// fork, DataLoader) or methods that start an object made elsewhere (start,
// submit), but for names too common to tell anything (map), which count
// only in the calls keyedStart recognizes.
var startIdents = func() map[string]bool {
	m := map[string]bool{}
	for _, api := range procapi.Rows() {
		if api.Kind.Starts() && !api.Common {
			for _, id := range api.Idents() {
				m[id] = true
			}
		}
	}
	for id, kws := range startKeywords {
		for _, kw := range kws {
			m[keyedIdent(id, kw)] = true
		}
	}
	return m
}()

// startKeywords maps a common start identifier to the keywords that tell
// its row's calls apart: datasets' ds.map(f, num_proc=4) starts a pool,
// a plain map(f, xs) does not.
var startKeywords = func() map[string][]string {
	m := map[string][]string{}
	for _, api := range procapi.Rows() {
		if api.Kind.Starts() && api.Common && api.Workers.Keyword != "" {
			for _, id := range api.Idents() {
				if !slicesContain(m[id], api.Workers.Keyword) {
					m[id] = append(m[id], api.Workers.Keyword)
				}
			}
		}
	}
	return m
}()

// keyedIdent is the start identifier of a common name called with a
// keyword that tells its row's calls apart ("map(num_proc=)"): no Python
// identifier looks like it.
func keyedIdent(id, keyword string) string { return id + "(" + keyword + "=)" }

// keyedStart returns the start identifier of a call of id that passes one
// of its row's keywords, or a ** spread that may hold one; "" otherwise.
func keyedStart(id string, c *syntax.Call) string {
	for _, kw := range startKeywords[id] {
		for _, a := range c.Args {
			if a.Keyword == kw || a.Star == 2 {
				return keyedIdent(id, kw)
			}
		}
	}
	return ""
}

// prescan is the program's mayStart state. It is built incrementally:
// Analyze asks for it once per class of target configs, and the simulation
// of one class may load modules the previous one did not; the relation is a
// least fixpoint over the loaded modules, so extending it with the new
// modules gives what computing it afresh over all of them would, at a cost
// linear in what was added (each function's callee identifiers are gathered
// once, on the load workers: newModule).
type prescan struct {
	seen map[*Module]bool
	// starts are the identifiers a start is written with, and the names of
	// the local classes deriving (by name) from one.
	starts map[string]bool
	// byBase lists the classes not yet known to start by the identifiers
	// of their bases.
	byBase map[string][]*Class
	// callers maps a callee identifier to the functions calling it.
	callers map[string][]*Function
	// getters maps the names of the properties of the loaded classes to
	// the names of their getters: reading one calls them (property.go).
	getters map[string][]string
	// bad are the identifiers whose callers may start: starts and the
	// names of the functions that may.
	bad map[string]bool
	may map[*Function]bool
}

func newPrescan() *prescan {
	ps := &prescan{seen: map[*Module]bool{}, starts: map[string]bool{}, byBase: map[string][]*Class{},
		callers: map[string][]*Function{}, getters: map[string][]string{}, bad: map[string]bool{}, may: map[*Function]bool{}}
	for id := range startIdents {
		ps.starts[id], ps.bad[id] = true, true
	}
	// trainer.fit(model) starts the workers of the loaders the model's
	// hooks make.
	for _, id := range hookCallIdents() {
		ps.starts[id], ps.bad[id] = true, true
	}
	return ps
}

// mayStart returns the functions of the loaded modules that may start
// processes, transitively through the functions they call by name.
func (p *Program) mayStart() map[*Function]bool {
	if p.pre == nil {
		p.pre = newPrescan()
	}
	ps := p.pre
	var added []*Module
	for _, m := range p.Loaded() {
		if !ps.seen[m] {
			ps.seen[m] = true
			added = append(added, m)
		}
	}
	// Local subclasses of Process (class Worker(mp.Process)) start when
	// instantiated and .start()ed: their names count as start identifiers.
	for _, m := range added {
		for _, c := range m.Classes {
			ps.addClass(c)
		}
	}
	// A property read calls its getter: the functions reading a property
	// of an added class, those loaded before included, call the getter.
	fresh := map[string][]string{}
	for _, m := range added {
		for _, c := range m.Classes {
			for _, pn := range propertyNames(c) {
				if !slicesContain(ps.getters[pn.name], pn.getter) {
					ps.getters[pn.name] = append(ps.getters[pn.name], pn.getter)
					fresh[pn.name] = append(fresh[pn.name], pn.getter)
				}
			}
		}
	}
	if len(fresh) > 0 {
		isAdded := map[*Module]bool{}
		for _, m := range added {
			isAdded[m] = true
		}
		for _, m := range p.Loaded() {
			if isAdded[m] {
				continue
			}
			for _, f := range m.Funcs {
				if ps.readGetters(f, fresh) {
					ps.markMay(f)
				}
			}
		}
	}
	for _, m := range added {
		for _, f := range m.Funcs {
			seed := f.importsLocal
			for _, id := range f.callees {
				ps.callers[id] = append(ps.callers[id], f)
				seed = seed || ps.bad[id]
			}
			if ps.readGetters(f, ps.getters) || seed {
				ps.markMay(f)
			}
		}
	}
	return ps.may
}

// readGetters records f as a caller of the getters of the properties in
// getters it reads by name, and reports whether one of them may start.
func (ps *prescan) readGetters(f *Function, getters map[string][]string) bool {
	seed := false
	for _, a := range f.reads {
		for _, id := range getters[a] {
			ps.callers[id] = append(ps.callers[id], f)
			seed = seed || ps.bad[id]
		}
	}
	return seed
}

// addClass records a class: a start identifier at once when one of its
// bases is one, else when one of them becomes one.
func (ps *prescan) addClass(c *Class) {
	if ps.starts[c.Name] {
		return
	}
	for _, b := range c.Def.Bases {
		if id := lastIdent(b.Value); id != "" && ps.starts[id] && id != "start" {
			ps.markStart(c.Name)
			return
		}
	}
	for _, b := range c.Def.Bases {
		if id := lastIdent(b.Value); id != "" && id != "start" {
			ps.byBase[id] = append(ps.byBase[id], c)
		}
	}
}

// markStart makes id a start identifier, with the classes deriving from it.
func (ps *prescan) markStart(id string) {
	work := []string{id}
	for len(work) > 0 {
		id := work[len(work)-1]
		work = work[:len(work)-1]
		if ps.starts[id] {
			continue
		}
		ps.starts[id] = true
		ps.markBad(id)
		for _, c := range ps.byBase[id] {
			if !ps.starts[c.Name] {
				work = append(work, c.Name)
			}
		}
		delete(ps.byBase, id)
	}
}

// markBad makes id an identifier whose callers may start, and marks them.
func (ps *prescan) markBad(id string) {
	if ps.bad[id] {
		return
	}
	ps.bad[id] = true
	for _, g := range ps.callers[id] {
		ps.markMay(g)
	}
}

// markMay marks f, and the callers of its name, transitively.
func (ps *prescan) markMay(f *Function) {
	work := []*Function{f}
	for len(work) > 0 {
		f := work[len(work)-1]
		work = work[:len(work)-1]
		if ps.may[f] {
			continue
		}
		ps.may[f] = true
		if ps.bad[f.Name] {
			continue
		}
		ps.bad[f.Name] = true
		for _, g := range ps.callers[f.Name] {
			if !ps.may[g] {
				work = append(work, g)
			}
		}
	}
}

// lastIdent is the last identifier of a dotted expression (mp.Process → Process).
func lastIdent(e syntax.Expr) string {
	switch e := e.(type) {
	case *syntax.Name:
		return e.ID
	case *syntax.Attribute:
		return e.Attr
	}
	return ""
}

// calleeIdents lists the identifiers a function's body (its nested
// definitions included) calls — f(...) gives f, x.m(...) gives m — and
// those it reads as attributes (x.a gives a: the read runs a's getter where
// a is a property), whether it imports a local module (whose top level
// then runs), and whether it calls a catalog method as a method (x.cuda():
// callsCUDAMethod).
func calleeIdents(f *Function) (calls, reads []string, local, cudaMethod bool) {
	idents := map[string]bool{}
	attrs := map[string]bool{}
	visit := func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Attribute:
			attrs[n.Attr] = true
		case *syntax.Call:
			cudaMethod = cudaMethod || callsCatalogMethod(n)
			if id := lastIdent(n.Func); id != "" {
				idents[id] = true
				if k := keyedStart(id, n); k != "" {
					idents[k] = true
				}
				if runnerIdents[id] {
					// fire.Fire(main): the runner calls main.
					for _, id := range componentIdents(f.Module, n) {
						idents[id] = true
					}
				}
			}
		case *syntax.Import:
			for _, a := range n.Names {
				if _, ok := f.Module.resolveImport(a.Name, 0); ok {
					local = true
				}
			}
		case *syntax.ImportFrom:
			if _, ok := f.Module.resolveImport(n.Module, n.Level); ok {
				local = true
			}
		}
		return true
	}
	if f.Lambda != nil {
		syntax.Inspect(f.Lambda.Body, visit)
	} else {
		// At load, before the bodies are deferred; ScanBody all the same,
		// since the walk keeps only identifiers.
		for _, s := range f.Def.ScanBody() {
			syntax.Inspect(s, visit)
		}
	}
	calls = make([]string, 0, len(idents))
	for id := range idents {
		calls = append(calls, id)
	}
	for id := range attrs {
		reads = append(reads, id)
	}
	return calls, reads, local, cudaMethod
}

// componentIdents are the identifiers a runner call's arguments name,
// and those of the values of a dict display among them: what the runner
// may call. A class of m named there adds its methods, which the runner may
// call on the instance it makes (runMembers).
func componentIdents(m *Module, c *syntax.Call) []string {
	var out []string
	for _, a := range c.Args {
		vals := []syntax.Expr{a.Value}
		if d, ok := a.Value.(*syntax.Dict); ok {
			vals = d.Values
		}
		for _, v := range vals {
			id := lastIdent(v)
			if id == "" {
				continue
			}
			out = append(out, id)
			for _, cl := range m.Classes {
				if cl.Name == id {
					for name := range cl.Methods {
						out = append(out, name)
					}
				}
			}
		}
	}
	return out
}

func rootOf(dotted string) string {
	if i := strings.IndexByte(dotted, '.'); i >= 0 {
		return dotted[:i]
	}
	return dotted
}

// cudaLibraries and catalogMethods come from the catalog: the library
// roots, and the method names of its Method rows (without the dot).
var cudaLibraries, catalogMethods = func() (map[string]bool, []string) {
	libs := map[string]bool{}
	for _, l := range catalog.Libraries() {
		libs[l] = true
	}
	var methods []string
	for _, r := range catalog.Rows() {
		if r.Shape == catalog.Method {
			methods = append(methods, strings.TrimPrefix(r.Name, "."))
		}
	}
	return libs, methods
}()

// callsCUDAMethod reports whether m calls a catalog method as a method
// (x.cuda(), model.to(device)) anywhere: in its top-level code, read here,
// or in a function, as calleeIdents found at load (which keeps deferred
// bodies from being decoded again for this).
func (m *Module) callsCUDAMethod() bool {
	for _, f := range m.Funcs {
		if f.callsCUDAMeth {
			return true
		}
	}
	found := false
	var visit func(n syntax.Node) bool
	visit = func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Call:
			found = found || callsCatalogMethod(n)
		case *syntax.FunctionDef:
			// Its decorators and defaults run here; its body is one
			// of m.Funcs, read above.
			for _, d := range n.Decorators {
				syntax.Inspect(d, visit)
			}
			for _, p := range n.Params {
				syntax.Inspect(p.Default, visit)
			}
			return false
		}
		return !found
	}
	for _, s := range m.File.Body {
		if syntax.Inspect(s, visit); found {
			return true
		}
	}
	return false
}

// callsCatalogMethod reports whether c calls a catalog method as a method.
func callsCatalogMethod(c *syntax.Call) bool {
	a, ok := c.Func.(*syntax.Attribute)
	return ok && catalogMethodSet[a.Attr]
}

// catalogMethodSet holds catalogMethods.
var catalogMethodSet = func() map[string]bool {
	out := map[string]bool{}
	for _, n := range catalogMethods {
		out[n] = true
	}
	return out
}()
