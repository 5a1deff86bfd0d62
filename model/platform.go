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
// Where the targets span platforms (a project's `platform` setting), the
// strings stay unknown, since a program's values and summaries are built
// once for all its configs; an if statement whose test is on the platform
// keeps both arms in its summary, marked with the arm each platform runs
// (platArms), and the simulation of each config runs that arm alone
// (simulator.platform records the read, configreads.go). What the arms
// bind still reaches the code after the if from both.

// platformStrings are the values a platform's programs read: sys.platform,
// os.name and platform.system().
var platformStrings = [...]struct{ sys, os, system string }{
	pytarget.Linux:   {"linux", "posix", "Linux"},
	pytarget.MacOS:   {"darwin", "posix", "Darwin"},
	pytarget.Windows: {"win32", "nt", "Windows"},
}

// numPlatforms counts pytarget's platforms.
const numPlatforms = int(pytarget.Windows) + 1

// platArms are the arms of an if statement that run on each platform:
// bit p its body on platform p, bit numPlatforms+p its else. Zero is an
// if whose test is not on the platform.
type platArms uint8

// on is the one arm, 0 (the body) or 1 (the else), that runs on pl, when
// one does.
func (a platArms) on(pl pytarget.Platform) (int, bool) {
	body, alt := a&(1<<pl) != 0, a&(1<<(numPlatforms+int(pl))) != 0
	switch {
	case a == 0 || body == alt:
		return 0, false
	case body:
		return 0, true
	}
	return 1, true
}

// platformArms are the arms test lets run on each platform, when it is a
// test on the platform that decides them on one platform at least. Where
// every target is on one platform, truth decided the test already.
func (ev *evaluator) platformArms(test syntax.Expr, sc *Scope) platArms {
	if _, one := sc.Module.Prog.platform(); one {
		return 0
	}
	var out platArms
	decided := false
	for pl := range pytarget.Platform(numPlatforms) {
		t, ok := ev.platTruth(test, sc, pl)
		decided = decided || ok
		if !ok || t {
			out |= 1 << pl
		}
		if !ok || !t {
			out |= 1 << (numPlatforms + int(pl))
		}
	}
	if !decided {
		return 0
	}
	return out
}

// platSource is what a platform operand reads.
type platSource uint8

const (
	platNone   platSource = iota
	platSys               // sys.platform
	platOS                // os.name
	platSystem            // platform.system()
)

// platOperand is what e reads of the platform, if it is sys.platform,
// os.name or platform.system().
func (ev *evaluator) platOperand(e syntax.Expr, sc *Scope) platSource {
	if c, ok := e.(*syntax.Call); ok {
		if len(c.Args) != 0 {
			return platNone
		}
		vs := ev.expr(c.Func, sc)
		if len(vs) == 1 && vs[0].Kind == VPath && vs[0].Path == "platform.system" {
			return platSystem
		}
		return platNone
	}
	if _, ok := e.(*syntax.Name); !ok {
		if _, ok := e.(*syntax.Attribute); !ok {
			return platNone
		}
	}
	vs := ev.expr(e, sc)
	if len(vs) != 1 || vs[0].Kind != VPath {
		return platNone
	}
	switch vs[0].Path {
	case "sys.platform":
		return platSys
	case "os.name":
		return platOS
	}
	return platNone
}

// platString is what src reads on pl.
func platString(src platSource, pl pytarget.Platform) string {
	switch src {
	case platSys:
		return platformStrings[pl].sys
	case platOS:
		return platformStrings[pl].os
	}
	return platformStrings[pl].system
}

// platTruth is the truth of test on platform pl: comparisons of a platform
// operand with strings written out (==, !=, in, not in a tuple, list or
// set of them, startswith, endswith), joined with not, and, or; any other
// part of it only where truth decides it on every platform.
func (ev *evaluator) platTruth(test syntax.Expr, sc *Scope, pl pytarget.Platform) (bool, bool) {
	switch e := test.(type) {
	case *syntax.UnaryOp:
		if e.Op == "not" {
			v, ok := ev.platTruth(e.X, sc, pl)
			return !v, ok
		}
	case *syntax.BoolOp:
		x, xok := ev.platTruth(e.X, sc, pl)
		y, yok := ev.platTruth(e.Y, sc, pl)
		if e.Op == "and" {
			if xok && !x || yok && !y {
				return false, true
			}
			return true, xok && yok
		}
		if xok && x || yok && y {
			return true, true
		}
		return false, xok && yok
	case *syntax.Compare:
		if len(e.Ops) != 1 {
			return false, false
		}
		op, l, r := e.Ops[0], e.Left, e.Comparators[0]
		if src := ev.platOperand(l, sc); src != platNone {
			return ev.platCompare(op, platString(src, pl), r, sc)
		}
		if src := ev.platOperand(r, sc); src != platNone && (op == "==" || op == "!=") {
			return ev.platCompare(op, platString(src, pl), l, sc)
		}
		if src := ev.platOperand(r, sc); src != platNone && (op == "in" || op == "not in") {
			subs, ok := ev.stringsIn(l, sc)
			if !ok || len(subs) != 1 {
				return false, false
			}
			return strings.Contains(platString(src, pl), subs[0]) == (op == "in"), true
		}
	case *syntax.Call:
		a, ok := e.Func.(*syntax.Attribute)
		if !ok || a.Attr != "startswith" && a.Attr != "endswith" || len(e.Args) != 1 || e.Args[0].Keyword != "" || e.Args[0].Star != 0 {
			break
		}
		src := ev.platOperand(a.X, sc)
		if src == platNone {
			break
		}
		affixes, ok := ev.stringsIn(e.Args[0].Value, sc)
		if !ok {
			return false, false
		}
		return hasAffix(a.Attr, platString(src, pl), affixes), true
	}
	return ev.truth(test, sc)
}

// platCompare is the truth of `s op other` for the platform string s.
func (ev *evaluator) platCompare(op, s string, other syntax.Expr, sc *Scope) (bool, bool) {
	switch op {
	case "==", "!=":
		vs, ok := ev.stringsIn(other, sc)
		if _, seq := other.(*syntax.Sequence); !ok || seq || len(vs) != 1 {
			return false, false
		}
		return (s == vs[0]) == (op == "=="), true
	case "in", "not in":
		return ev.membership(op, []Value{{Kind: VStr, Str: s}}, other, sc)
	}
	return false, false
}

// hasAffix is s.startswith(affixes) or s.endswith(affixes).
func hasAffix(method, s string, affixes []string) bool {
	for _, x := range affixes {
		if method == "startswith" && strings.HasPrefix(s, x) || method == "endswith" && strings.HasSuffix(s, x) {
			return true
		}
	}
	return false
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
		t := hasAffix(a.Attr, r.Str, affixes)
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

// plainStrings reports whether vs are strings the model knows, one or more.
func plainStrings(vs []Value) bool {
	for _, v := range vs {
		if v.Kind != VStr || v.Interp {
			return false
		}
	}
	return len(vs) > 0
}
