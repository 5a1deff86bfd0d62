package procapi

import (
	"testing"

	"github.com/cudaforklint/cudaforklint/pytarget"
)

func TestImportSetters(t *testing.T) {
	for _, s := range ImportSetters() {
		if _, ok := pytarget.ParseStartMethod(s.StartMethod); !ok {
			t.Errorf("%s: start method %q", s.Module, s.StartMethod)
		}
		found := false
		for _, f := range Families() {
			found = found || f.Name == s.Family
		}
		if !found || s.Evidence == "" || s.Module == "" {
			t.Errorf("%s: family %q, evidence %q", s.Module, s.Family, s.Evidence)
		}
	}
	tests := []struct {
		module string
		want   bool
	}{
		{"torchrl", true},
		{"torchrl.envs.libs.gym", true},
		{"torch", false},
		{"torch_geometric", false},
		{"torchrlx", false},
	}
	for _, tt := range tests {
		if _, ok := LookupImport(tt.module); ok != tt.want {
			t.Errorf("LookupImport(%q) = %v, want %v", tt.module, ok, tt.want)
		}
	}
}
