package model

import (
	"strings"
	"testing"

	"github.com/cudaforklint/cudaforklint/syntax"
)

// TestTruth checks which tests the model decides: comparisons of known
// constants (negative numbers included), any/all over a known list, and
// the conditional expressions that take one arm by them.
func TestTruth(t *testing.T) {
	prelude := "import typing\nfrom typing import TYPE_CHECKING\nids = [0, 1]\ncpu_ids = [-1, -1]\nmixed = [0, -1]\nkw = {\"start_method\": \"spawn\"}\n"
	tests := []struct {
		test        string
		want, known bool
	}{
		{"-1 >= 0", false, true},
		{"-1 < 0", true, true},
		{"any(x >= 0 for x in ids)", true, true},
		{"any(x >= 0 for x in cpu_ids)", false, true},
		{"all(x >= 0 for x in ids)", true, true},
		{"any(x >= 0 for x in mixed)", false, false},
		{"any(x >= 0 for x in unknown_list)", false, false},
		{"any(x >= 0 for x in [])", false, false},
		{"any([x >= 0 for x in ids])", true, true},
		{`"start_method" in kw`, true, true},
		{`"timeout" in kw`, false, true},
		{`"timeout" not in kw`, true, true},
		{"ids", true, true},
		{"TYPE_CHECKING", false, true},
		{"typing.TYPE_CHECKING", false, true},
		{"not TYPE_CHECKING", true, true},
		{"TYPE_CHECKING or ids", true, true},
		{"typing.get_origin", false, false},
	}
	for _, tt := range tests {
		m := load(t, memSource{"/p/m.py": prelude + "x_test = " + tt.test + "\n"}, "/p/m.py")
		assign := m.File.Body[len(m.File.Body)-1].(*syntax.Assign)
		var ev evaluator
		got, known := ev.truth(assign.Value, m.Scope)
		if got != tt.want || known != tt.known {
			t.Errorf("%s: (%v, known %v), want (%v, known %v)", tt.test, got, known, tt.want, tt.known)
		}
	}
	arms := []struct {
		expr, want string
	}{
		{`"spawn" if any(x >= 0 for x in ids) else "fork"`, "spawn"},
		{`"spawn" if any(x >= 0 for x in cpu_ids) else "fork"`, "fork"},
		{`"spawn" if any(x >= 0 for x in mixed) else "fork"`, "fork,spawn"},
		{`kw.get("start_method") if "start_method" in kw else "fork"`, "spawn"},
	}
	for _, tt := range arms {
		m := load(t, memSource{"/p/m.py": prelude + "method = " + tt.expr + "\n"}, "/p/m.py")
		got := map[string]bool{}
		for _, v := range m.Eval(&syntax.Name{ID: "method"}, m.Scope) {
			got[v.Str] = true
		}
		want := map[string]bool{}
		for _, s := range strings.Split(tt.want, ",") {
			want[s] = true
		}
		if len(got) != len(want) {
			t.Errorf("%s: %v, want %v", tt.expr, got, want)
			continue
		}
		for s := range want {
			if !got[s] {
				t.Errorf("%s: %v, want %v", tt.expr, got, want)
			}
		}
	}
}

// TestComputedFlag checks that a flag bound to a comparison or a `not` the
// model can decide holds that boolean, so that a later `if flag:` takes one
// arm, and that one it cannot decide stays unknown.
func TestComputedFlag(t *testing.T) {
	prelude := "import sys\nbackend = \"thread\"\nschemes = None\nids = [0, 1]\n"
	tests := []struct {
		expr        string
		want, known bool
	}{
		{`backend == "process"`, false, true},
		{`backend != "process"`, true, true},
		{`backend == "process" or schemes is not None`, false, true},
		{`backend == "thread" and schemes is None`, true, true},
		{"not ids", false, true},
		{"not schemes", true, true},
		{`sys.argv[1] == "process"`, false, false},
		{"not sys.argv", false, false},
	}
	for _, tt := range tests {
		m := load(t, memSource{"/p/m.py": prelude + "flag = " + tt.expr + "\n"}, "/p/m.py")
		var ev evaluator
		got, known := truthOfAll(ev.expr(&syntax.Name{ID: "flag"}, m.Scope))
		if got != tt.want || known != tt.known {
			t.Errorf("flag = %s: (%v, known %v), want (%v, known %v)", tt.expr, got, known, tt.want, tt.known)
		}
	}
}

// TestMembership checks `x in coll` and `x not in coll` over a tuple, list
// or set written out: decided where every value of x and every element is
// a known string or int, for the platform strings (truth, platTruth) and
// the environment's defaults (envDefault) alike; undecided where an element
// is not one known value, or the collection is not written out. The
// callers' own tests (TestPlatformTests, TestEnvDefaultTruth) hand it the
// platform's strings and the environment's defaults.
func TestMembership(t *testing.T) {
	prelude := "import sys\narg = sys.argv[1]\nworkers = 4\n" +
		"mode = \"fork\" if arg else \"spawn\"\ntag = f\"run-{arg}\"\n" +
		"names = (\"fork\", \"spawn\")\n"
	tests := []struct {
		x, op, coll string
		want, known bool
	}{
		{`"fork"`, "in", `("fork", "spawn")`, true, true},
		{`"forkserver"`, "in", `("fork", "spawn")`, false, true},
		{`"forkserver"`, "not in", `["fork", "spawn"]`, true, true},
		{`"fork"`, "not in", `["fork", "spawn"]`, false, true},
		{`"spawn"`, "in", `{"fork", "spawn"}`, true, true},
		{`"1"`, "in", `"1", "true"`, true, true}, // a bare tuple
		{`"0"`, "in", `()`, false, true},
		{`workers`, "in", `(1, 2)`, false, true},
		{`workers`, "not in", `{0, 4}`, false, true},
		// Every value of x: decided where they agree.
		{`mode`, "in", `("fork", "spawn")`, true, true},
		{`mode`, "in", `("fork", "forkserver")`, false, false},
		// Elements that are not one known value.
		{`"fork"`, "in", `("fork", arg)`, false, false},
		{`"fork"`, "not in", `["spawn", mode]`, false, false},
		{`"fork"`, "in", `("spawn", tag)`, false, false},
		{`"fork"`, "in", `("spawn", *names)`, false, false},
		{`"1"`, "in", `(1, 2)`, false, false},
		{`tag`, "in", `("run-1",)`, false, false},
		{`arg`, "in", `("fork", "spawn")`, false, false},
		// Collections not written out, whose elements the model holds by
		// a representative.
		{`"fork"`, "in", `names`, false, false},
		{`"spawn"`, "in", `[n for n in ("fork", "spawn")]`, false, false},
		// Other operators are compare's.
		{`"fork"`, "==", `("fork",)`, false, false},
	}
	for _, tt := range tests {
		src := prelude + "x_test = " + tt.x + "\ncoll_test = " + tt.coll + "\n"
		m := load(t, memSource{"/p/m.py": src}, "/p/m.py")
		body := m.File.Body
		x := body[len(body)-2].(*syntax.Assign).Value
		coll := body[len(body)-1].(*syntax.Assign).Value
		var ev evaluator
		got, known := ev.membership(tt.op, ev.expr(x, m.Scope), coll, m.Scope)
		if got != tt.want || known != tt.known {
			t.Errorf("%s %s %s: (%v, known %v), want (%v, known %v)", tt.x, tt.op, tt.coll, got, known, tt.want, tt.known)
		}
	}
}
