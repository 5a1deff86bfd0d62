package cli

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/cudaforklint/cudaforklint/analyzer"
	"github.com/cudaforklint/cudaforklint/finding"
	"github.com/cudaforklint/cudaforklint/fix"
)

// maxFixRounds bounds the analyze-and-apply rounds of one --fix, as ruff
// bounds its fix loop (100 iterations); fixes that keep changing the code
// after that are a bug.
const maxFixRounds = 100

// maxFixRestarts bounds how often --fix starts over because a file changed
// on disk while it worked (another --fix, an editor).
const maxFixRestarts = 5

// fixOutcome is what --fix or --diff did.
type fixOutcome struct {
	// res is the analysis of the files as they are now (with --diff: as
	// they would be).
	res *analyzer.Result
	// fixed counts the findings fixed.
	fixed int
	// files are the changed files, by path as in the findings.
	files []fixedFile
}

type fixedFile struct {
	path          string // as in the findings
	before, after []byte
	fixes         int // findings fixed in it
}

// diff renders the changes as one unified diff, in path order.
func (o *fixOutcome) diff() string {
	var b strings.Builder
	for _, f := range o.files {
		b.WriteString(fix.FileDiff(f.path, f.before, f.after))
	}
	return b.String()
}

// fix applies the fixes --fix (or --diff) asks for, to a fixed point: it
// analyzes, applies what is applicable in memory, and analyzes the result
// again (applying a fix can make another finding fixable, or an
// overlapping fix applicable), until a round applies nothing; then it
// writes each changed file once, if the file on disk still holds the
// content the rounds started from (fix.WriteIfUnchanged, under a lock).
// When one has changed, the whole run starts over from the disk, so that
// concurrent runs and editors never lose an edit; a file that keeps
// changing is reported. With --diff nothing is written.
func (r *checkRun) fix() (*fixOutcome, error) {
	written := 0 // findings fixed in files written by earlier attempts
	for restart := 0; ; restart++ {
		out, err := r.fixRounds()
		if err != nil {
			return nil, err
		}
		if r.flags.diff || len(out.files) == 0 || r.stdin != nil {
			out.fixed += written
			return out, nil
		}
		changed, n, werrs := r.write(out)
		written += n
		if len(changed) == 0 && len(werrs) == 0 {
			out.fixed = written
			return out, nil
		}
		if len(changed) > 0 && restart < maxFixRestarts {
			continue
		}
		for _, p := range changed {
			werrs = append(werrs, finding.ToolError{Path: p,
				Message: "not fixed: the file kept changing while --fix ran (another program is writing it); run --fix again"})
		}
		// Report what the files hold now.
		res, err := r.analyze()
		if err != nil {
			return nil, err
		}
		res.Errors = append(res.Errors, werrs...)
		return &fixOutcome{res: res, fixed: written}, nil
	}
}

// fixRounds runs the analyze-and-apply rounds in memory, from the disk.
func (r *checkRun) fixRounds() (*fixOutcome, error) {
	overlay := map[string][]byte{}
	for p, b := range r.stdin {
		overlay[p] = b
	}
	before := map[string][]byte{} // by absolute path: the content before the first fix
	rel := map[string]string{}
	fixes := map[string]int{}
	fixed := 0
	for round := 0; ; round++ {
		res, err := r.analyzeWith(overlay, nil, nil, nil)
		if err != nil {
			return nil, err
		}
		if round == maxFixRounds {
			res.Errors = append(res.Errors, finding.ToolError{Message: fmt.Sprintf("the fixes did not converge after %d rounds; the last round's changes were kept. Please report this as a bug", maxFixRounds)})
			return r.outcome(res, fixed, before, overlay, rel, fixes), nil
		}
		fr := fix.Apply(res.Findings, fix.Options{
			Unsafe:   r.flags.unsafeFixes,
			Diff:     true, // rounds are in memory; fix writes at the end
			ReadFile: res.ReadFile,
			ReadRaw: func(path string) ([]byte, error) {
				if b, ok := overlay[filepath.Clean(path)]; ok {
					return b, nil
				}
				return os.ReadFile(path)
			},
			WorkDir: r.workDir,
		})
		applied := false
		var errs []finding.ToolError
		for _, f := range fr.Files {
			if f.Err != nil {
				errs = append(errs, finding.ToolError{Path: f.Path, Message: "fix not applied: " + f.Err.Error()})
				continue
			}
			if bytes.Equal(f.Before, f.After) {
				continue
			}
			abs := filepath.Clean(r.abs(f.Path))
			if _, ok := before[abs]; !ok {
				before[abs] = f.Before
				rel[abs] = f.Path
			}
			overlay[abs] = f.After
			fixes[abs] += f.Fixes
			applied = true
		}
		fixed += len(fr.Fixed)
		if !applied {
			// The fixed point: report the findings left, and the fixes
			// that could not be applied in this last round.
			res.Errors = append(res.Errors, errs...)
			return r.outcome(res, fixed, before, overlay, rel, fixes), nil
		}
	}
}

func (r *checkRun) outcome(res *analyzer.Result, fixed int, before, after map[string][]byte, rel map[string]string, fixes map[string]int) *fixOutcome {
	out := &fixOutcome{res: res, fixed: fixed}
	for abs, b := range before {
		if !bytes.Equal(b, after[abs]) {
			out.files = append(out.files, fixedFile{path: rel[abs], before: b, after: after[abs], fixes: fixes[abs]})
		}
	}
	sort.Slice(out.files, func(i, j int) bool { return out.files[i].path < out.files[j].path })
	return out
}

// write writes the changed files, each only if it still holds the content
// the rounds started from. It returns the files that changed meanwhile, how
// many findings the written files fixed, and the errors of the others.
func (r *checkRun) write(out *fixOutcome) (changed []string, fixed int, errs []finding.ToolError) {
	for _, f := range out.files {
		err := fix.WriteIfUnchanged(r.abs(f.path), f.before, f.after)
		switch {
		case err == nil:
			fixed += f.fixes
		case errors.Is(err, fix.ErrChanged):
			changed = append(changed, f.path)
		case errors.Is(err, fix.ErrReadOnly), errors.Is(err, fix.ErrHardLinked):
			errs = append(errs, finding.ToolError{Path: f.path, Message: "not fixed: " + err.Error()})
		default:
			errs = append(errs, finding.ToolError{Path: f.path, Message: "cannot write the fix: " + err.Error()})
		}
	}
	return changed, fixed, errs
}
