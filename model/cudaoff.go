package model

import (
	"github.com/cudaforklint/cudaforklint/procapi"
	"github.com/cudaforklint/cudaforklint/syntax"
)

// Worker counts turned off where CUDA is available. MONAI's tests write
//
//	num_workers = 0 if sys.platform != "linux" or torch.cuda.is_available() else 2
//	loader = DataLoader(dataset, num_workers=num_workers)
//
// The loader forks only where torch.cuda.is_available() returns False. A
// parent that initialized CUDA did so on a machine with a usable GPU, where
// is_available() returns True (testdata/groundtruth/probes-2026-12.md:
// the call initializes CUDA and answers for the host's devices), so on
// every path where the fork could meet an initialization there is no fork:
// the initialization and the fork are on exclusive outcomes of the same
// question. What does not need CUDA (a start at import time, CFL005) still
// counts.

// noWorkersWithCUDA reports whether the Workers count of call c is below
// the row's least count whenever torch.cuda.is_available() returns True.
// It decides only what it reads without the call's context: literals on
// the arm that is_available() selects, through conditional expressions,
// if statements and names bound in reach of the call.
func (ev *evaluator) noWorkersWithCUDA(api *procapi.API, c *syntax.Call, sc *Scope) bool {
	w := argOf(c, api.Workers)
	if w == nil {
		return false
	}
	least := max(api.MinWorkers, 1)
	return ev.zeroWithCUDA(w, sc, int(w.Pos().Start), least, 0)
}

// zeroWithCUDA reports whether e, read at pos in sc, is a count below
// least on every path where is_available() returned True; it answers false
// wherever a CUDA test does not decide (the plain count is startsWorkers'
// business).
func (ev *evaluator) zeroWithCUDA(e syntax.Expr, sc *Scope, pos, least, depth int) bool {
	if depth > 8 {
		return false
	}
	switch e := e.(type) {
	case *syntax.Number:
		vs := ev.expr(e, sc)
		return len(vs) == 1 && vs[0].Kind == VInt && vs[0].Int >= 0 && vs[0].Int < least
	case *syntax.IfExp:
		t, known := ev.truthWithCUDA(e.Test, sc)
		switch {
		case !known:
			return ev.zeroWithCUDA(e.Body, sc, pos, least, depth+1) && ev.zeroWithCUDA(e.Else, sc, pos, least, depth+1)
		case t:
			return ev.zeroWithCUDA(e.Body, sc, pos, least, depth+1)
		}
		return ev.zeroWithCUDA(e.Else, sc, pos, least, depth+1)
	case *syntax.Name:
		bs := ev.reaching(lookup(e.ID, sc), e.ID, sc, pos)
		live := 0
		for _, b := range bs {
			if b.Scope == nil || ev.deadWithCUDA(b) {
				continue
			}
			if b.Kind != BindAssign || b.path != nil || b.Value == nil ||
				!ev.zeroWithCUDA(b.Value, b.Scope, int(b.Span.Start), least, depth+1) {
				return false
			}
			live++
		}
		return live > 0
	}
	return false
}

// deadWithCUDA reports whether b is bound in an arm of an if that a test
// on is_available() keeps from running where it returns True.
func (ev *evaluator) deadWithCUDA(b *Binding) bool {
	for _, a := range b.Scope.ifArmsOf() {
		inBody, inAlt := a.body.Contains(b.Span), a.alts.Len() > 0 && a.alts.Contains(b.Span)
		if !inBody && !inAlt {
			continue
		}
		if t, known := ev.truthWithCUDA(a.stmt.Test, b.Scope); known && (inBody && !t || inAlt && t) {
			return true
		}
	}
	return false
}

// truthWithCUDA is the truth of test where torch.cuda.is_available()
// returns True, when a call of it decides the test: `not`, `or` with one
// true side, `and` with one false side. Other tests are not decided here.
func (ev *evaluator) truthWithCUDA(test syntax.Expr, sc *Scope) (value, known bool) {
	switch e := test.(type) {
	case *syntax.Call:
		return true, len(e.Args) == 0 && ev.isCUDAAvailable(e.Func, sc)
	case *syntax.UnaryOp:
		if e.Op == "not" {
			v, ok := ev.truthWithCUDA(e.X, sc)
			return !v, ok
		}
	case *syntax.BoolOp:
		x, xok := ev.truthWithCUDA(e.X, sc)
		y, yok := ev.truthWithCUDA(e.Y, sc)
		if e.Op == "or" {
			return true, xok && x || yok && y
		}
		return false, xok && !x || yok && !y
	}
	return false, false
}

// isCUDAAvailable reports whether f is torch.cuda.is_available.
func (ev *evaluator) isCUDAAvailable(f syntax.Expr, sc *Scope) bool {
	vs := ev.expr(f, sc)
	for _, v := range vs {
		if v.Kind != VPath && v.Kind != VFunc || v.Path != "torch.cuda.is_available" {
			return false
		}
	}
	return len(vs) > 0
}
