package rules

// The notebook-target family (CFL007): processes started from a notebook
// under spawn or forkserver whose children must import, from the child's own
// __main__, a function the notebook defined. What the message says and the
// display-only fix (move the function into a module) live here, as the
// start-method family's live in start_method.go and the top-level family's
// in toplevel_cuda.go.

import (
	"fmt"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/cudaforklint/cudaforklint/fixsafety"
	"github.com/cudaforklint/cudaforklint/model"
	"github.com/cudaforklint/cudaforklint/pytarget"
)

// reportNotebookTarget reports a NotebookTarget hazard.
func (r reporter) reportNotebookTarget(z *model.Hazard, code string) {
	at := z.Start.Site
	names, n := notebookNames(z.Child.Targets)
	it := "it"
	if n > 1 {
		it = "them"
	}
	msg := fmt.Sprintf("The children started at %s run %s, defined in this notebook; a %q child looks %s up in its own `__main__`, which is not the notebook's, and %s %s. Move %s into a module next to the notebook and import %s",
		r.startsRef(z, at), names, z.Start.Method.String(), it, notebookFailure(z), versions(z), names, it)
	var defs []analysis.RelatedInformation
	for _, t := range z.Child.Targets {
		defs = append(defs, r.related(t.Site, "The children run `%s`", t.Desc))
		f := t.Func
		def := model.Site{Mod: f.Module, Span: f.NameSpan()}
		what := "function"
		if f.Class != nil {
			def = model.Site{Mod: f.Module, Span: f.Class.Def.NameSpan}
			what = "class"
		}
		defs = append(defs, r.related(def, "`%s` is a %s of the notebook: the children cannot find it", defName(f), what))
	}
	d := r.diagnostic(code, at, msg, r.startRelated(z.Start), r.moreStartsRelated(z), defs)
	r.report(d, fixsafety.DisplayOnly(fmt.Sprintf("Move %s into a module next to the notebook (a `%%%%writefile` cell can write it) and import %s from there", names, it)))
}

// defName is the name the children look up: a function's, or a method's
// class.
func defName(f *model.Function) string {
	if f.Class != nil {
		return f.Class.Name
	}
	return f.Name
}

// notebookNames lists the targets' names for a message ("`square`",
// "`Squares` and `collate`") and says how many there are.
func notebookNames(ts []model.Target) (string, int) {
	var names []string
	seen := map[string]bool{}
	for _, t := range ts {
		n := "`" + defName(t.Func) + "`"
		if !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	if len(names) <= 1 {
		return strings.Join(names, ""), len(names)
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1], len(names)
}

// notebookFailure says how the lookup fails and what the parent sees, by
// kind of start (measured with IPython's InteractiveShell on Python 3.11
// for Process, Pool and ProcessPoolExecutor; docs/notebooks.md). The
// error's words are quoted for the versions they were measured on: 3.14
// reworded pickle's errors.
func notebookFailure(z *model.Hazard) string {
	name := defName(z.Child.Targets[0].Func)
	err := fmt.Sprintf("fails with AttributeError when it unpickles `%s`", name)
	if !z.Configs.Filter(func(c pytarget.Config) bool { return c.Version < pytarget.Py314Early }).Empty() {
		err += fmt.Sprintf(" (\"Can't get attribute '%s' on <module '__main__' (built-in)>\" up to Python 3.13)", name)
	}
	switch z.Start.Obj.Kind {
	case model.ObjProcess:
		return err + ": the child exits with code 1"
	case model.ObjPool:
		return err + ": every worker dies and the pool's results never arrive"
	case model.ObjExecutor:
		return err + ": the pool breaks (BrokenProcessPool)"
	case model.ObjLoader:
		return err + ": the DataLoader workers exit unexpectedly"
	}
	return err
}
