package finding

import (
	"slices"
	"testing"
)

func TestUTF16Len(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want int
	}{
		{"", 0},
		{"x = 1", 5},
		{"é", 1},        // two bytes, one unit
		{"中文", 2},       // three bytes each, one unit each
		{"🚀", 2},        // outside the BMP: a surrogate pair
		{"a\xffb", 3},   // an invalid byte counts as one unit
		{"\xf0\x9f", 2}, // a cut 4-byte rune: one unit per byte
	} {
		if got := UTF16Len(tc.s); got != tc.want {
			t.Errorf("UTF16Len(%q) = %d, want %d", tc.s, got, tc.want)
		}
		if got := UTF16Len([]byte(tc.s)); got != tc.want {
			t.Errorf("UTF16Len([]byte(%q)) = %d, want %d", tc.s, got, tc.want)
		}
	}
}

func TestLineStarts(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want []int
	}{
		{"", []int{0}},
		{"x", []int{0}},
		{"x\n", []int{0, 2}},
		{"a\nbc\n\nd", []int{0, 2, 5, 6}},
		{"a\r\nb", []int{0, 3}}, // \r stays in its line
	} {
		if got := LineStarts(tc.s); !slices.Equal(got, tc.want) {
			t.Errorf("LineStarts(%q) = %v, want %v", tc.s, got, tc.want)
		}
		if got := LineStarts([]byte(tc.s)); !slices.Equal(got, tc.want) {
			t.Errorf("LineStarts([]byte(%q)) = %v, want %v", tc.s, got, tc.want)
		}
	}
}
