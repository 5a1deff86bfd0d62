package model

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/cudaforklint/cudaforklint/pytarget"
)

// hazardKeys are the hazards of hz as the rules report them, without the
// entry that represents each (entries that find the same hazard are
// merged into one), by entry.
func hazardKeys(hz []*Hazard) (all map[string]bool, byEntry map[string]map[string]bool) {
	all, byEntry = map[string]bool{}, map[string]map[string]bool{}
	for _, z := range hz {
		k := fmt.Sprintf("kind %d at %s:%d configs %v child %v", z.Kind, z.At.Mod.Path, z.At.Span.Start, z.Configs, z.Child.Verdict)
		all[k] = true
		if byEntry[z.Entry.Path] == nil {
			byEntry[z.Entry.Path] = map[string]bool{}
		}
		byEntry[z.Entry.Path][k] = true
	}
	return all, byEntry
}

// analyzeEntries analyzes the given entries of files, every file loaded.
func analyzeEntries(files memSource, paths, entries []string) []*Hazard {
	prog := NewProgram(files, Options{})
	for _, p := range paths {
		prog.Module(p)
	}
	var mods []*Module
	for _, p := range entries {
		if m, err := prog.Module(p); err == nil {
			mods = append(mods, m)
		}
	}
	return prog.Analyze(mods, pytarget.All())
}

// TestEntryAloneOrTogether: an entry analyzed alone finds what it finds
// analyzed with every other entry of its program, on every fixture
// directory: what the analysis stores while running one entry must not
// change what another finds. A hazard two entries find is represented by
// one of them, so a hazard an entry finds alone need only be found by some
// entry when together, and one it is named for together must be one it
// finds alone.
func TestEntryAloneOrTogether(t *testing.T) {
	dirs := fixtureDirs(t)
	compared := 0
	for d, files := range dirs {
		var paths []string
		for p := range files {
			paths = append(paths, p)
		}
		sort.Strings(paths)
		if len(paths) < 2 {
			continue
		}
		together, byEntry := hazardKeys(analyzeEntries(files, paths, paths))
		for _, p := range paths {
			_, alone := hazardKeys(analyzeEntries(files, paths, []string{p}))
			for k := range alone[p] {
				compared++
				if !together[k] {
					t.Errorf("%s: %s alone finds %s, not found with the others", d, p, k)
				}
			}
			for k := range byEntry[p] {
				if !alone[p][k] {
					t.Errorf("%s: %s with the others finds %s, not found alone", d, p, k)
				}
			}
		}
	}
	if compared < 50 {
		t.Errorf("only %d hazards compared", compared)
	}
	_ = strings.Join
}
