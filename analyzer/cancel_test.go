package analyzer_test

import (
	"context"
	"errors"
	"path/filepath"
	"sync"
	"testing"

	"github.com/cudaforklint/cudaforklint/analyzer"
	"github.com/cudaforklint/cudaforklint/config"
	"github.com/cudaforklint/cudaforklint/ruledoc"
	"github.com/cudaforklint/cudaforklint/rules"
	"github.com/cudaforklint/cudaforklint/syntax"
)

// parseCounter is a syntax.TreeCache that keeps nothing: it counts the
// files the run parses, and calls onLoad as the first one is asked for.
type parseCounter struct {
	mu     sync.Mutex
	stored int
	once   sync.Once
	onLoad func()
}

func (c *parseCounter) Load([]byte, *syntax.Arenas) (*syntax.File, bool) {
	c.once.Do(c.onLoad)
	return nil, false
}

func (c *parseCounter) Store([]byte, *syntax.File) {
	c.mu.Lock()
	c.stored++
	c.mu.Unlock()
}

// programRecorder is an analyzer.ProgramCache that reuses nothing and
// counts the programs it is given.
type programRecorder struct {
	mu       sync.Mutex
	analyzed int
}

func (r *programRecorder) Reuse([]string) (*analyzer.Part, bool) { return nil, false }

func (r *programRecorder) Analyzed(*analyzer.Part) {
	r.mu.Lock()
	r.analyzed++
	r.mu.Unlock()
}

// TestCancel: a run whose context is cancelled, before it starts or while
// it loads the files of a program (the CFL001 fixtures as one program,
// parsed by one worker), returns context.Canceled and no result, gives the
// program cache nothing, and stops loading: it parses fewer files than the
// run that is not cancelled, which parses them all and finds the hazards.
func TestCancel(t *testing.T) {
	dir, err := filepath.Abs("../testdata/py/cfl001")
	if err != nil {
		t.Fatal(err)
	}
	run := func(ctx context.Context, cancel func()) (*analyzer.Result, *parseCounter, *programRecorder, error) {
		t.Helper()
		l, err := config.NewLoader(ruledoc.All(), config.Overrides{Isolated: true})
		if err != nil {
			t.Fatal(err)
		}
		pol := config.NewPolicy(l)
		pol.Roots = []string{dir}
		pol.Workers = 1
		trees := &parseCounter{onLoad: cancel}
		programs := &programRecorder{}
		// No Split: the fixtures are one program, loaded by one pass.
		res, err := analyzer.Run(ctx, analyzer.Options{Paths: []string{dir}, Analyzers: rules.All(), Policy: pol, WorkDir: dir,
			Trees: trees, Programs: programs, ForceFull: true})
		return res, trees, programs, err
	}

	res, whole, programs, err := run(context.Background(), func() {})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Findings) == 0 || whole.stored < res.Files || programs.analyzed != 1 {
		t.Fatalf("the run not cancelled: %d findings, %d of %d files parsed, %d programs analyzed: want findings, every file, one program",
			len(res.Findings), whole.stored, res.Files, programs.analyzed)
	}

	for _, tc := range []struct {
		name string
		// early cancels before the run; otherwise the first parse cancels.
		early bool
	}{
		{"cancelled before the run", true},
		{"cancelled while loading", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			onLoad := cancel
			if tc.early {
				cancel()
				onLoad = func() {}
			}
			res, parsed, programs, err := run(ctx, onLoad)
			if !errors.Is(err, context.Canceled) || res != nil {
				t.Fatalf("Run returned %v, %v; want no result and context.Canceled", res, err)
			}
			if programs.analyzed != 0 {
				t.Errorf("the program cache was given %d programs of a cancelled run, want none", programs.analyzed)
			}
			if tc.early && parsed.stored != 0 {
				t.Errorf("%d files parsed after the run was cancelled, want none", parsed.stored)
			}
			if parsed.stored*2 > whole.stored {
				t.Errorf("%d of %d files parsed after the first parse cancelled the run: the load went on", parsed.stored, whole.stored)
			}
		})
	}
}
