package model

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"

	"github.com/cudaforklint/cudaforklint/syntax"
)

// Imports that certainly fail. A module-level import that certainly runs
// (a certain step, pyrange.go) and certainly raises ImportError ends the
// program there, on every Python: it is the bound of pyrange.go to no
// Python at all (noPython), holding from the entry statement that reaches
// it on, so a hazard whose start (and, for CFL004, whose initialization)
// comes after it is not reported. Stale example scripts keep
// `from mypkg import Container, Logs` long after the package dropped those
// names: everything after that line never runs.
//
// The import must certainly fail, so each link is a proof:
//
//   - `from M import n` fails when M is a local module whose namespace the
//     model sees whole and which never binds n, and n is no submodule of it.
//     The namespace is whole when M's source never spells n (any binding of
//     it, an assignment, a def, an import, `global n`, `__all__`, a
//     constant setattr, needs the name written), has no syntax error, and
//     names none of what binds names the model cannot read: a module-level
//     `__getattr__`, `globals()`, `vars()`, `__dict__`, `sys.modules`,
//     `setattr`, `exec`, `eval`, frames' `f_globals`, `__class__`,
//     `__path__`, and the lazy-module patterns (transformers' `_LazyModule`,
//     `lazy_loader.attach`); each of its star imports must be of a local
//     module that, by the same test, cannot bind n either.
//   - n is no submodule: M is a plain module, or a package whose directory
//     has no entry named n or n.* (a source file, a package, a namespace
//     directory, a compiled extension), and the project builds no
//     extensions (extensionBuild), which could put one there.
//   - `import P.x`, `from P.x import n` fail when P is a local regular
//     package (it has an __init__.py) whose directory has no entry named x
//     or x.*, and its __init__ does not touch `__path__` or `sys.modules`.
//     A regular package's submodules are searched for in its own directory
//     alone (its __path__), unlike a namespace package's, whose portions
//     may lie in any sys.path entry: an import through a directory without
//     __init__.py is never concluded about.
//   - nothing that may run before it writes the attribute from outside: the
//     entry's code before the statement, the module holding it up to the
//     statement, and every local module they and M import never spell n
//     outside import statements, and write no `sys.modules`, import hook
//     (`meta_path`, `path_hooks`) or module attribute by setattr, `vars()`
//     or `__dict__` (other than on self).
//   - the module resolves to one local file: every directory the model
//     searches, and the entry's, holds at most one candidate, and that
//     candidate is a .py file or a regular package (beside a .pyi stub at
//     most), never a compiled extension or a namespace directory.
//
// Like every conclusion the model draws from local code, this takes the
// local package to be the one that runs: a same-named package installed
// from elsewhere is a different program. An installed copy of the project
// itself (`pip install -e .` or `pip install .`) has the same files, except
// the compiled extensions that a project building them adds, which is why
// such a project gets no conclusion. The directories are those of the
// entry's run as a script: an uncalled function, which a program elsewhere
// may import with another sys.path, is not bounded by a failing import
// (runsOn).

// noPython is the newest Python of a program that runs on none: its
// import certainly raises ImportError.
const noPython = -1

// importFails reports whether st, a certain step of st.m reached from the
// entry statement of entry ending at entryEnd, certainly raises
// ImportError.
func (p *Program) importFails(st certainStep, entry *Module, entryEnd int32) bool {
	if st.stmt == nil || !st.ends || len(st.m.File.Errors) > 0 {
		return false
	}
	f := importFailure{p: p, x: st.m, entry: entry, pos: st.pos}
	switch s := st.stmt.(type) {
	case *syntax.Import:
		for _, a := range s.Names {
			if _, ok := st.m.resolveImport(a.Name, 0); ok {
				// Found where the model looks: the usual case, and no
				// failure (another file found elsewhere would leave two
				// candidates, and no conclusion).
				continue
			}
			if _, failed := f.walk(a.Name, 0); failed {
				return f.nothingWrites(st, entryEnd, "")
			}
		}
	case *syntax.ImportFrom:
		if s.Star || spellsAll(st.m, s) {
			return false
		}
		mod, failed := f.walk(s.Module, s.Level)
		if failed {
			return f.nothingWrites(st, entryEnd, "")
		}
		if mod == nil {
			return false
		}
		for _, a := range s.Names {
			if p.neverBinds(mod, a.Name, map[*Module]bool{}) {
				return f.nothingWrites(st, entryEnd, a.Name)
			}
		}
	}
	return false
}

// spellsAll reports whether the module a from-import names, as the model
// resolves it, spells every name the import takes: the usual case, in
// which nothing fails that the proof could show.
func spellsAll(x *Module, s *syntax.ImportFrom) bool {
	path, ok := x.resolveImport(s.Module, s.Level)
	if !ok {
		return false
	}
	mod, err := x.Prog.Module(path)
	if err != nil || mod == nil {
		return false
	}
	for _, a := range s.Names {
		if !hasWord(mod.Src, a.Name, nil) {
			return false
		}
	}
	return true
}

// importFailure is the search for a failing import of module x, reached
// from entry.
type importFailure struct {
	p        *Program
	x, entry *Module
	pos      int32
}

// walk follows the dotted module name (relative to x at level) through
// the local files. It returns the module it names, when every step is a
// local .py file or regular package; or failed, when a step is certainly
// missing from a local regular package; or neither, when it cannot tell.
func (f importFailure) walk(name string, level int) (*Module, bool) {
	var comps []string
	if name != "" {
		comps = strings.Split(name, ".")
	}
	var path string
	if level > 0 {
		dir := filepath.Dir(f.x.Path)
		for i := 1; i < level; i++ {
			dir = filepath.Dir(dir)
		}
		init := filepath.Join(dir, "__init__.py")
		if !f.p.src.IsFile(init) {
			return nil, false
		}
		path = init
	} else {
		if len(comps) == 0 || IsExternalRoot(comps[0]) {
			return nil, false
		}
		// The cheap question first: most imports name a library.
		if _, ok := f.x.resolveImport(comps[0], 0); !ok {
			return nil, false
		}
		var ok bool
		if path, ok = f.topCandidate(comps[0]); !ok {
			return nil, false
		}
		comps = comps[1:]
	}
	for _, c := range comps {
		if filepath.Base(path) != "__init__.py" {
			// A plain module has no submodules; whether its attribute
			// stands for one is not followed.
			return nil, false
		}
		dir := filepath.Dir(path)
		next, found, ok := f.p.entryIn(dir, c)
		if !ok {
			return nil, false
		}
		if !found {
			pkg, err := f.p.Module(path)
			if err != nil || pkg == nil || !f.p.pathClosed(pkg) {
				return nil, false
			}
			return nil, true
		}
		path = next
	}
	mod, err := f.p.Module(path)
	if err != nil || mod == nil {
		return nil, false
	}
	return mod, false
}

// topCandidate is the one file a top-level module name resolves to in
// every directory an import of x may search (x's package root and
// directory, the run's roots, the directories x and the entry add to
// sys.path, the entry's directory and root); ok is false when there is
// none, or more than one, or one that is not a .py file or a regular
// package.
func (f importFailure) topCandidate(name string) (string, bool) {
	var dirs []string
	for _, m := range []*Module{f.x, f.entry} {
		roots := m.Prog.opts.Roots
		if r := m.Prog.opts.ImportRoots; r != nil {
			roots = r(m.Path)
		}
		dirs = append(dirs, m.importRoot, filepath.Dir(m.Path))
		dirs = append(dirs, roots...)
		for _, d := range sysPathDirs(m) {
			dirs = append(dirs, d.dir)
		}
	}
	found := ""
	for _, d := range dirs {
		if d == "" {
			continue
		}
		path, present, ok := f.p.entryIn(d, name)
		if !ok {
			return "", false
		}
		if !present {
			continue
		}
		if found != "" && found != path {
			return "", false
		}
		found = path
	}
	return found, found != ""
}

// entryIn looks for module name in dir: the file it is (name.py, or
// name/__init__.py) when present; ok is false when dir has some other
// entry of that name (an extension, a namespace directory, both a module
// and a package) or cannot be listed.
func (p *Program) entryIn(dir, name string) (path string, present, ok bool) {
	lister, can := p.src.(DirLister)
	if !can {
		return "", false, false
	}
	var others []string
	for _, e := range lister.ListDir(dir) {
		if e == name || strings.HasPrefix(e, name+".") {
			if e != name+".pyi" {
				others = append(others, e)
			}
		}
	}
	switch {
	case len(others) == 0:
		return "", false, true
	case len(others) > 1:
		return "", false, false
	case others[0] == name+".py" && p.src.IsFile(filepath.Join(dir, others[0])):
		return filepath.Join(dir, others[0]), true, true
	case others[0] == name && p.src.IsFile(filepath.Join(dir, name, "__init__.py")):
		return filepath.Join(dir, name, "__init__.py"), true, true
	}
	return "", false, false
}

// openNamespace are the words of a module's source that bind names the
// model cannot read, or that make its attributes computed.
var openNamespace = []string{
	"__getattr__", "globals", "vars", "__dict__", "modules", "setattr", "exec", "eval",
	"f_globals", "__class__", "__path__", "extend_path", "_LazyModule", "LazyModule",
	"lazy_loader", "attach",
}

// neverBinds reports whether module m certainly has no attribute n once
// imported: see the comment at the top of the file.
func (p *Program) neverBinds(m *Module, n string, seen map[*Module]bool) bool {
	if seen[m] || len(seen) > 8 || strings.HasPrefix(n, "__") && strings.HasSuffix(n, "__") || n == "*" {
		return false
	}
	seen[m] = true
	if len(m.File.Errors) > 0 || hasWord(m.Src, n, nil) {
		return false
	}
	for _, w := range openNamespace {
		if hasWord(m.Src, w, nil) {
			return false
		}
	}
	for _, s := range m.imports() {
		from, ok := s.(*syntax.ImportFrom)
		if !ok || !from.Star {
			continue
		}
		star, failed := importFailure{p: p, x: m, entry: m}.walk(from.Module, from.Level)
		if failed || star == nil || !p.neverBinds(star, n, seen) {
			return false
		}
	}
	if filepath.Base(m.Path) == "__init__.py" {
		if _, present, ok := p.entryIn(filepath.Dir(m.Path), n); !ok || present {
			return false
		}
	}
	return !p.extensionBuild(filepath.Dir(m.Path))
}

// pathClosed reports whether a regular package's submodules are the files
// of its directory: its __init__ has no syntax error and does not touch
// __path__, sys.modules or the import hooks, and the project builds no
// extensions.
func (p *Program) pathClosed(pkg *Module) bool {
	if len(pkg.File.Errors) > 0 {
		return false
	}
	for _, w := range []string{"__path__", "extend_path", "modules", "meta_path", "path_hooks", "__getattr__"} {
		if hasWord(pkg.Src, w, nil) {
			return false
		}
	}
	return !p.extensionBuild(filepath.Dir(pkg.Path))
}

// nothingWrites reports whether no code that may run before st's
// statement (see the comment at the top of the file) can bind name on a
// module from outside ("" for a missing submodule: then it only checks
// sys.modules and the import hooks).
func (f importFailure) nothingWrites(st certainStep, entryEnd int32, name string) bool {
	const most = 300
	limit := map[*Module]int32{f.entry: entryEnd}
	if f.x != f.entry {
		limit[f.x] = st.end
	}
	seen := map[*Module]bool{f.entry: true}
	queue := []*Module{f.entry}
	if !seen[f.x] {
		seen[f.x] = true
		queue = append(queue, f.x)
	}
	for i := 0; i < len(queue); i++ {
		if len(queue) > most {
			return false
		}
		y := queue[i]
		src := y.Src
		end, limited := limit[y]
		if limited && int(end) <= len(src) {
			src = src[:end]
		}
		var stmts, spans []syntax.Stmt
		for _, s := range y.imports() {
			spans = append(spans, s)
			if !limited || s.Pos().Start < end {
				stmts = append(stmts, s)
			}
		}
		if writesFromOutside(src, name, spans) {
			return false
		}
		paths := y.importPaths(stmts)
		if dirs := sysPathDirs(y); len(dirs) > 0 {
			// Modules found in the directories y puts on sys.path.
			for _, s := range stmts {
				paths = append(paths, certainLocalImports(y, s, dirs)...)
			}
		}
		for _, path := range paths {
			mod, err := f.p.Module(path)
			if err == nil && mod != nil && !seen[mod] {
				seen[mod] = true
				queue = append(queue, mod)
			}
		}
	}
	return true
}

// writesFromOutside reports whether src, a module's source with its
// import statements imports, may bind name on another module, or change
// what an import finds: it spells name outside an import statement, or
// writes sys.modules, an import hook, or an attribute by setattr, vars()
// or __dict__ on something other than self or cls.
func writesFromOutside(src []byte, name string, imports []syntax.Stmt) bool {
	inImport := func(at int) bool {
		for _, s := range imports {
			if sp := s.Pos(); int(sp.Start) <= at && at < int(sp.End) {
				return true
			}
		}
		return false
	}
	if name != "" && hasWord(src, name, inImport) {
		return true
	}
	if bytes.Contains(src, []byte("sys.modules")) || hasWord(src, "meta_path", nil) || hasWord(src, "path_hooks", nil) {
		return true
	}
	for _, w := range []string{"setattr", "vars", "__dict__"} {
		for i := wordAt(src, w, 0); i >= 0; i = wordAt(src, w, i+len(w)) {
			if !onSelf(src, i, w) {
				return true
			}
		}
	}
	return false
}

// onSelf reports whether the word w at i of src is `setattr(self, …)`,
// `vars(self)` or `self.__dict__` (or cls's).
func onSelf(src []byte, i int, w string) bool {
	if w == "__dict__" {
		before := string(src[max(0, i-5):i])
		return strings.HasSuffix(before, "self.") || strings.HasSuffix(before, "cls.")
	}
	rest := strings.TrimLeft(string(src[i+len(w):min(len(src), i+len(w)+16)]), " \t")
	if !strings.HasPrefix(rest, "(") {
		return true // not a call: a name the module may bind, read as such
	}
	rest = strings.TrimLeft(rest[1:], " \t")
	for _, r := range []string{"self", "cls"} {
		if strings.HasPrefix(rest, r) && (len(rest) == len(r) || !isWordByte(rest[len(r)])) {
			return true
		}
	}
	return false
}

// hasWord reports whether w occurs in src as a whole word, outside the
// offsets skip excludes (nil: none). Strings and comments count: a
// conclusion is drawn only from a source that never spells the name.
func hasWord(src []byte, w string, skip func(int) bool) bool {
	for i := wordAt(src, w, 0); i >= 0; i = wordAt(src, w, i+len(w)) {
		if skip == nil || !skip(i) {
			return true
		}
	}
	return false
}

// wordAt is the offset of the first whole-word occurrence of w in src at
// or after from, or -1. Bytes outside ASCII end a word, so that more
// occurrences are found, never fewer.
func wordAt(src []byte, w string, from int) int {
	for from <= len(src) {
		j := bytes.Index(src[from:], []byte(w))
		if j < 0 {
			return -1
		}
		i := from + j
		if (i == 0 || !isWordByte(src[i-1])) && (i+len(w) == len(src) || !isWordByte(src[i+len(w)])) {
			return i
		}
		from = i + 1
	}
	return -1
}

func isWordByte(c byte) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// extensionMarks are what a build configuration names when the project
// compiles extension modules, which may be submodules no file of the
// repository shows.
var extensionMarks = []string{
	"ext_modules", "Extension", "CUDAExtension", "CppExtension", "cmake", "CMake", "scikit-build",
	"skbuild", "scikit_build", "pybind11", "cythonize", "Cython", "build_ext", "cffi_modules",
	"setuptools_rust", "RustExtension", "maturin", "meson", "mypyc", "nanobind",
}

// extensionBuild reports whether a project around dir builds extensions:
// a setup.py, pyproject.toml or setup.cfg of dir or of a directory above
// it names one of extensionMarks, or one has a CMakeLists.txt or
// meson.build. A build file that cannot be read counts as building.
func (p *Program) extensionBuild(dir string) bool {
	if v, ok := p.extBuild.Load(dir); ok {
		return v.(bool)
	}
	builds := false
	for _, name := range []string{"CMakeLists.txt", "meson.build"} {
		builds = builds || p.src.IsFile(filepath.Join(dir, name))
	}
	for _, name := range []string{"setup.py", "pyproject.toml", "setup.cfg"} {
		path := filepath.Join(dir, name)
		if builds || !p.src.IsFile(path) {
			continue
		}
		var src []byte
		var err error
		if name == "setup.py" {
			_, src, err = p.src.Parse(path)
		} else {
			src, err = os.ReadFile(path)
		}
		if err != nil {
			builds = true
			break
		}
		for _, w := range extensionMarks {
			if bytes.Contains(src, []byte(w)) {
				builds = true
				break
			}
		}
	}
	if parent := filepath.Dir(dir); !builds && parent != dir {
		builds = p.extensionBuild(parent)
	}
	p.extBuild.Store(dir, builds)
	return builds
}
