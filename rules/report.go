package rules

import (
	"fmt"
	"go/token"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/cudaforklint/cudaforklint/config"
	"github.com/cudaforklint/cudaforklint/fixsafety"
	"github.com/cudaforklint/cudaforklint/model"
	"github.com/cudaforklint/cudaforklint/passes/forkhazard"
	"github.com/cudaforklint/cudaforklint/passes/pyprogram"
)

// reporter turns hazards into diagnostics for one pass.
type reporter struct {
	pass   *analysis.Pass
	prog   *pyprogram.Result
	policy *config.Policy
	// fixes records each reported fix's applicability; the rule returns it
	// as its result for the driver.
	fixes *fixsafety.Table
}

func newReporter(pass *analysis.Pass) reporter {
	return reporter{
		pass:   pass,
		prog:   pass.ResultOf[pyprogram.Analyzer].(*pyprogram.Result),
		policy: config.For(pass),
		fixes:  &fixsafety.Table{},
	}
}

// report reports d with its fixes, in the files that select the rule (the
// driver runs a rule when any checked file selects it; per-file select and
// ignore decide here, before anything is reported).
func (r reporter) report(d analysis.Diagnostic, fixes ...fixsafety.Fix) {
	path := r.pass.Fset.File(d.Pos).Name()
	if s := r.policy.File(path); s == nil || !s.Selected(d.Category) {
		return
	}
	r.fixes.Attach(&d, fixes...)
	r.pass.Report(d)
}

// rule is the common shape of a rule's Run: a reporter over the pass's
// hazards, returning the fix table.
func rule(report func(r reporter, z *model.Hazard)) func(*analysis.Pass) (any, error) {
	return func(pass *analysis.Pass) (any, error) {
		r := newReporter(pass)
		for _, z := range hazards(pass) {
			report(r, z)
		}
		return r.fixes, nil
	}
}

func hazards(pass *analysis.Pass) []*model.Hazard {
	return pass.ResultOf[forkhazard.Analyzer].(*forkhazard.Result).Hazards
}

func (r reporter) span(s model.Site) (token.Pos, token.Pos) {
	tf := r.prog.File(s.Mod)
	return tf.Pos(int(s.Span.Start)), tf.Pos(int(s.Span.End))
}

func (r reporter) line(s model.Site) int {
	tf := r.prog.File(s.Mod)
	return tf.Line(tf.Pos(int(s.Span.Start)))
}

// where names a site for a message read at from: "line 12" in the same
// file, "helper.py:12" in another; "cell 3, line 2" and "nb.ipynb:cell 3:2"
// in a notebook.
func (r reporter) where(s, from model.Site) string {
	if cell, line, ok := s.Mod.CellLine(int(s.Span.Start)); ok {
		if s.Mod == from.Mod {
			return fmt.Sprintf("cell %d, line %d", cell, line)
		}
		return fmt.Sprintf("%s:cell %d:%d", filepath.Base(s.Mod.Path), cell, line)
	}
	if s.Mod == from.Mod {
		return fmt.Sprintf("line %d", r.line(s))
	}
	return fmt.Sprintf("%s:%d", filepath.Base(s.Mod.Path), r.line(s))
}

func (r reporter) related(s model.Site, format string, args ...any) analysis.RelatedInformation {
	pos, end := r.span(s)
	return analysis.RelatedInformation{Pos: pos, End: end, Message: fmt.Sprintf(format, args...)}
}

// source returns the (trimmed) source text of a site, for messages.
func source(s model.Site) string {
	txt := strings.Join(strings.Fields(string(s.Mod.Src[s.Span.Start:s.Span.End])), " ")
	if len(txt) > 48 {
		txt = txt[:45] + "..."
	}
	return txt
}

// chain turns a call chain into related information, outermost first.
func (r reporter) chain(frames []model.Frame) []analysis.RelatedInformation {
	var out []analysis.RelatedInformation
	for _, f := range frames {
		out = append(out, r.related(f.Site, "%s", capitalize(f.Desc())))
	}
	return out
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// kindPhrase names what a start creates.
func kindPhrase(o *model.Object) string {
	switch o.Kind {
	case model.ObjProcess:
		return "a Process"
	case model.ObjPool:
		return "Pool workers"
	case model.ObjExecutor:
		return "ProcessPoolExecutor workers"
	case model.ObjLoader:
		return "DataLoader workers"
	case model.ObjFork:
		return "os.fork"
	case model.ObjManager:
		return "a Manager process"
	case model.ObjSpawn:
		return "torch.multiprocessing workers"
	}
	return "processes"
}

// startRef names a process start for a message read at from:
// "`ctx.Pool(4)` (line 12: Pool workers, the "fork" start method)".
func (r reporter) startRef(rec *model.StartRecord, from model.Site) string {
	detail := r.where(rec.Site, from)
	if rec.Obj.Kind != model.ObjFork {
		detail += ": " + kindPhrase(rec.Obj)
		if f := rec.Obj.WorkersFlag; f != "" {
			detail += fmt.Sprintf(" when `%s` > 0 (its default is 0)", f)
		}
		if m := methodPhrase(rec); m != "" {
			detail += ", " + m
		}
	}
	if rec.Site == rec.Obj.Site && rec.Obj.KeptInContainer() {
		// A loader starts where it is iterated; one reported where it is
		// made went into a container the analysis does not follow.
		detail += "; it is kept in a container, iterated later"
	}
	return fmt.Sprintf("`%s` (%s)", source(rec.Site), detail)
}

// methodPhrase says which start method a start uses and why.
func methodPhrase(rec *model.StartRecord) string {
	if rec.Obj.Kind == model.ObjFork {
		return ""
	}
	if rec.Explicit {
		return fmt.Sprintf("the %q start method", rec.Method.String())
	}
	return fmt.Sprintf("the default %q start method", rec.Method.String())
}

// versions says where a hazard holds: "on Python 3.10–3.13 on Linux".
func versions(z *model.Hazard) string {
	return "on " + z.Configs.Describe()
}

// childRelated lists the child's entry points and where it uses CUDA.
func (r reporter) childRelated(z *model.Hazard) []analysis.RelatedInformation {
	var out []analysis.RelatedInformation
	seen := map[model.Site]bool{}
	for _, t := range z.Child.Targets {
		if seen[t.Site] || !t.Site.Valid() {
			continue
		}
		seen[t.Site] = true
		if t.Func != nil || t.Builtin {
			out = append(out, r.related(t.Site, "The child runs `%s`", t.Desc))
		} else {
			out = append(out, r.related(t.Site, "The child runs `%s`, whose code could not be seen", t.Desc))
		}
	}
	if z.Child.Evidence.Valid() && !seen[z.Child.Evidence] {
		switch z.Child.Verdict {
		case model.ChildUsesCUDA:
			out = append(out, r.related(z.Child.Evidence, "The child uses CUDA here (%s)", apiName(z.Child.API)))
		case model.ChildUnknown:
			out = append(out, r.related(z.Child.Evidence, "The child may use CUDA here"))
		case model.ChildNoCUDA:
			out = append(out, r.related(z.Child.Evidence, "The device of what the workers touch here could not be told"))
		}
	}
	return out
}

// assumedCPU says why DataLoader workers are taken to stay on the CPU.
func assumedCPU(u model.ChildUse) string {
	if u.Reason != "" {
		return u.Reason + "; the workers are assumed to stay on the CPU, as datasets almost always do"
	}
	return "the workers' dataset code could not be seen and is assumed CPU-only"
}

func apiName(api string) string {
	if api == "" {
		return "a CUDA call"
	}
	if strings.HasPrefix(api, "`") || strings.Contains(api, " ") {
		return api
	}
	return "`" + api + "`"
}

// initRelated lists the chain to a CUDA initialization and the init itself.
func (r reporter) initRelated(init *model.InitRecord) []analysis.RelatedInformation {
	out := r.chain(init.Chain)
	return append(out, r.related(init.Site, "CUDA is initialized here by %s", apiName(init.API)))
}

// startRelated lists the chain to a process start, the start, and where its
// start method was chosen.
func (r reporter) startRelated(rec *model.StartRecord) []analysis.RelatedInformation {
	out := r.chain(rec.Chain)
	verb := "started"
	if rec.Method.String() == "fork" {
		verb = "forked"
	}
	what := kindPhrase(rec.Obj)
	if m := methodPhrase(rec); m != "" {
		what += ", " + m
	}
	if rec.Obj.Kind == model.ObjLoader && rec.Obj.Site.Valid() && rec.Obj.Site != rec.Site {
		// Its workers start where it is iterated, not where it is made.
		out = append(out, r.related(rec.Obj.Site, "The DataLoader is made here"))
	}
	out = append(out, r.related(rec.Site, "Children are %s here (%s)", verb, what))
	if rec.MethodLit.Valid() && rec.MethodLit != rec.Site {
		out = append(out, r.related(rec.MethodLit, "The %q start method is chosen here", rec.Method.String()))
	}
	return out
}

// dedupeRelated drops consecutive duplicates (same position and message).
func dedupeRelated(in []analysis.RelatedInformation) []analysis.RelatedInformation {
	var out []analysis.RelatedInformation
	seen := map[string]bool{}
	for _, ri := range in {
		k := fmt.Sprintf("%d-%d-%s", ri.Pos, ri.End, ri.Message)
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, ri)
	}
	return out
}

// loopNote explains an init that comes after the start in the source: the
// fork happens again on the loop's next iteration.
func loopNote(z *model.Hazard) string {
	if z.Init == nil || z.Init.Site.Mod != z.Start.Site.Mod || z.Init.Site.Span.Start < z.Start.Site.Span.Start {
		return ""
	}
	if len(z.Init.Chain) > 0 || len(z.Start.Chain) > 0 {
		return ""
	}
	return " on the loop's next iteration"
}

// startsRef is startRef for a hazard's first start, counting the others.
func (r reporter) startsRef(z *model.Hazard, from model.Site) string {
	s := r.startRef(z.Start, from)
	switch n := len(z.MoreStarts); n {
	case 0:
	case 1:
		s += " and 1 other place"
	default:
		s += fmt.Sprintf(" and %d other places", n)
	}
	return s
}

// moreStartsRelated lists a hazard's further starts.
func (r reporter) moreStartsRelated(z *model.Hazard) []analysis.RelatedInformation {
	var out []analysis.RelatedInformation
	for _, m := range z.MoreStarts {
		verb := "started"
		if m.Method.String() == "fork" {
			verb = "forked"
		}
		out = append(out, r.related(m.Site, "Children are also %s here (%s)", verb, kindPhrase(m.Obj)))
	}
	return out
}

// initSubject names what initializes CUDA, for a message read at the
// hazard's location: the initializing call itself, or, when the finding is
// reported at the entry's import or call of a library that initializes
// inside, that import or call, with the library's call as detail:
// "Importing `torch_geometric`", " (through `torch.__config__.show()`,
// typing.py:28)".
func (r reporter) initSubject(z *model.Hazard) (subject, detail string) {
	if z.At == z.Init.Site {
		return apiName(z.Init.API), ""
	}
	detail = fmt.Sprintf(" (through %s, %s)", apiName(z.Init.API), r.where(z.Init.Site, z.At))
	for i := len(z.Init.Chain) - 1; i >= 0; i-- {
		if f := z.Init.Chain[i]; f.Site == z.At && f.Import != "" {
			return fmt.Sprintf("Importing `%s`", f.Import), detail
		}
	}
	return fmt.Sprintf("`%s`", source(z.At)), detail
}

// importDetail says how an import-time initialization is reached from the
// main module's top level: "" when it is written there, " (in `helper`,
// which it imports at its top level)", " (in `get_model`, called from its
// top level at line 95)".
func (r reporter) importDetail(z *model.Hazard) string {
	if len(z.Init.Chain) == 0 || z.At != z.Init.Site {
		return ""
	}
	first := z.Init.Chain[0]
	if first.Import != "" {
		return fmt.Sprintf(" (in `%s`, which it imports at its top level)", first.Import)
	}
	return fmt.Sprintf(" (in `%s`, called from its top level at %s)", first.Func, r.where(first.Site, z.Init.Site))
}

// diagnostic builds a rule's diagnostic at a site, with the related
// information in execution order, duplicates dropped.
func (r reporter) diagnostic(code string, at model.Site, msg string, related ...[]analysis.RelatedInformation) analysis.Diagnostic {
	pos, end := r.span(at)
	var rel []analysis.RelatedInformation
	for _, list := range related {
		rel = append(rel, list...)
	}
	return analysis.Diagnostic{Pos: pos, End: end, Category: code, Message: msg, Related: dedupeRelated(rel)}
}
