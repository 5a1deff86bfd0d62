package verify

import (
	"bytes"
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/cudaforklint/cudaforklint/finding"
	"github.com/cudaforklint/cudaforklint/output"
	"github.com/cudaforklint/cudaforklint/ruledoc"
)

// cuResultNames names the driver's results that show up around fork.
var cuResultNames = map[int]string{
	0: "CUDA_SUCCESS", 1: "CUDA_ERROR_INVALID_VALUE", 2: "CUDA_ERROR_OUT_OF_MEMORY", 3: "CUDA_ERROR_NOT_INITIALIZED",
	4: "CUDA_ERROR_DEINITIALIZED", 34: "CUDA_ERROR_STUB_LIBRARY", 46: "CUDA_ERROR_DEVICES_UNAVAILABLE", 100: "CUDA_ERROR_NO_DEVICE",
	101: "CUDA_ERROR_INVALID_DEVICE", 201: "CUDA_ERROR_INVALID_CONTEXT", 304: "CUDA_ERROR_OPERATING_SYSTEM",
	500: "CUDA_ERROR_NOT_FOUND", 803: "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH", 804: "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE",
	999: "CUDA_ERROR_UNKNOWN",
}

func cuResult(rc int) string {
	if n, ok := cuResultNames[rc]; ok {
		return fmt.Sprintf("%s (%d)", n, rc)
	}
	return fmt.Sprintf("CUresult %d", rc)
}

// stdlibRe matches the frames of Python's own library.
var stdlibRe = regexp.MustCompile(`/lib/python\d+(\.\d+)?t?/|^<frozen `)

// isLibraryFrame: site-packages, the standard library, and code with no file to point at
// (<string> of python -c, <frozen ...>, <stdin>).
func isLibraryFrame(f Frame) bool {
	return strings.Contains(f.File, "/site-packages/") || strings.Contains(f.File, "/dist-packages/") ||
		stdlibRe.MatchString(f.File) || f.File == "?" || f.File == "" || strings.HasPrefix(f.File, "<")
}

// userFrame is the innermost frame outside site-packages and the standard library: the user's
// line behind a library's cuInit (jax's sits many frames deep).
func userFrame(stack []Frame) (Frame, bool) {
	for _, f := range stack {
		if !isLibraryFrame(f) {
			return f, true
		}
	}
	return Frame{}, false
}

// childOutcome is what one forked child did with the CUDA state it inherited.
type childOutcome struct {
	p        *Process
	calls    []*Call // in its forked image
	failed   *Call   // its first call that returned an error
	stuck    *Call   // a call it entered and never returned from
	used     bool    // it called the driver
	bad      bool    // it failed, died or hung
	exec     bool    // it exec'd a new program without touching CUDA first (the subprocess pattern)
	describe string
}

func outcomeOf(c *Process) childOutcome {
	o := childOutcome{p: c}
	for _, call := range c.Calls {
		if call.Image != 0 {
			continue
		}
		o.calls = append(o.calls, call)
		if call.Returned && call.RC != 0 && o.failed == nil {
			o.failed = call
		}
	}
	o.stuck = c.unreturned(0)
	o.used = len(o.calls) > 0
	if len(c.Images) > 1 && !o.used {
		o.exec = true
		o.describe = "exec'd " + shortArgv(c.Images[1].Argv) + " (a fresh driver)"
		return o
	}
	var parts []string
	if o.failed != nil {
		parts = append(parts, fmt.Sprintf("%s returned %s%s", o.failed.Fn, cuResult(o.failed.RC), atFrame(o.failed.Stack)))
	} else if o.used && o.stuck == nil {
		first := o.calls[0]
		parts = append(parts, fmt.Sprintf("%s returned %s%s", first.Fn, cuResult(first.RC), atFrame(first.Stack)))
	}
	if !o.used {
		parts = append(parts, "never called CUDA")
	}
	end := c.End
	switch end.Kind {
	case EndExited:
		parts = append(parts, fmt.Sprintf("exited with code %d", end.Code))
		o.bad = end.Code != 0
	case EndSignaled:
		s := "killed by " + signalName(end.Signal)
		if end.Core {
			s += " (core dumped)"
		}
		parts = append(parts, s)
		o.bad = true
	case EndRunning:
		s := "hung: still running when the run ended (" + end.Why + ")"
		if o.stuck != nil {
			s = fmt.Sprintf("hung inside %s%s: still running when the run ended (%s)", o.stuck.Fn, atFrame(o.stuck.Stack), end.Why)
		}
		parts = append(parts, s)
		o.bad = true
	default:
		if o.stuck != nil {
			parts = append(parts, fmt.Sprintf("entered %s%s and never returned", o.stuck.Fn, atFrame(o.stuck.Stack)))
			o.bad = true
		} else {
			parts = append(parts, "its end was not seen")
		}
	}
	if o.failed != nil {
		o.bad = true
	}
	o.describe = strings.Join(parts, "; ")
	return o
}

func atFrame(stack []Frame) string {
	if f, ok := userFrame(stack); ok {
		return " at " + filepath.Base(f.File) + fmt.Sprintf(":%d", f.Line)
	}
	return ""
}

// group is one process whose initialized CUDA state children inherited, with those children.
type group struct {
	init     *Process
	children []*Process
}

// classify turns the tree into runtime findings: one per process that forked children while its
// CUDA was initialized. cwd is the directory finding paths are made relative to.
func classify(t *Tree, outputErrs []string, cwd string) []finding.Finding {
	var groups []*group
	byInit := map[*Process]*group{}
	for _, p := range t.All {
		if p.Initializer == nil {
			continue
		}
		g := byInit[p.Initializer]
		if g == nil {
			g = &group{init: p.Initializer}
			byInit[p.Initializer] = g
			groups = append(groups, g)
		}
		g.children = append(g.children, p)
	}
	var out []finding.Finding
	for _, g := range groups {
		if f, ok := g.finding(outputErrs, cwd); ok {
			out = append(out, f)
		}
	}
	return out
}

func (g *group) finding(outputErrs []string, cwd string) (finding.Finding, bool) {
	var outs []childOutcome
	var used, failedQuiet, execed int
	for _, c := range g.children {
		o := outcomeOf(c)
		if o.exec {
			execed++
			continue
		}
		outs = append(outs, o)
		if o.used {
			used++
		} else if o.bad {
			failedQuiet++
		}
	}
	if len(outs) == 0 {
		return finding.Finding{}, false // every child exec'd at once: the subprocess pattern, safe
	}
	var cudaErrors, signatures, jaxWarnings, loaderRaised []string
	for _, l := range outputErrs {
		switch {
		case jaxForkWarningRe.MatchString(l):
			jaxWarnings = append(jaxWarnings, l)
		case loaderWorkerRaisedRe.MatchString(l):
			loaderRaised = append(loaderRaised, l)
		default:
			cudaErrors = append(cudaErrors, l)
		}
		if forkSignatureRe.MatchString(l) {
			signatures = append(signatures, l)
		}
	}
	init := g.init
	forkserver := init.IsForkserver()
	doc := ruledoc.CFL003
	var why string
	switch {
	case forkserver:
		doc = ruledoc.CFL002
	case used > 0:
		doc = ruledoc.CFL001
	case failedQuiet > 0 && len(cudaErrors) > 0:
		doc, why = ruledoc.CFL001, "a child failed without a driver call the wrapper could see, and the program printed CUDA errors"
	case len(signatures) > 0:
		doc, why = ruledoc.CFL001, "no child called the driver, but the program printed the error of a library's fork guard"
	case failedQuiet > 0 && len(jaxWarnings) > 0:
		doc, why = ruledoc.CFL001, "a child hung or died before any driver call, after JAX warned that forking its multithreaded runtime deadlocks"
	case len(loaderRaised) > 0:
		doc, why = ruledoc.CFL001, "a DataLoader worker raised RuntimeError, as torch's fork guard does in a worker before any driver call"
	}

	initCall := initializingCall(init, g.children)
	f := finding.Finding{Code: doc.Code, Name: doc.Name, Severity: doc.Severity, URL: doc.URL()}
	loc, where := g.location(initCall, cwd)
	f.Location = loc

	name := fmt.Sprintf("process %d (%s)", init.PID, shortArgv(init.Image().Argv))
	if forkserver {
		name = fmt.Sprintf("the forkserver (process %d)", init.PID)
	}
	n := len(outs)
	first := firstBad(outs)
	switch doc {
	case ruledoc.CFL001:
		msg := fmt.Sprintf("%s initialized CUDA%s and then forked %d %s that used it", name, where, n, output.Plural(n, "child", "children"))
		if first != nil {
			msg += fmt.Sprintf(": child %d %s", first.p.PID, first.describe)
		}
		if why != "" {
			msg += " (" + why + ")"
		}
		f.Message = msg
	case ruledoc.CFL002:
		msg := fmt.Sprintf("%s initialized CUDA%s, so every child it forks inherits that state; it forked %d %s",
			name, where, n, output.Plural(n, "child", "children"))
		if first != nil {
			msg += fmt.Sprintf(": child %d %s", first.p.PID, first.describe)
		} else if used == 0 {
			msg += ", none of which touched CUDA on this run"
		}
		f.Message = msg
	default:
		f.Message = fmt.Sprintf("%s initialized CUDA%s before it forked %d %s; ", name, where, n, output.Plural(n, "child", "children"))
		if failedQuiet > 0 {
			// A hang or a crash alone proves nothing: workers of a program that outruns
			// --timeout are "hung" too. The evidence says how each child ended.
			f.Message += fmt.Sprintf("none made a CUDA call the wrapper could see, but %d failed or hung, which this run cannot tie to CUDA", failedQuiet)
		} else {
			f.Message += "none of them touched CUDA on this run"
		}
	}

	// Related, in execution order: the fork site in the parent, then the children's failing calls.
	if site, parent := forkSite(outs); site != nil {
		if fr, ok := userFrame(site); ok {
			f.Related = append(f.Related, finding.Related{Location: locate(fr, cwd),
				Message: fmt.Sprintf("process %d forked here while its CUDA was initialized", parent)})
		}
	}
	shown := 0
	for _, o := range outs {
		c := o.failed
		if c == nil {
			c = o.stuck
		}
		if c == nil || shown == 3 {
			continue
		}
		if fr, ok := userFrame(c.Stack); ok {
			msg := fmt.Sprintf("child %d: %s returned %s here", o.p.PID, c.Fn, cuResult(c.RC))
			if !c.Returned {
				msg = fmt.Sprintf("child %d: %s never returned here", o.p.PID, c.Fn)
			}
			f.Related = append(f.Related, finding.Related{Location: locate(fr, cwd), Message: msg})
			shown++
		}
	}

	// Evidence, one line each.
	ev := []string{}
	if initCall != nil {
		via := ""
		if len(initCall.Stack) > 0 && isLibraryFrame(initCall.Stack[0]) {
			via = " (via " + libPath(initCall.Stack[0]) + ")"
		}
		ev = append(ev, fmt.Sprintf("pid %d `%s`: cuInit returned %s%s%s", init.PID, shortArgv(init.Image().Argv),
			cuResult(initCall.RC), atFrame(initCall.Stack), via))
	} else {
		ev = append(ev, fmt.Sprintf("pid %d `%s`: the driver reported itself initialized at the fork; the cuInit call was not seen (a library linked against libcuda directly?)", init.PID, shortArgv(init.Image().Argv)))
	}
	for _, c := range g.children {
		if c.Fork != nil && c.Fork.CUDA == 1 {
			ev = append(ev, fmt.Sprintf("pid %d forked pid %d%s with CUDA initialized (cuDeviceGetCount returned %s in the fork handler)",
				c.Parent.PID, c.PID, atFrame(c.Fork.Site), cuResult(c.Fork.RC)))
			break
		}
	}
	ev = append(ev, childEvidence(outs)...)
	if execed > 0 {
		ev = append(ev, fmt.Sprintf("%d %s exec'd another program at once (a fresh driver: safe)", execed, output.Plural(execed, "child", "children")))
	}
	if doc != ruledoc.CFL003 || failedQuiet > 0 {
		for i, l := range cudaErrors {
			if i == 3 {
				break
			}
			ev = append(ev, "the program printed: "+l)
		}
	}
	f.Evidence = ev
	return f, true
}

// initializingCall is the cuInit of the initializing process's image at the first fork: the first
// successful one with a user frame, else the first successful one, else nil.
func initializingCall(init *Process, children []*Process) *Call {
	image := len(init.Images) - 1
	for _, c := range children {
		if c.Parent == init && c.Fork != nil {
			image = c.Fork.ParentImage
			break
		}
	}
	var ok *Call
	for _, c := range init.Calls {
		if c.Fn != "cuInit" || !c.Returned || c.RC != 0 || c.Image != image {
			continue
		}
		if _, user := userFrame(c.Stack); user {
			return c
		}
		if ok == nil {
			ok = c
		}
	}
	return ok
}

// location is the finding's primary location: the user's line behind the cuInit; failing that
// the fork site; failing that the script's first line.
func (g *group) location(initCall *Call, cwd string) (finding.Location, string) {
	if initCall != nil {
		if fr, ok := userFrame(initCall.Stack); ok {
			return locate(fr, cwd), ""
		}
	}
	for _, c := range g.children {
		if c.Fork != nil && c.Parent == g.init {
			if fr, ok := userFrame(c.Fork.Site); ok {
				return locate(fr, cwd), " (where, the wrapper could not see: this is the fork)"
			}
		}
	}
	for _, a := range g.init.Image().Argv {
		if strings.HasSuffix(a, ".py") {
			return locate(Frame{File: filepath.Join(g.init.Image().Cwd, a), Line: 1}, cwd), " (where, the wrapper could not see)"
		}
	}
	return finding.Location{}, " (where, the wrapper could not see)"
}

// forkSite is the Python stack of the first fork of an initialized process that the wrapper
// could read, with that process's pid.
func forkSite(outs []childOutcome) ([]Frame, int) {
	for _, o := range outs {
		if o.p.Fork != nil && o.p.Fork.CUDA == 1 && len(o.p.Fork.Site) > 0 && o.p.Parent != nil {
			return o.p.Fork.Site, o.p.Parent.PID
		}
	}
	return nil, 0
}

// firstBad returns the first child of the best evidence rank short of the
// rest (evidenceRank), or nil when every child stayed off CUDA and succeeded.
func firstBad(outs []childOutcome) *childOutcome {
	best := -1
	for i := range outs {
		if r := evidenceRank(outs[i]); r < 2 && (best < 0 || r < evidenceRank(outs[best])) {
			best = i
		}
	}
	if best < 0 {
		return nil
	}
	return &outs[best]
}

// childEvidence describes the children: every one when few, else the first few and a count of
// the rest by outcome. The children that used CUDA or failed come first (in the order they were
// recorded otherwise): they are the evidence, and which of many children a loaded machine
// recorded first must not decide whether they are named.
func childEvidence(outs []childOutcome) []string {
	outs = slices.Clone(outs)
	slices.SortStableFunc(outs, func(a, b childOutcome) int { return cmp.Compare(evidenceRank(a), evidenceRank(b)) })
	var ev []string
	const show = 5
	for i, o := range outs {
		if i == show {
			break
		}
		ev = append(ev, fmt.Sprintf("child %d: %s", o.p.PID, o.describe))
	}
	if len(outs) > show {
		counts := map[string]int{}
		for _, o := range outs[show:] {
			counts[outcomeClass(o)]++
		}
		var parts []string
		for k, v := range counts {
			parts = append(parts, fmt.Sprintf("%d %s", v, k))
		}
		sort.Strings(parts)
		ev = append(ev, fmt.Sprintf("and %d more children: %s", len(outs)-show, strings.Join(parts, ", ")))
	}
	return ev
}

// evidenceRank orders children for childEvidence: used CUDA and failed, then used it or failed,
// then the rest.
func evidenceRank(o childOutcome) int {
	switch {
	case o.used && o.bad:
		return 0
	case o.used || o.bad:
		return 1
	}
	return 2
}

func outcomeClass(o childOutcome) string {
	switch {
	case o.p.End.Kind == EndRunning:
		return "hung"
	case o.used && o.bad:
		return "used CUDA and failed"
	case o.used:
		return "used CUDA"
	case o.bad:
		return "failed without a CUDA call"
	}
	return "never touched CUDA and exited 0"
}

// shortArgv is a command line for messages: the program's base name and its arguments, cut short.
func shortArgv(argv []string) string {
	if len(argv) == 0 {
		return "?"
	}
	parts := append([]string{filepath.Base(argv[0])}, argv[1:]...)
	s := strings.Join(parts, " ")
	s = strings.ReplaceAll(s, "\n", " ")
	if len(s) > 80 {
		s = s[:77] + "..."
	}
	return s
}

// libPath shortens a library frame to its path below site-packages (torch/cuda/__init__.py:478).
func libPath(f Frame) string {
	file := f.File
	for _, m := range []string{"/site-packages/", "/dist-packages/"} {
		if i := strings.LastIndex(file, m); i >= 0 {
			file = file[i+len(m):]
		}
	}
	if m := stdlibRe.FindStringIndex(file); m != nil && m[0] > 0 {
		file = file[m[1]:]
	}
	return fmt.Sprintf("%s:%d", file, f.Line)
}

// locate turns a frame into a finding location: the path relative to cwd when under it, the
// line's first non-blank column, and the end of the line.
func locate(f Frame, cwd string) finding.Location {
	loc := finding.Location{Path: finding.RelPath(cwd, f.File),
		Start: finding.Position{Line: f.Line, Column: 1, UTF16Column: 1},
		End:   finding.Position{Line: f.Line, Column: 1, UTF16Column: 1}}
	src, err := os.ReadFile(f.File)
	if err != nil || f.Line < 1 {
		return loc
	}
	off := 0
	for line := 1; line < f.Line; line++ {
		i := bytes.IndexByte(src[off:], '\n')
		if i < 0 {
			return loc
		}
		off += i + 1
	}
	rest := src[off:]
	if i := bytes.IndexByte(rest, '\n'); i >= 0 {
		rest = rest[:i]
	}
	text := string(rest)
	text = strings.TrimRight(text, "\r")
	indent := len(text) - len(strings.TrimLeft(text, " \t"))
	loc.Start = finding.Position{Offset: off + indent, Line: f.Line, Column: indent + 1, UTF16Column: finding.UTF16Len(text[:indent]) + 1}
	loc.End = finding.Position{Offset: off + len(text), Line: f.Line, Column: len(text) + 1, UTF16Column: finding.UTF16Len(text) + 1}
	return loc
}
