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
