package rules_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/cudaforklint/cudaforklint/analyzer"
	"github.com/cudaforklint/cudaforklint/analyzer/checktest"
	"github.com/cudaforklint/cudaforklint/finding"
	"github.com/cudaforklint/cudaforklint/fix"
	"github.com/cudaforklint/cudaforklint/passes/pyprogram"
	"github.com/cudaforklint/cudaforklint/rules"
)

// TestEveryFixFixes applies each fix a finding of a fixture offers (safe
// and unsafe; display-only advice is not applied), alone, through
// fix.Apply as `--fix --unsafe-fixes` does, checks the fixture directory
// again with the fixed files, and requires that the finding is gone and
// that the fixed files still parse. A finding is gone when its file has
// fewer findings of its code than before: a fix that only moves the
// finding to the next initializer, or to another start, has not fixed it.
// Findings of other codes may appear (switching to "spawn" can make a
// top-level initialization re-run in the children, CFL004): that is the
// next fix's work, which --fix's rounds apply.
func TestEveryFixFixes(t *testing.T) {
	entries, err := os.ReadDir("../testdata/py")
	if err != nil {
		t.Fatal(err)
	}
	fixes := 0
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		t.Run(e.Name(), func(t *testing.T) {
			fixes += checkEveryFix(t, filepath.Join("../testdata/py", e.Name()))
		})
	}
	if fixes == 0 {
		t.Fatal("no fixture finding has a fix to apply")
	}
}

// checkEveryFix checks the fixes of the findings in dir and returns how
// many it applied.
func checkEveryFix(t *testing.T, dir string) int {
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	parts := &partMemo{parts: map[string]*analyzer.Part{}}
	check := func(overlay map[string][]byte) *analyzer.Result {
		t.Helper()
		pol := checktest.Policy(t)
		pol.Roots = []string{abs}
		parts.changed = overlay
		res, err := analyzer.Run(context.Background(), analyzer.Options{Split: pyprogram.Split, Paths: []string{abs}, Analyzers: rules.All(), WorkDir: abs,
			Policy: pol, Overlay: overlay, Programs: parts})
		if err != nil {
			t.Fatalf("run: %v", err)
		}
		return res
	}
	before := check(nil)
	applied := 0
	for _, f := range before.Findings {
		if f.Suppressed {
			continue
		}
		for _, fx := range f.Fixes {
			if fx.Applicability == finding.DisplayOnly {
				continue
			}
			applied++
			name := f.Path + ":" + f.Code + ": " + fx.Message
			one := f
			one.Fixes = []finding.Fix{fx}
			fr := fix.Apply([]finding.Finding{one}, fix.Options{Unsafe: true, Diff: true, ReadFile: before.ReadFile, WorkDir: abs})
			if err := fr.Err(); err != nil {
				t.Errorf("%s (line %d): not applied: %v", name, f.Start.Line, err)
				continue
			}
			if len(fr.Fixed) != 1 {
				t.Errorf("%s (line %d): not applied: %v", name, f.Start.Line, fr.Skipped)
				continue
			}
			overlay := map[string][]byte{}
			for _, file := range fr.Files {
				overlay[filepath.Join(abs, file.Path)] = file.After
			}
			after := check(overlay)
			if n, was := syntaxErrors(after, f.Path), syntaxErrors(before, f.Path); n > was {
				t.Errorf("%s (line %d): the fixed file has %d syntax errors, %d before:\n%s", name, f.Start.Line, n, was, fr.Diff())
			}
			if n, was := count(after, f), count(before, f); n >= was {
				t.Errorf("%s (line %d): the finding is still there (%d %s findings in the file, %d before):\n%s\nnow:\n%s",
					name, f.Start.Line, n, f.Code, was, fr.Diff(), messages(after, f))
			}
		}
	}
	return applied
}

// count is the number of unsuppressed findings of f's code in f's file.
func count(res *analyzer.Result, f finding.Finding) int {
	n := 0
	for _, g := range res.Findings {
		if !g.Suppressed && g.Code == f.Code && g.Path == f.Path {
			n++
		}
	}
	return n
}

// messages lists the findings count counts, for a failure's message.
func messages(res *analyzer.Result, f finding.Finding) string {
	var out []string
	for _, g := range res.Findings {
		if !g.Suppressed && g.Code == f.Code && g.Path == f.Path {
			out = append(out, "  "+g.Message)
		}
	}
	return strings.Join(out, "\n")
}

func syntaxErrors(res *analyzer.Result, path string) int {
	n := 0
	for _, e := range res.SyntaxErrors {
		if e.Path == path {
			n++
		}
	}
	return n
}

// partMemo is an analyzer.ProgramCache in memory: a fix changes one
// program of a fixture directory, and the others' findings are reused
// instead of analyzed again for each fix (as check's results cache does).
type partMemo struct {
	mu      sync.Mutex
	parts   map[string]*analyzer.Part // by the program's files
	changed map[string][]byte         // the run's overlay
}

func (m *partMemo) Reuse(files []string) (*analyzer.Part, bool) {
	p, ok := m.parts[strings.Join(files, "\x00")]
	if !ok || m.changed == nil {
		return nil, false
	}
	for _, f := range append(slices.Clone(p.Read), p.Files...) {
		if _, ok := m.changed[filepath.Clean(f)]; ok {
			return nil, false
		}
	}
	return copyPart(p)
}

// Analyzed keeps the parts of the run without an overlay: the files as
// they are on disk.
func (m *partMemo) Analyzed(p *analyzer.Part) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if c, ok := copyPart(p); ok && m.changed == nil {
		m.parts[strings.Join(p.Files, "\x00")] = c
	}
}

// copyPart copies p deeply (the run rewrites the findings of the parts it
// is given), the way check's results cache does: through JSON. A part
// that does not copy is not reused: its program is analyzed again.
func copyPart(p *analyzer.Part) (*analyzer.Part, bool) {
	b, err := json.Marshal(p)
	if err != nil {
		return nil, false
	}
	var c analyzer.Part
	if err := json.Unmarshal(b, &c); err != nil {
		return nil, false
	}
	return &c, true
}
