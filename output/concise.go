package output

import (
	"bufio"
	"fmt"
	"io"
)

// conciseWriter writes exactly one line per finding and nothing else:
//
//	path:line:col: CODE message
//	nb.ipynb:cell 3:line:col: CODE message   (in a notebook, as ruff writes it)
//
// then one line per syntax error, `path:line:col: SyntaxError: message`.
// Unlike ruff's concise format there is no `[*]` and no summary line, so the
// output can be compared and grepped as is (the specification).
// Suppressed findings, when shown, end in " (suppressed)"; findings of
// `verify` end in their runtime status: " [confirmed]", " [not observed]",
// " [refuted]", " [runtime only]", so that a static finding the run did not
// show never reads like one it proved.
type conciseWriter struct{}

func (conciseWriter) print(w io.Writer, r *Report, _ Options) error {
	src := newSources(r)
	bw := bufio.NewWriter(w)
	for _, f := range visible(r) {
		fmt.Fprintf(bw, "%s: %s %s", src.where(f.Location, f.Start), f.Code, f.Message)
		if f.Suppressed {
			bw.WriteString(" (suppressed)")
		}
		if f.Status != "" {
			bw.WriteString(" [" + f.Status + "]")
		}
		bw.WriteByte('\n')
	}
	for _, e := range r.SyntaxErrors {
		fmt.Fprintf(bw, "%s: %s\n", e.Where(), e.Message)
	}
	return bw.Flush()
}
