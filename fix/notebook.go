package fix

import (
	"fmt"
	"os"
	"strings"

	"github.com/cudaforklint/cudaforklint/notebook"
)

// Notebooks. The findings' edits are made on the Python module a notebook's
// kernel runs (what the checked file's ReadFile gave the analysis), and
// applyFile checks the fixed module parses as it checks a Python file's.
// The file written is the notebook's JSON: package notebook rewrites the
// `source` of each changed cell and keeps every other byte, so outputs,
// metadata, key order and indentation are as they were. The diff shows the
// changed cells, one by one, as ruff shows them ("a/nb.ipynb:cell 3").
// The driver has already turned fixes that would cross cells or touch
// IPython's lines into display-only ones; an edit that does all the same
// leaves the file untouched with an error.

// writeNotebook finishes applyFile for a notebook at full (the path as the
// findings give it is fr.Path): analyzed is the module the edits were
// computed on.
func writeNotebook(fr FileResult, full string, analyzed []byte, edits []span, opt Options) FileResult {
	read := opt.ReadRaw
	if read == nil {
		read = os.ReadFile
	}
	raw, err := read(full)
	if err != nil {
		fr.Err = fmt.Errorf("%s: cannot fix: %w", fr.Path, err)
		return fr
	}
	nb, err := notebook.Parse(raw)
	if err != nil {
		fr.Err = fmt.Errorf("%s: not fixed: %w", fr.Path, err)
		return fr
	}
	if !nb.Matches(analyzed) {
		fr.Err = fmt.Errorf("%s: not fixed: the file changed since it was checked", fr.Path)
		return fr
	}
	nbEdits := make([]notebook.Edit, len(edits))
	for i, e := range edits {
		nbEdits[i] = notebook.Edit{Start: e.start, End: e.end, Text: e.text}
	}
	out, changes, err := nb.Apply(nbEdits)
	if err != nil {
		fr.Err = fmt.Errorf("%s: not fixed: %w", fr.Path, err)
		return fr
	}
	if err := checkRewrite(out, changes); err != nil {
		fr.Err = fmt.Errorf("%s: not fixed: %w; please report this as a bug", fr.Path, err)
		return fr
	}
	var diff strings.Builder
	for _, ch := range changes {
		diff.WriteString(UnifiedDiff(fmt.Sprintf("%s:cell %d", fr.Path, ch.Cell.Number), []byte(ch.Old), []byte(ch.New)))
	}
	fr.Diff = diff.String()
	if len(changes) == 0 {
		return fr
	}
	fr.Before, fr.After = raw, out
	if opt.Diff {
		return fr
	}
	fr.write(full)
	return fr
}

// FileDiff renders the change of the file at path (as the findings name it)
// from before to after: a unified diff, or for a notebook one per changed
// cell ("a/nb.ipynb:cell 3"), as ruff shows them.
func FileDiff(path string, before, after []byte) string {
	if !notebook.IsPath(path) {
		return UnifiedDiff(path, before, after)
	}
	a, errA := notebook.Parse(before)
	b, errB := notebook.Parse(after)
	if errA != nil || errB != nil || len(a.Cells) != len(b.Cells) {
		return UnifiedDiff(path, before, after)
	}
	var diff strings.Builder
	for i := range a.Cells {
		if a.Cells[i].Text != b.Cells[i].Text {
			diff.WriteString(UnifiedDiff(fmt.Sprintf("%s:cell %d", path, a.Cells[i].Number), []byte(a.Cells[i].Text), []byte(b.Cells[i].Text)))
		}
	}
	return diff.String()
}

// checkRewrite re-reads the rewritten notebook: it must parse, with the
// changed cells holding their new text.
func checkRewrite(out []byte, changes []notebook.Change) error {
	again, err := notebook.Parse(out)
	if err != nil {
		return fmt.Errorf("the rewritten notebook does not parse: %v", err)
	}
	for _, ch := range changes {
		if n := ch.Cell.Number; n > len(again.Cells) || again.Cells[n-1].Text != ch.New {
			return fmt.Errorf("cell %d was not rewritten as intended", n)
		}
	}
	return nil
}
