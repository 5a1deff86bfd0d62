package output

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/cudaforklint/cudaforklint/finding"
)

// githubWriter writes GitHub Actions workflow commands, one annotation per
// finding, as ruff's github format does:
//
//	::error title=cudaforklint (CFL001),file=hazard.py,line=6,col=1,endLine=6,endColumn=10::hazard.py:6:1: CFL001 message
//
// Errors become ::error, warnings ::warning, infos and suppressed findings
// (when shown) ::notice. col and endColumn are character columns and are
// left out when the span covers several lines, as ruff does; endColumn is
// the column after the last character. The file property is the finding's
// path (relative to the working directory, which in a workflow is the
// checkout). Files that could not be checked become ::error annotations and
// notices ::notice ones, so they show on the run's summary page.
//
// A notebook's annotation points at the notebook file, on the line of its
// JSON where the cell's line is written (so GitHub shows it on the right line
// of the file's diff); the message names the cell: nb.ipynb:cell 3:2:5.
//
// Escaping follows the runner's rules (actions/toolkit command.ts): in the
// message % → %25, CR → %0D, LF → %0A; in property values also : → %3A and
// , → %2C.
type githubWriter struct{}

func (githubWriter) print(w io.Writer, r *Report, _ Options) error {
	src := newSources(r)
	bw := bufio.NewWriter(w)
	for _, f := range visible(r) {
		level := "error"
		switch {
		case f.Suppressed || f.Severity == finding.Info:
			level = "notice"
		case f.Severity == finding.Warning:
			level = "warning"
		}
		line, col := f.Start.Line, src.charColumn(f.Location, f.Start)
		endLine, endCol := f.End.Line, src.charColumn(f.Location, f.End)
		if f.File != nil {
			// A notebook: the annotation goes on the JSON line where the
			// cell's line is written.
			line, col = f.File.Start.Line, f.File.Start.Column
			endLine, endCol = f.File.End.Line, f.File.End.Column
		}
		props := []string{
			"title=" + escapeProperty("cudaforklint ("+f.Code+")"),
			"file=" + escapeProperty(f.Path),
			fmt.Sprintf("line=%d", line),
		}
		if endLine == line {
			props = append(props, fmt.Sprintf("col=%d", col))
		}
		props = append(props, fmt.Sprintf("endLine=%d", endLine))
		if endLine == line {
			props = append(props, fmt.Sprintf("endColumn=%d", endCol))
		}
		msg := fmt.Sprintf("%s: %s %s", src.where(f.Location, f.Start), f.Code, f.Message)
		if f.Suppressed {
			msg += " (suppressed)"
		}
		if f.Status != "" {
			msg += " [" + f.Status + "]" // verify's runtime status, as in the concise format
		}
		fmt.Fprintf(bw, "::%s %s::%s\n", level, strings.Join(props, ","), escapeData(msg))
	}
	for _, e := range r.SyntaxErrors {
		problemCommand(bw, "error", "cudaforklint (SyntaxError)", e)
	}
	for _, e := range r.Errors {
		problemCommand(bw, "error", "cudaforklint: could not check file", e)
	}
	for _, n := range r.Notices {
		problemCommand(bw, "notice", "cudaforklint", n)
	}
	return bw.Flush()
}

func problemCommand(w *bufio.Writer, level, title string, e finding.ToolError) {
	props := []string{"title=" + escapeProperty(title)}
	if e.Path != "" {
		props = append(props, "file="+escapeProperty(e.Path))
		if e.Line > 0 && e.Cell == 0 {
			props = append(props, fmt.Sprintf("line=%d", e.Line))
			if e.Column > 0 {
				props = append(props, fmt.Sprintf("col=%d", e.Column))
			}
		}
	}
	fmt.Fprintf(w, "::%s %s::%s\n", level, strings.Join(props, ","), escapeData(problemText(e)))
}

var (
	dataEscaper     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	propertyEscaper = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

func escapeData(s string) string     { return dataEscaper.Replace(s) }
func escapeProperty(s string) string { return propertyEscaper.Replace(s) }
