package verify

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestEnsureShimPrebuilt: a release binary carries the wrapper (shim_prebuilt.go) and must use it
// with no C compiler anywhere, but only when it was built from this source for this platform.
func TestEnsureShimPrebuilt(t *testing.T) {
	so := []byte("\x7fELF the wrapper built at release time")
	otherArch := "arm64"
	if runtime.GOARCH == "arm64" {
		otherArch = "amd64"
	}
	tests := []struct {
		name    string
		carried *prebuiltWrapper
		wantErr error // nil: the carried bytes are written to the cache
	}{
		{"built for this source and platform", &prebuiltWrapper{key: shimKey(), so: so}, nil},
		{"built for another architecture", &prebuiltWrapper{key: ShimKey(runtime.GOOS, otherArch), so: so}, ErrNoCompiler},
		{"built from another source", &prebuiltWrapper{key: "0123456789abcdef", so: so}, ErrNoCompiler},
		{"empty", &prebuiltWrapper{key: shimKey()}, ErrNoCompiler},
		{"none (a plain go build)", nil, ErrNoCompiler},
	}
	saved := prebuilt
	t.Cleanup(func() { prebuilt = saved })
	t.Setenv("PATH", "") // no go, no cc: FindCompiler fails
	t.Setenv("CC", "")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			prebuilt = tt.carried
			dir := filepath.Join(t.TempDir(), "cache") // EnsureShim creates it
			path, err := EnsureShim(context.Background(), dir)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("EnsureShim: got %q, %v; want error %v", path, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if filepath.Dir(path) != dir || filepath.Base(path) != "cudaforkshim-"+shimKey()+".so" {
				t.Errorf("path = %s, want cudaforkshim-%s.so in %s", path, shimKey(), dir)
			}
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, so) {
				t.Errorf("the cached wrapper holds %q, want the carried bytes", got)
			}
			st1, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if st1.Mode().Perm() != 0o755 {
				t.Errorf("mode %v, want 0755", st1.Mode().Perm())
			}
			again, err := EnsureShim(context.Background(), dir)
			if err != nil {
				t.Fatal(err)
			}
			st2, err := os.Stat(again)
			if err != nil {
				t.Fatal(err)
			}
			if again != path || !st2.ModTime().Equal(st1.ModTime()) {
				t.Errorf("the second call wrote the wrapper again")
			}
			if ents, _ := os.ReadDir(dir); len(ents) != 1 {
				t.Errorf("cache holds %d entries, want the wrapper alone (no temporary files left)", len(ents))
			}
		})
	}
}

// TestShimKey: a prebuilt wrapper is trusted by its key alone, so the key must differ between
// platforms and change with the source.
func TestShimKey(t *testing.T) {
	seen := map[string]string{}
	for _, p := range [][2]string{{"linux", "amd64"}, {"linux", "arm64"}, {"windows", "amd64"}} {
		k := ShimKey(p[0], p[1])
		if len(k) != 16 {
			t.Errorf("ShimKey(%s, %s) = %q, want 16 hex digits", p[0], p[1], k)
		}
		if other, dup := seen[k]; dup {
			t.Errorf("ShimKey(%s/%s) = ShimKey(%s) = %s: platforms must not share a build", p[0], p[1], other, k)
		}
		seen[k] = p[0] + "/" + p[1]
	}
	before := ShimKey("linux", "amd64")
	saved := shimSource
	t.Cleanup(func() { shimSource = saved })
	shimSource = append(append([]byte{}, saved...), '\n')
	if ShimKey("linux", "amd64") == before {
		t.Errorf("ShimKey did not change with the source")
	}
}
