package verify

import (
	"bytes"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

//go:embed shim/cudaforkshim.c
var shimSource []byte

// ShimCFlags are the flags the wrapper is built with; tests add -Werror.
var ShimCFlags = []string{"-std=gnu99", "-O2", "-fPIC", "-shared", "-fvisibility=hidden", "-Wall", "-Wextra"}

// ShimLibs are the libraries it is linked with.
var ShimLibs = []string{"-ldl", "-lpthread"}

// ErrNoCompiler is returned when no C compiler can be found to build the wrapper.
var ErrNoCompiler = errors.New("cudaforklint verify builds its wrapper from C source and found no C compiler: " +
	"install a C compiler (e.g. apt-get install gcc) or pass --shim PATH")

// shimKey names a build of the wrapper for this binary's OS and architecture.
func shimKey() string { return ShimKey(runtime.GOOS, runtime.GOARCH) }

// ShimKey names a build of the wrapper: the source and the flags, for an OS and architecture. It
// names the cached build (EnsureShim) and stamps a prebuilt one, so that a binary never uses a
// wrapper built from another source.
func ShimKey(goos, goarch string) string {
	h := sha256.New()
	h.Write(shimSource)
	fmt.Fprintf(h, "\x00%s\x00%s/%s", strings.Join(append(append([]string{}, ShimCFlags...), ShimLibs...), " "),
		goos, goarch)
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// A prebuiltWrapper is the wrapper compiled at release time and carried in the binary, for users
// who have no C compiler.
type prebuiltWrapper struct {
	key string // the ShimKey it was built for
	so  []byte
}

// prebuilt is set by shim_prebuilt.go in binaries built with -tags prebuiltshim
// (scripts/release), and nil in a plain `go build`, which compiles the wrapper at run time.
var prebuilt *prebuiltWrapper

// prebuiltShim returns the carried wrapper when it was built from this binary's source for this
// platform, and nil otherwise (then the wrapper is compiled as in a plain build).
func prebuiltShim() []byte {
	if prebuilt == nil || prebuilt.key != shimKey() || len(prebuilt.so) == 0 {
		return nil
	}
	return prebuilt.so
}

// EnsureShim returns the path of the built wrapper in cacheDir (empty: the user cache directory,
// os.UserCacheDir()/cudaforklint), building it first when that build is missing. A release binary
// (scripts/release) carries the wrapper prebuilt and writes it there instead, so that it needs no
// C compiler. Builds are keyed by the source's hash and written atomically, so concurrent runs and
// upgrades are safe.
func EnsureShim(ctx context.Context, cacheDir string) (string, error) {
	if cacheDir == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			base = os.TempDir()
		}
		cacheDir = filepath.Join(base, "cudaforklint")
	}
	path := filepath.Join(cacheDir, "cudaforkshim-"+shimKey()+".so")
	if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() && st.Size() > 0 {
		return path, nil
	}
	if so := prebuiltShim(); so != nil {
		if err := writeShim(path, so); err != nil {
			return "", err
		}
		return path, nil
	}
	cc, err := FindCompiler(ctx)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(cacheDir, 0o755); err != nil {
		return "", fmt.Errorf("building the wrapper: %w", err)
	}
	if err := BuildShim(ctx, cc, path); err != nil {
		return "", err
	}
	return path, nil
}

// writeShim writes the carried wrapper to path, atomically (a temporary file in its directory,
// then a rename), as BuildShim does.
func writeShim(path string, so []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("writing the wrapper: %w", err)
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".cudaforkshim-*.so")
	if err != nil {
		return fmt.Errorf("writing the wrapper: %w", err)
	}
	defer os.Remove(f.Name())
	_, err = f.Write(so)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o755)
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		return fmt.Errorf("writing the wrapper: %w", err)
	}
	return nil
}

// BuildShim compiles the wrapper with the compiler command cc (a program and its own flags, as
// `go env CC` prints it) into out, atomically (a temporary file in out's directory, then a
// rename). extra flags go before the libraries.
func BuildShim(ctx context.Context, cc []string, out string, extra ...string) error {
	if len(cc) == 0 {
		return ErrNoCompiler
	}
	dir := filepath.Dir(out)
	src, err := os.CreateTemp(dir, ".cudaforkshim-*.c")
	if err != nil {
		return fmt.Errorf("building the wrapper: %w", err)
	}
	defer os.Remove(src.Name())
	if _, err := src.Write(shimSource); err != nil {
		src.Close()
		return fmt.Errorf("building the wrapper: %w", err)
	}
	if err := src.Close(); err != nil {
		return fmt.Errorf("building the wrapper: %w", err)
	}
	tmp := strings.TrimSuffix(src.Name(), ".c") + ".so"
	defer os.Remove(tmp)
	args := append(append(append(append([]string{}, cc[1:]...), ShimCFlags...), extra...), "-o", tmp, src.Name())
	args = append(args, ShimLibs...)
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, cc[0], args...)
	var msg bytes.Buffer
	cmd.Stdout, cmd.Stderr = &msg, &msg
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("building the wrapper with %s failed (%v):\n%s", strings.Join(cc, " "), err, strings.TrimSpace(msg.String()))
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return fmt.Errorf("building the wrapper: %w", err)
	}
	if err := os.Rename(tmp, out); err != nil {
		return fmt.Errorf("building the wrapper: %w", err)
	}
	return nil
}

// FindCompiler finds a C compiler: `go env CC` (when go is installed), then $CC, cc, gcc, clang.
// It returns the command split into words.
func FindCompiler(ctx context.Context) ([]string, error) {
	var candidates [][]string
	if goBin, err := exec.LookPath("go"); err == nil {
		ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
		out, err := exec.CommandContext(ctx, goBin, "env", "CC").Output()
		cancel()
		if err == nil {
			candidates = append(candidates, strings.Fields(string(out)))
		}
	}
	candidates = append(candidates, strings.Fields(os.Getenv("CC")), []string{"cc"}, []string{"gcc"}, []string{"clang"})
	return pickCompiler(candidates, exec.LookPath)
}

func pickCompiler(candidates [][]string, lookPath func(string) (string, error)) ([]string, error) {
	for _, c := range candidates {
		if len(c) == 0 {
			continue
		}
		if p, err := lookPath(c[0]); err == nil {
			return append([]string{p}, c[1:]...), nil
		}
	}
	return nil, ErrNoCompiler
}
