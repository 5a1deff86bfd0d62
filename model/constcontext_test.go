package model

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cudaforklint/cudaforklint/pytarget"
)

// constContextProgram is a script whose helper starts a Pool only when
// num_proc asks for more than one process, called after CUDA is
// initialized by `callers` functions that each hand it a function of their
// own (more than a function's full contexts, as datasets' map_nested is
// called), the last one with the arguments in last.
func constContextProgram(callers int, last string) string {
	var b strings.Builder
	b.WriteString(`from multiprocessing import Pool

import torch


def parallel_map(fn, items, num_proc=None, min_length=2):
    if num_proc is None:
        num_proc = 1
    if num_proc != -1 and num_proc <= 1 or len(items) < min_length:
        return [fn(x) for x in items]
    with Pool(num_proc) as pool:
        return pool.map(fn, items)

`)
	for i := range callers {
		fmt.Fprintf(&b, "\ndef scale_%d(x):\n    return torch.ones(2, device=\"cuda\") * %d\n", i, i)
	}
	b.WriteString("\n\ndef main():\n    torch.cuda.init()\n")
	for i := range callers {
		args := ""
		if i == callers-1 {
			args = last
		}
		fmt.Fprintf(&b, "    parallel_map(scale_%d, range(4)%s)\n", i, args)
	}
	b.WriteString("\n\nif __name__ == \"__main__\":\n    main()\n")
	return b.String()
}

// TestConstContextPastTheBudget checks that a call its function has no
// full context left for is still read with its constants: at the default
// num_proc the Pool is never reached whichever call asks, and a call that
// asks for four processes forks after the initialization, its child's code
// seen or not.
func TestConstContextPastTheBudget(t *testing.T) {
	tests := []struct {
		name    string
		callers int
		last    string
		hazards int
	}{
		{"within the budget, defaults", 3, "", 0},
		{"past the budget, defaults", maxContextsPerFunc + 4, "", 0},
		{"past the budget, num_proc=1", maxContextsPerFunc + 4, ", num_proc=1", 0},
		{"within the budget, four processes", 3, ", num_proc=4", 1},
		{"past the budget, four processes", maxContextsPerFunc + 4, ", num_proc=4", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			prog := NewProgram(memSource{"/p/main.py": constContextProgram(tt.callers, tt.last)}, Options{})
			m, err := prog.Module("/p/main.py")
			if err != nil {
				t.Fatal(err)
			}
			got := 0
			for _, h := range prog.Analyze([]*Module{m}, pytarget.Default()) {
				if h.Kind == ForkAfterInit {
					got++
				}
			}
			if got != tt.hazards {
				t.Errorf("%d forks after the initialization, want %d", got, tt.hazards)
			}
		})
	}
}

// TestDecidingParams checks which parameters a constant context binds:
// those the function's own tests read or it hands to a call, not those of
// a nested function or lambda, nor one it only stores or returns.
func TestDecidingParams(t *testing.T) {
	src := `def helper(fn, items, num_proc=None, verbose=False, desc="", n_jobs=1, lam=0, inner=0, kept=0):
    if num_proc is None:
        num_proc = 1
    while verbose:
        break
    label = desc if n_jobs > 1 else ""
    run(fn, items)
    key = lambda x: x + lam
    def nested():
        if inner:
            return 1
    self_kept = kept
    return self_kept
`
	m := load(t, memSource{"/p/m.py": src}, "/p/m.py")
	got := strings.Join(m.Funcs[0].decidingParams(), " ")
	if want := "num_proc verbose n_jobs fn items"; got != want {
		t.Errorf("deciding parameters %q, want %q", got, want)
	}
}
