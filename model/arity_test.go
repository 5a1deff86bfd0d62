package model

import (
	"testing"

	"github.com/cudaforklint/cudaforklint/syntax"
)

// TestBindable holds Python's binding of written arguments to a def's
// parameters: the three TypeErrors (a required parameter left out, a
// positional argument too many, an unexpected keyword) and the calls that
// bind.
func TestBindable(t *testing.T) {
	tests := []struct {
		def, call string
		implicit  int
		want      bool
	}{
		{"def f(text, device): pass", "f(t, d)", 0, true},
		{"def f(text, device): pass", "f(t)", 0, false},
		{"def f(text, device): pass", "f(t, device=d)", 0, true},
		{"def f(text, device=None): pass", "f(t)", 0, true},
		{"def f(text): pass", "f(t, d)", 0, false},
		{"def f(text, *rest): pass", "f(t, d, e)", 0, true},
		{"def f(text): pass", "f(t, dim=4)", 0, false},
		{"def f(text, **opts): pass", "f(t, dim=4)", 0, true},
		{"def f(text, *, dim): pass", "f(t)", 0, false},
		{"def f(text, *, dim): pass", "f(t, dim=4)", 0, true},
		{"def f(text, *, dim): pass", "f(t, 4)", 0, false},
		{"def f(*args, dim): pass", "f(dim=4)", 0, true},
		{"def f(*args): pass", "f(args=4)", 0, false},
		{"def m(self, text, device): pass", "o.m(t, d)", 1, true},
		{"def m(self, text, device): pass", "o.m(t)", 1, false},
		{"def m(self): pass", "o.m(t)", 1, false},
		{"def f(*args): pass", "o.m()", 1, true},
		// A positional-only parameter passed by keyword raises too; the
		// parameters do not tell it, and the answer errs towards binding.
		{"def f(a, /): pass", "f(a=1)", 0, true},
	}
	for _, tt := range tests {
		src := tt.def + "\n" + tt.call + "\n"
		f, err := syntax.Parse([]byte(src))
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		def := f.Body[0].(*syntax.FunctionDef)
		call := f.Body[1].(*syntax.ExprStmt).X.(*syntax.Call)
		if got := bindable(def.Params, tt.implicit, call.Args); got != tt.want {
			t.Errorf("%s with %s (%d implicit): bindable = %v, want %v", tt.def, tt.call, tt.implicit, got, tt.want)
		}
	}
}
