package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/cudaforklint/cudaforklint/analyzer"
	"github.com/cudaforklint/cudaforklint/config"
	"github.com/cudaforklint/cudaforklint/finding"
	"github.com/cudaforklint/cudaforklint/fix"
	"github.com/cudaforklint/cudaforklint/output"
	"github.com/cudaforklint/cudaforklint/ruledoc"
	"github.com/cudaforklint/cudaforklint/rules"
)

// checkFlags are check's command-line flags.
type checkFlags struct {
	selectCodes, ignore, extendSelect, extraInit, outputs, exclude, extendExclude listFlag
	format, outputFile, color, configFile, targetVersion, platform                string
	fix, unsafeFixes, diff, showSuppressed, exitZero, forceExclude, isolated      bool
	noUnsafeFixes, statistics                                                     bool
	noRespectGitignore                                                            bool
	maxFileSize                                                                   int64
	workers                                                                       int
}

func (c *checkFlags) register(fs *flag.FlagSet) {
	fs.Var(&c.selectCodes, "select", "rule codes or prefixes to enable, replacing the defaults (e.g. CFL001,CFL003 or ALL)")
	fs.Var(&c.extendSelect, "extend-select", "rule codes or prefixes to enable in addition")
	fs.Var(&c.ignore, "ignore", "rule codes or prefixes to disable")
	fs.StringVar(&c.targetVersion, "target-version", "", "minimum Python version to check for: py310 ... py314 (default: all supported, narrowed by requires-python)")
	fs.StringVar(&c.platform, "platform", "", "platforms to check for: linux, macos, windows, all (default linux)")
	fs.Var(&c.extraInit, "extra-initializer", "dotted name of a project function that initializes CUDA (repeatable)")
	fs.StringVar(&c.format, "format", envOr("CUDAFORKLINT_OUTPUT_FORMAT", "full"), "output format: full, concise, json, json-lines, github, sarif")
	fs.StringVar(&c.format, "output-format", envOr("CUDAFORKLINT_OUTPUT_FORMAT", "full"), "alias of --format (ruff's spelling)")
	fs.StringVar(&c.outputFile, "output-file", os.Getenv("CUDAFORKLINT_OUTPUT_FILE"), "write the --format output to this file instead of standard output")
	fs.StringVar(&c.outputFile, "o", os.Getenv("CUDAFORKLINT_OUTPUT_FILE"), "shorthand for --output-file")
	fs.Var(&c.outputs, "output", "an additional FORMAT:PATH output, e.g. sarif:.sarif/cudaforklint.sarif (repeatable)")
	fs.BoolVar(&c.fix, "fix", false, "apply safe fixes")
	fs.BoolVar(&c.unsafeFixes, "unsafe-fixes", false, "also apply (with --fix) or show unsafe fixes")
	fs.BoolVar(&c.noUnsafeFixes, "no-unsafe-fixes", false, "do not mention hidden unsafe fixes")
	fs.BoolVar(&c.statistics, "statistics", false, "print the number of findings per rule instead of the findings")
	fs.BoolVar(&c.diff, "diff", false, "print the fixes as a unified diff instead of writing them; exit 1 if there are any")
	fs.BoolVar(&c.showSuppressed, "show-suppressed", false, "also show findings suppressed by noqa comments or per-file-ignores")
	fs.BoolVar(&c.exitZero, "exit-zero", false, "exit 0 even when there are findings (tool errors still exit 2)")
	fs.BoolVar(&c.forceExclude, "force-exclude", false, "apply exclude patterns to files named on the command line too (for pre-commit)")
	fs.Var(&c.exclude, "exclude", "glob patterns to exclude, replacing the config's")
	fs.Var(&c.extendExclude, "extend-exclude", "glob patterns to exclude in addition")
	fs.BoolVar(&c.noRespectGitignore, "no-respect-gitignore", false, "check files .gitignore ignores")
	fs.StringVar(&c.color, "color", "auto", "colour the full format: auto, always, never")
	fs.StringVar(&c.configFile, "config", "", "use this pyproject.toml or cudaforklint.toml for every file")
	fs.BoolVar(&c.isolated, "isolated", false, "ignore every configuration file")
	fs.Int64Var(&c.maxFileSize, "max-file-size", analyzer.DefaultMaxFileSize, "skip (with an error) files larger than this many bytes")
	fs.IntVar(&c.workers, "workers", 0, "parallel parsers (default: number of CPUs)")
}

func envOr(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}

func runCheck(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: cudaforklint check [flags] [PATH ...]\n\nFlags:\n")
		fs.PrintDefaults()
	}
	var c checkFlags
	c.register(fs)
	paths, err := parseInterspersed(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return ExitClean
		}
		return ExitError
	}
	format, err := output.ParseFormat(c.format)
	if err != nil {
		return fail(stderr, err)
	}
	dests := []output.Destination{{Format: format, Path: c.outputFile}}
	for _, o := range c.outputs.vals {
		d, err := output.ParseDestination(o)
		if err != nil {
			return fail(stderr, err)
		}
		dests = append(dests, d)
	}
	colorOn, err := output.ColorEnabled(c.color, stdoutFile(stdout), os.Getenv)
	if err != nil {
		return fail(stderr, err)
	}
	ov := config.Overrides{
		TargetVersion:     c.targetVersion,
		Platform:          c.platform,
		ExtraInitializers: c.extraInit.vals,
		ConfigFile:        c.configFile,
		Isolated:          c.isolated,
		Exclude:           c.exclude.vals,
		ExtendExclude:     c.extendExclude.vals,
	}
	if c.selectCodes.set {
		ov.Select = c.selectCodes.vals
	}
	ov.ExtendSelect, ov.Ignore = c.extendSelect.vals, c.ignore.vals
	if c.forceExclude {
		t := true
		ov.ForceExclude = &t
	}
	if c.noRespectGitignore {
		f := false
		ov.RespectGitignore = &f
	}
	loader, err := config.NewLoader(ruledoc.All(), ov)
	if err != nil {
		return fail(stderr, err)
	}
	run := newCheckRun(loader, c, paths)
	res, err := run.analyze()
	if err != nil {
		return fail(stderr, err)
	}
	fixed := 0
	if c.fix || c.diff {
		fr := fix.Apply(res.Findings, fix.Options{
			Unsafe:   c.unsafeFixes,
			Diff:     c.diff,
			ReadFile: res.ReadFile,
			WorkDir:  run.workDir,
		})
		for _, f := range fr.Files {
			if f.Err != nil {
				res.Errors = append(res.Errors, finding.ToolError{Path: f.Path, Message: "fix not applied: " + f.Err.Error()})
			}
		}
		if c.diff {
			fmt.Fprint(stdout, fr.Diff())
			printProblems(stderr, res)
			switch {
			case len(res.Errors) > 0:
				return ExitError
			case len(fr.Fixed) > 0:
				return ExitFindings
			}
			return ExitClean
		}
		fixed = len(fr.Fixed)
		if fixed > 0 {
			// Report what is left, from the files as they are now.
			if res, err = run.analyze(); err != nil {
				return fail(stderr, err)
			}
		}
	}
	code := exitCode(res, c.exitZero)
	rep := &output.Report{
		Findings:       res.Findings,
		Errors:         res.Errors,
		Notices:        res.Notices,
		Rules:          run.enabledDocs(),
		ExitCode:       code,
		WorkDir:        run.workDir,
		Version:        Version(),
		Args:           os.Args,
		ShowSuppressed: c.showSuppressed,
		Fixed:          fixed,
		ReadFile:       func(p string) ([]byte, error) { return res.ReadFile(run.abs(p)) },
	}
	opt := output.Options{Color: colorOn, UnsafeFixes: c.unsafeFixes, NoUnsafeFixesHint: c.noUnsafeFixes}
	if c.statistics {
		if err := output.WriteStatistics(stdout, rep, opt); err != nil {
			return fail(stderr, err)
		}
		printProblems(stderr, res)
		return code
	}
	for _, d := range dests {
		var werr error
		if d.Stdout() {
			o := opt
			o.Color = colorOn && d.Format == output.Full
			werr = output.Write(stdout, d.Format, rep, o)
		} else {
			o := opt
			o.Color = false
			werr = output.WriteFile(d.Path, d.Format, rep, o)
		}
		if werr != nil {
			return fail(stderr, werr)
		}
	}
	printProblems(stderr, res)
	return code
}

// exitCode is 2 with tool errors, else 1 with unsuppressed findings (unless
// --exit-zero), else 0.
func exitCode(res *analyzer.Result, exitZero bool) int {
	if len(res.Errors) > 0 {
		return ExitError
	}
	if exitZero {
		return ExitClean
	}
	for _, f := range res.Findings {
		if !f.Suppressed {
			return ExitFindings
		}
	}
	return ExitClean
}

// printProblems writes tool errors and notices to standard error, one line
// each.
func printProblems(stderr io.Writer, res *analyzer.Result) {
	for _, e := range res.Errors {
		fmt.Fprintf(stderr, "error: %s\n", problemLine(e))
	}
	for _, n := range res.Notices {
		fmt.Fprintf(stderr, "warning: %s\n", problemLine(n))
	}
}

func problemLine(e finding.ToolError) string {
	switch {
	case e.Path != "" && e.Line > 0:
		return fmt.Sprintf("%s:%d: %s", e.Path, e.Line, e.Message)
	case e.Path != "":
		return fmt.Sprintf("%s: %s", e.Path, e.Message)
	}
	return e.Message
}

func fail(stderr io.Writer, err error) int {
	fmt.Fprintf(stderr, "cudaforklint: %v\n", err)
	return ExitError
}

func stdoutFile(w io.Writer) *os.File {
	if f, ok := w.(*os.File); ok {
		return f
	}
	return nil
}

// checkRun is one `check` invocation's analysis, repeatable after --fix.
type checkRun struct {
	loader  *config.Loader
	flags   checkFlags
	paths   []string
	workDir string
}

func newCheckRun(loader *config.Loader, c checkFlags, paths []string) *checkRun {
	wd, _ := os.Getwd()
	return &checkRun{loader: loader, flags: c, paths: paths, workDir: wd}
}

func (r *checkRun) abs(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(r.workDir, p)
}

// analyze runs every rule the configuration selects somewhere; each file's
// own settings (one config.Settings per file, through the policy) decide
// the rest.
func (r *checkRun) analyze() (*analyzer.Result, error) {
	pol := config.NewPolicy(r.loader)
	pol.Roots = []string{r.workDir}
	pol.Workers = r.flags.workers
	return analyzer.Run(analyzer.Options{
		Paths:       r.paths,
		Analyzers:   rules.All(),
		Policy:      pol,
		MaxFileSize: r.flags.maxFileSize,
		WorkDir:     r.workDir,
	})
}

// enabledDocs lists the rules enabled for the working directory's config
// (SARIF's tool.driver.rules).
func (r *checkRun) enabledDocs() []*ruledoc.Doc {
	s, err := r.loader.ForDir(r.workDir)
	var out []*ruledoc.Doc
	for _, d := range ruledoc.All() {
		if err != nil || s.Selected(d.Code) {
			out = append(out, d)
		}
	}
	return out
}
