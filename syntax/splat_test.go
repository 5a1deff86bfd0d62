package syntax

import (
	"strings"
	"testing"
)

// TestStarredElements: starred elements in bare expression lists and
// subscripts, which the bundled grammar reads only before a name, parse
// without errors and keep their star.
func TestStarredElements(t *testing.T) {
	runDumpCases(t, []dumpCase{
		// Valid since Python 3.8; an ERROR node in the grammar.
		{"return of a repeated tuple", "def f(a):\n    return a, *((None,)*30)\n",
			"(def f (a) (return (tuple a (* (* (tuple None) 30)))))"},
		{"return, parenthesised", "def f(a, b):\n    return a, *(b)\n", "(def f (a b) (return (tuple a (* b))))"},
		{"return, star first", "def f(a):\n    return *(a), 1\n", "(def f (a) (return (tuple (* a) 1)))"},
		{"yield", "def g(a, b):\n    yield a, *(b)\n", "(def g (a b) (?yield (tuple a (* b))))"},
		{"assignment", "x = a, *(b)\n", "(= [x] (tuple a (* b)))"},
		{"assignment, several", "x = a, *(b), *[c], *'de'\n", "(= [x] (tuple a (* b) (* (list c)) (* \"de\")))"},
		{"assignment, one element", "x = *(a, b),\n", "(= [x] (tuple (* (tuple a b))))"},
		{"for", "for x in a, *(b):\n    body()\n", "(for x (tuple a (* b)) (call body))"},
		{"subscript (3.11)", "t[*(a)]\n", "([] t (* a))"},
		{"subscript, several", "t[a, *(b)]\n", "([] t a (* b))"},
		{"unary operand", "x = a, *-b\n", "(= [x] (tuple a (* (- b))))"},
		// Already read by the grammar, or with the star bound to the name
		// alone (hoistStar moves it out).
		{"name", "def f(a, b):\n    return a, *b\n", "(def f (a b) (return (tuple a (* b))))"},
		{"yield name", "def g(a, b):\n    yield a, *b\n", "(def g (a b) (?yield (tuple a (* b))))"},
		{"call", "x = a, *f(b)\nafter()\n", "(= [x] (tuple a (* (call f b))))\n(call after)"},
		{"attribute", "x = a, *b.c\nafter()\n", "(= [x] (tuple a (* (. b c))))\n(call after)"},
		{"chain in a list", "x = [*a.b(c)[0]]\n", "(= [x] (list (* ([] (call (. a b) c) 0))))"},
		{"subscript name", "x = t[*a, b]\n", "(= [x] ([] t (* a) b))"},
		{"call arguments", "f(*(a))\nf(a, *(b), **c)\n", "(call f *a)\n(call f a *b **c)"},
		{"star target", "a, *(b) = c\n", "(= [(tuple a (* (tuple b)))] c)"}, // (b) is a parenthesised target
		// Multiplication stays multiplication.
		{"product", "x = a, 2*(b)\n", "(= [x] (tuple a (* 2 b)))"},
		{"power", "x = a, b**(c)\n", "(= [x] (tuple a (** b c)))"},
	})
}

// TestStarredElementsAroundErrors: the retry changes a parse only where it
// removes errors; real errors stay, with the code around them.
func TestStarredElementsAroundErrors(t *testing.T) {
	cases := []struct {
		name, src, want string
	}{
		{"real error on the same line", "x = a, *(b) + (\nafter()\n", ""},
		{"star in a string on an error line", "x = '*(' + (\nafter()\n", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := mustParse(t, tc.src)
			if len(f.Errors) == 0 {
				t.Errorf("no errors left in %q", tc.src)
			}
		})
	}
	// The spans of the restored stars cover the star and the parentheses.
	src := "x = a, *((b,) * 3)\n"
	f := mustParse(t, src)
	st, ok := f.Body[0].(*Assign).Value.(*Sequence).Elts[1].(*Starred)
	if !ok {
		t.Fatalf("got %s", DumpFile(f))
	}
	if got := src[st.Start:st.End]; got != "*((b,) * 3)" {
		t.Errorf("starred span %q", got)
	}
	src = "f(a, *(b)) + (\n"
	f = mustParse(t, src)
	call := f.Body[0].(*OtherStmt).Exprs[0].(*Call)
	if a := call.Args[1]; a.Star != 1 || src[a.Start:a.End] != "*(b)" {
		t.Errorf("argument %+v (%q)", a, src[a.Start:a.End])
	}
	// Broken code found by FuzzParse: a parenthesis that does not close (the
	// starred element ends with its operand, not at the blanks after it),
	// and a tuple that error recovery ends before the closing parenthesis
	// (the starred element stops at the tuple's end). Both stay inside
	// their tuple.
	for _, src := range []string{
		" [i for i in ot in7] + {k: v 1 in d} d {*w} + (g for g in h)\nf, *(*k3 key=v)",
		"i f,*k, key=i in ot in7] + {kN v 1 in d} d {*w} + (g for g in hv\nf, *( key=or ))",
	} {
		f = mustParse(t, src)
		if err := checkFile([]byte(src), f); err != nil {
			t.Errorf("%q: %v\n%s", src, err, DumpFile(f))
		}
	}
}

// TestSplatStars checks which stars the retry replaces.
func TestSplatStars(t *testing.T) {
	tests := []struct {
		src  string
		want []int
	}{
		{"x = a, *(b)\n", []int{7}},
		{"return *(a),\n", []int{7}},
		{"for x in *(a), b:\n", []int{9}},
		{"x = a, *b\n", nil},         // a name: the grammar reads it
		{"x = a * (b)\n", nil},       // a product
		{"x = a, '*(b)'\n", nil},     // in a string
		{"x = a # , *(b)\n", nil},    // in a comment
		{"def f(*, a): pass\n", nil}, // a bare star
		{"x = a, **(b)\n", nil},      // not a single star
		{"y = 1\nx = a, *(b)\n", []int{13}},
	}
	for _, tt := range tests {
		src := []byte(tt.src)
		got := splatStars(src, []Span{{0, int32(len(src))}})
		if len(got) != len(tt.want) || len(got) > 0 && got[0] != tt.want[0] {
			t.Errorf("%q: stars %v, want %v", tt.src, got, tt.want)
		}
	}
	// Only on the lines with errors.
	src := []byte("x = a, *(b)\ny = c, *(d)\n")
	if got := splatStars(src, []Span{{20, 23}}); len(got) != 1 || got[0] != 19 {
		t.Errorf("stars on line 2 only: %v", got)
	}
}

// TestSplatStarsSkipLostStructure: an unclosed bracket can make the rest
// of a file one ERROR node; the stars under it are not why, and searching
// them parsed a 10 MB file a second time for nothing. A star in a local
// error next to it is still found.
func TestSplatStarsSkipLostStructure(t *testing.T) {
	var b strings.Builder
	b.WriteString("x = (1,\n")
	for b.Len() <= maxSplatError {
		b.WriteString("def f():\n    return a, *(b)\n")
	}
	whole := []byte(b.String())
	if got := splatStars(whole, []Span{{0, int32(len(whole))}}); len(got) != 0 {
		t.Errorf("%d stars searched under an error of %d bytes, want none", len(got), len(whole))
	}
	// Parsed, the unclosed parenthesis is an error that covers the stars.
	f, err := Parse(whole)
	if err != nil {
		t.Fatal(err)
	}
	if errorBytes(f) <= maxSplatError {
		t.Fatalf("the unclosed parenthesis left %d bytes in errors: the test checks nothing", errorBytes(f))
	}
	local := []byte("y = a, *(b)\n")
	all := append(append([]byte{}, whole...), local...)
	at := int32(len(whole))
	errs := []Span{{0, at}, {at + 7, at + 11}}
	if got := splatStars(all, errs); len(got) != 1 || got[0] != int(at)+7 {
		t.Errorf("stars %v, want only the local one at %d", got, at+7)
	}
}
