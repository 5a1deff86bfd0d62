package model

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/cudaforklint/cudaforklint/pytarget"
)

// trainerProgram is the shape that made the call records worth having
// (mosaicml/composer): a training library whose Trainer's methods call
// each other through branches and loops, and a test module whose many
// test functions (each an entry of its own) build a Trainer and fit it.
func trainerProgram(methods, tests int) memSource {
	var lib strings.Builder
	lib.WriteString("import torch\nimport torch.multiprocessing as mp\nfrom torch.utils.data import DataLoader\n\n\n")
	lib.WriteString("def setup_device(device):\n    if device == 'gpu':\n        torch.cuda.init()\n\n\n")
	lib.WriteString("class Trainer:\n    def __init__(self, model, device='cpu', workers=0):\n")
	lib.WriteString("        self.model = model\n        self.device = device\n        self.workers = workers\n        setup_device(device)\n\n")
	for i := range methods {
		fmt.Fprintf(&lib, "    def step%d(self, batch):\n", i)
		fmt.Fprintf(&lib, "        if batch is None:\n            return None\n")
		fmt.Fprintf(&lib, "        for _ in range(2):\n            setup_device(self.device)\n")
		for _, next := range []int{2*i + 1, 2*i + 2} {
			if next < methods {
				fmt.Fprintf(&lib, "            self.step%d(batch)\n", next)
			}
		}
		lib.WriteString("        return batch\n\n")
	}
	lib.WriteString("    def fit(self, data):\n        loader = DataLoader(data, num_workers=self.workers)\n")
	lib.WriteString("        for batch in loader:\n            self.step0(batch)\n\n")
	var t strings.Builder
	t.WriteString("from trainer import Trainer\n\n\n")
	for i := range tests {
		fmt.Fprintf(&t, "def test_fit_%d():\n    Trainer(model=%d, device='gpu', workers=%d).fit([1, 2])\n\n\n", i, i, i%3)
	}
	return memSource{"/p/trainer.py": lib.String(), "/p/test_trainer.py": t.String()}
}

// BenchmarkCallRecords analyzes the trainer program with the call records
// on and off, alternating, after one analysis that built its summaries (so
// both time the simulation alone), and reports the time with records as a
// multiple of the time without ("ratio").
func BenchmarkCallRecords(b *testing.B) {
	files := trainerProgram(31, 30)
	prog := NewProgram(files, Options{})
	var mods []*Module
	for _, p := range []string{"/p/test_trainer.py", "/p/trainer.py"} {
		m, err := prog.Module(p)
		if err != nil {
			b.Fatal(err)
		}
		mods = append(mods, m)
	}
	want := describeHazards(prog.Analyze(mods, pytarget.Default()))
	if !strings.Contains(want, "kind") {
		b.Fatalf("the trainer program has no finding:\n%s", want)
	}
	b.ResetTimer()
	var with, without time.Duration
	for range b.N {
		t0 := time.Now()
		got := describeHazards(prog.Analyze(mods, pytarget.Default()))
		t1 := time.Now()
		var gotWithout string
		switchedOff(&recordCalls, func() { gotWithout = describeHazards(prog.Analyze(mods, pytarget.Default())) })
		with += t1.Sub(t0)
		without += time.Since(t1)
		if got != want || gotWithout != want {
			b.Fatalf("findings changed:\nwith records\n%s\nwithout\n%s\nfirst\n%s", got, gotWithout, want)
		}
	}
	b.ReportMetric(float64(with)/float64(without), "ratio")
	b.ReportMetric(float64(with.Microseconds())/float64(b.N), "µs-with")
	b.ReportMetric(float64(without.Microseconds())/float64(b.N), "µs-without")
}
