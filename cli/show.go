package cli

import (
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/cudaforklint/cudaforklint/analyzer"
	"github.com/cudaforklint/cudaforklint/config"
	"github.com/cudaforklint/cudaforklint/finding"
	"github.com/cudaforklint/cudaforklint/output"
	"github.com/cudaforklint/cudaforklint/ruledoc"
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
		fmt.Fprintln(stdout, finding.RelPath(r.workDir, f))
	}
	output.WriteProblems(stderr, &output.Report{Errors: errs}, false)
	if len(errs) > 0 {
		return ExitError
	}
	return ExitClean
}

// showSettings prints the configuration that applies to the file at path
// (which need not exist: a file about to be written), one setting a line.
// Paths are absolute: the answer is about where things are.
func (r *checkRun) showSettings(path string, stdout, stderr io.Writer) int {
	abs := filepath.Clean(r.abs(path))
	s, err := r.loader.For(abs)
	if err != nil {
		return fail(stderr, err)
	}
	var b strings.Builder
	line := func(key, value string) { fmt.Fprintf(&b, "%-19s %s\n", key+":", value) }
	list := func(vals []string) string {
		if len(vals) == 0 {
			return "(none)"
		}
		return strings.Join(vals, ", ")
	}
	fmt.Fprintf(&b, "Settings for %s\n", abs)
	root := r.loader.ProjectRoot(filepath.Dir(abs))
	if root == "" {
		root = "(none: no " + strings.Join(config.ProjectMarkers(), ", ") + " at or above the file)"
	}
	line("project root", root)
	cfg := s.Config.Path
	switch {
	case r.flags.isolated:
		cfg = "(none: --isolated)"
	case cfg == "":
		cfg = "(none: the defaults)"
	}
	line("config file", cfg)
	line("import roots", list(r.policy().ImportRoots(abs)))
	line("targets", s.Targets.Describe())
	var selected, ignored []string
	for _, d := range ruledoc.All() {
		if s.Selected(d.Code) {
			selected = append(selected, d.Code)
		} else {
			ignored = append(ignored, d.Code)
		}
	}
	line("selected rules", list(selected))
	line("ignored rules", list(ignored))
	var pfi []string
	for _, e := range s.PerFileIgnores {
		pfi = append(pfi, fmt.Sprintf("%q = %s", e.Pattern, strings.Join(e.Codes, " ")))
	}
	line("per-file-ignores", list(pfi))
	line("extra-initializer", list(s.ExtraInitializers))
	line("exclude", list(s.Config.ExcludePatterns()))
	if ov := r.loader.CommandLineExcludes(); len(ov) > 0 {
		line("--exclude", list(ov))
	}
	line("respect-gitignore", strconv.FormatBool(r.respectGitignore(s.Config)))
	line("force-exclude", strconv.FormatBool(s.ForceExclude))
	excluded := "no"
	if s.Excluded {
		excluded = "yes: a run over its directory skips it"
		if !s.ForceExclude {
			excluded += "; named on the command line it is checked"
		}
	}
	line("excluded", excluded)
	if dir, err := r.cacheDir(); err == nil {
		line("cache dir", dir+" (for a run from "+r.workDir+")")
	}
	fmt.Fprint(stdout, b.String())
	return ExitClean
}

// respectGitignore is whether .gitignore is read for files that c governs.
func (r *checkRun) respectGitignore(c *config.Config) bool {
	return c.RespectGitignore && !r.flags.noRespectGitignore
}
