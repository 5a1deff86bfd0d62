package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"github.com/cudaforklint/cudaforklint/config"
	"github.com/cudaforklint/cudaforklint/finding"
	"github.com/cudaforklint/cudaforklint/output"
	"github.com/cudaforklint/cudaforklint/ruledoc"
	"github.com/cudaforklint/cudaforklint/verify"
)

// durationFlag accepts Go durations ("90s", "2m") and plain seconds ("60"), longer than zero:
// a limit of zero or less would end the program before it ran (no limit is the flag left out).
type durationFlag struct{ d time.Duration }

func (f *durationFlag) String() string { return f.d.String() }

func (f *durationFlag) Set(s string) error {
	d, err := time.ParseDuration(s)
	if n, ferr := strconv.ParseFloat(s, 64); ferr == nil {
		// A number of seconds: one a Duration cannot hold (NaN, ±Inf, beyond 292 years) is refused
		// before the conversion, which would give an arbitrary value.
		if math.IsNaN(n) || math.Abs(n) > float64(math.MaxInt64)/float64(time.Second) {
			return fmt.Errorf("%s seconds is not a time limit", s)
		}
		d, err = time.Duration(n*float64(time.Second)), nil
	}
	if err != nil {
		return fmt.Errorf("want a duration such as 90s or 2m, or seconds: %v", err)
	}
	if d <= 0 {
		return fmt.Errorf("the time limit must be longer than zero, not %s (leave --timeout out for no limit)", s)
	}
	f.d = d
	return nil
}

func runVerify(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("verify", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var timeout durationFlag
	shim := fs.String("shim", os.Getenv("CUDAFORKLINT_SHIM"), "a prebuilt fork-tracking wrapper (default: build the embedded one once with the C compiler)")
	fs.Var(&timeout, "timeout", "kill the program's whole process group after this long, more than zero (e.g. 90s or 60; default: no limit)")
	format := fs.String("format", envOr("CUDAFORKLINT_OUTPUT_FORMAT", "full"), "output format: "+output.FormatNames())
	fs.StringVar(format, "output-format", envOr("CUDAFORKLINT_OUTPUT_FORMAT", "full"), "alias of --format")
	outputFile := fs.String("output-file", "", "write the --format output to this file")
	fs.StringVar(outputFile, "o", "", "shorthand for --output-file")
	color := fs.String("color", "auto", "colour the full format: auto, always, never")
	noStatic := fs.Bool("no-static", false, "do not run the static analysis on the program's scripts")
	quiet := fs.Bool("quiet", false, "do not print the process-tree summary to standard error")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: cudaforklint verify [flags] -- COMMAND [ARG ...]\n\n"+
			"Runs COMMAND under a fork-tracking CUDA wrapper and reports which process initialized CUDA,\n"+
			"which processes were forked from it and what their CUDA calls returned.\n"+
			"The report goes to standard error, or to the -o file; never into the program's output.\n"+
			"Exit:\n"+
			"  0  no hazard: the wrapper saw every process to its end, and they all succeeded\n"+
			"  1  a hazard confirmed\n"+
			"  2  tool error, or not verified: CUDA could not be observed (no driver library, or cuInit\n"+
			"     failed: no GPU), the wrapper did not see part of the run, or a process was still\n"+
			"     running after the program's root exited and verify ended it\n"+
			"  3  no hazard confirmed, but the program or one of its children failed, timed out or was\n"+
			"     interrupted\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return ExitClean
		}
		return ExitError
	}
	command := fs.Args()
	if len(command) == 0 {
		fs.Usage()
		return ExitError
	}
	f, err := output.ParseFormat(*format)
	if err != nil {
		return fail(stderr, err)
	}
	if *outputFile == "-" {
		return fail(stderr, errors.New("verify writes its report to standard error or to a file, never to standard output, which is the program's: give -o a file name"))
	}
	// A reader of verify's output that goes away must not kill it (exit 141) before it reports;
	// Run does the same while the program runs.
	pipeSigs := make(chan os.Signal, 1)
	signal.Notify(pipeSigs, syscall.SIGPIPE)
	defer signal.Stop(pipeSigs)
	colorOn, err := output.ColorEnabled(*color, stdoutFile(stderr), os.Getenv)
	if err != nil {
		return fail(stderr, err)
	}
	// verify reports CFL003 when it observes a benign fork, so the static pass
	// it is compared with runs that rule too, and CFL006, its forkserver twin.
	loader, err := config.NewLoader(ruledoc.All(), config.Overrides{ExtendSelect: []string{ruledoc.CFL003.Code, ruledoc.CFL006.Code}})
	if err != nil {
		return fail(stderr, err)
	}
	opts := verify.Options{
		Command: command,
		Shim:    *shim,
		Timeout: timeout.d,
		Stdin:   stdin,
		Stdout:  stdout,
		Stderr:  stderr,
	}
	var static *checkRun
	staticFiles := 0
	if !*noStatic {
		opts.Static = func(paths []string) ([]finding.Finding, error) {
			static = newCheckRun(loader, checkFlags{}, paths)
			res, err := static.analyze()
			if err != nil {
				return nil, err
			}
			staticFiles = res.Files - res.Unconfigured
			var out []finding.Finding
			for _, f := range res.Findings {
				if !f.Suppressed {
					out = append(out, f)
				}
			}
			return out, nil
		}
	}
	rep, err := verify.Run(context.Background(), opts)
	if err != nil {
		return fail(stderr, err)
	}
	if !*quiet {
		fmt.Fprintln(stderr)
		rep.WriteSummary(stderr)
	}
	code := rep.ExitCode()
	wd, _ := os.Getwd()
	or := &output.Report{
		Findings: rep.Findings,
		Rules:    ruledoc.All(),
		ExitCode: code,
		WorkDir:  wd,
		Version:  Version(),
		Args:     os.Args,
		Files:    staticFiles,
		Verified: true,
	}
	if static != nil {
		or.Rules = static.enabledDocs()
	}
	if rep.StaticError != "" {
		or.Notices = append(or.Notices, finding.Notice{Message: "static analysis failed: " + rep.StaticError})
	}
	for _, p := range rep.Problems() {
		or.Notices = append(or.Notices, finding.Notice{Message: p})
	}
	// Standard output is the program's: the report goes to the -o file, or to standard error
	// after the program's own, in every format, so that neither corrupts the other.
	if *outputFile != "" {
		if err := output.WriteFile(*outputFile, f, or, output.Options{}); err != nil {
			return fail(stderr, err)
		}
		return code
	}
	// The full format closes a report without findings with "All checks passed!", which a run
	// that failed or went unseen has not: its verdict (the summary's last line) stands instead.
	if f == output.Full && len(or.Findings) == 0 && code != verify.ExitClean {
		if *quiet {
			fmt.Fprintf(stderr, "cudaforklint verify: %s\n", rep.Verdict())
		}
		return code
	}
	// A failed write (a closed pipe) does not change the verdict: the exit code still says it.
	output.Write(stderr, f, or, output.Options{Color: colorOn && f == output.Full})
	return code
}
