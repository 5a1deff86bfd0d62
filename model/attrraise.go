package model

import (
	"strings"

	"github.com/cudaforklint/cudaforklint/syntax"
)

// Attribute reads that certainly raise. Reading an attribute a builtin
// type does not have raises AttributeError: `cfg.gradient_checkpointing`
// on a dict display, a list, a string, a number, True, False or None ends
// the path it is on as a raise does (EAGLE's traineagle3 hands Model() the
// dict train_config, and its __init__ reads
// self.train_config.gradient_checkpointing: the script dies at the
// constructor, and nothing after it runs).
//
// The model says so only where the type is certain: every value the
// receiver may have is one of those builtins, none Loose (read from a
// class body, stored on an instance whose class may convert what it
// stores, merged from several), and the attribute is none of the type's
// own. A dict subclass (EasyDict, addict.Dict, munch, DictConfig,
// ConfigDict) is a library call's result, an instance of a local class,
// or a value the model cannot see: never one of these. Only expressions
// Python certainly evaluates count: not the right operand of and/or, the
// arms of a conditional expression, a lambda's body or a comprehension's
// element.

// builtinAttrs are the attributes (dunders aside, which every object has)
// of the Python types each value kind stands for, over Python 3.9–3.15.
var builtinAttrs = map[ValueKind][]string{
	// dict displays and comprehensions, dict(...), **kwargs, vars(ns).
	VDict: {"clear", "copy", "fromkeys", "get", "items", "keys", "pop", "popitem", "setdefault", "update", "values"},
	// list, tuple and set displays, comprehensions and generator
	// expressions, *args, and what list(), sorted(), zip(), enumerate(),
	// map(), iter() and dict views give.
	VList: {"append", "clear", "copy", "count", "extend", "index", "insert", "pop", "remove", "reverse", "sort",
		"add", "difference", "difference_update", "discard", "intersection", "intersection_update", "isdisjoint",
		"issubset", "issuperset", "symmetric_difference", "symmetric_difference_update", "union", "update",
		"close", "send", "throw", "gi_code", "gi_frame", "gi_running", "gi_suspended", "gi_yieldfrom", "mapping"},
	VStr: {"capitalize", "casefold", "center", "count", "encode", "endswith", "expandtabs", "find", "format",
		"format_map", "index", "isalnum", "isalpha", "isascii", "isdecimal", "isdigit", "isidentifier", "islower",
		"isnumeric", "isprintable", "isspace", "istitle", "isupper", "join", "ljust", "lower", "lstrip", "maketrans",
		"partition", "removeprefix", "removesuffix", "replace", "rfind", "rindex", "rjust", "rpartition", "rsplit",
		"rstrip", "split", "splitlines", "startswith", "strip", "swapcase", "title", "translate", "upper", "zfill"},
	// int and bool, and float: a number the model read as an int may be
	// a float where the program converts it.
	VInt: numberAttrs,
	// True and False are ints; None has no attributes.
	VConst: numberAttrs,
}

var numberAttrs = []string{"as_integer_ratio", "bit_count", "bit_length", "conjugate", "denominator", "from_bytes",
	"imag", "numerator", "real", "to_bytes", "is_integer", "fromhex", "hex", "from_number"}

// jsonResults are the calls whose result is a dict, list, str, int,
// float, bool or None.
var jsonResults = map[string]bool{"json.load()": true, "json.loads()": true}

// lacksAttr reports whether v is certainly a builtin value without the
// attribute name.
func lacksAttr(v Value, name string) bool {
	if v.Loose || v.Alt {
		return false
	}
	switch v.Kind {
	case VDict, VList, VInt:
	case VStr:
		if v.Interp {
			return false // a t-string (3.14) is a Template
		}
	case VConst:
		if v.Int == int(syntax.ConstEllipsis) {
			return false
		}
	case VPath:
		if !jsonResults[v.Path] {
			return false
		}
		for _, attrs := range builtinAttrs {
			if containsString(attrs, name) {
				return false
			}
		}
		return true
	default:
		return false
	}
	return !containsString(builtinAttrs[v.Kind], name)
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// readRaises reports whether evaluating e certainly reads an attribute
// its receiver certainly lacks (see above): e raises AttributeError, or
// something it evaluates first raises.
func (ev *evaluator) readRaises(e syntax.Expr, sc *Scope) bool {
	switch e := e.(type) {
	case *syntax.Attribute:
		if ev.readRaises(e.X, sc) {
			return true
		}
		if strings.HasPrefix(e.Attr, "__") {
			return false
		}
		vs := ev.expr(e.X, sc)
		if len(vs) == 0 {
			return false
		}
		for _, v := range vs {
			if !lacksAttr(v, e.Attr) {
				return false
			}
		}
		return true
	case *syntax.Call:
		if ev.readRaises(e.Func, sc) {
			return true
		}
		for _, a := range e.Args {
			if ev.readRaises(a.Value, sc) {
				return true
			}
		}
	case *syntax.Subscript:
		if ev.readRaises(e.X, sc) {
			return true
		}
		for _, x := range e.Index {
			if ev.readRaises(x, sc) {
				return true
			}
		}
	case *syntax.BinOp:
		return ev.readRaises(e.X, sc) || ev.readRaises(e.Y, sc)
	case *syntax.Compare:
		// Only the first comparison certainly runs.
		return ev.readRaises(e.Left, sc) || len(e.Comparators) > 0 && ev.readRaises(e.Comparators[0], sc)
	case *syntax.UnaryOp:
		return ev.readRaises(e.X, sc)
	case *syntax.BoolOp:
		return ev.readRaises(e.X, sc) // the right operand may not run
	case *syntax.IfExp:
		return ev.readRaises(e.Test, sc)
	case *syntax.Sequence:
		for _, x := range e.Elts {
			if ev.readRaises(x, sc) {
				return true
			}
		}
	case *syntax.Dict:
		for i, x := range e.Values {
			if i < len(e.Keys) && e.Keys[i] != nil && ev.readRaises(e.Keys[i], sc) || ev.readRaises(x, sc) {
				return true
			}
		}
	case *syntax.String:
		for _, x := range e.Exprs {
			if ev.readRaises(x, sc) {
				return true
			}
		}
	case *syntax.Starred:
		return ev.readRaises(e.X, sc)
	case *syntax.Await:
		return ev.readRaises(e.X, sc)
	case *syntax.NamedExpr:
		return ev.readRaises(e.Value, sc)
	}
	return false
}

// mayConvertStores reports whether an instance of c may hold something
// other than what its methods store on it: c or a base defines
// __setattr__ or __getattribute__, names a metaclass, or derives from a
// library class other than torch's nn.Module (EasyDict's __setattr__ makes
// a stored dict an EasyDict; nn.Module keeps a dict as it is).
func (ev *evaluator) mayConvertStores(c *Class) bool {
	return ev.convertsStores(c, 0)
}

func (ev *evaluator) convertsStores(c *Class, depth int) bool {
	if depth > 8 || c.Methods["__setattr__"] != nil || c.Methods["__getattribute__"] != nil {
		return true
	}
	for _, b := range c.Def.Bases {
		if b.Keyword != "" {
			return true // metaclass=
		}
		if n, ok := b.Value.(*syntax.Name); ok && n.ID == "object" && len(lookup("object", c.Scope.Parent)) == 0 {
			continue
		}
		// The depth bound cuts a cycle of bases, as eachBase's guard does.
		base := ev.expr(b.Value, c.Scope.Parent)
		if len(base) == 0 {
			return true
		}
		for _, bv := range base {
			switch {
			case bv.Kind == VClass && bv.Class != nil:
				if ev.convertsStores(bv.Class, depth+1) {
					return true
				}
			case bv.Kind == VPath && (bv.Path == "torch.nn.Module" || bv.Path == "torch.nn.modules.module.Module"):
			default:
				return true
			}
		}
	}
	return false
}

// loosened is vs with each value marked Loose, copied when any is not.
func loosened(vs []Value) []Value {
	for i := range vs {
		if !vs[i].Loose {
			out := make([]Value, len(vs))
			for j, v := range vs {
				v.Loose = true
				out[j] = v
			}
			return out
		}
	}
	return vs
}
