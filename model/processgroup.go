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
// A worker that set up its group with gloo (allennlp's distributed test
// harness, detectron2's and fairseq's gloo groups) never takes it, and the
// value the test picks is a CPU one. So the backend is a property of call
// contexts: a call made after the enclosing function set up a group with a
// backend that is not NCCL (init_process_group("gloo") earlier in its body,
// in the arm its context takes, directly or in a local function it calls
// there), or made in a context that has one, gives the callee's context
// that backend (callContext.backend), and dist.get_backend() evaluates to it
// there: the tests on it are decided, in values and in summaries alike.
// Code evaluated without such a context keeps both arms.

// initProcessGroupPaths are the calls that set up the default process group.
var initProcessGroupPaths = map[string]bool{
	"torch.distributed.init_process_group":                   true,
	"torch.distributed.distributed_c10d.init_process_group":  true,
	"torch.distributed.deprecated.init_process_group":        true,
	"torch.distributed.distributed_c10d._init_process_group": true,
}

// backendQueryPaths are the calls that return the default group's backend.
var backendQueryPaths = map[string]bool{
	"torch.distributed.get_backend":                  true,
	"torch.distributed.distributed_c10d.get_backend": true,
}

// backendConstants are the names torch.distributed.Backend gives its
// backends: each is the string itself (Backend is a str subclass).
var backendConstants = map[string]string{
	"torch.distributed.Backend.NCCL": "nccl",
	"torch.distributed.Backend.GLOO": "gloo",
	"torch.distributed.Backend.MPI":  "mpi",
	"torch.distributed.Backend.UCC":  "ucc",
}

// maxBackendCallDepth bounds how deep backendBefore follows local calls.
const maxBackendCallDepth = 3

// backendOf is the backend init_process_group(backend, ...) is given, when
// every value it may have is a string naming no NCCL ("gloo", "mpi"); else
// "" (NCCL, "cpu:gloo,cuda:nccl", the default, or a value the model cannot
// read).
func (ev *evaluator) backendOf(c *syntax.Call, sc *Scope) string {
	arg := argExpr(c, 0, "backend")
	if arg == nil {
		return ""
	}
	backend := ""
	for _, v := range ev.expr(arg, sc) {
		if v.Kind != VStr || v.Interp || v.Str == "" || strings.Contains(strings.ToLower(v.Str), "nccl") {
			return ""
		}
		backend = v.Str
	}
	return backend
}

// backendIn is the backend of the process group where code in sc runs, as
// its context knows it ("" when unknown or NCCL).
func (ev *evaluator) backendIn(sc *Scope) string {
	if c := ev.ctx.owning(sc); c != nil {
		return c.backend
	}
	return ""
}

// backendAt is the backend known where call c runs: set up before it in
// its function's body, else inherited from the function's context. Only
// bodies in modules that name init_process_group are read (a setup helper
// of another module, called from a module that does not, is not seen):
// the question is asked at every local call.
func (ev *evaluator) backendAt(c *syntax.Call, sc *Scope) string {
	if f := sc.Func; f != nil && f.Def != nil && sc == f.Scope && f.Module.setsUpGroup {
		if b, ok := ev.backendBefore(f.Def.Body(), c.Span.Start, sc, 0); ok {
			return b
		}
	}
	return ev.backendIn(sc)
}

// backendBefore finds the last group set up in list before pos, on every
// path to it: statements that end before pos, and inside the statement
// around pos, those of the block that holds it. It reports whether one was
// set up (the backend is "" for NCCL or one the model cannot read).
func (ev *evaluator) backendBefore(list []syntax.Stmt, pos int32, sc *Scope, depth int) (string, bool) {
	backend, found := "", false
	for _, s := range list {
		if s.Pos().Start >= pos {
			break
		}
		if s.Pos().End <= pos {
			if b, ok := ev.setsBackend(s, sc, depth); ok {
				backend, found = b, true
			}
			continue
		}
		for _, inner := range innerBlocks(s) {
			if len(inner) > 0 && inner[0].Pos().Start <= pos && pos < inner[len(inner)-1].Pos().End {
				if b, ok := ev.backendBefore(inner, pos, sc, depth); ok {
					backend, found = b, true
				}
			}
		}
	}
	return backend, found
}

// backendInCall is what calling the local function v with c's arguments
// sets up, read in that call's context.
func (ev *evaluator) backendInCall(v Value, c *syntax.Call, sc *Scope, depth int) (string, bool) {
	f := v.Func
	saved := ev.ctx
	if ctx := ev.contextFor(v, ev.callArgs(c, sc)); ctx != nil {
		ev.ctx = ctx
	}
	defer func() { ev.ctx = saved }()
	defer ev.fresh()()
	return ev.backendBefore(f.Def.Body(), f.Def.End, f.Scope, depth+1)
}

// innerBlocks are the statement lists of a compound statement.
func innerBlocks(s syntax.Stmt) [][]syntax.Stmt {
	switch s := s.(type) {
	case *syntax.If:
		return [][]syntax.Stmt{s.Body, s.Else}
	case *syntax.For:
		return [][]syntax.Stmt{s.Body, s.Else}
	case *syntax.While:
		return [][]syntax.Stmt{s.Body, s.Else}
	case *syntax.With:
		return [][]syntax.Stmt{s.Body}
	case *syntax.Try:
		out := [][]syntax.Stmt{s.Body, s.Else, s.Finally}
		for _, h := range s.Handlers {
			out = append(out, h.Body)
		}
		return out
	}
	return nil
}

// setsBackend reports whether statement s always sets up the default
// process group, and with which backend: a call of init_process_group or
// of a local function whose body does, an if whose arms all do (or whose
// taken arm does, when the context decides the test), a with block that
// does.
func (ev *evaluator) setsBackend(s syntax.Stmt, sc *Scope, depth int) (string, bool) {
	switch s := s.(type) {
	case *syntax.ExprStmt:
		c, ok := s.X.(*syntax.Call)
		if !ok {
			return "", false
		}
		for _, v := range ev.expr(c.Func, sc) {
			switch {
			case v.Kind == VPath && initProcessGroupPaths[v.Path]:
				return ev.backendOf(c, sc), true
			case v.Kind == VFunc && v.Path == "" && v.Func.Def != nil && depth < maxBackendCallDepth && v.Func.Module.setsUpGroup:
				// setup(rank, "gloo") that calls init_process_group:
				// read in the context of this call.
				if b, ok := ev.backendInCall(v, c, sc, depth); ok {
					return b, true
				}
			}
		}
	case *syntax.If:
		if t, ok := ev.truth(s.Test, sc); ok {
			arm := s.Else
			if t {
				arm = s.Body
			}
			return ev.backendBefore(arm, s.End, sc, depth)
		}
		b1, ok1 := ev.backendBefore(s.Body, s.End, sc, depth)
		b2, ok2 := ev.backendBefore(s.Else, s.End, sc, depth)
		switch {
		case ok1 && ok2 && b1 == b2:
			return b1, true
		case ok1 || ok2:
			return "", true // set up on one path only, or differently
		}
	case *syntax.With:
		return ev.backendBefore(s.Body, s.End, sc, depth)
	}
	return "", false
}
