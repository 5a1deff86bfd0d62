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
// submit), but for names too common to tell anything (map).
var startIdents = func() map[string]bool {
	m := map[string]bool{}
	for _, api := range procapi.Rows() {
		if api.Kind.Starts() && !api.Common {
			for _, id := range api.Idents() {
				m[id] = true
			}
		}
	}
	return m
}()

// mayStart returns the functions of the loaded modules that may start
// processes, transitively through the functions they call by name.
func (p *Program) mayStart() map[*Function]bool {
	mods := p.Loaded()
	starts := map[string]bool{}
	for id := range startIdents {
		starts[id] = true
	}
	// Local subclasses of Process (class Worker(mp.Process)) start when
	// instantiated and .start()ed: their names count as start identifiers.
	for changed := true; changed; {
		changed = false
		for _, m := range mods {
			for _, c := range m.Classes {
				if starts[c.Name] {
					continue
				}
				for _, b := range c.Def.Bases {
					if id := lastIdent(b.Value); id != "" && starts[id] && id != "start" {
						starts[c.Name], changed = true, true
						break
					}
				}
			}
		}
	}
	callers := map[string][]*Function{} // callee identifier → functions calling it
	may := map[*Function]bool{}
	var queue []*Function
	for _, m := range mods {
		for _, f := range m.Funcs {
			callees, localImport := calleeIdents(f)
			seed := localImport
			for id := range callees {
				callers[id] = append(callers[id], f)
				seed = seed || starts[id]
			}
			if seed {
				may[f] = true
				queue = append(queue, f)
			}
		}
	}
	for len(queue) > 0 {
		f := queue[0]
		queue = queue[1:]
		for _, g := range callers[f.Name] {
			if !may[g] {
				may[g] = true
				queue = append(queue, g)
			}
		}
	}
	return may
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
// whether it imports a local module (whose top level then runs).
func calleeIdents(f *Function) (map[string]bool, bool) {
	idents := map[string]bool{}
	local := false
	visit := func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Call:
			if id := lastIdent(n.Func); id != "" {
				idents[id] = true
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
		return idents, local
	}
	for _, s := range f.Def.Body {
		syntax.Inspect(s, visit)
	}
	return idents, local
}

// cudaPossible reports whether code of m, or of the local modules it
// imports, can initialize CUDA at all: it imports a CUDA library (the
// catalog's libraries), calls a catalogued method on an object (x.cuda(),
// x.to(...)), or the project has extra initializers. An uncalled function of
// a module where it cannot is not simulated as an entry point: with no CUDA
// initialization it can only produce hazards that need none (CFL005), and
// those are found from module bodies.
func (m *Module) cudaPossible() bool {
	switch m.cuda {
	case factDone:
		return m.cudaResult
	case factBusy:
		return false // a cycle: its other members decide
	}
	m.cuda = factBusy
	got := m.cudaPossibleUncached()
	m.cuda, m.cudaResult = factDone, got
	return got
}

func (m *Module) cudaPossibleUncached() bool {
	if len(m.Prog.extra) > 0 {
		return true
	}
	if m.callsMethod(catalogMethods) {
		return true
	}
	for _, s := range m.imports() {
		switch s := s.(type) {
		case *syntax.Import:
			for _, a := range s.Names {
				if cudaLibraries[rootOf(a.Name)] {
					return true
				}
				if dep := m.importedModule(a.Name, 0); dep != nil && dep.cudaPossible() {
					return true
				}
			}
		case *syntax.ImportFrom:
			if s.Level == 0 && cudaLibraries[rootOf(s.Module)] {
				return true
			}
			if dep := m.importedModule(s.Module, s.Level); dep != nil && dep.cudaPossible() {
				return true
			}
			for _, a := range s.Names {
				if dep := m.importedModule(JoinDotted(s.Module, a.Name), s.Level); dep != nil && dep.cudaPossible() {
					return true
				}
			}
		}
	}
	return false
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

// callsMethod reports whether m calls a method with one of the names
// (x.cuda(), model.to(device)).
func (m *Module) callsMethod(names []string) bool {
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	found := false
	for _, s := range m.File.Body {
		syntax.Inspect(s, func(n syntax.Node) bool {
			if c, ok := n.(*syntax.Call); ok {
				if a, ok := c.Func.(*syntax.Attribute); ok && want[a.Attr] {
					found = true
				}
			}
			return !found
		})
		if found {
			return true
		}
	}
	return false
}
