package syntax

import (
	"testing"
	"unsafe"
)

// drainOpenArenas empties the list of arenas left by earlier conversions,
// so that the next conversion starts from the arena the test's own left.
func drainOpenArenas() {
	for len(openArenas) > 0 {
		<-openArenas
	}
}

func addr[T any](p *T) uintptr { return uintptr(unsafe.Pointer(p)) }

// TestTreesShareChunks: the second file's first name is allocated right
// after the first file's last one, in the chunk the first file left room
// in, not in a chunk of its own.
func TestTreesShareChunks(t *testing.T) {
	drainOpenArenas()
	first := mustParse(t, "x = a\n").Body[0].(*Assign)
	second := mustParse(t, "y = b\n").Body[0].(*Assign)
	last := max(addr(first.Targets[0].(*Name)), addr(first.Value.(*Name)))
	next := min(addr(second.Targets[0].(*Name)), addr(second.Value.(*Name)))
	if next != last+unsafe.Sizeof(Name{}) {
		t.Errorf("the second tree's first name is at %#x, want %#x, just after the first tree's last", next, last+unsafe.Sizeof(Name{}))
	}
}

// TestDroppedBodiesShareNoChunk: the nodes of a body DeferBodies drops are
// in a chunk no later tree allocates from, or a tree would keep them alive.
func TestDroppedBodiesShareNoChunk(t *testing.T) {
	drainOpenArenas()
	src := []byte("def f():\n    return a + b\n")
	f, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	def := f.Body[0].(*FunctionDef)
	if !def.deferrable {
		t.Fatal("the body of f is not deferrable; the test needs one that is")
	}
	dropped := def.body[0].(*Return).Value.(*BinOp).Y.(*Name)
	f.DeferBodies(src, nil)
	next := mustParse(t, "c\n").Body[0].(*ExprStmt).X.(*Name)
	if addr(next) == addr(dropped)+unsafe.Sizeof(Name{}) {
		t.Error("a later tree allocates in the chunk of a dropped body")
	}
}

// TestDecodedBodiesShareChunks: a deferred body that Body decodes is kept
// in the arena the trees share, as a converted tree is.
func TestDecodedBodiesShareChunks(t *testing.T) {
	src := []byte("def f():\n    return a\n")
	f, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	f.DeferBodies(src, nil)
	drainOpenArenas()
	before := mustParse(t, "x\n").Body[0].(*ExprStmt).X.(*Name)
	decoded := f.Body[0].(*FunctionDef).Body()[0].(*Return).Value.(*Name)
	if addr(decoded) != addr(before)+unsafe.Sizeof(Name{}) {
		t.Errorf("the decoded body's name is at %#x, want %#x, just after the last tree's", addr(decoded), addr(before)+unsafe.Sizeof(Name{}))
	}
}
