package syntax

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
