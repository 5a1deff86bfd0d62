package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/cudaforklint/cudaforklint/ruledoc"
)

func runRule(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("rule", flag.ContinueOnError)
	fs.SetOutput(stderr)
	all := fs.Bool("all", false, "explain every rule")
	format := fs.String("format", "text", "text or json")
	fs.StringVar(format, "output-format", "text", "alias of --format")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: cudaforklint rule CODE | --all [--format text|json]\n\nFlags:\n")
		fs.PrintDefaults()
	}
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return ExitClean
		}
		return ExitError
	}
	var docs []*ruledoc.Doc
	switch {
	case *all && len(pos) == 0:
		docs = ruledoc.All()
	case !*all && len(pos) == 1:
		d, ok := ruledoc.ByCode(strings.ToUpper(pos[0]))
		if !ok {
			return fail(stderr, fmt.Errorf("unknown rule %q (see `cudaforklint rule --all`)", pos[0]))
		}
		docs = []*ruledoc.Doc{d}
	default:
		fs.Usage()
		return ExitError
	}
	switch *format {
	case "text":
		if err := ruledoc.WriteText(stdout, docs); err != nil {
			return fail(stderr, err)
		}
	case "json":
		if err := ruledoc.WriteJSON(stdout, docs, !*all); err != nil {
			return fail(stderr, err)
		}
	default:
		return fail(stderr, fmt.Errorf("unknown format %q (want text or json)", *format))
	}
	return ExitClean
}
