package model

import (
	"encoding/binary"
	"strings"

	"github.com/cudaforklint/cudaforklint/syntax"
)

// What a child may touch when the model cannot place a value on the CPU or
// the GPU. The simulation's touches (simulate.go) finds the first certain
// CUDA use in a child's code; when there is none, a possible one (a value
// whose device could not be evaluated, effMaybeUse) makes the child's
// verdict ChildUnknown, with the value named, instead of a guess either way.

// maybeUsed finds a possible CUDA use in what o's children are handed or
// run: objects passed to them whose device is unknown, or a possible use in
// a target's code.
func (s *simulator) maybeUsed(o *Object) (Site, string, bool) {
	if o.ArgsDev == DevUnknown {
		return o.ArgsSite, "the objects passed to the child are on the GPU", true
	}
	for _, t := range o.Targets {
		if t.Func == nil {
			continue
		}
		if h := s.prog().maybeSearch().search(callEvents(t.Func, t.Ctx)); h.ok {
			return h.site, h.api, true
		}
	}
	return Site{}, "", false
}

// maybeReason is a ChildUnknown reason for a possible use.
func maybeReason(what string) string {
	return "the analysis could not tell whether " + what
}

// maybeSearch is the search for the first possible CUDA use in code,
// following local calls. Its answers are memoized in each context's maybe
// and in valueState.maybe for functions out of context (firsthit.go).
func (p *Program) maybeSearch() *hitSolver {
	if p.maybe == nil {
		p.maybe = &hitSolver{step: func(e *effect) hitStep {
			switch e.kind {
			case effMaybeUse:
				return hitStep{hit: firstHit{site: e.site, api: e.api, ok: true}}
			case effCall:
				return hitStep{cell: p.maybeCell(e.fn, e.ctx), events: func() []event { return summaryIn(e.fn, e.ctx) }}
			}
			return hitStep{}
		}}
	}
	return p.maybe
}

// maybeCell is the memo of maybeSearch's answer for f in context c.
func (p *Program) maybeCell(f *Function, c *callContext) *hitCell {
	if c != nil {
		return &c.maybe
	}
	m := p.values().maybe[f]
	if m == nil {
		m = &hitCell{}
		p.values().maybe[f] = m
	}
	return m
}

// inheritedRead marks the read of an attribute chain rooted at an object
// a forked child inherits (self in a method, a module-level object in a
// function) whose value holds device memory (return self.data[i] in a
// Dataset whose constructor stored CUDA tensors): a child that inherited
// the object from its parent uses CUDA when it reads it, as nameRead has
// it for module-level objects. The chain is judged by its own value: the
// objects on the way (self.model in self.model.config.max_length) are
// receivers, not reads (builder.attribute).
func (b *builder) inheritedRead(a *syntax.Attribute) {
	root := a.X
	for {
		x, ok := root.(*syntax.Attribute)
		if !ok {
			break
		}
		root = x.X
	}
	n, ok := root.(*syntax.Name)
	if !ok || !(b.selfOf(n) || b.moduleObject(n)) {
		return
	}
	b.heldRead(a, sourceText(b.m, a))
}

// selfOf reports whether n is the receiver of the method whose own body
// is being summarized.
func (b *builder) selfOf(n *syntax.Name) bool {
	f := b.sc.Func
	return f != nil && f.Class != nil && b.sc == f.Scope && isSelfParam(f, n.ID) && !isStatic(f)
}

// tensorAttrs are the attributes of a tensor or module that are tensors on
// its device: reading one from a GPU object reads GPU memory.
var tensorAttrs = map[string]bool{
	"data": true, "grad": true, "T": true, "mT": true, "H": true, "mH": true,
	"real": true, "imag": true, "weight": true, "bias": true,
}

// plainRead reports whether v, a value on the GPU, is an attribute read
// from a GPU object that is not one of tensorAttrs
// (model.config.bos_token_id, asr_model.tokenizer.pad_id): such an
// attribute is as often a plain value (an int, a tokenizer) as a tensor, so
// holding it, passing it or reading it is not seen to touch CUDA (held
// says DevUnknown: a possible use, which never makes an error). Calling it
// still uses its object's device (model.encoder(x): the call reads
// Value.Dev); calling a method of it or reading an attribute of it is a
// possible use at most (calledDevice, readDevice), and an element keeps
// its device (x[i]). A library path shows the read in its shape; any
// other value carries the Read mark.
func plainRead(v Value) bool {
	if v.Read {
		return true
	}
	if v.Kind != VPath {
		return false
	}
	i := strings.LastIndexByte(v.Path, '.')
	if i < 0 {
		return false
	}
	obj, attr := v.Path[:i], v.Path[i+1:]
	if !strings.ContainsAny(obj, "()[]") {
		return false // a library's own attribute (cupy.cuda.Stream.null), not an object's
	}
	return !strings.ContainsAny(attr, "()[]") && !tensorAttrs[attr]
}

// calledDevice is the device calling v, a library path, touches. A
// method of a GPU object (model.generate, x.float) or a submodule it holds
// (model.encoder(x)) runs on the object's device. One read from a plain
// read (model.encoder.prepare_input(img), model.decoder.tokenizer(text))
// is a method of something the model cannot place (a CPU preprocessing
// step, a tokenizer, a submodule's forward): whether it touches the
// device is unknown, a possible use at most, and so is where its result
// lives.
func calledDevice(v Value) Device {
	if v.Dev != DevCUDA {
		return v.Dev
	}
	if i := strings.LastIndexByte(v.Path, '.'); i >= 0 && plainRead(Value{Kind: VPath, Path: v.Path[:i], Dev: v.Dev}) {
		return DevUnknown
	}
	return v.Dev
}

// touchKey is what of the parent at a fork the search of a child's code
// depends on: whether torch's default device is CUDA, and the modules the
// parent had imported (their keys, as bytes), which the child finds in
// sys.modules: its import of one of them runs nothing (measured on an H100:
// testdata/groundtruth/probes-2026-12.md, "Probes of 2026-12-07", a fork
// child whose function-level `import m` names a module the parent imported
// and initialized CUDA in never calls CUDA).
type touchKey struct {
	defaultCUDA bool
	imported    string
}

// newTouchKey is the key of a child forked from a parent whose default
// device is CUDA or not and that had imported the modules in imported.
func newTouchKey(defaultCUDA bool, imported *cowSet[moduleSetKey]) touchKey {
	b := make([]byte, 0, 8*len(imported.d.keys))
	for _, k := range imported.d.keys {
		b = binary.LittleEndian.AppendUint64(b, uint64(k))
	}
	return touchKey{defaultCUDA: defaultCUDA, imported: string(b)}
}

// touchSearch is the search for the first place code (following local
// calls, and the imports of modules the parent had not imported) certainly
// uses CUDA, in a child whose parent is described by k. Each key has its
// own solver and memo cells: an answer found skipping one set of imports
// is not an answer for another set, and a memo shared across keys would
// make a verdict depend on which fork asked first.
func (p *Program) touchSearch(k touchKey) *hitSolver {
	if s := p.touch[k]; s != nil {
		return s
	}
	imported := map[moduleSetKey]bool{}
	for i := 0; i+8 <= len(k.imported); i += 8 {
		imported[moduleSetKey(binary.LittleEndian.Uint64([]byte(k.imported[i:])))] = true
	}
	cells := map[any]*hitCell{}
	cell := func(owner any) *hitCell {
		c := cells[owner]
		if c == nil {
			c = &hitCell{}
			cells[owner] = c
		}
		return c
	}
	s := &hitSolver{step: func(e *effect) hitStep {
		switch e.kind {
		case effInit, effUse:
			if e.cond == condDefaultDevice && !k.defaultCUDA {
				return hitStep{}
			}
			if e.entry != nil && e.entry.ChildNoUse {
				// torch.cuda.is_available() in the child: no driver call
				// that fails; its use comes later, if at all.
				return hitStep{}
			}
			return hitStep{hit: firstHit{site: e.site, api: e.api, ok: true}}
		case effCall:
			if e.ctx != nil {
				return hitStep{cell: cell(e.ctx), events: func() []event { return summaryIn(e.fn, e.ctx) }}
			}
			return hitStep{cell: cell(e.fn), events: e.fn.summaryOf}
		case effImport:
			if imported[e.mod.setKey()] {
				return hitStep{} // in sys.modules already: the import runs nothing
			}
			return hitStep{cell: cell(e.mod), events: e.mod.importSummary}
		}
		return hitStep{}
	}}
	if p.touch == nil {
		p.touch = map[touchKey]*hitSolver{}
	}
	p.touch[k] = s
	return s
}
