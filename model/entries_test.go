package model

import (
	"context"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/cudaforklint/cudaforklint/pytarget"
)

// loadingFiles are a program's files loaded on goroutines of their own,
// in order, as the pyprogram pass loads them, while the analysis runs:
// At builds a module the loaders have not reached yet, or waits for the
// one building it.
type loadingFiles struct {
	prog  *Program
	paths []string
	done  chan struct{}
}

func startLoading(prog *Program, paths []string, workers int) loadingFiles {
	l := loadingFiles{prog, paths, make(chan struct{})}
	next := make(chan string)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range next {
				prog.Module(p)
			}
		}()
	}
	go func() {
		for _, p := range paths {
			next <- p
		}
		close(next)
		wg.Wait()
		close(l.done)
	}()
	return l
}

func (l loadingFiles) Len() int         { return len(l.paths) }
func (l loadingFiles) At(i int) *Module { return builtOrNil(l.prog, l.paths[i]) }

// builtOrNil is the module of path, built now or by the goroutine building
// it, or nil when it does not load: what an Entries' At returns.
func builtOrNil(prog *Program, path string) *Module {
	m, err := prog.Module(path)
	if err != nil {
		return nil
	}
	return m
}
func (l loadingFiles) Wait() { <-l.done }

// analyzeLoaded loads every file of paths, then analyzes the entries.
func analyzeLoaded(files memSource, paths, entries []string) string {
	prog := NewProgram(files, Options{})
	for _, p := range paths {
		prog.Module(p)
	}
	var mods []*Module
	for _, p := range entries {
		if m, err := prog.Module(p); err == nil {
			mods = append(mods, m)
		}
	}
	return describeHazards(prog.Analyze(mods, pytarget.All()))
}

// analyzeAll is AnalyzeLoading on every target, with nothing to cancel it.
func analyzeAll(prog *Program, entries Entries) []*Hazard {
	hz, _ := prog.AnalyzeLoading(context.Background(), entries, pytarget.All())
	return hz
}

// TestAnalyzeWhileLoading: simulating the entries as they load must find
// what simulating them once every checked file is loaded finds, on every
// fixture directory, whether the loaders are ahead of the analysis or
// behind it, and when some checked files are not entries (the prefilter's
// noqa-only files: loaded, seen by the prescan and nameUsed, not run).
// Under the race detector (CI runs this test with -race) it also checks
// that building modules while the analysis evaluates others shares nothing
// unguarded.
func TestAnalyzeWhileLoading(t *testing.T) {
	findings := 0
	dirs := fixtureDirs(t)
	dirs["called elsewhere"] = calledElsewhere
	for d, files := range dirs {
		var paths []string
		for p := range files {
			paths = append(paths, p)
		}
		sort.Strings(paths)
		for _, entries := range [][]string{paths, everyOther(paths)} {
			want := analyzeLoaded(files, paths, entries)
			for _, workers := range []int{1, 4} {
				prog := NewProgram(files, Options{})
				l := startLoading(prog, paths, workers)
				got := describeHazards(analyzeAll(prog, entriesOf(l, entries)))
				if got != want {
					t.Errorf("%s, %d of %d files entries, %d loaders: while loading\n%s\nloaded first\n%s", d, len(entries), len(paths), workers, got, want)
				}
			}
			// The slowest loader: the files that are not entries load
			// only once the analysis waits for them.
			prog := NewProgram(files, Options{})
			if got := describeHazards(analyzeAll(prog, lastLoaded{prog, paths, entries})); got != want {
				t.Errorf("%s, %d of %d files entries, the rest loaded on Wait:\n%s\nloaded first\n%s", d, len(entries), len(paths), got, want)
			}
			if len(entries) == len(paths) {
				// No loader: the analysis builds every module itself.
				prog := NewProgram(files, Options{})
				alone := loadingFiles{prog, paths, make(chan struct{})}
				close(alone.done)
				if got := describeHazards(analyzeAll(prog, alone)); got != want {
					t.Errorf("%s, built by the analysis:\n%s\nloaded first\n%s", d, got, want)
				}
				findings += strings.Count("\n"+want, "\nkind ")
			}
		}
	}
	if findings < 50 {
		t.Errorf("the fixtures gave only %d findings", findings)
	}
}

// everyOther is every other path, from the first.
func everyOther(paths []string) []string {
	var out []string
	for i := 0; i < len(paths); i += 2 {
		out = append(out, paths[i])
	}
	return out
}

// entriesOf are entries among the files l loads: Wait waits for all of them.
func entriesOf(l loadingFiles, entries []string) loadingFiles {
	return loadingFiles{l.prog, entries, l.done}
}

// lastLoaded loads the entries when the analysis asks for them and the
// other files only when it waits.
type lastLoaded struct {
	prog           *Program
	paths, entries []string
}

func (l lastLoaded) Len() int         { return len(l.entries) }
func (l lastLoaded) At(i int) *Module { return builtOrNil(l.prog, l.entries[i]) }
func (l lastLoaded) Wait() {
	for _, p := range l.paths {
		l.prog.Module(p)
	}
}

// calledElsewhere is a program whose entry defines a function that only
// another checked file calls: it is no entry point of its own, which the
// analysis can tell only once that file is loaded. With the files sorted,
// the entries are every other one: a.py, c.py.
var calledElsewhere = memSource{
	"/p/a.py": `import multiprocessing as mp
import torch

def work():
    torch.cuda.init()
    mp.get_context("fork").Process(target=print).start()
`,
	"/p/b.py": `import a

if __name__ == "__main__":
    a.work()
`,
	"/p/c.py": "x = 1\n",
}
