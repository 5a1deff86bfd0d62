package model

import (
	"slices"
	"strconv"
	"strings"

	"github.com/cudaforklint/cudaforklint/syntax"
)

// Tests on the environment. The environment a program will run in is
// unknown, but a variable read with a default holds that default unless
// the user opts in by setting it:
//
//	if bool(int(os.getenv("CHAINERX_CUDA_CUPY_SHARE_ALLOCATOR", "0"))):
//	    _cuda.cupy_share_allocator()
//
//	if "SLURM_ARRAY_TASK_ID" in os.environ:  # inside a Slurm array job
//	    self._run_for_rank(rank)
//	else:
//	    self.launch_job()
//
// An error is a proof, and the arm only an opted-in environment runs is no
// link of one: an if whose test the defaults decide takes the default's
// arm alone, as one decided by constants does (truth.go). So the opted-in
// arm's initialization or start is not reported, and what the default arm
// does runs as it does without the variable. A variable read without a
// default (os.environ["X"]) has none to take: its value stays unknown, and
// the test keeps both arms, as one on a command-line argument does.

// envGetPaths are the calls that read one variable, with the default
// given as their second argument (None when absent).
var envGetPaths = map[string]bool{"os.environ.get": true, "os.getenv": true}

// envDefaultTruth reports the truth of test when every environment
// variable it reads holds its default, and whether that is known: false
// when the test reads no variable with a default, or in a shape not
// followed here.
func (ev *evaluator) envDefaultTruth(test syntax.Expr, sc *Scope) (bool, bool) {
	vs, ok := ev.envDefault(test, sc)
	if !ok {
		return false, false
	}
	return truthOfAll(vs)
}

// envDefault is the value of e when the environment variables it reads
// hold their defaults; ok is false when e reads none that way. It follows
// the reads themselves, the conversions and string methods around them
// (int, bool, str, .lower(), .strip()), comparisons (membership in a
// tuple, list or set written out: membership, truth.go), `in os.environ`,
// `not`, `and` and `or`, and names bound once to any of them; the other
// operand of a comparison or of `and` and `or` is evaluated as anywhere
// else. It never caches what it computes: a value under the defaults is
// only for the if it decides.
func (ev *evaluator) envDefault(e syntax.Expr, sc *Scope) ([]Value, bool) {
	if ev.depth > maxEvalDepth {
		return nil, false
	}
	ev.depth++
	defer func() { ev.depth-- }()
	switch e := e.(type) {
	case *syntax.Name:
		// A name bound once, to a read of the environment or a test on
		// one: share = os.getenv("SHARE_POOL", "0") == "1".
		bs := lookup(e.ID, sc)
		if len(bs) != 1 || bs[0].Kind != BindAssign || bs[0].Value == nil || bs[0].path != nil {
			return nil, false
		}
		return ev.envDefault(bs[0].Value, bs[0].Scope)
	case *syntax.Call:
		if v, ok := ev.envRead(e, sc); ok {
			return []Value{v}, true
		}
		return ev.envConvert(e, sc)
	case *syntax.Compare:
		if len(e.Ops) != 1 {
			return nil, false
		}
		op, left, right := e.Ops[0], e.Left, e.Comparators[0]
		if (op == "in" || op == "not in") && ev.isEnviron(right, sc) {
			if constKey(left) == "" {
				return nil, false
			}
			// An unset variable is not in the environment.
			return []Value{boolValue(op == "not in")}, true
		}
		as, aok := ev.envDefault(left, sc)
		bs, bok := ev.envDefault(right, sc)
		if !aok && !bok {
			return nil, false
		}
		if !aok {
			as = ev.expr(left, sc)
		}
		if !bok {
			bs = ev.expr(right, sc)
		}
		if t, ok := ev.membership(op, as, right, sc); ok {
			return []Value{boolValue(t)}, true
		}
		if t, ok := ev.compare(op, as, bs); ok {
			return []Value{boolValue(t)}, true
		}
		return nil, false
	case *syntax.UnaryOp:
		if e.Op != "not" {
			return nil, false
		}
		vs, ok := ev.envDefault(e.X, sc)
		if !ok {
			return nil, false
		}
		if t, known := truthOfAll(vs); known {
			return []Value{boolValue(!t)}, true
		}
		return nil, false
	case *syntax.BoolOp:
		xs, xok := ev.envDefault(e.X, sc)
		ys, yok := ev.envDefault(e.Y, sc)
		if !xok && !yok {
			return nil, false
		}
		if !xok {
			xs = ev.expr(e.X, sc)
		}
		if !yok {
			ys = ev.expr(e.Y, sc)
		}
		// As eval.go's BoolOp: `x or y` is x when x is true, y when false.
		if t, known := truthOfAll(xs); known {
			if t == (e.Op == "or") {
				return xs, true
			}
			return ys, true
		}
		return nil, false
	}
	return nil, false
}

// envRead is the default of os.environ.get(K, D) or os.getenv(K, D) with a
// constant name K and a constant default D (None when there is none).
func (ev *evaluator) envRead(c *syntax.Call, sc *Scope) (Value, bool) {
	fn := ev.expr(c.Func, sc)
	if len(fn) != 1 || fn[0].Kind != VPath || !envGetPaths[fn[0].Path] {
		return Value{}, false
	}
	if len(c.Args) > 2 || slices.ContainsFunc(c.Args, func(a syntax.Arg) bool { return a.Star != 0 }) || constKey(argExpr(c, 0, "key")) == "" {
		return Value{}, false
	}
	def := argExpr(c, 1, "default")
	if def == nil {
		return Value{Kind: VConst, Int: int(syntax.ConstNone)}, true
	}
	ds := ev.expr(def, sc)
	if len(ds) != 1 {
		return Value{}, false
	}
	switch d := ds[0]; {
	case d.Kind == VStr && !d.Interp, d.Kind == VInt, d.Kind == VConst:
		return d, true
	}
	return Value{}, false
}

// envConvert follows int(), bool() and str() of a value read from the
// environment, and its .lower(), .upper() and .strip().
func (ev *evaluator) envConvert(c *syntax.Call, sc *Scope) ([]Value, bool) {
	if len(c.Args) > 1 || (len(c.Args) == 1 && (c.Args[0].Keyword != "" || c.Args[0].Star != 0)) {
		return nil, false
	}
	switch f := c.Func.(type) {
	case *syntax.Name:
		if len(c.Args) != 1 || len(lookup(f.ID, sc)) > 0 {
			return nil, false
		}
		vs, ok := ev.envDefault(c.Args[0].Value, sc)
		if !ok || len(vs) != 1 {
			return nil, false
		}
		v := vs[0]
		switch f.ID {
		case "bool":
			if t, known := truthOf(v); known {
				return []Value{boolValue(t)}, true
			}
		case "int":
			switch {
			case v.Kind == VInt:
				return vs, true
			case v.Kind == VStr:
				if n, err := strconv.Atoi(strings.TrimSpace(v.Str)); err == nil {
					return []Value{{Kind: VInt, Int: n}}, true
				}
			}
		case "str":
			switch v.Kind {
			case VStr:
				return vs, true
			case VInt:
				return []Value{{Kind: VStr, Str: strconv.Itoa(v.Int)}}, true
			}
		}
	case *syntax.Attribute:
		if len(c.Args) != 0 {
			return nil, false
		}
		vs, ok := ev.envDefault(f.X, sc)
		if !ok || len(vs) != 1 || vs[0].Kind != VStr {
			return nil, false
		}
		s := vs[0].Str
		switch f.Attr {
		case "lower":
			s = strings.ToLower(s)
		case "upper":
			s = strings.ToUpper(s)
		case "strip":
			s = strings.TrimSpace(s)
		default:
			return nil, false
		}
		return []Value{{Kind: VStr, Str: s}}, true
	}
	return nil, false
}

// isEnviron reports whether e is os.environ.
func (ev *evaluator) isEnviron(e syntax.Expr, sc *Scope) bool {
	vs := ev.expr(e, sc)
	return len(vs) == 1 && vs[0].Kind == VPath && vs[0].Path == "os.environ"
}
