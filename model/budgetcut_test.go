package model

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cudaforklint/cudaforklint/pytarget"
)

// TestBudgetCutsAreRecorded: a simulation that runs out of its event budget
// is recorded once, with the code it ran, and one that does not is not.
// budgetProgram(19) runs past the budget (TestCallRecordsBudget),
// budgetProgram(12) does not.
func TestBudgetCutsAreRecorded(t *testing.T) {
	// The same loops in a function nothing calls, run as an entry of its own.
	inFunction := func(n int) string {
		body := strings.ReplaceAll(nestedLoops(n, "step()"), "\n", "\n    ")
		return "import os\nimport torch\n\n\ndef setup():\n    torch.cuda.init()\n\n\ndef step():\n" +
			strings.Repeat("    setup()\n", 8) + "\n\ndef sweep():\n    " + body + "os.fork()\n"
	}
	tests := []struct {
		name, src string
		hazards   int    // the fork after the loops is reached
		want      string // the cut's line and message, "" for none
	}{
		{"module under budget", budgetProgram(12), 1, ""},
		{"module past budget", budgetProgram(19), 0, "0 the simulation of running this module as __main__ stopped after its budget of 1,000,000 events"},
		{"function under budget", inFunction(12), 1, ""},
		{"function past budget", inFunction(19), 0, "20 the simulation of calling `sweep` as an entry point stopped after its budget of 1,000,000 events"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			prog := NewProgram(memSource{"/p/main.py": tt.src}, Options{})
			m, err := prog.Module("/p/main.py")
			if err != nil {
				t.Fatal(err)
			}
			if hazards := prog.Analyze([]*Module{m}, pytarget.Default()); len(hazards) != tt.hazards {
				t.Errorf("%d hazards, want %d", len(hazards), tt.hazards)
			}
			var got []string
			for _, c := range prog.BudgetCuts() {
				got = append(got, fmt.Sprintf("%d %s", c.Line(), c.Message()))
			}
			switch {
			case tt.want == "" && len(got) != 0:
				t.Errorf("cuts %q, want none", got)
			case tt.want != "" && (len(got) != 1 || !strings.HasPrefix(got[0], tt.want)):
				t.Errorf("cuts %q, want one starting %q", got, tt.want)
			}
		})
	}
}
