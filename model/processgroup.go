package model

import (
	"strings"

	"github.com/cudaforklint/cudaforklint/syntax"
)

// Distributed code often branches on the process group's backend:
//
//	device = -1 if dist.get_backend() != "nccl" else torch.cuda.current_device()
//
// The CUDA arm runs only in a process whose default process group uses NCCL.
// A forked child that set up its group with gloo (allennlp's distributed test
// harness, detectron2's and fairseq's gloo groups) never takes it. The
// summary marks such an arm (event.ncclArm), init_process_group records the
// backend it was given (effProcessGroup), and the walk that asks whether a
// child touches CUDA (simulator.touches) skips the arm once the child is
// known to have set up a group without NCCL. Nothing else changes: the
// parent's simulation still runs every arm.

// groupState is what a walk knows of the default process group's backend.
type groupState uint8

const (
	groupUnknown groupState = iota // not set up yet, or by a backend that may be NCCL
	groupNoNCCL                    // set up with a backend that is not NCCL (gloo, mpi)
)

func (g groupState) join(o groupState) groupState {
	if g == o {
		return g
	}
	return groupUnknown
}

// initProcessGroupPaths are the calls that set up the default process group.
var initProcessGroupPaths = map[string]bool{
	"torch.distributed.init_process_group":                   true,
	"torch.distributed.distributed_c10d.init_process_group":  true,
	"torch.distributed.deprecated.init_process_group":        true,
	"torch.distributed.distributed_c10d._init_process_group": true,
}

// processGroupEffect is the effect of init_process_group(backend, ...): its
// api is the backend when every value it may have is a string naming no
// NCCL ("gloo", "mpi"), else "" (NCCL, "cpu:gloo,cuda:nccl", the default,
// or a value the model cannot read).
func (ev *evaluator) processGroupEffect(c *syntax.Call, sc *Scope, site Site) effect {
	e := effect{kind: effProcessGroup, site: site}
	arg := argExpr(c, 0, "backend")
	if arg == nil {
		return e
	}
	vs := ev.expr(arg, sc)
	backend := ""
	for _, v := range vs {
		if v.Kind != VStr || v.Interp || v.Str == "" || strings.Contains(strings.ToLower(v.Str), "nccl") {
			return e
		}
		backend = v.Str
	}
	e.api = backend
	return e
}

// ncclArm returns the 1-based index of the arm of `if test:` (then, else)
// that runs only when the process group's backend is NCCL, or 0.
func (b *builder) ncclArm(test syntax.Expr) int8 {
	t, ok := test.(*syntax.Compare)
	if !ok || len(t.Ops) != 1 {
		return 0
	}
	var eq bool
	switch t.Ops[0] {
	case "==", "is":
		eq = true
	case "!=", "is not":
	default:
		return 0
	}
	l, r := t.Left, t.Comparators[0]
	if !spellsNCCL(l) && !spellsNCCL(r) {
		return 0 // most tests: nothing to evaluate
	}
	if !(b.isBackendQuery(l) && b.namesNCCL(r) || b.isBackendQuery(r) && b.namesNCCL(l)) {
		return 0
	}
	if eq {
		return 1
	}
	return 2
}

// spellsNCCL reports whether e is written "nccl" or X.NCCL.
func spellsNCCL(e syntax.Expr) bool {
	switch e := e.(type) {
	case *syntax.String:
		return strings.EqualFold(e.Value, "nccl")
	case *syntax.Attribute:
		return e.Attr == "NCCL"
	}
	return false
}

// isBackendQuery reports whether e is dist.get_backend() (directly or
// through a name bound to it).
func (b *builder) isBackendQuery(e syntax.Expr) bool {
	vs := b.ev.expr(e, b.sc)
	for _, v := range vs {
		if v.Kind != VPath || !strings.HasPrefix(v.Path, "torch.distributed.") || !strings.HasSuffix(v.Path, ".get_backend()") {
			return false
		}
	}
	return len(vs) > 0
}

// namesNCCL reports whether e is "nccl" or dist.Backend.NCCL.
func (b *builder) namesNCCL(e syntax.Expr) bool {
	vs := b.ev.expr(e, b.sc)
	for _, v := range vs {
		switch {
		case v.Kind == VStr && !v.Interp && strings.EqualFold(v.Str, "nccl"):
		case v.Kind == VPath && strings.HasPrefix(v.Path, "torch.distributed.") && strings.HasSuffix(v.Path, ".Backend.NCCL"):
		default:
			return false
		}
	}
	return len(vs) > 0
}
