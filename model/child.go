package model

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
		if site, what, ok := s.funcMaybeTouches(t.Func, 0); ok {
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
			if site, what, ok := s.funcMaybeTouches(e.fn, depth+1); ok {
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

func (s *simulator) funcMaybeTouches(f *Function, depth int) (Site, string, bool) {
	vs := f.Module.Prog.values()
	m := vs.maybe[f]
	switch {
	case m == nil:
		m = &maybeMemo{}
		vs.maybe[f] = m
	case m.state == factDone:
		return m.site, m.what, m.ok
	case m.state == factBusy:
		return Site{}, "", false
	}
	m.state = factBusy
	site, what, ok := s.maybeTouches(f.summaryOf(), depth)
	*m = maybeMemo{state: factDone, site: site, what: what, ok: ok}
	return site, what, ok
}
