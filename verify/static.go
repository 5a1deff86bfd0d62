package verify

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/cudaforklint/cudaforklint/finding"
)

// Statuses verify sets on findings.
const (
	StatusConfirmed   = "confirmed"    // a static finding the run proved
	StatusNotObserved = "not observed" // a static finding the run's paths did not show
	StatusRuntimeOnly = "runtime only" // a runtime finding no static finding matched
)

// family groups the codes whose runtime evidence bears on each other: CFL001 (a child used the
// inherited CUDA) and CFL003 (no child did) are two verdicts on the same fork after cuInit;
// CFL002 and CFL006 (its benign twin) are the forkserver's. Other codes are not judged by verify.
func family(code string) string {
	switch code {
	case "CFL001", "CFL003":
		return "fork"
	case "CFL002", "CFL006":
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
// runtime CFL001: confirmed (the fork after cuInit happened), and the runtime CFL001 is added
// too, since the static pass judged the fork benign. A static finding of a family with no match
// is not observed; codes of no family are left as they are.
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
		case s.Code == "CFL001" && r.Code == "CFL003":
			s.Status = StatusNotObserved
			ev[0] = "the fork after cuInit happened, but no child touched CUDA on this run: " + r.Message
		case s.Code == "CFL003" && r.Code == "CFL001":
			s.Status = StatusConfirmed
			escalate[j] = true
		case s.Code == "CFL006" && r.Code == "CFL002":
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
	return out
}

func absPath(p, cwd string) string {
	if p == "" {
		return ""
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(cwd, p)
	}
	return filepath.Clean(p)
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
		if rel, err := filepath.Rel(base, c); err == nil && !strings.HasPrefix(rel, "..") {
			c = rel
		}
		out = append(out, c)
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
