// Package pyprogram defines the analyzer that loads Python files into a
// model.Program: the "parsed module" pass every cudaforklint rule requires,
// in the way go/analysis's inspect pass gives Go analyzers their syntax.
//
// Python files reach it as go/analysis hands non-Go files to passes: their
// names are in Pass.OtherFiles and their bytes come from Pass.ReadFile. The
// pass parses them in parallel, registers every file it loads (the checked
// files and the local modules they import) in Pass.Fset, and returns the
// Program with the modules to analyze as entry points.
package pyprogram

import (
	"context"
	"errors"
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"runtime/debug"
	"slices"
	"sort"
	"sync"

	"golang.org/x/tools/go/analysis"

	"github.com/cudaforklint/cudaforklint/analyzer/runstate"
	"github.com/cudaforklint/cudaforklint/config"
	"github.com/cudaforklint/cudaforklint/finding"
	"github.com/cudaforklint/cudaforklint/model"
	"github.com/cudaforklint/cudaforklint/pytarget"
	"github.com/cudaforklint/cudaforklint/syntax"
	"github.com/cudaforklint/cudaforklint/tokcheck"
)

// Analyzer loads the program.
var Analyzer = &analysis.Analyzer{
	Name:       "pyprogram",
	Doc:        "load Python files into the cudaforklint model\n\nThe pyprogram analyzer parses the files in Pass.OtherFiles (and the local modules they import) and returns a *pyprogram.Result.",
	Run:        run,
	Requires:   []*analysis.Analyzer{config.Analyzer, runstate.Analyzer},
	ResultType: reflect.TypeOf((*Result)(nil)),
}

// Result is the loaded program. The run returns it once the load has
// started: Prog and the entries as they load (Loading, TargetSets) are
// there at once; the other fields once Wait returns, and the methods that
// read them wait.
type Result struct {
	Prog *model.Program
	// Entries are the checked modules that parsed, grouped by target set.
	Entries map[pytarget.Set][]*model.Module
	// Errors are files that could not be checked at all; SyntaxErrors are
	// regions of checked files that could not be parsed (analyzed around),
	// Notices those that hold syntax newer than the parser (syntaxerr.go).
	// Files the prefilter skips are parsed for their syntax errors too.
	Errors       []finding.ToolError
	SyntaxErrors []finding.SyntaxError
	Notices      []finding.Notice
	// Skipped counts checked files the prefilter proved irrelevant.
	Skipped int
	// NoqaOnly are checked files the prefilter proved irrelevant that were
	// parsed all the same, for the driver's noqa checks and syntax-error
	// notices (they mention noqa or CUDA); they are not simulated.
	NoqaOnly []*model.Module

	fset  *token.FileSet
	mu    sync.Mutex
	files map[string]*token.File

	// entryPaths are the entries' files by target set, known before they
	// load; loaded is closed once the load is over (Wait).
	entryPaths map[pytarget.Set][]string
	loaded     chan struct{}
}

// Checked returns the checked modules that parsed, sorted by path.
func (r *Result) Checked() []*model.Module {
	r.Wait()
	var out []*model.Module
	for _, ms := range r.Entries {
		out = append(out, ms...)
	}
	out = append(out, r.NoqaOnly...)
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// File returns (registering it once) the token.File of a module.
func (r *Result) File(m *model.Module) *token.File { return r.register(m, nil) }

// register is File, given the module's line table when the caller made it
// (lineStarts) on a load worker: registered files are registered in order,
// under the lock, and making their tables there took 110–180 ms of a
// standard library run while the analysis waited.
func (r *Result) register(m *model.Module, lines []int) *token.File {
	r.mu.Lock()
	defer r.mu.Unlock()
	if tf, ok := r.files[m.Path]; ok {
		return tf
	}
	tf := r.fset.AddFile(m.Path, -1, len(m.Src))
	if lines == nil || !tf.SetLines(lines) {
		tf.SetLinesForContent(m.Src)
	}
	r.files[m.Path] = tf
	return tf
}

// lineStarts returns the offsets at which src's lines start, the table
// token.File.SetLinesForContent makes: finding.LineStarts without the empty
// line after a final newline, none for empty src.
func lineStarts(src []byte) []int {
	if len(src) == 0 {
		return nil
	}
	lines := finding.LineStarts(src)
	if lines[len(lines)-1] == len(src) {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// Problems returns the files that could not be checked, the regions that
// could not be parsed, and how many checked files the prefilter proved
// irrelevant (for the driver's report).
func (r *Result) Problems() ([]finding.ToolError, []finding.Notice, int) {
	r.Wait()
	return slices.Concat(r.Errors, r.importErrors()), r.Notices, r.Skipped
}

// importErrors are the tool errors of the modules the analysis imported
// and could not load through a bug of the tool (model's InternalErrors),
// but for the checked files, whose errors the load reported already. Asked
// after the passes ran: the analysis loads modules too.
func (r *Result) importErrors() []finding.ToolError {
	reported := map[string]bool{}
	for _, e := range r.Errors {
		reported[filepath.Clean(e.Path)] = true
	}
	var out []finding.ToolError
	for path, err := range r.Prog.InternalErrors() {
		if !reported[path] {
			e := toolError(path, err)
			e.Message = "a module the checked files import could not be loaded, and the analysis went on without it: " + e.Message
			out = append(out, e)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// Unparsable returns the syntax errors of the checked files.
func (r *Result) Unparsable() []finding.SyntaxError {
	r.Wait()
	return r.SyntaxErrors
}

// CheckedSources calls fn for every checked file that parsed, in path order,
// with its bytes, comments and token.File (registered on the way): the
// driver reads suppression directives from them.
func (r *Result) CheckedSources(fn func(path string, src []byte, comments []syntax.Comment, tf *token.File)) {
	for _, m := range r.Checked() {
		fn(m.Path, m.Src, m.File.Comments, r.File(m))
	}
}

// Source returns the bytes and comments of a module the program loaded,
// checked or imported, for the driver's noqa checks of findings that lie in
// an imported module; ok is false for a file it did not load.
func (r *Result) Source(path string) ([]byte, []syntax.Comment, bool) {
	r.Wait()
	for _, m := range r.Prog.Loaded() {
		if m.Path == filepath.Clean(path) {
			return m.Src, m.File.Comments, true
		}
	}
	return nil, nil, false
}

// source adapts Pass.ReadFile to model.Source.
type source struct {
	read  func(string) ([]byte, error)
	dirs  *dirCache
	trees syntax.TreeCache // runstate.State.Trees
	// arenas are the program's: its modules live until its analysis ends,
	// so their trees share chunks (syntax/arena.go). One per program, not
	// per run: the programs of a run are analyzed one after another, and
	// each one's trees are dropped before the next.
	arenas *syntax.Arenas
}

func (s source) Parse(path string) (*syntax.File, []byte, error) {
	src, err := s.read(path)
	if err != nil {
		return nil, nil, err
	}
	f, err := syntax.ParseCached(src, s.trees, s.arenas)
	if err != nil {
		return nil, nil, err
	}
	return f, src, nil
}

func (s source) IsFile(path string) bool { return s.dirs.IsFile(path) }

// ListDir lists a directory for importlib's dynamic imports (model.DirLister).
func (s source) ListDir(dir string) []string {
	var out []string
	for name := range s.dirs.listing(filepath.Clean(dir)) {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

func run(pass *analysis.Pass) (any, error) {
	pol, state := config.For(pass), runstate.For(pass)
	// Files whose configuration could not be loaded are not checked (the
	// policy recorded why); the others run with their own settings.
	checked := configured(pol, pass.OtherFiles)
	checked, unreadable := readableLines(checked, pass.ReadFile)
	wide := checked
	if state.Files != nil {
		wide = configured(pol, state.Files)
	}
	extra := runExtraInitializers(pol, wide)
	dirs := newDirCache()
	isFile := dirs.IsFile
	oracle := cudaOracleFor(pass.ReadFile, isFile, dirs, pol.ImportRoots)
	var targets pytarget.Set // every checked file's: a module they share runs on each
	for _, f := range checked {
		targets |= pol.File(f).Targets
	}
	prog := model.NewProgram(source{read: pass.ReadFile, dirs: dirs, trees: state.Trees, arenas: syntax.NewArenas()},
		model.Options{ImportRoots: pol.ImportRoots, ExtraInitializers: extra, Notebook: state.Notebook, CUDAUnreachable: oracle.question(), Targets: targets})
	res := &Result{Prog: prog, Entries: map[pytarget.Set][]*model.Module{}, fset: pass.Fset, files: map[string]*token.File{}, entryPaths: map[pytarget.Set][]string{}}
	res.Errors = unreadable

	files := checked
	noqaOnly := map[string]bool{}
	var syntaxOnly []string // skipped by the prefilter: parsed for syntax errors only
	if !state.ForceFull {
		known, _ := state.Scans.(*Scans)
		d := runPrefilter(checked, pass.ReadFile, isFile, pol.ImportRoots, extra, pol.Workers, known)
		res.Notices = append(res.Notices, d.notices...)
		if oracle != nil {
			// Asked once the load below has started: the scans are
			// there before.
			oracle.known = d.scans
		}
		files = nil
		for _, f := range checked {
			c := filepath.Clean(f)
			switch {
			case d.simulate[c]:
				files = append(files, f)
			case d.noqa[c]:
				files = append(files, f)
				noqaOnly[f] = true
			default:
				syntaxOnly = append(syntaxOnly, f)
			}
		}
	}
	res.Skipped = len(checked) - len(files) + len(noqaOnly)
	for _, f := range files {
		if !noqaOnly[f] {
			ts := pol.File(f).Targets
			res.entryPaths[ts] = append(res.entryPaths[ts], f)
		}
	}
	// The files load on other goroutines while the passes that need
	// only the entries start (forkhazard simulates the first as they
	// load): the rest of the Result is there once Wait returns.
	res.loaded = make(chan struct{})
	go func() {
		defer close(res.loaded)
		defer func() {
			// What the driver reports of a pass that panics (safeRun): the
			// run goes on with what loaded, and exits 2.
			if r := recover(); r != nil {
				res.Errors = append(res.Errors, finding.ToolError{Message: fmt.Sprintf("internal error in pyprogram: panic: %v\n%s", r, debug.Stack())})
			}
		}()
		res.load(state.Context(), prog, pol, files, syntaxOnly, noqaOnly)
	}()
	return res, nil
}

// load builds the modules of files (and parses syntaxOnly for their syntax
// errors) on pol.Workers goroutines, then fills in the Result. Once ctx is
// done no further file is handed out, and the workers end after the one in
// hand: the driver discards a cancelled run's result, so what is filled in
// then need not be whole.
func (res *Result) load(ctx context.Context, prog *model.Program, pol *config.Policy, files, syntaxOnly []string, noqaOnly map[string]bool) {
	mods := make([]*model.Module, len(files))
	errs := make([]error, len(files))
	// Made on the workers for parseProblems, by index in files, then in
	// syntaxOnly: what tokcheck rejects, the line tables.
	rejected := make([][]tokcheck.Problem, len(files)+len(syntaxOnly))
	lines := make([][]int, len(files)+len(syntaxOnly))
	unparsed := make([][]syntax.Span, len(syntaxOnly))
	srcs := make([][]byte, len(syntaxOnly))
	workers := pol.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if i < len(files) {
					if mods[i], errs[i] = prog.Module(files[i]); errs[i] == nil {
						rejected[i], lines[i] = tokcheck.Scan(mods[i].Src).Problems, lineStarts(mods[i].Src)
					}
					continue
				}
				// Parsed for its syntax errors, and left parsed for the
				// analysis, which may import it.
				j := i - len(files)
				if f, src, err := prog.ParseAhead(syntaxOnly[j]); err == nil {
					unparsed[j], srcs[j] = f.Errors, src
					rejected[i], lines[i] = tokcheck.Scan(src).Problems, lineStarts(src)
				}
			}
		}()
	}
	for i := range len(files) + len(syntaxOnly) {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if ctx.Err() != nil {
		// Not a module more: the files not handed out were not loaded,
		// and what follows reads them.
		return
	}
	// The analysis loads the local modules these import as it needs them,
	// on one goroutine: parse them ahead meanwhile.
	prog.PrefetchImports(ctx, workers)
	for j, f := range syntaxOnly {
		if srcs[j] != nil {
			tf := token.NewFileSet().AddFile(f, -1, len(srcs[j]))
			tf.SetLines(lines[len(files)+j])
			se, notices := parseProblems(f, srcs[j], unparsed[j], rejected[len(files)+j], tf)
			res.SyntaxErrors = append(res.SyntaxErrors, se...)
			res.Notices = append(res.Notices, notices...)
		}
	}

	for i, f := range files {
		if errs[i] != nil {
			res.Errors = append(res.Errors, toolError(f, errs[i]))
			continue
		}
		m := mods[i]
		se, notices := parseProblems(f, m.Src, m.File.Errors, rejected[i], res.register(m, lines[i]))
		res.SyntaxErrors = append(res.SyntaxErrors, se...)
		res.Notices = append(res.Notices, notices...)
		if noqaOnly[f] {
			res.NoqaOnly = append(res.NoqaOnly, m)
			continue
		}
		ts := pol.File(f).Targets
		res.Entries[ts] = append(res.Entries[ts], m)
	}
	sort.Slice(res.Errors, func(i, j int) bool { return res.Errors[i].Path < res.Errors[j].Path })
}

// Wait returns once the program's checked files are loaded and every
// field of the Result is filled in.
func (r *Result) Wait() { <-r.loaded }

// Loading are the entries of one target set as they load, for
// model.Program.AnalyzeLoading: the checked files that are simulated, in
// the order Entries lists those that parsed.
func (r *Result) Loading(ts pytarget.Set) model.Entries {
	return loadingEntries{r, r.entryPaths[ts]}
}

// TargetSets are the target sets the entries are grouped by, sorted.
func (r *Result) TargetSets() []pytarget.Set {
	var sets []pytarget.Set
	for s := range r.entryPaths {
		sets = append(sets, s)
	}
	sort.Slice(sets, func(i, j int) bool { return sets[i] < sets[j] })
	return sets
}

type loadingEntries struct {
	r     *Result
	paths []string
}

func (l loadingEntries) Len() int { return len(l.paths) }

// At builds the module or waits for the goroutine building it: Module
// builds each once.
func (l loadingEntries) At(i int) *model.Module {
	m, err := l.r.Prog.Module(l.paths[i])
	if err != nil {
		return nil
	}
	return m
}

func (l loadingEntries) Wait() { l.r.Wait() }

// configured returns the files whose configuration could be loaded.
func configured(pol *config.Policy, files []string) []string {
	var out []string
	for _, f := range files {
		if pol.File(f) != nil {
			out = append(out, f)
		}
	}
	return out
}

// importRoots returns the directories searched for absolute imports
// written in the file at path, after its package root and its directory:
// its project's (config.Policy.ImportRoots), whatever the run.
type importRoots func(path string) []string

// runExtraInitializers returns the extra initializers the files'
// configurations add up to, sorted. They are one program's, and so the
// whole run's: a run split into independent programs (Programs) takes them
// over all of its files (runstate.State.Files), so that a file's findings
// do not depend on the split. (The import roots are each file's own:
// config.Policy.ImportRoots.)
func runExtraInitializers(pol *config.Policy, files []string) (extra []string) {
	seenExtra := map[string]bool{}
	for _, f := range files {
		s := pol.File(f)
		if s == nil {
			continue
		}
		for _, e := range s.ExtraInitializers {
			if !seenExtra[e] {
				seenExtra[e] = true
				extra = append(extra, e)
			}
		}
	}
	sort.Strings(extra)
	return extra
}

func toolError(path string, err error) finding.ToolError {
	var se *syntax.SourceError
	if errors.As(err, &se) {
		return finding.ToolError{Path: path, Line: se.Line, Message: se.Msg}
	}
	var pe *os.PathError
	if errors.As(err, &pe) {
		return finding.ToolError{Path: path, Message: pe.Err.Error()}
	}
	return finding.ToolError{Path: filepath.Clean(path), Message: err.Error()}
}
