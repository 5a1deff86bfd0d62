// Package wheel writes the platform wheels of a cudaforklint release: zip files in the binary
// distribution format of PyPA (PEP 427, PEP 491) that carry no Python code, only the executable
// as a script, so that `pip install cudaforklint-*.whl` (or pipx, uv, a pre-commit hook of
// language python) puts `cudaforklint` on PATH without Go or a C compiler. It also maps Go module
// versions to PEP 440 versions and Go platforms to wheel tags.
//
// Only the standard library is used: the release machine has no PyPI, so maturin, build or
// hatch are not available, and the format is small.
package wheel

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"io"
	"io/fs"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

// A File is one file of the wheel, by its path inside the archive.
type File struct {
	Name string
	Mode fs.FileMode // permission bits; pip makes a script executable when any x bit is set
	Data []byte
}

// A Wheel is a binary distribution for one platform.
type Wheel struct {
	Name    string // distribution name, already normalized (lower case, '-' separated)
	Version string // a PEP 440 version (see Version)
	Tags    []string
	// Metadata are the core metadata fields after Metadata-Version, Name and Version, in order,
	// as "Field: value" lines; Description is the body that follows them.
	Metadata    []string
	Description string
	Files       []File    // everything but the .dist-info directory, which Write adds
	Modified    time.Time // the time stamp of every entry (reproducible builds)
}

// Filename is the wheel's file name: {name}-{version}-{python tag}-{abi tag}-{platform tag}.whl,
// with the tags of Tags compressed into dotted sets (PEP 425).
func (w *Wheel) Filename() string {
	var py, abi, plat []string
	for _, t := range w.Tags {
		p := strings.SplitN(t, "-", 3)
		py, abi, plat = appendNew(py, p[0]), appendNew(abi, p[1]), appendNew(plat, p[2])
	}
	return fmt.Sprintf("%s-%s-%s-%s-%s.whl", escape(w.Name), escape(w.Version),
		strings.Join(py, "."), strings.Join(abi, "."), strings.Join(plat, "."))
}

func appendNew(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

// escape makes a name or version one component of a wheel file name (PEP 427: '-' becomes '_').
func escape(s string) string { return strings.ReplaceAll(s, "-", "_") }

// distInfo is the name of the wheel's .dist-info directory.
func (w *Wheel) distInfo() string { return escape(w.Name) + "-" + escape(w.Version) + ".dist-info" }

// DataDir is the wheel's .data directory: DataDir()+"/scripts/x" installs x into the
// environment's bin (Scripts on Windows).
func (w *Wheel) DataDir() string { return escape(w.Name) + "-" + escape(w.Version) + ".data" }

// Write writes the wheel: the files, then METADATA, WHEEL and RECORD (last, as PEP 427
// recommends, with the sha256 digest and size of every other entry).
func (w *Wheel) Write(out io.Writer) error {
	if err := w.check(); err != nil {
		return err
	}
	// Sorted, so that the archive does not depend on the caller's order; the .dist-info files
	// come last.
	files := append([]File{}, w.Files...)
	sort.Slice(files, func(i, j int) bool { return files[i].Name < files[j].Name })
	files = append(files,
		File{Name: w.distInfo() + "/METADATA", Mode: 0o644, Data: w.metadata()},
		File{Name: w.distInfo() + "/WHEEL", Mode: 0o644, Data: w.wheelFile()})
	var record bytes.Buffer
	zw := zip.NewWriter(out)
	for _, f := range files {
		if err := w.add(zw, f); err != nil {
			return err
		}
		sum := sha256.Sum256(f.Data)
		fmt.Fprintf(&record, "%s,sha256=%s,%d\n", csvField(f.Name), base64.RawURLEncoding.EncodeToString(sum[:]), len(f.Data))
	}
	recordName := w.distInfo() + "/RECORD"
	fmt.Fprintf(&record, "%s,,\n", csvField(recordName))
	if err := w.add(zw, File{Name: recordName, Mode: 0o644, Data: record.Bytes()}); err != nil {
		return err
	}
	return zw.Close()
}

func (w *Wheel) add(zw *zip.Writer, f File) error {
	h := &zip.FileHeader{Name: f.Name, Method: zip.Deflate, Modified: w.Modified}
	h.SetMode(f.Mode)
	fw, err := zw.CreateHeader(h)
	if err != nil {
		return fmt.Errorf("wheel %s: %w", f.Name, err)
	}
	_, err = fw.Write(f.Data)
	return err
}

// csvField quotes a RECORD path as Python's csv module would, should it hold a comma or a quote.
func csvField(s string) string {
	if !strings.ContainsAny(s, ",\"\r\n") {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

var (
	nameRE = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	tagRE  = regexp.MustCompile(`^[a-z0-9_]+-[a-z0-9_]+-[a-z0-9_]+$`)
)

func (w *Wheel) check() error {
	if !nameRE.MatchString(w.Name) {
		return fmt.Errorf("wheel: name %q is not a normalized distribution name", w.Name)
	}
	if !pep440RE.MatchString(w.Version) {
		return fmt.Errorf("wheel: version %q is not a normalized PEP 440 version", w.Version)
	}
	if len(w.Tags) == 0 {
		return fmt.Errorf("wheel: no tags")
	}
	for _, t := range w.Tags {
		if !tagRE.MatchString(t) {
			return fmt.Errorf("wheel: tag %q is not python-abi-platform", t)
		}
	}
	seen := map[string]bool{}
	for _, f := range w.Files {
		if f.Name == "" || strings.HasPrefix(f.Name, "/") || strings.Contains(f.Name, "\\") ||
			strings.Contains("/"+f.Name+"/", "/../") || strings.HasPrefix(f.Name, w.distInfo()+"/") {
			return fmt.Errorf("wheel: bad file name %q", f.Name)
		}
		if seen[f.Name] {
			return fmt.Errorf("wheel: %s twice", f.Name)
		}
		seen[f.Name] = true
	}
	return nil
}

// metadata is the METADATA file (core metadata 2.1).
func (w *Wheel) metadata() []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "Metadata-Version: 2.1\nName: %s\nVersion: %s\n", w.Name, w.Version)
	for _, m := range w.Metadata {
		b.WriteString(m + "\n")
	}
	if w.Description != "" {
		b.WriteString("\n" + strings.TrimRight(w.Description, "\n") + "\n")
	}
	return b.Bytes()
}

// wheelFile is the WHEEL file. Root-Is-Purelib is false: the wheel is platform-specific.
func (w *Wheel) wheelFile() []byte {
	var b bytes.Buffer
	b.WriteString("Wheel-Version: 1.0\nGenerator: cudaforklint scripts/release\nRoot-Is-Purelib: false\n")
	for _, t := range w.Tags {
		fmt.Fprintf(&b, "Tag: %s\n", t)
	}
	return b.Bytes()
}

// Tags returns the wheel tags for a Go platform. The Linux executable is static and the wrapper
// it carries needs no glibc newer than 2.17 (scripts/release checks both), hence manylinux2014;
// the wrapper is preloaded into glibc programs, so the wheel does not claim musllinux.
func Tags(goos, goarch string) ([]string, error) {
	var plats []string
	switch goos + "/" + goarch {
	case "linux/amd64":
		plats = []string{"manylinux_2_17_x86_64", "manylinux2014_x86_64"}
	case "linux/arm64":
		plats = []string{"manylinux_2_17_aarch64", "manylinux2014_aarch64"}
	case "windows/amd64":
		plats = []string{"win_amd64"}
	default:
		return nil, fmt.Errorf("no wheel platform tag for %s/%s", goos, goarch)
	}
	tags := make([]string, len(plats))
	for i, p := range plats {
		tags[i] = "py3-none-" + p
	}
	return tags, nil
}

// pep440RE matches the normalized versions Version returns.
var pep440RE = regexp.MustCompile(`^\d+(\.\d+)*((a|b|rc)\d+)?(\.post\d+)?(\.dev\d+)?(\+[a-z0-9]+(\.[a-z0-9]+)*)?$`)

var (
	semverRE = regexp.MustCompile(`^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+([0-9A-Za-z.-]+))?$`)
	// A pseudo-version's suffix (golang.org/ref/mod#pseudo-versions): yyyymmddhhmmss-abcdefabcdef,
	// after "0." when the base is a release, or after "pre.0." when it is a pre-release.
	pseudoRE = regexp.MustCompile(`^(?:(.*\.)?0\.)?(\d{14})-([0-9a-f]{12})$`)
	preRE    = regexp.MustCompile(`^(alpha|a|beta|b|rc|c|pre|preview)\.?(\d*)$`)
)

// Version maps a Go module version, as `cudaforklint version` prints it (with or without the
// leading v), to a normalized PEP 440 version:
//
//	v1.2.3                              1.2.3
//	1.2.3-rc.1, 1.2.3-rc1               1.2.3rc1    (alpha → a, beta → b)
//	0.1.0-dev                           0.1.0.dev0
//	v0.0.0-20251202192100-2173f8f8abcd  0.0.0.dev20251202192100+g2173f8f8abcd  (a pseudo-version)
//	v1.2.4-0.20251202192100-2173f8f8abcd+dirty
//	                                    1.2.4.dev20251202192100+g2173f8f8abcd.dirty
//
// A pseudo-version of a commit after a pre-release tag keeps the pre-release:
// v1.2.3-rc.1.0.20251202192100-2173f8f8abcd is 1.2.3rc1.dev20251202192100+g2173f8f8abcd (which PEP
// 440 orders before 1.2.3rc1: builds between tags are not releases). Anything else is an error.
func Version(goVersion string) (string, error) {
	m := semverRE.FindStringSubmatch(goVersion)
	if m == nil {
		return "", fmt.Errorf("version %q is not a semantic version", goVersion)
	}
	v := num(m[1]) + "." + num(m[2]) + "." + num(m[3])
	pre, build := m[4], m[5]
	var local []string
	if p := pseudoRE.FindStringSubmatch(pre); p != nil {
		pre = strings.TrimSuffix(p[1], ".")
		local = append(local, "g"+p[3])
		if pre == "" {
			v += ".dev" + p[2]
		} else {
			pv, err := preRelease(pre, goVersion)
			if err != nil {
				return "", err
			}
			v += pv + ".dev" + p[2]
		}
	} else if pre != "" {
		pv, err := preRelease(pre, goVersion)
		if err != nil {
			return "", err
		}
		v += pv
	}
	if build != "" {
		for _, part := range strings.FieldsFunc(strings.ToLower(build), func(r rune) bool { return r == '.' || r == '-' }) {
			local = append(local, part)
		}
	}
	if len(local) > 0 {
		v += "+" + strings.Join(local, ".")
	}
	if !pep440RE.MatchString(v) {
		return "", fmt.Errorf("version %q maps to %q, which is not PEP 440", goVersion, v)
	}
	return v, nil
}

// preRelease maps a semver pre-release ("rc.1", "beta2", "dev") to its PEP 440 suffix.
func preRelease(pre, whole string) (string, error) {
	pre = strings.ToLower(pre)
	if pre == "dev" {
		return ".dev0", nil
	}
	m := preRE.FindStringSubmatch(pre)
	if m == nil {
		return "", fmt.Errorf("version %q: pre-release %q has no PEP 440 spelling (use rc.N, beta.N, alpha.N or dev)", whole, pre)
	}
	kind := map[string]string{"alpha": "a", "a": "a", "beta": "b", "b": "b", "rc": "rc", "c": "rc", "pre": "rc", "preview": "rc"}[m[1]]
	n := m[2]
	if n == "" {
		n = "0"
	}
	return kind + num(n), nil
}

// num drops leading zeros, as PEP 440 normalization does.
func num(s string) string {
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return s
	}
	return strconv.FormatUint(n, 10)
}
