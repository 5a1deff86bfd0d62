package model

import (
	"slices"
	"strings"

	"github.com/cudaforklint/cudaforklint/catalog"
	"github.com/cudaforklint/cudaforklint/syntax"
)

// This file reads the conditions of the catalog rows of the libraries above
// torch: a flag that keeps a library on the CPU (Accelerator(cpu=True)), and
// a device map that places weights on a GPU (from_pretrained(...,
// device_map="auto")); and it keeps the rows of a library that the checked
// project holds itself out of that project (shadowed). catalogEffect
// (call.go) asks both.

// shadowed reports whether a catalog row belongs to a library that is read
// from source where the checked project holds it (catalog.LocalFirst), and
// the calling module's project does hold its top-level package: inside
// DeepSpeed's own tree the row does not stand in for its code, even where a
// setup.py package mapping (accelerator/ installed as deepspeed.accelerator)
// hides that code from import resolution.
func (ev *evaluator) shadowed(e *catalog.Entry, sc *Scope) bool {
	root, _, _ := strings.Cut(e.Name, ".")
	if !slices.Contains(catalog.LocalFirst(), root) {
		return false
	}
	_, local := sc.Module.resolveImport(root, 0)
	return local
}

// conditionHolds reports whether a call meets the condition of a row of
// kind UnlessFlag or DeviceMapArg.
func (ev *evaluator) conditionHolds(e *catalog.Entry, c *syntax.Call, sc *Scope) bool {
	switch e.When {
	case catalog.UnlessFlag:
		// Only a flag that is always set stops it: Accelerator(cpu=args.cpu)
		// with --cpu a store_true option initializes CUDA in the default run.
		for _, kw := range e.Flags {
			if arg := argExpr(c, -1, kw); arg != nil {
				if t, known := truthOfAll(ev.expr(arg, sc)); known && t {
					return false
				}
			}
		}
		return true
	case catalog.DeviceMapArg:
		return ev.placesOnGPU(argExpr(c, e.Device.Pos, e.Device.Keyword), sc)
	}
	return true
}

// cpuPlacements are the device-map strings that keep weights off the GPUs.
var cpuPlacements = map[string]bool{"cpu": true, "meta": true, "disk": true}

// placesOnGPU reports whether a device_map argument may put weights on a GPU:
// a placement strategy ("auto", "balanced", "balanced_low_0", "sequential"),
// a CUDA device, string or index, or a dict display with such a value.
// An absent argument, a CPU placement, or a value the model cannot read
// does not count.
func (ev *evaluator) placesOnGPU(e syntax.Expr, sc *Scope) bool {
	if e == nil {
		return false
	}
	if d, ok := e.(*syntax.Dict); ok {
		for _, v := range d.Values {
			if ev.placesOnGPU(v, sc) {
				return true
			}
		}
		return false
	}
	for _, v := range ev.expr(e, sc) {
		switch {
		case v.Kind == VStr && !v.Interp:
			if !cpuPlacements[strings.ToLower(v.Str)] {
				return true
			}
		case v.Kind == VStr && v.Interp && strings.HasPrefix(v.Str, "cuda"):
			return true
		case v.Kind == VInt, v.Kind == VDevice && v.Dev == DevCUDA:
			return true
		case held(v) == DevCUDA:
			return true
		}
	}
	return false
}
