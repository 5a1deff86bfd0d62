package model

import (
	"testing"

	"github.com/cudaforklint/cudaforklint/pytarget"
	"github.com/cudaforklint/cudaforklint/syntax"
)

// TestPlatformTests checks the truth of tests on the platform: a constant
// where every target is on one platform, unknown where the targets span
// platforms (both arms run) or the program was given none.
func TestPlatformTests(t *testing.T) {
	prelude := "import os\nimport platform\nimport sys\nfrom sys import platform as plat\n"
	linux, windows, macos := pytarget.Default(), pytarget.DefaultVersions()&pytarget.Platforms(pytarget.Windows), pytarget.DefaultVersions()&pytarget.Platforms(pytarget.MacOS)
	spanning := linux | windows
	tests := []struct {
		test        string
		targets     pytarget.Set
		want, known bool
	}{
		{`sys.platform != "win32"`, linux, true, true},
		{`sys.platform != "win32"`, windows, false, true},
		{`sys.platform == "linux"`, linux, true, true},
		{`plat == "darwin"`, linux, false, true},
		{`plat == "darwin"`, macos, true, true},
		{`sys.platform.startswith("win")`, linux, false, true},
		{`sys.platform.startswith(("linux", "freebsd"))`, linux, true, true},
		{`sys.platform.endswith("32")`, windows, true, true},
		{`sys.platform in ("win32", "cygwin")`, linux, false, true},
		{`sys.platform not in ["win32", "cygwin"]`, linux, true, true},
		{`"win" in sys.platform`, windows, true, true},
		{`os.name == "nt"`, linux, false, true},
		{`os.name == "posix"`, macos, true, true},
		{`platform.system() == "Windows"`, linux, false, true},
		{`platform.system() == "Darwin" or sys.platform == "linux"`, linux, true, true},
		// Targets on several platforms: not decided here.
		{`sys.platform != "win32"`, spanning, false, false},
		{`os.name == "nt"`, spanning, false, false},
		{`platform.system() == "Windows"`, spanning, false, false},
		{`sys.platform.startswith("win")`, spanning, false, false},
		{`sys.platform in ("win32", "cygwin")`, spanning, false, false},
		// No targets given: any platform.
		{`sys.platform != "win32"`, 0, false, false},
		// A membership test needs its elements written out.
		{`sys.platform in unknown_names`, linux, false, false},
	}
	for _, tt := range tests {
		src := memSource{"/p/m.py": prelude + "x_test = " + tt.test + "\n"}
		m, err := NewProgram(src, Options{Targets: tt.targets}).Module("/p/m.py")
		if err != nil {
			t.Fatal(err)
		}
		assign := m.File.Body[len(m.File.Body)-1].(*syntax.Assign)
		var ev evaluator
		got, known := ev.truth(assign.Value, m.Scope)
		if got != tt.want || known != tt.known {
			t.Errorf("%s on %v: (%v, known %v), want (%v, known %v)", tt.test, tt.targets, got, known, tt.want, tt.known)
		}
	}
}
