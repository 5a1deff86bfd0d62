package cli

import (
	"fmt"
	"io"
)

func runVerify(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "cudaforklint: verify is not wired yet")
	return ExitError
}
