package pyprogram

import (
	"bytes"
	"io/fs"
	"path/filepath"
	"strings"
	"sync"

	"github.com/cudaforklint/cudaforklint/model"
	"github.com/cudaforklint/cudaforklint/tokcheck"
)

// The CUDA oracle answers the model's cudaPossible (model/cudareach.go)
// without loading modules, when it can. cudaPossible asks whether a module,
// or a local module its imports reach, imports a CUDA library or calls a
// catalogued method on an object (x.cuda(), x.to(...)). The model answers
// by loading every module the imports reach, and a module that cannot
// reach CUDA costs the parse of its whole import closure: of the 169
// modules a check of the standard library's json/decoder.py loaded, 132
// were loaded by that search alone.
//
// The oracle reads the same files' code and says "unreachable" only when
// no file of the closure names a CUDA library or writes a catalogued method
// after a dot, and every file could be read. It scans each file's bytes as
// the prefilter does (taking the prefilter's scans where it made them), and
// only a file whose bytes name CUDA again with its comments and plain
// string literals blanked (as tokcheck finds them; f-strings are left as
// they are, their fields are code): in the standard library CUDA is named
// nowhere, and blanking costs as much as the scan. That is sound for
// cudaPossible's reasons: an import of a catalog library names the library
// in code, a call of a catalogued method writes the method after a dot in
// code, and every module the model's eachImport loads is one an import
// statement names (the scan's import references, resolved with every
// prefix as the prefilter resolves them; the bytes' references hold the
// code's, as the prefilter's graph relies on) or a submodule a star import
// takes from its package (here: every module of the package). Anything
// else ("maybe") and the model searches as before; the answer is the same
// either way, only what gets loaded differs.
type cudaOracle struct {
	read   func(string) ([]byte, error)
	isFile func(string) bool
	dirs   *dirCache
	roots  importRoots
	// known are the prefilter's raw scans, set once it has run (nil: it
	// did not run); a file they hold is not scanned again.
	known *Scans

	mu sync.Mutex
	// done holds the settled answers: true when the file's imports may
	// reach CUDA (as far as the oracle can tell), false when surely not.
	done  map[string]bool
	facts map[string]*codeFacts // the files read
}

// codeFacts is what the oracle reads in one file's code.
type codeFacts struct {
	maybe bool     // names CUDA in code, or could not be read
	deps  []string // the files its imports may load
}

// useCUDAOracle is off only in tests, which compare the findings with and
// without the oracle.
var useCUDAOracle = true

// cudaOracleFor returns the run's oracle, nil when it is off.
func cudaOracleFor(read func(string) ([]byte, error), isFile func(string) bool, dirs *dirCache, roots importRoots) *cudaOracle {
	if !useCUDAOracle {
		return nil
	}
	return newCUDAOracle(read, isFile, dirs, roots)
}

// question returns the oracle's question for model.Options, nil when the
// oracle is off.
func (o *cudaOracle) question() func(string, bool) bool {
	if o == nil {
		return nil
	}
	return o.Unreachable
}

func newCUDAOracle(read func(string) ([]byte, error), isFile func(string) bool, dirs *dirCache, roots importRoots) *cudaOracle {
	return &cudaOracle{read: read, isFile: isFile, dirs: dirs, roots: roots, done: map[string]bool{}, facts: map[string]*codeFacts{}}
}

// Unreachable reports whether the module at path surely cannot reach CUDA
// through its imports (model.Options.CUDAUnreachable); with read false,
// only from the files read for earlier questions.
func (o *cudaOracle) Unreachable(path string, read bool) bool {
	path = filepath.Clean(path)
	o.mu.Lock()
	defer o.mu.Unlock()
	if maybe, ok := o.done[path]; ok || !read {
		return ok && !maybe
	}
	closure, clear := o.readClosure(path)
	if !clear {
		// A file path reaches may reach CUDA: path's answer, and not
		// necessarily that of the files on the way.
		o.done[path] = true
		return false
	}
	// Every file of a clear closure has a clear closure of its own.
	for p := range closure {
		o.done[p] = false
	}
	return true
}

// readClosure reads, in parallel waves, the files path's imports reach,
// and returns them with whether none names CUDA in code or failed to read.
// It stops at the first that does: path reaches it, so path's answer is
// known, and a package importing torch need not be read whole to say so.
// A file settled clear by an earlier question is not read again, nor is
// what it reaches.
func (o *cudaOracle) readClosure(path string) (map[string]bool, bool) {
	seen := map[string]bool{path: true}
	frontier := []string{path}
	for len(frontier) > 0 {
		var todo []string
		for _, p := range frontier {
			if _, ok := o.facts[p]; !ok {
				todo = append(todo, p)
			}
		}
		got := make([]*codeFacts, len(todo))
		withScanners(len(todo), 0, nil, false, func(sc *scanner, i int) {
			got[i] = o.readFacts(todo[i], sc)
		})
		for i, p := range todo {
			o.facts[p] = got[i]
		}
		var deps []string
		for _, p := range frontier {
			f := o.facts[p]
			if f.maybe {
				return seen, false
			}
			for _, d := range f.deps {
				if seen[d] {
					continue
				}
				seen[d] = true
				if maybe, ok := o.done[d]; ok {
					if maybe {
						return seen, false
					}
					continue
				}
				deps = append(deps, d)
			}
		}
		frontier = deps
	}
	return seen, true
}

func (o *cudaOracle) readFacts(path string, sc *scanner) *codeFacts {
	src, err := o.read(path) // what the prefilter read, the reader kept
	if err != nil || !strings.HasSuffix(path, ".py") {
		return &codeFacts{maybe: true}
	}
	scan, modRoot, ok := o.knownScan(path)
	if !ok {
		if !sourceOK(src) {
			return &codeFacts{maybe: true}
		}
		var msg string
		if scan, msg = scanSafely(sc, src); msg != "" {
			return &codeFacts{maybe: true}
		}
		_, modRoot = model.ModuleNameAndRoot(o.isFile, path)
	}
	code := src
	if scan.bits&bitCUDA != 0 {
		// Perhaps only in comments or strings: scan the code alone.
		var msg string
		if code, ok = codeOnly(src); !ok {
			return &codeFacts{maybe: true}
		}
		if scan, msg = scanSafely(sc, code); msg != "" || scan.bits&bitCUDA != 0 {
			return &codeFacts{maybe: true}
		}
	}
	f := &codeFacts{}
	star := hasStarImport(code)
	seen := map[string]bool{}
	add := func(p string) {
		if p != path && !seen[p] {
			seen[p] = true
			f.deps = append(f.deps, p)
		}
	}
	for _, r := range scan.imports {
		if r.level == 0 && r.name == "" {
			continue
		}
		forEachImport(o.resolve, path, modRoot, r, func(p string) {
			add(p)
			if star && filepath.Base(p) == "__init__.py" {
				o.packageModules(filepath.Dir(p), add)
			}
		})
	}
	return f
}

// resolve is model.ResolveImport with the oracle's roots and files.
func (o *cudaOracle) resolve(path, modRoot, name string, level int) (string, bool) {
	return model.ResolveImport(o.isFile, o.roots(path), path, modRoot, name, level)
}

// knownScan returns the prefilter's scan of the file at path, ok false
// when it has none (or kept the file unread: it could not judge it).
func (o *cudaOracle) knownScan(path string) (fileScan, string, bool) {
	if o.known == nil {
		return fileScan{}, "", false
	}
	b, ok := o.known.files[path]
	if !ok || b.keep {
		return fileScan{}, "", false
	}
	return b.scan, b.modRoot, true
}

// packageModules calls add with every module of a package directory: a
// star import of the package may take any of them (its __all__).
func (o *cudaOracle) packageModules(dir string, add func(string)) {
	for entry, mode := range o.dirs.listing(dir) {
		switch {
		case strings.HasSuffix(entry, ".py"):
			add(filepath.Join(dir, entry))
		case mode.IsDir() || mode&fs.ModeSymlink != 0:
			if p := filepath.Join(dir, entry, "__init__.py"); o.isFile(p) {
				add(p)
			}
		}
	}
}

// codeOnly returns a copy of src with its comments and its string literals
// but f- and t-strings (whose replacement fields are code) blanked out,
// offsets and line breaks kept. ok is false when a string literal is not
// closed: tree-sitter may read what follows it as code, so blanking it
// could hide code.
func codeOnly(src []byte) (code []byte, ok bool) {
	tok := tokcheck.Scan(src)
	for _, s := range tok.Strings {
		if !closed(src[s.Start:s.End]) {
			return nil, false
		}
	}
	out := append([]byte(nil), src...)
	var interpolated []tokcheck.Span
	for _, s := range tok.Strings {
		if isInterpolated(src[s.Start:s.End]) {
			interpolated = append(interpolated, s)
		}
	}
	inside := func(s tokcheck.Span) bool {
		for _, f := range interpolated {
			if f.Start <= s.Start && s.End <= f.End {
				return true
			}
		}
		return false
	}
	blank := func(s tokcheck.Span) {
		for i := s.Start; i < s.End && i < len(out); i++ {
			if out[i] != '\n' && out[i] != '\r' {
				out[i] = ' '
			}
		}
	}
	for _, s := range tok.Strings {
		if !isInterpolated(src[s.Start:s.End]) && !inside(s) {
			blank(s)
		}
	}
	for _, c := range tok.Comments {
		if !inside(c) {
			blank(c)
		}
	}
	return out, true
}

// closed reports whether a string literal (prefix and quotes included)
// ends with the quotes it opens with.
func closed(lit []byte) bool {
	i := 0
	for i < len(lit) && lit[i] != '"' && lit[i] != '\'' {
		i++
	}
	body := lit[i:]
	if len(body) < 2 {
		return false
	}
	q := body[0]
	if len(body) >= 6 && body[1] == q && body[2] == q {
		return body[len(body)-1] == q && body[len(body)-2] == q && body[len(body)-3] == q
	}
	if len(body) >= 3 && body[1] == q && body[2] == q {
		return false // an unclosed triple quote (or just three quotes)
	}
	return body[len(body)-1] == q
}

// isInterpolated reports whether a string literal (prefix and quotes
// included) is an f- or t-string.
func isInterpolated(lit []byte) bool {
	for _, c := range lit {
		switch c | 0x20 {
		case 'f', 't':
			return true
		case 'r', 'u', 'b':
		default:
			return false
		}
	}
	return false
}

// hasStarImport reports whether code holds `import *`.
func hasStarImport(code []byte) bool {
	for i := 0; ; {
		k := bytes.Index(code[i:], []byte("import"))
		if k < 0 {
			return false
		}
		j := i + k + len("import")
		for j < len(code) && (code[j] == ' ' || code[j] == '\t' || code[j] == '\\' || code[j] == '\n' || code[j] == '\r') {
			j++
		}
		if j < len(code) && code[j] == '*' {
			return true
		}
		i += k + 1
	}
}
