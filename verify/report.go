package verify

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/cudaforklint/cudaforklint/finding"
)

// Exit codes of `cudaforklint verify`.
const (
	ExitClean     = 0 // no hazard confirmed and the program succeeded
	ExitHazard    = 1 // a hazard (CFL001 or CFL002) was proven at run time
	ExitToolError = 2 // verification itself failed (Run returned an error; the CLI's usage errors)
	ExitNoVerdict = 3 // no hazard confirmed, and the program failed, timed out or was interrupted
)

// Report is what one verification run found.
type Report struct {
	// Findings are the static findings with their Status and Evidence set, then the runtime
	// findings no static finding accounts for (Status "runtime only"). Without a Static hook,
	// every runtime finding is "runtime only".
	Findings []finding.Finding `json:"findings"`
	Command  []string          `json:"command"`
	Shim     string            `json:"shim"`
	RootPID  int               `json:"root_pid"`
	// ExitStatus is the program's exit status (128+N when killed by signal N, named in Signal).
	ExitStatus  int           `json:"exit_status"`
	Signal      string        `json:"signal,omitempty"`
	TimedOut    bool          `json:"timed_out,omitempty"`
	Interrupted bool          `json:"interrupted,omitempty"`
	Duration    time.Duration `json:"duration_ns"`
	// StaticPaths are the scripts given to the static pass; StaticError is its failure, if any
	// (the runtime findings still stand).
	StaticPaths []string `json:"static_paths,omitempty"`
	StaticError string   `json:"static_error,omitempty"`
	// OutputErrors are the lines of the program's output that look like CUDA errors (which
	// process printed them cannot be told).
	OutputErrors []string `json:"output_errors,omitempty"`
	Events       int      `json:"events"`
	BadEvents    int      `json:"bad_events,omitempty"`
	Notes        []string `json:"notes,omitempty"`
	// Tree is the process tree; Summary renders it.
	Tree *Tree `json:"-"`

	runtime []finding.Finding
}

// Runtime returns the findings the run produced on its own, before matching.
func (r *Report) Runtime() []finding.Finding { return r.runtime }

// finish runs the static pass on paths and matches its findings with the runtime ones; base is
// the directory finding paths are relative to.
func (r *Report) finish(static func([]string) ([]finding.Finding, error), paths []string, base string) {
	r.StaticPaths = paths
	var sf []finding.Finding
	if static != nil && len(paths) > 0 {
		var err error
		if sf, err = static(paths); err != nil {
			r.StaticError = err.Error()
			sf = nil
		}
	}
	r.Findings = match(sf, r.runtime, base)
}

// Hazard reports whether the run proved a hazard: a CFL001 or CFL002 finding with runtime
// evidence (confirmed, or runtime only).
func (r *Report) Hazard() bool {
	for _, f := range r.Findings {
		if (f.Code == "CFL001" || f.Code == "CFL002") && (f.Status == StatusConfirmed || f.Status == StatusRuntimeOnly) {
			return true
		}
	}
	return false
}

// ExitCode is the CLI's exit code for this report: 1 when a hazard was proven, else 0 when the
// program exited 0 (not timed out, not interrupted), else 3. (Run's errors are the CLI's 2.)
func (r *Report) ExitCode() int {
	switch {
	case r.Hazard():
		return ExitHazard
	case r.ExitStatus == 0 && !r.TimedOut && !r.Interrupted:
		return ExitClean
	}
	return ExitNoVerdict
}

// Summary is the human-readable account of the run: how the program ended and its process
// tree (processes that matter; shell helpers are counted, long runs of like siblings folded).
func (r *Report) Summary() string {
	var b strings.Builder
	r.WriteSummary(&b)
	return b.String()
}

// WriteSummary writes Summary to w.
func (r *Report) WriteSummary(w io.Writer) {
	fmt.Fprintf(w, "cudaforklint verify: %s\n", shortArgv(r.Command))
	switch {
	case r.TimedOut:
		fmt.Fprintf(w, "  the program timed out after %s; its process group was killed\n", r.Duration.Round(time.Millisecond))
	case r.Interrupted:
		fmt.Fprintf(w, "  the program was interrupted after %s\n", r.Duration.Round(time.Millisecond))
	case r.Signal != "":
		fmt.Fprintf(w, "  the program was killed by %s after %s\n", r.Signal, r.Duration.Round(time.Millisecond))
	default:
		fmt.Fprintf(w, "  the program exited with code %d after %s\n", r.ExitStatus, r.Duration.Round(time.Millisecond))
	}
	for _, n := range r.Notes {
		fmt.Fprintf(w, "  note: %s\n", n)
	}
	if r.StaticError != "" {
		fmt.Fprintf(w, "  static analysis failed: %s\n", r.StaticError)
	}
	if r.Tree != nil && r.Tree.Root != nil {
		fmt.Fprintf(w, "process tree (%d processes seen):\n", len(r.Tree.All))
		hidden := 0
		writeProc(w, r.Tree.Root, "", "", &hidden)
		if hidden > 0 {
			fmt.Fprintf(w, "  (%d helper processes not shown: shells and tools that never touched CUDA)\n", hidden)
		}
	}
	for _, l := range r.OutputErrors {
		fmt.Fprintf(w, "output: %s\n", l)
	}
}

// interesting: Python, CUDA, a fork of an initialized process, a failure, or an interesting
// descendant.
func interesting(p *Process) bool {
	if p.IsPython() || len(p.Calls) > 0 || p.Initializer != nil || (p.Fork != nil && p.Fork.CUDA == 1) {
		return true
	}
	if p.End.Kind == EndSignaled || p.End.Kind == EndRunning {
		return true
	}
	for _, c := range p.Children {
		if interesting(c) {
			return true
		}
	}
	return false
}

func countAll(p *Process) int {
	n := 1
	for _, c := range p.Children {
		n += countAll(c)
	}
	return n
}

func writeProc(w io.Writer, p *Process, first, rest string, hidden *int) {
	fmt.Fprintf(w, "  %s%s\n", first, procLine(p))
	var shown []*Process
	for _, c := range p.Children {
		if interesting(c) {
			shown = append(shown, c)
		} else {
			*hidden += countAll(c)
		}
	}
	for i := 0; i < len(shown); i++ {
		// Fold a run of like leaf siblings (200 workers) into one line.
		j := i
		for j+1 < len(shown) && len(shown[j+1].Children) == 0 && len(shown[i].Children) == 0 && procKind(shown[j+1]) == procKind(shown[i]) {
			j++
		}
		last := j == len(shown)-1
		branch, indent := "├─ ", "│  "
		if last {
			branch, indent = "└─ ", "   "
		}
		if j-i >= 3 {
			writeProc(w, shown[i], rest+branch, rest+indent, hidden)
			fmt.Fprintf(w, "  %s%s… and %d more like it (pids %d to %d)\n", rest, branch, j-i, shown[i+1].PID, shown[j].PID)
			i = j
			continue
		}
		writeProc(w, shown[i], rest+branch, rest+indent, hidden)
	}
}

// procKind is what makes siblings alike: program, how they were forked, what they did.
func procKind(p *Process) string {
	k := shortArgv(p.Image().Argv)
	if p.Fork != nil {
		k += fmt.Sprintf("|%d", p.Fork.CUDA)
	}
	if p.Initializer != nil {
		k += "|" + outcomeClass(outcomeOf(p))
	}
	return k + "|" + endText(p.End)
}

func procLine(p *Process) string {
	var parts []string
	img := p.Image()
	prog := shortArgv(img.Argv)
	if img.Inherited {
		prog = "fork of " + prog
	}
	parts = append(parts, fmt.Sprintf("%d %s", p.PID, prog))
	if n := len(p.Images); n > 1 || (n == 1 && p.Fork != nil && !img.Inherited) {
		var chain []string
		for _, im := range p.Images[:n-1] {
			chain = append(chain, filepath.Base(firstArg(im.Argv)))
		}
		if len(chain) > 0 {
			parts = append(parts, "after exec from "+strings.Join(chain, " → "))
		}
	}
	if p.Fork != nil {
		switch p.Fork.CUDA {
		case 1:
			parts = append(parts, "forked"+atFrame(p.Fork.Site)+" with CUDA initialized in the parent")
		case 0:
			parts = append(parts, "forked (libcuda loaded, not initialized)")
		}
	}
	for _, c := range p.Calls {
		if c.Fn == "cuInit" && c.Returned && c.RC == 0 {
			parts = append(parts, "cuInit ok"+atFrame(c.Stack))
			break
		}
	}
	if p.Initializer != nil {
		o := outcomeOf(p)
		if o.failed != nil {
			parts = append(parts, fmt.Sprintf("%s → %s%s", o.failed.Fn, cuResult(o.failed.RC), atFrame(o.failed.Stack)))
		} else if !o.used && !o.exec {
			parts = append(parts, "no CUDA call")
		}
		if o.stuck != nil {
			parts = append(parts, "stuck in "+o.stuck.Fn)
		}
	}
	if e := endText(p.End); e != "" {
		parts = append(parts, e)
	}
	return strings.Join(parts, "; ")
}

func firstArg(argv []string) string {
	if len(argv) == 0 {
		return "?"
	}
	// Show the script of an interpreter (bash /root/.pyenv/libexec/pyenv) rather than the interpreter.
	if b := filepath.Base(argv[0]); (b == "bash" || b == "sh" || b == "env") && len(argv) > 1 && !strings.HasPrefix(argv[1], "-") {
		return b + " " + filepath.Base(argv[1])
	}
	return argv[0]
}

func endText(e End) string {
	switch e.Kind {
	case EndExited:
		return fmt.Sprintf("exited %d", e.Code)
	case EndSignaled:
		s := "killed by " + signalName(e.Signal)
		if e.Core {
			s += " (core dumped)"
		}
		return s
	case EndRunning:
		return "still running at the end (" + e.Why + ", state " + e.State + ")"
	}
	return ""
}
