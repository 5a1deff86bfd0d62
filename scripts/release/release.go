//go:build ignore

// release builds cudaforklint's release files, for users who have neither Go nor a C compiler:
// for each platform a self-contained executable and a platform wheel that installs it
// (`pip install cudaforklint-*.whl` puts cudaforklint on PATH), and SHA256SUMS over them.
// scripts/release/build.sh runs it from the repository root; docs/install.md is the user's side.
//
//	go run ./scripts/release/release.go [-out dist] [PLATFORM ...]
//
// PLATFORMs are linux/amd64, linux/arm64 and windows/amd64 (all three by default). Per platform:
//
//  1. Linux: the verify wrapper is built with the platform's C compiler, bound to old glibc
//     symbol versions, and checked (scripts/release/artifact); it is written to verify/prebuilt/
//     with the ShimKey it was built for, where -tags prebuiltshim embeds it (verify/shim_prebuilt.go).
//  2. The executable is built with cgo (tree-sitter) and linked statically: one Linux build runs on
//     every distribution, glibc or musl, and the Windows one needs no MinGW DLL. osusergo,netgo
//     keep os/user and net off glibc's NSS, which a static glibc binary cannot load.
//  3. It is checked (static, right machine), run when this machine can run it (natively or under
//     qemu-user), and packed into a wheel (scripts/release/wheel).
//
// The version is the one the binary reports (`cudaforklint version`): the git tag when built on a
// tagged commit (-buildvcs), a pseudo-version between tags, cli.Version's fallback without git. The
// wheel carries its PEP 440 spelling. A release version must match the pin of the
// cudaforklint-wheel hook in .pre-commit-hooks.yaml.
//
// The C compilers are those Debian ships (apt-get install gcc-aarch64-linux-gnu
// gcc-mingw-w64-x86-64); CC_linux_arm64=... (CC_<GOOS>_<GOARCH>) names another.
package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"debug/buildinfo"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/cudaforklint/cudaforklint/cli"
	"github.com/cudaforklint/cudaforklint/scripts/release/artifact"
	"github.com/cudaforklint/cudaforklint/scripts/release/wheel"
	"github.com/cudaforklint/cudaforklint/verify"
)

const modulePath = "github.com/cudaforklint/cudaforklint"

// A platform is one target of the release and how to build for it.
type platform struct {
	goos, goarch string
	cc           string // the C compiler when this is not the host
	pkg          string // the Debian package that has it
}

var platforms = []platform{
	{"linux", "amd64", "x86_64-linux-gnu-gcc", "gcc-x86-64-linux-gnu"},
	{"linux", "arm64", "aarch64-linux-gnu-gcc", "gcc-aarch64-linux-gnu"},
	{"windows", "amd64", "x86_64-w64-mingw32-gcc", "gcc-mingw-w64-x86-64"},
}

var defaultPlatforms = []string{"linux/amd64", "linux/arm64", "windows/amd64"}

func (p platform) String() string { return p.goos + "/" + p.goarch }

func (p platform) exe() string {
	if p.goos == "windows" {
		return "cudaforklint.exe"
	}
	return "cudaforklint"
}

// A built is one platform's executable, checked.
type built struct {
	platform
	data      []byte
	goVersion string // what `cudaforklint version` prints
}

func main() {
	out := flag.String("out", "dist", "the directory the release files are written to")
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: go run ./scripts/release/release.go [-out DIR] [PLATFORM ...]\n"+
			"PLATFORMs: linux/amd64 linux/arm64 windows/amd64 (default: %s)\n", strings.Join(defaultPlatforms, " "))
		flag.PrintDefaults()
	}
	flag.Parse()
	if err := run(context.Background(), *out, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "release:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, out string, names []string) error {
	if err := checkRoot(); err != nil {
		return err
	}
	targets, err := parsePlatforms(names)
	if err != nil {
		return err
	}
	// Every compiler first, so that a missing one fails before minutes of building.
	ccs := map[string][]string{}
	for _, p := range targets {
		if ccs[p.String()], err = compilerFor(ctx, p); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	defer os.RemoveAll(filepath.Join("verify", "prebuilt"))
	var builds []built
	for _, p := range targets {
		b, err := build(ctx, p, ccs[p.String()])
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		builds = append(builds, b)
	}
	goVersion := builds[0].goVersion
	for _, b := range builds[1:] {
		if b.goVersion != goVersion {
			return fmt.Errorf("the builds report different versions: %s %s, %s %s", builds[0].platform, goVersion, b.platform, b.goVersion)
		}
	}
	version, err := wheel.Version(goVersion)
	if err != nil {
		return err
	}
	if err := checkHookPin(version); err != nil {
		return err
	}
	var files []string
	for _, b := range builds {
		fs, err := pack(b, version, out)
		if err != nil {
			return fmt.Errorf("%s: %w", b.platform, err)
		}
		files = append(files, fs...)
	}
	if err := writeSums(out, files); err != nil {
		return err
	}
	fmt.Printf("\ncudaforklint %s (wheel version %s), in %s:\n", goVersion, version, out)
	for _, f := range append(files, "SHA256SUMS") {
		fmt.Printf("  %s\n", f)
	}
	return nil
}

// checkRoot makes sure the working directory is the module's root: the tool writes
// verify/prebuilt/ and builds ./cmd/cudaforklint.
func checkRoot() error {
	data, err := os.ReadFile("go.mod")
	if err != nil || !bytes.Contains(data, []byte("module "+modulePath+"\n")) {
		return fmt.Errorf("run this from the root of the %s repository (scripts/release/build.sh does)", modulePath)
	}
	return nil
}

func parsePlatforms(names []string) ([]platform, error) {
	if len(names) == 0 {
		names = defaultPlatforms
	}
	var out []platform
	seen := map[string]bool{}
	for _, n := range names {
		found := false
		for _, p := range platforms {
			if p.String() == n {
				found = true
				if !seen[n] {
					out = append(out, p)
				}
				seen[n] = true
			}
		}
		if !found {
			var known []string
			for _, p := range platforms {
				known = append(known, p.String())
			}
			return nil, fmt.Errorf("unknown platform %q (known: %s)", n, strings.Join(known, " "))
		}
	}
	return out, nil
}

// compilerFor finds the C compiler for p: $CC_<GOOS>_<GOARCH>, else the host's own compiler
// (verify.FindCompiler) for the host platform, else the cross compiler Debian names.
func compilerFor(ctx context.Context, p platform) ([]string, error) {
	env := "CC_" + p.goos + "_" + p.goarch
	if cc := strings.Fields(os.Getenv(env)); len(cc) > 0 {
		if _, err := exec.LookPath(cc[0]); err != nil {
			return nil, fmt.Errorf("%s=%s: %w", env, cc[0], err)
		}
		return cc, nil
	}
	if p.goos == runtime.GOOS && p.goarch == runtime.GOARCH {
		return verify.FindCompiler(ctx)
	}
	if _, err := exec.LookPath(p.cc); err != nil {
		return nil, fmt.Errorf("%s needs the C compiler %s (Debian: apt-get install %s, or set %s)", p, p.cc, p.pkg, env)
	}
	return []string{p.cc}, nil
}

// build builds and checks p's executable.
func build(ctx context.Context, p platform, cc []string) (built, error) {
	fmt.Printf("== %s (CC=%s)\n", p, strings.Join(cc, " "))
	tags := "osusergo,netgo"
	ldflags := "-s -w -extldflags -static"
	if p.goos == "linux" {
		if err := prebuildShim(ctx, p, cc); err != nil {
			return built{}, err
		}
		tags += ",prebuiltshim"
		ldflags = "-s -w -linkmode external -extldflags -static"
	}
	tmp, err := os.MkdirTemp("", "cudaforklint-release-")
	if err != nil {
		return built{}, err
	}
	defer os.RemoveAll(tmp)
	exe := filepath.Join(tmp, p.exe())
	cmd := exec.CommandContext(ctx, "go", "build", "-trimpath", "-buildvcs=auto", "-tags", tags, "-ldflags", ldflags,
		"-o", exe, "./cmd/cudaforklint")
	cmd.Env = append(os.Environ(), "GOOS="+p.goos, "GOARCH="+p.goarch, "CGO_ENABLED=1", "CC="+strings.Join(cc, " "))
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	fmt.Printf("   %s\n", strings.Join(cmd.Args, " "))
	if err := cmd.Run(); err != nil {
		return built{}, fmt.Errorf("go build: %w", err)
	}
	if p.goos == "linux" {
		err = artifact.CheckStatic(exe, p.goarch)
	} else {
		err = artifact.CheckWindows(exe, p.goarch)
	}
	if err != nil {
		return built{}, err
	}
	goVersion, err := binaryVersion(exe)
	if err != nil {
		return built{}, err
	}
	if err := smokeTest(ctx, p, exe, goVersion); err != nil {
		return built{}, err
	}
	data, err := os.ReadFile(exe)
	return built{platform: p, data: data, goVersion: goVersion}, err
}

// prebuildShim writes verify/prebuilt/cudaforkshim.so and the key it was built for.
func prebuildShim(ctx context.Context, p platform, cc []string) error {
	dir := filepath.Join("verify", "prebuilt")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := artifact.BuildShim(ctx, cc, p.goarch, filepath.Join(dir, "cudaforkshim.so")); err != nil {
		return err
	}
	fmt.Printf("   verify wrapper: built and checked (glibc symbol versions up to %d.%d)\n", artifact.MaxGlibc[0], artifact.MaxGlibc[1])
	return os.WriteFile(filepath.Join(dir, "cudaforkshim.key"), []byte(verify.ShimKey(p.goos, p.goarch)+"\n"), 0o644)
}

// binaryVersion is what `cudaforklint version` prints for the executable at path, read from the
// build information Go records in it (so that cross builds need not run): the module version,
// or, for a build without one, cli.Version's fallback, which this program reports for the same
// reason.
func binaryVersion(path string) (string, error) {
	bi, err := buildinfo.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	if bi.Main.Path != modulePath {
		return "", fmt.Errorf("%s: main module %q, want %s", path, bi.Main.Path, modulePath)
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return strings.TrimPrefix(v, "v"), nil
	}
	return cli.Version(), nil
}

// smokeTest runs `cudaforklint version` when this machine can: natively, or under
// qemu-<arch>-static for another Linux architecture. It must print goVersion.
func smokeTest(ctx context.Context, p platform, exe, goVersion string) error {
	var argv []string
	switch {
	case p.goos == runtime.GOOS && p.goarch == runtime.GOARCH:
		argv = []string{exe, "version"}
	case p.goos == "linux" && runtime.GOOS == "linux":
		qemu := map[string]string{"amd64": "qemu-x86_64-static", "arm64": "qemu-aarch64-static"}[p.goarch]
		if _, err := exec.LookPath(qemu); err != nil {
			fmt.Printf("   not run: no %s (apt-get install qemu-user-static)\n", qemu)
			return nil
		}
		argv = []string{qemu, exe, "version"}
	default:
		fmt.Printf("   not run: a %s executable\n", p)
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	got, err := exec.CommandContext(ctx, argv[0], argv[1:]...).Output()
	if err != nil {
		return fmt.Errorf("%s: %w", strings.Join(argv, " "), err)
	}
	if want := "cudaforklint " + goVersion + "\n"; string(got) != want {
		return fmt.Errorf("%s printed %q, want %q", strings.Join(argv, " "), got, want)
	}
	fmt.Printf("   ran: %s", got)
	return nil
}

// pack writes b's executable and wheel into out and returns their names.
func pack(b built, version, out string) ([]string, error) {
	tags, err := wheel.Tags(b.goos, b.goarch)
	if err != nil {
		return nil, err
	}
	w := &wheel.Wheel{
		Name:    "cudaforklint",
		Version: version,
		Tags:    tags,
		Metadata: []string{
			"Summary: Finds CUDA + fork hazards in Python multiprocessing programs, and confirms them at run time",
			"Home-page: https://" + modulePath,
			"Project-URL: Documentation, https://" + modulePath + "#readme",
			"Project-URL: Source, https://" + modulePath,
			"Keywords: cuda,fork,multiprocessing,linter,pytorch",
			"Classifier: Environment :: Console",
			"Classifier: Programming Language :: Go",
			"Classifier: Topic :: Software Development :: Quality Assurance",
			"Description-Content-Type: text/markdown",
		},
		Description: description,
		Modified:    sourceDate(),
	}
	w.Files = []wheel.File{{Name: w.DataDir() + "/scripts/" + b.exe(), Mode: 0o755, Data: b.data}}
	var buf bytes.Buffer
	if err := w.Write(&buf); err != nil {
		return nil, err
	}
	exeName := "cudaforklint-" + version + "-" + b.goos + "-" + b.goarch
	if b.goos == "windows" {
		exeName += ".exe"
	}
	if err := os.WriteFile(filepath.Join(out, exeName), b.data, 0o755); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(out, w.Filename()), buf.Bytes(), 0o644); err != nil {
		return nil, err
	}
	return []string{exeName, w.Filename()}, nil
}

const description = `# cudaforklint

cudaforklint finds CUDA + fork hazards in Python multiprocessing programs before they run
(` + "`cudaforklint check`" + `), and confirms them when they do (` + "`cudaforklint verify -- python3 script.py`" + `).

This wheel holds the prebuilt executable only: no Python code, no Go, no C compiler needed.
Documentation: https://github.com/cudaforklint/cudaforklint#readme
`

// sourceDate is the time stamp of the wheel entries: $SOURCE_DATE_EPOCH
// (reproducible-builds.org), else a fixed date, so that a rebuild gives the same wheel.
func sourceDate() time.Time {
	if s, err := strconv.ParseInt(os.Getenv("SOURCE_DATE_EPOCH"), 10, 64); err == nil && s >= 315532800 {
		return time.Unix(s, 0).UTC()
	}
	return time.Date(1980, 1, 2, 0, 0, 0, 0, time.UTC)
}

// writeSums writes out/SHA256SUMS in the format of sha256sum, which `sha256sum -c` checks.
func writeSums(out string, files []string) error {
	sort.Strings(files)
	var b bytes.Buffer
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(out, f))
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%x  %s\n", sha256.Sum256(data), f)
	}
	return os.WriteFile(filepath.Join(out, "SHA256SUMS"), b.Bytes(), 0o644)
}

var (
	pinRE   = regexp.MustCompile(`cudaforklint==([^"'\s,\]]+)`)
	finalRE = regexp.MustCompile(`^\d+(\.\d+)*$`)
)

// checkHookPin compares the cudaforklint-wheel hook's pin in .pre-commit-hooks.yaml with a
// release version: users of the hook at this tag get the wheel it pins. A development build only
// notes it.
func checkHookPin(version string) error {
	data, err := os.ReadFile(".pre-commit-hooks.yaml")
	if err != nil {
		return err
	}
	m := pinRE.FindSubmatch(data)
	if m == nil {
		return fmt.Errorf(".pre-commit-hooks.yaml pins no cudaforklint==VERSION for the cudaforklint-wheel hook")
	}
	pin := string(m[1])
	switch {
	case pin == version:
	case finalRE.MatchString(version):
		return fmt.Errorf("releasing %s, but .pre-commit-hooks.yaml pins cudaforklint==%s: update the pin before tagging", version, pin)
	default:
		fmt.Printf("note: %s is a development build; .pre-commit-hooks.yaml pins cudaforklint==%s\n", version, pin)
	}
	return nil
}
