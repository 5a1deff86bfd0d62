package syntax

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"unsafe"
)

// A tree's encoding, for the parse-tree cache (TreeCache): tree-sitter's
// parse is most of the cost of loading a module, and a tree is a function
// of the source bytes alone, so a file that did not change is decoded
// instead. Decoding does what the conversion does (allocate the nodes, in
// the same slabs) without the parse and the walk of tree-sitter's tree.
//
// The format is a pre-order walk: a node is a tag byte (0 for nil) and its
// fields in declaration order; integers are unsigned varints; a span is its
// length plus one and its start (0 alone for the zero span); a slice is its
// length plus one (0 for nil, so that nil and empty stay apart); a string
// that lies in the source, as identifiers and literals do (convert takes
// them as substrings of it), is its offset and length, any other (a decoded
// string value, a dotted name joined from parts) its bytes. Decoding
// therefore needs the source and points into it, as Parse does. An offset (a
// span's start, a string's place) is written as its signed distance from the
// offset written before it (encoder.delta): in the walk's order most are a
// few bytes apart, one varint byte instead of the two or three of an offset
// into the file. A deferrable body starts again from offset 0, as deferBody
// writes it on its own.
//
// A change to the AST must change the codec and codecVersion; the round
// trip over the fixtures, the standard library and the fuzz corpus
// (codec_test.go) fails until both are done.

// codecVersion starts every encoding; a tree cache also keys its entries
// by the build, so this guards only against a stale codec in one build.
const codecVersion = "cflast3\n"

// Tags of the statement and expression node types.
const (
	_ byte = iota
	tagImport
	tagImportFrom
	tagFunctionDef
	tagClassDef
	tagIf
	tagFor
	tagWhile
	tagWith
	tagTry
	tagMatch
	tagAssign
	tagExprStmt
	tagReturn
	tagGlobal
	tagOtherStmt

	tagName
	tagAttribute
	tagCall
	tagString
	tagNumber
	tagConstant
	tagSequence
	tagDict
	tagLambda
	tagCompare
	tagBoolOp
	tagUnaryOp
	tagBinOp
	tagIfExp
	tagSubscript
	tagComprehension
	tagStarred
	tagAwait
	tagNamedExpr
	tagOpaque
)

// AppendEncoded appends the encoding of f, the tree Parse returned for src,
// to buf.
func AppendEncoded(buf []byte, f *File, src []byte) []byte {
	e := encoder{buf: append(buf, codecVersion...), src: src}
	if len(src) > 0 {
		e.base = uintptr(unsafe.Pointer(unsafe.SliceData(src)))
	}
	e.stmts(f.Body)
	e.len(len(f.Comments), f.Comments == nil)
	for _, c := range f.Comments {
		e.span(c.Span)
		e.str(c.Text)
	}
	e.len(len(f.Errors), f.Errors == nil)
	for _, s := range f.Errors {
		e.span(s)
	}
	return e.buf
}

type encoder struct {
	buf  []byte
	src  []byte
	base uintptr // the address of src's first byte
	last int     // the last offset written (delta)
}

// delta is the zigzag encoding of off's distance from the last offset
// written, which it then becomes: a node's offsets lie close to the ones
// before it in the pre-order walk, so most take one byte instead of three.
func (e *encoder) delta(off int) uint64 {
	d := off - e.last
	e.last = off
	return uint64(d<<1) ^ uint64(d>>63)
}

func (e *encoder) uint(v int) { e.buf = binary.AppendUvarint(e.buf, uint64(v)) }

func (e *encoder) bool(b bool) {
	if b {
		e.buf = append(e.buf, 1)
	} else {
		e.buf = append(e.buf, 0)
	}
}

// span writes s's length plus one, then its start; the zero span (no place:
// a positional argument's keyword span) is a single 0, and leaves the last
// offset where it was.
func (e *encoder) span(s Span) {
	if s == (Span{}) {
		e.uint(0)
		return
	}
	e.uint(int(s.End) - int(s.Start) + 1)
	e.buf = binary.AppendUvarint(e.buf, e.delta(int(s.Start)))
}

// len writes a slice's length, or that it is nil.
func (e *encoder) len(n int, isNil bool) {
	if isNil {
		e.uint(0)
	} else {
		e.uint(n + 1)
	}
}

// str writes s as a place in the source when it is one (low bit 0), else
// as its bytes (low bit 1).
func (e *encoder) str(s string) {
	if p := uintptr(unsafe.Pointer(unsafe.StringData(s))); len(s) > 0 && e.base != 0 && p >= e.base && p+uintptr(len(s)) <= e.base+uintptr(len(e.src)) {
		e.buf = binary.AppendUvarint(e.buf, e.delta(int(p-e.base))<<1)
		e.uint(len(s))
		return
	}
	e.uint(len(s)<<1 | 1)
	e.buf = append(e.buf, s...)
}

func (e *encoder) strs(ss []string) {
	e.len(len(ss), ss == nil)
	for _, s := range ss {
		e.str(s)
	}
}

func (e *encoder) stmts(ss []Stmt) {
	e.len(len(ss), ss == nil)
	for _, s := range ss {
		e.stmt(s)
	}
}

func (e *encoder) exprs(xs []Expr) {
	e.len(len(xs), xs == nil)
	for _, x := range xs {
		e.expr(x)
	}
}

func (e *encoder) args(as []Arg) {
	e.len(len(as), as == nil)
	for _, a := range as {
		e.span(a.Span)
		e.str(a.Keyword)
		e.span(a.KeywordSpan)
		e.expr(a.Value)
		e.uint(a.Star)
	}
}

func (e *encoder) aliases(as []Alias) {
	e.len(len(as), as == nil)
	for _, a := range as {
		e.span(a.Span)
		e.str(a.Name)
		e.str(a.AsName)
	}
}

func (e *encoder) params(ps []Param) {
	e.len(len(ps), ps == nil)
	for _, p := range ps {
		e.span(p.Span)
		e.str(p.Name)
		e.uint(int(p.Kind))
		e.expr(p.Default)
		e.expr(p.Annotation)
	}
}

func (e *encoder) stmt(s Stmt) {
	switch s := s.(type) {
	case nil:
		e.buf = append(e.buf, 0)
	case *Import:
		e.buf = append(e.buf, tagImport)
		e.span(s.Span)
		e.aliases(s.Names)
		e.bool(s.Lazy)
	case *ImportFrom:
		e.buf = append(e.buf, tagImportFrom)
		e.span(s.Span)
		e.str(s.Module)
		e.uint(s.Level)
		e.aliases(s.Names)
		e.bool(s.Star)
		e.bool(s.Lazy)
	case *FunctionDef:
		e.buf = append(e.buf, tagFunctionDef)
		e.span(s.Span)
		e.str(s.Name)
		e.span(s.NameSpan)
		e.params(s.Params)
		e.exprs(s.Decorators)
		e.functionBody(s)
		e.bool(s.Async)
	case *ClassDef:
		e.buf = append(e.buf, tagClassDef)
		e.span(s.Span)
		e.str(s.Name)
		e.span(s.NameSpan)
		e.args(s.Bases)
		e.exprs(s.Decorators)
		e.stmts(s.Body)
	case *If:
		e.buf = append(e.buf, tagIf)
		e.span(s.Span)
		e.expr(s.Test)
		e.stmts(s.Body)
		e.stmts(s.Else)
	case *For:
		e.buf = append(e.buf, tagFor)
		e.span(s.Span)
		e.expr(s.Target)
		e.expr(s.Iter)
		e.stmts(s.Body)
		e.stmts(s.Else)
		e.bool(s.Async)
	case *While:
		e.buf = append(e.buf, tagWhile)
		e.span(s.Span)
		e.expr(s.Test)
		e.stmts(s.Body)
		e.stmts(s.Else)
	case *With:
		e.buf = append(e.buf, tagWith)
		e.span(s.Span)
		e.len(len(s.Items), s.Items == nil)
		for _, it := range s.Items {
			e.span(it.Span)
			e.expr(it.Value)
			e.expr(it.Target)
		}
		e.stmts(s.Body)
		e.bool(s.Async)
	case *Try:
		e.buf = append(e.buf, tagTry)
		e.span(s.Span)
		e.stmts(s.Body)
		e.len(len(s.Handlers), s.Handlers == nil)
		for _, h := range s.Handlers {
			e.span(h.Span)
			e.expr(h.Type)
			e.str(h.Name)
			e.stmts(h.Body)
		}
		e.stmts(s.Else)
		e.stmts(s.Finally)
	case *Match:
		e.buf = append(e.buf, tagMatch)
		e.span(s.Span)
		e.expr(s.Subject)
		e.len(len(s.Cases), s.Cases == nil)
		for _, c := range s.Cases {
			e.span(c.Span)
			e.expr(c.Guard)
			e.stmts(c.Body)
		}
	case *Assign:
		e.buf = append(e.buf, tagAssign)
		e.span(s.Span)
		e.exprs(s.Targets)
		e.expr(s.Value)
		e.str(s.Op)
		e.expr(s.Annotation)
	case *ExprStmt:
		e.buf = append(e.buf, tagExprStmt)
		e.span(s.Span)
		e.expr(s.X)
	case *Return:
		e.buf = append(e.buf, tagReturn)
		e.span(s.Span)
		e.expr(s.Value)
	case *Global:
		e.buf = append(e.buf, tagGlobal)
		e.span(s.Span)
		e.strs(s.Names)
		e.bool(s.Nonlocal)
	case *OtherStmt:
		e.buf = append(e.buf, tagOtherStmt)
		e.span(s.Span)
		e.str(s.Kind)
		e.exprs(s.Exprs)
	default:
		panic(fmt.Sprintf("syntax: no encoding for statement %T", s))
	}
}

func (e *encoder) expr(x Expr) {
	switch x := x.(type) {
	case nil:
		e.buf = append(e.buf, 0)
	case *Name:
		e.buf = append(e.buf, tagName)
		e.span(x.Span)
		e.str(x.ID)
	case *Attribute:
		e.buf = append(e.buf, tagAttribute)
		e.span(x.Span)
		e.expr(x.X)
		e.str(x.Attr)
		e.span(x.AttrSpan)
	case *Call:
		e.buf = append(e.buf, tagCall)
		e.span(x.Span)
		e.expr(x.Func)
		e.args(x.Args)
		e.span(x.ArgsSpan)
	case *String:
		e.buf = append(e.buf, tagString)
		e.span(x.Span)
		e.str(x.Value)
		e.bool(x.Interpolated)
		e.exprs(x.Exprs)
	case *Number:
		e.buf = append(e.buf, tagNumber)
		e.span(x.Span)
		e.str(x.Text)
	case *Constant:
		e.buf = append(e.buf, tagConstant)
		e.span(x.Span)
		e.uint(int(x.Kind))
	case *Sequence:
		e.buf = append(e.buf, tagSequence)
		e.span(x.Span)
		e.uint(int(x.Kind))
		e.exprs(x.Elts)
	case *Dict:
		e.buf = append(e.buf, tagDict)
		e.span(x.Span)
		e.exprs(x.Keys)
		e.exprs(x.Values)
	case *Lambda:
		e.buf = append(e.buf, tagLambda)
		e.span(x.Span)
		e.params(x.Params)
		e.expr(x.Body)
	case *Compare:
		e.buf = append(e.buf, tagCompare)
		e.span(x.Span)
		e.expr(x.Left)
		e.strs(x.Ops)
		e.exprs(x.Comparators)
	case *BoolOp:
		e.buf = append(e.buf, tagBoolOp)
		e.span(x.Span)
		e.str(x.Op)
		e.expr(x.X)
		e.expr(x.Y)
	case *UnaryOp:
		e.buf = append(e.buf, tagUnaryOp)
		e.span(x.Span)
		e.str(x.Op)
		e.expr(x.X)
	case *BinOp:
		e.buf = append(e.buf, tagBinOp)
		e.span(x.Span)
		e.str(x.Op)
		e.expr(x.X)
		e.expr(x.Y)
	case *IfExp:
		e.buf = append(e.buf, tagIfExp)
		e.span(x.Span)
		e.expr(x.Body)
		e.expr(x.Test)
		e.expr(x.Else)
	case *Subscript:
		e.buf = append(e.buf, tagSubscript)
		e.span(x.Span)
		e.expr(x.X)
		e.exprs(x.Index)
	case *Comprehension:
		e.buf = append(e.buf, tagComprehension)
		e.span(x.Span)
		e.uint(int(x.Kind))
		e.expr(x.Elt)
		e.expr(x.Value)
		e.len(len(x.Generators), x.Generators == nil)
		for _, g := range x.Generators {
			e.span(g.Span)
			e.expr(g.Target)
			e.expr(g.Iter)
			e.exprs(g.Ifs)
		}
	case *Starred:
		e.buf = append(e.buf, tagStarred)
		e.span(x.Span)
		e.expr(x.X)
	case *Await:
		e.buf = append(e.buf, tagAwait)
		e.span(x.Span)
		e.expr(x.X)
	case *NamedExpr:
		e.buf = append(e.buf, tagNamedExpr)
		e.span(x.Span)
		e.expr(x.Target)
		e.expr(x.Value)
	case *Opaque:
		e.buf = append(e.buf, tagOpaque)
		e.span(x.Span)
		e.str(x.Kind)
		e.exprs(x.Children)
	default:
		panic(fmt.Sprintf("syntax: no encoding for expression %T", x))
	}
}

// errCorrupt is what Decode returns for data that is not an encoding of a
// tree of src: the caller parses instead.
var errCorrupt = errors.New("syntax: corrupt tree encoding")

// Decode returns the tree that data, written by AppendEncoded for the same
// src, encodes; its identifiers and literals are substrings of src, which
// must not change afterwards (as for Parse). Data that is not such an
// encoding (damaged, truncated, of another codec version) gives an error,
// never a panic or a tree pointing outside src. A src Parse would refuse as
// too large (its offsets would not fit a Span) gives Parse's error.
func Decode(data, src []byte) (*File, error) { return DecodeIn(data, src, nil) }

// DecodeIn is Decode, allocating the tree in arenas, which trees that live
// and die with it share (arena.go); nil gives the tree arenas of its own.
func DecodeIn(data, src []byte, arenas *Arenas) (f *File, err error) {
	if arenas == nil {
		arenas = NewArenas()
	}
	if err := checkSize(len(src)); err != nil {
		return nil, err
	}
	if len(data) < len(codecVersion) || string(data[:len(codecVersion)]) != codecVersion {
		return nil, errCorrupt
	}
	d := &decoder{data: data[len(codecVersion):], src: src}
	if len(src) > 0 {
		d.text = unsafe.String(unsafe.SliceData(src), len(src))
	}
	// Whatever goes wrong in decoding is a miss for the caller, never a
	// crash: data that passed the cache's checksum is not damaged, so a
	// panic here would be a bug in this file, which the round trip tests
	// catch.
	defer func() {
		if r := recover(); r != nil {
			f, err = nil, errCorrupt
		}
	}()
	d.arenas = arenas
	d.a = arenas.take()
	f = &File{arenas: arenas}
	f.Body = d.stmts()
	if n, isNil := d.len(); !isNil {
		f.Comments = make([]Comment, n)
		for i := range f.Comments {
			f.Comments[i] = Comment{Span: d.span(), Text: d.str()}
		}
	}
	if n, isNil := d.len(); !isNil {
		f.Errors = make([]Span, n)
		for i := range f.Errors {
			f.Errors[i] = d.span()
		}
	}
	if len(d.data) != 0 {
		return nil, errCorrupt
	}
	arenas.leave(d.a)
	return f, nil
}

// decoder reads an encoding; a read past its end or a value out of range
// panics with errCorrupt, which Decode recovers.
type decoder struct {
	data []byte
	src  []byte
	text string // src as a string, sharing its bytes

	// Scratch stacks for the lists being decoded, copied into the arena
	// when complete, as convert does.
	ss []Stmt
	xs []Expr
	as []Arg

	// depth bounds the recursion on damaged data; a tree Parse returned
	// nests at most maxDepth statements and expressions.
	depth int
	last  int // the last offset read (encoder.delta)

	a       arena
	scratch arena   // deferrable bodies' nodes, as conv.scratch
	arenas  *Arenas // where a's came from, for the deferred bodies
}

// maxValue bounds every integer read: spans and string places are offsets
// into a source of at most maxSource bytes, doubled for the string tag.
const maxValue = 2*maxSource + 1

func (d *decoder) uint() int {
	v, n := binary.Uvarint(d.data)
	if n <= 0 || v > maxValue {
		panic(errCorrupt)
	}
	d.data = d.data[n:]
	return int(v)
}

// uint64 reads a varint that may be past maxValue: a zigzag delta, shifted
// once more for a string's place.
func (d *decoder) uint64() uint64 {
	v, n := binary.Uvarint(d.data)
	if n <= 0 || v > 4*maxValue {
		panic(errCorrupt)
	}
	d.data = d.data[n:]
	return v
}

// offset reads back what encoder.delta wrote: an offset into the source.
func (d *decoder) offset(z uint64) int {
	off := d.last + int(z>>1)
	if z&1 != 0 {
		off = d.last - int(z>>1) - 1
	}
	if off < 0 || off > len(d.src) {
		panic(errCorrupt)
	}
	d.last = off
	return off
}

func (d *decoder) byte() byte {
	if len(d.data) == 0 {
		panic(errCorrupt)
	}
	b := d.data[0]
	d.data = d.data[1:]
	return b
}

func (d *decoder) bool() bool {
	switch d.byte() {
	case 0:
		return false
	case 1:
		return true
	}
	panic(errCorrupt)
}

func (d *decoder) span() Span {
	n := d.uint()
	if n == 0 {
		return Span{}
	}
	n--
	start := d.offset(d.uint64())
	if start+n > len(d.src) {
		panic(errCorrupt)
	}
	return Span{Start: int32(start), End: int32(start + n)}
}

// len reads a slice's length: each element takes at least one byte, so a
// length beyond the data left is corrupt (and is not allocated).
func (d *decoder) len() (n int, isNil bool) {
	v := d.uint()
	if v == 0 {
		return 0, true
	}
	if v-1 > len(d.data) {
		panic(errCorrupt)
	}
	return v - 1, false
}

func (d *decoder) str() string {
	v := d.uint64()
	if v&1 == 0 {
		off, n := d.offset(v>>1), d.uint()
		if off+n > len(d.text) {
			panic(errCorrupt)
		}
		return d.text[off : off+n]
	}
	if v>>1 > uint64(len(d.data)) {
		panic(errCorrupt)
	}
	n := int(v >> 1)
	s := string(d.data[:n])
	d.data = d.data[n:]
	return s
}

func (d *decoder) strs() []string {
	n, isNil := d.len()
	if isNil {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = d.str()
	}
	return out
}

// list decodes a list with elem, as convert builds one: the elements on a
// scratch stack (elem may push nested lists), then copied into the arena;
// nil stays nil and empty stays empty.
func list[T any](d *decoder, stack *[]T, slab *sliceSlab[T], elem func() T) []T {
	n, isNil := d.len()
	if isNil {
		return nil
	}
	m := len(*stack)
	for range n {
		x := elem() // before reading *stack: elem may grow it
		*stack = append(*stack, x)
	}
	out := slab.clone((*stack)[m:])
	*stack = (*stack)[:m]
	if out == nil {
		out = []T{}
	}
	return out
}

func (d *decoder) stmts() []Stmt { return list(d, &d.ss, &d.a.stmtSlices, d.stmt) }

func (d *decoder) exprs() []Expr { return list(d, &d.xs, &d.a.exprSlices, d.expr) }

func (d *decoder) args() []Arg { return list(d, &d.as, &d.a.argSlices, d.arg) }

func (d *decoder) arg() Arg {
	a := Arg{Span: d.span(), Keyword: d.str(), KeywordSpan: d.span()}
	a.Value = d.expr()
	a.Star = d.uint()
	return a
}

func (d *decoder) aliases() []Alias {
	n, isNil := d.len()
	if isNil {
		return nil
	}
	out := make([]Alias, n)
	for i := range out {
		out[i] = Alias{Span: d.span(), Name: d.str(), AsName: d.str()}
	}
	return out
}

func (d *decoder) params() []Param {
	n, isNil := d.len()
	if isNil {
		return nil
	}
	out := make([]Param, n)
	for i := range out {
		p := &out[i]
		p.Span = d.span()
		p.Name = d.str()
		p.Kind = ParamKind(d.uint())
		p.Default = d.expr()
		p.Annotation = d.expr()
	}
	return out
}

func (d *decoder) enter() {
	if d.depth++; d.depth > 2*maxDepth {
		panic(errCorrupt)
	}
}

func (d *decoder) stmt() Stmt {
	d.enter()
	defer func() { d.depth-- }()
	switch d.byte() {
	case 0:
		return nil
	case tagImport:
		s := &Import{Span: d.span()}
		s.Names = d.aliases()
		s.Lazy = d.bool()
		return s
	case tagImportFrom:
		s := &ImportFrom{Span: d.span(), Module: d.str(), Level: d.uint()}
		s.Names = d.aliases()
		s.Star = d.bool()
		s.Lazy = d.bool()
		return s
	case tagFunctionDef:
		s := &FunctionDef{Span: d.span(), Name: d.str(), NameSpan: d.span()}
		s.Params = d.params()
		s.Decorators = d.exprs()
		d.functionBody(s)
		s.Async = d.bool()
		return s
	case tagClassDef:
		s := &ClassDef{Span: d.span(), Name: d.str(), NameSpan: d.span()}
		s.Bases = d.args()
		s.Decorators = d.exprs()
		s.Body = d.stmts()
		return s
	case tagIf:
		s := d.a.ifs.new()
		s.Span = d.span()
		s.Test = d.expr()
		s.Body = d.stmts()
		s.Else = d.stmts()
		return s
	case tagFor:
		s := &For{Span: d.span()}
		s.Target = d.expr()
		s.Iter = d.expr()
		s.Body = d.stmts()
		s.Else = d.stmts()
		s.Async = d.bool()
		return s
	case tagWhile:
		s := &While{Span: d.span()}
		s.Test = d.expr()
		s.Body = d.stmts()
		s.Else = d.stmts()
		return s
	case tagWith:
		s := &With{Span: d.span()}
		if n, isNil := d.len(); !isNil {
			s.Items = make([]WithItem, n)
			for i := range s.Items {
				it := &s.Items[i]
				it.Span = d.span()
				it.Value = d.expr()
				it.Target = d.expr()
			}
		}
		s.Body = d.stmts()
		s.Async = d.bool()
		return s
	case tagTry:
		s := &Try{Span: d.span()}
		s.Body = d.stmts()
		if n, isNil := d.len(); !isNil {
			s.Handlers = make([]ExceptHandler, n)
			for i := range s.Handlers {
				h := &s.Handlers[i]
				h.Span = d.span()
				h.Type = d.expr()
				h.Name = d.str()
				h.Body = d.stmts()
			}
		}
		s.Else = d.stmts()
		s.Finally = d.stmts()
		return s
	case tagMatch:
		s := &Match{Span: d.span()}
		s.Subject = d.expr()
		if n, isNil := d.len(); !isNil {
			s.Cases = make([]MatchCase, n)
			for i := range s.Cases {
				c := &s.Cases[i]
				c.Span = d.span()
				c.Guard = d.expr()
				c.Body = d.stmts()
			}
		}
		return s
	case tagAssign:
		s := d.a.assigns.new()
		s.Span = d.span()
		s.Targets = d.exprs()
		s.Value = d.expr()
		s.Op = d.str()
		s.Annotation = d.expr()
		return s
	case tagExprStmt:
		s := d.a.exprStmts.new()
		s.Span = d.span()
		s.X = d.expr()
		return s
	case tagReturn:
		s := d.a.returns.new()
		s.Span = d.span()
		s.Value = d.expr()
		return s
	case tagGlobal:
		s := &Global{Span: d.span()}
		s.Names = d.strs()
		s.Nonlocal = d.bool()
		return s
	case tagOtherStmt:
		s := d.a.otherStmts.new()
		s.Span = d.span()
		s.Kind = d.str()
		s.Exprs = d.exprs()
		return s
	}
	panic(errCorrupt)
}

func (d *decoder) expr() Expr {
	d.enter()
	defer func() { d.depth-- }()
	switch d.byte() {
	case 0:
		return nil
	case tagName:
		x := d.a.names.new()
		x.Span = d.span()
		x.ID = d.str()
		return x
	case tagAttribute:
		x := d.a.attributes.new()
		x.Span = d.span()
		x.X = d.expr()
		x.Attr = d.str()
		x.AttrSpan = d.span()
		return x
	case tagCall:
		x := d.a.calls.new()
		x.Span = d.span()
		x.Func = d.expr()
		x.Args = d.args()
		x.ArgsSpan = d.span()
		return x
	case tagString:
		x := d.a.strs.new()
		x.Span = d.span()
		x.Value = d.str()
		x.Interpolated = d.bool()
		x.Exprs = d.exprs()
		return x
	case tagNumber:
		x := d.a.numbers.new()
		x.Span = d.span()
		x.Text = d.str()
		return x
	case tagConstant:
		x := d.a.constants.new()
		x.Span = d.span()
		x.Kind = ConstantKind(d.uint())
		return x
	case tagSequence:
		x := d.a.sequences.new()
		x.Span = d.span()
		x.Kind = SequenceKind(d.uint())
		x.Elts = d.exprs()
		return x
	case tagDict:
		x := &Dict{Span: d.span()}
		x.Keys = d.exprs()
		x.Values = d.exprs()
		return x
	case tagLambda:
		x := &Lambda{Span: d.span()}
		x.Params = d.params()
		x.Body = d.expr()
		return x
	case tagCompare:
		x := d.a.compares.new()
		x.Span = d.span()
		x.Left = d.expr()
		x.Ops = d.strs()
		x.Comparators = d.exprs()
		return x
	case tagBoolOp:
		x := d.a.boolOps.new()
		x.Span = d.span()
		x.Op = d.str()
		x.X = d.expr()
		x.Y = d.expr()
		return x
	case tagUnaryOp:
		x := d.a.unaryOps.new()
		x.Span = d.span()
		x.Op = d.str()
		x.X = d.expr()
		return x
	case tagBinOp:
		x := d.a.binOps.new()
		x.Span = d.span()
		x.Op = d.str()
		x.X = d.expr()
		x.Y = d.expr()
		return x
	case tagIfExp:
		x := &IfExp{Span: d.span()}
		x.Body = d.expr()
		x.Test = d.expr()
		x.Else = d.expr()
		return x
	case tagSubscript:
		x := d.a.subscripts.new()
		x.Span = d.span()
		x.X = d.expr()
		x.Index = d.exprs()
		return x
	case tagComprehension:
		x := &Comprehension{Span: d.span(), Kind: ComprehensionKind(d.uint())}
		x.Elt = d.expr()
		x.Value = d.expr()
		if n, isNil := d.len(); !isNil {
			x.Generators = make([]CompFor, n)
			for i := range x.Generators {
				g := &x.Generators[i]
				g.Span = d.span()
				g.Target = d.expr()
				g.Iter = d.expr()
				g.Ifs = d.exprs()
			}
		}
		return x
	case tagStarred:
		x := &Starred{Span: d.span()}
		x.X = d.expr()
		return x
	case tagAwait:
		x := &Await{Span: d.span()}
		x.X = d.expr()
		return x
	case tagNamedExpr:
		x := &NamedExpr{Span: d.span()}
		x.Target = d.expr()
		x.Value = d.expr()
		return x
	case tagOpaque:
		x := d.a.opaques.new()
		x.Span = d.span()
		x.Kind = d.str()
		x.Children = d.exprs()
		return x
	}
	panic(errCorrupt)
}

// functionBody writes a function's body: a byte 0 and its statements; for
// a deferrable body, a byte 2 and its statements, which the decoder puts in
// its scratch arena, as the conversion does; for a deferred body nothing
// has decoded, a byte 1 and its encoding as it is. A decoded tree defers
// what the parsed one did.
func (e *encoder) functionBody(s *FunctionDef) {
	switch b := s.deferred; {
	case b != nil && !b.done.Load():
		e.buf = append(e.buf, 1)
		e.span(b.span)
		e.uint(len(b.enc))
		e.buf = append(e.buf, b.enc...)
	case b == nil && s.deferrable:
		// Written as deferBody writes it on its own, from offset 0: the
		// decoder keeps these bytes as the body's encoding.
		e.buf = append(e.buf, 2)
		last := e.last
		e.last = 0
		e.stmts(s.body)
		e.last = last
	default:
		e.buf = append(e.buf, 0)
		e.stmts(s.Body())
	}
}

// functionBody reads what encoder.functionBody wrote. A deferred body's
// encoding is checked by decoding it once (and dropping the nodes), so
// that damaged data is a miss now rather than a panic when the body is
// first asked for.
func (d *decoder) functionBody(s *FunctionDef) {
	switch d.byte() {
	case 0:
		s.body = d.stmts()
	case 1:
		sp := d.span()
		n := d.uint()
		if n > len(d.data) {
			panic(errCorrupt)
		}
		enc := make([]byte, n)
		copy(enc, d.data[:n])
		d.data = d.data[n:]
		check := &decoder{data: enc, src: d.src, text: d.text, depth: d.depth}
		if check.stmts(); len(check.data) != 0 {
			panic(errCorrupt)
		}
		s.deferred = &deferredBody{enc: enc, src: d.text, span: sp, arenas: d.arenas}
	case 2:
		start := d.data
		fileArena, last := d.a, d.last
		d.a, d.last = d.scratch, 0
		s.body = d.stmts()
		d.scratch, d.a, d.last = d.a, fileArena, last
		if len(s.body) == 0 {
			panic(errCorrupt)
		}
		s.deferrable = true
		// These bytes are what DeferBodies would encode the body to
		// (TestDecodedBodyEncoding): keep them, so that the model's
		// DeferBodies copies instead of encoding the body again. A copy,
		// not a slice of data, which would keep the whole entry alive.
		s.encoded = bytes.Clone(start[:len(start)-len(d.data)])
	default:
		panic(errCorrupt)
	}
}
