package output

import (
	"reflect"
	"strings"
	"testing"
)

// The expected values were computed by running the hash function of
// github/codeql-action's src/fingerprints.ts under Node 20 (with the `long`
// package it uses) on files with exactly these bytes.
func TestLineHashes(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string
	}{
		{"empty", "", []string{"c129715d7a2bc9a3:1"}},
		{"simple", "import os\nos.fork()\n", []string{"f86198a5d592ff8f:1", "a62091d4b6217128:1", "c129715d7a2bc9a3:1"}},
		{"line endings and blanks", "a\r\nb\rc\n\n\n  \t x = 1\t\n",
			[]string{"7b347bfa3a329847:1", "d412554ca5df4a10:1", "dec758c511364e9c:1", "f11cc171b261e7f3:1", "e107cf68c905f3b5:1", "8e00d41f0ebba6bf:1", "c129715d7a2bc9a3:1"}},
		{"non-ASCII and astral", "x = \"héllo wörld 😀 中文\"\nprint(x)\n", []string{"2cfb239b8df76896:1", "f1b89f20de0d133:1", "c129715d7a2bc9a3:1"}},
		{"short repeated lines differ", "same\nsame\nsame\n", []string{"55dfc028cbd34ba7:1", "54dd522503d971eb:1", "930af01a65e2307f:1", "c129715d7a2bc9a3:1"}},
		{"malformed UTF-8 and BOM", "\xef\xbb\xbfbom\n\xe2\x82x\xff\xf0\x9f\x98\n\xed\xa0\x80z\xc0\xaf\n",
			[]string{"515133156ddaf604:1", "5be90b3e1a687579:1", "9aac085b5e3f8728:1", "c129715d7a2bc9a3:1"}},
		{"line longer than the block", strings.Repeat("x", 250) + "\n", []string{"52b56201ffb58620:1", "c129715d7a2bc9a3:1"}},
		{"no final newline", "no newline at end", []string{"2b2a3b070f8338d2:1"}},
		{"identical blocks count up", strings.Repeat(strings.Repeat("y", 120)+"\n", 3),
			[]string{"cadd4b5b9d92c51c:1", "cadd4b5b9d92c51c:2", "cadd4b5b9d92c51c:3", "c129715d7a2bc9a3:1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := LineHashes([]byte(tt.src)); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("LineHashes(%q)\n got %q\nwant %q", tt.src, got, tt.want)
			}
		})
	}
}

func TestDecodeUTF16(t *testing.T) {
	tests := []struct {
		in   string
		want []uint16
	}{
		{"a", []uint16{'a'}},
		{"é", []uint16{0xE9}},
		{"😀", []uint16{0xD83D, 0xDE00}},
		{"\xe2\x82x", []uint16{0xFFFD, 'x'}},               // truncated 3-byte sequence: one U+FFFD
		{"\xf0\x9f\x98", []uint16{0xFFFD}},                 // truncated at the end
		{"\xed\xa0\x80", []uint16{0xFFFD, 0xFFFD, 0xFFFD}}, // surrogate: ED then two lone continuations
		{"\xc0\xaf", []uint16{0xFFFD, 0xFFFD}},             // overlong
		{"\xef\xbb\xbf", []uint16{0xFEFF}},                 // BOM kept
	}
	for _, tt := range tests {
		var got []uint16
		decodeUTF16([]byte(tt.in), func(u uint16) { got = append(got, u) })
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("decodeUTF16(%q) = %04x, want %04x", tt.in, got, tt.want)
		}
	}
}
