package verify

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/cudaforklint/cudaforklint/finding"
	"github.com/cudaforklint/cudaforklint/output"
	"github.com/cudaforklint/cudaforklint/ruledoc"
)

// Statuses verify sets on findings.
const (
	StatusConfirmed   = "confirmed"    // a static finding the run proved
	StatusNotObserved = "not observed" // a static finding the run's paths did not show
	StatusRefuted     = "refuted"      // a static finding the run contradicted (CFL003's "children never use CUDA")
	StatusRuntimeOnly = "runtime only" // a runtime finding no static finding matched
)

// family groups the codes whose runtime evidence bears on each other: CFL001 (a child used the
// inherited CUDA) and CFL003 (no child did) are two verdicts on the same fork after cuInit;
// CFL002 and CFL006 (its benign twin) are the forkserver's. Other codes are not judged by verify.
func family(code string) string {
	switch code {
	case ruledoc.CFL001.Code, ruledoc.CFL003.Code:
		return "fork"
	case ruledoc.CFL002.Code, ruledoc.CFL006.Code:
		return "forkserver"
	}
	return ""
}

// match marks the static findings with what the run showed and appends the runtime findings no
// static finding accounts for.
//
// A static finding and a runtime one match when they are of one family and
//  1. the runtime finding's location (the user's line behind cuInit) is the static finding's
//     location or one of its related locations; else
//  2. one of the runtime finding's related locations (the fork site, a child's failing call) is
//     the static finding's location; else
//  3. they concern the same file (static findings of a family that passes 1 and 2 left
//     unmatched, against runtime findings still unmatched).
//
// Then: the same code: the static finding is confirmed. Static CFL001, runtime CFL003: not
// observed (the fork after cuInit happened, no child touched CUDA on this run). Static CFL003,
// runtime CFL001: refuted (CFL003 says the children never touch CUDA, and one did), and the
// runtime CFL001 is added, since the static pass judged the fork benign. A static finding of a
// family with no match is not observed; codes of no family are left as they are (CFL004 and
// CFL005 are judged by judgeReimports). Last, a confirmed CFL003 on the line of a runtime CFL001
// is refuted too: a report never calls a fork benign beside proof that it was not.
func match(static, runtime []finding.Finding, cwd string) []finding.Finding {
	out := make([]finding.Finding, len(static))
	copy(out, static)
	matched := make([]bool, len(out))
	used := make([]bool, len(runtime))
	escalate := make([]bool, len(runtime))
	apply := func(i, j int) {
		s, r := &out[i], runtime[j]
		matched[i], used[j] = true, true
		ev := append([]string{"runtime " + r.Code + ": " + r.Message}, r.Evidence...)
		switch {
		case s.Code == r.Code:
			s.Status = StatusConfirmed
		case s.Code == ruledoc.CFL001.Code && r.Code == ruledoc.CFL003.Code:
			s.Status = StatusNotObserved
			ev[0] = "the fork after cuInit happened, but no child touched CUDA on this run: " + r.Message
		case s.Code == ruledoc.CFL003.Code && r.Code == ruledoc.CFL001.Code:
			s.Status = StatusRefuted
			ev[0] = "a child used the CUDA state it inherited on this run, so the fork is not benign: " + r.Message
			escalate[j] = true
		case s.Code == ruledoc.CFL006.Code && r.Code == ruledoc.CFL002.Code:
			// The run reports every forkserver that initialized CUDA as
			// CFL002: the hazard the benign finding names happened.
			s.Status = StatusConfirmed
		}
		s.Evidence = append(s.Evidence, ev...)
	}
	type test func(s, r finding.Finding) bool
	passes := []test{
		func(s, r finding.Finding) bool {
			if sameLine(s.Location, r.Location, cwd) {
				return true
			}
			for _, rel := range s.Related {
				if sameLine(rel.Location, r.Location, cwd) {
					return true
				}
			}
			return false
		},
		func(s, r finding.Finding) bool {
			for _, rel := range r.Related {
				if sameLine(s.Location, rel.Location, cwd) {
					return true
				}
			}
			return false
		},
		func(s, r finding.Finding) bool {
			if sameFile(s.Path, r.Path, cwd) {
				return true
			}
			for _, rel := range r.Related {
				if sameFile(s.Path, rel.Path, cwd) {
					return true
				}
			}
			return false
		},
	}
	for pass, ok := range passes {
		for i := range out {
			if matched[i] || family(out[i].Code) == "" {
				continue
			}
			for j := range runtime {
				// The exact pass lets several static findings share one runtime finding (one
				// per fork site of the same init, say); the weaker ones pair what is left.
				if (pass > 0 && used[j]) || family(runtime[j].Code) != family(out[i].Code) {
					continue
				}
				if ok(out[i], runtime[j]) {
					apply(i, j)
					break
				}
			}
		}
	}
	for i := range out {
		if matched[i] || family(out[i].Code) == "" {
			continue
		}
		out[i].Status = StatusNotObserved
		switch family(out[i].Code) {
		case "fork":
			out[i].Evidence = append(out[i].Evidence, "on this run no process forked a child while its CUDA was initialized here")
		case "forkserver":
			out[i].Evidence = append(out[i].Evidence, "on this run no forkserver process initialized CUDA")
		}
	}
	for j, r := range runtime {
		if !used[j] || escalate[j] {
			r.Status = StatusRuntimeOnly
			out = append(out, r)
		}
	}
	for i := range out {
		if out[i].Code != ruledoc.CFL003.Code || out[i].Status != StatusConfirmed {
			continue
		}
		for _, r := range runtime {
			if r.Code == ruledoc.CFL001.Code && sameLine(out[i].Location, r.Location, cwd) {
				out[i].Status = StatusRefuted
				out[i].Evidence = append(out[i].Evidence, "another process initialized CUDA here, forked, and its child used it: "+r.Message)
				break
			}
		}
	}
	return out
}

// reimportsMain reports whether p is a child that imports the main module again before it
// runs its target: a spawn child, or a child of a forkserver (which, before Python 3.13.8,
// imports the main module in each child).
func reimportsMain(p *Process) bool {
	how, ok := childKind(p)
	return ok && (how == "spawn" || how == "forkserver" && p.Image().Inherited)
}

// mainScript is the script p's program runs: its own, or for a spawn child or a fork, that of
// its nearest ancestor that names one.
func mainScript(p *Process) string {
	for q := p; q != nil; q = q.Parent {
		for i := len(q.Images) - 1; i >= 0; i-- {
			if s := pythonScript(q.Images[i].Argv); s != "" {
				return absPath(s, q.Images[i].Cwd)
			}
		}
	}
	return ""
}

// judgeReimports sets the runtime status of the static CFL004 and CFL005 findings, which concern
// the children that import the main module again (spawn, and forkserver before 3.13.8):
//   - CFL004 (CUDA initialized at the main module's top level) is confirmed when such a child
//     called cuInit from the top level of the finding's file;
//   - CFL005 (a process started at import time) is confirmed when such a child of the finding's
//     program failed and the program printed multiprocessing's "bootstrapping phase" error.
//
// Otherwise they are not observed.
func judgeReimports(fs []finding.Finding, t *Tree, bootstrap bool, cwd string) {
	var kids []*Process
	if t != nil {
		for _, p := range t.All {
			if reimportsMain(p) {
				kids = append(kids, p)
			}
		}
	}
	for i := range fs {
		f := &fs[i]
		if f.Code != ruledoc.CFL004.Code && f.Code != ruledoc.CFL005.Code {
			continue
		}
		var ran []*Process // the children that re-imported this finding's file
		for _, k := range kids {
			if s := mainScript(k); s == "" || importsAtTopLevel(*f, s, cwd) {
				ran = append(ran, k)
			}
		}
		f.Status = StatusNotObserved
		if len(ran) == 0 {
			f.Evidence = append(f.Evidence, "on this run no spawn or forkserver child imported "+filepath.Base(f.Path)+" again")
			continue
		}
		switch f.Code {
		case ruledoc.CFL004.Code:
			var ev []string
			for _, k := range ran {
				if c := topLevelInit(k, f.Path, cwd); c != nil {
					ev = append(ev, fmt.Sprintf("child %d (%s) ran %s's top level again and called cuInit%s: %s",
						k.PID, shortArgv(k.Image().Argv), filepath.Base(f.Path), atFrame(c.Stack), cuResult(c.RC)))
				}
			}
			if len(ev) == 0 {
				f.Evidence = append(f.Evidence, fmt.Sprintf("%d %s imported %s again; none called cuInit from its top level on this run",
					len(ran), output.Plural(len(ran), "child", "children"), filepath.Base(f.Path)))
				continue
			}
			f.Status = StatusConfirmed
			if len(ev) > 3 {
				ev = append(ev[:3], fmt.Sprintf("and %d more children did too", len(ev)-3))
			}
			f.Evidence = append(f.Evidence, ev...)
		case ruledoc.CFL005.Code:
			var failed []string
			for _, k := range ran {
				if k.End.Kind == EndExited && k.End.Code != 0 || k.End.Kind == EndSignaled {
					failed = append(failed, fmt.Sprintf("child %d (%s) %s", k.PID, shortArgv(k.Image().Argv), endText(k.End)))
				}
			}
			if len(failed) == 0 || !bootstrap {
				f.Evidence = append(f.Evidence, fmt.Sprintf("%d %s imported %s again; none failed with the bootstrapping-phase error on this run",
					len(ran), output.Plural(len(ran), "child", "children"), filepath.Base(f.Path)))
				continue
			}
			f.Status = StatusConfirmed
			if len(failed) > 3 {
				failed = append(failed[:3], fmt.Sprintf("and %d more children failed too", len(failed)-3))
			}
			f.Evidence = append(f.Evidence, append(failed,
				"the program printed multiprocessing's error: a process was started before the current process had finished its bootstrapping phase")...)
		}
	}
}

// importsAtTopLevel reports whether running script as the main module runs f's file at import
// time: the file is the script itself, or a module the script imports at its top level, which
// the finding's Related chain starts from ("Imports `helper`" at main.py).
func importsAtTopLevel(f finding.Finding, script, cwd string) bool {
	if sameFile(script, f.Path, cwd) {
		return true
	}
	for _, r := range f.Related {
		if sameFile(script, r.Path, cwd) {
			return true
		}
	}
	return false
}

// topLevelInit is the first cuInit call of p whose stack runs through the top level (<module>)
// of file: the main module's top level, run again.
func topLevelInit(p *Process, file, cwd string) *Call {
	for _, c := range p.Calls {
		if c.Fn != "cuInit" || !c.Returned {
			continue
		}
		for _, fr := range c.Stack {
			if fr.Func == "<module>" && sameFile(fr.File, file, cwd) {
				return c
			}
		}
	}
	return nil
}

// absPath is finding.AbsPath, with no path for none.
func absPath(p, cwd string) string {
	if p == "" {
		return ""
	}
	return finding.AbsPath(cwd, p)
}

func sameFile(a, b, cwd string) bool {
	a, b = absPath(a, cwd), absPath(b, cwd)
	if a == "" || b == "" {
		return false
	}
	if a == b {
		return true
	}
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(sa, sb)
}

func sameLine(a, b finding.Location, cwd string) bool {
	return a.Start.Line > 0 && a.Start.Line == b.Start.Line && sameFile(a.Path, b.Path, cwd)
}

// scriptPaths are the Python scripts the run executed, for the static pass: the script argument
// of every Python image the wrapper saw, and the .py arguments of the command itself (also those
// inside a `bash -c` string). Existing files only, relative to base when under it.
func scriptPaths(command []string, t *Tree, dir, base string) []string {
	var cands []string
	for _, a := range command {
		for _, w := range strings.Fields(a) {
			w = strings.Trim(w, `'"`)
			if strings.HasSuffix(w, ".py") {
				cands = append(cands, absPath(w, dir))
			}
		}
	}
	if t != nil {
		for _, p := range t.All {
			for _, img := range p.Images {
				if s := pythonScript(img.Argv); s != "" {
					cands = append(cands, absPath(s, img.Cwd))
				}
			}
		}
	}
	seen := map[string]bool{}
	var out []string
	for _, c := range cands {
		if seen[c] {
			continue
		}
		seen[c] = true
		if st, err := os.Stat(c); err != nil || !st.Mode().IsRegular() {
			continue
		}
		out = append(out, finding.RelPath(base, c))
	}
	return out
}

// pythonScript is the script a Python command line runs ("" for -c, -m and the REPL).
func pythonScript(argv []string) string {
	if len(argv) == 0 || !strings.HasPrefix(filepath.Base(argv[0]), "python") {
		return ""
	}
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		switch {
		case a == "-c" || a == "-m" || a == "-":
			return ""
		case a == "-W" || a == "-X" || a == "--check-hash-based-pycs":
			i++ // an option with a value
		case strings.HasPrefix(a, "-"):
		default:
			return a
		}
	}
	return ""
}
