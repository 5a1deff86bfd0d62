package pytarget

import "testing"

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
	}
	for _, tt := range tests {
		r, ok := LookupRemoved(tt.name)
		switch {
		case tt.newest == 0 && ok:
			t.Errorf("LookupRemoved(%q) = %q, want no row", tt.name, r.Name)
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
		if r.Name == "" || r.RemovedIn == "" || r.LastRelease == "" || r.Evidence == "" {
			t.Errorf("row %+v lacks a field", r)
		}
		if r.NewestPython <= 0 || r.NewestPython >= buckets[Py314Early].minor {
			t.Errorf("row %s: NewestPython 3.%d, want a release before 3.14", r.Name, r.NewestPython)
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
