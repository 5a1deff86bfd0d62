package cli

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/schollz/progressbar/v3"

	"github.com/cudaforklint/cudaforklint/analyzer"
	"github.com/cudaforklint/cudaforklint/output"
)

// The progress line: on a terminal, a check that runs for more than
// progressDelay shows on standard error what it has done so far (files
// read, programs analyzed) on one line that a spinner keeps alive, redrawn
// at most every progressRefresh and erased when the analysis ends, before
// anything is printed. It is never drawn when standard error is not a
// terminal (CI logs, pipes), with --quiet, or by the language server
// (which does not pass a Progress to the analyzer).
//
// The drawing is github.com/schollz/progressbar's (its spinner mode, for
// work whose total is not known in advance: the import closure grows as
// the files are read): it knows how to overwrite and erase a line on every
// terminal, Windows consoles included.

// progressDelay is how long a run goes on before the line appears: a
// quick check prints nothing more than its results.
var progressDelay = time.Second

const progressRefresh = 100 * time.Millisecond

// progressLine is a started display; stop erases it.
type progressLine struct {
	counts *analyzer.Progress
	bar    *progressbar.ProgressBar
	quit   chan struct{}
	done   sync.WaitGroup
	once   sync.Once
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}

// startProgress starts the progress line on stderr for the counts the
// analysis keeps, or returns nil (nothing to stop) when stderr is not a
// terminal or quiet is set.
func startProgress(stderr io.Writer, quiet bool, counts *analyzer.Progress) *progressLine {
	if quiet || !isTerminal(stderr) {
		return nil
	}
	p := &progressLine{counts: counts, quit: make(chan struct{})}
	p.done.Add(1)
	go p.run(stderr)
	return p
}

func (p *progressLine) run(w io.Writer) {
	defer p.done.Done()
	select {
	case <-time.After(progressDelay):
	case <-p.quit:
		return
	}
	p.bar = progressbar.NewOptions(-1,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSpinnerType(14),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionThrottle(progressRefresh),
		progressbar.OptionSetElapsedTime(false),
		progressbar.OptionSetDescription(p.describe()),
	)
	p.bar.RenderBlank() // drawn now, not at the first tick
	tick := time.NewTicker(progressRefresh)
	defer tick.Stop()
	for {
		select {
		case <-tick.C:
			p.bar.Describe(p.describe())
		case <-p.quit:
			p.bar.Finish()
			return
		}
	}
}

// describe is the line's text: what the analysis has done so far.
func (p *progressLine) describe() string {
	c := p.counts
	files, read := c.Files.Load(), c.Read.Load()
	if n := c.Programs.Load(); n > 0 {
		return fmt.Sprintf("checking %d %s: %d read, %d of %d %s analyzed",
			files, output.Plural(int(files), "file", "files"), read, c.Analyzed.Load(), n, output.Plural(int(n), "program", "programs"))
	}
	return fmt.Sprintf("checking %d %s: %d read", files, output.Plural(int(files), "file", "files"), read)
}

// stop erases the line (if it was drawn) and returns once it is gone;
// stopping it again does nothing.
func (p *progressLine) stop() {
	if p == nil {
		return
	}
	p.once.Do(func() {
		close(p.quit)
		p.done.Wait()
	})
}
