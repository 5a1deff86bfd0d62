package config

import (
	"errors"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"sync"

	"golang.org/x/tools/go/analysis"

	"github.com/cudaforklint/cudaforklint/finding"
)

// Policy is one run's configuration as the driver and the passes see it:
// the settings of each file (one value per file: targets, selected rules,
// per-file ignores, extra initializers), whether discovery skips a path, and
// the few run-wide options of the engine. It holds settings only: what a
// run is (its files, its caches) is the driver's (analyzer/runstate). It
// memoizes per path and records the configuration errors it meets, for the
// driver to report. Safe for concurrent use.
type Policy struct {
	// ProjectRoots returns the import roots of the files in a directory
	// (Loader.ImportRoots: its project root, the src layout, the configured
	// src): NewPolicy sets it. nil: none.
	ProjectRoots func(dir string) []string
	// Roots are searched for absolute imports after every file's
	// ProjectRoots (the language server's workspace folder; a test's
	// fixture directory). check sets none: its findings do not depend on
	// the working directory.
	Roots []string
	// Workers bounds the parallel parse (0: GOMAXPROCS).
	Workers int

	settings func(path string) (*Settings, error)
	excluded func(path, root string, isDir bool) (bool, error)

	mu     sync.Mutex
	memo   map[string]*Settings
	roots  map[string][]string // dir → ImportRoots
	errs   map[string]finding.ToolError
	failed int // files whose settings could not be loaded
}

// NewPolicy returns the policy of a Loader: the closest configuration file
// of each path decides.
func NewPolicy(l *Loader) *Policy {
	return &Policy{
		ProjectRoots: l.ImportRoots,
		settings:     l.For,
		excluded: func(path, root string, isDir bool) (bool, error) {
			if root != "" {
				return l.ExcludedBelow(root, path, isDir)
			}
			// Named on the command line: checked unless force-exclude is
			// on and the path is excluded.
			s, err := l.For(path)
			if err != nil || !s.ForceExclude {
				return false, err
			}
			return l.Excluded(path, isDir)
		},
	}
}

// NewPolicyFunc returns a policy whose file settings come from settings
// (tests narrow a Loader's settings per fixture with it); nothing is
// excluded.
func NewPolicyFunc(settings func(path string) (*Settings, error)) *Policy {
	return &Policy{settings: settings}
}

// File returns the settings of the file at path, or nil when its
// configuration could not be loaded (the error is recorded; the file is not
// checked).
func (p *Policy) File(path string) *Settings {
	p.mu.Lock()
	defer p.mu.Unlock()
	if s, ok := p.memo[path]; ok {
		return s
	}
	if p.memo == nil {
		p.memo = map[string]*Settings{}
	}
	s, err := p.settings(path)
	if err != nil {
		p.recordLocked(path, err)
		p.failed++
		s = nil
	}
	p.memo[path] = s
	return s
}

// ImportRoots returns the directories searched for absolute imports
// written in the file at path, after its package root and its directory:
// ProjectRoots of its directory, then Roots. They depend on the file's
// directory alone. The slice is shared: callers must not modify it.
func (p *Policy) ImportRoots(path string) []string {
	dir := filepath.Dir(path)
	p.mu.Lock()
	r, ok := p.roots[dir]
	p.mu.Unlock()
	if ok {
		return r
	}
	if p.ProjectRoots != nil {
		r = append(r, p.ProjectRoots(dir)...)
	}
	for _, d := range p.Roots {
		if !slices.Contains(r, d) {
			r = append(r, d)
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.roots == nil {
		p.roots = map[string][]string{}
	}
	p.roots[dir] = r
	return r
}

// Excluded reports whether discovery skips path, met while walking root, a
// directory named on the command line (only what lies below root counts:
// config.Loader.ExcludedBelow); root "" means path itself was named on the
// command line, which is checked unless force-exclude is on and path is
// excluded. A configuration error is recorded and does not exclude: the
// files it governs are found, then counted as not checked by File.
func (p *Policy) Excluded(path, root string, isDir bool) bool {
	if p.excluded == nil {
		return false
	}
	ex, err := p.excluded(path, root, isDir)
	if err != nil {
		p.mu.Lock()
		p.recordLocked(path, err)
		p.mu.Unlock()
		return false
	}
	return ex
}

// recordLocked keeps one error per message: every file under a broken
// pyproject.toml meets the same one.
func (p *Policy) recordLocked(path string, err error) {
	if p.errs == nil {
		p.errs = map[string]finding.ToolError{}
	}
	msg := err.Error()
	if _, ok := p.errs[msg]; ok {
		return
	}
	var ce *Error
	if errors.As(err, &ce) {
		// The message names the configuration file and line already.
		p.errs[msg] = finding.ToolError{Message: msg}
		return
	}
	p.errs[msg] = finding.ToolError{Path: path, Message: msg}
}

// Unconfigured counts the files asked about whose configuration could not
// be loaded: they were not checked.
func (p *Policy) Unconfigured() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.failed
}

// Errors returns the configuration errors met so far, sorted.
func (p *Policy) Errors() []finding.ToolError {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]finding.ToolError, 0, len(p.errs))
	for _, e := range p.errs {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Path != out[j].Path {
			return out[i].Path < out[j].Path
		}
		return out[i].Message < out[j].Message
	})
	return out
}

// Analyzer hands the run's Policy to the passes, in staticcheck's style
// (config.For(pass)): the driver supplies its result, as go/analysis's
// checker supplies Pass.Module, so no pass reads package-level settings.
var Analyzer = &analysis.Analyzer{
	Name:       "config",
	Doc:        "provide the run's configuration\n\nThe config analyzer's result, a *config.Policy, is supplied by the driver (analyzer.Options.Policy).",
	Run:        func(*analysis.Pass) (any, error) { return nil, errSupplied },
	ResultType: reflect.TypeOf((*Policy)(nil)),
}

var errSupplied = errors.New("config.Analyzer's result is supplied by the driver, not computed")

// For returns the Policy of a pass that requires Analyzer.
func For(pass *analysis.Pass) *Policy { return pass.ResultOf[Analyzer].(*Policy) }
