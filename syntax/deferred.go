package syntax

import (
	"sync"
	"sync/atomic"
	"unsafe"
)

// Deferred function bodies. The bodies of functions are most of a tree
// (62 % of the standard library's bytes are in them), and the analysis reads
// few of them: on the standard library it decodes about a tenth of those it
// defers. So the body of an outermost function (one defined at module level
// or in a class body, not inside another function) can be kept encoded, in
// the codec's format, and decoded when it is first asked for.
//
// The model's load pass (model/module.go, the indexer) walks every body
// first, and keeps pointers into some: `global` and `nonlocal` statements,
// nested function and class definitions, lambdas, import statements,
// stores into the first parameter's attributes (`self.x = v`) and the
// stores and calls that go through namespaces by computed names
// (`globals()[k] = v`, setattr, ...). A body with none of these (bodyPinned)
// gives it only identifiers, substrings of the source. So:
//
//   - the conversion converts such a body (found by a look at tree-sitter's
//     records, mayPin, then checked on the converted nodes, bodyPinned) in
//     a scratch arena of the file's, apart from the other nodes, and marks
//     the function deferrable;
//   - the model, once its load pass is done, calls File.DeferBodies, which
//     encodes every deferrable body and drops its nodes: the scratch arena's
//     chunks hold nothing else, so they are freed;
//   - Body decodes a deferred body, once, into the file's arenas
//     (arena.go), and keeps it; ScanBody decodes it for a walk that keeps
//     no pointer into it, into an arena of its own, and drops it again.
//
// model's TestDeferredBodiesHoldNothing checks the contract from the model's
// side: no binding, function, store or import of the index lies in a body
// DeferBodies deferred. A tree never given to DeferBodies (the language
// server's, the tests') keeps every body converted.

// deferBodies lets the tests convert every body eagerly, to compare.
var deferBodies = true

// deferredBody is a function body kept encoded until it is asked for.
type deferredBody struct {
	enc  []byte // the codec's encoding of the statements
	src  string // the file's source, which the encoding's strings point into
	span Span   // from the first statement's start to the last one's end

	once   sync.Once
	done   atomic.Bool
	stmts  []Stmt
	arenas *Arenas // where Body decodes: the file's (arena.go)
}

// Body returns the statements of the function's body, decoding them the
// first time they are asked for if DeferBodies deferred them; later calls
// return the same nodes. Safe for concurrent use.
func (d *FunctionDef) Body() []Stmt {
	if d.deferred == nil {
		return d.body
	}
	b := d.deferred
	b.once.Do(func() {
		// In the file's arenas, not one of its own: an arena per body
		// would leave most of its first chunks (8 nodes of each type it
		// uses) empty.
		a := b.arenas.take()
		b.stmts = decodeBody(b, &a)
		b.arenas.leave(a)
		b.done.Store(true)
	})
	return b.stmts
}

// ScanBody returns the statements of the body for a walk that keeps no
// pointer into them (it gathers identifiers, counts, spans): a deferred body
// not yet decoded is decoded into nodes that are dropped after the walk,
// not kept as Body's are.
func (d *FunctionDef) ScanBody() []Stmt {
	if d.deferred == nil {
		return d.body
	}
	if d.deferred.done.Load() {
		return d.deferred.stmts
	}
	// Not in the kept arena: these nodes are dropped after the walk.
	var scratch arena
	return decodeBody(d.deferred, &scratch)
}

// SetBody sets the function's body (for definitions made by hand, as the
// model makes a dataclass's __init__); it is never deferred.
func (d *FunctionDef) SetBody(body []Stmt) {
	d.body, d.deferred, d.deferrable, d.encoded = body, nil, false, nil
}

// Deferred reports whether DeferBodies deferred the body and it is still
// encoded (never asked for with Body), and where it lies: the span from its
// first statement to its last.
func (d *FunctionDef) Deferred() (Span, bool) {
	if d.deferred == nil || d.deferred.done.Load() {
		return Span{}, false
	}
	return d.deferred.span, true
}

// decodeBody decodes b's statements into the arena a.
func decodeBody(b *deferredBody, a *arena) []Stmt {
	dec := &decoder{data: b.enc, text: b.src, a: *a}
	if len(b.src) > 0 {
		dec.src = unsafe.Slice(unsafe.StringData(b.src), len(b.src))
	}
	// The encoding was written by this build from a tree it converted, or
	// checked when it was decoded: a failure here is a bug, not damaged
	// data, and must not pass silently.
	stmts := dec.stmts()
	*a = dec.a
	return stmts
}

// DeferBodies keeps the deferrable bodies of f's outermost functions
// encoded and drops their nodes (see the top of this file). src is the
// source f was parsed from. deferring, if not nil, is shown each body just
// before it is encoded, for what a caller gathers from every body without
// keeping a pointer into it (the model's used names: a later walk with
// InspectShallow then need not decode it). It must not run while another
// goroutine reads f, and the caller must hold no pointer into those bodies.
func (f *File) DeferBodies(src []byte, deferring func(body []Stmt)) {
	text := unsafe.String(unsafe.SliceData(src), len(src))
	if f.arenas == nil {
		f.arenas = NewArenas() // a File not made by Parse or Decode
	}
	var buf []byte // the encoder's buffer, reused from body to body
	var walk func(list []Stmt)
	walk = func(list []Stmt) {
		for _, s := range list {
			switch s := s.(type) {
			case *FunctionDef:
				if s.deferrable && s.deferred == nil && len(s.body) > 0 {
					if deferring != nil {
						deferring(s.body)
					}
					if s.encoded != nil {
						s.deferred = &deferredBody{enc: s.encoded, src: text, span: bodySpan(s.body)}
						s.encoded = nil
					} else {
						s.deferred, buf = deferBody(s.body, text, buf[:0])
					}
					s.deferred.arenas = f.arenas
					s.body = nil
				}
			case *ClassDef:
				walk(s.Body)
			}
		}
	}
	walk(f.Body)
}

// deferBody encodes body as a deferred body of the source text, encoding
// into buf, which it returns grown: the encoding is copied out, so that a
// file's bodies share one buffer instead of each growing its own.
func deferBody(body []Stmt, text string, buf []byte) (*deferredBody, []byte) {
	e := encoder{buf: buf, src: unsafe.Slice(unsafe.StringData(text), len(text))}
	if len(text) > 0 {
		e.base = uintptr(unsafe.Pointer(unsafe.StringData(text)))
	}
	e.stmts(body)
	enc := make([]byte, len(e.buf))
	copy(enc, e.buf)
	return &deferredBody{enc: enc, src: text, span: bodySpan(body)}, e.buf
}

// bodySpan is the span of a non-empty body, from its first statement's
// start to its last one's end.
func bodySpan(body []Stmt) Span {
	return Span{Start: body[0].Pos().Start, End: body[len(body)-1].Pos().End}
}

// bodyPinned reports whether the load pass keeps pointers into body (see
// the top of this file), so that it cannot be deferred. self is the name of
// the function's first parameter ("" if none): the load pass records stores
// into its attributes, written as a target or inside a tuple or list of
// targets (`self.x = v`, `self.a, self.b = v`, `for self.i in ...`), as the
// class's instance attributes. Other attribute stores (`o.x = v`,
// `self.a.b = v`) and subscript stores it does not record; `globals()[k] =
// v`, which it does, names globals.
func bodyPinned(body []Stmt, self string) bool {
	pinned := false
	var store func(t Expr)
	store = func(t Expr) {
		switch t := t.(type) {
		case *Attribute:
			if n, ok := t.X.(*Name); ok && self != "" && n.ID == self {
				pinned = true
			}
		case *Sequence:
			for _, e := range t.Elts {
				store(e)
			}
		case *Starred:
			store(t.X)
		}
	}
	visit := func(n Node) bool {
		switch n := n.(type) {
		case *Global, *FunctionDef, *ClassDef, *Lambda, *Import, *ImportFrom:
			pinned = true
		case *Assign:
			for _, t := range n.Targets {
				store(t)
			}
		case *For:
			store(n.Target)
		case *With:
			for _, it := range n.Items {
				if it.Target != nil {
					store(it.Target)
				}
			}
		case *NamedExpr:
			store(n.Target)
		case *Comprehension:
			for _, g := range n.Generators {
				store(g.Target)
			}
		case *Name:
			pinned = pinned || namespaceNames[n.ID]
		case *Attribute:
			pinned = pinned || namespaceNames[n.Attr]
		}
		return !pinned
	}
	for _, s := range body {
		if Inspect(s, visit); pinned {
			return true
		}
	}
	return false
}

// namespaceNames are the identifiers that store into or read a namespace
// by a computed name (setattr(m, k, v), globals()[k] = v, m.__dict__), which
// the load pass records (model/dynattr.go): a body that names one is
// pinned.
var namespaceNames = map[string]bool{
	"setattr": true, "delattr": true, "globals": true, "locals": true, "vars": true, "__dict__": true,
}

// firstParam is the name of a function's first parameter when it is a
// plain one (self, cls), as model's isSelfParam takes it; "" otherwise.
func firstParam(ps []Param) string {
	if len(ps) > 0 && ps[0].Kind == ParamNormal {
		return ps[0].Name
	}
	return ""
}
