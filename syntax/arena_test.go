package syntax

import (
	"testing"
	"unsafe"
)

func addr[T any](p *T) uintptr { return uintptr(unsafe.Pointer(p)) }

// parseIn parses src in arenas, failing the test on error.
func parseIn(t *testing.T, src string, arenas *Arenas) *File {
	t.Helper()
	return parseBytesIn(t, []byte(src), arenas)
}

// parseBytesIn is parseIn for a source the test keeps, to defer the
// tree's bodies (DeferBodies takes the bytes the tree was parsed from).
func parseBytesIn(t *testing.T, src []byte, arenas *Arenas) *File {
	t.Helper()
	f, err := ParseIn(src, arenas)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// namesOf returns the two names of `a = b`.
func namesOf(f *File) (target, value *Name) {
	a := f.Body[0].(*Assign)
	return a.Targets[0].(*Name), a.Value.(*Name)
}

// TestTreesShareChunks: the trees of one Arenas share chunks, the second
// file's first name allocated right after the first file's last one; trees
// parsed apart (Parse, or two Arenas) share none, so that dropping one
// frees it whatever the other does.
func TestTreesShareChunks(t *testing.T) {
	next := func(first, second *File) bool {
		t1, v1 := namesOf(first)
		t2, v2 := namesOf(second)
		return min(addr(t2), addr(v2)) == max(addr(t1), addr(v1))+unsafe.Sizeof(Name{})
	}
	program := NewArenas()
	if !next(parseIn(t, "x = a\n", program), parseIn(t, "y = b\n", program)) {
		t.Error("the second tree of one Arenas does not continue the first's chunk")
	}
	if next(mustParse(t, "x = a\n"), mustParse(t, "y = b\n")) {
		t.Error("two trees parsed apart share a chunk")
	}
	if next(parseIn(t, "x = a\n", NewArenas()), parseIn(t, "y = b\n", NewArenas())) {
		t.Error("the trees of two Arenas share a chunk")
	}
}

// TestDroppedBodiesShareNoChunk: the nodes of a body DeferBodies drops are
// in a chunk no later tree of the same Arenas allocates from, or that tree
// would keep them alive.
func TestDroppedBodiesShareNoChunk(t *testing.T) {
	program := NewArenas()
	src := []byte("def f():\n    return a + b\n")
	f := parseBytesIn(t, src, program)
	def := f.Body[0].(*FunctionDef)
	if !def.deferrable {
		t.Fatal("the body of f is not deferrable; the test needs one that is")
	}
	dropped := def.body[0].(*Return).Value.(*BinOp).Y.(*Name)
	f.DeferBodies(src, nil)
	next := parseIn(t, "c\n", program).Body[0].(*ExprStmt).X.(*Name)
	if addr(next) == addr(dropped)+unsafe.Sizeof(Name{}) {
		t.Error("a later tree allocates in the chunk of a dropped body")
	}
}

// TestDecodedBodiesShareChunks: a deferred body that Body decodes is kept
// in its file's Arenas, as the file's other trees are.
func TestDecodedBodiesShareChunks(t *testing.T) {
	program := NewArenas()
	src := []byte("def f():\n    return a\n")
	f := parseBytesIn(t, src, program)
	f.DeferBodies(src, nil)
	before := parseIn(t, "x\n", program).Body[0].(*ExprStmt).X.(*Name)
	decoded := f.Body[0].(*FunctionDef).Body()[0].(*Return).Value.(*Name)
	if addr(decoded) != addr(before)+unsafe.Sizeof(Name{}) {
		t.Errorf("the decoded body's name is at %#x, want %#x, just after the program's last tree's", addr(decoded), addr(before)+unsafe.Sizeof(Name{}))
	}
}
