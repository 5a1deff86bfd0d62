package model

import (
	"slices"
	"testing"

	"github.com/cudaforklint/cudaforklint/syntax"
)

// TestLoaderUse checks what each kind of call is taken to do with the
// DataLoaders handed to it.
func TestLoaderUse(t *testing.T) {
	src := `import itertools
import accelerate
import composer
import lightning as L
from tqdm import tqdm
from torch.utils.data import DataLoader


class Wrapper:
    def __init__(self, loader):
        self.loader = loader


def local(loader):
    return loader


accelerator = accelerate.Accelerator()
trainer = L.Trainer()
loader = DataLoader([1, 2], num_workers=2)
ctrainer = composer.Trainer(model=None, train_dataloader=loader)
`
	tests := []struct {
		call string
		want loaderUse
	}{
		{"iter(loader)", useIterates},
		{"enumerate(loader)", useIterates},
		{"zip(loader, loader)", useIterates},
		{"sorted(loader)", useIterates},
		{"itertools.islice(loader, 3)", useIterates},
		{"len(loader)", useIgnores},
		{"next(loader)", useIgnores},
		{"print(loader)", useIgnores},
		{"tqdm(loader)", useWraps},
		{"itertools.chain(loader)", useWraps},
		{"Wrapper(loader)", useWraps},
		{"accelerator.prepare(loader)", useReturns},
		{"self.fabric.setup_dataloaders(loader)", useReturns},
		{"trainer.fit(loader)", useIterates},
		{"self.trainer.validate(dataloaders=loader)", useIterates},
		{"ctrainer.fit()", useIterates},
		{"ctrainer.eval()", useIterates},
		{"ctrainer.predict(loader)", useIterates},
		{"composer.trainer.Trainer(model=None).fit(train_dataloader=loader)", useIterates},
		{"composer.Trainer(model=None)", useWraps},
		{"local(loader)", useLocal},
		{"DataLoader(loader)", useIgnores},
	}
	// The calls whose row iterates the loaders their receiver was made
	// with (composer's Trainer), not those its hooks return (Lightning's).
	kept := map[string]bool{
		"ctrainer.fit()": true, "ctrainer.eval()": true,
		"composer.trainer.Trainer(model=None).fit(train_dataloader=loader)": true,
	}
	for _, tt := range tests {
		m := load(t, memSource{"/p/m.py": src + "x = " + tt.call + "\n"}, "/p/m.py")
		a := m.File.Body[len(m.File.Body)-1].(*syntax.Assign)
		c := a.Value.(*syntax.Call)
		var ev evaluator
		got, lc := ev.loaderUse(c, m.Scope)
		if got != tt.want {
			t.Errorf("%s: use %d, want %d", tt.call, got, tt.want)
		}
		if got := lc != nil && len(lc.kept) > 0; got != kept[tt.call] {
			t.Errorf("%s: its row iterates its receiver's loaders: %v, want %v", tt.call, got, kept[tt.call])
		}
	}
}

// TestLoaderCallRows checks the table's rows: each cites its evidence, and
// a row that iterates its receiver's loaders names the constructor.
func TestLoaderCallRows(t *testing.T) {
	for _, lc := range loaderCalls {
		if lc.evidence == "" {
			t.Errorf("%v%v: no evidence", lc.names, lc.methods)
		}
		if len(lc.kept) > 0 && (len(lc.methods) > 0 || len(lc.keptBy()) != len(lc.names)) {
			t.Errorf("%v%v: a row with kept loaders is matched by qualified names, each a constructor's method", lc.names, lc.methods)
		}
	}
}

// TestLoaderMakers checks the prefilter's view of the trainers that make
// their own loader.
func TestLoaderMakers(t *testing.T) {
	found := false
	for _, lm := range LoaderMakers() {
		if len(lm.Roots) != 1 || len(lm.Idents) != 1 {
			t.Errorf("%+v: one root and one identifier each", lm)
		}
		found = found || (lm.Roots[0] == "transformers" && lm.Idents[0] == "Trainer")
	}
	if !found {
		t.Error("transformers.Trainer missing")
	}
}

// TestReturnedParamsOfCyclesIndependentOfOrder: the parameters a function
// returns are those of its whole cycle, whichever member is asked first.
// every_nth returns its batches, or hands them to progress, which returns
// what every_nth makes of them wrapped in tqdm: both return their
// batches. Cut at the cycle and cached, progress returned none when
// every_nth was asked first; in the ring first_of → third_of → second_of
// → first_of, the members that return their batches only through the ring
// kept none when the walk cut there.
func TestReturnedParamsOfCyclesIndependentOfOrder(t *testing.T) {
	const src = `from tqdm import tqdm


def every_nth(batches, n=1):
    if n > 1:
        return progress(batches, desc=f"every {n}th batch")
    return batches


def progress(batches, desc="epoch"):
    return every_nth(tqdm(batches, desc=desc))


def first_of(batches, *rest):
    return batches if rest else third_of(batches)


def second_of(batches):
    return first_of(batches)


def third_of(batches):
    return second_of(batches)
`
	tests := [][]string{{"every_nth", "progress"}, {"first_of", "second_of", "third_of"}}
	for _, members := range tests {
		for _, order := range permutations(len(members)) {
			m := load(t, memSource{"/p/loop.py": src}, "/p/loop.py")
			got := make([][]string, len(members))
			for _, i := range order {
				got[i] = funcNamed(m, members[i]).returnedParams()
			}
			for i, params := range got {
				want := []string{"batches"}
				if members[i] == "progress" {
					want = append(want, "desc") // tqdm wraps each argument
				}
				if !slices.Equal(params, want) {
					t.Errorf("%v asked in the order %v: %s returns %q, want %q", members, order, members[i], params, want)
				}
			}
		}
	}
}
