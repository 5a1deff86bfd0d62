package pyprogram

import (
	"runtime"
	"strings"
	"sync"

	"github.com/cudaforklint/cudaforklint/catalog"
	"github.com/cudaforklint/cudaforklint/model"
	"github.com/cudaforklint/cudaforklint/procapi"
)

// The byte scan: what the prefilter learns about a file without parsing it.
// It reads every identifier once (identifier bytes: ASCII letters, digits,
// '_', and every byte >= 0x80, so that non-ASCII identifiers are whole
// tokens), sets a bit for each token the analysis depends on, collects the
// file's distinct identifiers (for submodule lookups) and the module names
// its import statements could name. Strings and comments are scanned like
// code: that only over-approximates.

// Token bits. A process start needs, somewhere in what an entry can reach,
// one of the roots of a procapi row that starts processes and one of its
// identifiers (see relevantBits); a CUDA initialization needs one of the
// catalog's names. Each root and identifier of the process table has a bit
// of its own below the flags; were there more than fit, they would share
// bits, which only keeps more files.
const (
	bitCUDA      uint64 = 1 << (63 - iota) // a catalog library or CUDA method, an extra initializer
	bitPreload                             // set_forkserver_preload: names modules in strings
	bitNoqa                                // a noqa directive may be here (for the driver's noqa checks)
	bitDynImport                           // importlib.import_module: may load any module of its directory

	// flagMethod marks, in baseTokens, a catalog method row: CUDA only when
	// written after a dot. It is never set in a file's bits.
	flagMethod
	// flagImport marks the import keyword in baseTokens.
	flagImport
)

// tokenBits is how many bits below the six above the process table's
// tokens share.
const tokenBits = 64 - 6

// startPattern is one process-starting row of procapi as the prefilter sees
// it: a reach that holds one of its roots and one of its identifiers may
// start processes through it; with needsCUDA, that start is a hazard only
// when CUDA can be initialized too.
type startPattern struct {
	roots, idents uint64
	needsCUDA     bool
}

// baseTokens maps identifiers to their bits; startPatterns are the process
// table's rows in terms of those bits.
var baseTokens, startPatterns = func() (map[string]uint64, []startPattern) {
	m := map[string]uint64{}
	next := 0
	bitOf := func(id string) uint64 {
		if b := m[id] & (1<<tokenBits - 1); b != 0 {
			return b
		}
		b := uint64(1) << (next % tokenBits)
		next++
		m[id] |= b
		return b
	}
	var patterns []startPattern
	for _, api := range procapi.Rows() {
		switch {
		case api.Kind == procapi.Preload:
			for _, id := range api.Idents() {
				m[id] |= bitPreload
			}
		case api.Kind.Starts() && api.On == 0:
			// Methods are left out: they start objects that a
			// module-level row made.
			p := startPattern{needsCUDA: !api.Kind.StartAtImportMatters()}
			for _, r := range api.Roots() {
				p.roots |= bitOf(r)
			}
			for _, id := range api.Idents() {
				p.idents |= bitOf(id)
			}
			patterns = append(patterns, p)
		}
	}
	// Library classes that make and iterate a DataLoader of their own
	// (transformers' Trainer): a start only with CUDA around.
	for _, c := range model.LoaderMakers() {
		p := startPattern{needsCUDA: true}
		for _, r := range c.Roots {
			p.roots |= bitOf(r)
		}
		for _, id := range c.Idents {
			p.idents |= bitOf(id)
		}
		patterns = append(patterns, p)
	}
	cuda := func(name string) {
		if name != "" {
			m[name] |= bitCUDA
		}
	}
	for _, l := range catalog.Libraries() {
		cuda(l)
	}
	for _, r := range catalog.Rows() {
		if r.Shape == catalog.Method {
			continue // methodTokens: only as `.name`
		}
		root := r.Name
		if i := strings.IndexByte(root, '.'); i >= 0 {
			root = root[:i]
		}
		cuda(root)
	}
	cuda("cuda")
	// The catalog's method rows (`x.cuda()`, `x.to(0)`) count as CUDA only
	// when written after a dot, since "to" is everywhere.
	for _, r := range catalog.Rows() {
		if r.Shape == catalog.Method {
			m[strings.TrimPrefix(r.Name, ".")] |= flagMethod
		}
	}
	m["import"] |= flagImport
	m["import_module"] |= bitDynImport
	return m, patterns
}()

// impRef is what one import statement may load: the dotted names tried with
// every prefix (`import a.b.c` loads a, a.b and a.b.c) at a relative level.
type impRef struct {
	level int
	name  string // dotted, without the leading dots; "" for `from . import x`'s package
}

// fileScan is the scan of one file.
type fileScan struct {
	bits    uint64
	imports []impRef
	strs    []string // dotted names in string literals, when bitPreload or bitDynImport is set
}

func isIdentByte(b byte) bool { return identByte[b] }

var identByte = func() (t [256]bool) {
	for b := 0; b < 256; b++ {
		c := byte(b)
		t[b] = c == '_' || 'a' <= c|0x20 && c|0x20 <= 'z' || '0' <= c && c <= '9' || c >= 0x80
	}
	return
}()

// scanner scans files; one per goroutine. tokens records every identifier
// it saw, over all its files, in a one-hash Bloom filter: a false positive
// only adds an edge to the graph (nil: none recorded).
type scanner struct {
	extra  map[string]uint64
	tokens *tokenSet
}

func newScanner(extra map[string]uint64) *scanner {
	return &scanner{extra: extra, tokens: newTokenSet()}
}

// withScanners calls each(sc, i) for every i in [0, n) on up to workers
// goroutines (GOMAXPROCS when workers <= 0), each with a scanner of its own
// (its token set is 256 KB: one per goroutine, not one per file), and
// returns the scanners, whose token sets the caller may merge. With tokens
// false the scanners record no identifiers: the CUDA oracle has no use for
// them, and the writes into a fresh set cost it a third of its scan.
func withScanners(n, workers int, extra map[string]uint64, tokens bool, each func(sc *scanner, i int)) []*scanner {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, n)
	next := make(chan int, n)
	for i := range n {
		next <- i
	}
	close(next)
	scanners := make([]*scanner, workers)
	var wg sync.WaitGroup
	for w := range workers {
		scanners[w] = newScanner(extra)
		if !tokens {
			scanners[w].tokens = nil
		}
		wg.Add(1)
		go func(sc *scanner) {
			defer wg.Done()
			for i := range next {
				each(sc, i)
			}
		}(scanners[w])
	}
	wg.Wait()
	return scanners
}

// tokenSet is a Bloom filter of identifiers with one hash function.
type tokenSet struct{ bits []uint64 }

const tokenSetBits = 1 << 21 // 256 KB: stays in cache

// newTokenSet returns an empty set, its pages written once. A set this
// large is fresh memory from the kernel, and add reads a word before it
// writes it: the read maps the shared zero page and the write then copies
// it, a second fault that flushes the other cores' TLBs. Writing each page
// first takes one plain fault: on a two-core virtual machine that saved
// 500 of 9,600 page faults and a tenth of the time of a one-file check
// (json/decoder.py, paired: wall 0.90×, CPU 0.89×).
func newTokenSet() *tokenSet {
	t := &tokenSet{bits: make([]uint64, tokenSetBits/64)}
	const wordsPerPage = 4096 / 8
	for i := 0; i < len(t.bits); i += wordsPerPage {
		t.bits[i] = 0
	}
	return t
}

func tokenHash(b []byte) uint32 {
	h := uint32(2166136261)
	for _, c := range b {
		h ^= uint32(c)
		h *= 16777619
	}
	return h % tokenSetBits
}

func (t *tokenSet) add(b []byte) {
	h := tokenHash(b)
	t.bits[h/64] |= 1 << (h % 64)
}

// has reports whether s may have been added.
func (t *tokenSet) has(s string) bool {
	h := tokenHash([]byte(s))
	return t.bits[h/64]&(1<<(h%64)) != 0
}

func (t *tokenSet) merge(o *tokenSet) {
	for i, w := range o.bits {
		t.bits[i] |= w
	}
}

func (sc *scanner) scan(src []byte) fileScan {
	var fs fileScan
	for i := 0; i < len(src); {
		b := src[i]
		if !isIdentByte(b) {
			i++
			continue
		}
		j := i + 1
		for j < len(src) && isIdentByte(src[j]) {
			j++
		}
		if b >= '0' && b <= '9' {
			i = j // a number (or its suffix)
			continue
		}
		id := src[i:j]
		if bits, ok := baseTokens[string(id)]; ok {
			fs.bits |= bits &^ (flagMethod | flagImport)
			if bits&flagMethod != 0 && afterDot(src, i) {
				fs.bits |= bitCUDA
			}
			if bits&flagImport != 0 {
				fs.imports = appendImports(fs.imports, src, i, j)
			}
		}
		if len(sc.extra) > 0 {
			fs.bits |= sc.extra[string(id)]
		}
		if len(id) >= 4 && hasNoqa(id) {
			fs.bits |= bitNoqa
		}
		if sc.tokens != nil {
			sc.tokens.add(id)
		}
		i = j
	}
	if fs.bits&(bitPreload|bitDynImport) != 0 {
		fs.strs = dottedStrings(src)
	}
	return fs
}

// hasNoqa reports whether id contains "noqa" in any case.
func hasNoqa(id []byte) bool {
	for k := 0; k+4 <= len(id); k++ {
		if id[k]|0x20 == 'n' && id[k+1]|0x20 == 'o' && id[k+2]|0x20 == 'q' && id[k+3]|0x20 == 'a' {
			return true
		}
	}
	return false
}

// afterDot reports whether the identifier at i may follow a '.': only white
// space and line continuations between them, or a line break after a line
// that holds a comment (inside brackets a comment may sit between them).
func afterDot(src []byte, i int) bool {
	k := i - 1
	for k >= 0 {
		switch src[k] {
		case ' ', '\t', '\f', '\r', '\\':
			k--
			continue
		case '\n':
			line := k - 1
			for line >= 0 && src[line] != '\n' {
				if src[line] == '#' {
					return true
				}
				line--
			}
			k--
			continue
		}
		break
	}
	return k >= 0 && src[k] == '.'
}

// skipSpace skips white space, line continuations and, when multiline (inside
// parentheses), line breaks and comments.
func skipSpace(src []byte, i int, multiline bool) int {
	for i < len(src) {
		switch c := src[i]; {
		case c == ' ' || c == '\t' || c == '\f' || c == '\r':
			i++
		case c == '\\' && i+1 < len(src) && (src[i+1] == '\n' || src[i+1] == '\r'):
			i += 2
		case multiline && c == '\n':
			i++
		case multiline && c == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		default:
			return i
		}
	}
	return i
}

// ident reads an identifier at i.
func ident(src []byte, i int) (string, int) {
	j := i
	for j < len(src) && isIdentByte(src[j]) {
		j++
	}
	return string(src[i:j]), j
}

// dotted reads `a . b . c` at i.
func dotted(src []byte, i int, multiline bool) (string, int) {
	var parts []string
	for {
		id, j := ident(src, i)
		if id == "" {
			break
		}
		parts = append(parts, id)
		k := skipSpace(src, j, multiline)
		if k < len(src) && src[k] == '.' {
			i = skipSpace(src, k+1, multiline)
			continue
		}
		i = j
		break
	}
	return strings.Join(parts, "."), i
}

// appendImports reads the import statement whose `import` keyword is at
// src[start:end]: backwards for `from <dots><module>`, forwards for the
// names.
func appendImports(out []impRef, src []byte, start, end int) []impRef {
	if start > 0 && isIdentByte(src[start-1]) || end < len(src) && isIdentByte(src[end]) {
		return out
	}
	level, module, isFrom := fromClause(src, start)
	i := skipSpace(src, end, false)
	paren := false
	if isFrom && i < len(src) && src[i] == '(' {
		paren = true
		i = skipSpace(src, i+1, true)
	}
	if isFrom {
		out = append(out, impRef{level: level, name: module})
	}
	for {
		var name string
		name, i = dotted(src, i, paren)
		if name == "" {
			break
		}
		if isFrom {
			out = append(out, impRef{level: level, name: model.JoinDotted(module, name)})
		} else {
			out = append(out, impRef{name: name})
		}
		i = skipSpace(src, i, paren)
		if as, j := ident(src, i); as == "as" {
			i = skipSpace(src, j, paren)
			_, i = ident(src, i)
			i = skipSpace(src, i, paren)
		}
		if i < len(src) && src[i] == ',' {
			i = skipSpace(src, i+1, paren)
			continue
		}
		break
	}
	return out
}

// fromClause looks backwards from an `import` keyword for `from <dots><name>`.
func fromClause(src []byte, importAt int) (level int, module string, ok bool) {
	var parts []string // identifiers, backwards
	dots := 0          // dots seen since the last identifier (backwards)
	k := importAt - 1
	for {
		k = skipSpaceBack(src, k)
		if k < 0 {
			return 0, "", false
		}
		switch {
		case src[k] == '.':
			dots++
			k--
			continue
		case isIdentByte(src[k]):
			j := k
			for j >= 0 && isIdentByte(src[j]) {
				j--
			}
			id := string(src[j+1 : k+1])
			k = j
			if id == "from" {
				mod := make([]string, len(parts))
				for n := range parts {
					mod[n] = parts[len(parts)-1-n]
				}
				return dots, strings.Join(mod, "."), true
			}
			if len(parts) > 0 && dots == 0 {
				return 0, "", false // two identifiers in a row: not a module name
			}
			parts = append(parts, id)
			dots = 0
			continue
		}
		return 0, "", false
	}
}

// skipSpaceBack skips white space and line continuations backwards.
func skipSpaceBack(src []byte, k int) int {
	for k >= 0 {
		switch src[k] {
		case ' ', '\t', '\f':
			k--
		case '\n', '\r':
			// Only a continued line may go on: the byte before is a backslash.
			j := k - 1
			if src[k] == '\n' && j >= 0 && src[j] == '\r' {
				j--
			}
			if j >= 0 && src[j] == '\\' {
				k = j - 1
				continue
			}
			return -1
		default:
			return k
		}
	}
	return k
}

// dottedStrings returns the contents of string literals that look like dotted
// module names ("pkg.mod"), for set_forkserver_preload's list.
func dottedStrings(src []byte) []string {
	var out []string
	for i := 0; i < len(src); i++ {
		q := src[i]
		if q != '"' && q != '\'' {
			continue
		}
		j := i + 1
		for j < len(src) && (isIdentByte(src[j]) || src[j] == '.') {
			j++
		}
		if j < len(src) && src[j] == q && j > i+1 {
			out = append(out, string(src[i+1:j]))
		}
		i = j - 1
		if j < len(src) && src[j] == q {
			i = j
		}
	}
	return out
}
