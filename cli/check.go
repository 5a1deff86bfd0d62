package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"sync"

	"github.com/cudaforklint/cudaforklint/analyzer"
	"github.com/cudaforklint/cudaforklint/config"
	"github.com/cudaforklint/cudaforklint/finding"
	"github.com/cudaforklint/cudaforklint/fix"
	"github.com/cudaforklint/cudaforklint/output"
	"github.com/cudaforklint/cudaforklint/passes/pyprogram"
	"github.com/cudaforklint/cudaforklint/ruledoc"
	"github.com/cudaforklint/cudaforklint/rules"
	"github.com/cudaforklint/cudaforklint/syntax"
	"github.com/cudaforklint/cudaforklint/target"
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

func ruleDocs() []*ruledoc.Doc { return rules.Docs() }

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
	loader, err := config.NewLoader(ruleDocs(), ov)
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
			Unsafe:      c.unsafeFixes,
			Diff:        c.diff,
			ParseErrors: parseErrors,
			ReadFile:    res.ReadFile,
			WorkDir:     run.workDir,
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

// parseErrors counts the syntax errors of fixed source, for the fixer's
// roll-back check; unparsable source counts as very broken.
func parseErrors(src []byte) int {
	f, err := syntax.Parse(src)
	if err != nil {
		return 1 << 30
	}
	return len(f.Errors)
}

// checkRun is one `check` invocation's analysis, repeatable after --fix.
type checkRun struct {
	loader  *config.Loader
	flags   checkFlags
	paths   []string
	workDir string

	mu        sync.Mutex
	settings  map[string]*config.Settings
	configErr []finding.ToolError
}

func newCheckRun(loader *config.Loader, c checkFlags, paths []string) *checkRun {
	wd, _ := os.Getwd()
	return &checkRun{loader: loader, flags: c, paths: paths, workDir: wd, settings: map[string]*config.Settings{}}
}

func (r *checkRun) abs(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(r.workDir, p)
}

// settingsFor returns a file's effective settings, recording config errors.
func (r *checkRun) settingsFor(path string) *config.Settings {
	r.mu.Lock()
	defer r.mu.Unlock()
	if s, ok := r.settings[path]; ok {
		return s
	}
	s, err := r.loader.For(path)
	if err != nil {
		r.configErr = append(r.configErr, configError(err))
		s = nil
	}
	r.settings[path] = s
	return s
}

func configError(err error) finding.ToolError {
	return finding.ToolError{Message: err.Error()}
}

func (r *checkRun) analyze() (*analyzer.Result, error) {
	r.configErr = nil
	// Extra initializers come from the configs that govern the given paths.
	var extra []string
	seen := map[string]bool{}
	paths := r.paths
	if len(paths) == 0 {
		paths = []string{"."}
	}
	for _, p := range paths {
		probe := p
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			probe = filepath.Join(p, "__probe__.py")
		}
		if s := r.settingsFor(r.abs(probe)); s != nil {
			for _, e := range s.ExtraInitializers {
				if !seen[e] {
					seen[e] = true
					extra = append(extra, e)
				}
			}
		}
	}
	sort.Strings(extra)
	res, err := analyzer.Run(analyzer.Options{
		Paths: r.paths,
		Rules: rules.All(),
		Settings: pyprogram.Settings{
			TargetsFor: func(path string) target.Set {
				if s := r.settingsFor(path); s != nil {
					return s.Targets
				}
				return target.Default()
			},
			ExtraInitializers: extra,
			Workers:           r.flags.workers,
			Roots:             []string{r.workDir},
		},
		Exclude: func(path string, isDir, explicit bool) bool {
			if explicit {
				ok, err := r.loader.ShouldCheck(path, true)
				if err != nil {
					r.mu.Lock()
					r.configErr = append(r.configErr, configError(err))
					r.mu.Unlock()
					return true
				}
				return !ok
			}
			ex, err := r.loader.Excluded(path, isDir)
			if err != nil {
				r.mu.Lock()
				r.configErr = append(r.configErr, configError(err))
				r.mu.Unlock()
				return true
			}
			return ex
		},
		Suppress: func(path, code string) bool {
			s := r.settingsFor(path)
			return s != nil && s.PerFileIgnored(code)
		},
		UnusedNoqa: func(path string) bool {
			s := r.settingsFor(path)
			return s != nil && s.Selected(rules.DocCFL100.Code)
		},
		Enabled: func(path, code string) bool {
			s := r.settingsFor(path)
			return s == nil || s.Selected(code)
		},
		MaxFileSize: r.flags.maxFileSize,
		WorkDir:     r.workDir,
	})
	if err != nil {
		return nil, err
	}
	// Rules not selected for a file drop its findings.
	kept := res.Findings[:0]
	for _, f := range res.Findings {
		if s := r.settingsFor(r.abs(f.Path)); s == nil || s.Selected(f.Code) {
			kept = append(kept, f)
		}
	}
	res.Findings = kept
	res.Errors = append(dedupeErrors(r.configErr), res.Errors...)
	return res, nil
}

func dedupeErrors(errs []finding.ToolError) []finding.ToolError {
	var out []finding.ToolError
	seen := map[string]bool{}
	for _, e := range errs {
		k := e.Path + "|" + e.Message
		if !seen[k] {
			seen[k] = true
			out = append(out, e)
		}
	}
	return out
}

// enabledDocs lists the rules enabled for the working directory's config
// (SARIF's tool.driver.rules).
func (r *checkRun) enabledDocs() []*ruledoc.Doc {
	s := r.settingsFor(filepath.Join(r.workDir, "__probe__.py"))
	var out []*ruledoc.Doc
	for _, d := range ruleDocs() {
		if s == nil || s.Selected(d.Code) {
			out = append(out, d)
		}
	}
	return out
}
