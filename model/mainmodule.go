package model

import (
	"path/filepath"
	"strings"

	"github.com/cudaforklint/cudaforklint/syntax"
)

// Which module is __main__. Every checked module is simulated as the
// program's main module (entries.go), but some never are one: a pytest test
// module, which pytest imports under its own __main__, and a package module
// that cannot be run as `python file.py`. What depends on the module being
// __main__ — spawn and forkserver children re-importing it (CFL004,
// CFL005, the forkserver's import of __main__) — does not happen to them;
// and the start method the real program's entry point chooses, which such
// a module never sees, is not known (StartRecord.MethodUnseen).

// mainRole is what a module can be to a program, decided from its own
// source (mainRoleOf).
type mainRole uint8

const (
	roleScript  mainRole = iota // may be run as the program's main module
	rolePytest                  // a pytest test module: imported by pytest's __main__
	roleLibrary                 // a package module that is not run as a script
)

// role is m's mainRole, decided when the module is indexed (newModule),
// so that the rules, which run side by side, only read it.
func (m *Module) role() mainRole { return m.mainRole }

// mainRoleOf decides m's role. A module with a main guard is meant to be
// run (`python -m pkg.mod` runs one with relative imports), as is a
// package's __main__.py. Without one:
//   - a test_*.py or *_test.py with test functions or a class with test
//     methods is a pytest test module (tests/unit_tests/test_cuda_graphs.py);
//   - a module that imports relatively at its top level fails as `python
//     file.py` (no known parent package) and is a library module, as is a
//     module of a package (its directory has an __init__.py) whose top level
//     only defines, imports and assigns constants: run as a script it does
//     nothing.
//
// Anything else may be a script (a module whose top level calls something
// keeps being one: `GPU_COUNT = get_num_gpu()` may be all a benchmark runner
// relies on).
func mainRoleOf(m *Module) mainRole {
	if m.Notebook || m.hasNameGuard() || filepath.Base(m.Path) == "__main__.py" {
		// A package's __main__.py is what `python -m pkg` runs.
		return roleScript
	}
	if pytestFile(m.Path) && definesTests(m.File.Body) {
		return rolePytest
	}
	if relativeTopImport(m.File.Body) {
		return roleLibrary
	}
	if m.inPackage() && !topLevelWork(m.File.Body) {
		return roleLibrary
	}
	return roleScript
}

// hasNameGuard reports whether m has an `if __name__ == "__main__":` (in any
// spelling guard.go reads).
func (m *Module) hasNameGuard() bool {
	for _, g := range m.Guards {
		if g.Kind == NameGuard {
			return true
		}
	}
	return false
}

// inPackage reports whether m is a module of a package: its name is
// dotted (its directory has an __init__.py, ModuleNameAndRoot), or it is a
// package's __init__.py.
func (m *Module) inPackage() bool {
	return strings.Contains(m.Name, ".") || filepath.Base(m.Path) == "__init__.py"
}

// pytestFile reports whether a file's name is one pytest collects by
// default (python_files = test_*.py *_test.py).
func pytestFile(path string) bool {
	base := filepath.Base(path)
	stem, ok := strings.CutSuffix(base, ".py")
	return ok && (strings.HasPrefix(stem, "test_") || strings.HasSuffix(stem, "_test"))
}

// definesTests reports whether a module body defines a test function
// (test*) or a class with a test method, as pytest and unittest collect.
func definesTests(body []syntax.Stmt) bool {
	for _, s := range body {
		switch s := s.(type) {
		case *syntax.FunctionDef:
			if strings.HasPrefix(s.Name, "test") {
				return true
			}
		case *syntax.ClassDef:
			for _, b := range s.Body {
				if f, ok := b.(*syntax.FunctionDef); ok && strings.HasPrefix(f.Name, "test") {
					return true
				}
			}
		}
	}
	return false
}

// relativeTopImport reports whether a module body imports relatively
// (`from . import x`, `from .mod import y`) outside functions.
func relativeTopImport(body []syntax.Stmt) bool {
	found := false
	for _, s := range body {
		syntax.InspectShallow(s, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.ImportFrom:
				found = found || n.Level > 0
			case *syntax.FunctionDef, *syntax.ClassDef, syntax.Expr:
				return false
			}
			return !found
		})
	}
	return found
}

// topLevelWork reports whether a module body calls anything outside its
// definitions, imports and decorators: a script's `main()`, a loop, even
// an assignment from a call. Docstrings and constants are not work.
func topLevelWork(body []syntax.Stmt) bool {
	found := false
	for _, s := range body {
		switch s.(type) {
		case *syntax.FunctionDef, *syntax.ClassDef, *syntax.Import, *syntax.ImportFrom:
			continue
		}
		syntax.Inspect(s, func(n syntax.Node) bool {
			switch n.(type) {
			case *syntax.Call:
				found = true
			case *syntax.FunctionDef, *syntax.ClassDef, *syntax.Lambda:
				return false
			}
			return !found
		})
		if found {
			return true
		}
	}
	return false
}

// libraryWhy says why a roleLibrary module is not run as a script, for a
// message.
func (m *Module) libraryWhy() string {
	if relativeTopImport(m.File.Body) {
		return "it imports relatively and has no main guard"
	}
	return "no main guard, and its top level only defines names"
}
