package fix

import (
	"math"

	"github.com/cudaforklint/cudaforklint/syntax"
)

// SyntaxErrors counts the regions of src the Python parser could not parse
// (len(syntax.File.Errors)); source it cannot analyse at all (not UTF-8, NUL
// bytes) counts as math.MaxInt32. It is the default Options.ParseErrors.
func SyntaxErrors(src []byte) int {
	f, err := syntax.Parse(src)
	if err != nil {
		return math.MaxInt32
	}
	return len(f.Errors)
}
