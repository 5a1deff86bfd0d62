// Package analyzer is cudaforklint's driver: it finds the Python files to
// check, runs the go/analysis graph over them, and turns the diagnostics into
// findings.
//
// No public go/analysis driver accepts non-Go files (checker, unitchecker,
// analysistest all load Go packages), so this one is ours, modelled on
// golang.org/x/tools/go/analysis/checker: the run is split into independent
// programs (Options.Split: files no import path joins), as the checker
// splits Go code into packages, and each is one unit (one Pass per
// analyzer) whose Python files are Pass.OtherFiles and are read through
// Pass.ReadFile; every file is registered in one token.FileSet; the
// analyzer graph is checked with analysis.Validate and run in dependency
// order, independent analyzers concurrently; the pyprogram pass parses files
// in parallel across cores.
//
// The driver knows no pass: the caller gives it the analyzers and the
// splitter (pyprogram.Split), and it hands the passes two results it
// supplies itself, the settings (config.Analyzer) and the run's state
// (runstate.Analyzer).
//
// Paths: the driver works on absolute, clean paths (Options.Paths are
// taken relative to Options.WorkDir), and a Result's paths (findings,
// errors, notices, syntax errors) are relative to WorkDir where they lie
// below it, absolute otherwise, as users read them. finding.AbsPath is the
// one way back to the absolute path, for callers that write or compare
// files.
package analyzer

import (
	"context"
	"crypto/sha256"
	"fmt"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"runtime/debug"
	"sort"
	"sync"

	"golang.org/x/tools/go/analysis"

	"github.com/cudaforklint/cudaforklint/analyzer/runstate"
	"github.com/cudaforklint/cudaforklint/config"
	"github.com/cudaforklint/cudaforklint/finding"
	"github.com/cudaforklint/cudaforklint/notebook"
	"github.com/cudaforklint/cudaforklint/ruledoc"
	"github.com/cudaforklint/cudaforklint/syntax"
)

// DefaultMaxFileSize is the largest file checked unless Options say
// otherwise: generated Python files beyond it are almost never hand-written
// multiprocessing code, and parsing them costs seconds and memory.
const DefaultMaxFileSize = 10 << 20

// ForceFullEnv, set to 1, asks for Options.ForceFull: the commands read it
// (the driver reads no environment).
const ForceFullEnv = "CUDAFORKLINT_FORCE_FULL"

// Options configure one run.
type Options struct {
	// Paths are files and directories to check; empty means ".".
	Paths []string
	// Analyzers are the rules to run, each named by its code (ruledoc); one
	// runs only when some checked file selects it, and the passes it
	// requires run with it.
	Analyzers []*analysis.Analyzer
	// Policy is the run's configuration: each file's settings, the exclude
	// rules, the engine's options. The driver supplies it as the result of
	// config.Analyzer. Nil means the configuration files found from each
	// path, with no command-line overrides.
	Policy *config.Policy
	// MaxFileSize in bytes; 0 means DefaultMaxFileSize.
	MaxFileSize int64
	// WorkDir makes finding paths relative; "" means the current directory.
	WorkDir string
	// Overlay holds the contents of files that differ from the disk (an
	// editor's unsaved buffers), by absolute, clean path. The run reads a
	// file in it from here instead of the disk, whether it is checked or a
	// local module a checked file imports; a path named in Paths that
	// exists only here is checked too. Imports still resolve against the
	// directories on disk.
	Overlay map[string][]byte
	// Read holds the bytes of files on disk that the caller read during
	// this run (a cache that hashed them), by absolute, clean path: the run
	// takes them as read from disk instead of reading the files again.
	// Unlike Overlay's, they are what the disk holds.
	Read map[string][]byte
	// Programs, when set, is asked for each program's findings before it
	// is analyzed, and given each one analyzed (check's results cache).
	Programs ProgramCache
	// Notebooks holds the notebooks an editor has open, by absolute,
	// clean path: their cells as the editor holds them. The run builds
	// such a notebook's module from them (notebook.FromCells) instead of
	// reading its file; otherwise they are as Overlay's files. The
	// findings' cell numbers count the cells given, from 1.
	Notebooks map[string][]notebook.CellText
	// Progress, when set, counts the run's work as it goes (progress.go).
	Progress *Progress
	// Split splits the checked files into independent programs, analyzed
	// apart (pyprogram.Split); nil analyzes them as one program.
	Split runstate.Splitter
	// Trees keeps the parse trees of the files the run parses between runs
	// (cache.Trees for a plain check; the language server's memo); nil
	// parses every file.
	Trees syntax.TreeCache
	// ForceFull turns the byte prefilter off: every checked file is parsed
	// and simulated. The benchmark's worst case, and a way to rule the
	// prefilter out when a finding seems missing (ForceFullEnv).
	ForceFull bool
}

// Result is what a run found.
type Result struct {
	// Findings are sorted by path, line, column, code; suppressed findings
	// are included with Suppressed set.
	Findings []finding.Finding
	Errors   []finding.ToolError
	Notices  []finding.Notice
	// SyntaxErrors are code the parser could not read, sorted by path and
	// position: errors like findings (exit 1), not tool errors.
	SyntaxErrors []finding.SyntaxError
	// Files is the number of files checked (parsed or proved irrelevant).
	Files int
	// Skipped counts checked files the prefilter proved irrelevant.
	Skipped int
	// Unconfigured counts files not checked because their configuration
	// could not be loaded.
	Unconfigured int
	// ReadFile returns a checked file's bytes (for snippets and fixes):
	// for a notebook, the module its kernel runs, which the findings'
	// offsets are in.
	ReadFile func(path string) ([]byte, error)
	// FilesRead are the absolute paths of the files the run read, sorted:
	// the checked files and the local modules the analysis loaded or the
	// prefilter scanned. A change to any other file cannot change the
	// findings (an editor re-checks a file when one of these changes).
	FilesRead []string
	// DiskSum returns the SHA-256 and size of the file at path as the run
	// read it from disk (a notebook's JSON, of which ReadFile gives the
	// module), ok=false for a path it did not read from disk: a cache
	// records the files read without reading them again (cache/inputs.go).
	DiskSum func(path string) (sum [sha256.Size]byte, size int64, ok bool)
}

// Run checks the files under opts.Paths.
//
// Cancelling ctx stops the run: the programs not started are not analyzed,
// the passes not started do not run, and the running ones stop at their
// next boundary (the load between files, the simulation between entries).
// Run then returns ctx.Err() and no Result, once nothing of the run is
// running any more, and hands opts.Programs nothing more: a cancelled run
// leaves no partial result in a cache.
func Run(ctx context.Context, opts Options) (*Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
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
	pol := opts.Policy
	if pol == nil {
		l, err := config.NewLoader(ruledoc.All(), config.Overrides{})
		if err != nil {
			return nil, err
		}
		pol = config.NewPolicy(l)
	}
	paths := opts.Paths
	if len(paths) == 0 {
		paths = []string{"."}
	}
	present := opts.Overlay
	if len(opts.Notebooks) > 0 {
		present = make(map[string][]byte, len(opts.Overlay)+len(opts.Notebooks))
		for p, b := range opts.Overlay {
			present[p] = b
		}
		for p := range opts.Notebooks {
			present[p] = nil
		}
	}
	files, discoverErrs, discoverNotices := discover(paths, opts.WorkDir, pol.Excluded, present)
	opts.Progress.start(len(files))
	rd := newReader(opts.MaxFileSize, opts.Overlay)
	rd.progress = opts.Progress
	rd.cells = opts.Notebooks
	rd.preread = opts.Read
	rd.trees = opts.Trees
	rd.memo, _ = opts.Trees.(NotebookMemo)

	if err := analysis.Validate(opts.Analyzers); err != nil {
		return nil, fmt.Errorf("invalid analyzer graph: %w", err)
	}
	analyzers := selectedAnalyzers(opts.Analyzers, files, pol)
	fset := token.NewFileSet()
	res := &Result{Errors: discoverErrs, Notices: discoverNotices, ReadFile: rd.ReadFile, DiskSum: rd.diskSum, Files: len(files)}
	conv := converter{fset: fset, read: rd.ReadFile, workDir: opts.WorkDir}
	programs := []runstate.Program{{Files: files}}
	var scans any
	if opts.Split != nil && len(files) > 1 {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		programs, scans = opts.Split(files, rd.ReadFile, pol)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	state := &runstate.State{Files: files, Scans: scans, ForceFull: opts.ForceFull, Notebook: rd.notebook, Trees: opts.Trees, Ctx: ctx}
	parts := make([]Result, len(programs))
	var analyze []int // the programs not reused, by index
	for i, p := range programs {
		if opts.Programs != nil {
			if part, ok := opts.Programs.Reuse(p.Files); ok {
				parts[i] = rd.reused(part)
				continue
			}
		}
		analyze = append(analyze, i)
	}
	opts.Progress.programs(len(analyze))
	todo := make([]runstate.Program, len(analyze))
	for k, i := range analyze {
		todo[k] = programs[i]
	}
	eachProgram(ctx, todo, pol.Workers, func(k int) {
		i := analyze[k]
		// For a ProgramCache, everything the program reads, its
		// findings included, goes through rec: with its reach, the files
		// its part depends on. (Without one, as in the language server's
		// checks, nothing is recorded.) What its passes hold (trees,
		// summaries) is garbage once its findings are out.
		read, pconv := rd.ReadFile, conv
		var rec *readRecorder
		if opts.Programs != nil {
			rec = newReadRecorder(rd.ReadFile, programs[i].Reach)
			read, pconv.read = rec.ReadFile, rec.ReadFile
		}
		acts := runGraph(ctx, analyzers, fset, programs[i].Files, read, pol, state)
		if ctx.Err() != nil {
			// Some pass may have stopped short: nothing of this program
			// is kept. (ctx.Err() stays set once set, so a nil here means
			// no pass saw the run cancelled.)
			return
		}
		parts[i].addProgram(acts, analyzers, &pconv, pol)
		if rec != nil {
			opts.Programs.Analyzed(parts[i].part(programs[i], rec.list()))
		}
		opts.Progress.analyzed()
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for _, part := range parts {
		res.Errors = append(res.Errors, part.Errors...)
		res.Notices = append(res.Notices, part.Notices...)
		res.SyntaxErrors = append(res.SyntaxErrors, part.SyntaxErrors...)
		res.Findings = append(res.Findings, part.Findings...)
		res.Skipped += part.Skipped
	}
	canonicalPaths(res.Findings, opts.WorkDir, files)
	res.Findings = dedupe(res.Findings)
	res.Notices = append(res.Notices, rd.notebookNotices()...)
	rd.inCells(&conv, res)
	res.Errors = append(pol.Errors(), res.Errors...)
	res.Unconfigured = pol.Unconfigured()
	res.FilesRead = rd.read()
	for i := range res.Errors {
		res.Errors[i].Path = finding.RelPath(opts.WorkDir, res.Errors[i].Path)
	}
	for i := range res.Notices {
		res.Notices[i].Path = finding.RelPath(opts.WorkDir, res.Notices[i].Path)
	}
	for i := range res.SyntaxErrors {
		res.SyntaxErrors[i].Path = finding.RelPath(opts.WorkDir, res.SyntaxErrors[i].Path)
	}
	sort.SliceStable(res.SyntaxErrors, func(i, j int) bool {
		a, b := res.SyntaxErrors[i], res.SyntaxErrors[j]
		if a.Path != b.Path || a.Cell != b.Cell {
			return a.Path < b.Path || a.Path == b.Path && a.Cell < b.Cell
		}
		return a.Line < b.Line || a.Line == b.Line && a.Column < b.Column
	})
	sort.SliceStable(res.Errors, func(i, j int) bool { return res.Errors[i].Path < res.Errors[j].Path })
	sort.SliceStable(res.Notices, func(i, j int) bool {
		a, b := res.Notices[i], res.Notices[j]
		return a.Path < b.Path || a.Path == b.Path && (a.Cell < b.Cell || a.Cell == b.Cell && a.Line < b.Line)
	})
	return res, nil
}

// programBytes bounds the source that the programs analyzed at once can
// load (runstate.Program.Bytes): small programs (standalone scripts) run
// side by side, one as large as this runs alone, so that peak memory is
// that of the largest program, not the sum. The standard library's 31 MB
// is one program and runs alone.
const programBytes = 16 << 20

// eachProgram calls run for every program, in order, up to workers
// (GOMAXPROCS when 0) of them at once while their sizes fit in
// programBytes, and starts none once ctx is done.
func eachProgram(ctx context.Context, programs []runstate.Program, workers int, run func(i int)) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var mu sync.Mutex
	cond := sync.NewCond(&mu)
	running, load := 0, int64(0)
	var wg sync.WaitGroup
	for i, p := range programs {
		w := min(p.Bytes, programBytes)
		mu.Lock()
		for running > 0 && (running >= workers || load+w > programBytes) {
			cond.Wait()
		}
		if ctx.Err() != nil {
			mu.Unlock()
			break
		}
		running++
		load += w
		mu.Unlock()
		wg.Add(1)
		go func() {
			defer wg.Done()
			run(i)
			if w == programBytes {
				// A large program's heap is garbage now: collect it before
				// the next one grows, or the collector's target, set by
				// this one's live heap, lets both be resident at once.
				runtime.GC()
			}
			mu.Lock()
			running--
			load -= w
			cond.Broadcast()
			mu.Unlock()
		}()
	}
	wg.Wait()
}

// addProgram adds the findings, problems and suppressions of one program's
// passes. Suppression is per program, as it can be: a finding lies in a
// module of its program, and every module is in one program.
func (res *Result) addProgram(acts map[*analysis.Analyzer]*action, analyzers []*analysis.Analyzer, conv *converter, pol *config.Policy) {
	var sources []sourceComments
	for _, act := range acts {
		if act.err != nil {
			continue
		}
		if p, ok := act.result.(fileProblems); ok {
			errs, notices, skipped := p.Problems()
			res.Errors = append(res.Errors, errs...)
			res.Notices = append(res.Notices, notices...)
			res.Skipped += skipped
		}
		if u, ok := act.result.(unparsable); ok {
			res.SyntaxErrors = append(res.SyntaxErrors, u.Unparsable()...)
		}
		if c, ok := act.result.(sourceComments); ok {
			sources = append(sources, c)
		}
	}
	for _, a := range analyzers {
		if act := acts[a]; act.err != nil {
			res.Errors = append(res.Errors, finding.ToolError{Message: fmt.Sprintf("internal error in %s: %v", a.Name, act.err)})
		}
	}
	var found []finding.Finding
	for _, a := range analyzers {
		for _, d := range acts[a].diags {
			found = append(found, conv.finding(d, a, acts[a].result))
		}
	}
	sup := newSuppressor(conv, pol, sources)
	found = sup.apply(found)
	res.Findings = append(res.Findings, found...)
	res.Findings = append(res.Findings, sup.unusedNoqa()...)
	res.Notices = append(res.Notices, sup.invalidNoqa()...)
}

// fileProblems is implemented by a pass result that loaded the checked
// files (pyprogram's): files that could not be checked, regions that could
// not be parsed, and how many files it proved irrelevant without parsing.
type fileProblems interface {
	Problems() (errs []finding.ToolError, notices []finding.Notice, skipped int)
}

// unparsable is implemented by a pass result that parsed the checked files:
// the code it could not parse.
type unparsable interface {
	Unparsable() []finding.SyntaxError
}

// sourceComments is implemented by a pass result that parsed the checked
// files: their bytes and comments, for the suppression directives.
type sourceComments interface {
	CheckedSources(fn func(path string, src []byte, comments []syntax.Comment, tf *token.File))
}

// selectedAnalyzers keeps the analyzers that some checked file selects:
// selection happens before the analysis, so an unselected rule costs
// nothing. An analyzer that is not a documented rule always runs. Each rule
// still reports only in the files that select it (config.Settings.Selected).
func selectedAnalyzers(all []*analysis.Analyzer, files []string, pol *config.Policy) []*analysis.Analyzer {
	selected := map[string]bool{}
	for _, f := range files {
		if s := pol.File(f); s != nil {
			for _, c := range s.Codes() {
				selected[c] = true
			}
		}
	}
	var out []*analysis.Analyzer
	for _, a := range all {
		if _, isRule := ruledoc.ByCode(a.Name); !isRule || selected[a.Name] {
			out = append(out, a)
		}
	}
	return out
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
// soon as its dependencies are done. Once ctx is done, an analyzer not yet
// started fails with ctx.Err() instead of running, and runGraph returns
// once the results that go on working after their pass returned (Wait:
// pyprogram's load) have stopped too, so that nothing of a cancelled run
// outlives it.
func runGraph(ctx context.Context, roots []*analysis.Analyzer, fset *token.FileSet, files []string, read func(string) ([]byte, error), pol *config.Policy, state *runstate.State) map[*analysis.Analyzer]*action {
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
		// The configuration and the run's state are the driver's to give,
		// not passes to run.
		switch act.a {
		case config.Analyzer:
			act.result = pol
		case runstate.Analyzer:
			act.result = state
		}
		if act.result != nil {
			close(act.done)
			continue
		}
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
			if err := ctx.Err(); err != nil {
				act.err = err
				return
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
	if ctx.Err() != nil {
		for _, act := range acts {
			if w, ok := act.result.(waiter); ok && act.err == nil {
				w.Wait()
			}
		}
	}
	return acts
}

// waiter is implemented by a pass result that works on after its pass
// returned (pyprogram's, which loads the files on its own goroutines):
// Wait returns once that work is over.
type waiter interface {
	Wait()
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
	max     int64
	overlay map[string][]byte
	cells   map[string][]notebook.CellText // Options.Notebooks
	preread map[string][]byte              // Options.Read
	trees   syntax.TreeCache               // Options.Trees, for notebooks' modules
	mu      sync.Mutex
	cache   map[string][]byte
	// notebooks are the notebooks read, by path (notebook.go); unparsed
	// those whose read memo gave (memo: Options.Trees when it is a
	// NotebookMemo), until asked for.
	notebooks map[string]*notebook.Notebook
	unparsed  map[string]*unparsedNotebook
	memo      NotebookMemo
	// named are files taken as read without their bytes: those of
	// programs a ProgramCache reused (reused).
	named map[string]bool
	// disk are the files read from disk, by clean path.
	disk map[string]*diskRead
	// progress counts the files kept (Options.Progress).
	progress *Progress
}

// diskRead is what a reader keeps of a file it read from disk besides
// what it hands the passes: its size, and its SHA-256 once asked for (a
// notebook's when it is read: the passes see its module, not its bytes).
type diskRead struct {
	size   int64
	sum    [sha256.Size]byte
	summed bool
}

// SourceReader returns a function that reads files as a run's
// Result.ReadFile does (a notebook as the module its kernel runs, files over
// maxFileSize refused; 0 means DefaultMaxFileSize), from overlay when it
// holds the file: a result replayed from the cache reads its snippets with
// it.
func SourceReader(maxFileSize int64, overlay map[string][]byte) func(path string) ([]byte, error) {
	if maxFileSize == 0 {
		maxFileSize = DefaultMaxFileSize
	}
	return newReader(maxFileSize, overlay).ReadFile
}

func newReader(max int64, overlay map[string][]byte) *reader {
	return &reader{max: max, overlay: overlay, cache: map[string][]byte{}, notebooks: map[string]*notebook.Notebook{}, unparsed: map[string]*unparsedNotebook{}, named: map[string]bool{}, disk: map[string]*diskRead{}}
}

// ReadFile reads a Python file, from the overlay when it holds the file,
// refusing directories, special files and files over the size limit. For a
// Jupyter notebook it returns the Python module the kernel runs (package
// notebook): what every pass analyzes.
func (r *reader) ReadFile(path string) ([]byte, error) {
	r.mu.Lock()
	if b, ok := r.cache[path]; ok {
		r.mu.Unlock()
		return b, nil
	}
	r.mu.Unlock()
	if cells, ok := r.cells[filepath.Clean(path)]; ok {
		return r.keepCells(path, cells)
	}
	if b, ok := r.overlay[filepath.Clean(path)]; ok {
		if int64(len(b)) > r.max {
			return nil, r.tooLarge(int64(len(b)))
		}
		return r.keep(path, b, false)
	}
	if b, ok := r.preread[filepath.Clean(path)]; ok {
		if int64(len(b)) > r.max {
			return nil, r.tooLarge(int64(len(b)))
		}
		return r.keep(path, b, true)
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("not a regular file")
	}
	if fi.Size() > r.max {
		return nil, r.tooLarge(fi.Size())
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return r.keep(path, b, true)
}

func (r *reader) tooLarge(size int64) error {
	return fmt.Errorf("file is %.1f MB, larger than the %.1f MB limit (--max-file-size)", float64(size)/1e6, float64(r.max)/1e6)
}

// keep caches what passes see of the file at path: its bytes, or for a
// notebook the module its kernel runs; fromDisk says b was read from disk.
func (r *reader) keep(path string, b []byte, fromDisk bool) ([]byte, error) {
	var d *diskRead
	if fromDisk {
		d = &diskRead{size: int64(len(b))}
	}
	if notebook.IsPath(path) {
		if d != nil {
			d.sum, d.summed = sha256.Sum256(b), true
		}
		var err error
		if b, err = r.notebookSource(path, b, d); err != nil {
			return nil, err
		}
	}
	r.mu.Lock()
	if _, again := r.cache[path]; !again {
		r.progress.read()
	}
	r.cache[path] = b
	if d != nil {
		r.disk[filepath.Clean(path)] = d
	}
	r.mu.Unlock()
	return b, nil
}

// diskSum returns the SHA-256 and size of the file the reader read from
// disk at path (Result.DiskSum).
func (r *reader) diskSum(path string) (sum [sha256.Size]byte, size int64, ok bool) {
	path = filepath.Clean(path)
	r.mu.Lock()
	d, ok := r.disk[path]
	if !ok {
		r.mu.Unlock()
		return sum, 0, false
	}
	if d.summed {
		sum, size = d.sum, d.size
		r.mu.Unlock()
		return sum, size, true
	}
	b, held := r.cache[path]
	r.mu.Unlock()
	if !held || int64(len(b)) != d.size {
		// Kept under another spelling of the path: the caller reads it.
		return sum, 0, false
	}
	sum = sha256.Sum256(b)
	r.mu.Lock()
	d.sum, d.summed = sum, true
	r.mu.Unlock()
	return sum, d.size, true
}

// read lists the clean paths of the files read so far, sorted.
func (r *reader) read() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	seen := make(map[string]bool, len(r.cache)+len(r.named))
	out := make([]string, 0, len(r.cache)+len(r.named))
	for p := range r.cache {
		if c := filepath.Clean(p); !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	for p := range r.named {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}
