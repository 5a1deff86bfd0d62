package server

import (
	"container/list"
	"crypto/sha256"
	"os"
	"sync"

	"github.com/cudaforklint/cudaforklint/cache"
	"github.com/cudaforklint/cudaforklint/config"
	"github.com/cudaforklint/cudaforklint/syntax"
)

// A check loads the local modules the document imports, and each check
// loaded them again: on every keystroke in a module of a large package,
// tree-sitter parsed the package. treeMemo keeps the trees of the files the
// server's checks parse, encoded (syntax.AppendEncoded), keyed by their
// bytes, so that a module that did not change is decoded, about twenty times
// faster than parsing it. Encoded trees hold no pointers (the collector
// does not scan them) and are decoded afresh for each check, so no check
// shares a tree with another. The least recently used are dropped beyond
// maxBytes; the versions an edit leaves behind go first.
type treeMemo struct {
	maxBytes int

	mu    sync.Mutex
	bytes int
	order *list.List // of *treeEntry, most recently used first
	byKey map[[sha256.Size]byte]*list.Element

	// disks are the parse-tree caches of the folders' cache directories,
	// by directory, kept between checks (diskAt).
	disks map[string]*cache.Trees

	loaded, parsed, fromDisk int // counts, for the tests
}

type treeEntry struct {
	key  [sha256.Size]byte
	data []byte
}

// treeMemoBytes bounds a session's memo: about the encoded trees of 250 MB
// of Python source (an encoding is about the size of its source). The
// benchmarks set it to 0, no memo, to measure what it saves.
var treeMemoBytes = 256 << 20

// newTreeMemo returns a memo of at most maxBytes, or nil for 0.
func newTreeMemo(maxBytes int) *treeMemo {
	if maxBytes <= 0 {
		return nil
	}
	return &treeMemo{maxBytes: maxBytes, order: list.New(), byKey: map[[sha256.Size]byte]*list.Element{}}
}

// Load returns the tree kept for src, decoded.
func (t *treeMemo) Load(src []byte, arenas *syntax.Arenas) (*syntax.File, bool) {
	return t.load(src, arenas, nil)
}

// load is Load, with disk, when not nil, read on a miss: an encoding found
// there is kept from then on.
func (t *treeMemo) load(src []byte, arenas *syntax.Arenas, disk *cache.Trees) (*syntax.File, bool) {
	key := sha256.Sum256(src)
	t.mu.Lock()
	el, ok := t.byKey[key]
	var data []byte
	if ok {
		t.order.MoveToFront(el)
		data = el.Value.(*treeEntry).data
		t.loaded++
	}
	t.mu.Unlock()
	if !ok && disk != nil {
		if data, ok = disk.Encoded(src); ok {
			t.keep(key, data)
			t.mu.Lock()
			t.fromDisk++
			t.mu.Unlock()
		}
	}
	if !ok {
		t.mu.Lock()
		t.parsed++
		t.mu.Unlock()
		return nil, false
	}
	f, err := syntax.DecodeIn(data, src, arenas)
	if err != nil {
		// Not expected (the encoding was made here): parse, and let the
		// Store that follows replace it.
		t.mu.Lock()
		if el, ok := t.byKey[key]; ok {
			t.order.Remove(el)
			delete(t.byKey, key)
			t.bytes -= len(data)
		}
		t.mu.Unlock()
		return nil, false
	}
	return f, true
}

// Store keeps f, the tree Parse returned for src.
func (t *treeMemo) Store(src []byte, f *syntax.File) {
	key := sha256.Sum256(src)
	t.mu.Lock()
	_, ok := t.byKey[key]
	t.mu.Unlock()
	if ok {
		return
	}
	t.keep(key, syntax.AppendEncoded(nil, f, src))
}

// keep keeps data, the encoding of the tree of the source whose hash is
// key, unless it is larger than the memo; the least recently used go.
func (t *treeMemo) keep(key [sha256.Size]byte, data []byte) {
	if len(data) > t.maxBytes {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, ok := t.byKey[key]; ok {
		return // stored meanwhile by another goroutine of the check
	}
	t.byKey[key] = t.order.PushFront(&treeEntry{key: key, data: data})
	t.bytes += len(data)
	for t.bytes > t.maxBytes {
		last := t.order.Back()
		e := last.Value.(*treeEntry)
		t.order.Remove(last)
		delete(t.byKey, e.key)
		t.bytes -= len(e.data)
	}
}

// counts returns how many loads found a tree and how many did not.
func (t *treeMemo) counts() (loaded, parsed int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.loaded, t.parsed
}

// checkTrees is the memo as one check sees it: on a miss, the parse trees
// the folder's cache directory holds (the packs `check` runs write), read
// and never written, so that the first check of a module in a large
// package decodes its imports instead of parsing them, when the project
// was checked before. Edited buffers' trees stay in the memo: writing them
// would add a pack to the project's cache on every keystroke.
type checkTrees struct {
	memo *treeMemo
	disk *cache.Trees
}

func (c checkTrees) Load(src []byte, arenas *syntax.Arenas) (*syntax.File, bool) {
	return c.memo.load(src, arenas, c.disk)
}

func (c checkTrees) Store(src []byte, f *syntax.File) { c.memo.Store(src, f) }

// diskDir returns the cache directory `check` run from folder uses
// (CUDAFORKLINT_CACHE_DIR, cache-dir in the configuration, or
// .cudaforklint_cache), or false with CUDAFORKLINT_NO_CACHE set or no
// configuration.
func diskDir(loader *config.Loader, folder string) (string, bool) {
	if cache.OffInEnv() {
		return "", false
	}
	dir := os.Getenv(cache.DirEnv)
	var c *config.Config
	if dir == "" {
		var err error
		if c, err = loader.ConfigFor(folder); err != nil {
			return "", false
		}
	}
	return cache.DirFor(dir, c, folder), true
}

// diskAt returns the parse-tree cache of the cache directory dir, kept
// between checks and refreshed when its packs changed: reading the packs'
// indexes at every check cost a keystroke's check 2 ms more CPU (about
// 10 %) with the trees of a 1,790-file project there. Nothing is created:
// a directory never written has no packs, and reading finds none.
func (t *treeMemo) diskAt(dir string) *cache.Trees {
	t.mu.Lock()
	d := t.disks[dir]
	if d == nil {
		if t.disks == nil {
			t.disks = map[string]*cache.Trees{}
		}
		d = cache.Open(dir).Trees()
		t.disks[dir] = d
	}
	t.mu.Unlock()
	d.Refresh()
	return d
}

// closeDisks closes the packs the checks read, when the server stops.
func (t *treeMemo) closeDisks() {
	t.mu.Lock()
	disks := t.disks
	t.disks = nil
	t.mu.Unlock()
	for _, d := range disks {
		d.Close()
	}
}
