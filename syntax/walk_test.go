package syntax

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"
)

func parseTree(t testing.TB, src string) *sitter.Tree {
	t.Helper()
	p := sitter.NewParser()
	defer p.Close()
	p.SetLanguage(language)
	tree, err := p.ParseCtx(context.Background(), nil, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

// TestWalkMatchesBinding compares the records parseWalk makes (its own
// parser, in the arena) with a walk through the smacker API of a tree
// parsed by the binding (libc's allocator): same kept nodes, in the same
// order, with the same fields.
func TestWalkMatchesBinding(t *testing.T) {
	src := "@d\nasync def f(a, *b, c: int = 1) -> T:\n    return [x async for x in y if x] + (lambda: z)()\n" +
		"x = f\"{a!r:>{w}}\" 'b' rb'\\x00'  # c\nif a not in b and c is not d: pass\nx = (1,\n"
	tree := parseTree(t, src)
	defer tree.Close()
	rb := newRecBuf(0)
	defer rb.free()
	recs, err := parseWalk([]byte(src), rb)
	if err != nil {
		t.Fatal(err)
	}

	var want []string
	var visit func(n *sitter.Node, field string)
	visit = func(n *sitter.Node, field string) {
		sym := uint16(n.Symbol())
		if n.IsMissing() || int(sym) >= len(keepTab) || keepTab[sym] != 0 {
			want = append(want, fmt.Sprintf("%s %s [%d,%d) missing=%v", nodeType(sym), field, n.StartByte(), n.EndByte(), n.IsMissing()))
		}
		for i := 0; i < int(n.ChildCount()); i++ {
			visit(n.Child(i), n.FieldNameForChild(i))
		}
	}
	visit(tree.RootNode(), "")

	var got []string
	fieldName := map[field]string{}
	for name, f := range fieldNames {
		fieldName[f] = name
	}
	for i, r := range recs {
		got = append(got, fmt.Sprintf("%s %s [%d,%d) missing=%v", nodeType(r.sym), fieldName[fieldOf[r.field]], r.start, r.end, r.flags&recMissing != 0))
		// Structure: parent before child, children inside parents, next
		// past the subtree.
		if i == 0 {
			if r.parent != -1 || int(r.next) != len(recs) {
				t.Errorf("root record %+v", r)
			}
			continue
		}
		p := recs[r.parent]
		if int(r.parent) >= i || r.start < p.start || r.end > p.end || r.next > p.next || int(r.next) <= i {
			t.Errorf("record %d %+v inconsistent with parent %d %+v", i, r, r.parent, p)
		}
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("records:\n%s\n\nbinding walk:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestWalkGrowsBuffer starts from a tiny buffer.
func TestWalkGrowsBuffer(t *testing.T) {
	src := []byte(strings.Repeat("f(a, b.c, [1, 2, 3])\n", 2000))
	small := newRecBuf(1)
	defer small.free()
	big := newRecBuf(1 << 20)
	defer big.free()
	a, err1 := parseWalk(src, small)
	b, err2 := parseWalk(src, big)
	if err1 != nil || err2 != nil || len(a) != len(b) || len(a) < 2000*10 {
		t.Fatalf("got %d and %d records (%v, %v)", len(a), len(b), err1, err2)
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("record %d differs: %+v vs %+v", i, a[i], b[i])
		}
	}
}

// TestArenaAcrossSizes parses, on several goroutines at once, sources from
// a line to a few megabytes (whose parse outgrows the arena's first chunks
// and reallocates blocks across them), broken ones among them, interleaved
// with parses through the binding, which allocate from libc meanwhile; the
// same source must always give the same records, and the binding's parses
// must still work.
func TestArenaAcrossSizes(t *testing.T) {
	unit := "class A(B):\n    def f(self, x=[1, 2], *a, **k):\n        return {y: g(y) for y in x if y}\n"
	srcs := [][]byte{
		[]byte("x = 1\n"),
		[]byte(strings.Repeat(unit, 200)),
		[]byte(strings.Repeat(unit, 30000)),                   // about 3 MB
		[]byte(strings.Repeat("f(a, (b, [c, {d: e(\n", 3000)), // unclosed: error recovery
	}
	digest := func(src []byte) string {
		rb := newRecBuf(0)
		defer rb.free()
		recs, err := parseWalk(src, rb)
		if err != nil {
			return err.Error()
		}
		return fmt.Sprintf("%d %+v %+v", len(recs), recs[len(recs)/2], recs[len(recs)-1])
	}
	want := make([]string, len(srcs))
	for i, src := range srcs {
		want[i] = digest(src)
	}
	onGoroutines(t, 4, 6, func(g, i int) string {
		k := (g + i) % len(srcs)
		if got := digest(srcs[k]); got != want[k] {
			return fmt.Sprintf("source %d: got %s, want %s", k, got, want[k])
		}
		p := sitter.NewParser()
		defer p.Close()
		p.SetLanguage(language)
		tree, err := p.ParseCtx(context.Background(), nil, srcs[k%2])
		if err != nil || tree.RootNode().Type() != "module" {
			return fmt.Sprintf("the binding's parse failed: %v", err)
		}
		tree.Close()
		return ""
	})
}

// onGoroutines runs step(g, i) for i < rounds on each of n goroutines g at
// once; a step returns what went wrong, or "", and a goroutine stops at its
// first failure.
func onGoroutines(t *testing.T, n, rounds int, step func(g, i int) string) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make(chan string, n)
	for g := 0; g < n; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < rounds; i++ {
				if msg := step(g, i); msg != "" {
					errs <- msg
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// TestConcurrentParse runs Parse from many goroutines (run with -race).
func TestConcurrentParse(t *testing.T) {
	srcs := []string{
		"import torch\ntorch.cuda.init()\n",
		"def f(x):\n    return [g(y) for y in x]\n",
		"class A(B):\n    x: int = 1\n",
		"x = t\"{a}\"\n",
		"broken(\n",
	}
	want := make([]string, len(srcs))
	for i, s := range srcs {
		want[i] = DumpFile(mustParse(t, s))
	}
	onGoroutines(t, 8, 200, func(g, i int) string {
		k := (g + i) % len(srcs)
		f, err := Parse([]byte(srcs[k]))
		if err != nil {
			return err.Error()
		}
		if got := DumpFile(f); got != want[k] {
			return fmt.Sprintf("got %s want %s", got, want[k])
		}
		return ""
	})
}

// TestStdlibSample parses a sample of the standard library and checks the
// invariants on every result.
func TestStdlibSample(t *testing.T) {
	files, _ := stdlibFiles(t)
	step := max(1, len(files)/150)
	for i := 0; i < len(files); i += step {
		src, err := os.ReadFile(files[i])
		if err != nil {
			continue
		}
		f, err := Parse(src)
		if err != nil {
			if se, ok := err.(*SourceError); !ok || se.Kind == ErrInternal {
				t.Errorf("%s: %v", files[i], err)
			}
			continue
		}
		if err := checkFile(src, f); err != nil {
			t.Errorf("%s: %v", files[i], err)
		}
	}
}
