package verify

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/cudaforklint/cudaforklint/finding"
	"github.com/cudaforklint/cudaforklint/output"
	"github.com/cudaforklint/cudaforklint/ruledoc"
)

// Exit codes of `cudaforklint verify`.
const (
	ExitClean     = 0 // no hazard confirmed, the wrapper saw every process to its end, and they all succeeded
	ExitHazard    = 1 // a hazard (CFL001, CFL002 or CFL005) was proven at run time
	ExitToolError = 2 // not verified: Run returned an error, CUDA could not be observed (CUDAUnobserved), the wrapper missed a part of the run (BlindSpots), or the run ended a process the root left running (Unfinished)
	ExitNoVerdict = 3 // no hazard confirmed, and the program or one of its children failed, timed out or was interrupted
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
	// OutputExceptions are the verdict lines of Python tracebacks the program printed
	// ("RuntimeError: context has already been set"): why its children failed, most likely.
	OutputExceptions []string `json:"output_exceptions,omitempty"`
	// CUDAUnobserved says why CUDA could not be observed on this run at all (no driver library,
	// no device: cuInit failed); "" when it could. With it, the run cannot pass: every static
	// finding is "not observed" for want of a driver, not because the run went another way.
	CUDAUnobserved string `json:"cuda_unobserved,omitempty"`
	// BlindSpots are the parts of the run the wrapper did not see; with any, the run cannot pass.
	BlindSpots []BlindSpot `json:"blind_spots,omitempty"`
	// FailedChildren are the children running the program's code (forks, multiprocessing's
	// spawn and forkserver children) that exited non-zero or died of a signal no process of the
	// program sent: the program failed even when its root exited 0.
	FailedChildren []ChildFailure `json:"failed_children,omitempty"`
	// Escaped are the processes of the log that left the process group (setsid) and were still
	// running when the run ended; Run ended them too.
	Escaped []int `json:"escaped,omitempty"`
	// Unfinished are the processes the run ended before they finished (Escaped ones included):
	// at a timeout or an interrupt, or still running after the root exited. Their end was not
	// seen; one the root left running keeps the run from passing.
	Unfinished []Unfinished `json:"unfinished,omitempty"`
	Events     int          `json:"events"`
	BadEvents  int          `json:"bad_events,omitempty"`
	Notes      []string     `json:"notes,omitempty"`
	// Tree is the process tree; Summary renders it.
	Tree *Tree `json:"-"`

	runtime   []finding.Finding // what the run found on its own, before matching
	bootstrap bool              // the program printed multiprocessing's bootstrapping-phase error
}

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
	judgeReimports(r.Findings, r.Tree, r.bootstrap, base)
	if r.CUDAUnobserved != "" {
		for i := range r.Findings {
			if r.Findings[i].Status == StatusNotObserved {
				r.Findings[i].Evidence = append(r.Findings[i].Evidence, "CUDA could not be observed on this run: "+r.CUDAUnobserved)
			}
		}
	}
}

// Hazard reports whether the run proved a hazard: a CFL001, CFL002 or CFL005 finding with
// runtime evidence (confirmed, or runtime only).
func (r *Report) Hazard() bool {
	for _, f := range r.Findings {
		if f.Status != StatusConfirmed && f.Status != StatusRuntimeOnly {
			continue
		}
		switch f.Code {
		case ruledoc.CFL001.Code, ruledoc.CFL002.Code, ruledoc.CFL005.Code:
			return true
		}
	}
	return false
}

// Failed reports whether the program failed: its root exited non-zero or was killed, a child
// running its code failed, or the run timed out or was interrupted.
func (r *Report) Failed() bool {
	return r.ExitStatus != 0 || r.TimedOut || r.Interrupted || len(r.FailedChildren) > 0
}

// leftRunning are the unfinished processes the run ended after the root exited.
func (r *Report) leftRunning() []Unfinished {
	var out []Unfinished
	for _, u := range r.Unfinished {
		if u.leftRunning() {
			out = append(out, u)
		}
	}
	return out
}

// ExitCode is the CLI's exit code for this report: 1 when a hazard was proven; else 2 when CUDA
// could not be observed at all, or the wrapper did not see the whole run, or the run ended a
// process the root left running before it finished (a success it did not see is no success);
// else 3 when the program failed (Failed); else 0. (Run's errors are the CLI's 2 too.)
func (r *Report) ExitCode() int {
	switch {
	case r.Hazard():
		return ExitHazard
	case r.CUDAUnobserved != "" || len(r.BlindSpots) > 0 || len(r.leftRunning()) > 0:
		return ExitToolError
	case r.Failed():
		return ExitNoVerdict
	}
	return ExitClean
}

// Verdict says in one line what ExitCode means for this run.
func (r *Report) Verdict() string {
	switch r.ExitCode() {
	case ExitHazard:
		return "a CUDA fork hazard was proven (exit 1)"
	case ExitToolError:
		if r.CUDAUnobserved != "" {
			return "CUDA could not be observed: " + r.CUDAUnobserved + "; nothing about CUDA and fork was verified (exit 2)"
		}
		if len(r.BlindSpots) > 0 {
			return fmt.Sprintf("not verified: the wrapper did not see %d %s of the run (exit 2)", len(r.BlindSpots), output.Plural(len(r.BlindSpots), "part", "parts"))
		}
		left := r.leftRunning()
		return fmt.Sprintf("not verified: %d %s still running after the program's root exited, and verify ended %s finished: %s (exit 2)",
			len(left), output.Plural(len(left), "process was", "processes were"), output.Plural(len(left), "it before it", "them before they"), listUnfinished(left))
	case ExitNoVerdict:
		switch {
		case r.TimedOut:
			return "no hazard proven, but the program timed out" + stillRunning(r.Unfinished) + " (exit 3)"
		case r.Interrupted:
			return "no hazard proven, but the program was interrupted" + stillRunning(r.Unfinished) + " (exit 3)"
		case r.ExitStatus != 0:
			return "no hazard proven, but the program failed (exit 3)"
		}
		return fmt.Sprintf("no hazard proven, but %d %s of the program failed (exit 3)", len(r.FailedChildren), output.Plural(len(r.FailedChildren), "child", "children"))
	}
	return "no hazard, and every process of the program succeeded (exit 0)"
}

// Problems are the reasons, one a line, why a run that proved no hazard did not pass: the parts
// the wrapper did not see and the children that failed (the CLI reports them as notices).
func (r *Report) Problems() []string {
	var out []string
	if r.CUDAUnobserved != "" {
		out = append(out, "CUDA could not be observed: "+r.CUDAUnobserved)
	}
	for _, b := range r.BlindSpots {
		out = append(out, "not verified: "+b.Why)
	}
	const show = 5
	for i, c := range r.FailedChildren {
		if i == show {
			out = append(out, fmt.Sprintf("and %d more children failed", len(r.FailedChildren)-show))
			break
		}
		out = append(out, "the program failed: "+c.String())
	}
	if len(r.FailedChildren) > 0 {
		for i, l := range r.OutputExceptions {
			if i == 3 {
				break
			}
			out = append(out, "the program printed: "+l)
		}
	}
	for _, u := range r.Unfinished {
		out = append(out, "not seen to its end: "+unfinishedLine(u))
	}
	return out
}

// unfinishedLine says what happened to an unfinished process, in one line.
func unfinishedLine(u Unfinished) string {
	when := "when the program " + map[string]string{"timeout": "timed out", "interrupt": "was interrupted"}[u.Why]
	if u.leftRunning() {
		when = "after the program's root exited"
	}
	if u.Escaped {
		return fmt.Sprintf("process %d left the process group (setsid) and was still running %s; verify killed it (%s)", u.PID, when, u.detail())
	}
	return fmt.Sprintf("%s was still running %s; verify killed it", u, when)
}

// listUnfinished names the first unfinished process, and counts the others.
func listUnfinished(us []Unfinished) string {
	if len(us) == 0 {
		return ""
	}
	s := us[0].String()
	if len(us) > 1 {
		s += fmt.Sprintf(" (and %d more)", len(us)-1)
	}
	return s
}

// stillRunning is the verdict's account of the processes a timeout or an interrupt cut short.
func stillRunning(us []Unfinished) string {
	if len(us) == 0 {
		return ""
	}
	return fmt.Sprintf("; %d %s still running then, and not seen to the end: %s", len(us), output.Plural(len(us), "process was", "processes were"), listUnfinished(us))
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
	if r.CUDAUnobserved != "" {
		fmt.Fprintf(w, "  CUDA could not be observed: %s\n", r.CUDAUnobserved)
	}
	for _, n := range r.Notes {
		fmt.Fprintf(w, "  note: %s\n", n)
	}
	for _, b := range r.BlindSpots {
		fmt.Fprintf(w, "  not seen: %s\n", b.Why)
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
	if n := len(r.FailedChildren); n > 0 {
		fmt.Fprintf(w, "%d %s of the program failed:\n", n, output.Plural(n, "child", "children"))
		for i, c := range r.FailedChildren {
			if i == 10 {
				fmt.Fprintf(w, "  … and %d more\n", n-i)
				break
			}
			fmt.Fprintf(w, "  %s\n", c)
		}
		for _, l := range r.OutputExceptions {
			fmt.Fprintf(w, "output: %s\n", l)
		}
	}
	for _, u := range r.Unfinished {
		fmt.Fprintf(w, "unfinished: %s\n", unfinishedLine(u))
	}
	fmt.Fprintf(w, "verdict: %s\n", r.Verdict())
}

// interesting: Python, CUDA, a fork of an initialized process, a failure, or an interesting
// descendant.
func interesting(p *Process) bool {
	if p.IsPython() || len(p.Calls) > 0 || p.Initializer != nil || (p.Fork != nil && p.Fork.CUDA == 1) || p.Unseen || p.Lost != nil {
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
		// Fold a run of like leaf siblings (200 workers) into two lines: the first, and a count.
		j := i
		for j+1 < len(shown) && len(shown[j+1].Children) == 0 && len(shown[i].Children) == 0 && procKind(shown[j+1]) == procKind(shown[i]) {
			j++
		}
		if j-i < 3 {
			j = i // too few to fold: each is drawn
		}
		// The branch of a sibling says whether more follow it; the last one closes the list.
		lastOf := func(k int) (string, string) {
			if k == len(shown)-1 {
				return "└─ ", "   "
			}
			return "├─ ", "│  "
		}
		if j > i {
			// The folded line follows the first, so the first is never the last.
			writeProc(w, shown[i], rest+"├─ ", rest+"│  ", hidden)
			branch, _ := lastOf(j)
			fmt.Fprintf(w, "  %s%s… and %d more like it (pids %d to %d)\n", rest, branch, j-i, shown[i+1].PID, shown[j].PID)
			i = j
			continue
		}
		branch, indent := lastOf(i)
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
	switch {
	case p.Unseen:
		prog = "(never loaded the wrapper: not seen)"
	case len(p.Images) == 0 && p.Lost != nil:
		prog = shortArgv(p.Lost.Argv) + " (never loaded the wrapper: not seen)"
	case img.Inherited:
		prog = "fork of " + prog
	}
	parts = append(parts, fmt.Sprintf("%d %s", p.PID, prog))
	if p.Lost != nil && len(p.Images) > 0 {
		lost := "then exec'd " + shortArgv(p.Lost.Argv)
		if !p.Lost.Keeps {
			lost += " with the wrapper dropped from its environment: not seen"
		} else {
			lost += ", which never loaded the wrapper: not seen"
		}
		parts = append(parts, lost)
	}
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
	} else if p.End.Kind == EndUnknown {
		parts = append(parts, "end not seen") // a blind spot says why
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
