package model

import (
	"slices"
	"testing"
)

// setterProgram calls setters on one instance with different arguments,
// reading the attribute between the calls, so that one receiver has
// several contexts, some made after the index was first read: instances with a constructor
// context (Holder) and without one (Plain, whose class has no __init__),
// and a subclass whose instances run the base's setter.
const setterProgram = `import multiprocessing as mp
import torch

class Plain:
    def use(self, device):
        self.device = device

    def warm(self):
        torch.zeros(1, device=self.device)

class Holder:
    def __init__(self, workers):
        self.workers = workers

    def use(self, device):
        self.device = device

    def warm(self):
        torch.zeros(1, device=self.device)

class Child(Holder):
    pass

def work():
    torch.zeros(1, device="cuda")

if __name__ == "__main__":
    p = Plain()
    p.use("cpu")
    torch.zeros(1, device=p.device)
    p.use("cuda")
    p.warm()
    h = Holder(2)
    h.use("cpu")
    torch.zeros(1, device=h.device)
    h.use("cuda:1")
    h.warm()
    c = Child(4)
    c.use("cpu")
    c.use("cuda")
    c.warm()
    mp.Process(target=work).start()
`

// TestReceiverIndexChangesNoFinding: reading an instance's attributes
// through the receiver index must find what testing every context of the
// storing methods finds, at every point of the analysis, so the findings
// are the same on every fixture directory and on a program whose Trainer
// methods get many contexts (the shape of composer).
func TestReceiverIndexChangesNoFinding(t *testing.T) {
	programs := fixtureDirs(t)
	programs["trainer"] = trainerProgram(15, 12)
	programs["setters"] = memSource{"/p/setters.py": setterProgram}
	sameFindingsWithout(t, "the receiver index", programs, &indexReceivers)
}

// TestReceiverIndexMatchesScan checks the index against scanReceivers for
// every receiver that some context of a method binds, after the analysis
// made all of them, including receivers of several classes and instances
// made without a constructor context.
func TestReceiverIndexMatchesScan(t *testing.T) {
	programs := fixtureDirs(t)
	programs["trainer"] = trainerProgram(15, 12)
	programs["setters"] = memSource{"/p/setters.py": setterProgram}
	checked, shared := 0, 0
	for d, files := range programs {
		prog, _ := analyzeProgram(files)
		if prog.vals == nil {
			continue
		}
		vs := prog.vals
		for f, cs := range vs.byFunc {
			if f.Class == nil || len(f.Params()) == 0 || isStatic(f) {
				continue
			}
			self := paramBinding(f, 0)
			for _, c := range cs {
				for _, r := range c.params[self] {
					if r.Kind != VInstance {
						continue
					}
					want := scanReceivers(cs, self, r)
					got := vs.receiverContexts(f, r)
					if !slices.Equal(got, want) {
						t.Errorf("%s: %s on an instance of %s: %d contexts, want %d", d, f.QualName, receiverClass(r).Name, len(got), len(want))
					}
					checked++
					if len(want) > 1 {
						shared++
					}
				}
			}
		}
	}
	if checked < 100 || shared < 3 {
		t.Errorf("only %d receivers checked, %d of them with more than one context", checked, shared)
	}
}
