package cache

import (
	"bytes"
	"encoding/json"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/cudaforklint/cudaforklint/analyzer"
)

// Programs of a stored run. A run is split into independent programs
// (pyprogram.Programs), and a program's findings depend only on its own
// files (analyzer.ProgramCache). So an entry also keeps each program's
// share of the result, with the files it read, and a run whose entry is not
// replayed only because file contents changed (same key, same files
// checked, same configuration, same import universe: an edit) reuses the
// share of every program none of whose files changed, and analyzes the
// others. In a repository of many programs (examples, scripts, notebooks,
// tests beside a package), an edit costs the analysis of the program that
// holds the edited file, not of the repository.

// storedProgram is one program's share of a stored run.
type storedProgram struct {
	// Files are its checked files, as Programs lists them: its identity.
	Files []string `json:"files"`
	// Read are the files its findings depend on (analyzer.Part.Read);
	// each has a sum in the entry's inputs.
	Read []string `json:"read"`
	// Part is its encoded programPart.
	Part json.RawMessage `json:"part"`
}

// programPart is an analyzer.Part's findings and problems.
type programPart struct {
	found
	Skipped int `json:"skipped"`
}

// programCache is a run's analyzer.ProgramCache: it reuses the programs
// of the run's last entry whose files did not change, and keeps the share
// of each program the run analyzes, for the entry stored next.
type programCache struct {
	// old are the last entry's programs, by programID; nil when its
	// universe or configuration changed (nothing is reused).
	old map[string]*storedProgram
	// changed are the paths of the last entry's files whose bytes changed.
	// Every file a stored program read has a sum there (programs).
	changed map[string]bool

	mu sync.Mutex
	// kept are the programs of this run, reused or analyzed, that the
	// next entry can hold.
	kept     []storedProgram
	reused   int
	analyzed int
}

// programID is the key of a program: its checked files.
func programID(files []string) string { return strings.Join(files, "\x00") }

func (c *programCache) Reuse(files []string) (*analyzer.Part, bool) {
	sp, ok := c.old[programID(files)]
	if !ok {
		return nil, false
	}
	for _, p := range sp.Read {
		if c.changed[p] {
			return nil, false
		}
	}
	var pp programPart
	if err := json.Unmarshal(sp.Part, &pp); err != nil {
		return nil, false
	}
	part := &analyzer.Part{Files: files, Read: sp.Read, Findings: pp.Findings, Errors: pp.Errors, Notices: pp.Notices,
		SyntaxErrors: pp.SyntaxErrors, Skipped: pp.Skipped}
	c.mu.Lock()
	c.kept = append(c.kept, *sp)
	c.reused++
	c.mu.Unlock()
	return part, true
}

func (c *programCache) Analyzed(p *analyzer.Part) {
	b, err := json.Marshal(&programPart{found: found{Findings: p.Findings, Errors: p.Errors, Notices: p.Notices,
		SyntaxErrors: p.SyntaxErrors}, Skipped: p.Skipped})
	c.mu.Lock()
	defer c.mu.Unlock()
	c.analyzed++
	// JSON would replace invalid UTF-8 (encode): such a part is not kept,
	// and its program is analyzed again next time.
	if err != nil || bytes.Contains(b, []byte(`\ufffd`)) {
		return
	}
	c.kept = append(c.kept, storedProgram{Files: slices.Clone(p.Files), Read: slices.Clone(p.Read), Part: b})
}

// programs returns the programs an entry recording in can hold, sorted by
// their files: those whose every file read has a sum in it.
func (c *programCache) programs(in *inputs) []storedProgram {
	summed := make(map[string]bool, len(in.Files))
	for _, f := range in.Files {
		summed[f.Path] = true
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []storedProgram
next:
	for _, sp := range c.kept {
		for _, p := range sp.Read {
			if !summed[p] {
				continue next
			}
		}
		out = append(out, sp)
	}
	sort.Slice(out, func(i, j int) bool { return programID(out[i].Files) < programID(out[j].Files) })
	return out
}

// newProgramCache returns the program cache of a run whose last entry is
// ent (nil: none), given the files whose bytes changed since (nil when the
// universe, configuration or files checked changed: nothing is reused).
func newProgramCache(ent *entry, changed map[string]bool) *programCache {
	c := &programCache{}
	if ent == nil || changed == nil {
		return c
	}
	c.old = make(map[string]*storedProgram, len(ent.Programs))
	for i := range ent.Programs {
		sp := &ent.Programs[i]
		c.old[programID(sp.Files)] = sp
	}
	c.changed = changed
	return c
}
