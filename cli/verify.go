package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/cudaforklint/cudaforklint/config"
	"github.com/cudaforklint/cudaforklint/finding"
	"github.com/cudaforklint/cudaforklint/output"
	"github.com/cudaforklint/cudaforklint/ruledoc"
	"github.com/cudaforklint/cudaforklint/verify"
)

// durationFlag accepts Go durations ("90s", "2m") and plain seconds ("60").
type durationFlag struct{ d time.Duration }

func (f *durationFlag) String() string { return f.d.String() }

func (f *durationFlag) Set(s string) error {
	if n, err := strconv.ParseFloat(s, 64); err == nil {
		f.d = time.Duration(n * float64(time.Second))
		return nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf("want a duration such as 90s or 2m, or seconds: %v", err)
	}
	f.d = d
	return nil
}

func runVerify(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("verify", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var timeout durationFlag
	shim := fs.String("shim", os.Getenv("CUDAFORKLINT_SHIM"), "a prebuilt fork-tracking wrapper (default: build the embedded one once with the C compiler)")
	fs.Var(&timeout, "timeout", "kill the program's whole process group after this long (e.g. 90s; default: no limit)")
	format := fs.String("format", envOr("CUDAFORKLINT_OUTPUT_FORMAT", "full"), "output format: full, concise, json, json-lines, github, sarif")
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
			"Exit: 0 no hazard and the program succeeded, 1 a hazard confirmed, 2 tool error,\n"+
			"3 no hazard confirmed but the program failed, timed out or was interrupted.\n\nFlags:\n")
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
	colorOn, err := output.ColorEnabled(*color, stdoutFile(stderr), os.Getenv)
	if err != nil {
		return fail(stderr, err)
	}
	// verify reports CFL003 when it observes a benign fork, so the static pass
	// it is compared with runs that rule too, and CFL006, its forkserver twin.
	loader, err := config.NewLoader(ruledoc.All(), config.Overrides{ExtendSelect: []string{"CFL003", "CFL006"}})
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
	if !*noStatic {
		opts.Static = func(paths []string) ([]finding.Finding, error) {
			static = newCheckRun(loader, checkFlags{}, paths)
			res, err := static.analyze()
			if err != nil {
				return nil, err
			}
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
	}
	if static != nil {
		or.Rules = static.enabledDocs()
	}
	if rep.StaticError != "" {
		or.Notices = append(or.Notices, finding.Notice{Message: "static analysis failed: " + rep.StaticError})
	}
	// The program's own output went to stdout; the report follows on stderr
	// unless a file is asked for, so that piping the program still works.
	dest := stderr
	if *outputFile != "" {
		if err := output.WriteFile(*outputFile, f, or, output.Options{}); err != nil {
			return fail(stderr, err)
		}
		return code
	}
	if f != output.Full {
		dest = stdout
	}
	if err := output.Write(dest, f, or, output.Options{Color: colorOn && f == output.Full}); err != nil {
		return fail(stderr, err)
	}
	return code
}
