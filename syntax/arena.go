package syntax

import "runtime"

// A file's nodes are allocated in chunks, not one by one: the whole tree
// lives and dies together, and a few large allocations cost the allocator
// and the garbage collector far less than millions of small ones.

const (
	minChunk = 8
	maxChunk = 256
)

// slab hands out *T from chunks that grow geometrically.
type slab[T any] struct {
	free []T
	next int
}

func (s *slab[T]) new() *T {
	if len(s.free) == 0 {
		s.next = min(max(2*s.next, minChunk), maxChunk)
		s.free = make([]T, s.next)
	}
	p := &s.free[0]
	s.free = s.free[1:]
	return p
}

// sliceSlab copies short slices into shared chunks.
type sliceSlab[T any] struct {
	free []T
	next int
}

// clone returns a copy of src with len == cap (so that appending to the
// result never writes into a neighbour), or nil for an empty src.
func (s *sliceSlab[T]) clone(src []T) []T {
	n := len(src)
	if n == 0 {
		return nil
	}
	if n > len(s.free) {
		if n > maxChunk/4 {
			out := make([]T, n)
			copy(out, src)
			return out
		}
		s.next = min(max(2*s.next, 4*minChunk), 4*maxChunk)
		s.free = make([]T, max(s.next, n))
	}
	out := s.free[:n:n]
	copy(out, src)
	s.free = s.free[n:]
	return out
}

// arena holds the slabs of one conversion.
type arena struct {
	names      slab[Name]
	attributes slab[Attribute]
	calls      slab[Call]
	strs       slab[String]
	numbers    slab[Number]
	constants  slab[Constant]
	sequences  slab[Sequence]
	compares   slab[Compare]
	boolOps    slab[BoolOp]
	unaryOps   slab[UnaryOp]
	binOps     slab[BinOp]
	subscripts slab[Subscript]
	opaques    slab[Opaque]
	exprStmts  slab[ExprStmt]
	assigns    slab[Assign]
	returns    slab[Return]
	ifs        slab[If]
	otherStmts slab[OtherStmt]
	exprSlices sliceSlab[Expr]
	stmtSlices sliceSlab[Stmt]
	argSlices  sliceSlab[Arg]
}

// The trees of one run share their chunks. A tree is made in the arena an
// earlier conversion left (takeArena), and leaves its own for a later one
// (leaveArena): each file's last chunk of each node type, otherwise about
// half empty when the tree is done, is filled by the next file's nodes.
// On the standard library that slack was 25 MB of the trees' 197 MB. The
// files of a program live until its analysis ends, so sharing costs them
// nothing; a tree dropped alone (the language server's, on each edit) may
// keep alive one chunk per node type that a later tree shares.
//
// Only the nodes that are kept go in a shared arena: the scratch arena of
// the bodies DeferBodies drops (convert.go) and ScanBody's are their own,
// or the dropped nodes would stay alive in chunks another tree holds.

// openArenas are the arenas finished conversions left, with room in their
// last chunks; at most about one per conversion running at once.
var openArenas = make(chan *arena, runtime.GOMAXPROCS(0)+1)

// takeArena returns the arena an earlier conversion left, or an empty one.
func takeArena() arena {
	select {
	case a := <-openArenas:
		return *a
	default:
		return arena{}
	}
}

// leaveArena hands a's room on to a later conversion. A conversion that
// panicked does not leave its arena: it is dropped with what it made.
func leaveArena(a arena) {
	select {
	case openArenas <- &a:
	default:
	}
}
