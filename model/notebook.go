package model

import (
	"os"
	"strings"
	"sync"

	"github.com/cudaforklint/cudaforklint/notebook"
	"github.com/cudaforklint/cudaforklint/procapi"
	"github.com/cudaforklint/cudaforklint/pytarget"
)

// Notebooks. A Jupyter notebook's module (its code cells, as package
// notebook gives them) is what a kernel runs as __main__, cell after cell.
// Two things follow.
//
// Nothing re-imports it. Spawn and forkserver children find the parent's
// main module through multiprocessing.spawn.get_preparation_data, which
// sends its __file__ (or its __spec__'s name) for the child to import; the
// kernel's __main__ is IPython's user module, with neither, so the children
// run no notebook code at all (ReimportedByChildren is false): the checks
// of what the children re-import (CFL002 through __main__, CFL004, CFL005)
// cannot hold. What the notebook's `if __name__ == "__main__":` guards hold
// runs, since the kernel's __name__ is "__main__".
//
// Its functions and classes cannot be found by those children. A spawn or
// forkserver child unpickles its target (a Process, the tasks of a Pool or
// an executor, a DataLoader's dataset, torch.multiprocessing.spawn's
// function) by looking its qualified name up in its own __main__, which is
// the spawn bootstrap's, not the notebook's: "AttributeError: Can't get
// attribute 'f' on <module '__main__' (built-in)>" (Python 3.11 with
// IPython 8.12's InteractiveShell, run as a kernel runs cells; the
// AttributeError is raised by pickle's lookup of __main__.f on every
// version). That is the NotebookTarget hazard (CFL007).

// notebookTarget records a NotebookTarget hazard for a start whose children
// are not forked from the notebook's kernel.
func (s *simulator) notebookTarget(o *Object, rec *StartRecord) {
	if rec.Method == pytarget.Fork {
		return
	}
	if ts := NotebookTargets(o); len(ts) > 0 {
		s.out.add(&Hazard{Kind: NotebookTarget, Start: rec, Child: ChildUse{Verdict: ChildUnknown, Targets: ts}}, s)
	}
}

// NotebookTargets returns the code o's children run that is defined in a
// notebook and pickled by reference: functions and classes at a cell's top
// level, and methods of those classes. Lambdas and nested functions are
// left out: pickling them fails in the parent, notebook or not. A Manager
// runs no code of the caller's, and os.fork pickles nothing. A family that
// pickles by value (multiprocess, under datasets' map and filter with
// num_proc) sends what __main__ defines with the task: its children run the
// notebook's functions without looking them up (on the corpus this was 89
// false CFL007 errors in huggingface/notebooks).
func NotebookTargets(o *Object) []Target {
	switch o.Kind {
	case ObjProcess, ObjPool, ObjExecutor, ObjLoader, ObjSpawn:
	default:
		return nil
	}
	if fam, ok := procapi.FamilyNamed(o.Method.Family); ok && fam.PicklesByValue {
		return nil
	}
	var out []Target
	for _, t := range o.Targets {
		if f := t.Func; f != nil && f.Module.Notebook && f.Lambda == nil && !strings.Contains(f.QualName, "<locals>") {
			out = append(out, t)
		}
	}
	return out
}

// CellLine names the cell and the line in it of an offset of a notebook's
// module; ok is false for a module that is not a notebook, or whose file
// has changed since it was read. The cells are not in the module's bytes
// (what the passes read): they are the driver's notebook
// (Options.Notebook), or else the notebook file read again, once, for the
// messages that name lines.
func (m *Module) CellLine(off int) (cell, line int, ok bool) {
	if !m.Notebook {
		return 0, 0, false
	}
	m.cellsOnce.Do(func() {
		if get := m.Prog.opts.Notebook; get != nil {
			if nb := get(m.Path); nb != nil {
				if nb.Matches(m.Src) {
					m.cells = nb
				}
				return
			}
		}
		raw, err := os.ReadFile(m.Path)
		if err != nil {
			return
		}
		if nb, err := notebook.Parse(raw); err == nil && nb.Matches(m.Src) {
			m.cells = nb
		}
	})
	if m.cells == nil {
		return 0, 0, false
	}
	p, ok := m.cells.At(off)
	if !ok {
		return 0, 0, false
	}
	return p.Cell.Number, p.Line, true
}

// notebookCells is what CellLine keeps.
type notebookCells struct {
	cellsOnce sync.Once
	cells     *notebook.Notebook
}
