// Package config finds and reads cudaforklint's configuration, in ruff's
// shape, and answers for each file which rules apply, which Python versions
// and platforms to simulate, and whether the file is excluded.
//
// Files: `[tool.cudaforklint]` in pyproject.toml, or cudaforklint.toml /
// .cudaforklint.toml with the same keys at the top level. The closest file
// found from a checked path upwards applies to it (in one directory,
// .cudaforklint.toml beats cudaforklint.toml beats pyproject.toml; a
// pyproject.toml without the table does not count), up to the filesystem
// root; files are not merged. Paths and globs in a file are relative to its
// directory. Lookups are cached per directory.
//
// Keys (unknown keys and bad values are errors naming the file and line; the
// CLI exits 2 on them):
//
//	select, extend-select, ignore    rule selectors: a code ("CFL001"), a
//	                                 prefix ("CFL", "CFL00") or "ALL"
//	per-file-ignores                 table: glob → selectors (ruff's globs)
//	extend-per-file-ignores          the same, added to per-file-ignores
//	exclude, extend-exclude          gitignore-style globs; exclude replaces
//	                                 the default list, extend-exclude adds
//	respect-gitignore                default true
//	force-exclude                    exclude explicitly passed files too
//	target-version                   "py310" … "py315": the oldest Python
//	platform                         "linux", "macos", "windows", "all", or a list
//	extra-initializers               dotted names of the project's functions
//	                                 that initialize CUDA ("mylab.gpu.setup")
//	src                              directories searched for the project's
//	                                 own modules, as ruff's src (what the
//	                                 project puts on PYTHONPATH: "tests",
//	                                 "python"), after the importing file's
//	                                 package, its project root and the
//	                                 root's src/ (Loader.ImportRoots)
//	cache-dir                        where `check` keeps its results cache
//	                                 (default .cudaforklint_cache next to the
//	                                 config file; read from the working
//	                                 directory's config only, as ruff does)
//
// The versions checked default to the CPython releases supported today
// (3.11–3.15). target-version and `[project] requires-python` in the same
// directory's pyproject.toml replace that default, narrowing or widening it
// (3.10, end of life, is checked only when one of them includes it); given
// both, their intersection is checked. Without a config file the closest
// pyproject.toml is used for requires-python alone.
//
// Precedence: command-line overrides (Overrides) > the config file >
// defaults. Rule selection follows ruff: within one layer, the most specific
// selector wins and ignore wins a tie; a layer that has select starts over,
// one that has only extend-select/ignore adjusts the layer below it.
package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/cudaforklint/cudaforklint/finding"
	"github.com/cudaforklint/cudaforklint/pytarget"
	"github.com/cudaforklint/cudaforklint/ruledoc"
)

// Error is a configuration problem, with the file and line when known:
// `pyproject.toml:12: unknown key "selct" in [tool.cudaforklint] (did you
// mean "select"?)`.
type Error struct {
	File string // as shown: relative to the working directory when under it
	Line int    // 1-based; 0 when unknown
	Msg  string
}

func (e *Error) Error() string {
	switch {
	case e.File != "" && e.Line > 0:
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	case e.File != "":
		return e.File + ": " + e.Msg
	}
	return e.Msg
}

// File names, in the order they win within one directory.
var configNames = []string{".cudaforklint.toml", "cudaforklint.toml", "pyproject.toml"}

// FileNames are the names of the configuration files looked for in every
// directory from a file upwards, in the order they win.
func FileNames() []string { return append([]string(nil), configNames...) }

// DefaultExclude is the exclude list used when a config does not set
// exclude: ruff's default list plus __pycache__.
var DefaultExclude = []string{
	".bzr", ".direnv", ".eggs", ".git", ".git-rewrite", ".hg", ".ipynb_checkpoints",
	".mypy_cache", ".nox", ".pants.d", ".pyenv", ".pytest_cache", ".pytype",
	".ruff_cache", ".svn", ".tox", ".venv", ".vscode", "__pycache__", "__pypackages__",
	"_build", "buck-out", "build", "dist", "node_modules", "site-packages", "venv",
}

// knownKeys are the keys of [tool.cudaforklint].
var knownKeys = []string{
	"select", "extend-select", "ignore", "per-file-ignores", "extend-per-file-ignores",
	"exclude", "extend-exclude", "respect-gitignore", "force-exclude",
	"target-version", "platform", "extra-initializers", "cache-dir", "src",
}

// Overrides are the command-line settings; nil / empty fields are unset.
type Overrides struct {
	Select, ExtendSelect, Ignore []string
	// Exclude replaces the exclude list; ExtendExclude adds to it. Patterns
	// are relative to the working directory.
	Exclude, ExtendExclude []string
	TargetVersion          string // "py311"; replaces target-version and requires-python
	Platform               string // "linux,windows"
	// ExtraInitializers are added to the config's.
	ExtraInitializers []string
	RespectGitignore  *bool
	ForceExclude      *bool
	// ConfigFile, when set, is used for every path instead of discovery
	// (ruff's --config PATH); Isolated ignores config files altogether.
	ConfigFile string
	Isolated   bool
}

// Config is one parsed configuration file (or the defaults).
type Config struct {
	// Path is the file ("" for the defaults); Dir anchors its globs.
	Path string
	Dir  string

	sel               selection
	perFile           []perFileIgnore
	exclude           []ignorePattern
	Targets           pytarget.Set
	ExtraInitializers []string
	// Src are the src directories, absolute (relative to Dir in the file).
	Src              []string
	RespectGitignore bool
	ForceExclude     bool
	// CacheDir is cache-dir, absolute (relative to Dir in the file); ""
	// when unset.
	CacheDir string
}

type perFileIgnore struct {
	glob  *ruffGlob
	codes []string // resolved codes
}

// selection is one layer of select/extend-select/ignore.
type selection struct {
	set                 bool // select given
	selectors, ignorers []string
	extendSelect        []string
}

// Loader finds the configuration of each path. It is safe for concurrent
// use.
type Loader struct {
	rules   []*ruledoc.Doc
	known   map[string]bool
	ov      Overrides
	ovSel   selection
	ovExcl  []ignorePattern
	ovTgt   pytarget.Set // 0 when not overridden
	ovPlat  pytarget.Set
	workDir string
	git     *Gitignore

	mu       sync.Mutex
	dirs     map[string]*Config // dir → closest config
	errs     map[string]error
	requires map[string]reqResult // dir → closest pyproject's requires-python
	forced   *Config

	// rootsMu guards the memos of ProjectRoot and ImportRoots (project.go),
	// apart from mu: ImportRoots asks ConfigFor, which takes mu.
	rootsMu     sync.Mutex
	projects    map[string]string   // dir → project root ("" = none)
	importRoots map[string][]string // dir → import roots
}

// NewLoader makes a Loader for the given rules (all of them, enabled or
// not) and command-line overrides, which it validates.
func NewLoader(rules []*ruledoc.Doc, ov Overrides) (*Loader, error) {
	wd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	l := &Loader{
		rules: rules, known: map[string]bool{}, ov: ov, workDir: wd, git: NewGitignore(),
		dirs: map[string]*Config{}, errs: map[string]error{}, requires: map[string]reqResult{},
	}
	for _, r := range rules {
		l.known[r.Code] = true
	}
	for _, list := range [][]string{ov.Select, ov.ExtendSelect, ov.Ignore} {
		for _, s := range list {
			if err := l.checkSelector(s); err != nil {
				return nil, &Error{Msg: "command line: " + err.Error()}
			}
		}
	}
	l.ovSel = selection{set: ov.Select != nil, selectors: ov.Select, extendSelect: ov.ExtendSelect, ignorers: ov.Ignore}
	for _, list := range [][]string{ov.Exclude, ov.ExtendExclude} {
		for _, p := range list {
			pat, ok, err := compileIgnore(p)
			if err != nil {
				return nil, &Error{Msg: "command line: exclude: " + err.Error()}
			}
			if ok {
				l.ovExcl = append(l.ovExcl, pat)
			}
		}
	}
	if ov.TargetVersion != "" {
		if l.ovTgt, err = pytarget.ParseTargetVersion(ov.TargetVersion); err != nil {
			return nil, &Error{Msg: "command line: " + err.Error()}
		}
	}
	if ov.Platform != "" {
		if l.ovPlat, err = pytarget.ParsePlatforms(ov.Platform); err != nil {
			return nil, &Error{Msg: "command line: " + err.Error()}
		}
	}
	for _, n := range ov.ExtraInitializers {
		if !dottedName.MatchString(n) {
			return nil, &Error{Msg: fmt.Sprintf("command line: extra initializer %q is not a dotted name such as \"mylab.gpu.setup\"", n)}
		}
	}
	if ov.ConfigFile != "" && !ov.Isolated {
		abs, err := filepath.Abs(ov.ConfigFile)
		if err != nil {
			return nil, err
		}
		c, err := l.parseFile(abs, true)
		if err != nil {
			return nil, err
		}
		if c == nil {
			return nil, &Error{File: l.show(abs), Msg: "no [tool.cudaforklint] table"}
		}
		l.forced = c
	}
	return l, nil
}

var dottedName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$`)

// show returns path relative to the working directory when under it.
func (l *Loader) show(path string) string {
	if rel, err := filepath.Rel(l.workDir, path); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return path
}

// checkSelector accepts "ALL", a known code, or a prefix of one.
func (l *Loader) checkSelector(s string) error {
	if s == "ALL" || l.known[s] {
		return nil
	}
	for code := range l.known {
		if strings.HasPrefix(code, s) && s != "" {
			return nil
		}
	}
	return fmt.Errorf("unknown rule selector %q", s)
}

// ConfigFor returns the configuration that applies to files in dir: the
// closest file at or above it, or the defaults.
func (l *Loader) ConfigFor(dir string) (*Config, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if l.forced != nil {
		return l.forced, nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.configFor(abs)
}

func (l *Loader) configFor(dir string) (*Config, error) {
	if c, ok := l.dirs[dir]; ok {
		return c, nil
	}
	if err, ok := l.errs[dir]; ok {
		return nil, err
	}
	c, err := l.findIn(dir)
	if err == nil && c == nil {
		if parent := filepath.Dir(dir); parent != dir {
			c, err = l.configFor(parent)
		} else {
			c, err = l.defaults()
		}
	}
	if err != nil {
		l.errs[dir] = err
		return nil, err
	}
	l.dirs[dir] = c
	return c, nil
}

// findIn parses the config file of dir itself, if any.
func (l *Loader) findIn(dir string) (*Config, error) {
	if l.ov.Isolated {
		return nil, nil
	}
	for _, name := range configNames {
		path := filepath.Join(dir, name)
		if st, err := os.Stat(path); err != nil || st.IsDir() {
			continue
		}
		c, err := l.parseFile(path, false)
		if err != nil || c != nil {
			return c, err
		}
	}
	return nil, nil
}

// defaults is the configuration when no file applies (For then narrows its
// versions with the closest pyproject.toml's requires-python).
func (l *Loader) defaults() (*Config, error) {
	return l.build(&fileCtx{}, "", l.workDir, newTable(0), nil)
}

// parseFile reads one config file; it returns nil, nil for a pyproject.toml
// without [tool.cudaforklint].
func (l *Loader) parseFile(path string, explicit bool) (*Config, error) {
	ctx := &fileCtx{file: l.show(path)}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, &Error{File: ctx.file, Msg: err.Error()}
	}
	doc, err := parseTOML(ctx.file, data)
	if err != nil {
		return nil, err
	}
	table := doc
	// requires-python comes from this pyproject.toml, or from one next to a
	// cudaforklint.toml.
	pdoc, pctx := doc, ctx
	if filepath.Base(path) == "pyproject.toml" {
		v := doc.lookup("tool", "cudaforklint")
		if v == nil {
			return nil, nil
		}
		if v.tbl == nil {
			return nil, ctx.errf(v.line, "tool.cudaforklint must be a table, not %s", kindName(v))
		}
		table = v.tbl
	} else {
		pdoc = nil
		pp := filepath.Join(filepath.Dir(path), "pyproject.toml")
		if pdata, err := os.ReadFile(pp); err == nil {
			pctx = &fileCtx{file: l.show(pp)}
			if pdoc, err = parseTOML(pctx.file, pdata); err != nil {
				return nil, err
			}
		}
	}
	var rp *tval
	if pdoc != nil {
		rp = pdoc.lookup("project", "requires-python")
	}
	_ = explicit
	return l.buildWithProject(ctx, pctx, path, table, rp)
}

func (l *Loader) buildWithProject(ctx, pctx *fileCtx, path string, table *ttable, rp *tval) (*Config, error) {
	var req *reqPython
	if rp != nil {
		s, err := pctx.str("requires-python", rp)
		if err != nil {
			return nil, err
		}
		set, err := pytarget.ParseRequiresPython(s)
		if err != nil {
			return nil, pctx.errf(rp.line, "%v", err)
		}
		req = &reqPython{set: set, spec: s, ctx: pctx, line: rp.line}
	}
	return l.build(ctx, path, filepath.Dir(path), table, req)
}

type reqPython struct {
	set  pytarget.Set
	spec string
	ctx  *fileCtx
	line int
}

// build turns a table of our keys into a Config.
func (l *Loader) build(ctx *fileCtx, path, dir string, t *ttable, req *reqPython) (*Config, error) {
	c := &Config{Path: path, Dir: dir, RespectGitignore: true}
	where := "[tool.cudaforklint]"
	if path != "" && filepath.Base(path) != "pyproject.toml" {
		where = filepath.Base(path)
	}
	for _, k := range t.keys {
		found := false
		for _, kk := range knownKeys {
			if k == kk {
				found = true
			}
		}
		if !found {
			msg := fmt.Sprintf("unknown key %q in %s", k, where)
			if s := suggest(k, knownKeys); s != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", s)
			}
			return nil, ctx.errf(t.vals[k].line, "%s", msg)
		}
	}
	selectors := func(key string) ([]string, error) {
		v := t.vals[key]
		if v == nil {
			return nil, nil
		}
		list, err := ctx.stringList(key, v)
		if err != nil {
			return nil, err
		}
		for i, s := range list {
			if err := l.checkSelector(s); err != nil {
				line := v.line
				if i < len(v.arr) {
					line = v.arr[i].line
				}
				return nil, ctx.errf(line, "%s: %v", key, err)
			}
		}
		return list, nil
	}
	var err error
	if c.sel.selectors, err = selectors("select"); err != nil {
		return nil, err
	}
	c.sel.set = t.vals["select"] != nil
	if c.sel.extendSelect, err = selectors("extend-select"); err != nil {
		return nil, err
	}
	if c.sel.ignorers, err = selectors("ignore"); err != nil {
		return nil, err
	}
	for _, key := range []string{"per-file-ignores", "extend-per-file-ignores"} {
		v := t.vals[key]
		if v == nil {
			continue
		}
		if v.tbl == nil {
			return nil, ctx.errf(v.line, "%s must be a table of glob = [codes], not %s", key, kindName(v))
		}
		for _, glob := range v.tbl.keys {
			ev := v.tbl.vals[glob]
			list, err := ctx.stringList(fmt.Sprintf("%s.%q", key, glob), ev)
			if err != nil {
				return nil, err
			}
			g, err := compileRuffGlob(glob)
			if err != nil {
				return nil, ctx.errf(ev.line, "%s: %v", key, err)
			}
			pf := perFileIgnore{glob: g}
			for i, s := range list {
				if err := l.checkSelector(s); err != nil {
					line := ev.line
					if i < len(ev.arr) {
						line = ev.arr[i].line
					}
					return nil, ctx.errf(line, "%s.%q: %v", key, glob, err)
				}
				pf.codes = append(pf.codes, l.expand(s)...)
			}
			c.perFile = append(c.perFile, pf)
		}
	}
	addExclude := func(key string, list []string, line int) error {
		for _, p := range list {
			pat, ok, err := compileIgnore(p)
			if err != nil {
				return ctx.errf(line, "%s: %v", key, err)
			}
			if ok {
				c.exclude = append(c.exclude, pat)
			}
		}
		return nil
	}
	if v := t.vals["exclude"]; v != nil {
		list, err := ctx.stringList("exclude", v)
		if err != nil {
			return nil, err
		}
		if err := addExclude("exclude", list, v.line); err != nil {
			return nil, err
		}
	} else {
		addExclude("exclude", DefaultExclude, 0)
	}
	if v := t.vals["extend-exclude"]; v != nil {
		list, err := ctx.stringList("extend-exclude", v)
		if err != nil {
			return nil, err
		}
		if err := addExclude("extend-exclude", list, v.line); err != nil {
			return nil, err
		}
	}
	if v := t.vals["respect-gitignore"]; v != nil {
		if c.RespectGitignore, err = ctx.boolean("respect-gitignore", v); err != nil {
			return nil, err
		}
	}
	if v := t.vals["force-exclude"]; v != nil {
		if c.ForceExclude, err = ctx.boolean("force-exclude", v); err != nil {
			return nil, err
		}
	}
	if v := t.vals["cache-dir"]; v != nil {
		dirName, err := ctx.str("cache-dir", v)
		if err != nil {
			return nil, err
		}
		if dirName == "" {
			return nil, ctx.errf(v.line, "cache-dir must not be empty")
		}
		if !filepath.IsAbs(dirName) {
			dirName = filepath.Join(dir, dirName)
		}
		c.CacheDir = filepath.Clean(dirName)
	}
	if v := t.vals["extra-initializers"]; v != nil {
		list, err := ctx.stringList("extra-initializers", v)
		if err != nil {
			return nil, err
		}
		for i, n := range list {
			if !dottedName.MatchString(n) {
				return nil, ctx.errf(v.arr[i].line, "extra-initializers: %q is not a dotted name such as \"mylab.gpu.setup\"", n)
			}
		}
		c.ExtraInitializers = list
	}
	if v := t.vals["src"]; v != nil {
		list, err := ctx.stringList("src", v)
		if err != nil {
			return nil, err
		}
		for i, d := range list {
			if d == "" {
				return nil, ctx.errf(v.arr[i].line, "src: an empty directory name")
			}
			if !filepath.IsAbs(d) {
				d = filepath.Join(dir, d)
			}
			c.Src = append(c.Src, filepath.Clean(d))
		}
	}

	// Targets: versions ∩ platforms. target-version and requires-python
	// replace the default versions; 3.10 is checked only when they say so.
	versions := pytarget.All()
	var tvLine int
	if v := t.vals["target-version"]; v != nil {
		s, err := ctx.str("target-version", v)
		if err != nil {
			return nil, err
		}
		set, err := pytarget.ParseTargetVersion(s)
		if err != nil {
			return nil, ctx.errf(v.line, "target-version: %v", err)
		}
		versions &= set
		tvLine = v.line
	}
	if req != nil {
		versions &= req.set
		if versions.Empty() {
			if tvLine > 0 {
				return nil, ctx.errf(tvLine, "target-version and requires-python %q (%s:%d) leave no supported Python version (%s) to check", req.spec, req.ctx.file, req.line, knownVersions())
			}
			return nil, req.ctx.errf(req.line, "requires-python %q allows no supported Python version (%s)", req.spec, knownVersions())
		}
	}
	if tvLine == 0 && req == nil {
		versions &= pytarget.DefaultVersions()
	}
	platforms := pytarget.Platforms(pytarget.Linux)
	if v := t.vals["platform"]; v != nil {
		var spec string
		switch {
		case v.tbl == nil && v.arr != nil:
			list, err := ctx.stringList("platform", v)
			if err != nil {
				return nil, err
			}
			spec = strings.Join(list, ",")
		default:
			if spec, err = ctx.str("platform", v); err != nil {
				return nil, ctx.errf(v.line, "platform must be a string or an array of strings, not %s", kindName(v))
			}
		}
		if platforms, err = pytarget.ParsePlatforms(spec); err != nil {
			return nil, ctx.errf(v.line, "platform: %v", err)
		}
	}
	c.Targets = versions & platforms
	return c, nil
}

// specificity orders selectors as ruff does: ALL < prefix (by length) < code.
func specificity(s string) int {
	if s == "ALL" {
		return 0
	}
	return len(s)
}

func matches(sel, code string) bool { return sel == "ALL" || strings.HasPrefix(code, sel) }

// expand lists the known codes a selector covers.
func (l *Loader) expand(sel string) []string {
	var out []string
	for _, r := range l.rules {
		if matches(sel, r.Code) {
			out = append(out, r.Code)
		}
	}
	return out
}

// apply resolves one selection layer over the state below it.
func (l *Loader) apply(below map[string]bool, s selection) map[string]bool {
	out := map[string]bool{}
	for _, r := range l.rules {
		on := below[r.Code]
		if s.set {
			on = false
		}
		best := -1
		consider := func(list []string, val bool) {
			for _, sel := range list {
				if !matches(sel, r.Code) {
					continue
				}
				sp := specificity(sel)
				if sp > best || sp == best && !val {
					best, on = sp, val
				}
			}
		}
		consider(s.selectors, true)
		consider(s.extendSelect, true)
		consider(s.ignorers, false)
		if on {
			out[r.Code] = true
		}
	}
	return out
}

// Settings are the effective settings for one file.
type Settings struct {
	// Config is the configuration that applied (its Path is "" for the
	// defaults).
	Config *Config
	// Targets are the version × platform configs to simulate.
	Targets pytarget.Set
	// ExtraInitializers are dotted names of project functions that
	// initialize CUDA.
	ExtraInitializers []string
	// Excluded: the file matches exclude/extend-exclude or .gitignore.
	Excluded bool
	// ForceExclude: excluded files are skipped even when passed explicitly.
	ForceExclude bool
	// PerFileIgnores are the per-file-ignores entries that match the
	// file, in the configuration's order.
	PerFileIgnores []PerFileIgnore

	enabled map[string]bool
	ignored map[string]bool // per-file ignores
}

// Selected reports whether the rule runs on the file (select/ignore).
func (s *Settings) Selected(code string) bool { return s.enabled[code] }

// PerFileIgnored reports whether a per-file-ignores entry covers code for
// the file; such findings are reported as suppressed.
func (s *Settings) PerFileIgnored(code string) bool { return s.ignored[code] }

// Codes lists the selected codes in order.
func (s *Settings) Codes() []string {
	var out []string
	for c := range s.enabled {
		out = append(out, c)
	}
	sort.Strings(out)
	return out
}

// For returns the effective settings of the file at path.
func (l *Loader) For(path string) (*Settings, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	return l.settings(filepath.Dir(abs), abs)
}

// ForDir returns the settings the configuration governing dir gives every
// file in it, before per-file ignores and excludes (SARIF's rule list for
// the working directory).
func (l *Loader) ForDir(dir string) (*Settings, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	return l.settings(abs, "")
}

// settings computes the settings of the file abs in dir; abs == "" leaves
// out what depends on the file itself.
func (l *Loader) settings(dir, abs string) (*Settings, error) {
	c, err := l.ConfigFor(dir)
	if err != nil {
		return nil, err
	}
	s := &Settings{Config: c, Targets: c.Targets, ForceExclude: c.ForceExclude}
	if c.Path == "" {
		// No config file: the closest pyproject.toml may still narrow the
		// versions with requires-python.
		if req, err := l.fallbackRequires(dir); err != nil {
			return nil, err
		} else if req != nil {
			// It replaces the default versions (and may widen them to 3.10).
			if n := platformsOf(s.Targets) & req.set; !n.Empty() {
				s.Targets = n
			} else {
				return nil, req.ctx.errf(req.line, "requires-python %q allows no supported Python version (%s)", req.spec, knownVersions())
			}
		}
	}
	defaultOn := map[string]bool{}
	for _, r := range l.rules {
		if r.DefaultEnabled {
			defaultOn[r.Code] = true
		}
	}
	s.enabled = l.apply(l.apply(defaultOn, c.sel), l.ovSel)
	s.ignored = map[string]bool{}
	if abs != "" {
		rel := ""
		if r, err := filepath.Rel(c.Dir, abs); err == nil && !strings.HasPrefix(r, "..") {
			rel = filepath.ToSlash(r)
		}
		for _, pf := range c.perFile {
			if pf.glob.matches(rel, filepath.Base(abs)) {
				s.PerFileIgnores = append(s.PerFileIgnores, PerFileIgnore{Pattern: pf.glob.text, Codes: pf.codes})
				for _, code := range pf.codes {
					s.ignored[code] = true
				}
			}
		}
	}
	s.ExtraInitializers = append(append([]string{}, c.ExtraInitializers...), l.ov.ExtraInitializers...)
	if l.ovTgt != 0 {
		// --target-version replaces target-version and requires-python.
		s.Targets = l.ovTgt & platformsOf(c.Targets)
	}
	if l.ovPlat != 0 {
		s.Targets = versionsOf(s.Targets) & l.ovPlat
	}
	if l.ov.ForceExclude != nil {
		s.ForceExclude = *l.ov.ForceExclude
	}
	if abs != "" {
		if s.Excluded, err = l.excludedWith(c, "", abs, false); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// knownVersions is the versions the tool can check, for messages: "3.10–3.15".
func knownVersions() string {
	return pytarget.Oldest.String() + "–" + pytarget.Newest.String()
}

// platformsOf returns every config on the platforms present in s.
func platformsOf(s pytarget.Set) pytarget.Set {
	var out pytarget.Set
	for _, p := range []pytarget.Platform{pytarget.Linux, pytarget.MacOS, pytarget.Windows} {
		if !(s & pytarget.Platforms(p)).Empty() {
			out |= pytarget.Platforms(p)
		}
	}
	return out
}

// versionsOf returns every config (any platform) of the versions in s.
func versionsOf(s pytarget.Set) pytarget.Set {
	var out pytarget.Set
	for _, c := range s.Configs() {
		out |= pytarget.Versions(c.Version, c.Version)
	}
	return out
}

type reqResult struct {
	req *reqPython
	err error
}

// fallbackRequires finds the closest pyproject.toml at or above dir and
// returns its requires-python, if any; results are cached per directory.
func (l *Loader) fallbackRequires(dir string) (*reqPython, error) {
	if l.ov.Isolated {
		return nil, nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.requiresIn(dir)
}

func (l *Loader) requiresIn(dir string) (*reqPython, error) {
	if r, ok := l.requires[dir]; ok {
		return r.req, r.err
	}
	var r reqResult
	pp := filepath.Join(dir, "pyproject.toml")
	if data, err := os.ReadFile(pp); err == nil {
		ctx := &fileCtx{file: l.show(pp)}
		r.err = func() error {
			doc, err := parseTOML(ctx.file, data)
			if err != nil {
				return err
			}
			rp := doc.lookup("project", "requires-python")
			if rp == nil {
				return nil
			}
			s, err := ctx.str("requires-python", rp)
			if err != nil {
				return err
			}
			set, err := pytarget.ParseRequiresPython(s)
			if err != nil {
				return ctx.errf(rp.line, "%v", err)
			}
			r.req = &reqPython{set: set, spec: s, ctx: ctx, line: rp.line}
			return nil
		}()
	} else if parent := filepath.Dir(dir); parent != dir {
		r.req, r.err = l.requiresIn(parent)
	}
	l.requires[dir] = r
	return r.req, r.err
}

// Excluded reports whether path is excluded: it, or a directory above it
// (up to the config's directory), matches exclude/extend-exclude (or the
// command line's), or .gitignore ignores it when respect-gitignore is on.
// isDir says whether path is a directory. It is ExcludedBelow with no walk
// root: every directory above path counts.
func (l *Loader) Excluded(path string, isDir bool) (bool, error) {
	return l.ExcludedBelow("", path, isDir)
}

// ExcludedBelow is Excluded for a path met while walking root, a directory
// named on the command line: only path and the directories between root and
// path count, so a directory the user names is walked even when an exclude
// pattern or .gitignore hides it (ruff's rule for explicit paths), and the
// answer does not depend on where the walk started from or on the working
// directory. The file walker calls it for every directory and file it meets
// and prunes excluded directories. root "" means no walk root.
func (l *Loader) ExcludedBelow(root, path string, isDir bool) (bool, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return false, err
	}
	if root != "" {
		if root, err = filepath.Abs(root); err != nil {
			return false, err
		}
	}
	c, err := l.ConfigFor(filepath.Dir(abs))
	if err != nil {
		return false, err
	}
	return l.excludedWith(c, root, abs, isDir)
}

func (l *Loader) excludedWith(c *Config, root, abs string, isDir bool) (bool, error) {
	anchor := c.Dir
	if c.Path == "" {
		// The default list has no file to anchor it: the repository the
		// path is in does (or the path's directory outside one), not the
		// working directory, so that the answer is the same from anywhere.
		if anchor = l.git.Root(abs); anchor == "" {
			anchor = filepath.Dir(abs)
		}
	}
	if matchUp(c.exclude, anchor, root, abs, isDir) || matchUp(l.ovExcl, l.workDir, root, abs, isDir) {
		return true, nil
	}
	respect := c.RespectGitignore
	if l.ov.RespectGitignore != nil {
		respect = *l.ov.RespectGitignore
	}
	if respect && l.git.IgnoredBelow(root, abs, isDir) {
		return true, nil
	}
	return false, nil
}

// matchUp reports whether abs or one of its ancestors matches an (unnegated,
// last-match-wins) exclude pattern. The ancestors tried are those strictly
// below root, or, when root is "", those strictly below anchor. A path under
// anchor is matched by its path relative to anchor (so anchored patterns
// work); one outside it by its base name only, which is how unanchored
// patterns such as "build" match wherever they are.
func matchUp(ps []ignorePattern, anchor, root, abs string, isDir bool) bool {
	if len(ps) == 0 {
		return false
	}
	stop := root
	if stop == "" {
		stop = anchor
		if !below(anchor, abs) {
			// Outside the anchor with no walk root: the base name only.
			stop = filepath.Dir(abs)
		}
	}
	for p := abs; below(stop, p); p = filepath.Dir(p) {
		sub := filepath.Base(p)
		if below(anchor, p) {
			rel, _ := filepath.Rel(anchor, p)
			sub = filepath.ToSlash(rel)
		}
		dir := p != abs || isDir
		ex := false
		for j := range ps {
			if ps[j].match(sub, dir) {
				ex = !ps[j].negate
			}
		}
		if ex {
			return true
		}
	}
	return false
}

// below reports whether p is strictly below dir.
func below(dir, p string) bool {
	return finding.Within(dir, p) && filepath.Clean(p) != filepath.Clean(dir)
}

// ShouldCheck reports whether a file is checked: an explicitly passed file
// always is, unless force-exclude is on (the pre-commit hook sets it, since
// pre-commit passes every staged file); any other file unless excluded.
func (l *Loader) ShouldCheck(path string, explicit bool) (bool, error) {
	s, err := l.For(path)
	if err != nil {
		return false, err
	}
	if explicit && !s.ForceExclude {
		return true, nil
	}
	return !s.Excluded, nil
}

// Gitignore returns the loader's .gitignore matcher (for a walker that
// wants to ask it directly).
func (l *Loader) Gitignore() *Gitignore { return l.git }

// IsConfigError reports whether err is a configuration error (exit 2).
func IsConfigError(err error) bool {
	var e *Error
	return errors.As(err, &e)
}
