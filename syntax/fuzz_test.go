package syntax

import (
	"errors"
	"math/rand"
	"strings"
	"testing"
)

// FuzzParse checks that no input makes Parse panic or produce a tree that
// breaks the invariants of checkFile, that only the documented errors come
// back, and that the tree survives its encoding (codec.go) unchanged. The seeds are in testdata/fuzz/FuzzParse. To fuzz (see
// docs/fuzzing.md for the long runs and their results):
//
//	go test ./syntax -run '^$' -fuzz '^FuzzParse$' -fuzztime 10000000x -fuzzminimizetime 10x -parallel 2
//
// -fuzzminimizetime 10x matters: by default each new interesting input is
// minimized for up to 60 s, which on a young corpus is most of the run.
func FuzzParse(f *testing.F) {
	f.Fuzz(func(t *testing.T, src []byte) {
		file, err := Parse(src)
		if err != nil {
			var se *SourceError
			if !errors.As(err, &se) || se.Kind == ErrInternal || file != nil {
				t.Fatalf("Parse(%q): %v", src, err)
			}
			return
		}
		if err := checkFile(src, file); err != nil {
			t.Fatalf("Parse(%q): %v", src, err)
		}
		if d := roundTrip(src, file); d != "" {
			t.Fatalf("Parse(%q), encoded and decoded: %s", src, d)
		}
	})
}

// TestTokenSoup parses random sequences of Python tokens, which reach error
// recovery paths byte-level fuzzing finds slowly, and checks the invariants.
func TestTokenSoup(t *testing.T) {
	toks := strings.Fields(`def class if elif else for while try except except* finally with as async await lambda return yield from import global nonlocal del pass break continue raise assert match case type print exec not and or in is ( ) [ ] { } : , ; . ... = == != < > <= >= += -= ** * / // % @ | & ^ ~ -> := x y f g 1 2.0 "s" f"{x}" t"{y}" r'\d' b'' """doc""" # \n \n \n \t _ True None`)
	rng := rand.New(rand.NewSource(1))
	for n := 0; n < 3000; n++ {
		var b strings.Builder
		for i, k := 0, 1+rng.Intn(40); i < k; i++ {
			switch tok := toks[rng.Intn(len(toks))]; tok {
			case `\n`:
				b.WriteString("\n" + strings.Repeat(" ", 4*rng.Intn(3)))
			case `\t`:
				b.WriteString("\t")
			default:
				b.WriteString(tok + " ")
			}
		}
		src := []byte(b.String())
		f, err := Parse(src)
		if err != nil {
			t.Fatalf("Parse(%q): %v", src, err)
		}
		if err := checkFile(src, f); err != nil {
			t.Fatalf("Parse(%q): %v", src, err)
		}
		if d := roundTrip(src, f); d != "" {
			t.Fatalf("Parse(%q), encoded and decoded: %s", src, d)
		}
	}
}
