// Package fix applies the fixes attached to findings: it picks each
// finding's fix by applicability, groups the edits by file, rejects edits
// that overlap an already accepted fix (the next --fix run picks those up),
// checks that the result still parses, and then either writes each file
// atomically or renders a unified diff (--diff).
//
// Rules, following ruff:
//   - A finding's fix is its first one; it is applied when Safe, or Unsafe
//     with --unsafe-fixes. DisplayOnly fixes are never applied. Suppressed
//     findings are not fixed.
//   - Fixes are taken in the order of the findings (sorted by position).
//     A fix whose edits overlap an edit already accepted for the same file
//     is skipped whole and reported; identical edits from two fixes (the
//     same insertion, say) are applied once and count for both.
//   - The safety net (check.go): a file whose fixed text has more syntax
//     errors than the original (len(syntax.File.Errors) after
//     syntax.Parse), or that CPython would reject where tree-sitter does
//     not (a byte order mark or a #!/coding line moved from the start,
//     indentation mixing tabs and spaces inconsistently, an edit inside a
//     string literal), is left untouched and reported as an error.
//   - A file whose lines end with CR alone is never fixed: the parser
//     does not read a lone CR as a line break, so an edit computed from it
//     (the removal of a `# noqa` comment) could swallow the lines after it.
//   - Lost edits: the fixes are computed from the content the findings
//     were computed from (Options.Analyzed); a file that changed since is
//     not touched (ErrChanged). The write itself (WriteIfUnchanged) holds an
//     advisory lock on the file and compares its content again first, so
//     concurrent runs never write from the same old content.
//   - Writing: to a temporary file in the same directory, fsynced, then
//     renamed over the original, keeping its permission bits (and, on Unix,
//     its owner when allowed). A symbolic link is never replaced: the write
//     goes to the file it points to, so the link stays a link. A file with
//     other hard links, or without write permission, is not written
//     (ErrHardLinked, ErrReadOnly): a rename would give its name a new file
//     and leave the other links with the old content, or replace a file the
//     user made read-only.
//   - One Apply is one round. Applying a fix can make another finding
//     fixable, or a skipped overlapping fix applicable; the CLI repeats
//     analyze-and-apply in memory until a round fixes nothing, as ruff does
//     (docs/fixes.md), so a second run changes nothing.
package fix

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/cudaforklint/cudaforklint/finding"
	"github.com/cudaforklint/cudaforklint/notebook"
)

// Options control Apply.
type Options struct {
	// Unsafe also applies Unsafe fixes (--unsafe-fixes).
	Unsafe bool
	// Diff renders diffs instead of writing files (--diff).
	Diff bool
	// ParseErrors counts the syntax errors of a Python source, for the
	// re-parse check; nil is SyntaxErrors (syntax.Parse). NoSyntaxCheck
	// turns the check off.
	ParseErrors   func(src []byte) int
	NoSyntaxCheck bool
	// ReadFile reads the content to fix of a file named by a finding path
	// (already joined with WorkDir); nil is os.ReadFile. With Diff, it may
	// return content that is not on disk (the CLI's in-memory rounds).
	ReadFile func(path string) ([]byte, error)
	// ReadRaw reads a file's bytes as stored, for a notebook (whose
	// ReadFile is the module its kernel runs, and whose JSON is rewritten);
	// nil is os.ReadFile. With Diff, it may return content that is not on
	// disk.
	ReadRaw func(path string) ([]byte, error)
	// Analyzed, when set, returns the source a path (as in the findings)
	// had when it was analyzed: a file whose content differs from it is not
	// touched (the error wraps ErrChanged), since the findings' offsets
	// describe the analyzed text.
	Analyzed func(path string) ([]byte, bool)
	// WorkDir resolves relative finding paths ("" is the process's).
	WorkDir string
}

// Result is what Apply did.
type Result struct {
	// Files are the files that had fixes to apply, sorted by path.
	Files []FileResult
	// Fixed lists the indexes (into the findings given to Apply) of the
	// findings whose fix was applied (or, with Diff, would be).
	Fixed []int
	// Skipped are fixes left out because they overlap another fix.
	Skipped []Skipped
}

// FileResult is one file's outcome.
type FileResult struct {
	Path string // as in the findings
	// Fixes is how many fixes were applied to the file.
	Fixes int
	// Diff is the unified diff of the change (always filled).
	Diff string
	// Before is the file's content the fixes were applied to and After the
	// result (both nil when Err is set): for a notebook, its JSON.
	Before, After []byte
	// Err is set when the file was left untouched: it could not be read or
	// written, an edit was out of range, or the fix broke the syntax.
	Err error
}

// Skipped is a fix that was not applied in this run.
type Skipped struct {
	Index  int // into the findings
	Reason string
}

// Err joins the files' errors, or returns nil.
func (r *Result) Err() error {
	var errs []error
	for _, f := range r.Files {
		if f.Err != nil {
			errs = append(errs, f.Err)
		}
	}
	return errors.Join(errs...)
}

// Diff concatenates the files' diffs in path order.
func (r *Result) Diff() string {
	var b strings.Builder
	for _, f := range r.Files {
		if f.Err == nil {
			b.WriteString(f.Diff)
		}
	}
	return b.String()
}

// Select returns the fix of f that --fix would apply, or nil.
func Select(f *finding.Finding, unsafe bool) *finding.Fix {
	if f.Suppressed || len(f.Fixes) == 0 {
		return nil
	}
	fx := &f.Fixes[0]
	switch fx.Applicability {
	case finding.Safe:
		return fx
	case finding.Unsafe:
		if unsafe {
			return fx
		}
	}
	return nil
}

// span is an accepted edit in byte offsets.
type span struct {
	start, end int
	text       string
}

func (a span) overlaps(b span) bool { return a.start < b.end && b.start < a.end }

// plan is one file's accepted edits and the findings they serve.
type plan struct {
	path     string
	edits    []span
	findings []int
}

// Apply applies the fixes of findings and returns what happened. Errors
// specific to one file are in its FileResult; Apply itself does not fail.
func Apply(findings []finding.Finding, opt Options) *Result {
	res := &Result{}
	plans := map[string]*plan{}
	// fileSet[i] lists the files finding i's fix touches.
	touches := map[int][]string{}
	for i := range findings {
		f := &findings[i]
		fx := Select(f, opt.Unsafe)
		if fx == nil || len(fx.Edits) == 0 {
			continue
		}
		byPath := map[string][]span{}
		var order []string
		for _, e := range fx.Edits {
			p := e.Path
			if p == "" {
				p = f.Path
			}
			if _, ok := byPath[p]; !ok {
				order = append(order, p)
			}
			byPath[p] = append(byPath[p], span{e.Start.Offset, e.End.Offset, e.NewText})
		}
		conflict := ""
		for _, p := range order {
			if c := conflicts(plans[p], byPath[p]); c != "" {
				conflict = c
				break
			}
		}
		if conflict != "" {
			res.Skipped = append(res.Skipped, Skipped{Index: i, Reason: conflict})
			continue
		}
		for _, p := range order {
			pl := plans[p]
			if pl == nil {
				pl = &plan{path: p}
				plans[p] = pl
			}
			for _, s := range byPath[p] {
				if !contains(pl.edits, s) {
					pl.edits = append(pl.edits, s)
				}
			}
			pl.findings = append(pl.findings, i)
		}
		touches[i] = order
	}

	paths := make([]string, 0, len(plans))
	for p := range plans {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	failed := map[string]bool{}
	for _, p := range paths {
		fr := applyFile(plans[p], opt)
		if fr.Err != nil {
			failed[p] = true
		}
		res.Files = append(res.Files, fr)
	}
	for i := range findings {
		ps, ok := touches[i]
		if !ok {
			continue
		}
		good := true
		for _, p := range ps {
			if failed[p] {
				good = false
			}
		}
		if good {
			res.Fixed = append(res.Fixed, i)
		}
	}
	return res
}

// conflicts reports why new edits cannot join pl's accepted edits, or "".
func conflicts(pl *plan, edits []span) string {
	for i, a := range edits {
		if a.start < 0 || a.end < a.start {
			return fmt.Sprintf("malformed edit [%d, %d)", a.start, a.end)
		}
		for _, b := range edits[i+1:] {
			if a.overlaps(b) {
				return "the fix's own edits overlap"
			}
		}
		if pl == nil {
			continue
		}
		for _, b := range pl.edits {
			if a == b {
				continue
			}
			if a.overlaps(b) {
				return "overlaps the fix of an earlier finding; run the fixer again to apply it"
			}
		}
	}
	return ""
}

func contains(ss []span, s span) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

func (opt *Options) resolve(p string) string { return finding.AbsPath(opt.WorkDir, p) }

func applyFile(pl *plan, opt Options) FileResult {
	fr := FileResult{Path: pl.path}
	full := opt.resolve(pl.path)
	read := opt.ReadFile
	if read == nil {
		read = os.ReadFile
	}
	src, err := read(full)
	if err != nil {
		fr.Err = fmt.Errorf("%s: cannot fix: %w", pl.path, err)
		return fr
	}
	if opt.Analyzed != nil {
		if was, ok := opt.Analyzed(pl.path); ok && !bytes.Equal(was, src) {
			fr.Err = fmt.Errorf("%s: not fixed: %w", pl.path, ErrChanged)
			return fr
		}
	}
	if crOnly(src) {
		// The parser reads such a file as one line: the offsets of a
		// fix made from it may span what CPython reads as several lines
		// (the check reports the file as not checked).
		fr.Err = fmt.Errorf("%s: not fixed: the lines end with CR alone; convert the file to LF or CRLF", pl.path)
		return fr
	}
	out, err := applyEdits(src, pl.edits)
	if err != nil {
		fr.Err = fmt.Errorf("%s: not fixed: %w", pl.path, err)
		return fr
	}
	if err := opt.verify(src, out, pl.edits); err != nil {
		fr.Err = fmt.Errorf("%s: not fixed: %w; please report this as a bug", pl.path, err)
		return fr
	}
	fr.Fixes = len(pl.findings)
	if notebook.IsPath(full) {
		return writeNotebook(fr, full, src, pl.edits, opt)
	}
	fr.Before, fr.After = src, out
	fr.Diff = UnifiedDiff(pl.path, src, out)
	if opt.Diff || bytes.Equal(out, src) {
		return fr
	}
	fr.write(full)
	return fr
}

// write writes fr.After over the file at full unless the file no longer
// holds fr.Before (WriteIfUnchanged), and records why it did not.
func (fr *FileResult) write(full string) {
	if err := WriteIfUnchanged(full, fr.Before, fr.After); err != nil {
		if errors.Is(err, ErrChanged) {
			fr.Err = fmt.Errorf("%s: not fixed: %w", fr.Path, err)
		} else {
			fr.Err = fmt.Errorf("%s: cannot write the fix: %w", fr.Path, err)
		}
	}
}

// crOnly reports whether src breaks lines with CR alone (a CR and no LF).
func crOnly(src []byte) bool {
	return bytes.IndexByte(src, '\n') < 0 && bytes.IndexByte(src, '\r') >= 0
}

// applyEdits applies non-overlapping byte-offset edits to src. Edits are sorted by
// start (insertions at one offset keep their order).
func applyEdits(src []byte, edits []span) ([]byte, error) {
	sorted := append([]span(nil), edits...)
	sort.SliceStable(sorted, func(i, j int) bool {
		if sorted[i].start != sorted[j].start {
			return sorted[i].start < sorted[j].start
		}
		return sorted[i].end < sorted[j].end
	})
	var b strings.Builder
	pos := 0
	for _, e := range sorted {
		if e.start < pos || e.end > len(src) || e.end < e.start {
			return nil, fmt.Errorf("edit [%d, %d) is out of range or overlaps (file has %d bytes)", e.start, e.end, len(src))
		}
		b.Write(src[pos:e.start])
		b.WriteString(e.text)
		pos = e.end
	}
	b.Write(src[pos:])
	return []byte(b.String()), nil
}

// ApplyEdits applies a list of finding.Edits (all for one file) to src;
// for callers outside this package (tests, the LSP server).
func ApplyEdits(src []byte, edits []finding.Edit) ([]byte, error) {
	ss := make([]span, len(edits))
	for i, e := range edits {
		ss[i] = span{e.Start.Offset, e.End.Offset, e.NewText}
	}
	for i := range ss {
		for j := i + 1; j < len(ss); j++ {
			if ss[i].overlaps(ss[j]) {
				return nil, fmt.Errorf("edits [%d, %d) and [%d, %d) overlap", ss[i].start, ss[i].end, ss[j].start, ss[j].end)
			}
		}
	}
	return applyEdits(src, ss)
}
