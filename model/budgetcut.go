package model

import (
	"bytes"
	"fmt"
)

// A BudgetCut is code whose simulation ran out of its budget of events
// (maxSimEvents) on some target config: what it would have run after the cut was
// not simulated, so a hazard there is not reported. The budget keeps a
// run's time bounded on code whose branches and loops multiply; a user
// reads the cut as a notice, so that a clean run is never a silent guess.
type BudgetCut struct {
	Module *Module
	// Func is the function nothing calls that was run as an entry; nil
	// when the module itself ran.
	Func *Function
	// Import: the module's import in a child process or the forkserver
	// was simulated (for the CUDA it initializes), not its run as __main__.
	Import bool
}

// BudgetCuts are the program's simulations cut by the budget, each entry
// once, in the order they were cut.
func (p *Program) BudgetCuts() []BudgetCut { return p.cuts }

// noteBudgetCut records c if simulator s ran out of its budget.
func (p *Program) noteBudgetCut(s *simulator, c BudgetCut) {
	if !s.ranOut {
		return
	}
	for _, old := range p.cuts {
		if old.Module == c.Module && old.Func == c.Func && old.Import == c.Import {
			return
		}
	}
	p.cuts = append(p.cuts, c)
}

// Line is the line of the cut code: the function's definition, or 0 for
// a module.
func (c BudgetCut) Line() int {
	if c.Func == nil {
		return 0
	}
	return 1 + bytes.Count(c.Module.Src[:c.Func.Span().Start], []byte("\n"))
}

// Message says what was cut and what it means.
func (c BudgetCut) Message() string {
	what := "running this module as __main__"
	switch {
	case c.Func != nil:
		what = fmt.Sprintf("calling `%s` as an entry point", c.Func.QualName)
	case c.Import:
		what = "importing this module in a child process"
	}
	return fmt.Sprintf("the simulation of %s stopped after its budget of %s events: a hazard past that point is not reported", what, withThousands(maxSimEvents))
}

// withThousands writes n with commas between its groups of three digits.
func withThousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
