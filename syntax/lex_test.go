package syntax

import (
	"strings"
	"testing"
)

// TestLexer checks the tokens the small tokenizer sees, "⏎" for the end of
// a logical line.
func TestLexer(t *testing.T) {
	tests := []struct {
		src  string
		want string
	}{
		{"x = a, *b\n", "x|=|a|,|*|b|⏎"},
		{"a ** b *= c == d\n", "a|**|b|*=|c|==|d|⏎"},
		{"s = 'it''s' \"q\\\"\"\n", `s|=|'it'|'s'|"q\""|⏎`},
		{"r'\\'' b\"x\" Rb'y' f'{a}' t\"{b!r:>{w}}\"\n", `r'\''|b"x"|Rb'y'|f'{a}'|t"{b!r:>{w}}"|⏎`},
		{"f\"{d[\"k\"]} {x}\" + 1\n", `f"{d["k"]} {x}"|+|1|⏎`},
		{"'''a\nb''' c\n", "'''a\nb'''|c|⏎"},
		{"x = (1,\n 2)  # c\ny\n", "x|=|(|1|,|2|)|⏎|y|⏎"},
		{"x = 1 + \\\n  2\n", "x|=|1|+|2|⏎"},
		{"n = 1e-5 + 0x1E - .5j + 1_000\n", "n|=|1e-5|+|0x1E|-|.5j|+|1_000|⏎"},
		{"'unterminated\nx\n", "'unterminated|⏎|x|⏎"},
		{"ünï = 1\n", "ünï|=|1|⏎"},
		// A quote in a format specifier is a fill character; a comment in
		// a field (Python 3.12) may hold one.
		{"f\"{x:'^10}\" + y\n", `f"{x:'^10}"|+|y|⏎`},
		{"f'''{x # it's\n}''' + y\n", "f'''{x # it's\n}'''|+|y|⏎"},
	}
	for _, tt := range tests {
		lx := &lexer{src: []byte(tt.src)}
		var got []string
		for {
			tok, ok := lx.next()
			if !ok {
				break
			}
			if tok.kind == tokNewline {
				got = append(got, "⏎")
				continue
			}
			got = append(got, tok.text(lx.src))
		}
		if g := strings.Join(got, "|"); g != tt.want {
			t.Errorf("%q:\n got %s\nwant %s", tt.src, g, tt.want)
		}
	}
}
