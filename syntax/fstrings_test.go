package syntax

import "testing"

// TestFormatSpecs: valid f-strings and t-strings, their format
// specifiers above all, parse without errors, and every expression of
// their replacement fields, nested ones included, is in the tree.
func TestFormatSpecs(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		// A specifier that starts with `=`: the fill character, or the
		// alignment; never a walrus (issue #49).
		{`print(f"{title:=^{width}}")`, `(call print (fstr "" title width))`},
		{`f"{n:=10}"`, `(fstr "" n)`},
		{`f"{n:=}"`, `(fstr "" n)`},
		{`f"{n:=>10}{m:=<{w}}"`, `(fstr "" n m w)`},
		{`f"{n:=+010_.3f}"`, `(fstr "" n)`},
		{`f"{x:{y:=^3}}"`, `(fstr "" x y)`},
		// The walrus itself, parenthesized, as CPython requires.
		{`f"{(x:=1)} {x}"`, `(fstr " " (:= x 1) x)`},
		// Other specifiers the walrus's `:` might be confused with.
		{`f"{x:!<10}"`, `(fstr "" x)`},
		{`f"{x:!=10}"`, `(fstr "" x)`},
		{`f"{x::>10}"`, `(fstr "" x)`},
		{`f"{x:'^10}"`, `(fstr "" x)`},
		// Nested fields, conversions, `=` debugging specifiers.
		{`f"{x:{w}.{p}}"`, `(fstr "" x w p)`},
		{`f"{x=:>10}"`, `(fstr "" x)`},
		{`f"{x = !r:^20}"`, `(fstr "" x)`},
		{`f"{x!s:{w}}"`, `(fstr "" x w)`},
		{`f"{x=!a}"`, `(fstr "" x)`},
		{`f"{a!=b}"`, `(fstr "" (cmp a != b))`},
		// Escaped braces beside a field and after a specifier.
		{`f"{{x}} {x:>{w}}}}"`, `(fstr "{x} }" x w)`},
		{`f"{x:%Y-%m-%d}"`, `(fstr "" x)`},
		// A named escape in a specifier is text; in a raw one, a field.
		{`f"\N{BULLET} {x:\N{BULLET}^{w}}"`, `(fstr "\\N{BULLET} " x w)`},
		{`rf"{x:\N{w}}"`, `(fstr "" x w)`},
		// Nested quotes (Python 3.12).
		{`f"{d["k"]:=^{w}}"`, `(fstr "" ([] d "k") w)`},
		{`f"{f"{x:=3}":>10}"`, `(fstr "" (fstr "" x))`},
		// Template strings (Python 3.14), every prefix.
		{`t"{x:=^10}"`, `(fstr "" x)`},
		{`(t'{a!r}', T"{b=}", rt"{c}", Tr'''{d:{w}}''')`, `(tuple (fstr "" a) (fstr "" b) (fstr "" c) (fstr "" d w))`},
		// Names ending in t and strings after a t are not template strings.
		{`print(ascii := 'x', test, 'y')`, `(call print (:= ascii "x") test "y")`},
	} {
		f := mustParse(t, tc.src+"\n")
		if len(f.Errors) > 0 {
			t.Errorf("%s: errors %v", tc.src, f.Errors)
		}
		if got := DumpFile(f); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.src, got, tc.want)
		}
	}
}
