// Package cli is cudaforklint's command line: the check, verify, rule and
// server subcommands, their flags, and the exit codes (0 clean, 1 findings
// or a confirmed hazard, 2 a tool error: bad flags or config, unreadable
// input, an internal error).
package cli

import (
	"flag"
	"fmt"
	"io"
	"runtime/debug"
	"strings"
)

// Exit codes, as ruff's.
const (
	ExitClean    = 0
	ExitFindings = 1
	ExitError    = 2
)

// Version is the tool's version: the module version when installed with
// `go install ...@vX`, else this fallback.
func Version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return strings.TrimPrefix(bi.Main.Version, "v")
	}
	return "0.1.0-dev"
}

const usage = `cudaforklint finds CUDA + fork hazards in Python multiprocessing programs.

Usage:
  cudaforklint check [flags] [PATH ...]          check files and directories (default: .)
  cudaforklint verify [flags] -- COMMAND [ARG ...] run a program and confirm hazards at run time
  cudaforklint rule CODE | --all [--format json]  explain a rule
  cudaforklint server                             run the language server (LSP over stdio) for editors
  cudaforklint version                            print the version

Run 'cudaforklint COMMAND --help' for a command's flags.
`

// Main runs the command line and returns the exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return ExitError
	}
	switch args[0] {
	case "check":
		return runCheck(args[1:], stdin, stdout, stderr)
	case "verify":
		return runVerify(args[1:], stdin, stdout, stderr)
	case "rule":
		return runRule(args[1:], stdout, stderr)
	case "server":
		return runServer(args[1:], stdin, stdout, stderr)
	case "version", "--version", "-V":
		fmt.Fprintf(stdout, "cudaforklint %s\n", Version())
		return ExitClean
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return ExitClean
	}
	fmt.Fprintf(stderr, "cudaforklint: unknown command %q\n\n%s", args[0], usage)
	return ExitError
}

// parseInterspersed parses flags that may come before, between or after
// positional arguments (`check . --select CFL001`), stopping at "--".
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// listFlag is a repeatable, comma-separated list flag (--select A,B --select C).
type listFlag struct {
	vals []string
	set  bool
}

func (l *listFlag) String() string { return strings.Join(l.vals, ",") }

func (l *listFlag) Set(s string) error {
	l.set = true
	for _, v := range strings.Split(s, ",") {
		if v = strings.TrimSpace(v); v != "" {
			l.vals = append(l.vals, v)
		}
	}
	return nil
}
