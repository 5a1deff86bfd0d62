package cli

import (
	"bytes"
	"fmt"
	"io"
	"sort"

	"github.com/cudaforklint/cudaforklint/analyzer"
	"github.com/cudaforklint/cudaforklint/finding"
	"github.com/cudaforklint/cudaforklint/fix"
	"github.com/cudaforklint/cudaforklint/noqa"
	"github.com/cudaforklint/cudaforklint/output"
)

// --add-noqa, ruff's way of adopting a linter in a repository with
// findings already in it: every line with an unsuppressed finding gets a
// `# noqa: CODE` naming its rules, so that today's findings are recorded
// where they are and CI fails only on new ones.
//
// Where each directive goes is noqa.Place's answer (the end of the
// finding's logical line, merged into a `# noqa: X` already there), the one
// the language server's quick fix uses too. The edits are applied as the
// fixes of --fix are (package fix): on the bytes the analysis read, a
// notebook's through the cells of its JSON, the result re-parsed, and
// written atomically only if the file still holds what was analyzed; every
// other byte (line endings, a byte order mark, a notebook's outputs) stays
// as it was.

// addNoqa adds the directives for res's findings and returns how many it
// added and the files it could not change.
func (r *checkRun) addNoqa(res *analyzer.Result) (added int, errs []finding.ToolError) {
	// One synthetic finding per file, whose one fix carries all of that
	// file's directives: fix.Apply then writes each file once.
	byPath := map[string][]finding.Finding{}
	var paths []string
	for _, f := range res.Findings {
		if f.Suppressed {
			continue
		}
		if _, ok := byPath[f.Path]; !ok {
			paths = append(paths, f.Path)
		}
		byPath[f.Path] = append(byPath[f.Path], f)
	}
	sort.Strings(paths)
	var carriers []finding.Finding
	directives := map[string]int{}
	for _, p := range paths {
		src, err := res.ReadFile(r.abs(p))
		if err != nil {
			errs = append(errs, finding.ToolError{Path: p, Message: "no noqa added: " + err.Error()})
			continue
		}
		edits := noqaEdits(p, src, byPath[p])
		if len(edits) == 0 {
			continue
		}
		directives[p] = len(edits)
		carriers = append(carriers, finding.Finding{
			Location: finding.Location{Path: p},
			Fixes:    []finding.Fix{{Message: "add noqa", Applicability: finding.Safe, Edits: edits}},
		})
	}
	fr := fix.Apply(carriers, fix.Options{Diff: true, ReadFile: res.ReadFile, WorkDir: r.workDir})
	out := &fixOutcome{}
	for _, f := range fr.Files {
		if f.Err != nil {
			errs = append(errs, finding.ToolError{Path: f.Path, Message: "no noqa added: " + f.Err.Error()})
			continue
		}
		if !bytes.Equal(f.Before, f.After) {
			out.files = append(out.files, fixedFile{path: f.Path, before: f.Before, after: f.After, fixes: directives[f.Path]})
		}
	}
	changed, added, werrs := r.write(out)
	errs = append(errs, werrs...)
	for _, p := range changed {
		errs = append(errs, finding.ToolError{Path: p, Message: "no noqa added: the file changed while --add-noqa ran; run it again"})
	}
	return added, errs
}

// noqaEdits returns the edits that add the directives for findings (all
// in the file path, whose analyzed bytes are src: a notebook's module),
// one per logical line, naming each code once.
func noqaEdits(path string, src []byte, findings []finding.Finding) []finding.Edit {
	// The codes of each physical line, then of each logical line's last
	// line, where the directive goes: findings on two lines of one
	// logical line share one directive.
	byLine := map[int][]string{}
	for _, f := range findings {
		line := 1 + bytes.Count(src[:min(max(f.Start.Offset, 0), len(src))], []byte{'\n'})
		byLine[line] = append(byLine[line], f.Code)
	}
	byLast := map[int][]string{}
	for line, codes := range byLine {
		if p, ok := noqa.Place(src, line, codes...); ok {
			byLast[p.Line] = append(byLast[p.Line], codes...)
		}
	}
	lines := make([]int, 0, len(byLast))
	for l := range byLast {
		lines = append(lines, l)
	}
	sort.Ints(lines)
	var edits []finding.Edit
	for _, l := range lines {
		codes := byLast[l]
		sort.Strings(codes)
		p, ok := noqa.Place(src, l, codes...)
		if !ok {
			continue
		}
		edits = append(edits, finding.Edit{
			Location: finding.Location{Path: path, Start: finding.Position{Offset: p.Edit.Start}, End: finding.Position{Offset: p.Edit.End}},
			NewText:  p.Edit.NewText,
		})
	}
	return edits
}

// addNoqaSummary says what --add-noqa did, as ruff does.
func addNoqaSummary(w io.Writer, added int) {
	fmt.Fprintf(w, "Added %d noqa %s.\n", added, output.Plural(added, "directive", "directives"))
}
