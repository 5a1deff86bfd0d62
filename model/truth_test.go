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
	prelude := "ids = [0, 1]\ncpu_ids = [-1, -1]\nmixed = [0, -1]\nkw = {\"start_method\": \"spawn\"}\n"
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
