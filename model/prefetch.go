package model

import (
	"context"
	"path/filepath"
	"sync"

	"github.com/cudaforklint/cudaforklint/syntax"
)

// Prefetching: the analysis loads a module's local imports when it first
// needs them, one after another on its single goroutine (a summary's import
// event, cudaPossible, an attribute naming a submodule). Parsing dominates
// that cost, so while it runs, a few goroutines parse and index the local
// modules every built module's import statements name, transitively, ahead
// of it. A module parsed ahead is not loaded: Loaded, and so every question
// asked over the loaded modules (the prescan, nameUsed), sees it only once
// the analysis asks for it through Module, exactly as without prefetching.

// prefetcher holds the modules parsed ahead and the queue of paths to parse.
type prefetcher struct {
	mu      sync.Mutex
	slots   map[string]*moduleSlot // parsed ahead (or being parsed), not loaded
	queue   []string
	active  int
	workers int // 0: off
	// importTime: follow only the imports that run when a module is
	// imported (PrefetchImports says when).
	importTime bool
	// ctx is PrefetchImports': once it is done, the workers stop before
	// the next module.
	ctx context.Context
}

// take returns the slot of a module parsed ahead, or a fresh one, and
// forgets it: the caller makes it a loaded module. Called with p.mu held.
func (pf *prefetcher) take(path string) *moduleSlot {
	pf.mu.Lock()
	defer pf.mu.Unlock()
	if pf.slots == nil {
		pf.slots = map[string]*moduleSlot{}
	}
	slot := pf.slots[path]
	if slot == nil {
		slot = &moduleSlot{}
	}
	// A nil entry marks it loaded: no worker parses it again.
	pf.slots[path] = nil
	return slot
}

// PrefetchImports starts parsing ahead, on up to workers goroutines, the
// local modules the loaded modules import, and from then on those every
// newly built module imports, transitively.
//
// Most of what a module's imports reach is loaded by cudaPossible's search
// (a check of the stdlib's json/decoder.py loads 169 modules, 132 of them
// there). When Options.CUDAUnreachable clears every loaded module that
// would load more, that search loads nothing, and what the analysis loads
// is mostly what importing the entries runs: then only the imports at
// module level (outside function bodies) are followed. A function's own
// imports are loaded when it is simulated, without being parsed ahead.
//
// Once ctx is done, the workers drop the queue and end after the module in
// hand: the run was cancelled and will ask for nothing more.
func (p *Program) PrefetchImports(ctx context.Context, workers int) {
	loaded := p.Loaded()
	importTime := false
	if p.opts.CUDAUnreachable != nil && len(p.extra) == 0 {
		// Every module that would load more must be cleared, and one at
		// least: with none, there is nothing to narrow.
		for _, m := range loaded {
			if !p.loadsMore(m) {
				continue
			}
			if importTime = p.opts.CUDAUnreachable(m.Path, true); !importTime {
				break
			}
		}
	}
	p.ahead.mu.Lock()
	p.ahead.workers = workers
	p.ahead.importTime = importTime
	p.ahead.ctx = ctx
	p.ahead.mu.Unlock()
	for _, m := range loaded {
		p.prefetchImports(m)
	}
}

// loadsMore reports whether m imports a local module that is neither
// loaded nor parsed ahead (or queued to be): one whose load would cost a
// parse on the analysis's goroutine.
func (p *Program) loadsMore(m *Module) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.ahead.mu.Lock()
	defer p.ahead.mu.Unlock()
	for _, path := range m.importFiles {
		if _, ok := p.modules[path]; ok {
			continue
		}
		if _, ok := p.ahead.slots[path]; !ok {
			return true
		}
	}
	return false
}

// prefetchImports queues the local modules m imports.
func (p *Program) prefetchImports(m *Module) {
	pf := &p.ahead
	pf.mu.Lock()
	defer pf.mu.Unlock()
	files := m.importFiles
	if pf.importTime {
		files = m.importTimeFiles
	}
	if pf.workers <= 0 || len(files) == 0 {
		return
	}
	if pf.slots == nil {
		pf.slots = map[string]*moduleSlot{}
	}
	for _, path := range files {
		if _, ok := pf.slots[path]; !ok {
			pf.slots[path] = &moduleSlot{}
			pf.queue = append(pf.queue, path)
		}
	}
	// Workers end when the queue is empty: a Program holds no goroutine
	// once nothing is left to parse.
	for pf.active < pf.workers && len(pf.queue) > 0 {
		pf.active++
		go p.prefetchLoop()
	}
}

// ParseAhead parses and indexes the module at path without loading it, as
// a prefetch would, and returns its tree and source: a caller that parses
// a file for its own reasons (its syntax errors) leaves the module ready for
// the analysis, should it import it, instead of parsing it a second time.
func (p *Program) ParseAhead(path string) (*syntax.File, []byte, error) {
	path = filepath.Clean(path)
	p.mu.Lock()
	slot, loaded := p.modules[path]
	p.mu.Unlock()
	if !loaded {
		pf := &p.ahead
		pf.mu.Lock()
		if pf.slots == nil {
			pf.slots = map[string]*moduleSlot{}
		}
		slot = pf.slots[path]
		if slot == nil {
			if _, taken := pf.slots[path]; taken {
				// Loaded since the check above.
				pf.mu.Unlock()
				return p.parseAheadLoaded(path)
			}
			slot = &moduleSlot{}
			pf.slots[path] = slot
		}
		pf.mu.Unlock()
	}
	p.build(slot, path)
	if slot.err != nil {
		return nil, nil, slot.err
	}
	return slot.mod.File, slot.mod.Src, nil
}

// parseAheadLoaded is ParseAhead of a module loaded meanwhile.
func (p *Program) parseAheadLoaded(path string) (*syntax.File, []byte, error) {
	m, err := p.Module(path)
	if err != nil {
		return nil, nil, err
	}
	return m.File, m.Src, nil
}

// stopPrefetch drops what is still queued: the analysis is over, and a
// long-lived caller (the language server) should not spend a core parsing
// modules it will not ask for. Workers end after the module in hand.
func (p *Program) stopPrefetch() {
	p.ahead.mu.Lock()
	p.ahead.workers = 0
	p.ahead.queue = nil
	p.ahead.mu.Unlock()
}

func (p *Program) prefetchLoop() {
	pf := &p.ahead
	for {
		pf.mu.Lock()
		if pf.ctx != nil && pf.ctx.Err() != nil {
			pf.queue = nil
		}
		if len(pf.queue) == 0 {
			pf.active--
			pf.mu.Unlock()
			return
		}
		path := pf.queue[0]
		pf.queue = pf.queue[1:]
		slot := pf.slots[path]
		pf.mu.Unlock()
		if slot == nil {
			continue // loaded meanwhile
		}
		p.mu.Lock()
		_, loaded := p.modules[path]
		p.mu.Unlock()
		if !loaded {
			p.build(slot, path)
		}
	}
}

// importPaths (Module.importFiles, of m.imports(); Module.importTimeFiles,
// of importTimeImports) are the files of the local modules the import
// statements stmts of m may load: every prefix of every dotted name, and
// the names a from-import takes from a package (which may be submodules).
func (m *Module) importPaths(stmts []syntax.Stmt) []string {
	var out []string
	seen := map[string]bool{m.Path: true}
	try := func(name string, level int) {
		if path, ok := m.resolveImport(name, level); ok && !seen[path] {
			seen[path] = true
			out = append(out, path)
		}
	}
	prefixes := func(name string, level int) {
		for i := 0; i <= len(name); i++ {
			if i == len(name) || name[i] == '.' {
				try(name[:i], level)
			}
		}
	}
	for _, s := range stmts {
		switch s := s.(type) {
		case *syntax.Import:
			for _, a := range s.Names {
				prefixes(a.Name, 0)
			}
		case *syntax.ImportFrom:
			if s.Module == "" {
				try("", s.Level)
			} else {
				prefixes(s.Module, s.Level)
			}
			for _, a := range s.Names {
				if a.Name != "*" {
					try(JoinDotted(s.Module, a.Name), s.Level)
				}
			}
		}
	}
	return out
}
