package analyzer

import (
	"path/filepath"
	"sort"
	"sync"

	"github.com/cudaforklint/cudaforklint/analyzer/runstate"
	"github.com/cudaforklint/cudaforklint/finding"
)

// ProgramCache lets a run skip the programs (Options.Split) whose
// findings an earlier run stored and whose inputs have not changed since:
// after an edit, only the program holding the edited file is analyzed
// again. Package cache implements it for check's results cache.
//
// A program's findings are a function of its own files: the model never
// loads a module of another program (Options.Split), the run-wide
// settings come from the configuration, and every file its analysis reads
// is in Part.Read. So a stored part is right wherever the run's settings,
// its configuration, the modules imports can find and the files in Read
// are what they were; checking that is the implementation's job.
type ProgramCache interface {
	// Reuse returns what an earlier run found in the program whose
	// checked files are files (in the order the split lists them), or
	// ok=false. It is called before any program is analyzed, from one
	// goroutine.
	Reuse(files []string) (p *Part, ok bool)
	// Analyzed is given each program the run analyzed, as it finishes,
	// from several goroutines at once. The run goes on to rewrite the
	// paths and locations of p's findings: keep a copy, not p.
	Analyzed(p *Part)
}

// Part is what a run found in one program, before the steps that make it
// a share of the Result (canonical paths, dedupe, notebook cells,
// paths relative to the working directory).
type Part struct {
	// Files are the program's checked files, as the split lists them.
	Files []string
	// Read are the absolute, clean paths of the files its findings depend
	// on, sorted: its reach as the split read it, and every file its passes
	// and their findings read.
	Read         []string
	Findings     []finding.Finding
	Errors       []finding.ToolError
	Notices      []finding.Notice
	SyntaxErrors []finding.SyntaxError
	Skipped      int
}

// part returns the program's Part of what its passes found, read the files
// it depends on (readRecorder.list).
func (res *Result) part(p runstate.Program, read []string) *Part {
	return &Part{
		Files: p.Files, Read: read,
		Findings: res.Findings, Errors: res.Errors, Notices: res.Notices, SyntaxErrors: res.SyntaxErrors,
		Skipped: res.Skipped,
	}
}

// reused returns the share of a Result a reused part makes, and has the
// reader list the files the part read among those the run read
// (Result.FilesRead). The split has read most of them already (its reach);
// the others are not read again.
func (rd *reader) reused(p *Part) Result {
	rd.mu.Lock()
	for _, path := range p.Read {
		if _, ok := rd.cache[path]; !ok {
			rd.named[path] = true
		}
	}
	rd.mu.Unlock()
	return Result{Findings: p.Findings, Errors: p.Errors, Notices: p.Notices, SyntaxErrors: p.SyntaxErrors, Skipped: p.Skipped}
}

// readRecorder reads through read and records the paths it read, after
// those it starts with.
type readRecorder struct {
	read  func(string) ([]byte, error)
	mu    sync.Mutex
	paths map[string]bool
}

func newReadRecorder(read func(string) ([]byte, error), already []string) *readRecorder {
	r := &readRecorder{read: read, paths: make(map[string]bool, len(already))}
	for _, p := range already {
		r.paths[p] = true
	}
	return r
}

func (r *readRecorder) ReadFile(path string) ([]byte, error) {
	b, err := r.read(path)
	if err == nil {
		r.mu.Lock()
		r.paths[filepath.Clean(path)] = true
		r.mu.Unlock()
	}
	return b, err
}

// list returns the paths read, sorted.
func (r *readRecorder) list() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]string, 0, len(r.paths))
	for p := range r.paths {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}
