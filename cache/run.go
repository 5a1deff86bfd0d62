package cache

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cudaforklint/cudaforklint/analyzer"
	"github.com/cudaforklint/cudaforklint/config"
	"github.com/cudaforklint/cudaforklint/finding"
)

// Run is one check run's use of a Store.
type Run struct {
	Store *Store
	Key   Key
	// Paths are the paths named (empty: "."), WorkDir the working
	// directory, as given to analyzer.Run.
	Paths   []string
	WorkDir string
	// Policy is a policy of the run's configuration for discovery (a fresh
	// one: the analysis makes its own), whose ImportRoots are the
	// analysis's.
	Policy *config.Policy
	// ConfigFiles are configuration files named explicitly (--config).
	ConfigFiles []string
	// MaxFileSize is the run's size limit (0: analyzer.DefaultMaxFileSize).
	MaxFileSize int64
	// Log, when set, is told why a run was not replayed or not stored
	// (tests and debugging; the CLI leaves it nil).
	Log func(why string)
}

func (r *Run) log(format string, args ...any) {
	if r.Log != nil {
		r.Log(fmt.Sprintf(format, args...))
	}
}

// Outcome says what the cache did for a run.
type Outcome int

const (
	Miss   Outcome = iota // analyzed; nothing stored (see errUncacheable)
	Stored                // analyzed and stored
	Hit                   // replayed
)

func (o Outcome) String() string {
	switch o {
	case Stored:
		return "stored"
	case Hit:
		return "hit"
	}
	return "miss"
}

// Result returns the result of the run: replayed from the store when an
// entry for the Key exists and every input it records is unchanged, or
// from analyze, then stored when it can be replayed faithfully. analyze
// is given the programs the entry holds (programs.go): when only file
// contents changed, it analyzes only the programs whose files did. It is
// also given the bytes of the files the comparison read, when it kept
// them (analyzer.Options.Read; nil for none). The cache never fails a run:
// a store that cannot be read or written is a miss.
func (r *Run) Result(analyze func(programs analyzer.ProgramCache, read map[string][]byte) (*analyzer.Result, error)) (*analyzer.Result, Outcome, error) {
	start := time.Now()
	e := r.env()
	checked, discoverErrs := analyzer.Discover(r.Paths, r.WorkDir, r.Policy)
	usable := len(discoverErrs) == 0 && len(r.Policy.Errors()) == 0 && r.Policy.Unconfigured() == 0
	pc := newProgramCache(nil, nil)
	var read map[string][]byte
	if !usable {
		r.log("discovery or configuration errors")
	} else if res, last, sources, ok := r.replay(e, checked); ok {
		r.Store.touch(r.Key)
		return res, Hit, nil
	} else if last != nil {
		pc, read = last, sources
	}
	res, err := analyze(pc, read)
	r.log("programs: %d reused, %d analyzed", pc.reused, pc.analyzed)
	if err != nil || !usable || res.Unconfigured > 0 {
		return res, Miss, err
	}
	in, err := e.record(start, checked, res)
	if err != nil {
		r.log("not stored: %v", err)
		return res, Miss, nil
	}
	payload, ok := encode(r.Key, in, res, pc.programs(in))
	if !ok {
		r.log("not stored: the result does not encode exactly")
		return res, Miss, nil
	}
	if err := r.Store.save(r.Key, payload); err != nil {
		r.log("not stored: %v", err)
		return res, Miss, nil
	}
	r.Store.Prune(MaxAge)
	return res, Stored, nil
}

func (r *Run) env() *env {
	paths := r.Paths
	if len(paths) == 0 {
		paths = []string{"."}
	}
	max := r.MaxFileSize
	if max == 0 {
		max = analyzer.DefaultMaxFileSize
	}
	return &env{workDir: r.WorkDir, paths: paths, roots: r.Policy.ImportRoots, configFiles: r.ConfigFiles, maxFileSize: max,
		skip: []string{filepath.Join(r.Store.dir, format), filepath.Join(r.Store.dir, treesDir)}}
}

// replay returns the stored result when its inputs are unchanged. When
// only the contents of files changed, it returns instead the programs of
// the entry that can be reused (last), and the bytes of the files it read
// when it kept them (sources).
func (r *Run) replay(e *env, checked []string) (res *analyzer.Result, last *programCache, sources map[string][]byte, ok bool) {
	payload, ok := r.Store.load(r.Key)
	if !ok {
		r.log("no entry, or a damaged one")
		return nil, nil, nil, false
	}
	var ent entry
	if err := json.Unmarshal(payload, &ent); err != nil || ent.Key != hex.EncodeToString(r.Key[:]) {
		r.log("entry does not decode")
		return nil, nil, nil, false
	}
	sources, changed, why := e.compare(&ent.Inputs, checked, ent.Result.referenced(e), r.Store.storedAt(r.Key))
	if why != "" {
		r.log("inputs changed: %s", why)
		return nil, nil, nil, false
	}
	if len(changed) > 0 {
		r.log("inputs changed: %d files", len(changed))
		return nil, newProgramCache(&ent, changed), sources, false
	}
	res = ent.Result.result()
	// Snippets come from the bytes just hashed, not from a later read.
	res.ReadFile = analyzer.SourceReader(e.maxFileSize, sources)
	return res, nil, nil, true
}

// entry is what an entry file holds.
type entry struct {
	Key    string `json:"key"`
	Inputs inputs `json:"inputs"`
	Result result `json:"result"`
	// Programs are the shares of the result that a run after an edit can
	// reuse (programs.go).
	Programs []storedProgram `json:"programs"`
}

// result is an analyzer.Result without its ReadFile.
type result struct {
	found
	Files        int      `json:"files"`
	Skipped      int      `json:"skipped"`
	Unconfigured int      `json:"unconfigured"`
	FilesRead    []string `json:"files_read"`
}

// found is what a result and a program's share of it (programPart) hold
// of what the analysis found. Its slices have no omitempty: null and []
// come back as they went.
type found struct {
	Findings     []finding.Finding     `json:"findings"`
	Errors       []finding.ToolError   `json:"errors"`
	Notices      []finding.Notice      `json:"notices"`
	SyntaxErrors []finding.SyntaxError `json:"syntax_errors"`
}

func (r *result) result() *analyzer.Result {
	return &analyzer.Result{
		Findings: r.Findings, Errors: r.Errors, Notices: r.Notices, SyntaxErrors: r.SyntaxErrors,
		Files: r.Files, Skipped: r.Skipped, Unconfigured: r.Unconfigured, FilesRead: r.FilesRead,
	}
}

// referenced returns the absolute paths the result's locations name: the
// files whose snippets the output may show.
func (r *result) referenced(e *env) map[string]bool {
	out := map[string]bool{}
	add := func(p string) {
		if p != "" {
			out[e.abs(p)] = true
		}
	}
	for _, f := range r.Findings {
		add(f.Path)
		for _, rel := range f.Related {
			add(rel.Path)
		}
		for _, fx := range f.Fixes {
			for _, ed := range fx.Edits {
				add(ed.Path)
			}
		}
	}
	for _, list := range [][]finding.ToolError{r.Errors, r.Notices, r.SyntaxErrors} {
		for _, t := range list {
			add(t.Path)
		}
	}
	return out
}

// encode returns the entry's payload, or ok=false when the result would not
// come back exactly: JSON replaces invalid UTF-8 with U+FFFD.
func encode(k Key, in *inputs, res *analyzer.Result, programs []storedProgram) ([]byte, bool) {
	ent := entry{Key: hex.EncodeToString(k[:]), Inputs: *in, Result: result{
		found: found{Findings: res.Findings, Errors: res.Errors, Notices: res.Notices, SyntaxErrors: res.SyntaxErrors},
		Files: res.Files, Skipped: res.Skipped, Unconfigured: res.Unconfigured, FilesRead: res.FilesRead,
	}, Programs: programs}
	b, err := json.Marshal(&ent)
	if err != nil || bytes.Contains(b, []byte(`\ufffd`)) {
		return nil, false
	}
	return b, true
}

// The environment's cache settings: check's --cache-dir and --no-cache
// take them as their defaults, and the language server reads them.
const (
	DirEnv     = "CUDAFORKLINT_CACHE_DIR"
	NoCacheEnv = "CUDAFORKLINT_NO_CACHE"
)

// OffInEnv reports whether CUDAFORKLINT_NO_CACHE is set to a true value
// (1, true, yes).
func OffInEnv() bool {
	switch strings.ToLower(os.Getenv(NoCacheEnv)) {
	case "1", "true", "yes":
		return true
	}
	return false
}

// DirFor returns the cache directory of a run from workDir: dir when given
// (--cache-dir, CUDAFORKLINT_CACHE_DIR), else ConfigDir's for c, the
// configuration that governs workDir; a relative one is below workDir.
func DirFor(dir string, c *config.Config, workDir string) string {
	if dir == "" {
		dir = ConfigDir(c, workDir)
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(workDir, dir)
	}
	return dir
}

// ConfigDir returns the cache directory the configuration c that governs
// workDir gives: its cache-dir, else DirName next to it (ruff's project
// root), else DirName in workDir.
func ConfigDir(c *config.Config, workDir string) string {
	if c != nil && c.CacheDir != "" {
		return c.CacheDir
	}
	if c != nil && c.Path != "" {
		return filepath.Join(c.Dir, DirName)
	}
	return filepath.Join(workDir, DirName)
}
