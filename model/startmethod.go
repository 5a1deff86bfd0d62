package model

import (
	"fmt"
	"sort"
	"strings"

	"github.com/cudaforklint/cudaforklint/pytarget"
	"github.com/cudaforklint/cudaforklint/syntax"
)

// Start methods: how each process start makes its children. A start uses
// the method its API or its arguments name (os.fork, Pool(context=...),
// get_context("spawn").Process), or else its family's current method: the
// one set_start_method chose on the path to it, or the platform's default
// for the target configuration. The fork-after-init hazards (CFL001,
// CFL003) need the method to be fork; forkserver and spawn starts lead to
// the top-level checks (toplevel.go).

// familyDefault is the method bit for the family's default, unchanged.
const familyDefault = 1 << 3

// familyUnseen marks a family whose method a set_start_method chose from a
// value the model could not evaluate (`mp.set_start_method(cfg.start)`):
// the default stands in for it, but is not known to be the method
// (StartRecord.MethodUnseen).
const familyUnseen = 1 << 4

// methodBits is a set of start methods (bitOf), with familyDefault.
type methodBits uint8

func bitOf(m pytarget.StartMethod) methodBits { return 1 << m }

// methodState is what set_start_method has chosen so far, per family: the
// possible methods (several after a join of paths that chose differently;
// familyDefault on a path that chose none), and the string literal that
// named each method, for fixes and notes. The literals are kept per method:
// after a join of a path that set "fork" with one that kept the default,
// the "fork" literal is where fork was chosen, not where the default was.
type methodState struct {
	methods    map[string]methodBits
	methodLits map[methodLitKey]Site
}

// methodLitKey is a family's method, whose literal methodLits keeps.
type methodLitKey struct {
	family string
	method pytarget.StartMethod
}

func newMethodState() methodState {
	return methodState{methods: map[string]methodBits{}, methodLits: map[methodLitKey]Site{}}
}

// clone copies the state's maps; an empty one stays nil (most paths choose
// no method, and the simulation clones its state at every branch), which
// writable allocates before a write.
func (s methodState) clone() methodState {
	var c methodState
	if len(s.methods) > 0 {
		c.methods = make(map[string]methodBits, len(s.methods))
		for k, v := range s.methods {
			c.methods[k] = v
		}
	}
	if len(s.methodLits) > 0 {
		c.methodLits = make(map[methodLitKey]Site, len(s.methodLits))
		for k, v := range s.methodLits {
			c.methodLits[k] = v
		}
	}
	return c
}

// writable gives the state maps to write into.
func (s *methodState) writable() {
	if s.methods == nil {
		s.methods = map[string]methodBits{}
	}
	if s.methodLits == nil {
		s.methodLits = map[methodLitKey]Site{}
	}
}

// join merges the choices of another path into s: a family may use any
// method either path chose, and its default where one path chose none.
func (s *methodState) join(o methodState) {
	if len(o.methods) > 0 || len(o.methodLits) > 0 {
		s.writable()
	}
	for k, v := range o.methods {
		s.methods[k] = s.methodsOf(k) | v
	}
	for k := range s.methods {
		if _, ok := o.methods[k]; !ok {
			s.methods[k] |= familyDefault
		}
	}
	for k, v := range o.methodLits {
		if _, ok := s.methodLits[k]; !ok {
			s.methodLits[k] = v
		}
	}
}

// methodsOf is the set of methods a family may use; familyDefault alone
// when nothing chose one.
func (s *methodState) methodsOf(family string) methodBits {
	if b, ok := s.methods[family]; ok {
		return b
	}
	return familyDefault
}

// setMethod records set_start_method(spec).
func (s *methodState) setMethod(spec MethodSpec) {
	switch spec.Kind {
	case MethodExplicit:
		s.writable()
		s.methods[spec.Family] = bitOf(spec.Method)
		s.dropLits(spec.Family)
		if spec.Lit.Valid() {
			s.methodLits[methodLitKey{spec.Family, spec.Method}] = spec.Lit
		}
	case MethodUnknown:
		// Chosen at run time: the default stands in for it, marked
		// unseen.
		s.writable()
		s.methods[spec.Family] = familyDefault | familyUnseen
		s.dropLits(spec.Family)
	}
}

// dropLits forgets the literals of every method of family: a later setter
// replaced them.
func (s *methodState) dropLits(family string) {
	for k := range s.methodLits {
		if k.family == family {
			delete(s.methodLits, k)
		}
	}
}

// setMethodIfUnset records a setter that keeps a method chosen before: on
// the paths where none was, spec's becomes the family's.
func (s *methodState) setMethodIfUnset(spec MethodSpec) {
	bits, chosen := s.methods[spec.Family]
	switch {
	case !chosen:
		s.setMethod(spec)
	case bits&familyDefault != 0 && spec.Kind == MethodExplicit:
		s.writable()
		s.methods[spec.Family] = bits&^familyDefault | bitOf(spec.Method)
		if k := (methodLitKey{spec.Family, spec.Method}); spec.Lit.Valid() && !s.methodLits[k].Valid() {
			s.methodLits[k] = spec.Lit
		}
	case bits&familyDefault != 0 && spec.Kind == MethodUnknown:
		s.writable()
		s.methods[spec.Family] = bits | familyUnseen
	}
}

// methodsFor resolves an object's start method against the state.
func (s *simulator) methodsFor(o *Object, st *simState) (methodBits, bool, func(pytarget.StartMethod) Site) {
	if o.Kind == ObjFork {
		return bitOf(pytarget.Fork), true, func(pytarget.StartMethod) Site { return Site{} }
	}
	if o.Method.Kind == MethodExplicit {
		return bitOf(o.Method.Method), true, func(pytarget.StartMethod) Site { return o.Method.Lit }
	}
	bits := st.methodsOf(o.Method.Family) &^ familyUnseen
	explicit := bits&familyDefault == 0
	if bits&familyDefault != 0 {
		bits = bits&^familyDefault | bitOf(s.defaultStartMethod(o.Method.Family))
	}
	return bits, explicit, func(m pytarget.StartMethod) Site { return st.methodLits[methodLitKey{o.Method.Family, m}] }
}

// methodUnseen says why the start method of a start of o that takes the
// family's default (explicit false, from methodsFor) is not known to be
// that default, or "": the object's method argument, or an earlier
// set_start_method's, could not be evaluated; or the entry is a package
// module that is not run as a script (mainmodule.go), so the program that
// imports it, whose entry point may choose a method, was not seen. An
// error needs the method seen: such a fork is CFL003, not CFL001.
func (s *simulator) methodUnseen(o *Object, explicit bool, st *simState) string {
	if explicit {
		return ""
	}
	switch {
	case o.Method.Kind == MethodUnknown:
		return "its start method is given by a value the analysis could not evaluate"
	case st.methodsOf(o.Method.Family)&familyUnseen != 0:
		return "the start method was set from a value the analysis could not evaluate"
	case s.entry.role() == roleLibrary:
		return fmt.Sprintf("`%s` is a package module that is not run as a script (%s), and the start method the program importing it chooses could not be seen",
			s.entry.Name, s.entry.libraryWhy())
	}
	return ""
}

// methodSpec evaluates a start-method argument: a string, a context, None.
func (ev *evaluator) methodSpec(e syntax.Expr, sc *Scope, family string) MethodSpec {
	spec := MethodSpec{Family: family}
	if e == nil {
		return spec
	}
	vals := ev.expr(e, sc)
	found := false
	for _, v := range vals {
		var specs []MethodSpec
		switch v.Kind {
		case VStr:
			meth, ok := pytarget.ParseStartMethod(v.Str)
			if !ok || v.Interp {
				continue
			}
			s := MethodSpec{Family: family, Kind: MethodExplicit, Method: meth}
			if lit, ok := e.(*syntax.String); ok {
				s.Lit = Site{sc.Module, lit.Span}
			}
			specs = []MethodSpec{s}
		case VContext:
			specs = []MethodSpec{v.spec()}
		case VInstance:
			specs = ev.wrappedContexts(v)
		}
		for _, s := range specs {
			if s.Family == "" {
				s.Family = family
			}
			// Several possible methods: keep fork if it is one of them,
			// since that is the one that can break.
			if !found || (s.Kind == MethodExplicit && s.Method == pytarget.Fork) {
				spec, found = s, true
			}
		}
	}
	if !found {
		for _, v := range vals {
			if v.Kind != VConst {
				spec.Kind = MethodUnknown
			}
		}
	}
	return spec
}

// wrappedContexts are the start methods an instance of a local class used
// as a multiprocessing context may stand for, a harness's wrapper around a
// real one (xformers' SafeMpContext): those of the processes its Process
// method makes, or, for a class that delegates its attributes
// (__getattr__), of the contexts its instances hold. None when neither
// tells; methodSpec chooses among them as among any values.
func (ev *evaluator) wrappedContexts(v Value) []MethodSpec {
	var specs []MethodSpec
	if f := ev.method(v.Class, "Process", 0); f != nil {
		for _, r := range ev.returns(f) {
			if r.Kind == VObject && r.Obj.Kind == ObjProcess {
				specs = append(specs, r.Obj.Method)
			}
		}
	} else if ev.method(v.Class, "__getattr__", 0) != nil {
		// The attributes read on the instance, in the context of the call
		// that made it: Delegating("spawn") holds get_context(method).
		names := make([]string, 0, len(v.Class.SelfAttrs))
		for name := range v.Class.SelfAttrs {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			for _, x := range ev.attrOf(v, name) {
				if x.Kind == VContext {
					specs = append(specs, x.spec())
				}
			}
		}
	}
	return specs
}

// A test of the start method chosen so far guards many setters: `if
// mp.get_start_method(allow_none=True) is None: mp.set_start_method("spawn")`
// sets it only where nothing chose one yet, and `if mp.get_start_method() !=
// "spawn": mp.set_start_method("spawn", force=True)` leaves it "spawn"
// either way. The model cannot evaluate the query, which depends on what
// ran before; read as an unknown test, one arm would keep the default method
// and every later fork would be reported. methodGuard reads such a test, and
// the builder (guardedSetter) runs the arm as the process would.

// methodGuardKind is what an if test on the chosen start method says of
// its body.
type methodGuardKind uint8

const (
	noMethodGuard    methodGuardKind = iota
	runsWhenUnset                    // `q is None`, `q == None`, `not q`: the body runs while no method is chosen
	runsWhenSet                      // `q is not None`, `q != None`, `q`: the else arm runs while none is
	runsUnlessMethod                 // `q != "spawn"`: after the body, the method is the one it sets
)

// methodGuard classifies an if test on get_start_method's result (the call
// itself or a name bound to it).
func (ev *evaluator) methodGuard(test syntax.Expr, sc *Scope) methodGuardKind {
	switch t := test.(type) {
	case *syntax.UnaryOp:
		if t.Op == "not" && ev.isMethodQuery(t.X, sc) {
			return runsWhenUnset
		}
	case *syntax.Compare:
		if len(t.Ops) != 1 || !ev.isMethodQuery(t.Left, sc) {
			return noMethodGuard
		}
		c, isConst := t.Comparators[0].(*syntax.Constant)
		none := isConst && c.Kind == syntax.ConstNone
		_, isStr := t.Comparators[0].(*syntax.String)
		switch op := t.Ops[0]; {
		case none && (op == "is" || op == "=="):
			return runsWhenUnset
		case none && (op == "is not" || op == "!="):
			return runsWhenSet
		case !none && (op == "!=" || op == "is not") && (isStr || !isConst):
			return runsUnlessMethod
		}
	default:
		if ev.isMethodQuery(test, sc) {
			return runsWhenSet
		}
	}
	return noMethodGuard
}

// isMethodQuery reports whether e is the result of get_start_method (of
// multiprocessing, torch.multiprocessing, multiprocess or a context).
func (ev *evaluator) isMethodQuery(e syntax.Expr, sc *Scope) bool {
	for _, v := range ev.expr(e, sc) {
		if v.Kind == VPath && strings.HasSuffix(v.Path, ".get_start_method()") {
			return true
		}
	}
	return false
}

// guardedSetter builds an if statement whose test is on the chosen start
// method (methodGuard); it reports false for any other if. The arm that
// runs while no method is chosen has its setters marked ifUnset and runs on
// every path; the other arm may run or not.
func (b *builder) guardedSetter(s *syntax.If) (handled bool) {
	g := b.ev.methodGuard(s.Test, b.sc)
	if g == noMethodGuard {
		return false
	}
	always, maybe := s.Body, s.Else
	if g == runsWhenSet {
		always, maybe = s.Else, s.Body
	}
	n := len(b.out)
	b.stmts(always)
	if g != runsUnlessMethod {
		markIfUnset(b.out[n:])
	}
	b.branch([][]event{b.sub(func() { b.stmts(maybe) }), nil})
	return true
}

// markIfUnset makes the start-method setters among events (and nested in
// them) set the method only where none is chosen yet.
func markIfUnset(events []event) {
	for i := range events {
		e := &events[i]
		if e.kind == evEffect && e.eff.kind == effSetMethod {
			e.eff.ifUnset = true
		}
		for _, arm := range e.arms {
			markIfUnset(arm)
		}
	}
}
