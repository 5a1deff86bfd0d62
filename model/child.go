package model

import "github.com/cudaforklint/cudaforklint/syntax"

// What a child may touch when the model cannot place a value on the CPU or
// the GPU. The simulation's touches (simulate.go) finds the first certain
// CUDA use in a child's code; when there is none, a possible one (a value
// whose device could not be evaluated, effMaybeUse) makes the child's
// verdict ChildUnknown, with the value named, instead of a guess either way.

// maybeUsed finds a possible CUDA use in what o's children are handed or
// run: objects passed to them whose device is unknown, or a possible use in
// a target's code.
func (s *simulator) maybeUsed(o *Object) (Site, string, bool) {
	if o.ArgsDev == DevUnknown {
		return o.ArgsSite, "the objects passed to the child are on the GPU", true
	}
	for _, t := range o.Targets {
		if t.Func == nil {
			continue
		}
		if site, what, ok := s.funcMaybeTouches(t.Func, t.Ctx, 0); ok {
			return site, what, true
		}
	}
	return Site{}, "", false
}

// maybeReason is a ChildUnknown reason for a possible use.
func maybeReason(what string) string {
	return "the analysis could not tell whether " + what
}

// maybeTouches finds the first possible CUDA use in events, following local
// calls.
func (s *simulator) maybeTouches(events []event, depth int) (Site, string, bool) {
	if depth > maxCallDepth {
		return Site{}, "", false
	}
	for e := range effects(events) {
		switch e.kind {
		case effMaybeUse:
			return e.site, e.api, true
		case effCall:
			if site, what, ok := s.funcMaybeTouches(e.fn, e.ctx, depth+1); ok {
				return site, what, true
			}
		}
	}
	return Site{}, "", false
}

// maybeMemo caches maybeTouches per function.
type maybeMemo struct {
	state factState
	site  Site
	what  string
	ok    bool
}

func (s *simulator) funcMaybeTouches(f *Function, c *callContext, depth int) (Site, string, bool) {
	var m *maybeMemo
	if c != nil {
		m = &c.maybe
	} else if m = f.Module.Prog.values().maybe[f]; m == nil {
		m = &maybeMemo{}
		f.Module.Prog.values().maybe[f] = m
	}
	switch m.state {
	case factDone:
		return m.site, m.what, m.ok
	case factBusy:
		return Site{}, "", false
	}
	m.state = factBusy
	site, what, ok := s.maybeTouches(summaryIn(f, c), depth)
	*m = maybeMemo{state: factDone, site: site, what: what, ok: ok}
	return site, what, ok
}

// selfAttrRead marks the read of an instance attribute that holds device
// memory inside a method (return self.data[i] in a Dataset whose
// constructor stored CUDA tensors): a child that inherited the instance
// from its parent uses CUDA when it reads it, as nameRead has it for
// module-level objects.
func (b *builder) selfAttrRead(a *syntax.Attribute) {
	n, ok := a.X.(*syntax.Name)
	f := b.sc.Func
	if !ok || f == nil || f.Class == nil || b.sc != f.Scope || !isSelfParam(f, n.ID) || isStatic(f) {
		return
	}
	d := heldDeep(b.ev.expr(a, b.sc), 0)
	if e, ok := deviceUse(d, useName(d, "self."+a.Attr, b.m, a), Site{b.m, a.Span}); ok {
		b.effect(e)
	}
}
