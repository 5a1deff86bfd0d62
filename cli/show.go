package cli

import (
	"fmt"
	"io"

	"github.com/cudaforklint/cudaforklint/analyzer"
)

// --show-files and --show-settings answer "what would a run check" and
// "why does it say this here and not there" without analyzing anything.

// showFiles prints the files a run would check, one per line, sorted, as
// the findings would name them.
func (r *checkRun) showFiles(stdout, stderr io.Writer) int {
	var present map[string][]byte
	if r.stdin != nil {
		present = r.stdin
	}
	files, errs := analyzer.DiscoverWith(r.paths, r.workDir, r.policy(), present)
	for _, f := range files {
		fmt.Fprintln(stdout, analyzer.RelPath(r.workDir, f))
	}
	for _, e := range errs {
		fmt.Fprintf(stderr, "error: %s\n", problemLine(e))
	}
	if len(errs) > 0 {
		return ExitError
	}
	return ExitClean
}
