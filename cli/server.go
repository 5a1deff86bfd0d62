package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/cudaforklint/cudaforklint/server"
)

// runServer runs the language server on standard input and output. It
// exits 0 after the client's shutdown and exit, 1 when the client left
// without a shutdown (as LSP asks), 2 on a bad flag or a broken stream.
func runServer(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	limitMemory()
	fs := flag.NewFlagSet("server", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: cudaforklint server\n\n"+
			"Runs the language server (LSP) on standard input and output, for editors.\n"+
			"Settings come from the configuration files, as for check; the client may\n"+
			"pass initializationOptions {\"debounceMs\": 150}.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	// Some clients pass --stdio; it is the only transport.
	fs.Bool("stdio", true, "talk over standard input and output (the default and only transport)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return ExitClean
		}
		return ExitError
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "cudaforklint server: unexpected argument %q\n", fs.Arg(0))
		return ExitError
	}
	err := server.Serve(context.Background(), stdio{stdin, stdout}, server.Options{Version: Version(), Log: stderr, ForceFull: forceFull()})
	switch {
	case err == nil:
		return ExitClean
	case errors.Is(err, server.ErrNoShutdown):
		return ExitFindings
	}
	return fail(stderr, err)
}

// stdio joins standard input and output into the connection's stream.
// Closing it closes neither: the process is about to exit.
type stdio struct {
	io.Reader
	io.Writer
}

func (stdio) Close() error { return nil }
