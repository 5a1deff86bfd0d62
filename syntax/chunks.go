package syntax

import (
	"runtime"
	"sync"
	"unsafe"
)

// A large file is parsed in pieces, on several threads at once.
// Tree-sitter's parse is most of a one-file check's time and runs on one
// thread (2.3 s of 4.3 s for a 10 MB file), while the other cores idle.
//
// Python's top level is a sequence of statements, and at the start of a
// top-level statement the tokenizer's state is empty: no open bracket or
// string, no pending continuation, an empty indentation stack. So the
// statements between two such starts parse alone to the same subtrees as
// in the whole file, and the pieces' records, shifted, concatenate to the
// whole file's. The pieces start where the small lexer (lex.go) finds a
// line that begins at column 0 with a name, outside brackets and strings,
// which is not an else, elif, except or finally arm and does not follow a
// decorator.
//
// Error recovery is the exception: tree-sitter recovers from a syntax error
// with what follows it, and a piece ends where the whole file goes on. A
// piece with an ERROR or MISSING node sends the file back to one whole
// parse, so a file with syntax errors gets exactly the tree it always got
// (if every piece parses clean, so does their concatenation). A piece that
// ends inside a string, a bracket or a continuation ends in an error too.
// The arms and decorators are left to the lexer because tree-sitter is
// lenient there: it reads a piece starting with `else:` as an annotated
// assignment to a name `else` (TestCutsChunkStartsAvoids).
// TestChunkedParse holds the records of both ways equal on the fixtures;
// cut at every start, they were equal on the 1,786 stdlib files and the
// 15,609 files of the accuracy corpus.

const (
	// minChunked is the smallest source parsed in pieces: below it the
	// lexing and the merge cost more than a second thread saves.
	minChunked = 1 << 20
	// minPiece is the smallest piece.
	minPiece = 256 << 10
)

// chunkCount returns how many pieces to parse a source of n bytes in: none
// on one core or for small sources, otherwise enough pieces per thread
// that one slow piece does not leave the other threads idle.
func chunkCount(n int) int {
	procs := runtime.GOMAXPROCS(0)
	if procs < 2 || n < minChunked {
		return 0
	}
	return min(n/minPiece, 4*procs)
}

// chunkStarts returns the offsets, after 0 and in increasing order, where
// in may be cut into pieces that parse alone: top-level statement starts,
// each the first one at or after the next multiple of gap.
func chunkStarts(in []byte, gap int) []int {
	var starts []int
	next := gap
	lx := lexer{src: in}
	var first token     // the first token of the logical line being read
	var lastFirst token // the first token of the last non-empty logical line
	atLineStart := true
	for next < len(in) {
		t, ok := lx.next()
		if !ok {
			break
		}
		if t.kind == tokNewline {
			if !atLineStart {
				lastFirst = first
			}
			atLineStart = true
			continue
		}
		if !atLineStart {
			continue
		}
		atLineStart = false
		first = t
		if t.start >= next && canStartPiece(in, t, lastFirst) {
			starts = append(starts, t.start)
			next = t.start + gap
		}
	}
	return starts
}

// canStartPiece reports whether t, the first token of a logical line, may
// begin a piece: a name at column 0, not an arm that continues the
// compound statement before it, not the definition after a decorator line.
func canStartPiece(in []byte, t token, lastFirst token) bool {
	if t.kind != tokName || t.start == 0 || in[t.start-1] != '\n' {
		return false
	}
	switch string(in[t.start:t.end]) {
	case "else", "elif", "except", "finally":
		return false
	}
	decorator := lastFirst.kind == tokOp && in[lastFirst.start] == '@'
	return !decorator
}

// parseChunked parses in as the pieces that starts cut it into, each on a
// thread, and returns the records of the whole file, in rb's C memory like
// parseWalk's (the caller puts rb back when done with them; they stay out
// of the Go heap and its collector); ok is false, and no records are
// returned, when a piece has a syntax error (or tree-sitter failed on one):
// the caller then parses the whole file.
func parseChunked(in []byte, starts []int) (recs []rec, rb *recBuf, ok bool) {
	bounds := append(append([]int{0}, starts...), len(in))
	pieces := make([][]rec, len(bounds)-1)
	bufs := make([]*recBuf, len(pieces))
	clean := make([]bool, len(pieces))
	defer func() {
		// The pieces' buffers are not kept for reuse: together they are
		// as large as the file's records.
		for _, rb := range bufs {
			if rb != nil {
				rb.free()
			}
		}
	}()
	var wg sync.WaitGroup
	work := make(chan int, len(pieces))
	for i := range pieces {
		work <- i
	}
	close(work)
	for range min(len(pieces), runtime.GOMAXPROCS(0)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				piece := in[bounds[i]:bounds[i+1]]
				bufs[i] = getRecs(len(piece)/6 + 256)
				r, err := parseWalk(piece, bufs[i])
				if err == nil && !hasErrors(r) {
					pieces[i], clean[i] = r, true
				}
			}
		}()
	}
	wg.Wait()
	for _, c := range clean {
		if !c {
			return nil, nil, false
		}
	}
	n := 1
	for _, p := range pieces {
		n += len(p) - 1
	}
	rb = getRecs(n)
	if rb.cap() < n {
		rb.free()
		rb = newRecBuf(n)
		if rb.cap() < n {
			return nil, nil, false // out of memory: the whole parse reports it
		}
	}
	recs = unsafe.Slice((*rec)(unsafe.Pointer(rb.b.recs)), n)
	mergePieces(recs, pieces, bounds)
	return recs, rb, true
}

// hasErrors reports whether the records hold an ERROR or a MISSING node.
func hasErrors(recs []rec) bool {
	for i := range recs {
		if recs[i].sym == errorSymbol || recs[i].flags&recMissing != 0 {
			return true
		}
	}
	return false
}

// mergePieces writes into out the pieces' records under one module record:
// each piece's own module record is dropped, its children become the
// module's, and its offsets and indices move by where it starts.
func mergePieces(out []rec, pieces [][]rec, bounds []int) {
	n := len(out)
	last := len(pieces) - 1
	out[0] = pieces[0][0]
	out[0].end = pieces[last][0].end + uint32(bounds[last])
	out[0].next = int32(n)
	at := int32(1)
	for i, p := range pieces {
		off := uint32(bounds[i])
		shift := at - 1 // record j of the piece becomes record j+shift
		for j := 1; j < len(p); j++ {
			r := p[j]
			r.start += off
			r.end += off
			if r.parent > 0 {
				r.parent += shift
			}
			r.next += shift
			out[j+int(shift)] = r
		}
		at += int32(len(p) - 1)
	}
}
