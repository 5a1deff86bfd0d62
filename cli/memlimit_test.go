package cli

import (
	"math"
	"os"
	"runtime/debug"
	"testing"

	"github.com/KimMachineGun/automemlimit/memlimit"
)

// TestCheckSetsTheMemoryLimit: check sets the runtime's soft memory limit
// to 90 % of what the container (here a stand-in provider) allows, unless
// the user set GOMEMLIMIT or AUTOMEMLIMIT=off; AUTOMEMLIMIT changes the share.
func TestCheckSetsTheMemoryLimit(t *testing.T) {
	defer func(p memlimit.Provider) { memoryProvider = p }(memoryProvider)
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	const container = 1 << 30
	memoryProvider = memlimit.Limit(container)
	dir := t.TempDir()
	write(t, dir, "app.py", "x = 1\n")
	tests := []struct {
		name, env, value string
		want             int64
	}{
		{"from the container", "", "", container * 9 / 10},
		{"GOMEMLIMIT wins", "GOMEMLIMIT", "123MiB", math.MaxInt64},
		{"AUTOMEMLIMIT=off", "AUTOMEMLIMIT", "off", math.MaxInt64},
		{"AUTOMEMLIMIT=0.5", "AUTOMEMLIMIT", "0.5", container / 2},
	}
	for _, tt := range tests {
		if tt.env != "" {
			t.Setenv(tt.env, tt.value)
		}
		debug.SetMemoryLimit(math.MaxInt64) // what a process starts with
		if code, _, errs := run(t, dir, "check", "--no-cache", "app.py"); code != ExitClean {
			t.Fatalf("%s: exit %d: %s", tt.name, code, errs)
		}
		if got := debug.SetMemoryLimit(-1); got != tt.want {
			t.Errorf("%s: memory limit %d, want %d", tt.name, got, tt.want)
		}
		if tt.env != "" {
			os.Unsetenv(tt.env)
		}
	}
}
