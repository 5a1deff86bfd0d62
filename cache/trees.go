package cache

import (
	"bufio"
	"cmp"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cudaforklint/cudaforklint/syntax"
)

// treesDir is the directory of the parse-tree packs, below the store's.
const treesDir = "trees"

// treesFormat names the layout of a pack and the meaning of its keys; the
// encoding of a tree itself is the build's (syntax.AppendEncoded), which
// the build ID in the key covers.
const treesFormat = "t2"

// packMagic starts every pack. packFamily is the part every format's header
// shares: a pack of another format (another build's, in a directory that
// builds share) is left alone, not taken for a damaged one and removed.
const (
	packFamily = "cudaforklint parse trees "
	packMagic  = packFamily + treesFormat + "\n"
)

// packTail ends every pack: a pack cut short, or grown, does not end with
// it, and is known damaged before its footer's numbers are believed.
const packTail = "cflpack\n"

// packExt ends a pack's name, after 16 hex digits.
const packExt = ".pack"

// packTemp names the file a pack is written in before it is renamed into
// place; in os.TempDir() too, where the name says whose it is.
const packTemp = tmpPrefix + "cudaforklint-pack-*"

// The sizes of an index entry (key, offset, length, CRC-32C of the
// payload, day) and of the footer (index offset, entry count, CRC-32C of
// the index, packTail). All little endian.
const (
	indexEntrySize = sha256.Size + 8 + 4 + 4 + 4
	footerSize     = 8 + 4 + 4 + len(packTail)
)

const (
	// defaultMaxPacks: a Flush that finds more packs merges them into one.
	// Every run opens every pack and reads its index; a run that parsed
	// anything new adds one, so without merging an edited project would
	// gather a pack per run.
	defaultMaxPacks = 8
	// staleDays: a load of an entry whose recorded day is older has the
	// Flush merge the packs, which records today for it. An entry in use
	// is so rewritten about once a week, not marked at every load (a pack
	// is immutable), and no pack in use grows older than MaxAge.
	staleDays = 7
	// maxAgeDays is MaxAge in days: a merge drops the entries not used
	// for longer.
	maxAgeDays = int64(MaxAge / (24 * time.Hour))
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Trees is the store's parse-tree cache (syntax.TreeCache): one tree per
// distinct source, keyed by the SHA-256 of the pack format, the
// executable's build ID and the source bytes. A tree is a function of
// those alone, so an entry is valid wherever and whenever the same bytes
// are parsed by the same build: unlike a result, it records no other input.
// The packs hold notebook reads too (NotebookRead), entries of the same
// kind under keys of their own: what the same build made of a notebook
// file's bytes.
//
// The trees live in packs, trees/<16 hex>.pack: a header, the payloads
// (encoded trees) back to back, an index (per tree: key, offset, length,
// CRC-32C, the day it was last known used) and a fixed-size footer (the
// index's offset, its entry count and CRC-32C, packTail). One file per
// tree cost a first run over the standard library 1,790 files and 256
// directories to create, and a later one 1,790 to open; a pack is one of
// each. A run opens the packs once, reads their indexes (not their
// payloads), and reads a tree's payload when it is loaded. A pack is
// immutable once renamed into place, so concurrent runs read it at will
// (Linux keeps a removed pack readable by those that have it open).
//
// Store appends each new tree to this run's pack, a temporary file that
// Flush completes with the index and renames into trees/: nothing encoded
// stays in memory. When the trees directory existed as the Trees was
// made, the temporary file is written in it (writing below it changes
// nothing a run reads: the import universe leaves it out); otherwise in
// os.TempDir(), and Flush creates the directory after the run has recorded
// its inputs, as a result is written: a cache directory created in the
// project while the run walks it would make the run look racy, and leave
// its result unstored. Load finds the trees of this run's pack too. (A
// project whose imports resolve in os.TempDir() itself, a script checked
// in /tmp, has its first run's result unstored for that reason; the next
// run stores it. Keeping the trees in memory instead cost the stdlib's
// first run 44 MiB more at its peak.)
//
// A pack whose header, footer or index does not check is damaged, ignored
// and removed. A tree whose checksum does not match, or that does not
// decode, is a miss (the file is parsed), and its key is marked bad for
// this Trees, so that the Store that follows writes a fresh copy to this
// run's pack, and Flush merges the packs, keeping only that copy.
//
// Flush merges the packs into one when there are more than maxPacks, when
// this run loaded a tree not marked used for staleDays, or found one
// damaged, or when a quarter of the trees are in two packs (concurrent
// first runs): the union, a key once (packs are read newest first), with
// today's day for the trees this run used and without those not used for
// MaxAge. Prune removes the packs older than MaxAge.
//
// Safe for concurrent use, by the goroutines of one run (a tree is written
// at an offset reserved under the lock, with pwrite, and read with pread)
// and by concurrent runs (packs are written to a temporary file and
// renamed; a merge removes only the packs it read).
type Trees struct {
	s   *Store
	dir string

	// The codec: syntax's, but the tests substitute their own.
	encode func(buf []byte, f *syntax.File, src []byte) []byte
	decode func(data, src []byte, arenas *syntax.Arenas) (*syntax.File, error)

	// direct: the trees directory existed when the run began, so this
	// run's pack is written in it. Writing below it changes nothing a run
	// reads (the import universe leaves it out); only creating it, or the
	// cache directory, would, and a run that must do that writes its pack
	// in os.TempDir() until Flush.
	direct bool

	// now is the clock, maxPacks the count of packs above which Flush
	// merges, rename what moves this run's pack into place: fields for the
	// tests (a rename across file systems fails, whatever the machine's
	// os.TempDir() is).
	now      func() time.Time
	maxPacks int
	rename   func(oldpath, newpath string) error

	flushMu sync.Mutex // one Flush at a time: two would merge the same packs

	mu     sync.Mutex
	opened bool // packs and index read (until Flush)
	// openedAt: the trees directory's time when they were (Refresh).
	openedAt time.Time
	packs    []*pack              // the packs open, oldest first
	index    map[treeKey]location // their trees, a later pack's replacing an earlier's
	bad      map[treeKey]bool     // keys whose pack entry did not check or decode
	used     map[treeKey]bool     // keys loaded or stored by this run
	// mergeDue: a tree loaded was last marked used over staleDays ago,
	// or the packs hold many trees twice.
	mergeDue bool
	w        *packWriter // this run's pack, nil before the first Store
	noWriter bool        // creating w failed: not tried again before Flush

	loaded, parsed, stored, merged atomic.Int64
	// notebook reads replayed and stored (NotebookRead)
	nbReplayed, nbStored atomic.Int64
}

// treeKey names one tree: the SHA-256 of the pack format, the build ID and
// the source.
type treeKey [sha256.Size]byte

// indexEntry is one tree of a pack, as its index records it.
type indexEntry struct {
	key treeKey
	off int64  // of the payload, from the start of the file
	n   uint32 // the payload's length
	crc uint32 // the payload's CRC-32C
	day uint32 // days since the Unix epoch the tree was last known used
}

// location is where a tree can be read: an open pack, or this run's.
type location struct {
	f *os.File
	indexEntry
}

// pack is an open pack with its index.
type pack struct {
	path  string
	f     *os.File
	mtime time.Time
	index []indexEntry
}

// packWriter is this run's pack: a temporary file the payloads are
// written to as trees are stored, at offsets reserved under Trees.mu.
type packWriter struct {
	f       *os.File
	size    int64                  // written or reserved
	written map[treeKey]indexEntry // the trees written
	// notebookReads are the keys of written that are notebook reads.
	notebookReads map[treeKey]bool
	writing       map[treeKey]bool // reserved, being written
	wg            sync.WaitGroup   // the writes in flight: Flush waits
}

// Trees returns a parse-tree cache in the store's directory, with counters
// of its own (one per run: Stats).
func (s *Store) Trees() *Trees {
	dir := filepath.Join(s.dir, treesDir)
	fi, err := os.Stat(dir)
	return &Trees{s: s, dir: dir, encode: syntax.AppendEncoded, decode: syntax.DecodeIn,
		direct: err == nil && fi.IsDir(), now: time.Now, maxPacks: defaultMaxPacks, rename: os.Rename}
}

// TreeStats counts what a Trees did: sources whose tree was loaded, that
// were parsed instead (every miss), trees written (in a pack renamed into
// place), and packs merged; and notebook reads replayed and written.
type TreeStats struct {
	Loaded, Parsed, Stored, Merged     int64
	NotebooksReplayed, NotebooksStored int64
}

func (st TreeStats) String() string {
	s := fmt.Sprintf("trees: %d loaded, %d parsed, %d stored", st.Loaded, st.Parsed, st.Stored)
	if st.Merged > 0 {
		s += fmt.Sprintf(", %d packs merged", st.Merged)
	}
	if st.NotebooksReplayed > 0 || st.NotebooksStored > 0 {
		s += fmt.Sprintf("; notebook reads: %d replayed, %d stored", st.NotebooksReplayed, st.NotebooksStored)
	}
	return s
}

// Stats returns the counts so far.
func (t *Trees) Stats() TreeStats {
	return TreeStats{Loaded: t.loaded.Load(), Parsed: t.parsed.Load(), Stored: t.stored.Load(), Merged: t.merged.Load(),
		NotebooksReplayed: t.nbReplayed.Load(), NotebooksStored: t.nbStored.Load()}
}

// entryKey is src's key; it fails only when the executable cannot be read
// (no build ID: nothing may be shared between builds).
func entryKey(src []byte) (treeKey, error) { return kindKey(packMagic, src) }

// notebookReadMagic keys the notebook reads kept beside the trees
// (NotebookRead), so that no such key is a tree's.
const notebookReadMagic = "cudaforklint notebook read\n"

// kindKey is the key of data of a kind (a magic), for this build.
func kindKey(magic string, data []byte) (treeKey, error) {
	id, err := buildID()
	if err != nil {
		return treeKey{}, err
	}
	h := sha256.New()
	field := func(b []byte) {
		var n [8]byte
		binary.LittleEndian.PutUint64(n[:], uint64(len(b)))
		h.Write(n[:])
		h.Write(b)
	}
	field([]byte(magic))
	field(id[:])
	field(data)
	var k treeKey
	h.Sum(k[:0])
	return k, nil
}

// dayOf is the day of t, counted from the Unix epoch.
func dayOf(t time.Time) uint32 { return uint32(t.Unix() / (24 * 60 * 60)) }

// Load returns the stored tree of src. A missing, unreadable, damaged or
// undecodable entry is a miss (counted as a parse: the caller parses).
func (t *Trees) Load(src []byte, arenas *syntax.Arenas) (*syntax.File, bool) {
	f, ok := t.load(src, arenas)
	if ok {
		t.loaded.Add(1)
	} else {
		t.parsed.Add(1)
	}
	return f, ok
}

func (t *Trees) load(src []byte, arenas *syntax.Arenas) (*syntax.File, bool) {
	k, l, payload, ok := t.find(src)
	if !ok {
		return nil, false
	}
	var f *syntax.File
	var err error
	if crc32.Checksum(payload, castagnoli) == l.crc {
		f, err = t.safeDecode(payload, src, arenas)
	}
	if !t.settle(k, l, f != nil && err == nil) {
		return nil, false
	}
	return f, true
}

// settle records how the entry k at l served a load: bad, or used (and
// due to be rewritten with today's day when its day is stale).
func (t *Trees) settle(k treeKey, l location, good bool) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !good {
		t.markBad(k, l)
		return false
	}
	t.markUsed(k)
	if int64(dayOf(t.now()))-int64(l.day) > staleDays {
		t.mergeDue = true
	}
	return true
}

// find returns src's key, where its tree is and the tree's payload, not
// yet checked against its checksum.
func (t *Trees) find(src []byte) (treeKey, location, []byte, bool) {
	k, err := entryKey(src)
	if err != nil {
		return k, location{}, nil, false
	}
	l, payload, ok := t.payloadOf(k)
	return k, l, payload, ok
}

// payloadOf returns where k's entry is and its payload, not yet checked
// against its checksum.
func (t *Trees) payloadOf(k treeKey) (location, []byte, bool) {
	t.mu.Lock()
	t.open()
	l, ok := t.lookup(k)
	t.mu.Unlock()
	if !ok {
		return l, nil, false
	}
	payload, err := l.payload()
	if err != nil {
		// Unreadable now (a Flush closed the pack meanwhile): a miss, not
		// known damaged.
		return l, nil, false
	}
	return l, payload, true
}

// NotebookRead returns what StoreNotebookRead kept for the notebook file
// whose SHA-256 is sum (analyzer.NotebookMemo): an entry of the packs like a
// tree, under a key of its own kind. A missing or damaged entry is a miss.
func (t *Trees) NotebookRead(sum [sha256.Size]byte) ([]byte, bool) {
	k, err := kindKey(notebookReadMagic, sum[:])
	if err != nil {
		return nil, false
	}
	l, payload, ok := t.payloadOf(k)
	if !ok || !t.settle(k, l, crc32.Checksum(payload, castagnoli) == l.crc) {
		return nil, false
	}
	t.nbReplayed.Add(1)
	return payload, true
}

// StoreNotebookRead keeps memo for the notebook file whose SHA-256 is sum,
// unless it is kept already.
func (t *Trees) StoreNotebookRead(sum [sha256.Size]byte, memo []byte) {
	k, err := kindKey(notebookReadMagic, sum[:])
	if err != nil || len(memo) == 0 || len(memo) > math.MaxUint32 {
		return
	}
	t.mu.Lock()
	t.open()
	stored := t.has(k)
	t.mu.Unlock()
	if !stored {
		t.write(k, memo, true)
	}
}

// Encoded returns the stored encoding of src's tree (syntax.AppendEncoded's),
// checked against its checksum but not decoded, for a reader that keeps
// encodings of its own and never writes here: the language server's memo.
// Nothing is marked, counted or merged for it.
func (t *Trees) Encoded(src []byte) ([]byte, bool) {
	_, l, payload, ok := t.find(src)
	if !ok || crc32.Checksum(payload, castagnoli) != l.crc {
		return nil, false
	}
	return payload, true
}

// Close closes the packs opened, writing and merging nothing, and drops
// the trees stored and not flushed (removing this run's temporary pack):
// the end of a reader's use (Encoded). A Load or Store after it opens the
// packs again.
func (t *Trees) Close() {
	t.flushMu.Lock()
	defer t.flushMu.Unlock()
	r := t.detach()
	if r.w != nil {
		r.w.wg.Wait()
		r.w.f.Close()
		os.Remove(r.w.f.Name())
	}
	closePacks(r.read)
}

// runState is what a Trees holds between opening the packs and Flush or
// Close: this run's pack, the packs read, the keys found bad and used, and
// whether a merge is due.
type runState struct {
	w         *packWriter
	read      []*pack
	bad, used map[treeKey]bool
	mergeDue  bool
}

// detach returns the run's state and leaves the Trees as if new, but for
// the counts and the keys used (a merge after a later Flush keeps
// today's day for them): the next Load or Store opens the packs again.
func (t *Trees) detach() runState {
	t.mu.Lock()
	defer t.mu.Unlock()
	r := runState{w: t.w, read: t.packs, bad: t.bad, used: maps.Clone(t.used), mergeDue: t.mergeDue}
	t.w, t.noWriter = nil, false
	t.opened, t.packs, t.index, t.bad, t.mergeDue = false, nil, nil, nil, false
	return r
}

// Refresh closes the packs read when the trees directory changed since (a
// pack renamed in or merged away), so that a reader kept between runs (the
// language server's, which reads the indexes once rather than at every
// keystroke) sees the packs of now at its next read, and lets go of those
// removed.
func (t *Trees) Refresh() {
	fi, err := os.Stat(t.dir)
	t.mu.Lock()
	changed := t.opened && (err != nil || !fi.ModTime().Equal(t.openedAt))
	t.mu.Unlock()
	if changed {
		t.Close()
	}
}

// payload reads the tree at l, into a slice of its own: a decoded tree
// keeps parts of it (its deferrable bodies' encodings).
func (l location) payload() ([]byte, error) {
	b := make([]byte, l.n)
	n, err := l.f.ReadAt(b, l.off)
	if n == len(b) {
		err = nil
	}
	return b, err
}

// open opens the packs and reads their indexes, once until Flush (t.mu
// held). A missing directory has none.
func (t *Trees) open() {
	if t.opened {
		return
	}
	t.opened = true
	// Its time before the listing: a pack renamed in meanwhile changes
	// it again, for Refresh.
	t.openedAt = time.Time{}
	if fi, err := os.Stat(t.dir); err == nil {
		t.openedAt = fi.ModTime()
	}
	t.packs = openPacks(t.dir)
	t.index = map[treeKey]location{}
	twice := 0
	for _, p := range t.packs {
		for _, e := range p.index {
			if _, ok := t.index[e.key]; ok {
				twice++
			}
			t.index[e.key] = location{p.f, e}
		}
	}
	// Concurrent first runs each write a whole pack of the same trees: the
	// next Flush merges them rather than leave the copies for weeks.
	if twice > 0 && twice >= len(t.index)/4 {
		t.mergeDue = true
	}
}

// lookup returns where k's tree is: this run's pack, or an open one unless
// its entry is known bad (t.mu held).
func (t *Trees) lookup(k treeKey) (location, bool) {
	if w := t.w; w != nil {
		if e, ok := w.written[k]; ok {
			return location{w.f, e}, true
		}
	}
	if t.bad[k] {
		return location{}, false
	}
	l, ok := t.index[k]
	return l, ok
}

// has says whether k's tree is stored: written or being written to this
// run's pack, or in an open one and not known bad (t.mu held).
func (t *Trees) has(k treeKey) bool {
	if w := t.w; w != nil {
		if _, ok := w.written[k]; ok || w.writing[k] {
			return true
		}
	}
	_, ok := t.index[k]
	return ok && !t.bad[k]
}

// markBad records that k's tree at l did not check or decode, so that
// Store writes a fresh copy (t.mu held).
func (t *Trees) markBad(k treeKey, l location) {
	if t.w != nil && l.f == t.w.f {
		// This run's own copy: forgotten, and written again.
		delete(t.w.written, k)
		return
	}
	if t.bad == nil {
		t.bad = map[treeKey]bool{}
	}
	t.bad[k] = true
}

// markUsed records that this run used k's tree, for the days of the next
// merge (t.mu held).
func (t *Trees) markUsed(k treeKey) {
	if t.used == nil {
		t.used = map[treeKey]bool{}
	}
	t.used[k] = true
}

// safeDecode is decode, with a panic (a damaged entry that the checksum
// did not catch, a codec bug) turned into an error.
func (t *Trees) safeDecode(payload, src []byte, arenas *syntax.Arenas) (f *syntax.File, err error) {
	defer func() {
		if r := recover(); r != nil {
			f, err = nil, fmt.Errorf("decoding a stored tree panicked: %v", r)
		}
	}()
	return t.decode(payload, src, arenas)
}

// safeEncode is encode, or nil when it panics.
func (t *Trees) safeEncode(f *syntax.File, src []byte) (payload []byte) {
	defer func() {
		if r := recover(); r != nil {
			payload = nil
		}
	}()
	return t.encode(make([]byte, 0, len(src)), f, src)
}

// Store appends f, the tree syntax.Parse returned for src, to this run's
// pack, unless src's tree is stored already or encodes to nothing. A pack
// that cannot be written leaves the tree unstored: the cache never fails a
// run.
func (t *Trees) Store(src []byte, f *syntax.File) {
	if f == nil {
		return
	}
	k, err := entryKey(src)
	if err != nil {
		return
	}
	t.mu.Lock()
	t.open()
	stored := t.has(k)
	t.mu.Unlock()
	if stored {
		return
	}
	payload := t.safeEncode(f, src)
	if len(payload) == 0 || len(payload) > math.MaxUint32 {
		return
	}
	t.write(k, payload, false)
}

// write appends payload to this run's pack as k's tree (or notebook
// read): at an offset reserved under the lock, written outside it
// (pwrite), so that loads and other stores do not wait on the write.
func (t *Trees) write(k treeKey, payload []byte, notebookRead bool) {
	e := indexEntry{key: k, n: uint32(len(payload)), crc: crc32.Checksum(payload, castagnoli), day: dayOf(t.now())}
	t.mu.Lock()
	t.open() // again: a Flush may have closed the packs meanwhile
	w := t.writer()
	if w == nil || t.has(k) {
		// Or a goroutine stored the same bytes meanwhile.
		t.mu.Unlock()
		return
	}
	e.off = w.size
	w.size += int64(len(payload))
	w.writing[k] = true
	w.wg.Add(1)
	t.mu.Unlock()
	_, err := w.f.WriteAt(payload, e.off)
	t.mu.Lock()
	delete(w.writing, k)
	if err == nil {
		// A failed write leaves bytes no index entry names.
		w.written[k] = e
		if notebookRead {
			w.notebookReads[k] = true
		}
		t.markUsed(k)
	}
	t.mu.Unlock()
	w.wg.Done()
}

// writer returns this run's pack, created on the first call (t.mu held);
// nil when it cannot be.
func (t *Trees) writer() *packWriter {
	if t.w == nil && !t.noWriter {
		dir := t.dir
		if !t.direct {
			dir = os.TempDir()
		}
		t.w = newPackWriter(dir)
		t.noWriter = t.w == nil
	}
	return t.w
}

// newPackWriter returns a pack being written in dir, its header written,
// or nil.
func newPackWriter(dir string) *packWriter {
	f, err := os.CreateTemp(dir, packTemp)
	if err != nil {
		return nil
	}
	err = f.Chmod(0o644)
	if err == nil {
		_, err = f.WriteString(packMagic)
	}
	if err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil
	}
	return &packWriter{f: f, size: int64(len(packMagic)), written: map[treeKey]indexEntry{}, writing: map[treeKey]bool{}, notebookReads: map[treeKey]bool{}}
}

// Flush renames this run's pack, with the trees stored since the last
// Flush, into the trees directory (created now), merges the packs when
// due, and closes those open: a Load or Store after it opens them again.
// Failures are ignored: the cache never fails a run.
func (t *Trees) Flush() {
	t.flushMu.Lock()
	defer t.flushMu.Unlock()
	r := t.detach()
	fresh := ""
	if r.w != nil {
		r.w.wg.Wait()
		fresh = t.publish(r.w)
	}
	t.mergeIfDue(r, fresh)
	closePacks(r.read)
}

// publish completes w with its index and footer and renames it into the
// trees directory; it returns the pack's path, or "" when w holds nothing
// or cannot be completed.
func (t *Trees) publish(w *packWriter) string {
	tmp := w.f.Name()
	entries := slices.SortedFunc(maps.Values(w.written), func(a, b indexEntry) int { return cmp.Compare(a.off, b.off) })
	err := errors.New("nothing stored")
	if len(entries) > 0 {
		// The directory with its CACHEDIR.TAG and .gitignore.
		if err = t.s.init(treesDir); err == nil {
			_, err = w.f.WriteAt(packEnd(entries, w.size), w.size)
		}
	}
	if cerr := w.f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp)
		return ""
	}
	dst := newPackPath(t.dir)
	if err := t.rename(tmp, dst); err != nil {
		if !t.direct {
			// os.TempDir() on another file system (EXDEV): copied.
			err = copyAtomic(tmp, dst)
		}
		os.Remove(tmp)
		if err != nil {
			return ""
		}
	}
	reads := 0
	for _, e := range entries {
		if w.notebookReads[e.key] {
			reads++
		}
	}
	t.stored.Add(int64(len(entries) - reads))
	t.nbStored.Add(int64(reads))
	return dst
}

// packEnd returns the index of entries and the footer, which end a pack
// whose index starts at off.
func packEnd(entries []indexEntry, off int64) []byte {
	le := binary.LittleEndian
	b := make([]byte, 0, len(entries)*indexEntrySize+footerSize)
	for _, e := range entries {
		b = append(b, e.key[:]...)
		b = le.AppendUint64(b, uint64(e.off))
		b = le.AppendUint32(b, e.n)
		b = le.AppendUint32(b, e.crc)
		b = le.AppendUint32(b, e.day)
	}
	crc := crc32.Checksum(b, castagnoli)
	b = le.AppendUint64(b, uint64(off))
	b = le.AppendUint32(b, uint32(len(entries)))
	b = le.AppendUint32(b, crc)
	return append(b, packTail...)
}

// newPackPath returns a new pack's path in dir: random, so that concurrent
// runs never name two packs alike.
func newPackPath(dir string) string {
	var r [8]byte
	rand.Read(r[:])
	return filepath.Join(dir, hex.EncodeToString(r[:])+packExt)
}

// copyAtomic copies the file at src to dst (writeAtomicWith), without
// reading it whole into memory.
func copyAtomic(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	return writeAtomicWith(dst, packTemp, func(w io.Writer) error {
		_, err := io.Copy(w, in)
		return err
	})
}

// mergeIfDue merges the packs of the directory into one when there are
// more than maxPacks, when r.mergeDue (a tree loaded not marked used for
// staleDays, many trees in two packs), or when the run found a tree
// damaged; fresh is the pack it wrote.
func (t *Trees) mergeIfDue(r runState, fresh string) {
	// A tree found damaged is merged away at once: its good copy in
	// fresh would otherwise lie beside it, and a later run could read
	// either (packs written within one clock tick are not ordered).
	due := r.mergeDue || len(r.bad) > 0
	if !due && len(packNames(t.dir)) <= t.maxPacks {
		return
	}
	// Listed again: concurrent runs' packs count, and are merged too.
	packs := openPacks(t.dir)
	defer closePacks(packs)
	if !due && len(packs) <= t.maxPacks {
		return
	}
	// The packs this run read that are gone since (Prune removed one as
	// old before this Flush, or a concurrent merge as merged): an open
	// file still reads, and the trees this run used in them are kept.
	listed := map[string]bool{}
	for _, p := range packs {
		listed[p.path] = true
	}
	from := slices.Clone(packs)
	for _, p := range r.read {
		if !listed[p.path] {
			from = append(from, p)
		}
	}
	if t.merge(from, fresh, r.bad, r.used) != nil {
		return
	}
	for _, p := range packs {
		// A concurrent merge may have removed it already.
		os.Remove(p.path)
	}
	t.merged.Add(int64(len(packs)))
}

// merge writes one pack holding the union of from's trees whose checksum
// matches, each key once (from the newest pack that has a good copy; a key
// marked bad only from fresh, this run's pack), with today's day for the
// keys this run used and the latest day recorded otherwise, and without
// those not used for MaxAge. It writes nothing when nothing is left.
func (t *Trees) merge(from []*pack, fresh string, bad, used map[treeKey]bool) error {
	today := dayOf(t.now())
	days := map[treeKey]uint32{}
	for _, p := range from {
		for _, e := range p.index {
			days[e.key] = max(days[e.key], e.day)
		}
	}
	for k := range used {
		if _, ok := days[k]; ok {
			days[k] = today
		}
	}
	newest := slices.Clone(from)
	slices.SortStableFunc(newest, func(a, b *pack) int { return b.mtime.Compare(a.mtime) })

	err := writeAtomicWith(newPackPath(t.dir), packTemp, func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, 1<<20)
		bw.WriteString(packMagic)
		off := int64(len(packMagic))
		var index []indexEntry
		done := map[treeKey]bool{}
		var buf []byte
		for _, p := range newest {
			for _, e := range p.index {
				if done[e.key] || bad[e.key] && p.path != fresh {
					continue
				}
				e.day = days[e.key]
				if int64(today)-int64(e.day) > maxAgeDays {
					done[e.key] = true
					continue
				}
				buf = slices.Grow(buf[:0], int(e.n))[:e.n]
				if n, _ := p.f.ReadAt(buf, e.off); n != len(buf) || crc32.Checksum(buf, castagnoli) != e.crc {
					continue // another pack may have a good copy
				}
				bw.Write(buf)
				e.off = off
				off += int64(e.n)
				index = append(index, e)
				done[e.key] = true
			}
		}
		if len(index) == 0 {
			return errNothingLeft
		}
		bw.Write(packEnd(index, off))
		return bw.Flush()
	})
	if errors.Is(err, errNothingLeft) {
		return nil
	}
	return err
}

// errNothingLeft: a merge whose trees were all unused for MaxAge or
// damaged writes no pack.
var errNothingLeft = errors.New("no tree left to merge")

// packNames lists the packs of dir: 16 hex digits and packExt.
func packNames(dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var names []string
	for _, e := range entries {
		if name, ok := strings.CutSuffix(e.Name(), packExt); ok && len(name) == 16 && isHex(name) {
			names = append(names, e.Name())
		}
	}
	return names
}

func isHex(s string) bool {
	for _, c := range []byte(s) {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// errDamagedPack: a pack whose header, footer or index does not check.
var errDamagedPack = errors.New("damaged pack")

// openPacks opens the packs of dir and reads their indexes, oldest first;
// it removes the damaged ones and skips those it cannot read (gone: a
// concurrent merge removed it) or of another format.
func openPacks(dir string) []*pack {
	var packs []*pack
	for _, name := range packNames(dir) {
		p, err := openPack(filepath.Join(dir, name))
		if errors.Is(err, errDamagedPack) {
			os.Remove(filepath.Join(dir, name))
		}
		if err == nil {
			packs = append(packs, p)
		}
	}
	slices.SortStableFunc(packs, func(a, b *pack) int { return a.mtime.Compare(b.mtime) })
	return packs
}

func closePacks(packs []*pack) {
	for _, p := range packs {
		p.f.Close()
	}
}

// errForeignPack: a pack of another format, left to the builds that read it
// (and to Prune).
var errForeignPack = errors.New("a pack of another format")

// openPack opens the pack at path and reads its index.
func openPack(path string) (*pack, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	p, err := readPack(f)
	if err != nil {
		f.Close()
		return nil, err
	}
	p.path = path
	return p, nil
}

// readPack checks f's header and footer and reads its index; the payloads
// are read as they are loaded.
func readPack(f *os.File) (*pack, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	size := fi.Size()
	head, err := readAt(f, 0, len(packMagic))
	if err != nil {
		return nil, err
	}
	if string(head) != packMagic {
		if strings.HasPrefix(string(head), packFamily) {
			return nil, errForeignPack
		}
		return nil, errDamagedPack
	}
	if size < int64(len(packMagic)+footerSize) {
		return nil, errDamagedPack
	}
	foot, err := readAt(f, size-int64(footerSize), footerSize)
	if err != nil {
		return nil, err
	}
	le := binary.LittleEndian
	indexOff, count, crc := le.Uint64(foot), le.Uint32(foot[8:]), le.Uint32(foot[12:])
	indexLen := int64(count) * indexEntrySize
	if string(foot[16:]) != packTail || indexOff < uint64(len(packMagic)) ||
		indexOff > uint64(size) || int64(indexOff)+indexLen+int64(footerSize) != size {
		return nil, errDamagedPack
	}
	b, err := readAt(f, int64(indexOff), int(indexLen))
	if err != nil {
		return nil, err
	}
	if crc32.Checksum(b, castagnoli) != crc {
		return nil, errDamagedPack
	}
	index, ok := parseIndex(b, int64(indexOff))
	if !ok {
		return nil, errDamagedPack
	}
	return &pack{f: f, mtime: fi.ModTime(), index: index}, nil
}

// readAt reads n bytes of f at off; a file too short for them is damaged.
func readAt(f *os.File, off int64, n int) ([]byte, error) {
	b := make([]byte, n)
	m, err := f.ReadAt(b, off)
	switch {
	case m == n:
		return b, nil
	case errors.Is(err, io.EOF):
		return nil, errDamagedPack
	default:
		return nil, err
	}
}

// parseIndex decodes the index b of a pack whose index starts at end;
// false when a payload is empty or lies outside the header and end.
func parseIndex(b []byte, end int64) ([]indexEntry, bool) {
	le := binary.LittleEndian
	index := make([]indexEntry, len(b)/indexEntrySize)
	for i := range index {
		r := b[i*indexEntrySize:]
		e := &index[i]
		copy(e.key[:], r)
		r = r[sha256.Size:]
		off := le.Uint64(r)
		e.n, e.crc, e.day = le.Uint32(r[8:]), le.Uint32(r[12:]), le.Uint32(r[16:])
		if off < uint64(len(packMagic)) || off > uint64(end) || e.n == 0 || int64(off)+int64(e.n) > end {
			return nil, false
		}
		e.off = int64(off)
	}
	return index, true
}

// pruneTrees removes the packs not written for maxAge (every tree in one
// is older: a merge rewrites the trees a run uses, a week at most after it
// last did, in a new pack), the temporary files older than an hour, and
// the fan-out directories of the old layout (one file per tree,
// trees/<2 hex>/<62 hex>), which no build reads any more. It also removes
// the packs a first run that was killed (an interrupted first check) left
// in os.TempDir(), once a day old: their name says they are cudaforklint's.
func (s *Store) pruneTrees(maxAge time.Duration, now time.Time) []error {
	dir := filepath.Join(s.dir, treesDir)
	_, errs := pruneDir(dir, maxAge, now)
	pruneTempPacks(os.TempDir(), now)
	subs, _ := os.ReadDir(dir)
	for _, sub := range subs {
		if sub.IsDir() && len(sub.Name()) == 2 && isHex(sub.Name()) {
			if err := os.RemoveAll(filepath.Join(dir, sub.Name())); err != nil {
				errs = append(errs, err)
			}
		}
	}
	return errs
}

// pruneTempPacks removes the temporary packs in dir older than a day
// (packTemp's names: no other program's files). Failures are left for the
// next prune: the directory is not the cache's.
func pruneTempPacks(dir string, now time.Time) {
	names, _ := filepath.Glob(filepath.Join(dir, packTemp))
	for _, p := range names {
		if fi, err := os.Lstat(p); err == nil && fi.Mode().IsRegular() && now.Sub(fi.ModTime()) > 24*time.Hour {
			os.Remove(p)
		}
	}
}
