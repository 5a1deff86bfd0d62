// Package output renders a run's findings in the formats a user or a tool
// asks for: full (the default, ruff-style, with source snippets), concise,
// json, json-lines, github (workflow commands), gitlab (Code Quality) and sarif (SARIF 2.1.0 for
// GitHub code scanning and editors). Each format lives in its own file behind
// one small interface; Write picks one. Several formats can be written in one
// run (full to the terminal and SARIF to a file): the caller calls Write once
// per Destination with the same Report.
//
// Columns. Findings carry byte columns and UTF-16 columns. The text formats
// (full, concise, github) and json/json-lines show 1-based columns counted
// in characters (Unicode code points), as ruff does; SARIF uses UTF-16 code
// units (its default columnKind). Character columns need the source line;
// when the file cannot be read, byte columns are shown instead.
package output

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/cudaforklint/cudaforklint/finding"
	"github.com/cudaforklint/cudaforklint/ruledoc"
)

// Format is an output format.
type Format string

const (
	Full      Format = "full"
	Concise   Format = "concise"
	JSON      Format = "json"
	JSONLines Format = "json-lines"
	GitHub    Format = "github"
	GitLab    Format = "gitlab"
	SARIF     Format = "sarif"
)

// Formats lists every format, the default first.
var Formats = []Format{Full, Concise, JSON, JSONLines, GitHub, GitLab, SARIF}

// ParseFormat parses a format name.
func ParseFormat(s string) (Format, error) {
	for _, f := range Formats {
		if string(f) == s {
			return f, nil
		}
	}
	return "", fmt.Errorf("unknown output format %q (want one of %s)", s, FormatNames())
}

// FormatNames lists the formats for a flag's help and an error: "full,
// concise, ...".
func FormatNames() string {
	names := make([]string, len(Formats))
	for i, f := range Formats {
		names[i] = string(f)
	}
	return strings.Join(names, ", ")
}

// Destination is one format and where it goes: Path "" or "-" is standard
// output.
type Destination struct {
	Format Format
	Path   string
}

// Stdout reports whether d writes to standard output.
func (d Destination) Stdout() bool { return d.Path == "" || d.Path == "-" }

// ParseDestination parses `FORMAT` or `FORMAT:PATH` (the value of a repeated
// --output-format flag): "sarif:.sarif/cudaforklint.sarif". The split is at
// the first ':' after a known format name, so paths may contain ':'.
func ParseDestination(s string) (Destination, error) {
	if name, path, ok := strings.Cut(s, ":"); ok {
		f, err := ParseFormat(name)
		if err != nil {
			return Destination{}, err
		}
		if path == "" {
			return Destination{}, fmt.Errorf("output format %q: empty path after ':'", s)
		}
		return Destination{Format: f, Path: path}, nil
	}
	f, err := ParseFormat(s)
	return Destination{Format: f}, err
}

// Report is everything one run produced, as the formats consume it.
type Report struct {
	// Findings are sorted by path, line, column, code and include suppressed
	// ones; formats leave those out unless ShowSuppressed.
	Findings []finding.Finding
	// Errors are inputs that could not be checked (the run exits 2).
	Errors []finding.ToolError
	// Notices are non-fatal notes, such as regions holding syntax newer than
	// the parser, which were analyzed around.
	Notices []finding.Notice
	// SyntaxErrors are code that could not be parsed: the full and concise
	// formats show them like findings and count them as errors.
	SyntaxErrors []finding.SyntaxError
	// Files is the number of files checked (the full format's summary).
	Files int
	// Verified marks verify's report: the run itself was checked, so a clean
	// report passes even when no file was checked statically (--no-static).
	Verified bool
	// Rules are the enabled rules in code order (SARIF lists them all).
	Rules    []*ruledoc.Doc
	ExitCode int
	// WorkDir is absolute; finding paths are relative to it when under it.
	WorkDir string
	Version string
	// Args is the command line (os.Args), for SARIF invocations.
	Args           []string
	ShowSuppressed bool
	// Fixed is how many findings --fix fixed in this run (they are no longer
	// in Findings); the full format's summary mentions them.
	Fixed int
	// ReadFile returns a file's source, for snippets, character columns and
	// fingerprints; it is called with a finding's Path. Nil reads the file
	// from disk (relative paths under WorkDir).
	ReadFile func(path string) ([]byte, error)
}

// Options change how a format looks, not what it says.
type Options struct {
	// Color turns on ANSI colours (full format only). Decide it with
	// ColorEnabled; nothing here looks at the terminal or the environment.
	Color bool
	// UnsafeFixes: unsafe fixes are enabled (--unsafe-fixes), so they count
	// as fixable; otherwise the summary says how many are hidden.
	UnsafeFixes bool
	// NoUnsafeFixesHint leaves the hidden-unsafe-fixes hint out
	// (--no-unsafe-fixes).
	NoUnsafeFixesHint bool
	// Quiet leaves the summary lines out (--quiet): the full format
	// prints the findings only.
	Quiet bool
}

// printer is one format.
type printer interface {
	print(w io.Writer, r *Report, opt Options) error
}

// Write renders r in format f to w.
func Write(w io.Writer, f Format, r *Report, opt Options) error {
	var p printer
	switch f {
	case Full, "":
		p = &fullPrinter{}
	case Concise:
		p = conciseWriter{}
	case JSON:
		p = jsonWriter{lines: false}
	case JSONLines:
		p = jsonWriter{lines: true}
	case GitHub:
		p = githubWriter{}
	case GitLab:
		p = gitlabWriter{}
	case SARIF:
		p = sarifWriter{}
	default:
		return fmt.Errorf("unknown output format %q", f)
	}
	return p.print(w, r, opt)
}

// WriteFile writes r in format f to path, creating its directory.
func WriteFile(path string, f Format, r *Report, opt Options) error {
	if dir := filepath.Dir(path); dir != "." {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("can't create output for %s: %w", path, err)
		}
	}
	fh, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("can't create output for %s: %w", path, err)
	}
	if err := Write(fh, f, r, opt); err != nil {
		fh.Close()
		return err
	}
	return fh.Close()
}

// visible returns the findings a format shows: all when ShowSuppressed,
// otherwise the unsuppressed ones.
func visible(r *Report) []finding.Finding {
	if r.ShowSuppressed {
		return r.Findings
	}
	out := make([]finding.Finding, 0, len(r.Findings))
	for _, f := range r.Findings {
		if !f.Suppressed {
			out = append(out, f)
		}
	}
	return out
}

// primaryFix returns a finding's fix: the first one (ruff has one fix per
// diagnostic; the others are alternatives shown in full and SARIF).
func primaryFix(f *finding.Finding) *finding.Fix {
	if len(f.Fixes) == 0 {
		return nil
	}
	return &f.Fixes[0]
}

// HiddenFixes is ruff's hint for the fixes --fix leaves out for want of
// --unsafe-fixes: "2 hidden fixes can be enabled with the `--unsafe-fixes`
// option", counting the unsuppressed findings whose fix is unsafe; "" when
// there is none, or with --unsafe-fixes or --no-unsafe-fixes.
func HiddenFixes(fs []finding.Finding, opt Options) string {
	if opt.UnsafeFixes || opt.NoUnsafeFixesHint {
		return ""
	}
	hidden := 0
	for i := range fs {
		if fx := primaryFix(&fs[i]); fx != nil && !fs[i].Suppressed && fx.Applicability == finding.Unsafe {
			hidden++
		}
	}
	if hidden == 0 {
		return ""
	}
	return fmt.Sprintf("%d hidden %s can be enabled with the `--unsafe-fixes` option", hidden, Plural(hidden, "fix", "fixes"))
}

// fixable reports whether f's fix would be applied by --fix (with
// --unsafe-fixes when unsafe).
func fixable(f *finding.Finding, unsafe bool) bool {
	fx := primaryFix(f)
	if fx == nil {
		return false
	}
	return fx.Applicability == finding.Safe || unsafe && fx.Applicability == finding.Unsafe
}

// sameSpan reports whether a related location is the finding's own span.
func sameSpan(f *finding.Finding, rel *finding.Related) bool {
	return rel.Path == f.Path && rel.Start.Offset == f.Start.Offset && rel.End.Offset == f.End.Offset
}

// readSource returns r.ReadFile or a disk reader relative to WorkDir.
func (r *Report) readSource() func(string) ([]byte, error) {
	if r.ReadFile != nil {
		return r.ReadFile
	}
	return func(p string) ([]byte, error) {
		return os.ReadFile(finding.AbsPath(r.WorkDir, p))
	}
}

// WriteProblems writes the run's tool errors, its syntax errors when
// withSyntax (the format on standard output did not show them: only full
// and concise do) and its notices for a human, one per line (`error:
// path:line: message`, `warning: ...`), for standard error. The json
// formats do not carry them; SARIF and github do.
func WriteProblems(w io.Writer, r *Report, withSyntax bool) error {
	errs := r.Errors
	if withSyntax {
		errs = append(errs[:len(errs):len(errs)], r.SyntaxErrors...)
	}
	for _, e := range errs {
		if _, err := fmt.Fprintf(w, "error: %s\n", problemText(e)); err != nil {
			return err
		}
	}
	for _, n := range r.Notices {
		if _, err := fmt.Fprintf(w, "warning: %s\n", problemText(n)); err != nil {
			return err
		}
	}
	return nil
}

func problemText(e finding.ToolError) string {
	if w := e.Where(); w != "" {
		return w + ": " + e.Message
	}
	return e.Message
}

// Plural returns one when n is 1, else many: the word, or words, after a
// count in a message ("1 file was", "3 files were").
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
