//go:build !unix

package verify

import "context"

// Run returns ErrNeedsLinux: on this system there is no LD_PRELOAD to load the wrapper with, and
// none of the process groups, signals and /proc that the process tree is read from.
func Run(ctx context.Context, opts Options) (*Report, error) {
	return nil, ErrNeedsLinux
}
