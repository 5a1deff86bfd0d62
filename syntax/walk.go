package syntax

// The parse and the tree walk run in C, in one cgo call (cfl_parse_walk).
// Handing every node out through the smacker binding costs a Go allocation
// and a map lookup per node (Tree.cachedNode), which more than doubles the
// parse time; instead the call parses, walks the whole tree with a
// TSTreeCursor and writes fixed-size records (struct rec) into a buffer it
// grows with realloc. The conversion then reads the records from Go with no
// further cgo calls, and the buffer is reused for the next file. Everything
// tree-sitter allocates during that call comes from a bump arena, dropped
// at the end (below, before cfl_parse_walk).
//
// The tree-sitter runtime is compiled into github.com/smacker/go-tree-sitter;
// this preamble declares the handful of its C functions it needs, with the
// struct layouts of the api.h bundled there, instead of including the header.

/*
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#ifndef _WIN32
#include <sys/mman.h>
#endif

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

// ---------------------------------------------------------------------------
// Tree-sitter's allocations during a parse come from an arena of the parse's
// own: a parse allocates and frees hundreds of thousands of small blocks
// (subtrees, stack nodes), and its tree is dropped as a whole once walked.
// Blocks of up to 64 KB are handed out from per-size free lists or by
// moving a pointer, with no lock and no coalescing, and a freed block goes
// back on its list, so that no pattern of allocations can make the arena
// grow past what is live by more than its size classes round up; larger
// blocks are libc's. Nothing is given back to libc until the arena is
// reset.
//
// ts_set_allocator is global, so the arena is the calling thread's, set
// only for the duration of cfl_parse_walk (one cgo call, one thread);
// everywhere else, and for blocks libc gave out, the functions below are
// libc's. Every block carries its capacity in front of it.

typedef struct cfl_chunk {
	struct cfl_chunk *next;
	char *end;
} cfl_chunk;

#define CFL_HDR 16
#define CFL_SMALL 64   // free lists for blocks of 16, 32, ... 1024 bytes,
#define CFL_CLASSES 70 // then of 2, 4, ... 64 KB
#define CFL_BIG ((size_t)64 << 10)
#define CFL_FIRST_CHUNK ((size_t)256 << 10)
#define CFL_MAX_CHUNK ((size_t)32 << 20)
#define CFL_KEEP_CHUNK ((size_t)4 << 20)

typedef struct {
	cfl_chunk *chunks; // newest first
	char *at, *limit;  // the free space of the newest chunk
	size_t next_size;  // the size of the next chunk
	size_t used;       // bytes of chunks this parse
	void *free_list[CFL_CLASSES];
} cfl_arena;

static __thread cfl_arena *cfl_cur;

// Chunks of more than CFL_KEEP_CHUNK bytes, made only for large files, are
// mapped from the kernel and unmapped when freed. From libc they would stay
// in the process: glibc raises its mmap threshold to the size of each
// mapped block freed, so after the first large parse it serves blocks of up
// to 32 MB from its heaps, and after a parse in pieces (chunks.go) those
// are freed on several threads' heaps, which it keeps (90 MB more peak RSS
// through the rest of a check of a 10 MB file). The smaller chunks come
// from libc, which hands the same pages out again without a fault each.
static cfl_chunk *cfl_map_chunk(size_t size) {
#ifndef _WIN32
	if (size > CFL_KEEP_CHUNK) {
		void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		return p == MAP_FAILED ? NULL : p;
	}
#endif
	return malloc(size);
}

static void cfl_unmap_chunk(cfl_chunk *c) {
#ifndef _WIN32
	size_t size = (size_t)(c->end - (char *)c);
	if (size > CFL_KEEP_CHUNK) {
		munmap(c, size);
		return;
	}
#endif
	free(c);
}

static char *cfl_chunk_start(cfl_chunk *c) {
	return (char *)(((uintptr_t)(c + 1) + 15) & ~(uintptr_t)15);
}

static bool cfl_in_arena(const cfl_arena *a, const void *p) {
	for (const cfl_chunk *c = a->chunks; c; c = c->next) {
		if ((const char *)p >= (const char *)c && (const char *)p < c->end) {
			return true;
		}
	}
	return false;
}

// cfl_class returns the free list of blocks of capacity c (a class size).
static int cfl_class(size_t c) {
	if (c <= 16 * CFL_SMALL) {
		return (int)(c / 16) - 1;
	}
	int k = CFL_SMALL;
	for (size_t s = 2048; s < c; s *= 2) {
		k++;
	}
	return k;
}

// cfl_capacity_for rounds a request up to its class size.
static size_t cfl_capacity_for(size_t n) {
	if (n <= 16 * CFL_SMALL) {
		return n ? (n + 15) & ~(size_t)15 : 16;
	}
	size_t c = 2048;
	while (c < n) {
		c *= 2;
	}
	return c;
}

static void *cfl_arena_alloc(cfl_arena *a, size_t n) {
	if (n > CFL_BIG) {
		// Few and large: libc's, handed back by cfl_ts_free and
		// cfl_ts_realloc.
		return malloc(n);
	}
	size_t capacity = cfl_capacity_for(n);
	void **head = &a->free_list[cfl_class(capacity)];
	if (*head) {
		void *p = *head;
		*head = *(void **)p;
		return p;
	}
	size_t need = capacity + CFL_HDR;
	if ((size_t)(a->limit - a->at) < need) {
		size_t size = a->next_size ? a->next_size : CFL_FIRST_CHUNK;
		while (size < need + sizeof(cfl_chunk) + 16) {
			size *= 2;
		}
		cfl_chunk *c = cfl_map_chunk(size);
		if (!c) {
			// A block of libc's own, which cfl_ts_free and
			// cfl_ts_realloc hand back to libc.
			return malloc(n);
		}
		c->end = (char *)c + size;
		c->next = a->chunks;
		a->chunks = c;
		a->at = cfl_chunk_start(c);
		a->limit = c->end;
		a->used += size;
		a->next_size = size < CFL_MAX_CHUNK ? size * 2 : size;
	}
	char *p = a->at;
	a->at += need;
	*(size_t *)p = capacity;
	return p + CFL_HDR;
}

static size_t cfl_capacity(const void *p) {
	return *(const size_t *)((const char *)p - CFL_HDR);
}

static void cfl_arena_release(cfl_arena *a, void *p) {
	void **head = &a->free_list[cfl_class(cfl_capacity(p))];
	*(void **)p = *head;
	*head = p;
}

static void *cfl_ts_malloc(size_t n) {
	cfl_arena *a = cfl_cur;
	return a ? cfl_arena_alloc(a, n) : malloc(n);
}

static void *cfl_ts_calloc(size_t count, size_t n) {
	cfl_arena *a = cfl_cur;
	if (!a) {
		return calloc(count, n);
	}
	if (n && count > SIZE_MAX / n) {
		return NULL;
	}
	void *p = cfl_arena_alloc(a, count * n);
	if (p) {
		memset(p, 0, count * n);
	}
	return p;
}

static void *cfl_ts_realloc(void *p, size_t n) {
	cfl_arena *a = cfl_cur;
	if (!a || (p && !cfl_in_arena(a, p))) {
		return realloc(p, n);
	}
	if (!p) {
		return cfl_arena_alloc(a, n);
	}
	size_t capacity = cfl_capacity(p);
	if (n <= capacity) {
		return p;
	}
	void *q = cfl_arena_alloc(a, n);
	if (q) {
		memcpy(q, p, capacity < n ? capacity : n);
		cfl_arena_release(a, p);
	}
	return q;
}

static void cfl_ts_free(void *p) {
	cfl_arena *a = cfl_cur;
	if (!p) {
		return;
	}
	if (a && cfl_in_arena(a, p)) {
		cfl_arena_release(a, p);
		return;
	}
	free(p);
}

extern void ts_set_allocator(void *(*m)(size_t), void *(*c)(size_t, size_t), void *(*r)(void *, size_t), void (*f)(void *));

static void cfl_use_arena_allocator(void) {
	ts_set_allocator(cfl_ts_malloc, cfl_ts_calloc, cfl_ts_realloc, cfl_ts_free);
}

static void cfl_free_chunks(cfl_chunk *c) {
	while (c) {
		cfl_chunk *next = c->next;
		cfl_unmap_chunk(c);
		c = next;
	}
}

// cfl_arena_reset empties the arena for the next parse. It keeps one chunk
// the size of what this parse used, so that a parse of a file like it takes
// one chunk, unless that is large: one big file must not pin its memory in
// an idle arena.
static void cfl_arena_reset(cfl_arena *a) {
	memset(a->free_list, 0, sizeof a->free_list);
	if (!a->chunks) {
		return;
	}
	cfl_chunk *keep = a->chunks;
	size_t used = a->used;
	if (keep->next || (size_t)(keep->end - (char *)keep) > CFL_KEEP_CHUNK) {
		cfl_free_chunks(keep);
		keep = NULL;
		if (used <= CFL_KEEP_CHUNK && (keep = cfl_map_chunk(used))) {
			keep->end = (char *)keep + used;
			keep->next = NULL;
		}
	}
	a->chunks = keep;
	a->used = keep ? used : 0;
	a->at = keep ? cfl_chunk_start(keep) : NULL;
	a->limit = keep ? keep->end : NULL;
	a->next_size = used <= CFL_KEEP_CHUNK ? used : CFL_FIRST_CHUNK;
}

static void cfl_arena_free(cfl_arena *a) {
	cfl_free_chunks(a->chunks);
	a->chunks = NULL;
	a->at = a->limit = NULL;
	a->used = 0;
}

extern void *ts_parser_new(void);
extern void ts_parser_delete(void *self);
extern bool ts_parser_set_language(void *self, const void *language);
extern void *ts_parser_parse_string(void *self, const void *old_tree, const char *string, uint32_t length);
extern void ts_tree_delete(void *self);
extern const void *tree_sitter_python(void);

// cfl_parse_walk parses src with a parser of its own, every allocation of
// the parser and the tree in arena a, walks the tree into buf, and drops
// it all at once. It returns the number of records; -1 if memory ran out,
// -2 if tree-sitter did not parse.
static int64_t cfl_parse_walk(cfl_arena *a, const char *src, uint32_t len, const uint8_t *keep, uint32_t nkeep, cfl_buf *buf) {
	cfl_cur = a;
	int64_t n = -2;
	void *parser = ts_parser_new();
	if (parser && ts_parser_set_language(parser, tree_sitter_python())) {
		void *tree = ts_parser_parse_string(parser, NULL, src, len);
		if (tree) {
			n = cfl_walk(tree, keep, nkeep, buf);
			ts_tree_delete(tree);
		}
	}
	if (parser) {
		ts_parser_delete(parser);
	}
	cfl_cur = NULL;
	cfl_arena_reset(a);
	return n;
}

*/
import "C"

import (
	"errors"
	"unsafe"
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

// consistent reports whether the records nest: the conversion loops over
// children with j = recs[j].next, so that must always move forward and
// stay inside the parent, or a bug could turn into an endless loop.
func consistent(recs []rec) bool {
	for i := 1; i < len(recs); i++ {
		r := &recs[i]
		if int(r.next) <= i || r.parent < 0 || int(r.parent) >= i || r.next > recs[r.parent].next {
			return false
		}
	}
	return true
}

// Tree-sitter allocates through the arena allocator: inside cfl_parse_walk
// from the thread's arena, elsewhere (the binding's own parsers, in tests
// and benchmarks) from libc as before.
func init() { C.cfl_use_arena_allocator() }

// tsArena is a C bump arena for tree-sitter's allocations during a parse.
type tsArena struct {
	a C.cfl_arena
}

func getArena() *tsArena {
	select {
	case a := <-idleArenas:
		return a
	default:
		return &tsArena{}
	}
}

func putArena(a *tsArena) {
	select {
	case idleArenas <- a:
	default:
		C.cfl_arena_free(&a.a)
	}
}

// parseWalk parses in with tree-sitter and records the kept nodes in rb,
// growing it as needed, in one cgo call: a parser of its own, the tree and
// everything else tree-sitter allocates on the way come from an arena,
// dropped as a whole when the walk is done. The records live in C memory:
// they are valid until rb is used again or freed.
func parseWalk(in []byte, rb *recBuf) ([]rec, error) {
	a := getArena()
	defer putArena(a)
	var p *C.char
	if len(in) > 0 {
		p = (*C.char)(unsafe.Pointer(&in[0]))
	}
	n := int64(C.cfl_parse_walk(&a.a, p, C.uint32_t(len(in)), (*C.uint8_t)(unsafe.Pointer(&keepTab[0])), C.uint32_t(len(keepTab)), &rb.b))
	switch n {
	case -1:
		return nil, errors.New("out of memory walking the syntax tree")
	case -2:
		// Only cancellation or a timeout can make tree-sitter give up,
		// and neither is set.
		return nil, errors.New("tree-sitter did not parse the source")
	}
	recs := unsafe.Slice((*rec)(unsafe.Pointer(rb.b.recs)), n)
	if !consistent(recs) {
		return nil, errors.New("inconsistent syntax-tree records")
	}
	return recs, nil
}
