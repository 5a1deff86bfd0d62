package syntax

import "testing"

// TestDedentedContinuation: a line inside brackets indented less than its
// statement is a continuation line, as in CPython, after whatever token
// ends the line before it; the function around it keeps its statements.
func TestDedentedContinuation(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"def f():\n    x = foo(a=\n1)\n    g()\n", "(def f () (= [x] (call foo a=1)) (call g))"},
		{"def f():\n    (bar.\nbaz)\n    g()\n", "(def f () (. bar baz) (call g))"},
		{"class C:\n    def m(self):\n        return {1:\n  2, 3: not\n x}\n", "(class C () (def m (self) (return (dict (1 2) (3 (not x))))))"},
		{"def f():\n    x = (a +\r\n\r\nb)\n    g()\n", "(def f () (= [x] (+ a b)) (call g))"},
		{"if x:\n    y = [v for\nv in w if\n  v]\n", "(if x (= [y] (listcomp v (for v w if v))))"},
	} {
		f := mustParse(t, tc.src)
		if len(f.Errors) > 0 {
			t.Errorf("%q: errors %v", tc.src, f.Errors)
		}
		if got := DumpFile(f); got != tc.want {
			t.Errorf("%q:\n got %s\nwant %s", tc.src, got, tc.want)
		}
	}
	// A bracket that never closes: nothing to join.
	if b := dedentedBreaks([]byte("def f():\n    x = (a +\nb\n    g()\n")); len(b) != 0 {
		t.Errorf("breaks %v in a source with an unclosed bracket", b)
	}
	// After a comment the line cannot be joined: still an error, but the
	// statements after the function are kept.
	f := mustParse(t, "def f():\n    (bar.  # c\nbaz)\ng()\n")
	if len(f.Errors) == 0 {
		t.Errorf("a break after a comment was joined")
	}
}
