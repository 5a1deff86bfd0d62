package model

import (
	"path/filepath"
	"strings"

	"github.com/cudaforklint/cudaforklint/pytarget"
	"github.com/cudaforklint/cudaforklint/syntax"
)

// The Pythons a program can run on. A program whose import certainly
// reaches an API its library removed (pytarget.RemovedAPIs: `from
// torch._six import container_abcs`, removed in torch 2.0) runs only with
// a release from before the removal, and so on no Python newer than those
// releases were built for: none of them reaches 3.14, whose default start
// method on Linux is forkserver. A hazard such an entry finds holds on the
// target configs it can meet (pytarget.Set.UpTo), so a finding that needs
// 3.14's forkserver is not reported for it, and one that also holds where
// Linux forks by default is, for those Pythons alone.
//
// "Certainly" is what makes the bound hold: the import statements the
// search follows and reads are those a module runs whenever it runs,
// module-level statements outside any if, loop, with, function or class,
// or in a try whose handlers cannot let an ImportError by (they catch none,
// or each ends by raising again or exiting). An import under a version
// test, or in `try: ... except ImportError:` with a fallback, is the
// program running on newer releases too, and bounds nothing; so is a
// PEP 810 lazy import, which may never load. Local modules are followed
// through the packages and modules such imports load. A module-level
// expression that always runs and reads the removed module as an
// attribute of its library (`if torch._six.PY3:`, an AttributeError on
// torch 2) bounds the program as its import does.

// pythonBound is the removed API with the oldest newest Python that
// importing (or running) m certainly imports, nil when there is none; at
// is the module whose import statement names it. The search reads every
// local module m's import certainly loads, once per entry module asked.
func (p *Program) pythonBound(m *Module) (*pytarget.RemovedAPI, *Module) {
	if b, ok := p.bounds[m]; ok {
		return b.row, b.at
	}
	var best *pytarget.RemovedAPI
	var at *Module
	seen := map[*Module]bool{m: true}
	queue := []*Module{m}
	for len(queue) > 0 {
		x := queue[0]
		queue = queue[1:]
		dirs := sysPathDirs(x)
		for _, name := range certainReads(x.File.Body) {
			if r, ok := pytarget.LookupRemoved(name); ok && (best == nil || r.NewestPython < best.NewestPython) {
				best, at = r, x
			}
		}
		for _, s := range certainImports(x.File.Body) {
			for _, name := range absoluteNames(s) {
				if r, ok := pytarget.LookupRemoved(name); ok && (best == nil || r.NewestPython < best.NewestPython) {
					best, at = r, x
				}
			}
			for _, path := range certainLocalImports(x, s, dirs) {
				if mod, err := p.Module(path); err == nil && mod != nil && !seen[mod] {
					seen[mod] = true
					queue = append(queue, mod)
				}
			}
		}
	}
	if p.bounds == nil {
		p.bounds = map[*Module]pyBound{}
	}
	p.bounds[m] = pyBound{best, at}
	return best, at
}

// pyBound is a memoized answer of pythonBound.
type pyBound struct {
	row *pytarget.RemovedAPI
	at  *Module
}

// runsOn is the configs of targets an entry of module m can meet: all of
// them, or those up to the newest Python of the removed API its import
// certainly reaches.
func (p *Program) runsOn(m *Module, targets pytarget.Set) pytarget.Set {
	if m == nil {
		return targets
	}
	if r, _ := p.pythonBound(m); r != nil {
		return targets.UpTo(r.NewestPython)
	}
	return targets
}

// certainImports are the import statements among body that run whenever
// body runs (see above), in order.
func certainImports(body []syntax.Stmt) []syntax.Stmt {
	var out []syntax.Stmt
	for _, s := range body {
		switch s := s.(type) {
		case *syntax.Import:
			if !s.Lazy {
				out = append(out, s)
			}
		case *syntax.ImportFrom:
			if !s.Lazy {
				out = append(out, s)
			}
		case *syntax.Try:
			if !letsImportError(s.Handlers) {
				out = append(out, certainImports(s.Body)...)
			}
		}
	}
	return out
}

// absoluteNames are the dotted names an import statement imports: each
// module of `import a.b`, and for `from a import b` the module and the
// name taken from it (which is where a removed function is named).
// Relative imports name local modules only.
func absoluteNames(s syntax.Stmt) []string {
	var out []string
	switch s := s.(type) {
	case *syntax.Import:
		for _, a := range s.Names {
			out = append(out, a.Name)
		}
	case *syntax.ImportFrom:
		if s.Level > 0 || s.Module == "" {
			return nil
		}
		out = append(out, s.Module)
		for _, a := range s.Names {
			out = append(out, JoinDotted(s.Module, a.Name))
		}
	}
	return out
}

// certainLocalImports are the files of the local modules an import
// statement of m loads: each package on the way to each module it names,
// and the module; for `from . import x`, which names no module, the
// submodule x. A name a from-import takes from a named module may be an
// attribute of it rather than a submodule, and is not followed.
//
// An absolute import that does not resolve as the model resolves imports
// is looked for in the directories dirs the module added to sys.path
// before it (sysPathDirs), in their order.
func certainLocalImports(m *Module, s syntax.Stmt, dirs []sysPathDir) []string {
	var out []string
	add := func(name string, level int) {
		if path, ok := m.resolveImport(name, level); ok {
			if path != m.Path {
				out = append(out, path)
			}
			return
		}
		if level > 0 || name == "" {
			return
		}
		for _, d := range dirs {
			if d.at >= s.Pos().Start {
				break
			}
			if path, ok := ResolveImport(m.Prog.src.IsFile, nil, m.Path, d.dir, name, 0); ok {
				out = append(out, path)
				return
			}
		}
	}
	prefixes := func(name string, level int) {
		for i := 0; i <= len(name); i++ {
			if i == len(name) || name[i] == '.' {
				add(name[:i], level)
			}
		}
	}
	switch s := s.(type) {
	case *syntax.Import:
		for _, a := range s.Names {
			prefixes(a.Name, 0)
		}
	case *syntax.ImportFrom:
		if s.Module != "" {
			prefixes(s.Module, s.Level)
			break
		}
		add("", s.Level)
		for _, a := range s.Names {
			if a.Name != "*" {
				add(a.Name, s.Level)
			}
		}
	}
	return out
}

// letsImportError reports whether an ImportError raised in a try's body can
// be handled by one of its handlers and the code after the try run: a
// handler catches it (see catchesImportError) and does not end by raising
// or exiting (terminates: `except ImportError: raise ImportError("install
// apex")` stops the program as the import would).
func letsImportError(handlers []syntax.ExceptHandler) bool {
	for _, h := range handlers {
		if catchesImportError(h.Type) && !terminates(h.Body) {
			return true
		}
	}
	return false
}

// otherExceptions are builtin exception classes that are neither
// ImportError nor one of its bases: a handler naming them alone lets an
// ImportError through.
var otherExceptions = map[string]bool{
	"ArithmeticError": true, "AssertionError": true, "AttributeError": true, "BufferError": true,
	"EOFError": true, "FileExistsError": true, "FileNotFoundError": true, "FloatingPointError": true,
	"IOError": true, "IndexError": true, "KeyError": true, "KeyboardInterrupt": true,
	"LookupError": true, "MemoryError": true, "NameError": true, "NotImplementedError": true,
	"OSError": true, "OverflowError": true, "PermissionError": true, "RecursionError": true,
	"RuntimeError": true, "StopIteration": true, "SyntaxError": true, "SystemError": true,
	"SystemExit": true, "TimeoutError": true, "TypeError": true, "UnicodeDecodeError": true,
	"UnicodeEncodeError": true, "UnicodeError": true, "ValueError": true, "ZeroDivisionError": true,
}

// catchesImportError reports whether an except clause's type may catch an
// ImportError: a bare except, ImportError, ModuleNotFoundError (what a
// removed module raises), Exception, BaseException, or any name or
// expression other than the builtin classes of otherExceptions, which the
// model cannot tell apart from an alias of ImportError.
func catchesImportError(t syntax.Expr) bool {
	switch t := t.(type) {
	case nil:
		return true
	case *syntax.Name:
		return !otherExceptions[t.ID]
	case *syntax.Sequence:
		for _, e := range t.Elts {
			if catchesImportError(e) {
				return true
			}
		}
		return false
	}
	return true
}

// sysPathDir is a directory a module's code adds to sys.path, and where.
type sysPathDir struct {
	dir string
	at  int32 // the offset of the statement adding it
}

// sysPathDirs are the directories m's module-level statements add to
// sys.path (`sys.path.append(d)`, `sys.path.insert(0, d)`) where d is a
// path the statements tell: `os.path.join(ROOT_DIR, "dataset")` with
// `ROOT_DIR = os.path.dirname(os.path.abspath(__file__))`, the idiom of
// research code whose scripts import modules kept in sibling directories.
// An import after such a statement that the model's own resolution does
// not find loads the module there: research repositories ship the module
// in that directory, and nothing else on sys.path is expected to hold it.
func sysPathDirs(m *Module) []sysPathDir {
	var out []sysPathDir
	assigned := map[string][]syntax.Expr{}
	for _, s := range m.File.Body {
		if a, ok := s.(*syntax.Assign); ok && len(a.Targets) == 1 {
			if n, ok := a.Targets[0].(*syntax.Name); ok {
				assigned[n.ID] = append(assigned[n.ID], a.Value)
			}
		}
	}
	for _, s := range m.File.Body {
		es, ok := s.(*syntax.ExprStmt)
		if !ok {
			continue
		}
		c, ok := es.X.(*syntax.Call)
		if !ok {
			continue
		}
		var arg syntax.Expr
		switch writtenName(c.Func) {
		case "sys.path.append":
			if len(c.Args) == 1 {
				arg = c.Args[0].Value
			}
		case "sys.path.insert":
			if len(c.Args) == 2 {
				arg = c.Args[1].Value
			}
		}
		if arg == nil {
			continue
		}
		if dir, ok := pathValue(m, arg, assigned, 0); ok {
			out = append(out, sysPathDir{dir, s.Pos().Start})
		}
	}
	return out
}

// pathValue is the absolute path e evaluates to in m, when it is built of
// __file__, names bound once at module level, string literals and
// os.path.join, dirname, abspath and realpath.
func pathValue(m *Module, e syntax.Expr, assigned map[string][]syntax.Expr, depth int) (string, bool) {
	if depth > 8 {
		return "", false
	}
	switch e := e.(type) {
	case *syntax.Name:
		if e.ID == "__file__" && len(assigned[e.ID]) == 0 {
			return m.Path, true
		}
		if vs := assigned[e.ID]; len(vs) == 1 {
			return pathValue(m, vs[0], assigned, depth+1)
		}
	case *syntax.String:
		if !e.Interpolated && filepath.IsAbs(e.Value) {
			return filepath.Clean(e.Value), true
		}
	case *syntax.Call:
		fn := writtenName(e.Func)
		var args []string
		for i, a := range e.Args {
			if a.Keyword != "" || a.Star != 0 {
				return "", false
			}
			if s, ok := a.Value.(*syntax.String); ok && i > 0 && !s.Interpolated {
				args = append(args, s.Value)
				continue
			}
			v, ok := pathValue(m, a.Value, assigned, depth+1)
			if !ok {
				return "", false
			}
			args = append(args, v)
		}
		switch {
		case fn == "os.path.join" && len(args) > 0:
			return filepath.Join(args...), true
		case fn == "os.path.dirname" && len(args) == 1:
			return filepath.Dir(args[0]), true
		case (fn == "os.path.abspath" || fn == "os.path.realpath") && len(args) == 1:
			return args[0], true
		}
	}
	return "", false
}

// writtenName is a dotted name as written (`sys.path.append`), or "".
func writtenName(e syntax.Expr) string {
	switch e := e.(type) {
	case *syntax.Name:
		return e.ID
	case *syntax.Attribute:
		if x := writtenName(e.X); x != "" {
			return x + "." + e.Attr
		}
	}
	return ""
}

// certainReads are the dotted names of the library modules body's
// module-level statements always read as attributes: `torch._six.PY3` in
// the test of an if, the value of an assignment or an expression
// statement, where `import torch` bound torch before. The arms of a
// conditional expression, the right operand of and/or and the bodies of
// lambdas and comprehensions may not run, and are not read.
func certainReads(body []syntax.Stmt) []string {
	modules := map[string]string{} // a bound name → the library module it is
	var out []string
	var read func(e syntax.Expr)
	read = func(e syntax.Expr) {
		if e == nil {
			return
		}
		syntax.Inspect(e, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.Lambda, *syntax.Comprehension:
				return false
			case *syntax.IfExp:
				read(n.Test)
				return false
			case *syntax.BoolOp:
				read(n.X)
				return false
			case *syntax.Attribute:
				name := writtenName(n)
				head, rest, ok := strings.Cut(name, ".")
				if mod, bound := modules[head]; ok && bound {
					out = append(out, mod+"."+rest)
					return false
				}
			}
			return true
		})
	}
	for _, s := range body {
		switch s := s.(type) {
		case *syntax.Import:
			for _, a := range s.Names {
				if s.Lazy {
					continue
				}
				if a.AsName != "" {
					modules[a.AsName] = a.Name
				} else {
					head, _, _ := strings.Cut(a.Name, ".")
					modules[head] = head
				}
			}
		case *syntax.If:
			read(s.Test)
		case *syntax.Assign:
			read(s.Value)
		case *syntax.ExprStmt:
			read(s.X)
		}
	}
	return out
}
