//go:build !unix

package server

import "time"

// cpuTime is not measured here: the benchmark leaves the metric out.
func cpuTime() time.Duration { return 0 }
