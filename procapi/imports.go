package procapi

import "strings"

// ImportSetter is a library whose import sets the start method of a
// multiprocessing family: importing any module of it runs its package's
// __init__, and so the setter, in the importing process.
type ImportSetter struct {
	// Module is the top-level package ("torchrl").
	Module string
	// Family is the multiprocessing family whose method it sets.
	Family string
	// StartMethod is the method it sets.
	StartMethod string
	// IfUnset: it sets the method only when none was set before the
	// import (mp.set_start_method without force=True raises then, and the
	// library catches it).
	IfUnset bool
	// Evidence is the source or measurement the row rests on.
	Evidence string
}

// importSetters is the table. Libraries measured not to set a start method
// when imported (shared/ground-truth/libraries.md): torch, lightning,
// pytorch_lightning, accelerate, transformers, torch_geometric, jax,
// numba.cuda, cupy, sentence_transformers, timm, torchvision, torchmetrics,
// peft, flax, optax, cuda.core.
var importSetters = []ImportSetter{
	{Module: "torchrl", Family: "multiprocessing", StartMethod: "spawn", IfUnset: true,
		Evidence: "torchrl/__init__.py (pytorch/rl ae9719f, 2026-08): `if _get_default_mp_start_method() == \"spawn\": " +
			"mp.set_start_method(\"spawn\")` with torch.multiprocessing, where _get_default_mp_start_method returns the " +
			"method already set, else \"spawn\" (torchrl/_utils.py); earlier releases call mp.set_start_method(\"spawn\") " +
			"in a try/except RuntimeError, which also keeps a method set before. shared/ground-truth/libraries.md"},
}

// ImportSetters returns the table of libraries that set the start method
// when imported.
func ImportSetters() []ImportSetter { return importSetters }

// LookupImport finds the library a module name belongs to, if its import
// sets the start method.
func LookupImport(module string) (*ImportSetter, bool) {
	root, _, _ := strings.Cut(module, ".")
	for i := range importSetters {
		if importSetters[i].Module == root {
			return &importSetters[i], true
		}
	}
	return nil, false
}
