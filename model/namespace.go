package model

import (
	"strings"

	"github.com/cudaforklint/cudaforklint/syntax"
)

// Attribute bags: the namespace argparse's parse_args() returns, and
// SimpleNamespace / argparse.Namespace built by hand. An option's value is
// its default, or any value the user passes (a value the model does not
// know, marked with the option's flag so that messages can name it), or one
// of its choices. That is enough for the shapes that matter:
// `add_argument("--device", default="cuda")` makes args.device name a GPU,
// `add_argument("--num_workers", type=int, default=0)` makes a DataLoader
// start only when the flag is set, and SimpleNamespace(num_workers=1)
// decides `if args.num_workers > 1:`.

// namespaceCall handles the library calls that make attribute bags; it
// reports whether path is one.
func (ev *evaluator) namespaceCall(r *callResult, path string, c *syntax.Call, sc *Scope) bool {
	switch {
	case path == "types.SimpleNamespace" || path == "argparse.Namespace":
		l := ev.callArgs(c, sc)
		var ns elements
		for _, kw := range l.kw {
			for _, v := range kw.values {
				ns.Keys, ns.Elems = append(ns.Keys, kw.name), append(ns.Elems, v)
			}
		}
		r.value(Value{Kind: VNamespace}.withSeq(ns.Elems, ns.Keys))
	case isParserMethod(path, "parse_args"):
		r.value(ev.parsedArgs(sc.Module))
	case isParserMethod(path, "parse_known_args"):
		r.value(listOf(ev.parsedArgs(sc.Module), Value{Kind: VUnknown}))
	default:
		return false
	}
	return true
}

// isParserMethod reports whether path is method of an argparse parser.
func isParserMethod(path, method string) bool {
	return strings.HasPrefix(path, "argparse.ArgumentParser()") && strings.HasSuffix(path, "."+method)
}

// parsedArgs is the namespace the parsers of m (and of the local modules
// it imports, where a parser is often built) return.
func (ev *evaluator) parsedArgs(m *Module) Value {
	var ns elements
	mods := append([]*Module{m}, m.importedLocals()...)
	for _, mod := range mods {
		for _, o := range mod.Prog.values().options(mod) {
			for _, v := range ev.optionValues(mod, o) {
				ns.Keys, ns.Elems = append(ns.Keys, o.dest), append(ns.Elems, v)
			}
		}
	}
	return Value{Kind: VNamespace}.withSeq(ns.Elems, ns.Keys)
}

// importedLocals lists the local modules m imports, once per module: every
// parse_args() call asks, and a large module has many (a 10 MB module spent
// 5 % of its run here, quadratically). The first call loads the modules, so
// later calls would find the same ones loaded.
func (m *Module) importedLocals() []*Module {
	if m.locals != nil {
		return *m.locals
	}
	out := m.importedLocalsUncached()
	m.locals = &out
	return out
}

func (m *Module) importedLocalsUncached() []*Module {
	var out []*Module
	for _, s := range m.imports() {
		switch s := s.(type) {
		case *syntax.Import:
			for _, a := range s.Names {
				if mod := m.importedModule(a.Name, 0); mod != nil {
					out = append(out, mod)
				}
			}
		case *syntax.ImportFrom:
			if mod := m.importedModule(s.Module, s.Level); mod != nil {
				out = append(out, mod)
			}
		}
	}
	return out
}

// option is one add_argument call.
type option struct {
	dest string
	flag string // the option as written ("--num_workers"), for messages
	call *syntax.Call
}

// options indexes, once per module, its add_argument calls.
func (vs *valueState) options(m *Module) []option {
	if got, ok := vs.argOptions[m]; ok {
		return got
	}
	var out []option
	for _, s := range m.File.Body {
		inspectWanted(s, func(n syntax.Node) bool {
			if c, ok := n.(*syntax.Call); ok && isAddArgument(c) {
				if o, ok := optionOf(c); ok {
					out = append(out, o)
				}
			}
			return true
		}, func(n syntax.Node) bool {
			c, ok := n.(*syntax.Call)
			return ok && isAddArgument(c)
		})
	}
	vs.argOptions[m] = out
	return out
}

// isAddArgument reports whether c calls a method add_argument.
func isAddArgument(c *syntax.Call) bool {
	a, ok := c.Func.(*syntax.Attribute)
	return ok && a.Attr == "add_argument"
}

// optionOf reads the destination of an add_argument call: dest=, the first
// long option ("--num-workers" → num_workers), or the positional name.
func optionOf(c *syntax.Call) (option, bool) {
	var names []string
	o := option{call: c}
	for _, a := range c.Args {
		if s, ok := a.Value.(*syntax.String); ok && a.Keyword == "" && a.Star == 0 && !s.Interpolated {
			names = append(names, s.Value)
		}
		if s, ok := a.Value.(*syntax.String); ok && a.Keyword == "dest" {
			o.dest = s.Value
		}
	}
	if len(names) == 0 {
		return o, false
	}
	o.flag = names[0]
	for _, n := range names {
		if strings.HasPrefix(n, "--") {
			o.flag = n
			break
		}
	}
	if o.dest == "" {
		o.dest = strings.ReplaceAll(strings.TrimLeft(o.flag, "-"), "-", "_")
	}
	return o, o.dest != ""
}

// optionValues are the values an option may take: one of its choices, or
// its default or whatever the user passes.
func (ev *evaluator) optionValues(m *Module, o option) []Value {
	kw := func(name string) syntax.Expr { return argExpr(o.call, -1, name) }
	if ch := kw("choices"); ch != nil {
		if elems := iterElems(ev.expr(ch, m.Scope)); len(elems) > 0 {
			return elems
		}
	}
	var defaults []Value
	if d := kw("default"); d != nil {
		defaults = ev.expr(d, m.Scope)
	} else {
		action := ""
		if a, ok := kw("action").(*syntax.String); ok {
			action = a.Value
		}
		switch action {
		case "store_true":
			return []Value{{Kind: VConst, Int: int(syntax.ConstFalse)}, {Kind: VConst, Int: int(syntax.ConstTrue)}}
		case "store_false":
			return []Value{{Kind: VConst, Int: int(syntax.ConstTrue)}, {Kind: VConst, Int: int(syntax.ConstFalse)}}
		}
		defaults = []Value{{Kind: VConst, Int: int(syntax.ConstNone)}}
	}
	return add(defaults, Value{Kind: VUnknown, Str: o.flag})
}

// optionFlag is the flag of an option whose value is its default def or
// whatever the user passes: values {def, the option's marker}.
func optionFlag(vs []Value, def int) (string, bool) {
	flag, sawDefault := "", false
	for _, v := range vs {
		switch {
		case v.Kind == VInt && v.Int == def:
			sawDefault = true
		case v.Kind == VUnknown && strings.HasPrefix(v.Str, "-"):
			flag = v.Str
		default:
			return "", false
		}
	}
	return flag, flag != "" && sawDefault
}
