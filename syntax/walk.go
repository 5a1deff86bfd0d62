package syntax

// The tree walk runs in C. Handing every node out through the smacker binding
// costs a Go allocation and a map lookup per node (Tree.cachedNode), which
// more than doubles the parse time; instead one cgo call walks the whole tree
// with a TSTreeCursor and writes fixed-size records (struct rec) into a
// buffer it grows with realloc. The conversion then reads the records from Go
// with no further cgo calls, and the buffer is reused for the next file.
//
// The tree-sitter runtime is compiled into github.com/smacker/go-tree-sitter;
// this preamble declares the handful of its C functions it needs, with the
// struct layouts of the api.h bundled there, instead of including the header.

/*
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

// TSNode and TSTreeCursor from tree-sitter's api.h (ABI 14).
typedef struct { uint32_t context[4]; const void *id; const void *tree; } cfl_node;
typedef struct { const void *tree; const void *id; uint32_t context[3]; } cfl_cursor;

extern cfl_node ts_tree_root_node(const void *self);
extern uint16_t ts_node_symbol(cfl_node self);
extern uint32_t ts_node_start_byte(cfl_node self);
extern uint32_t ts_node_end_byte(cfl_node self);
extern bool ts_node_is_missing(cfl_node self);
extern cfl_cursor ts_tree_cursor_new(cfl_node node);
extern void ts_tree_cursor_delete(cfl_cursor *self);
extern cfl_node ts_tree_cursor_current_node(const cfl_cursor *self);
extern uint16_t ts_tree_cursor_current_field_id(const cfl_cursor *self);
extern bool ts_tree_cursor_goto_parent(cfl_cursor *self);
extern bool ts_tree_cursor_goto_next_sibling(cfl_cursor *self);
extern bool ts_tree_cursor_goto_first_child(cfl_cursor *self);

// One record per kept node, in pre-order. Must match the Go type rec.
typedef struct {
	uint16_t sym;
	uint8_t field;
	uint8_t flags;
	uint32_t start;
	uint32_t end;
	int32_t parent; // index of the nearest kept ancestor, -1 for the root
	int32_t next;   // index just past this node's subtree
} cfl_rec;

#define CFL_MISSING 1

// A record buffer, malloc'ed and grown by cfl_walk.
typedef struct {
	cfl_rec *recs;
	int64_t cap;
} cfl_buf;

static inline bool cfl_kept(const uint8_t *keep, uint32_t nkeep, uint16_t sym, bool missing) {
	return missing || sym >= nkeep || keep[sym];
}

static bool cfl_grow(cfl_buf *buf, int64_t need) {
	int64_t cap = buf->cap < 1024 ? 1024 : buf->cap;
	while (cap < need) {
		cap *= 2;
	}
	if (cap > INT32_MAX) {
		cap = INT32_MAX;
		if (cap < need) {
			return false;
		}
	}
	cfl_rec *r = realloc(buf->recs, (size_t)cap * sizeof(cfl_rec));
	if (!r) {
		return false;
	}
	buf->recs = r;
	buf->cap = cap;
	return true;
}

// cfl_walk visits every node of the tree and records the kept ones in buf:
// those whose keep[sym] is set, symbols past the table (ERROR) and MISSING
// nodes. Children of nodes that are not kept are still visited; they are
// recorded under their nearest kept ancestor. It returns the number of
// records, or -1 if it ran out of memory.
static int64_t cfl_walk(const void *tree, const uint8_t *keep, uint32_t nkeep, cfl_buf *buf) {
	if (buf->cap < 1 && !cfl_grow(buf, 1)) {
		return -1;
	}
	cfl_rec *out = buf->recs;
	cfl_node root = ts_tree_root_node(tree);
	out[0].sym = ts_node_symbol(root);
	out[0].field = 0;
	out[0].flags = 0;
	out[0].start = ts_node_start_byte(root);
	out[0].end = ts_node_end_byte(root);
	out[0].parent = -1;
	out[0].next = 1;
	int64_t n = 1;
	int64_t par = 0; // record of the cursor's nearest kept ancestor

	// kept[d] tells whether the cursor's ancestor at depth d was recorded, so
	// that climbing back up knows when it leaves the subtree of par.
	uint8_t small[512];
	uint8_t *kept = small;
	size_t kcap = sizeof small, depth = 0;
	int64_t result = -1;

	cfl_cursor cur = ts_tree_cursor_new(root);
	if (!ts_tree_cursor_goto_first_child(&cur)) {
		result = n;
		goto done;
	}
	depth = 1;
	for (;;) {
		cfl_node node = ts_tree_cursor_current_node(&cur);
		uint16_t sym = ts_node_symbol(node);
		bool missing = ts_node_is_missing(node);
		bool rec = cfl_kept(keep, nkeep, sym, missing);
		if (rec) {
			if (n >= buf->cap) {
				if (!cfl_grow(buf, n + 1)) {
					goto done;
				}
				out = buf->recs;
			}
			cfl_rec *r = &out[n];
			r->sym = sym;
			r->field = (uint8_t)ts_tree_cursor_current_field_id(&cur);
			r->flags = missing ? CFL_MISSING : 0;
			r->start = ts_node_start_byte(node);
			r->end = ts_node_end_byte(node);
			r->parent = (int32_t)par;
			r->next = (int32_t)(n + 1);
			n++;
		}
		if (ts_tree_cursor_goto_first_child(&cur)) {
			if (depth >= kcap) {
				size_t ncap = kcap * 2;
				uint8_t *k = kept == small ? malloc(ncap) : realloc(kept, ncap);
				if (!k) {
					goto done;
				}
				if (kept == small) {
					memcpy(k, small, kcap);
				}
				kept = k;
				kcap = ncap;
			}
			kept[depth++] = rec;
			if (rec) {
				par = n - 1;
			}
			continue;
		}
		// A leaf: move on to the next sibling, closing the subtrees we leave.
		while (!ts_tree_cursor_goto_next_sibling(&cur)) {
			if (!ts_tree_cursor_goto_parent(&cur)) {
				// Back at the root, record 0.
				out[0].next = (int32_t)n;
				result = n;
				goto done;
			}
			depth--;
			if (kept[depth] && par > 0) {
				// The node we are back on is par: its subtree ends here.
				out[par].next = (int32_t)n;
				par = out[par].parent;
			}
		}
	}
done:
	ts_tree_cursor_delete(&cur);
	if (kept != small) {
		free(kept);
	}
	return result;
}

// cfl_root reads the root node the way cfl_walk does (for the layout test).
static void cfl_root(const void *tree, uint16_t *sym, uint32_t *start, uint32_t *end) {
	cfl_node root = ts_tree_root_node(tree);
	*sym = ts_node_symbol(root);
	*start = ts_node_start_byte(root);
	*end = ts_node_end_byte(root);
}
*/
import "C"

import (
	"unsafe"

	sitter "github.com/smacker/go-tree-sitter"
)

// rec is one tree-sitter node as recorded by the C walker (cfl_rec).
type rec struct {
	sym    uint16
	field  uint8
	flags  uint8
	start  uint32
	end    uint32
	parent int32 // nearest recorded ancestor, -1 for the root
	next   int32 // index just past this node's subtree
}

const recMissing = 1

// Compile-time checks that rec has the size of cfl_rec.
var _ [unsafe.Sizeof(rec{}) - unsafe.Sizeof(C.cfl_rec{})]struct{}
var _ [unsafe.Sizeof(C.cfl_rec{}) - unsafe.Sizeof(rec{})]struct{}

// baseTree mirrors the layout of sitter.BaseTree, whose first field is the
// unexported `c *C.TSTree`. TestRawTreeLayout guards the assumption.
type baseTree struct {
	c        unsafe.Pointer
	isClosed bool
}

// rawTree returns the TSTree* behind t.
func rawTree(t *sitter.Tree) unsafe.Pointer {
	return (*baseTree)(unsafe.Pointer(t.BaseTree)).c
}

// recBuf is a C-allocated record buffer.
type recBuf struct {
	b C.cfl_buf
}

// newRecBuf allocates a buffer for about n records.
func newRecBuf(n int) *recBuf {
	rb := &recBuf{}
	if n > 0 {
		if p := C.malloc(C.size_t(n) * C.size_t(unsafe.Sizeof(rec{}))); p != nil {
			rb.b.recs = (*C.cfl_rec)(p)
			rb.b.cap = C.int64_t(n)
		}
	}
	return rb
}

func (rb *recBuf) cap() int { return int(rb.b.cap) }

func (rb *recBuf) free() {
	C.free(unsafe.Pointer(rb.b.recs))
	rb.b = C.cfl_buf{}
}

// walk records the kept nodes of t in rb, growing it as needed. The records
// live in C memory: they are valid until rb is walked again or freed. ok is
// false if C ran out of memory (or, which would be a bug, the records are
// inconsistent).
func walk(t *sitter.Tree, rb *recBuf) (recs []rec, ok bool) {
	n := int64(C.cfl_walk(rawTree(t), (*C.uint8_t)(unsafe.Pointer(&keepTab[0])), C.uint32_t(len(keepTab)), &rb.b))
	if n < 0 {
		return nil, false
	}
	recs = unsafe.Slice((*rec)(unsafe.Pointer(rb.b.recs)), n)
	// The conversion loops over children with j = recs[j].next; make sure
	// that always moves forward and stays inside the parent, so that no bug
	// can turn into an endless loop.
	for i := 1; i < len(recs); i++ {
		r := &recs[i]
		if int(r.next) <= i || r.parent < 0 || int(r.parent) >= i || r.next > recs[r.parent].next {
			return nil, false
		}
	}
	return recs, true
}

// rootInfo reads the root node's symbol and byte range through the C side.
func rootInfo(t *sitter.Tree) (sym uint16, start, end uint32) {
	var s C.uint16_t
	var a, b C.uint32_t
	C.cfl_root(rawTree(t), &s, &a, &b)
	return uint16(s), uint32(a), uint32(b)
}
