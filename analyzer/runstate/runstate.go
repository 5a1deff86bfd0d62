// Package runstate is what one run of the driver (package analyzer) hands
// its passes besides the configuration: the state of the run, not settings.
// config.Policy says how each file is checked; State says what this run
// is (its files, what splitting it learnt, the caches it reads through).
//
// The driver supplies Analyzer's result, as it supplies config.Analyzer's:
// a pass that needs the run's state requires Analyzer and reads For(pass).
// Program and Splitter are the driver's side of splitting a run into
// independent programs: the caller hands the driver a Splitter (the
// pyprogram pass's Split), so that the driver knows no pass.
package runstate

import (
	"context"
	"errors"
	"reflect"

	"golang.org/x/tools/go/analysis"

	"github.com/cudaforklint/cudaforklint/config"
	"github.com/cudaforklint/cudaforklint/notebook"
	"github.com/cudaforklint/cudaforklint/syntax"
)

// State is one run's state as its passes see it. The driver fills it in
// before any pass runs and changes nothing after; passes only read it.
type State struct {
	// Files are every file the run checks. The driver runs the passes once
	// per independent program (Splitter) and each pass sees only its
	// program's files: settings that are one program's (the extra
	// initializers) are taken over all of Files, as when the run was one
	// program, so that no finding depends on the split.
	Files []string
	// Scans are what the Splitter learnt of the run's files from their
	// bytes (opaque to the driver), for the pass of each program to take
	// instead of scanning the files again. nil: the pass scans what it
	// reads.
	Scans any
	// ForceFull turns the byte prefilter off: every checked file is parsed
	// and simulated (analyzer.Options.ForceFull).
	ForceFull bool
	// Notebook returns the notebook the run read from path, or nil, so
	// that messages naming cells see the cells the run analyzed (an
	// editor's, perhaps) rather than the file's.
	Notebook func(path string) *notebook.Notebook
	// Trees keeps the parse trees of the files the run parses, checked and
	// imported, between runs (syntax.ParseCached; analyzer.Options.Trees).
	// It is called from the parse's goroutines at once. nil parses every
	// file.
	Trees syntax.TreeCache
	// Ctx is the run's context (analyzer.Run's). go/analysis gives a pass
	// none, so the run's state carries it: once it is done, the passes
	// stop at their next boundary (a file loaded, an entry simulated) and
	// the driver discards what they return. nil: nothing cancels the run.
	Ctx context.Context
}

// Context returns Ctx, or context.Background() when there is none.
func (s *State) Context() context.Context {
	if s.Ctx == nil {
		return context.Background()
	}
	return s.Ctx
}

// Program is one independent program of a run: files no import path joins
// to another program's. The driver runs the passes once per program, as
// go/analysis runs them once per package.
type Program struct {
	// Files are the program's checked files, in the run's order.
	Files []string
	// Reach are the absolute, clean paths of the files the split read to
	// place the program's files: a program's findings depend on them.
	Reach []string
	// Bytes is the size of the source the program's analysis can load:
	// the driver runs small programs side by side and a large one alone.
	Bytes int64
}

// Splitter splits the checked files of a run into independent programs,
// reading them through read, and returns what it learnt of their bytes for
// the passes (State.Scans). Each file is in one program.
type Splitter func(files []string, read func(string) ([]byte, error), pol *config.Policy) (programs []Program, scans any)

// Analyzer hands the run's State to the passes: the driver supplies its
// result, never runs it.
var Analyzer = &analysis.Analyzer{
	Name:       "runstate",
	Doc:        "provide the run's state\n\nThe runstate analyzer's result, a *runstate.State, is supplied by the driver (package analyzer).",
	Run:        func(*analysis.Pass) (any, error) { return nil, errSupplied },
	ResultType: reflect.TypeOf((*State)(nil)),
}

var errSupplied = errors.New("runstate.Analyzer's result is supplied by the driver, not computed")

// For returns the State of a pass that requires Analyzer.
func For(pass *analysis.Pass) *State { return pass.ResultOf[Analyzer].(*State) }
