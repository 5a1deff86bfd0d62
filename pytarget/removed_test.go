package pytarget

import (
	"fmt"
	"testing"
)

func TestLookupRemoved(t *testing.T) {
	tests := []struct {
		name   string
		newest int // 0: no row
	}{
		{"torch._six", 11},
		{"torch._six.container_abcs", 11},
		{"torch._sixteen", 0},
		{"torch._utils._accumulate", 12},
		{"torch._utils", 0},
		{"torch._utils._rebuild_tensor_v2", 0},
		{"torch.utils.ffi", 7},
		{"torch.utils.ffi.create_extension", 7},
		{"torch.utils.cpp_extension", 0},
		{"torch", 0},
		{"torchvision.models.utils", 9},
		{"torchvision.models.resnet", 0},
		{"numpy.lib.arraypad", 12},
		{"numpy.lib.arraypad.pad", 12},
		{"numpy.lib.arrayterator", 12},
		{"numpy.lib.stride_tricks", 0},
		{"numpy.lib.npyio", 0},
		{"numpy.lib", 0},
		{"numpy.float", 0}, // put back by the programs that read it
		{"time.clock", 7},
		{"time.perf_counter", 0},
		{"scipy.misc.imread", 8},
		{"scipy.misc.imresize", 8},
		{"scipy.misc", 0},
		{"scipy.misc.face", 0},
		{"sklearn.externals.joblib", 8},
		{"sklearn.externals.joblib.dump", 8},
		{"sklearn.externals", 0},
		{"sklearn.cross_validation", 7},
		{"sklearn.model_selection", 0},
		{"fractions.gcd", 8},
		{"fractions.Fraction", 0},
		{"collections.Mapping", 9},
		{"collections.Iterable", 9},
		{"collections.OrderedDict", 0},
		{"collections.abc", 0},
		{"collections.abc.Mapping", 0},
		{"inspect.getargspec", 10},
		{"inspect.getfullargspec", 0},
		// Put back by distributions on PyPI: no row.
		{"distutils", 0},
		{"imp", 0},
		{"imghdr", 0},
	}
	for _, tt := range tests {
		r, ok := LookupRemoved(tt.name)
		switch {
		case tt.newest == 0 && ok:
			t.Errorf("LookupRemoved(%q) = %v, want no row", tt.name, r.Names)
		case tt.newest != 0 && !ok:
			t.Errorf("LookupRemoved(%q): no row, want one bounding 3.%d", tt.name, tt.newest)
		case ok && r.NewestPython != tt.newest:
			t.Errorf("LookupRemoved(%q).NewestPython = %d, want %d", tt.name, r.NewestPython, tt.newest)
		}
	}
}

// TestRemovedRowsCiteEvidence: a row without its releases and evidence
// cannot be checked, and one whose library release supports 3.14 bounds
// nothing this package models.
func TestRemovedRowsCiteEvidence(t *testing.T) {
	for _, r := range RemovedAPIs() {
		if r.Library == "" || len(r.Names) == 0 || r.RemovedIn == "" || r.LastRelease == "" || r.Evidence == "" {
			t.Errorf("row %+v lacks a field", r)
		}
		if r.NewestPython <= 0 || r.NewestPython >= buckets[Py314Early].minor {
			t.Errorf("row %v: NewestPython 3.%d, want a release before 3.14", r.Names, r.NewestPython)
		}
		// The standard library's last release is the last CPython minor
		// that had the names, which is the newest Python they run on.
		if r.Library == "CPython" && r.LastRelease != fmt.Sprintf("3.%d", r.NewestPython) {
			t.Errorf("row %v: CPython's last release %s, newest Python 3.%d", r.Names, r.LastRelease, r.NewestPython)
		}
	}
}

func TestUpTo(t *testing.T) {
	linux, win := Platforms(Linux), Platforms(Windows)
	tests := []struct {
		set   Set
		minor int
		want  Set
	}{
		{Default(), 11, Versions(Py311, Py311) & linux},
		{Default(), 12, Versions(Py311, Py312) & linux},
		{Default(), 13, Versions(Py311, Py313Late) & linux},
		{Default(), 15, Default()},
		// Older than every target: the oldest stands for it.
		{Default(), 7, Versions(Py311, Py311) & linux},
		{All() & linux, 7, Versions(Py310, Py310) & linux},
		// Per platform.
		{Versions(Py311, Py315)&linux | Versions(Py313Early, Py315)&win, 12,
			Versions(Py311, Py312)&linux | Versions(Py313Early, Py313Early)&win},
		{0, 11, 0},
	}
	for _, tt := range tests {
		if got := tt.set.UpTo(tt.minor); got != tt.want {
			t.Errorf("%s UpTo(%d) = %s, want %s", tt.set.Describe(), tt.minor, got.Describe(), tt.want.Describe())
		}
	}
}
