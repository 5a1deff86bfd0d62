package pyprogram

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/cudaforklint/cudaforklint/finding"
	"github.com/cudaforklint/cudaforklint/model"
	"github.com/cudaforklint/cudaforklint/syntax"
)

// The prefilter decides, from the files' bytes alone, which checked files
// can have findings; the others are neither parsed nor simulated.
//
// Every finding comes from a hazard, and every hazard from simulating an
// entry (a checked module) that reaches a process start: CFL005 needs a
// start that is not a fork (a Process, a Pool, a ProcessPoolExecutor,
// torch.multiprocessing.spawn, a DataLoader with workers); the other rules
// need a start and a CUDA initialization. The simulation of an entry X only
// ever sees code of the modules it loads, and the model loads a module only
// through (1) an import statement, (2) an attribute of a loaded module that
// names a submodule, or (3) a set_forkserver_preload name; in each case the
// module's name is written, as a whole identifier, in a loaded module; or
// (4) importlib.import_module in a loaded module, whose computed names load
// modules of that module's directory (model/dynattr.go). A
// start is a call of a row of the process table (package procapi), whose
// callee value is a path rooted at one of the row's roots (multiprocessing,
// os, torch...) that goes through one of its identifiers (Pool, fork,
// DataLoader...: procapi's API.Roots and API.Idents); paths are built from
// identifiers written in loaded modules (imports and attributes). A CUDA
// initialization is likewise a catalog path rooted at a catalog library, a
// catalog method written after a dot, or an extra initializer.
//
// So the prefilter over-approximates what each checked file can load (the
// reach: the file, the local modules its import statements name, resolved as
// the model resolves them, the submodules of every reached module whose name
// appears anywhere, names in string literals of files that mention
// set_forkserver_preload, and every module of the directory of a file that
// mentions import_module), and keeps a file when its reach contains a row's
// root together with one of its identifiers, when a start of that row at
// import time is a hazard by itself (CFL005; procapi's
// Kind.StartAtImportMatters), or, for the other starts, such a pair and a
// CUDA name. Files whose bytes cannot be analysed (unreadable, NUL, not
// UTF-8) are kept so that the loader reports them as before; files
// mentioning noqa or CUDA are parsed (for the driver's noqa checks and the
// syntax-error notices) but not simulated.

// relevantBits decides from the bits of a reach whether it can have findings.
func relevantBits(b uint64) bool {
	for _, p := range startPatterns {
		if b&p.roots != 0 && b&p.idents != 0 && (!p.needsCUDA || b&(bitCUDA|bitPreload) != 0) {
			return true
		}
	}
	return false
}

// pnode is a file in the prefilter's graph.
type pnode struct {
	path    string
	checked bool
	edges   []int
	// scanned is set once the file's bytes are read (byteFacts).
	scanned bool
	byteFacts
}

// byteFacts is what a prefilter learns of a file from its bytes.
type byteFacts struct {
	keep    bool // cannot be judged from its bytes: keep it
	scan    fileScan
	modName string
	modRoot string
	// deps are the files its imports may load (importFiles), resolved on
	// the worker that scanned it; nil for a file the walk does not
	// expand (decided).
	deps []string
	size int // bytes read
	// scanErr is the scanner's panic on the file (a bug), which is kept
	// and reaches everything (scanSafely).
	scanErr string
}

// prefilter holds one run's graph.
type prefilter struct {
	read   func(string) ([]byte, error)
	isFile func(string) bool
	roots  importRoots
	extra  map[string]uint64

	nodes  []*pnode
	index  map[string]int
	tokens *tokenSet
	dirs   *dirCache // listings for the submodule edges
	// expandAll reads every file of every reach, as Programs needs; the
	// prefilter stops where its verdict is settled.
	expandAll bool
	// resolved memoizes resolve, for the scanning goroutines.
	resolvedMu sync.Mutex
	resolved   map[importKey]resolvedImport
	// known are Programs' scans of this run's files, taken instead of
	// scanning them again (nil: none); knownTokens is set once their
	// identifiers are merged into tokens.
	known       *Scans
	knownTokens bool
}

// decision is the prefilter's verdict on the checked files.
type decision struct {
	simulate map[string]bool // entries
	noqa     map[string]bool // parsed for noqa only
	// notices are the scanner's internal errors on checked files
	// (scanSafely): the verdict stays sound, but the bug is reported.
	notices []finding.Notice
	// scans are the files the prefilter read, for the CUDA oracle.
	scans *Scans
}

func runPrefilter(files []string, read func(string) ([]byte, error), isFile func(string) bool, roots importRoots, extraInit []string, workers int, known *Scans) decision {
	pf := newPrefilter(read, isFile, roots, extraInit)
	if known.usable(extraInit) {
		pf.known = known
	}
	pf.explore(files, workers)
	reach := pf.reachBits()
	d := decision{simulate: map[string]bool{}, noqa: map[string]bool{}, scans: pf.scans(extraInit)}
	for n, nd := range pf.nodes {
		if !nd.checked {
			continue
		}
		if nd.scanErr != "" {
			d.notices = append(d.notices, finding.Notice{Path: nd.path, Message: nd.scanErr})
		}
		switch {
		case nd.keep || relevantBits(reach[n]):
			d.simulate[nd.path] = true
		case nd.scan.bits&(bitNoqa|bitCUDA) != 0:
			// Parsed, not simulated: for the driver's noqa checks, and
			// so that a file that uses CUDA still gets its syntax-error
			// notices.
			d.noqa[nd.path] = true
		}
	}
	return d
}

func newPrefilter(read func(string) ([]byte, error), isFile func(string) bool, roots importRoots, extraInit []string) *prefilter {
	pf := &prefilter{read: read, isFile: isFile, roots: roots, index: map[string]int{}, tokens: newTokenSet(), dirs: newDirCache(), resolved: map[importKey]resolvedImport{}}
	if len(extraInit) > 0 {
		pf.extra = map[string]uint64{}
		for _, e := range extraInit {
			pf.extra[e[strings.LastIndexByte(e, '.')+1:]] |= bitCUDA
		}
	}
	return pf
}

// explore builds the graph of the checked files' reach.
func (pf *prefilter) explore(files []string, workers int) {
	var pending []int
	for _, f := range files {
		f = filepath.Clean(f)
		if _, ok := pf.index[f]; ok {
			continue
		}
		pf.index[f] = len(pf.nodes)
		pending = append(pending, len(pf.nodes))
		pf.nodes = append(pf.nodes, &pnode{path: f, checked: true})
	}
	// Scan, resolve, add what is found on disk, until nothing new appears;
	// then the submodule edges, with every token known, which may add files
	// again.
	//
	// A file whose own bytes already qualify is not expanded: whatever
	// reaches it qualifies too. When every checked file qualifies by itself
	// (a pre-commit run on a training script), nothing else is read. And
	// the walk stops as soon as every checked file qualifies through the
	// part of its reach read so far (allQualify): a verdict to keep is
	// final, since reading more only adds bits.
explore:
	for len(pending) > 0 {
		for len(pending) > 0 {
			pf.scanAll(pending, workers)
			var next []int
			for _, n := range pending {
				if !pf.decided(n) {
					next = pf.resolveImports(n, next)
				}
			}
			pending = next
			if pf.settled() {
				break explore
			}
		}
		for n := range pf.nodes {
			if !pf.decided(n) {
				pending = pf.submodules(n, pending)
			}
		}
	}
}

// settled reports whether reading more of the reach can change the
// answer: for the prefilter, once every checked file qualifies; for
// Programs, once every checked file is in one program (more edges can only
// join programs), which a pre-commit run on a few modules of one package
// reaches after a wave or two, without reading the package.
func (pf *prefilter) settled() bool {
	if pf.expandAll {
		return pf.oneProgram()
	}
	return pf.allQualify()
}

// oneProgram reports whether the edges read so far join every checked file.
func (pf *prefilter) oneProgram() bool {
	uf := pf.components()
	root := -1
	for n, nd := range pf.nodes {
		if !nd.checked {
			continue
		}
		if r := uf.find(n); root < 0 {
			root = r
		} else if r != root {
			return false
		}
	}
	return true
}

// components joins the nodes along the edges read so far, in either
// direction.
func (pf *prefilter) components() unionFind {
	uf := newUnionFind(len(pf.nodes))
	for n, nd := range pf.nodes {
		for _, m := range nd.edges {
			uf.union(n, m)
		}
	}
	return uf
}

// unionFind is a disjoint-set forest; a set's root is its smallest member.
type unionFind []int

func newUnionFind(n int) unionFind {
	uf := make(unionFind, n)
	for i := range uf {
		uf[i] = i
	}
	return uf
}

func (uf unionFind) find(x int) int {
	for uf[x] != x {
		uf[x] = uf[uf[x]]
		x = uf[x]
	}
	return x
}

func (uf unionFind) union(a, b int) {
	if a, b = uf.find(a), uf.find(b); a != b {
		uf[max(a, b)] = min(a, b)
	}
}

// allQualify reports whether every checked file is kept already, by its
// own bytes or through the files of its reach read so far. Keeping is
// monotone (relevantBits asks for bits to be present, and a larger reach
// only adds bits), so the files not yet read cannot undo it: for a
// pre-commit run on one module of a large package, this is what saves
// reading the rest of the package (the standard library's json/decoder.py
// reaches 1,556 files, and qualifies long before).
func (pf *prefilter) allQualify() bool {
	reach := pf.reachBits()
	for n, nd := range pf.nodes {
		if nd.checked && !nd.keep && !relevantBits(reach[n]) {
			return false
		}
	}
	return true
}

// decided reports whether a node's own bytes settle its reach's verdict.
func (pf *prefilter) decided(n int) bool {
	nd := pf.nodes[n]
	return nd.keep || !pf.expandAll && relevantBits(nd.scan.bits)
}

// scanAll scans the given nodes in parallel, but for those Programs has
// scanned already.
func (pf *prefilter) scanAll(list []int, workers int) {
	if pf.known != nil {
		list = pf.takeKnown(list)
	}
	if len(list) == 0 {
		return
	}
	scanners := withScanners(len(list), workers, pf.extra, true, func(sc *scanner, i int) {
		nd := pf.nodes[list[i]]
		nd.scanned = true
		src, err := pf.read(nd.path)
		nd.size = len(src)
		if err != nil || !sourceOK(src) {
			nd.keep = true
			return
		}
		nd.scan, nd.scanErr = scanSafely(sc, src)
		nd.keep = nd.scanErr != ""
		nd.modName, nd.modRoot = model.ModuleNameAndRoot(pf.isFile, nd.path)
		if !pf.decided(list[i]) {
			nd.deps = pf.importFiles(nd)
		}
	})
	for _, sc := range scanners {
		pf.tokens.merge(sc.tokens)
	}
}

// scanSafely is sc.scan, with a panic (a bug) turned into a message and a
// scan that holds every bit: the file is kept, and so is every file that
// can load it, as if it started processes and initialized CUDA. That is
// what the full analysis would decide without the prefilter, so nothing
// is lost; the scan runs on worker goroutines, where a panic would end the
// process.
func scanSafely(sc *scanner, src []byte) (fs fileScan, msg string) {
	defer func() {
		if r := recover(); r != nil {
			fs = fileScan{bits: ^uint64(0)}
			msg = fmt.Sprintf("internal error in the prefilter's scan (%v at %s), so the file was analysed in full; please report", r, syntax.PanicSite())
		}
	}()
	return sc.scan(src), ""
}

// takeKnown fills the nodes of list that Programs has scanned from its
// scans, and returns the others. The first it fills brings Programs'
// identifiers along (see Scans).
func (pf *prefilter) takeKnown(list []int) []int {
	var rest []int
	for _, n := range list {
		nd := pf.nodes[n]
		s, ok := pf.known.files[nd.path]
		if !ok {
			rest = append(rest, n)
			continue
		}
		nd.byteFacts, nd.scanned = s, true
		if !pf.knownTokens {
			// Scans are shared by the programs' passes: read only.
			pf.tokens.merge(pf.known.tokens)
			pf.knownTokens = true
		}
	}
	return rest
}

// sourceOK reports whether syntax.Parse accepts the source: source it
// refuses is kept so that the loader reports it as before.
func sourceOK(src []byte) bool { return syntax.CheckSource(src) == nil }

// add returns the node for a file found on disk, adding it (to be scanned)
// if it is new.
func (pf *prefilter) add(path string, pending []int) (int, []int) {
	if n, ok := pf.index[path]; ok {
		return n, pending
	}
	n := len(pf.nodes)
	pf.index[path] = n
	pf.nodes = append(pf.nodes, &pnode{path: path})
	return n, append(pending, n)
}

func (pf *prefilter) edge(from int, path string, pending []int) []int {
	n, pending := pf.add(path, pending)
	pf.nodes[from].edges = append(pf.nodes[from].edges, n)
	return pending
}

// resolveImports adds the edges of a node's imports (importFiles, which
// the scan's worker resolved).
func (pf *prefilter) resolveImports(n int, pending []int) []int {
	nd := pf.nodes[n]
	if nd.keep {
		return pending
	}
	for _, p := range nd.deps {
		pending = pf.edge(n, p, pending)
	}
	return pending
}

// importFiles returns the files a node's import statements may load (every
// prefix of every dotted name, as the model's importName tries them), those
// of the module names in its strings when it mentions
// set_forkserver_preload, and every module of its directory and the module
// names in its strings when it mentions import_module; in that order, once
// each. It reads only the node and the file system, so that the workers
// that scan resolve in parallel: the walk's goroutine resolving every
// import of the standard library took 0.2 s, twice per run.
func (pf *prefilter) importFiles(nd *pnode) []string {
	var out []string
	seen := map[string]bool{nd.path: true}
	found := func(p string) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, r := range nd.scan.imports {
		if r.level == 0 && r.name == "" {
			continue
		}
		forEachImport(pf.resolve, nd.path, nd.modRoot, r, found)
	}
	for _, s := range nd.scan.strs {
		forEachImport(pf.resolve, nd.path, nd.modRoot, impRef{name: s}, found)
	}
	if nd.scan.bits&bitDynImport != 0 {
		// importlib.import_module(".%s" % x, __package__): the model takes
		// every module of the importing file's directory (model/dynattr.go).
		dir := filepath.Dir(nd.path)
		for entry := range pf.dirs.listing(dir) {
			if name := strings.TrimSuffix(entry, ".py"); name != "__init__" {
				forEachImport(pf.resolve, nd.path, nd.modRoot, impRef{level: 1, name: name}, found)
			}
		}
	}
	return out
}

// importKey is what model.ResolveImport's answer depends on besides the
// files on disk: the importing file's directory (which decides its import
// roots), its package root, the name and the level.
type importKey struct {
	dir, modRoot, name string
	level              int
}

type resolvedImport struct {
	path string
	ok   bool
}

// resolve is model.ResolveImport for a file of this run at path,
// memoized: the files of a package import the same names, and each
// resolution joins and probes a path for every directory it tries (a
// seventh of a run after an edit that reuses every other program).
func (pf *prefilter) resolve(path, modRoot, name string, level int) (string, bool) {
	k := importKey{filepath.Dir(path), modRoot, name, level}
	pf.resolvedMu.Lock()
	r, ok := pf.resolved[k]
	pf.resolvedMu.Unlock()
	if !ok {
		r.path, r.ok = model.ResolveImport(pf.isFile, pf.roots(path), path, modRoot, name, level)
		pf.resolvedMu.Lock()
		pf.resolved[k] = r
		pf.resolvedMu.Unlock()
	}
	return r.path, r.ok
}

// forEachImport calls found with every local file an import of r may load,
// written in the file at path (package root modRoot): each prefix of the
// dotted name, as the model's importName tries them, resolved by resolve
// (model.ResolveImport with the file's import roots and the run's files).
func forEachImport(resolve func(path, modRoot, name string, level int) (string, bool), path, modRoot string, r impRef, found func(string)) {
	try := func(name string) {
		if p, ok := resolve(path, modRoot, name, r.level); ok {
			found(p)
		}
	}
	if r.name == "" {
		try("")
		return
	}
	for i := 0; i <= len(r.name); i++ {
		if i == len(r.name) || r.name[i] == '.' {
			try(r.name[:i])
		}
	}
}

// submodules adds the edges from a module to its submodules (a module's
// attribute may name one: `import pkg` then `pkg.sub.f()`) whose name
// appears in some scanned file, resolved as the model's attribute lookup
// does (`pkg.sub` imported from the module).
func (pf *prefilter) submodules(n int, pending []int) []int {
	nd := pf.nodes[n]
	if nd.keep || nd.modName == "" {
		return pending
	}
	root := nd.modName
	if i := strings.IndexByte(root, '.'); i >= 0 {
		root = root[:i]
	}
	if model.IsExternalRoot(root) {
		return pending
	}
	rel := filepath.FromSlash(strings.ReplaceAll(nd.modName, ".", "/"))
	seen := map[string]bool{}
	for _, d := range append([]string{nd.modRoot, filepath.Dir(nd.path)}, pf.roots(nd.path)...) {
		dir := filepath.Join(d, rel)
		if d == "" || seen[dir] {
			continue
		}
		seen[dir] = true
		for entry := range pf.dirs.listing(dir) {
			name := strings.TrimSuffix(entry, ".py")
			if !pf.tokens.has(name) {
				continue
			}
			if p, ok := pf.resolve(nd.path, nd.modRoot, nd.modName+"."+name, 0); ok && p != nd.path {
				if m, ok := pf.index[p]; !ok || !slices.Contains(nd.edges, m) {
					pending = pf.edge(n, p, pending)
				}
			}
		}
	}
	return pending
}

// reachBits ORs every node's bits over what it reaches (Tarjan's strongly
// connected components; each component's bits are final when it closes).
func (pf *prefilter) reachBits() []uint64 {
	n := len(pf.nodes)
	out := make([]uint64, n)
	index := make([]int, n)
	low := make([]int, n)
	onStack := make([]bool, n)
	for i := range index {
		index[i] = -1
	}
	var stack []int
	counter := 0
	type frame struct{ v, e int }
	for s := 0; s < n; s++ {
		if index[s] >= 0 {
			continue
		}
		call := []frame{{s, 0}}
		index[s], low[s] = counter, counter
		counter++
		stack = append(stack, s)
		onStack[s] = true
		out[s] = pf.nodes[s].scan.bits
		for len(call) > 0 {
			top := &call[len(call)-1]
			v := top.v
			if top.e < len(pf.nodes[v].edges) {
				w := pf.nodes[v].edges[top.e]
				top.e++
				if index[w] < 0 {
					index[w], low[w] = counter, counter
					counter++
					stack = append(stack, w)
					onStack[w] = true
					out[w] = pf.nodes[w].scan.bits
					call = append(call, frame{w, 0})
				} else if onStack[w] {
					low[v] = min(low[v], index[w])
					out[v] |= out[w]
				} else {
					out[v] |= out[w]
				}
				continue
			}
			call = call[:len(call)-1]
			if len(call) > 0 {
				u := call[len(call)-1].v
				low[u] = min(low[u], low[v])
				out[u] |= out[v]
			}
			if low[v] == index[v] {
				// v roots a component: every member gets the union.
				var members []int
				var bits uint64
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					onStack[w] = false
					members = append(members, w)
					bits |= out[w]
					if w == v {
						break
					}
				}
				for _, w := range members {
					out[w] = bits
				}
				if len(call) > 0 {
					out[call[len(call)-1].v] |= bits
				}
			}
		}
	}
	return out
}
