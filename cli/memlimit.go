package cli

import "github.com/KimMachineGun/automemlimit/memlimit"

// memoryProvider gives the memory a run may use: its container's limit
// (cgroup v1 or v2), or else the machine's memory.
var memoryProvider = memlimit.ApplyFallback(memlimit.FromCgroup, memlimit.FromSystem)

// limitMemory sets the Go runtime's soft memory limit to 90 % of what
// memoryProvider gives. The analysis holds a whole program in memory, and
// the collector lets the heap grow to about twice what is live before it
// collects, so in a container or on a CI runner a run whose live heap fits
// could still be killed at its peak: near the limit the collector works
// harder instead (measured: the stdlib four times, forced full, in a
// 2.5 GB cgroup, was killed at 2.6 GB without it and finished at 2.37 GB
// with it). GOMEMLIMIT, when the user sets it, wins, and AUTOMEMLIMIT=off
// turns this off (the library's variables); a limit it cannot read sets
// nothing.
func limitMemory() {
	_, _ = memlimit.Set(memlimit.WithProvider(memoryProvider))
}
