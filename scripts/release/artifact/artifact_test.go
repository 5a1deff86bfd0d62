package artifact

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/cudaforklint/cudaforklint/verify"
)

// The tests build with the host's C compiler, as the release does; CI has gcc and glibc 2.36
// (Debian bookworm). They need a glibc of 2.34 or newer, where a plain build of the wrapper asks
// for dlclose@GLIBC_2.34.

func compiler(t *testing.T) []string {
	t.Helper()
	cc, err := verify.FindCompiler(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return cc
}

// cbuild compiles src (C) with args into dir/out and returns its path.
func cbuild(t *testing.T, cc []string, dir, out, src string, args ...string) string {
	t.Helper()
	c := filepath.Join(dir, out+".c")
	if err := os.WriteFile(c, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, out)
	cmd := exec.Command(cc[0], append(append(append([]string{}, cc[1:]...), "-o", p, c), args...)...)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %v\n%s", cmd.Args, err, msg)
	}
	return p
}

func otherArch() string {
	if runtime.GOARCH == "arm64" {
		return "amd64"
	}
	return "arm64"
}

func TestBuildShim(t *testing.T) {
	dir := t.TempDir()
	so := filepath.Join(dir, "cudaforkshim.so")
	if err := BuildShim(context.Background(), compiler(t), runtime.GOARCH, so); err != nil {
		t.Fatal(err)
	}
	// It loads, and every symbol resolves at once (LD_BIND_NOW), on this glibc: the old
	// versions it is bound to are there. ld.so reports a preload it cannot load and goes on, so
	// the test reads stderr.
	cmd := exec.Command("/bin/true")
	cmd.Env = append(os.Environ(), "LD_PRELOAD="+so, "LD_BIND_NOW=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil || stderr.Len() > 0 {
		t.Errorf("LD_PRELOAD=%s /bin/true: %v\n%s", so, err, stderr.String())
	}
	if err := CheckShim(so, otherArch()); err == nil || !strings.Contains(err.Error(), "want a") {
		t.Errorf("CheckShim for %s: %v, want a wrong-machine error", otherArch(), err)
	}
}

func TestCheckShimRejects(t *testing.T) {
	cc := compiler(t)
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain.so")
	if err := verify.BuildShim(context.Background(), cc, plain); err != nil {
		t.Fatal(err)
	}
	lib := "#include <math.h>\ndouble f(double x) { return sqrt(x); }\n"
	tests := []struct {
		name, path, want string
	}{
		{"the wrapper built without glibc_compat.h", plain, "dlclose"},
		{"a library besides glibc's", cbuild(t, cc, dir, "libm.so", lib, "-shared", "-fPIC", "-Wl,--no-as-needed", "-lm", "-l:libdl.so.2"), "needs libm.so.6"},
		{"no libdl", cbuild(t, cc, dir, "nodl.so", lib, "-shared", "-fPIC"), "does not need libdl.so.2"},
		{"an executable", cbuild(t, cc, dir, "exe", "int main(void) { return 0; }\n", "-pie", "-fPIE"), "is an executable"},
	}
	for _, tt := range tests {
		err := CheckShim(tt.path, runtime.GOARCH)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: CheckShim = %v, want an error with %q", tt.name, err, tt.want)
		}
	}
	if err := CheckShim(plain, runtime.GOARCH); err == nil || !strings.Contains(err.Error(), "GLIBC_2.34") {
		t.Errorf("the plain wrapper: %v, want GLIBC_2.34 named", err)
	}
}

func TestCheckStatic(t *testing.T) {
	cc := compiler(t)
	dir := t.TempDir()
	src := "#include <stdio.h>\nint main(void) { puts(\"hi\"); return 0; }\n"
	static := cbuild(t, cc, dir, "static", src, "-static")
	if err := CheckStatic(static, runtime.GOARCH); err != nil {
		t.Errorf("a static executable: %v", err)
	}
	tests := []struct{ name, path, goarch, want string }{
		{"dynamic", cbuild(t, cc, dir, "dynamic", src, "-no-pie"), runtime.GOARCH, "dynamically linked"},
		{"pie", cbuild(t, cc, dir, "pie", src, "-pie", "-fPIE"), runtime.GOARCH, "want a"},
		{"another architecture", static, otherArch(), "want a"},
		{"an unknown architecture", static, "riscv64", "no ELF machine"},
		{"not ELF", filepath.Join(dir, "static.c"), runtime.GOARCH, "static.c"},
	}
	for _, tt := range tests {
		err := CheckStatic(tt.path, tt.goarch)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: CheckStatic = %v, want an error with %q", tt.name, err, tt.want)
		}
	}
}

func TestGlibcAtMost(t *testing.T) {
	tests := []struct {
		v    string
		want bool
	}{
		{"GLIBC_2.2.5", true},
		{"GLIBC_2.3.4", true},
		{"GLIBC_2.14", true},
		{"GLIBC_2.17", true},
		{"GLIBC_2.18", false},
		{"GLIBC_2.34", false},
		{"GLIBC_3.0", false},
		{"GLIBC_PRIVATE", false},
		{"GCC_3.0", false},
		{"GLIBC_2", false},
	}
	for _, tt := range tests {
		if got := glibcAtMost(tt.v, [2]int{2, 17}); got != tt.want {
			t.Errorf("glibcAtMost(%s, 2.17) = %v, want %v", tt.v, got, tt.want)
		}
	}
}
