package syntax

import "testing"

func TestDecodeLiteral(t *testing.T) {
	cases := []struct {
		in                 string
		raw, isBytes, fstr bool
		want               string
	}{
		{in: `plain`, want: "plain"},
		{in: `a\nb\tc\\d\'e\"f`, want: "a\nb\tc\\d'e\"f"},
		{in: `\a\b\f\r\v`, want: "\a\b\f\r\v"},
		{in: `\x41\x4a\x4A`, want: "AJJ"},
		{in: `\xe9`, want: "é"},
		{in: `\xe9`, isBytes: true, want: "\xe9"},
		{in: `\u00e9\U0001F600`, want: "é😀"},
		{in: `\u00e9`, isBytes: true, want: `\u00e9`},
		{in: `\101\7\0`, want: "A\a\x00"},
		{in: `\1234`, want: "S4"},
		{in: `\N{BULLET}`, want: `\N{BULLET}`},
		{in: `\q\z`, want: `\q\z`},
		{in: `\xZZ \x4`, want: `\xZZ \x4`},
		{in: `\u12`, want: `\u12`},
		{in: "a\\\nb", want: "ab"},
		{in: "a\\\r\nb", want: "ab"},
		{in: `trailing\`, want: `trailing\`},
		{in: `a\nb`, raw: true, want: `a\nb`},
		{in: `{{x}}`, fstr: true, want: "{x}"},
		{in: `{{\n}}`, fstr: true, raw: true, want: `{\n}`},
		{in: `}`, fstr: true, want: "}"},
	}
	for _, tc := range cases {
		if got := decodeLiteral(tc.in, tc.raw, tc.isBytes, tc.fstr); got != tc.want {
			t.Errorf("decodeLiteral(%q, raw=%v, bytes=%v, f=%v) = %q, want %q", tc.in, tc.raw, tc.isBytes, tc.fstr, got, tc.want)
		}
	}
}

func TestTemplateStringPrefix(t *testing.T) {
	cases := []struct{ src, want string }{
		{`x = t"a{b}"` + "\n", `(= [x] (fstr "a" b))`},
		{`x = rt"\d{b}"` + "\n", `(= [x] (fstr "\\d" b))`},
		{`x = Tr"{b}"` + "\n", `(= [x] (fstr "" b))`},
		// Not template strings: an identifier ending in t, and tt.
		{`x = at"{b}"` + "\n", `(= [x] "{b}")` + "\n" + `(ERROR at)`},
	}
	for _, tc := range cases {
		if got := dumpOf(t, tc.src); got != tc.want {
			t.Errorf("%s: got\n%s\nwant\n%s", tc.src, got, tc.want)
		}
	}
}
