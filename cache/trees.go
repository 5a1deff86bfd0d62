package cache

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cudaforklint/cudaforklint/syntax"
)

// treesDir is the directory of the parse-tree entries, below the store's.
const treesDir = "trees"

// treesFormat names the layout of a tree entry and the meaning of its key;
// the encoding of the tree itself is the build's (syntax.AppendEncoded),
// which the build ID in the key covers.
const treesFormat = "t1"

// treesMagic starts every tree entry; the CRC-32C (Castagnoli, little
// endian) of the payload follows, then the payload.
const treesMagic = "cudaforklint parse tree " + treesFormat + "\n"

const treesHeader = len(treesMagic) + 4

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Trees is the store's parse-tree cache (syntax.TreeCache): one entry per
// distinct source, trees/<2 hex>/<62 hex>, named by the SHA-256 of the
// entry format, the executable's build ID and the source bytes. A tree is a
// function of those alone, so an entry is valid wherever and whenever the
// same bytes are parsed by the same build: unlike a result, it records no
// other input. Any entry that cannot be read, is damaged or does not decode
// is a miss (the file is parsed) and is removed, so that the Store that
// follows writes it again.
//
// Store writes a new tree at once when the trees directory existed as the
// run began (writing below it changes nothing the run reads: the import
// universe leaves it out). A run that must create it, or the cache
// directory, keeps its new trees in memory (encoded) and Flush writes them
// after the run has recorded its inputs, as a result is written: a cache
// directory created in the project while the run walks it would make the
// run look racy, and leave its result unstored. Load sees the trees kept
// and not yet written too.
//
// Safe for concurrent use, by the goroutines of one run and by concurrent
// runs (entries are written to a temporary file and renamed).
type Trees struct {
	s   *Store
	dir string

	// The codec: syntax's, but the tests substitute their own.
	encode func(buf []byte, f *syntax.File, src []byte) []byte
	decode func(data, src []byte, arenas *syntax.Arenas) (*syntax.File, error)

	// direct: the trees directory existed when the run began, so Store
	// writes at once. Writing below it changes nothing a run reads (the
	// import universe leaves it out); only creating it, or the cache
	// directory, would, and a run that must do that keeps its trees in
	// memory until Flush.
	direct bool

	mu      sync.Mutex
	pending map[string][]byte // entry path → entry, stored and not yet written
	inited  bool

	loaded, parsed, stored atomic.Int64
}

// Trees returns a parse-tree cache in the store's directory, with counters
// of its own (one per run: Stats).
func (s *Store) Trees() *Trees {
	dir := filepath.Join(s.dir, treesDir)
	fi, err := os.Stat(dir)
	return &Trees{s: s, dir: dir, encode: syntax.AppendEncoded, decode: syntax.DecodeIn, direct: err == nil && fi.IsDir()}
}

// TreeStats counts what a Trees did: sources whose tree was loaded, that
// were parsed instead (every miss), and trees written.
type TreeStats struct {
	Loaded, Parsed, Stored int64
}

func (st TreeStats) String() string {
	return fmt.Sprintf("trees: %d loaded, %d parsed, %d stored", st.Loaded, st.Parsed, st.Stored)
}

// Stats returns the counts so far.
func (t *Trees) Stats() TreeStats {
	return TreeStats{Loaded: t.loaded.Load(), Parsed: t.parsed.Load(), Stored: t.stored.Load()}
}

// entryPath is the path of src's entry; it fails only when the executable
// cannot be read (no build ID: nothing may be shared between builds).
func (t *Trees) entryPath(src []byte) (string, error) {
	id, err := buildID()
	if err != nil {
		return "", err
	}
	h := sha256.New()
	field := func(b []byte) {
		var n [8]byte
		binary.LittleEndian.PutUint64(n[:], uint64(len(b)))
		h.Write(n[:])
		h.Write(b)
	}
	field([]byte(treesMagic))
	field(id[:])
	field(src)
	var sum [sha256.Size]byte
	name := hex.EncodeToString(h.Sum(sum[:0]))
	return filepath.Join(t.dir, name[:2], name[2:]), nil
}

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
	p, err := t.entryPath(src)
	if err != nil {
		return nil, false
	}
	t.mu.Lock()
	data, kept := t.pending[p]
	t.mu.Unlock()
	var mtime time.Time
	if !kept {
		if data, mtime, err = readEntry(p); err != nil {
			// Missing, or unreadable now (left alone: not known damaged).
			return nil, false
		}
	}
	payload, ok := treePayload(data)
	var f *syntax.File
	if ok {
		f, err = t.safeDecode(payload, src, arenas)
		ok = err == nil && f != nil
	}
	switch {
	case !ok && kept:
		t.mu.Lock()
		delete(t.pending, p)
		t.mu.Unlock()
	case !ok:
		os.Remove(p)
	case !kept && time.Since(mtime) > 24*time.Hour:
		// Marked used at most once a day, so that pruning keeps it.
		now := time.Now()
		os.Chtimes(p, now, now)
	}
	return f, ok
}

// readEntry reads the file at p, with its modification time (one open,
// one stat).
func readEntry(p string) ([]byte, time.Time, error) {
	fh, err := os.Open(p)
	if err != nil {
		return nil, time.Time{}, err
	}
	defer fh.Close()
	fi, err := fh.Stat()
	if err != nil {
		return nil, time.Time{}, err
	}
	if !fi.Mode().IsRegular() {
		return nil, time.Time{}, errors.New("not a regular file")
	}
	var b bytes.Buffer
	b.Grow(int(fi.Size()) + bytes.MinRead)
	if _, err := b.ReadFrom(fh); err != nil {
		return nil, time.Time{}, err
	}
	return b.Bytes(), fi.ModTime(), nil
}

// treePayload checks an entry's header and checksum and returns its
// payload.
func treePayload(data []byte) ([]byte, bool) {
	rest, ok := bytes.CutPrefix(data, []byte(treesMagic))
	if !ok || len(rest) < 4 {
		return nil, false
	}
	payload := rest[4:]
	if len(payload) == 0 || crc32.Checksum(payload, castagnoli) != binary.LittleEndian.Uint32(rest[:4]) {
		return nil, false
	}
	return payload, true
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

// safeEncode is encode after the header, or nil when it encodes nothing or
// panics.
func (t *Trees) safeEncode(f *syntax.File, src []byte) (entry []byte) {
	defer func() {
		if r := recover(); r != nil {
			entry = nil
		}
	}()
	buf := make([]byte, treesHeader, treesHeader+len(src))
	copy(buf, treesMagic)
	buf = t.encode(buf, f, src)
	if len(buf) <= treesHeader {
		return nil
	}
	binary.LittleEndian.PutUint32(buf[len(treesMagic):], crc32.Checksum(buf[treesHeader:], castagnoli))
	return buf
}

// Store writes f, the tree syntax.Parse returned for src, or keeps it for
// Flush to write (see Trees), unless an entry for src exists already or the
// tree encodes to nothing.
func (t *Trees) Store(src []byte, f *syntax.File) {
	if f == nil {
		return
	}
	p, err := t.entryPath(src)
	if err != nil {
		return
	}
	t.mu.Lock()
	_, kept := t.pending[p]
	t.mu.Unlock()
	if kept {
		return
	}
	if _, err := os.Lstat(p); err == nil {
		return
	}
	entry := t.safeEncode(f, src)
	if entry == nil {
		return
	}
	if t.direct {
		if writeTree(p, entry) == nil {
			t.stored.Add(1)
		}
		return
	}
	t.mu.Lock()
	if t.pending == nil {
		t.pending = map[string][]byte{}
	}
	t.pending[p] = entry
	t.mu.Unlock()
}

// flushWriters bounds the parallel writes of Flush.
const flushWriters = 4

// Flush writes the trees kept since the last Flush. Failures to write are
// ignored: the cache never fails a run.
func (t *Trees) Flush() {
	t.mu.Lock()
	pending := t.pending
	t.pending = nil
	if len(pending) > 0 && !t.inited {
		// The directory with its CACHEDIR.TAG and .gitignore, once; a
		// failure is tried again by the next Flush.
		t.inited = t.s.init(treesDir) == nil
	}
	inited := t.inited
	t.mu.Unlock()
	if len(pending) == 0 || !inited {
		return
	}
	paths := make(chan string)
	var wg sync.WaitGroup
	for range min(flushWriters, len(pending)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range paths {
				if writeTree(p, pending[p]) == nil {
					t.stored.Add(1)
				}
			}
		}()
	}
	for p := range pending {
		paths <- p
	}
	close(paths)
	wg.Wait()
}

// writeTree writes the entry at p atomically, in its fan-out directory,
// made when the write finds it missing: on a cold cache most of the 256
// are, and checking before each write (with a stat of the entry too) was
// two system calls more per entry, whose creation is the cost of a first
// run's cache (an entry a concurrent run wrote meanwhile is replaced by
// the same bytes).
func writeTree(p string, entry []byte) error {
	err := writeAtomic(p, entry)
	if errors.Is(err, os.ErrNotExist) {
		// No fan-out directory yet, or a concurrent Prune removed it,
		// empty: once more.
		if err = os.MkdirAll(filepath.Dir(p), 0o755); err == nil {
			err = writeAtomic(p, entry)
		}
	}
	return err
}

// pruneTrees removes the tree entries not used for maxAge, the temporary
// files older than an hour, and the fan-out directories left empty.
func (s *Store) pruneTrees(maxAge time.Duration, now time.Time) []error {
	dir := filepath.Join(s.dir, treesDir)
	subs, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil
		}
		return []error{err}
	}
	var errs []error
	for _, sub := range subs {
		if !sub.IsDir() || len(sub.Name()) != 2 {
			continue
		}
		d := filepath.Join(dir, sub.Name())
		left, perrs := pruneDir(d, maxAge, now)
		errs = append(errs, perrs...)
		if left == 0 && len(perrs) == 0 {
			// Fails, harmlessly, when a writer has just put a file in it.
			os.Remove(d)
		}
	}
	return errs
}
