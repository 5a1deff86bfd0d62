package model

import (
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/cudaforklint/cudaforklint/catalog"
	"github.com/cudaforklint/cudaforklint/notebook"
	"github.com/cudaforklint/cudaforklint/pytarget"
	"github.com/cudaforklint/cudaforklint/syntax"
)

// Source gives the model access to files: the driver implements it over the
// file system (with its size and encoding checks), tests over a map.
type Source interface {
	// Parse returns the parsed file at path and its bytes.
	Parse(path string) (*syntax.File, []byte, error)
	// IsFile reports whether path names a regular file (used to resolve
	// imports of local modules).
	IsFile(path string) bool
}

// Options configure a Program.
type Options struct {
	// Roots are extra directories searched for absolute imports of local
	// modules (the project root, typically), after the importing file's own
	// package root.
	Roots []string
	// ImportRoots, when set, replaces Roots: the directories searched for
	// absolute imports written in the file at path (its project's: the
	// driver's config.Policy.ImportRoots), so that where an import resolves
	// depends on the importing file, not on the run.
	ImportRoots func(path string) []string
	// ExtraInitializers are dotted names of the project's own functions that
	// initialize CUDA (config key extra-initializers), e.g. "mylab.gpu.setup".
	ExtraInitializers []string
	// Notebook returns the notebook the driver read from path, or nil:
	// Module.CellLine maps offsets to cells with it. Nil means the
	// notebook file is read again.
	Notebook func(path string) *notebook.Notebook
	// CUDAUnreachable, when set, reports that the module at path surely
	// cannot reach CUDA through its imports, from something cheaper than
	// loading them (the byte-level oracle of passes/pyprogram): when it
	// says so, cudaPossible answers false and loads nothing. It answers
	// false whenever it cannot tell; with read false, it answers from
	// what it has read already, reading nothing more.
	CUDAUnreachable func(path string, read bool) bool
	// Targets are the target configs of the checked files, all of them:
	// where they are on one platform, sys.platform, os.name and
	// platform.system() are that platform's strings (platform.go). Zero
	// is any platform.
	Targets pytarget.Set
}

// Program is a set of modules loaded on demand: the files being checked and
// the local modules they import.
type Program struct {
	src   Source
	opts  Options
	extra map[string]bool

	mu      sync.Mutex
	modules map[string]*moduleSlot
	// internal are the modules that failed to load through a bug of the
	// tool, by path (see InternalErrors); under mu.
	internal map[string]error

	ahead prefetcher // see prefetch.go

	vals      *valueState              // see values
	pre       *prescan                 // see mayStart
	stems     *stemIndex               // see importersByStem
	solver    *factSolver              // see memoFacts
	valSolver *valueSolver             // see valueSolver
	retSolver *retParamsSolver         // see returnedParams
	cuts      []BudgetCut              // see BudgetCuts
	touch     map[touchKey]*hitSolver  // see touchSearch
	maybe     *hitSolver               // see maybeSearch
	bounds    map[*Module][]entryBound // see entryBounds
	extBuild  sync.Map                 // directory → bool, see extensionBuild
}

type moduleSlot struct {
	once sync.Once
	mod  *Module
	err  error
}

// NewProgram returns an empty program reading files through src.
func NewProgram(src Source, opts Options) *Program {
	p := &Program{src: src, opts: opts, modules: map[string]*moduleSlot{}, extra: map[string]bool{}}
	for _, n := range opts.ExtraInitializers {
		p.extra[n] = true
	}
	return p
}

// Module loads (once) and indexes the module at path. Safe for concurrent use.
func (p *Program) Module(path string) (*Module, error) {
	path = filepath.Clean(path)
	p.mu.Lock()
	slot, ok := p.modules[path]
	if !ok {
		// A module parsed ahead (or being parsed) is loaded from now on.
		slot = p.ahead.take(path)
		p.modules[path] = slot
	}
	p.mu.Unlock()
	p.build(slot, path)
	if !ok && slot.mod != nil {
		// Built before it was loaded (ParseAhead, while prefetching was
		// off): its imports are parsed ahead from now on, as if it had
		// been built now. Queuing is idempotent.
		p.prefetchImports(slot.mod)
	}
	return slot.mod, slot.err
}

// build parses and indexes the module of a slot, once.
func (p *Program) build(slot *moduleSlot, path string) {
	slot.once.Do(func() {
		f, src, err := p.src.Parse(path)
		var m *Module
		if err == nil {
			m, err = indexSafely(p, path, f, src)
		}
		if err != nil {
			slot.err = err
			if isInternal(err) {
				p.mu.Lock()
				if p.internal == nil {
					p.internal = map[string]error{}
				}
				p.internal[path] = err
				p.mu.Unlock()
			}
			return
		}
		// Loaded reads the slots under p.mu, on other goroutines than
		// the one building (the analysis builds while the load goes on).
		p.mu.Lock()
		slot.mod = m
		p.mu.Unlock()
		p.prefetchImports(m)
	})
}

// indexSafely is newModule, with a panic (a bug) turned into the module's
// error: it runs on load and prefetch goroutines, where a panic would end
// the process, and one module the tool cannot index should cost that
// module, not the run.
func indexSafely(p *Program, path string, f *syntax.File, src []byte) (m *Module, err error) {
	defer func() {
		if r := recover(); r != nil {
			m = nil
			err = &syntax.SourceError{Kind: syntax.ErrInternal, Msg: fmt.Sprintf("internal error indexing the module (%v at %s); please report", r, syntax.PanicSite())}
		}
	}()
	return newModule(p, path, f, src), nil
}

// isInternal reports whether a module's load error is a bug of the tool
// rather than something about the file (unreadable, not UTF-8, too large).
func isInternal(err error) bool {
	var se *syntax.SourceError
	return errors.As(err, &se) && se.Kind == syntax.ErrInternal
}

// InternalErrors returns, by path, the modules the program failed to load
// through a bug of the tool. The analysis went on without them (an import
// of one resolves to nothing), so what it found may be incomplete: a caller
// reports them as tool errors, the checked files' and the imported ones'.
func (p *Program) InternalErrors() map[string]error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return maps.Clone(p.internal)
}

// Loaded returns the modules loaded so far, sorted by path.
func (p *Program) Loaded() []*Module {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []*Module
	for _, s := range p.modules {
		if s.mod != nil {
			out = append(out, s.mod)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// externalRoots are top-level modules that always mean the installed library
// or the standard library, never a file of the project, even when the
// project has a directory of that name (the CPython tree has multiprocessing/,
// the PyTorch tree has torch/): the model must recognise their APIs.
var externalRoots = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range catalog.Libraries() {
		m[n] = true
	}
	for _, n := range []string{
		"os", "sys", "pty", "multiprocessing", "multiprocess", "concurrent", "subprocess",
		"threading", "asyncio", "functools", "itertools", "collections", "typing", "signal",
		"joblib", "numpy", "pynvml", "nvidia_smi", "torchvision", "torchaudio", "lightning",
		"pytorch_lightning", "accelerate", "transformers", "ray", "dask", "builtins", "__future__",
	} {
		m[n] = true
	}
	return m
}()

// resolveImport finds the local file for module name (dotted, without
// leading dots) imported from m with the given relative level. It returns
// ok=false for modules that are not files of the project.
func (m *Module) resolveImport(name string, level int) (string, bool) {
	return m.resolved.get(writtenImport{name, level}, func() (string, bool) {
		roots := m.Prog.opts.Roots
		if f := m.Prog.opts.ImportRoots; f != nil {
			roots = f(m.Path)
		}
		return ResolveImport(m.Prog.src.IsFile, roots, m.Path, m.importRoot, name, level)
	})
}

// writtenImport is an import as written: the dotted name and the relative
// level.
type writtenImport struct {
	name  string
	level int
}

// resolvedImports remembers where a module's imports resolved. The model
// asks again at every evaluation of an import statement and of every call
// that may import (four to five times per distinct import on the stdlib
// and on diffusers), and the answer cannot change within a run: it depends
// on the module's path and root, the run's roots and the files on disk as
// the run's directory listings saw them.
type resolvedImports struct {
	mu sync.Mutex
	m  map[writtenImport]resolvedImport
}

type resolvedImport struct {
	path string
	ok   bool
}

// get returns the resolution of n, from resolve the first time.
func (r *resolvedImports) get(n writtenImport, resolve func() (string, bool)) (string, bool) {
	r.mu.Lock()
	if res, ok := r.m[n]; ok {
		r.mu.Unlock()
		return res.path, res.ok
	}
	r.mu.Unlock()
	path, ok := resolve()
	r.mu.Lock()
	if r.m == nil {
		r.m = map[writtenImport]resolvedImport{}
	}
	r.m[n] = resolvedImport{path, ok}
	r.mu.Unlock()
	return path, ok
}

// IsExternalRoot reports whether a top-level module name always means an
// installed or standard library, never a file of the project.
func IsExternalRoot(root string) bool { return externalRoots[root] }

// ResolveImport is the model's import resolution, shared with the byte-level
// prefilter (passes/pyprogram) so that both find the same files: it returns
// the local file that `import name` (with the given relative level) names
// when written in the file at path, whose package root is importRoot (see
// ModuleNameAndRoot), with roots searched last for absolute imports.
func ResolveImport(isFile func(string) bool, roots []string, path, importRoot, name string, level int) (string, bool) {
	if level == 0 {
		root := name
		if i := strings.IndexByte(root, '.'); i >= 0 {
			root = root[:i]
		}
		if externalRoots[root] {
			return "", false
		}
	}
	var dirs []string
	if level > 0 {
		dir := filepath.Dir(path)
		for i := 1; i < level; i++ {
			dir = filepath.Dir(dir)
		}
		dirs = []string{dir}
	} else {
		dirs = make([]string, 0, 2+len(roots))
		dirs = append(dirs, importRoot, filepath.Dir(path))
		dirs = append(dirs, roots...)
	}
	rel := filepath.FromSlash(strings.ReplaceAll(name, ".", "/"))
	for i, d := range dirs {
		if d == "" || seenBefore(dirs[:i], d) {
			continue
		}
		base := filepath.Join(d, rel)
		if name == "" {
			base = d
		}
		if name != "" && isFile(base+".py") {
			return base + ".py", true
		}
		if init := filepath.Join(base, "__init__.py"); isFile(init) {
			return init, true
		}
	}
	return "", false
}

func seenBefore(list []string, d string) bool {
	for _, x := range list {
		if x == d {
			return true
		}
	}
	return false
}

// importedModule loads the local module for an import, or returns nil.
func (m *Module) importedModule(name string, level int) *Module {
	path, ok := m.resolveImport(name, level)
	if !ok || path == m.Path {
		return nil
	}
	mod, err := m.Prog.Module(path)
	if err != nil {
		return nil
	}
	return mod
}

// ModuleNameAndRoot derives the dotted module name of a file and the
// directory its top package lives in (the sys.path entry it is importable
// from): /r/pkg/sub/mod.py with /r/pkg/__init__.py and /r/pkg/sub/__init__.py
// is "pkg.sub.mod" under /r. The model and the prefilter both use it.
func ModuleNameAndRoot(isFile func(string) bool, path string) (string, string) {
	dir, file := filepath.Split(path)
	dir = filepath.Clean(dir)
	parts := []string{strings.TrimSuffix(strings.TrimSuffix(file, ".py"), notebook.Ext)}
	if parts[0] == "__init__" {
		parts = nil
	}
	for isFile(filepath.Join(dir, "__init__.py")) {
		parts = append([]string{filepath.Base(dir)}, parts...)
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return strings.Join(parts, "."), dir
}

func (p *Program) String() string { return fmt.Sprintf("Program(%d modules)", len(p.Loaded())) }
