package model

import "github.com/cudaforklint/cudaforklint/syntax"

// cudaPossible reports whether code of m, or of the local modules it
// imports, can initialize CUDA at all: it imports a CUDA library (the
// catalog's libraries), calls a catalogued method on an object (x.cuda(),
// x.to(...)), or the project has extra initializers. An uncalled function of
// a module where it cannot is not simulated as an entry point: with no CUDA
// initialization it can only produce hazards that need none (CFL005), and
// those are found from module bodies.
//
// It is reachability over the import graph, which has cycles (a package's
// __init__ imports its submodules, which import the package), so a module's
// answer is settled per strongly connected component (Tarjan's algorithm):
// the members of a cycle get one answer once the whole cycle is explored.
// Caching each module's answer as it finished, with a module still being
// explored counted as false, gave false to modules whose only way to CUDA
// went through a module on the stack; and which modules those were
// depended on which checked file asked first (mmengine: the CFL003 of
// tests/test_utils/test_progressbar_rich.py was lost when
// test_progressbar.py was checked with it, TestCUDAPossibleThroughCycle).
//
// The search explores a module's imports in statement order and stops at
// the first that reaches CUDA, loading no more modules than that needs.
func (m *Module) cudaPossible() bool {
	if m.cuda != factDone {
		if unreachable := m.Prog.opts.CUDAUnreachable; unreachable != nil && len(m.Prog.extra) == 0 && unreachable(m.Path, m.Prog.loadsMore(m)) {
			// The oracle says no without loading m's imports (Options).
			// When everything m imports is loaded already, the search
			// costs less than the oracle's reads, and the oracle answers
			// only if it knows.
			m.cuda, m.cudaResult = factDone, false
			return false
		}
		s := &cudaSearch{index: map[*Module]int{}, low: map[*Module]int{}, reaches: map[*Module]bool{}}
		s.visit(m)
	}
	return m.cudaResult
}

// cudaSearch is one depth-first search of cudaPossible: Tarjan's index and
// lowlink of each module visited, the stack of those whose component is
// open, and what each reaches so far.
type cudaSearch struct {
	next    int
	index   map[*Module]int
	low     map[*Module]int
	stack   []*Module
	reaches map[*Module]bool
}

func (s *cudaSearch) visit(m *Module) {
	s.index[m], s.low[m] = s.next, s.next
	s.next++
	s.stack = append(s.stack, m)
	reaches := len(m.Prog.extra) > 0 || m.callsCUDAMethod()
	if !reaches {
		m.eachImport(func(cudaLib bool, dep *Module) bool {
			switch _, seen := s.index[dep]; {
			case cudaLib:
				reaches = true
			case dep.cuda == factDone:
				reaches = dep.cudaResult
			case !seen:
				s.visit(dep)
				if dep.cuda == factDone {
					reaches = dep.cudaResult
				} else {
					reaches = s.reaches[dep]
					s.low[m] = min(s.low[m], s.low[dep])
				}
			default:
				// On the stack: dep's component, which m joins, is
				// still open; its root answers for both.
				s.low[m] = min(s.low[m], s.index[dep])
			}
			return reaches
		})
	}
	s.reaches[m] = reaches
	if s.low[m] != s.index[m] {
		return
	}
	// m is the root of its component: every module above it on the stack
	// reaches m and is reached from it, so one answer holds for all.
	i := len(s.stack) - 1
	for s.stack[i] != m {
		i--
	}
	members := s.stack[i:]
	s.stack = s.stack[:i]
	found := false
	for _, n := range members {
		found = found || s.reaches[n]
	}
	for _, n := range members {
		n.cuda, n.cudaResult = factDone, found
	}
}

// eachImport calls fn for each import of m in statement order, with
// cudaLib set for a CUDA library imported by name and dep for a local
// module an import loads (a package's star-imported submodules included),
// until fn returns true.
func (m *Module) eachImport(fn func(cudaLib bool, dep *Module) (stop bool)) {
	for _, s := range m.imports() {
		switch s := s.(type) {
		case *syntax.Import:
			for _, a := range s.Names {
				if cudaLibraries[rootOf(a.Name)] && fn(true, nil) {
					return
				}
				if dep := m.importedModule(a.Name, 0); dep != nil && fn(false, dep) {
					return
				}
			}
		case *syntax.ImportFrom:
			if s.Level == 0 && cudaLibraries[rootOf(s.Module)] && fn(true, nil) {
				return
			}
			if dep := m.importedModule(s.Module, s.Level); dep != nil && fn(false, dep) {
				return
			}
			for _, a := range s.Names {
				if dep := m.importedModule(JoinDotted(s.Module, a.Name), s.Level); dep != nil && fn(false, dep) {
					return
				}
			}
			for _, dep := range m.starSubmodules(s) {
				if fn(false, dep) {
					return
				}
			}
		}
	}
}
