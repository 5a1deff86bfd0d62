// Package analyzer is cudaforklint's driver: it finds the Python files to
// check, runs the go/analysis graph over them, and turns the diagnostics into
// findings.
//
// No public go/analysis driver accepts non-Go files (checker, unitchecker,
// analysistest all load Go packages), so this one is ours, modelled on
// golang.org/x/tools/go/analysis/checker: the whole run is one unit (one
// Pass per analyzer) whose Python files are Pass.OtherFiles and are read
// through Pass.ReadFile; every file is registered in one token.FileSet; the
// analyzer graph is checked with analysis.Validate and run in dependency
// order, independent analyzers concurrently; the pyprogram pass parses files
// in parallel across cores.
package analyzer

import (
	"fmt"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"reflect"
	"runtime/debug"
	"sort"
	"sync"

	"golang.org/x/tools/go/analysis"

	"github.com/cudaforklint/cudaforklint/finding"
	"github.com/cudaforklint/cudaforklint/passes/pyprogram"
	"github.com/cudaforklint/cudaforklint/rules"
)

// DefaultMaxFileSize is the largest file checked unless Options say
// otherwise: generated Python files beyond it are almost never hand-written
// multiprocessing code, and parsing them costs seconds and memory.
const DefaultMaxFileSize = 10 << 20

// ForceFullEnv, set to 1, turns the byte prefilter off (every checked file
// is parsed and simulated): the benchmark's worst case, and a way to rule
// the prefilter out when a finding seems missing.
const ForceFullEnv = "CUDAFORKLINT_FORCE_FULL"

// Options configure one run.
type Options struct {
	// Paths are files and directories to check; empty means ".".
	Paths []string
	// Rules are the selected rules; the passes they require run too.
	Rules []rules.Rule
	// Settings go to the pyprogram pass (targets, extra initializers...).
	Settings pyprogram.Settings
	// Exclude tells which paths to skip (config exclude, .gitignore,
	// force-exclude): it is asked about every walked directory and file, and
	// about explicitly named files with explicit set. The built-in skips
	// (hidden directories, virtualenvs, site-packages, __pycache__,
	// node_modules) apply to walked paths regardless.
	Exclude func(path string, isDir, explicit bool) bool
	// Suppress reports whether a finding's code is ignored for a path
	// (per-file-ignores).
	Suppress func(path, code string) bool
	// UnusedNoqa reports whether CFL100 (unused-noqa) is enabled for a
	// file, and Enabled whether a code is; nil means CFL100 is off.
	UnusedNoqa func(path string) bool
	Enabled    func(path, code string) bool
	// MaxFileSize in bytes; 0 means DefaultMaxFileSize.
	MaxFileSize int64
	// WorkDir makes finding paths relative; "" means the current directory.
	WorkDir string
}

// Result is what a run found.
type Result struct {
	// Findings are sorted by path, line, column, code; suppressed findings
	// are included with Suppressed set.
	Findings []finding.Finding
	Errors   []finding.ToolError
	Notices  []finding.Notice
	// Files is the number of files checked (parsed or proved irrelevant).
	Files int
	// Skipped counts checked files the prefilter proved irrelevant.
	Skipped int
	// ReadFile returns a checked file's bytes (for snippets and fixes).
	ReadFile func(path string) ([]byte, error)
	// Program is the pyprogram result (modules, comments), for callers that
	// need more than findings (the stale-noqa report, fixes).
	Program *pyprogram.Result
}

// runMu serializes runs: pyprogram's settings are package state, as
// go/analysis analyzer flags are.
var runMu sync.Mutex

// Run checks the files under opts.Paths.
func Run(opts Options) (*Result, error) {
	runMu.Lock()
	defer runMu.Unlock()
	if opts.WorkDir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		opts.WorkDir = wd
	}
	if opts.MaxFileSize == 0 {
		opts.MaxFileSize = DefaultMaxFileSize
	}
	if os.Getenv(ForceFullEnv) == "1" {
		opts.Settings.ForceFull = true
	}
	paths := opts.Paths
	if len(paths) == 0 {
		paths = []string{"."}
	}
	files, discoverErrs := discover(paths, opts.WorkDir, opts.Exclude)
	rd := newReader(opts.MaxFileSize)

	var analyzers []*analysis.Analyzer
	for _, r := range opts.Rules {
		analyzers = append(analyzers, r.Analyzer)
	}
	if err := analysis.Validate(analyzers); err != nil {
		return nil, fmt.Errorf("invalid analyzer graph: %w", err)
	}
	pyprogram.Configure(opts.Settings)
	fset := token.NewFileSet()
	acts, err := runGraph(analyzers, fset, files, rd.ReadFile)
	if err != nil {
		return nil, err
	}
	res := &Result{Errors: discoverErrs, ReadFile: rd.ReadFile, Files: len(files)}
	if prog, ok := acts[pyprogram.Analyzer]; ok && prog.result != nil {
		pr := prog.result.(*pyprogram.Result)
		res.Program = pr
		res.Errors = append(res.Errors, pr.Errors...)
		res.Notices = append(res.Notices, pr.Notices...)
		res.Skipped = pr.Skipped
	}
	for _, a := range analyzers {
		if act := acts[a]; act.err != nil {
			res.Errors = append(res.Errors, finding.ToolError{Message: fmt.Sprintf("internal error in %s: %v", a.Name, act.err)})
		}
	}
	conv := converter{fset: fset, read: rd.ReadFile, workDir: opts.WorkDir, suppress: opts.Suppress, prog: res.Program}
	for _, r := range opts.Rules {
		for _, d := range acts[r.Analyzer].diags {
			res.Findings = append(res.Findings, conv.finding(d, r))
		}
	}
	if opts.UnusedNoqa != nil && res.Program != nil {
		res.Findings = append(res.Findings, conv.unusedNoqa(res.Program, opts.UnusedNoqa, opts.Enabled)...)
	}
	res.Notices = append(res.Notices, conv.invalidNoqa(res.Program)...)
	res.Findings = dedupe(res.Findings)
	for i := range res.Errors {
		res.Errors[i].Path = relPath(opts.WorkDir, res.Errors[i].Path)
	}
	for i := range res.Notices {
		res.Notices[i].Path = relPath(opts.WorkDir, res.Notices[i].Path)
	}
	sort.SliceStable(res.Errors, func(i, j int) bool { return res.Errors[i].Path < res.Errors[j].Path })
	sort.SliceStable(res.Notices, func(i, j int) bool {
		a, b := res.Notices[i], res.Notices[j]
		return a.Path < b.Path || a.Path == b.Path && a.Line < b.Line
	})
	return res, nil
}

// action is one analyzer's run.
type action struct {
	a      *analysis.Analyzer
	deps   []*action
	result any
	err    error
	diags  []analysis.Diagnostic
	done   chan struct{}
}

// runGraph runs analyzers and everything they require, each once, each as
// soon as its dependencies are done.
func runGraph(roots []*analysis.Analyzer, fset *token.FileSet, files []string, read func(string) ([]byte, error)) (map[*analysis.Analyzer]*action, error) {
	acts := map[*analysis.Analyzer]*action{}
	var mk func(a *analysis.Analyzer) *action
	mk = func(a *analysis.Analyzer) *action {
		if act, ok := acts[a]; ok {
			return act
		}
		act := &action{a: a, done: make(chan struct{})}
		acts[a] = act
		for _, req := range a.Requires {
			act.deps = append(act.deps, mk(req))
		}
		return act
	}
	for _, a := range roots {
		mk(a)
	}
	pkg := types.NewPackage("python", "python")
	var wg sync.WaitGroup
	for _, act := range acts {
		wg.Add(1)
		go func(act *action) {
			defer wg.Done()
			defer close(act.done)
			inputs := map[*analysis.Analyzer]any{}
			for _, dep := range act.deps {
				<-dep.done
				if dep.err != nil {
					act.err = fmt.Errorf("%s failed: %v", dep.a.Name, dep.err)
					return
				}
				inputs[dep.a] = dep.result
			}
			var mu sync.Mutex
			pass := &analysis.Pass{
				Analyzer:   act.a,
				Fset:       fset,
				OtherFiles: files,
				Pkg:        pkg,
				TypesInfo:  &types.Info{},
				ResultOf:   inputs,
				ReadFile:   read,
				Module:     &analysis.Module{},
				Report: func(d analysis.Diagnostic) {
					mu.Lock()
					act.diags = append(act.diags, d)
					mu.Unlock()
				},
				ImportObjectFact:  func(types.Object, analysis.Fact) bool { return false },
				ImportPackageFact: func(*types.Package, analysis.Fact) bool { return false },
				ExportObjectFact:  func(types.Object, analysis.Fact) {},
				ExportPackageFact: func(analysis.Fact) {},
				AllObjectFacts:    func() []analysis.ObjectFact { return nil },
				AllPackageFacts:   func() []analysis.PackageFact { return nil },
			}
			act.result, act.err = safeRun(act.a, pass)
			if act.err == nil && act.a.ResultType != nil && reflect.TypeOf(act.result) != act.a.ResultType {
				act.err = fmt.Errorf("%s returned %T, want %v", act.a.Name, act.result, act.a.ResultType)
			}
		}(act)
	}
	wg.Wait()
	return acts, nil
}

// safeRun runs an analyzer, turning a panic into an error: the tool reports
// an internal error for the run instead of crashing.
func safeRun(a *analysis.Analyzer, pass *analysis.Pass) (res any, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v\n%s", r, debug.Stack())
		}
	}()
	return a.Run(pass)
}

// reader is the checked, caching Pass.ReadFile.
type reader struct {
	max   int64
	mu    sync.Mutex
	cache map[string][]byte
}

func newReader(max int64) *reader { return &reader{max: max, cache: map[string][]byte{}} }

// ReadFile reads a Python file, refusing directories, special files and
// files over the size limit.
func (r *reader) ReadFile(path string) ([]byte, error) {
	r.mu.Lock()
	if b, ok := r.cache[path]; ok {
		r.mu.Unlock()
		return b, nil
	}
	r.mu.Unlock()
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("not a regular file")
	}
	if fi.Size() > r.max {
		return nil, fmt.Errorf("file is %.1f MB, larger than the %.1f MB limit (--max-file-size)", float64(fi.Size())/1e6, float64(r.max)/1e6)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	r.cache[path] = b
	r.mu.Unlock()
	return b, nil
}

func relPath(workDir, path string) string {
	if path == "" || !filepath.IsAbs(path) {
		return path
	}
	rel, err := filepath.Rel(workDir, path)
	if err != nil || len(rel) >= 2 && rel[:2] == ".." {
		return path
	}
	return rel
}
