package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"

	"github.com/cudaforklint/cudaforklint/analyzer"
	"github.com/cudaforklint/cudaforklint/cache"
	"github.com/cudaforklint/cudaforklint/config"
	"github.com/cudaforklint/cudaforklint/finding"
	"github.com/cudaforklint/cudaforklint/output"
	"github.com/cudaforklint/cudaforklint/passes/pyprogram"
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
	noCache                                                                       bool
	addNoqa                                                                       bool
	quiet                                                                         bool
	showFiles                                                                     bool
	showSettings                                                                  string
	cacheDir                                                                      string
	stdinFilename                                                                 string
	maxFileSize                                                                   int64
	workers                                                                       int
}

func (c *checkFlags) register(fs *flag.FlagSet) {
	fs.Var(&c.selectCodes, "select", "rule codes or prefixes to enable, replacing the defaults (e.g. CFL001,CFL003 or ALL)")
	fs.Var(&c.extendSelect, "extend-select", "rule codes or prefixes to enable in addition")
	fs.Var(&c.ignore, "ignore", "rule codes or prefixes to disable")
	fs.StringVar(&c.targetVersion, "target-version", "", "minimum Python version to check for: py310 ... py315 (default: the supported releases, 3.11–3.15, or those requires-python allows)")
	fs.StringVar(&c.platform, "platform", "", "platforms to check for: linux, macos, windows, all (default linux)")
	fs.Var(&c.extraInit, "extra-initializer", "dotted name of a project function that initializes CUDA (repeatable)")
	fs.StringVar(&c.format, "format", envOr("CUDAFORKLINT_OUTPUT_FORMAT", "full"), "output format: "+output.FormatNames())
	fs.StringVar(&c.format, "output-format", envOr("CUDAFORKLINT_OUTPUT_FORMAT", "full"), "alias of --format (ruff's spelling)")
	fs.StringVar(&c.outputFile, "output-file", os.Getenv("CUDAFORKLINT_OUTPUT_FILE"), "write the --format output to this file instead of standard output (refused when it is one of the files checked)")
	fs.StringVar(&c.outputFile, "o", os.Getenv("CUDAFORKLINT_OUTPUT_FILE"), "shorthand for --output-file")
	fs.Var(&c.outputs, "output", "an additional FORMAT:PATH output, e.g. sarif:.sarif/cudaforklint.sarif (repeatable)")
	fs.BoolVar(&c.fix, "fix", false, "apply safe fixes")
	fs.BoolVar(&c.unsafeFixes, "unsafe-fixes", false, "also apply (with --fix) or show unsafe fixes")
	fs.BoolVar(&c.noUnsafeFixes, "no-unsafe-fixes", false, "do not mention hidden unsafe fixes")
	fs.BoolVar(&c.statistics, "statistics", false, "print the number of findings per rule instead of the findings")
	fs.BoolVar(&c.addNoqa, "add-noqa", false, "add a \"# noqa: CODE\" comment to every line with a finding, recording today's findings so that only new ones fail (a repository's first run); exit 0 when all were added")
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
	fs.StringVar(&c.stdinFilename, "stdin-filename", "", "read the source from standard input (the path \"-\", or none) and check it as the file `PATH`, with PATH's settings and imports; with --fix, write the fixed source to standard output")
	fs.BoolVar(&c.showFiles, "show-files", false, "list the files the run would check, one per line, sorted, and exit without checking them")
	fs.StringVar(&c.showSettings, "show-settings", "", "print the configuration that applies to the file `PATH` (project root, config file, import roots, targets, rules, per-file-ignores, excludes, cache directory) and exit")
	fs.BoolVar(&c.quiet, "quiet", false, "print the findings and problems only: no summary lines and no progress line")
	fs.BoolVar(&c.quiet, "q", false, "shorthand for --quiet")
	fs.Int64Var(&c.maxFileSize, "max-file-size", analyzer.DefaultMaxFileSize, "skip (with an error) files larger than this many bytes (not negative)")
	fs.IntVar(&c.workers, "workers", 0, "parallel parsers (default: number of CPUs)")
	fs.BoolVar(&c.noCache, "no-cache", cache.OffInEnv(), "neither read nor write the results cache")
	fs.StringVar(&c.cacheDir, "cache-dir", os.Getenv(cache.DirEnv), "the results cache's directory (default: cache-dir in the config, or .cudaforklint_cache in the project root)")
}

func envOr(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}

func runCheck(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	limitMemory()
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
	if c.maxFileSize < 0 {
		return fail(stderr, fmt.Errorf("--max-file-size must not be negative (got %d)", c.maxFileSize))
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
	// Ctrl-C cancels the analysis (analyzer.Run's context): the run stops
	// at its next boundary, stores nothing, and the command exits 2. A
	// second Ctrl-C while it winds down ends the process at once.
	ctx, stop := interruptContext()
	defer stop()
	context.AfterFunc(ctx, stop)
	run.ctx = ctx
	if run.paths, run.stdin, err = stdinPaths(c.stdinFilename, paths, stdin, run.workDir); err != nil {
		return fail(stderr, err)
	}
	switch {
	case c.showFiles:
		return run.showFiles(stdout, stderr)
	case c.showSettings != "":
		return run.showSettings(c.showSettings, stdout, stderr)
	}
	if err := run.checkOutputs(dests); err != nil {
		return fail(stderr, err)
	}
	run.progress = &analyzer.Progress{}
	line := startProgress(stderr, c.quiet, run.progress)
	code := run.check(stdout, stderr, line, dests, colorOn)
	line.stop()
	return code
}

// interruptContext returns the context of check's analysis, cancelled by
// an interrupt (SIGINT), and the function that stops listening for one.
// The tests stand in an interrupt with a context already cancelled.
var interruptContext = func() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt)
}

// check is runCheck once the flags are read: the analysis, the fixes or
// noqa directives, the output. It stops the progress line before it
// prints anything.
func (r *checkRun) check(stdout, stderr io.Writer, line *progressLine, dests []output.Destination, colorOn bool) int {
	c, run := r.flags, r
	format := dests[0].Format
	var err error
	var res *analyzer.Result
	fixed := 0
	if c.addNoqa {
		if run.stdin != nil {
			return fail(stderr, errors.New("--add-noqa writes files: it cannot be combined with --stdin-filename"))
		}
		if c.fix || c.diff {
			return fail(stderr, errors.New("--add-noqa cannot be combined with --fix or --diff: fix first, then record what is left"))
		}
		res, err := run.analyze()
		line.stop()
		if err != nil {
			return fail(stderr, err)
		}
		added, errs := run.addNoqa(res)
		res.Errors = append(append(res.Errors, run.notChecked(res)...), errs...)
		printProblems(stderr, res, true)
		if !c.quiet {
			addNoqaSummary(stderr, added)
		}
		if len(res.Errors) > 0 {
			return ExitError
		}
		return ExitClean
	}
	if c.fix || c.diff {
		fx, err := run.fix()
		line.stop()
		if err != nil {
			return fail(stderr, err)
		}
		res, fixed = fx.res, fx.fixed
		if run.stdin != nil && !c.diff {
			// The fixed source is the output; the report of what is
			// left goes to standard error.
			if _, err := stdout.Write(run.stdinFixed(fx)); err != nil {
				return fail(stderr, err)
			}
			stdout, colorOn = stderr, false
		}
		if c.diff {
			fmt.Fprint(stdout, fx.diff())
			if !c.quiet {
				diffSummary(stderr, fx.fixed, output.HiddenFixes(res.Findings, hintOptions(c)))
			}
			res.Errors = append(res.Errors, run.notChecked(res)...)
			printProblems(stderr, res, true)
			switch {
			case len(res.Errors) > 0:
				return ExitError
			case len(fx.files) > 0:
				return ExitFindings
			}
			return ExitClean
		}
	} else {
		res, err = run.analyzeCached(stderr)
		line.stop()
		if err != nil {
			return fail(stderr, err)
		}
	}
	res.Errors = append(res.Errors, run.notChecked(res)...)
	code := exitCode(res, c.exitZero)
	rep := &output.Report{
		Findings:       res.Findings,
		Errors:         res.Errors,
		Notices:        res.Notices,
		SyntaxErrors:   res.SyntaxErrors,
		Files:          res.Files - res.Unconfigured,
		Rules:          run.enabledDocs(),
		ExitCode:       code,
		WorkDir:        run.workDir,
		Version:        Version(),
		Args:           os.Args,
		ShowSuppressed: c.showSuppressed,
		Fixed:          fixed,
		ReadFile:       func(p string) ([]byte, error) { return res.ReadFile(run.abs(p)) },
	}
	opt := hintOptions(c)
	opt.Color = colorOn
	if c.statistics {
		if err := output.WriteStatistics(stdout, rep, opt); err != nil {
			return fail(stderr, err)
		}
		printProblems(stderr, res, true)
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
	// The full and concise formats show syntax errors among the findings;
	// the others leave them to standard error.
	shown := dests[0].Stdout() && (format == output.Full || format == output.Concise)
	printProblems(stderr, res, !shown)
	if hint := output.HiddenFixes(res.Findings, opt); c.fix && !c.quiet && hint != "" && !(dests[0].Stdout() && format == output.Full) {
		// The full format's summary says it; the others have none.
		fmt.Fprintf(stderr, "%s.\n", hint)
	}
	return code
}

// hintOptions are the output options that decide the hint about hidden
// unsafe fixes.
func hintOptions(c checkFlags) output.Options {
	return output.Options{UnsafeFixes: c.unsafeFixes, NoUnsafeFixesHint: c.noUnsafeFixes, Quiet: c.quiet}
}

// diffSummary says on standard error, after --diff's diff, how many
// findings the diff fixes and how many fixes it leaves out for want of
// --unsafe-fixes (hint, output.HiddenFixes): "Would fix 2 findings (1
// hidden fix can be enabled with the `--unsafe-fixes` option)." Nothing
// when there is neither.
func diffSummary(stderr io.Writer, fixed int, hint string) {
	switch {
	case fixed > 0 && hint != "":
		fmt.Fprintf(stderr, "Would fix %d %s (%s).\n", fixed, output.Plural(fixed, "finding", "findings"), hint)
	case fixed > 0:
		fmt.Fprintf(stderr, "Would fix %d %s.\n", fixed, output.Plural(fixed, "finding", "findings"))
	case hint != "":
		fmt.Fprintf(stderr, "No fixes would be applied (%s).\n", hint)
	}
}

// checkOutputs refuses an output file (-o, --output FORMAT:PATH) that is
// one of the files the run checks: writing the report there would replace
// the user's code.
func (r *checkRun) checkOutputs(dests []output.Destination) error {
	var files []string
	for _, d := range dests {
		if d.Stdout() {
			continue
		}
		out := filepath.Clean(r.abs(d.Path))
		outInfo, statErr := os.Stat(out)
		if files == nil {
			files, _ = analyzer.Discover(r.paths, r.workDir, r.policy())
		}
		for _, f := range files {
			same := f == out
			if !same && statErr == nil {
				// The same file under another name (a link).
				fi, err := os.Stat(f)
				same = err == nil && os.SameFile(fi, outInfo)
			}
			if same {
				return fmt.Errorf("the output file %s is one of the files being checked; writing the report there would replace it", d.Path)
			}
		}
	}
	return nil
}

// exitCode is 2 with tool errors, else 1 with unsuppressed findings or
// syntax errors (unless --exit-zero), else 0.
func exitCode(res *analyzer.Result, exitZero bool) int {
	if len(res.Errors) > 0 {
		return ExitError
	}
	if exitZero {
		return ExitClean
	}
	if len(res.SyntaxErrors) > 0 {
		return ExitFindings
	}
	for _, f := range res.Findings {
		if !f.Suppressed {
			return ExitFindings
		}
	}
	return ExitClean
}

// printProblems writes tool errors, syntax errors (when withSyntax: the
// output format did not show them) and notices to standard error, one line
// each; and ruff's warning when no file was checked.
func printProblems(stderr io.Writer, res *analyzer.Result, withSyntax bool) {
	output.WriteProblems(stderr, &output.Report{Errors: res.Errors, SyntaxErrors: res.SyntaxErrors, Notices: res.Notices}, withSyntax)
	if res.Files == 0 {
		fmt.Fprintln(stderr, "warning: No Python files found under the given path(s)")
	}
}

func fail(stderr io.Writer, err error) int {
	if errors.Is(err, context.Canceled) {
		// Only an interrupt cancels a command's analysis (runCheck).
		fmt.Fprintln(stderr, "cudaforklint: interrupted: the check stopped before it finished; nothing was reported or cached")
		return ExitError
	}
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
	// stdin holds standard input's content under the absolute path it
	// stands for (--stdin-filename), else nil.
	stdin map[string][]byte
	// progress counts the analysis' work for the progress line, or is nil.
	progress *analyzer.Progress
	// ctx is every analysis's context (analyzer.Run): check's is cancelled
	// by an interrupt.
	ctx context.Context
}

func newCheckRun(loader *config.Loader, c checkFlags, paths []string) *checkRun {
	wd, _ := os.Getwd()
	return &checkRun{loader: loader, flags: c, paths: paths, workDir: wd, ctx: context.Background()}
}

func (r *checkRun) abs(p string) string { return finding.AbsPath(r.workDir, p) }

// analyze runs every rule the configuration selects somewhere; each file's
// own settings (one config.Settings per file, through the policy) decide
// the rest.
func (r *checkRun) analyze() (*analyzer.Result, error) { return r.analyzeWith(nil, nil, nil, nil) }

// analyzeWith is analyze with the files in overlay read from it instead of
// the disk (the fix rounds' content), and their trees from trees when it
// is not nil (analyzer.Options.Trees: only a plain check's analysis uses
// the cache's).
func (r *checkRun) analyzeWith(overlay, read map[string][]byte, trees *cache.Trees, programs analyzer.ProgramCache) (*analyzer.Result, error) {
	if overlay == nil {
		overlay = r.stdin
	}
	opts := analyzer.Options{
		Paths:       r.paths,
		Analyzers:   rules.All(),
		Policy:      r.policy(),
		MaxFileSize: r.flags.maxFileSize,
		WorkDir:     r.workDir,
		Overlay:     overlay,
		Read:        read,
		Programs:    programs,
		Progress:    r.progress,
		Split:       pyprogram.Split,
		ForceFull:   forceFull(),
	}
	if trees != nil {
		opts.Trees = trees // no typed nil: nil parses every file
	}
	return analyzer.Run(r.ctx, opts)
}

// forceFull reports whether the environment asks for analyzer.Options.
// ForceFull (analyzer.ForceFullEnv=1).
func forceFull() bool { return os.Getenv(analyzer.ForceFullEnv) == "1" }

func (r *checkRun) policy() *config.Policy {
	// No root from the working directory: each file's imports resolve
	// against its own project (config.Loader.ImportRoots), so the findings
	// are the same from anywhere.
	pol := config.NewPolicy(r.loader)
	pol.Workers = r.flags.workers
	return pol
}

// analyzeCached is analyze through the results cache (package cache),
// unless --no-cache: a plain check of an unchanged tree replays the last
// result, and one that is not replayed decodes the parse trees the cache
// holds for the files whose bytes it has seen instead of parsing them
// again. --fix, --diff and verify always analyze, and parse (the language
// server reads the trees, never writes them: server/trees.go).
// With CUDAFORKLINT_CACHE_DEBUG=1 it says on stderr what the cache did
// (the trees too, when it analyzed), and why it did not replay or store.
func (r *checkRun) analyzeCached(stderr io.Writer) (*analyzer.Result, error) {
	store := r.cacheStore()
	if store == nil || r.stdin != nil {
		return r.analyze()
	}
	key, err := cache.NewKey(Version(), r.workDir, fmt.Sprintf("%q", r.paths), r.analysisSettings(),
		fmt.Sprintf("%s=%t", analyzer.ForceFullEnv, forceFull()))
	if err != nil {
		return r.analyze()
	}
	var configFiles []string
	if r.flags.configFile != "" && !r.flags.isolated {
		configFiles = []string{r.flags.configFile}
	}
	run := cache.Run{
		Store: store, Key: key, Paths: r.paths, WorkDir: r.workDir, Policy: r.policy(),
		ConfigFiles: configFiles, MaxFileSize: r.flags.maxFileSize,
	}
	debug := os.Getenv("CUDAFORKLINT_CACHE_DEBUG") == "1"
	if debug {
		run.Log = func(why string) { fmt.Fprintln(stderr, "cache:", why) }
	}
	trees := store.Trees()
	analyzed := false
	res, outcome, err := run.Result(func(programs analyzer.ProgramCache, read map[string][]byte) (*analyzer.Result, error) {
		analyzed = true
		return r.analyzeWith(nil, read, trees, programs)
	})
	// The new trees are written now, after the run recorded its inputs:
	// writing them while it read the tree (a cache directory in the
	// project) would make it look changed, and leave the result unstored.
	// An interrupted run's pack is removed unpublished: a cancelled run
	// stores nothing.
	if r.ctx.Err() != nil {
		trees.Close()
	} else {
		trees.Flush()
	}
	if debug {
		if analyzed {
			fmt.Fprintln(stderr, "cache:", trees.Stats())
		}
		fmt.Fprintln(stderr, "cache:", outcome)
	}
	return res, err
}

// analysisSettings spells every flag that can change the result: all of
// them but those that only format it (a flag added later is in the key
// until it is listed here).
func (r *checkRun) analysisSettings() string {
	k := r.flags
	k.format, k.outputFile, k.outputs, k.color = "", "", listFlag{}, ""
	k.unsafeFixes, k.noUnsafeFixes, k.statistics, k.showSuppressed, k.exitZero = false, false, false, false, false
	k.noCache, k.cacheDir = false, ""
	k.quiet = false
	return fmt.Sprintf("%#v", k)
}

// cacheStore is the results cache of the run, or nil with --no-cache.
func (r *checkRun) cacheStore() *cache.Store {
	if r.flags.noCache {
		return nil
	}
	dir, err := r.cacheDir()
	if err != nil {
		return nil
	}
	return cache.Open(dir)
}

// cacheDir is the results cache's directory for a run from the working
// directory (--cache-dir, else the configuration's).
func (r *checkRun) cacheDir() (string, error) {
	var c *config.Config
	if r.flags.cacheDir == "" {
		var err error
		if c, err = r.loader.ConfigFor(r.workDir); err != nil {
			return "", err
		}
	}
	return cache.DirFor(r.flags.cacheDir, c, r.workDir), nil
}

// notChecked reports the files whose configuration could not be loaded
// (the configuration errors themselves are reported already).
func (r *checkRun) notChecked(res *analyzer.Result) []finding.ToolError {
	if res.Unconfigured == 0 {
		return nil
	}
	return []finding.ToolError{{Message: fmt.Sprintf("%d %s not checked: the configuration that applies to %s could not be loaded",
		res.Unconfigured, output.Plural(res.Unconfigured, "file was", "files were"), output.Plural(res.Unconfigured, "it", "them"))}}
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
