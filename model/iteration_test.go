package model

import (
	"testing"

	"github.com/cudaforklint/cudaforklint/syntax"
)

// TestLoaderUse checks what each kind of call is taken to do with the
// DataLoaders handed to it.
func TestLoaderUse(t *testing.T) {
	src := `import itertools
import accelerate
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
		{"local(loader)", useLocal},
		{"DataLoader(loader)", useIgnores},
	}
	for _, tt := range tests {
		m := load(t, memSource{"/p/m.py": src + "x = " + tt.call + "\n"}, "/p/m.py")
		a := m.File.Body[len(m.File.Body)-1].(*syntax.Assign)
		c := a.Value.(*syntax.Call)
		var ev evaluator
		if got, _ := ev.loaderUse(c, m.Scope); got != tt.want {
			t.Errorf("%s: use %d, want %d", tt.call, got, tt.want)
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
