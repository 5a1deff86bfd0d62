package model

import (
	"strings"

	"github.com/cudaforklint/cudaforklint/pytarget"
	"github.com/cudaforklint/cudaforklint/syntax"
)

// Tests on the platform. A program checked for target configs on one
// platform only (pytarget.Default is Linux alone) runs where sys.platform,
// os.name and platform.system() have one value each, so they are that
// string constant and a test on them takes one arm, as any constant test
// does (truth.go):
//
//	if sys.platform != "win32":
//	    multiprocessing.set_start_method("fork", force=True)
//
// sets fork on every Linux target; evaluated as unknown, the arm that
// skips the setter ran too, and the default start method of 3.14 and later
// (forkserver) was reported for a program that never uses it.
//
// Where the targets span platforms (a project's target-platforms), the
// strings stay unknown and both arms run: the summaries a test decides are
// built once for every config of a program, not per config.

// platformStrings are the values a platform's programs read: sys.platform,
// os.name and platform.system().
var platformStrings = [...]struct{ sys, os, system string }{
	pytarget.Linux:   {"linux", "posix", "Linux"},
	pytarget.MacOS:   {"darwin", "posix", "Darwin"},
	pytarget.Windows: {"win32", "nt", "Windows"},
}

// platform is the one platform of every target config of p's checked
// files, when they are all on one.
func (p *Program) platform() (pytarget.Platform, bool) {
	ts := p.opts.Targets
	for _, pl := range []pytarget.Platform{pytarget.Linux, pytarget.MacOS, pytarget.Windows} {
		if ts != 0 && ts&^pytarget.Platforms(pl) == 0 {
			return pl, true
		}
	}
	return 0, false
}

// platformConst replaces the values of sys.platform and os.name in vs by
// their strings, when p's targets are on one platform.
func platformConst(vs []Value, sc *Scope) []Value {
	for i, v := range vs {
		if v.Kind != VPath || v.Path != "sys.platform" && v.Path != "os.name" {
			continue
		}
		pl, ok := sc.Module.Prog.platform()
		if !ok {
			return vs
		}
		out := append([]Value(nil), vs...)
		for j := i; j < len(out); j++ {
			switch out[j].Path {
			case "sys.platform":
				out[j] = Value{Kind: VStr, Str: platformStrings[pl].sys}
			case "os.name":
				out[j] = Value{Kind: VStr, Str: platformStrings[pl].os}
			}
		}
		return out
	}
	return vs
}

// platformCall is the value of platform.system() when p's targets are on
// one platform.
func platformCall(v Value, c *syntax.Call, sc *Scope) (Value, bool) {
	if v.Kind != VPath || v.Path != "platform.system" || len(c.Args) != 0 {
		return Value{}, false
	}
	pl, ok := sc.Module.Prog.platform()
	if !ok {
		return Value{}, false
	}
	return Value{Kind: VStr, Str: platformStrings[pl].system}, true
}

// strPrefixTest is the truth of s.startswith(p) or s.endswith(p), p a
// string or a tuple of strings, when every value of s and p is a known
// string and they agree (sys.platform.startswith("win")).
func (ev *evaluator) strPrefixTest(c *syntax.Call, sc *Scope) (bool, bool) {
	a, ok := c.Func.(*syntax.Attribute)
	if !ok || a.Attr != "startswith" && a.Attr != "endswith" || len(c.Args) != 1 || c.Args[0].Keyword != "" || c.Args[0].Star != 0 {
		return false, false
	}
	recv := ev.expr(a.X, sc)
	if !plainStrings(recv) {
		return false, false
	}
	affixes, ok := ev.stringsIn(c.Args[0].Value, sc)
	if !ok {
		return false, false
	}
	if len(affixes) == 0 {
		return false, false
	}
	var result bool
	for i, r := range recv {
		t := false
		for _, x := range affixes {
			if a.Attr == "startswith" && strings.HasPrefix(r.Str, x) || a.Attr == "endswith" && strings.HasSuffix(r.Str, x) {
				t = true
			}
		}
		if i > 0 && t != result {
			return false, false
		}
		result = t
	}
	return result, true
}

// stringsIn are the strings e is, or holds when it is a tuple or list
// written out, when each is one known string: the model's lists stand for
// their elements by a representative, too loose for a membership test.
func (ev *evaluator) stringsIn(e syntax.Expr, sc *Scope) ([]string, bool) {
	var out []string
	elts := []syntax.Expr{e}
	if seq, ok := e.(*syntax.Sequence); ok {
		elts = seq.Elts
	}
	for _, el := range elts {
		vs := ev.expr(el, sc)
		if len(vs) != 1 || !plainStrings(vs) {
			return nil, false
		}
		out = append(out, vs[0].Str)
	}
	return out, len(out) > 0
}

// strMembership is the truth of `s in (a, b)` (or `not in`) for a tuple or
// list written out, when every value of s and of its elements is a known
// string (sys.platform in ("win32", "cygwin")).
func (ev *evaluator) strMembership(op string, x, coll syntax.Expr, sc *Scope) (bool, bool) {
	if op != "in" && op != "not in" {
		return false, false
	}
	if _, ok := coll.(*syntax.Sequence); !ok {
		return false, false
	}
	xs := ev.expr(x, sc)
	if !plainStrings(xs) {
		return false, false
	}
	elems, ok := ev.stringsIn(coll, sc)
	if !ok {
		return false, false
	}
	var result bool
	for i, v := range xs {
		t := slicesContain(elems, v.Str) == (op == "in")
		if i > 0 && t != result {
			return false, false
		}
		result = t
	}
	return result, true
}

// plainStrings reports whether vs are strings the model knows, one or more.
func plainStrings(vs []Value) bool {
	for _, v := range vs {
		if v.Kind != VStr || v.Interp {
			return false
		}
	}
	return len(vs) > 0
}
