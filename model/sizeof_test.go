package model

import (
	"testing"
	"unsafe"
)

// TestSizeof keeps the size of the structs the analysis copies most from
// growing unnoticed, as the Go compiler's sizeof_test.go does for its
// nodes: a Value is copied wherever a value set is built, and every
// summary is a list of events. 40 bytes of Value were measured at about
// 5 % of the CPU and of the peak memory on a repository the size of
// composer, and 176 bytes of event (312 before) at 17 % of its peak; a
// program has about as many Functions as the stdlib's 100,000 functions
// and lambdas, each with a Scope, and more Bindings still (docs/
// performance.md, Changes).
func TestSizeof(t *testing.T) {
	if unsafe.Sizeof(uintptr(0)) != 8 {
		t.Skip("sizes are recorded for 64-bit platforms")
	}
	tests := []struct {
		name string
		got  uintptr
		want uintptr
	}{
		{"Value", unsafe.Sizeof(Value{}), 120},
		{"event", unsafe.Sizeof(event{}), 136},
		{"effect", unsafe.Sizeof(effect{}), 88},
		{"Function", unsafe.Sizeof(Function{}), 176},
		{"Binding", unsafe.Sizeof(Binding{}), 96},
		{"Scope", unsafe.Sizeof(Scope{}), 64},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("unsafe.Sizeof(%s) = %d, want %d: keep the hot structs small, or measure the change and update the size here", tt.name, tt.got, tt.want)
		}
	}
}
