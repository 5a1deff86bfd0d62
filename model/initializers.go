package model

import (
	"slices"
	"strings"

	"github.com/cudaforklint/cudaforklint/catalog"
	"github.com/cudaforklint/cudaforklint/syntax"
)

// This file reads the arguments that decide whether a catalog row applies:
// the switches that turn an initializer off (torch.autocast("cuda",
// enabled=False), Accelerator(cpu=True)), and a device map that places
// weights on a GPU (from_pretrained(..., device_map="auto")); and it keeps
// the rows of a library that the checked project holds itself out of that
// project (shadowed). catalogEffect (call.go) asks all three.

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
// kind DeviceMapArg.
func (ev *evaluator) conditionHolds(e *catalog.Entry, c *syntax.Call, sc *Scope) bool {
	if e.When == catalog.DeviceMapArg {
		return ev.placesOnGPU(argExpr(c, e.Device.Pos, e.Device.Keyword), sc)
	}
	return true
}

// switchState is what a call's switch arguments (catalog.Switch) say.
type switchState uint8

const (
	switchOn     switchState = iota // no switch passed, or one that may leave the effect on
	switchOff                       // a switch is passed, and every value it may have turns the effect off
	switchUnseen                    // a switch is passed whose value could not be evaluated
)

// switched reads the switches of row e in call c. Only a switch whose every
// value turns the effect off stops it: Accelerator(cpu=args.cpu) with --cpu
// a store_true option initializes CUDA in the default run. A value the model
// cannot evaluate (enabled=self.use_amp) proves neither: it is reported as
// unseen, with the argument as written (keyword=source), unless another
// value of it enables the effect.
func (ev *evaluator) switched(e *catalog.Entry, c *syntax.Call, sc *Scope) (switchState, string) {
	unseen := ""
	for _, sw := range e.Off {
		arg := argExpr(c, sw.Arg.Pos, sw.Arg.Keyword)
		if arg == nil {
			continue
		}
		vals := ev.expr(arg, sc)
		off, on := len(vals) > 0, false
		for _, v := range vals {
			t, known := truthOf(v)
			switch {
			case !known:
				off = false
			case t != sw.Off:
				off, on = false, true
			}
		}
		switch {
		case off:
			return switchOff, ""
		case !on && unseen == "":
			unseen = sw.Arg.Keyword + "=" + sourceText(sc.Module, arg)
		}
	}
	if unseen != "" {
		return switchUnseen, unseen
	}
	return switchOn, ""
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
