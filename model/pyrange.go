package model

import (
	"cmp"
	"path/filepath"
	"slices"
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

// The program fails where the import runs: a process its entry starts
// before that, at a top-level statement of the entry module ahead of the
// one whose import reaches the removed API, starts whatever the Python. So
// each bound holds from the entry statement that reaches it on, and a
// hazard is bounded by those reached before its start (Hazard.Start's
// first frame in the entry): a notebook that starts its DataLoader in its
// third cell and imports a torch 1.x helper in its twentieth is checked on
// every target for that start.

// An import that certainly raises ImportError (importfail.go) is such a
// bound too, to no Python at all (noPython): the program ends there,
// whatever the Python, and nothing after it runs.

// entryBound is the newest Python a program can run on, as an entry
// module's top-level statement certainly bounds it: pos is where that
// statement starts (for an import inside a try, where the try ends: its
// handlers and finally run first); newest is the removed API's newest
// Python (row), or noPython where the statement's import certainly fails;
// at is the module whose import statement or read names the API, or
// fails.
type entryBound struct {
	pos    int32
	newest int
	row    *pytarget.RemovedAPI
	at     *Module
}

// entryBounds are the bounds m's top-level statements reach, the oldest
// newest Python each statement reaches, in the statements' order. Every
// local module m's import certainly loads is read once, for the first
// statement that loads it; the answer is kept per entry module.
//
// A row whose name one of those modules puts back outside its functions
// (`collections.Iterable = collections.abc.Iterable`, the patch old code
// gets to run on 3.10, under a version test or not) bounds nothing,
// wherever the patch stands: the program may run with it on newer
// Pythons. So the whole walk is read before any bound is kept.
func (p *Program) entryBounds(m *Module) []entryBound {
	if b, ok := p.bounds[m]; ok {
		return b
	}
	// reached is what a module x names, reached from the entry's step.
	type reached struct {
		step  int
		names []string
		at    *Module
	}
	var all []reached
	patched := map[*pytarget.RemovedAPI]bool{}
	patch := func(names []string) {
		for _, name := range names {
			if r, ok := pytarget.LookupRemoved(name); ok {
				patched[r] = true
			}
		}
	}
	seen := map[*Module]bool{m: true}
	steps := certainSteps(m)
	// fails[i] is the module whose import, reached from step i, certainly
	// fails: a bound of its own beside the removed API's (runsOn reads them
	// apart for uncalled functions).
	fails := make([]*Module, len(steps))
	for i, step := range steps {
		all = append(all, reached{i, step.names, m})
		patch(step.patches)
		if p.importFails(step, m, step.end) {
			fails[i] = m
		}
		// A module's failing import ends the program only where every
		// import on the way there ends it on any exception (certainStep's
		// ends): a handler that goes on after another exception raised
		// before it would run the code after the entry's statement.
		type loaded struct {
			m    *Module
			ends bool
		}
		var queue []loaded
		for _, x := range step.loads(seen) {
			queue = append(queue, loaded{x, step.ends})
		}
		for len(queue) > 0 {
			x := queue[0]
			queue = queue[1:]
			for _, st := range certainSteps(x.m) {
				all = append(all, reached{i, st.names, x.m})
				patch(st.patches)
				if fails[i] == nil && x.ends && p.importFails(st, m, step.end) {
					fails[i] = x.m
				}
				for _, y := range st.loads(seen) {
					queue = append(queue, loaded{y, x.ends && st.ends})
				}
			}
		}
	}
	var out []entryBound
	for i := 0; i < len(all); {
		b := entryBound{pos: steps[all[i].step].pos}
		j := i
		for ; j < len(all) && all[j].step == all[i].step; j++ {
			b.consider(all[j].names, all[j].at, patched)
		}
		if b.newest != 0 {
			out = append(out, b)
		}
		if at := fails[all[i].step]; at != nil {
			out = append(out, entryBound{pos: b.pos, newest: noPython, at: at})
		}
		i = j
	}
	if p.bounds == nil {
		p.bounds = map[*Module][]entryBound{}
	}
	p.bounds[m] = out
	return out
}

// consider keeps in b the row of names with the oldest newest Python, at
// module x, if it is older than b's and not patched back.
func (b *entryBound) consider(names []string, x *Module, patched map[*pytarget.RemovedAPI]bool) {
	for _, name := range names {
		if r, ok := pytarget.LookupRemoved(name); ok && !patched[r] && (b.newest == 0 || r.NewestPython < b.newest) {
			b.newest, b.row, b.at = r.NewestPython, r, x
		}
	}
}

// pythonBound is the bound with the oldest newest Python that running m
// certainly reaches: its removed API (nil for a failing import, or where
// there is none), the module that names it or fails, and whether the
// program runs on no Python at all.
func (p *Program) pythonBound(m *Module) (*pytarget.RemovedAPI, *Module, bool) {
	var best entryBound
	for _, b := range p.entryBounds(m) {
		if best.newest == 0 || b.newest < best.newest {
			best = b
		}
	}
	return best.row, best.at, best.newest == noPython
}

// everything is a position after every statement: a start no top-level
// statement of the entry is known to precede.
const everything = int32(1<<31 - 1)

// runsOn is the configs of targets an entry of module m can meet when it
// starts processes at the top-level statement at offset before of m (or
// later, everything): all of them, or those up to the newest Python of
// the removed API its earlier statements certainly reach, or none after
// an import that certainly fails.
//
// An uncalled function (uncalled) runs in a program that imported m from
// somewhere the model does not know: a failing import's proof read the
// directories m's own run as a script searches, and another importer's
// sys.path may hold the module the import names. Its failing imports
// bound nothing; a removed API is the library's, whoever imports it.
func (p *Program) runsOn(m *Module, targets pytarget.Set, before int32, uncalled bool) pytarget.Set {
	if m == nil {
		return targets
	}
	newest := 0
	for _, b := range p.entryBounds(m) {
		if uncalled && b.newest == noPython {
			continue
		}
		if b.pos < before && (newest == 0 || b.newest < newest) {
			newest = b.newest
		}
	}
	switch newest {
	case 0:
		return targets
	case noPython:
		return 0
	}
	return targets.UpTo(newest)
}

// startsAt is where, in the entry module of s, the hazard z's start runs:
// the offset of the top-level statement of the entry's run as __main__
// that reaches it, or everything where the start runs after the whole
// module (an uncalled function, run after its module's import) or where
// it is not known.
//
// A hazard of CFL004 also needs the children to reach the initialization
// when they re-import the entry, and one of CFL002 or CFL006 the
// forkserver when it imports the entry: where that initialization is
// reached from a top-level statement of the entry, it is where the later
// of the two runs. (A forkserver preload module's initialization is not
// the entry's: its start alone counts.)
func startsAt(z *Hazard, entry *Module, fn *Function) int32 {
	if fn != nil || z == nil || z.Start == nil {
		return everything
	}
	at := reachedAt(z.Start.Site, z.Start.Chain, entry)
	if (z.Kind == ReinitInChildren || z.Kind == ForkserverInherits) && z.Init != nil {
		if init := reachedAt(z.Init.Site, z.Init.Chain, entry); init != everything {
			at = max(at, init)
		}
	}
	return at
}

// reachedAt is the offset in entry of the first frame of a chain to site,
// or everything where it is not in entry.
func reachedAt(site Site, chain []Frame, entry *Module) int32 {
	if len(chain) > 0 {
		site = chain[0].Site
	}
	if site.Mod != entry {
		return everything
	}
	return site.Span.Start
}

// certainStep is a module-level statement that certainly runs, with the
// dotted library names it imports or reads and the local modules it loads.
// An import step also keeps its statement; end is where its top-level
// statement ends, and ends says that an exception it raises ends the
// program (no enclosing try has a handler that may go on).
type certainStep struct {
	pos     int32
	end     int32
	names   []string
	patches []string // dotted library names the statement assigns
	locals  []string
	m       *Module
	stmt    syntax.Stmt
	ends    bool
}

// loads are the modules of the step's local imports not seen before,
// marked seen.
func (st certainStep) loads(seen map[*Module]bool) []*Module {
	var out []*Module
	for _, path := range st.locals {
		if mod, err := st.m.Prog.Module(path); err == nil && mod != nil && !seen[mod] {
			seen[mod] = true
			out = append(out, mod)
		}
	}
	return out
}

// certainSteps are m's certain imports and reads (certainImports,
// certainReads), in the order of their statements.
func certainSteps(m *Module) []certainStep {
	var out []certainStep
	dirs := sysPathDirs(m)
	for _, top := range m.File.Body {
		for _, c := range certainImports([]syntax.Stmt{top}) {
			s := c.stmt
			pos := s.Pos().Start
			if _, nested := top.(*syntax.Try); nested {
				pos = top.Pos().End
			}
			out = append(out, certainStep{pos: pos, end: top.Pos().End, names: libraryNames(m, absoluteNames(s)),
				locals: certainLocalImports(m, s, dirs), m: m, stmt: s, ends: c.ends})
		}
	}
	reads, patches := certainReads(m.File.Body)
	for _, r := range reads {
		out = append(out, certainStep{pos: r.pos, end: r.pos, names: libraryNames(m, []string{r.name}), m: m})
	}
	for _, r := range patches {
		out = append(out, certainStep{pos: r.pos, end: r.pos, patches: libraryNames(m, []string{r.name}), m: m})
	}
	slices.SortStableFunc(out, func(a, b certainStep) int { return cmp.Compare(a.pos, b.pos) })
	return out
}

// libraryNames are the names among names whose top-level package is not
// a local module of m: a project's own `fractions.py` beside the script is
// what `from fractions import gcd` imports there, not the standard
// library's.
func libraryNames(m *Module, names []string) []string {
	out := names[:0:0]
	for _, name := range names {
		head, _, _ := strings.Cut(name, ".")
		if _, local := m.resolveImport(head, 0); !local {
			out = append(out, name)
		}
	}
	return out
}

// certainImport is an import statement that certainly runs; ends says
// whether any exception it raises ends the program: every handler of the
// tries around it ends by raising or exiting.
type certainImport struct {
	stmt syntax.Stmt
	ends bool
}

// certainImports are the import statements among body that run whenever
// body runs (see above), in order.
func certainImports(body []syntax.Stmt) []certainImport {
	var out []certainImport
	for _, s := range body {
		switch s := s.(type) {
		case *syntax.Import:
			if !s.Lazy {
				out = append(out, certainImport{s, true})
			}
		case *syntax.ImportFrom:
			if !s.Lazy {
				out = append(out, certainImport{s, true})
			}
		case *syntax.Try:
			if !letsImportError(s.Handlers) {
				ends := true
				for _, h := range s.Handlers {
					ends = ends && terminates(h.Body)
				}
				for _, c := range certainImports(s.Body) {
					out = append(out, certainImport{c.stmt, c.ends && ends})
				}
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

// certainRead is a dotted name a module-level statement at pos reads.
type certainRead struct {
	name string
	pos  int32
}

// certainReads are the dotted names of the library modules body's
// module-level statements always read as attributes: `torch._six.PY3` in
// the test of an if, the value of an assignment or an expression
// statement, where `import torch` bound torch before; `fractions.gcd` in
// `step = fractions.gcd(a, b)` after `import fractions`; `misc.imread`
// after `from scipy import misc` (scipy.misc.imread). The arms of a
// conditional expression, the right operand of and/or and the bodies of
// lambdas and comprehensions may not run, and are not read.
//
// patches are the dotted names the statements assign as attributes of such
// modules: `collections.Iterable = collections.abc.Iterable`,
// `setattr(fractions, "gcd", math.gcd)`.
func certainReads(body []syntax.Stmt) (reads, patches []certainRead) {
	modules := map[string]string{} // a bound name → the library module it is
	ever := map[string]string{}    // every binding of a name to a library module
	var out []certainRead
	var pos int32
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
					out = append(out, certainRead{mod + "." + rest, pos})
					return false
				}
			}
			return true
		})
	}
	for _, s := range body {
		pos = s.Pos().Start
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
		case *syntax.ImportFrom:
			// The name a from-import binds is the module's attribute (a
			// submodule or not): reading an attribute of it reads a
			// dotted name inside the module.
			if s.Lazy || s.Level > 0 || s.Module == "" {
				continue
			}
			for _, a := range s.Names {
				if a.Name == "*" {
					continue
				}
				bound := a.AsName
				if bound == "" {
					bound = a.Name
				}
				modules[bound] = JoinDotted(s.Module, a.Name)
			}
		case *syntax.If:
			read(s.Test)
		case *syntax.Assign:
			read(s.Value)
			// A name bound anew no longer is the module.
			for _, t := range s.Targets {
				if n, ok := t.(*syntax.Name); ok {
					delete(modules, n.ID)
				}
			}
		case *syntax.FunctionDef:
			delete(modules, s.Name)
		case *syntax.ClassDef:
			delete(modules, s.Name)
		case *syntax.ExprStmt:
			read(s.X)
		}
		for k, v := range modules {
			ever[k] = v
		}
	}
	return out, patchesIn(body, ever, nil)
}

// patchesIn appends to out the dotted names that stmts assign as
// attributes of the library modules bound (a name → the module), in
// module-level statements and those nested in if, for, while, with and
// try, under a version test as much as outside one; function and class
// bodies are not read.
func patchesIn(stmts []syntax.Stmt, modules map[string]string, out []certainRead) []certainRead {
	assigned := func(e syntax.Expr, at int32) {
		head, rest, ok := strings.Cut(writtenName(e), ".")
		if mod, bound := modules[head]; ok && bound {
			out = append(out, certainRead{mod + "." + rest, at})
		}
	}
	for _, s := range stmts {
		switch s := s.(type) {
		case *syntax.Assign:
			for _, t := range s.Targets {
				if a, ok := t.(*syntax.Attribute); ok {
					assigned(a, s.Pos().Start)
				}
			}
		case *syntax.ExprStmt:
			if c, ok := s.X.(*syntax.Call); ok && writtenName(c.Func) == "setattr" && len(c.Args) == 3 {
				if attr, ok := c.Args[1].Value.(*syntax.String); ok && !attr.Interpolated {
					assigned(&syntax.Attribute{X: c.Args[0].Value, Attr: attr.Value}, s.Pos().Start)
				}
			}
		case *syntax.If:
			out = patchesIn(s.Else, modules, patchesIn(s.Body, modules, out))
		case *syntax.For:
			out = patchesIn(s.Else, modules, patchesIn(s.Body, modules, out))
		case *syntax.While:
			out = patchesIn(s.Else, modules, patchesIn(s.Body, modules, out))
		case *syntax.With:
			out = patchesIn(s.Body, modules, out)
		case *syntax.Try:
			out = patchesIn(s.Body, modules, out)
			for _, h := range s.Handlers {
				out = patchesIn(h.Body, modules, out)
			}
			out = patchesIn(s.Finally, modules, patchesIn(s.Else, modules, out))
		}
	}
	return out
}
