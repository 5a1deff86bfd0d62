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
	"errors"
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"sort"
	"sync"

	"golang.org/x/tools/go/analysis"

	"github.com/cudaforklint/cudaforklint/finding"
	"github.com/cudaforklint/cudaforklint/model"
	"github.com/cudaforklint/cudaforklint/syntax"
	"github.com/cudaforklint/cudaforklint/target"
)

// Analyzer loads the program.
var Analyzer = &analysis.Analyzer{
	Name:       "pyprogram",
	Doc:        "load Python files into the cudaforklint model\n\nThe pyprogram analyzer parses the files in Pass.OtherFiles (and the local modules they import) and returns a *pyprogram.Result.",
	Run:        run,
	ResultType: reflect.TypeOf((*Result)(nil)),
}

// Settings configure the pass for one run. go/analysis analyzers are
// configured through package-level state (vet's -printf.funcs flag); these
// settings are richer than a flag (a per-file function), so the driver sets
// them with Configure while it holds its run lock.
type Settings struct {
	// TargetsFor returns the Python versions and platforms to analyze a file
	// for (config files can differ per directory). Nil means target.Default.
	TargetsFor func(path string) target.Set
	// ExtraInitializers are dotted names of project functions that
	// initialize CUDA.
	ExtraInitializers []string
	// Roots are searched for absolute imports of local modules.
	Roots []string
	// Workers bounds the parallel parse (0: GOMAXPROCS).
	Workers int
	// IsFile reports whether a path is a readable regular file (for import
	// resolution). Nil means the answer os.Stat would give, read from one
	// cached listing per directory.
	IsFile func(path string) bool
	// Relevant, when set, tells which checked files can matter at all; the
	// others are not parsed. Nil means the byte prefilter (prefilter.go)
	// decides.
	Relevant func(path string) bool
	// ForceFull turns the prefilter off: every checked file is parsed and
	// simulated (CUDAFORKLINT_FORCE_FULL=1; the benchmark's worst case).
	ForceFull bool
}

var (
	settingsMu sync.Mutex
	settings   Settings
)

// Configure sets the settings for the next runs.
func Configure(s Settings) {
	settingsMu.Lock()
	settings = s
	settingsMu.Unlock()
}

func current() Settings {
	settingsMu.Lock()
	defer settingsMu.Unlock()
	return settings
}

// Result is the loaded program.
type Result struct {
	Prog *model.Program
	// Entries are the checked modules that parsed, grouped by target set.
	Entries map[target.Set][]*model.Module
	// Errors are files that could not be checked at all; Notices are
	// regions of checked files that could not be parsed (analyzed around).
	Errors  []finding.ToolError
	Notices []finding.Notice
	// Skipped counts checked files the prefilter proved irrelevant.
	Skipped int
	// NoqaOnly are checked files the prefilter proved irrelevant that were
	// parsed all the same, for the driver's noqa checks and syntax-error
	// notices (they mention noqa or CUDA); they are not simulated.
	NoqaOnly []*model.Module

	fset  *token.FileSet
	mu    sync.Mutex
	files map[string]*token.File
}

// Checked returns the checked modules that parsed, sorted by path.
func (r *Result) Checked() []*model.Module {
	var out []*model.Module
	for _, ms := range r.Entries {
		out = append(out, ms...)
	}
	out = append(out, r.NoqaOnly...)
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// File returns (registering it once) the token.File of a module.
func (r *Result) File(m *model.Module) *token.File {
	r.mu.Lock()
	defer r.mu.Unlock()
	if tf, ok := r.files[m.Path]; ok {
		return tf
	}
	tf := r.fset.AddFile(m.Path, -1, len(m.Src))
	tf.SetLinesForContent(m.Src)
	r.files[m.Path] = tf
	return tf
}

// source adapts Pass.ReadFile to model.Source.
type source struct {
	read   func(string) ([]byte, error)
	isFile func(string) bool
}

func (s source) Parse(path string) (*syntax.File, []byte, error) {
	src, err := s.read(path)
	if err != nil {
		return nil, nil, err
	}
	f, err := syntax.Parse(src)
	if err != nil {
		return nil, nil, err
	}
	return f, src, nil
}

func (s source) IsFile(path string) bool { return s.isFile(path) }

func statIsFile(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular()
}

func run(pass *analysis.Pass) (any, error) {
	set := current()
	isFile := set.IsFile
	if isFile == nil {
		isFile = newDirCache().IsFile
	}
	prog := model.NewProgram(source{read: pass.ReadFile, isFile: isFile},
		model.Options{Roots: set.Roots, ExtraInitializers: set.ExtraInitializers})
	res := &Result{Prog: prog, Entries: map[target.Set][]*model.Module{}, fset: pass.Fset, files: map[string]*token.File{}}

	files := pass.OtherFiles
	noqaOnly := map[string]bool{}
	switch {
	case set.ForceFull:
	case set.Relevant != nil:
		files = nil
		for _, f := range pass.OtherFiles {
			if set.Relevant(f) {
				files = append(files, f)
			}
		}
	default:
		d := runPrefilter(pass.OtherFiles, pass.ReadFile, isFile, set.Roots, set.ExtraInitializers, set.Workers)
		files = nil
		for _, f := range pass.OtherFiles {
			c := filepath.Clean(f)
			switch {
			case d.simulate[c]:
				files = append(files, f)
			case d.noqa[c]:
				files = append(files, f)
				noqaOnly[f] = true
			}
		}
	}
	res.Skipped = len(pass.OtherFiles) - len(files) + len(noqaOnly)
	mods := make([]*model.Module, len(files))
	errs := make([]error, len(files))
	workers := set.Workers
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
				mods[i], errs[i] = prog.Module(files[i])
			}
		}()
	}
	for i := range files {
		next <- i
	}
	close(next)
	wg.Wait()

	for i, f := range files {
		if errs[i] != nil {
			res.Errors = append(res.Errors, toolError(f, errs[i]))
			continue
		}
		m := mods[i]
		for _, sp := range m.File.Errors {
			tf := res.File(m)
			pos := tf.Position(tf.Pos(sp.Start))
			res.Notices = append(res.Notices, finding.Notice{Path: f, Line: pos.Line,
				Message: fmt.Sprintf("could not parse the code at line %d, column %d; analyzed the rest of the file", pos.Line, pos.Column)})
		}
		if noqaOnly[f] {
			res.NoqaOnly = append(res.NoqaOnly, m)
			continue
		}
		ts := target.Default()
		if set.TargetsFor != nil {
			ts = set.TargetsFor(f)
		}
		res.Entries[ts] = append(res.Entries[ts], m)
	}
	sort.Slice(res.Errors, func(i, j int) bool { return res.Errors[i].Path < res.Errors[j].Path })
	return res, nil
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
