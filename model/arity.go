package model

import "github.com/cudaforklint/cudaforklint/syntax"

// Calls whose arguments cannot bind. Python binds a call's arguments to the
// callee's parameters before any of its body runs; a call that leaves out a
// required parameter, passes more positional arguments than the callee
// takes without *args, or passes a keyword the callee does not name without
// **kwargs raises TypeError there, and nothing of the callee runs (melo's
// data_utils.get_text calls get_bert(text, word2ph, language_str) without
// the required device, so the CUDA use of chinese_bert never runs). The
// model drops such a call's effects and values, as it does nothing for a
// statement that is never reached.
//
// It does so only when the binding is certain: the call site spreads
// nothing (*args, **kwargs), and the callee's signature is the one its def
// shows and is called with a known receiver. A decorator other than
// @staticmethod and @classmethod may replace the signature, a
// functools.partial binds arguments first, and a function read as an
// attribute of an instance or class (not of a module) may be a plain
// function stored on a class, which Python binds to the instance: those
// keep running.

// callRaises reports whether call certainly raises TypeError where it
// binds its arguments: every value its callee may be is a local function
// the arguments cannot bind. Like a raise, it then ends its path (a
// statement that makes such a call is a jump, builder.jump).
func (ev *evaluator) callRaises(call *syntax.Call, sc *Scope) bool {
	if n, ok := call.Func.(*syntax.Name); ok && len(lookup(n.ID, sc)) == 0 {
		return false // a builtin, or a name the model cannot see
	}
	callees := ev.expr(call.Func, sc)
	if len(callees) == 0 {
		return false
	}
	for _, v := range callees {
		if v.Kind != VFunc || v.Path != "" || v.Alt || !ev.cannotBind(v, call, sc) {
			return false
		}
	}
	return true
}

// cannotBind reports whether calling the function value v with the
// arguments call writes certainly raises TypeError before v's body runs.
func (ev *evaluator) cannotBind(v Value, call *syntax.Call, sc *Scope) bool {
	f := v.Func
	if f == nil || v.Partial != nil || (f.Def == nil && f.Lambda == nil) {
		return false
	}
	for _, a := range call.Args {
		if a.Star != 0 {
			return false
		}
	}
	implicit, ok := ev.implicitArgs(v, call, sc)
	if !ok {
		return false
	}
	return !bindable(f.Params(), implicit, call.Args)
}

// implicitArgs is how many arguments Python passes before those written
// (the receiver of a bound method, the class of a classmethod), and
// whether that is certain.
func (ev *evaluator) implicitArgs(v Value, call *syntax.Call, sc *Scope) (int, bool) {
	f := v.Func
	static, classMethod := false, false
	for _, d := range f.Decorators {
		n, ok := d.(*syntax.Name)
		switch {
		case ok && n.ID == "staticmethod":
			static = true
		case ok && n.ID == "classmethod":
			classMethod = true
		default:
			// It may wrap the function in one of another signature.
			return 0, false
		}
	}
	switch {
	case f.Class != nil && static:
		return 0, true
	case f.Class != nil && classMethod:
		return 1, true
	case f.Class != nil && v.Self != nil:
		return 1, true // a method read on an instance of its class
	case f.Class != nil || v.Self != nil:
		// A method read on its class (Klass.m(obj)) or stored on an
		// instance, or a function the model binds on a receiver: which
		// the call is, the model does not tell for sure.
		return 0, false
	}
	// A plain function: called by name, or read from a module. Read from
	// anything else (self.handler, where the class body says handler =
	// helper), Python may bind it.
	a, ok := call.Func.(*syntax.Attribute)
	if !ok {
		return 0, true
	}
	recv := ev.expr(a.X, sc)
	if len(recv) == 0 {
		return 0, false
	}
	for _, r := range recv {
		if r.Kind != VModule {
			return 0, false
		}
	}
	return 0, true
}

// bindable reports whether implicit leading arguments and the written
// arguments args (none spread) bind the parameters ps: no positional
// argument left over without *args, no keyword unnamed without **kwargs,
// every parameter without a default given a value. Positional-only
// parameters are not told apart from the others, so a keyword naming one
// counts as binding it: the answer errs towards bindable.
func bindable(ps []syntax.Param, implicit int, args []syntax.Arg) bool {
	positional := implicit
	var keywords []string
	for _, a := range args {
		if a.Keyword != "" {
			keywords = append(keywords, a.Keyword)
		} else {
			positional++
		}
	}
	varArgs, varKw := false, false
	for _, p := range ps {
		if p.Name == "" {
			return true // a parameter the parser could not read
		}
		switch p.Kind {
		case syntax.ParamVarArgs:
			varArgs = true
		case syntax.ParamKwArgs:
			varKw = true
		}
	}
	bound := make([]bool, len(ps))
	i := 0
	for ; i < len(ps) && positional > 0 && ps[i].Kind == syntax.ParamNormal; i++ {
		bound[i] = true
		positional--
	}
	if positional > 0 && !varArgs {
		return false
	}
	for _, k := range keywords {
		j := paramIndex(ps, k)
		if j < 0 {
			if !varKw {
				return false
			}
			continue
		}
		bound[j] = true
	}
	for j, p := range ps {
		if (p.Kind == syntax.ParamNormal || p.Kind == syntax.ParamKwOnly) && p.Default == nil && !bound[j] {
			return false
		}
	}
	return true
}
