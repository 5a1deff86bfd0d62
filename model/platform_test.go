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
		{`platform.system() in {"Linux", "Darwin"}`, macos, true, true},
		{`os.name not in ("nt",)`, windows, false, true},
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

// TestPlatformArms checks the arm each platform runs of an if whose test
// is on the platform, where the targets span platforms.
func TestPlatformArms(t *testing.T) {
	prelude := "import os\nimport platform\nimport sys\n"
	spanning := pytarget.DefaultVersions()
	tests := []struct {
		test string
		// want is the arm (0 the body, 1 the else, -1 both) on Linux,
		// macOS and Windows.
		want [3]int
	}{
		{`sys.platform != "win32"`, [3]int{0, 0, 1}},
		{`sys.platform == "darwin"`, [3]int{1, 0, 1}},
		{`os.name == "nt"`, [3]int{1, 1, 0}},
		{`platform.system() in ("Darwin", "Windows")`, [3]int{1, 0, 0}},
		{`sys.platform.startswith("win")`, [3]int{1, 1, 0}},
		{`"win" in sys.platform`, [3]int{1, 0, 0}}, // "darwin" holds "win" too
		{`sys.platform == "linux" and unknown_flag`, [3]int{-1, 1, 1}},
		{`not unknown_flag`, [3]int{-1, -1, -1}},
	}
	for _, tt := range tests {
		src := memSource{"/p/m.py": prelude + "if " + tt.test + ":\n    pass\n"}
		m, err := NewProgram(src, Options{Targets: spanning}).Module("/p/m.py")
		if err != nil {
			t.Fatal(err)
		}
		ifs := m.File.Body[len(m.File.Body)-1].(*syntax.If)
		var ev evaluator
		arms := ev.platformArms(ifs.Test, m.Scope)
		for pl := range pytarget.Platform(numPlatforms) {
			got, ok := arms.on(pl)
			if !ok {
				got = -1
			}
			if got != tt.want[pl] {
				t.Errorf("%s on %v: arm %d, want %d", tt.test, pl, got, tt.want[pl])
			}
		}
	}
}
