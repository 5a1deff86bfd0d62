package syntax

import (
	"runtime"
	"strings"
	"testing"
)

// nestedIfs returns n nested if statements with a call at the bottom.
func nestedIfs(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString(strings.Repeat(" ", i))
		b.WriteString("if x:\n")
	}
	b.WriteString(strings.Repeat(" ", n))
	b.WriteString("f()\n")
	return b.String()
}

// exprDepth returns the nesting depth of the tree (statements and
// expressions), counted with Inspect.
func exprDepth(f *File) int {
	depth, deepest := 0, 0
	for _, s := range f.Body {
		Inspect(s, func(n Node) bool {
			if n == nil {
				depth--
				return true
			}
			depth++
			deepest = max(deepest, depth)
			return true
		})
	}
	return deepest
}

func TestDeepNesting(t *testing.T) {
	cases := []struct {
		name string
		src  string
	}{
		{"10000 parentheses", "x = " + strings.Repeat("(", 10000) + "f(1)" + strings.Repeat(")", 10000) + "\n"},
		{"10000 brackets", "x = " + strings.Repeat("[", 10000) + "1" + strings.Repeat("]", 10000) + "\n"},
		{"10000 nested calls", "x = " + strings.Repeat("f(", 10000) + "1" + strings.Repeat(")", 10000) + "\n"},
		{"10000 unclosed parentheses", "a()\nx = " + strings.Repeat("(", 10000) + "\nb()\n"},
		{"100000 unary minus", "x = " + strings.Repeat("-", 100000) + "1\n"},
		{"100000 or", "x = a" + strings.Repeat(" or a", 100000) + "\n"},
		{"100000 chained assignments", strings.Repeat("a = ", 100000) + "1\n"},
		{"2000 nested blocks", nestedIfs(2000)},
		{"2000 nested functions", func() string {
			var b strings.Builder
			for i := 0; i < 2000; i++ {
				b.WriteString(strings.Repeat(" ", i) + "def f():\n")
			}
			b.WriteString(strings.Repeat(" ", 2000) + "g()\n")
			return b.String()
		}()},
		{"elif chain", "if a: pass\n" + strings.Repeat("elif b: f()\n", 20000)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := mustParse(t, tc.src)
			if d := exprDepth(f); d > 2*maxDepth+10 && !strings.Contains(tc.name, "elif") {
				t.Errorf("tree depth %d exceeds the cap", d)
			}
		})
	}
}

// TestDeepNestingKeepsShallowCalls checks that moderate nesting (deeper than
// CPython allows, shallower than the cap) loses nothing.
func TestDeepNestingKeepsShallowCalls(t *testing.T) {
	src := "x = " + strings.Repeat("(", 500) + "torch.cuda.init()" + strings.Repeat(")", 500) + "\n" + nestedIfs(90)
	f := mustParse(t, src)
	calls := 0
	for _, s := range f.Body {
		Inspect(s, func(n Node) bool {
			if _, ok := n.(*Call); ok {
				calls++
			}
			return true
		})
	}
	if calls != 2 || len(f.Errors) != 0 {
		t.Errorf("found %d calls, errors %v; want 2 calls and no errors", calls, f.Errors)
	}
}

// TestLargeFile parses a 20 MB generated file and bounds the memory the
// result holds.
func TestLargeFile(t *testing.T) {
	src := []byte(generatedSource(20 << 20))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	if len(f.Errors) > 0 {
		t.Fatalf("syntax errors in generated source: %v", f.Errors[:1])
	}
	// Every unit has one decorated function and one class.
	if want := 2 * strings.Count(string(src), "\nclass Worker_"); len(f.Body) < want {
		t.Errorf("%d top-level statements, want at least %d", len(f.Body), want)
	}
	live := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	perByte := float64(live) / float64(len(src))
	t.Logf("%d MB source: %d MB of Go heap held by the tree (%.1f bytes per source byte)", len(src)>>20, live>>20, perByte)
	if perByte > 40 {
		t.Errorf("tree holds %.1f bytes per source byte", perByte)
	}
	runtime.KeepAlive(f)
}
