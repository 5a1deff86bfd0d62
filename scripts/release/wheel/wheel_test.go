package wheel

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/csv"
	"io"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestVersion(t *testing.T) {
	tests := []struct{ in, want string }{
		{"v1.2.3", "1.2.3"},
		{"1.2.3", "1.2.3"},
		{"v01.02.030", "1.2.30"},
		{"0.1.0-dev", "0.1.0.dev0"},
		{"v1.2.3-rc.1", "1.2.3rc1"},
		{"v1.2.3-rc1", "1.2.3rc1"},
		{"v1.2.3-beta.2", "1.2.3b2"},
		{"v1.2.3-alpha", "1.2.3a0"},
		{"v1.2.3+dirty", "1.2.3+dirty"},
		{"v0.0.0-20251202192100-2173f8f8abcd", "0.0.0.dev20251202192100+g2173f8f8abcd"},
		{"v0.0.0-20251202192100-2173f8f8abcd+dirty", "0.0.0.dev20251202192100+g2173f8f8abcd.dirty"},
		{"v1.2.4-0.20251202192100-2173f8f8abcd", "1.2.4.dev20251202192100+g2173f8f8abcd"},
		{"v1.2.3-rc.1.0.20251202192100-2173f8f8abcd", "1.2.3rc1.dev20251202192100+g2173f8f8abcd"},
	}
	for _, tt := range tests {
		got, err := Version(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("Version(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{"", "(devel)", "1.2", "v1.2.3-weird.thing", "latest", "v1.2.3-rc.x"} {
		if got, err := Version(bad); err == nil {
			t.Errorf("Version(%q) = %q, want an error", bad, got)
		}
	}
}

func TestTags(t *testing.T) {
	tests := []struct{ goos, goarch, file string }{
		{"linux", "amd64", "py3-none-manylinux_2_17_x86_64.manylinux2014_x86_64"},
		{"linux", "arm64", "py3-none-manylinux_2_17_aarch64.manylinux2014_aarch64"},
		{"windows", "amd64", "py3-none-win_amd64"},
	}
	for _, tt := range tests {
		tags, err := Tags(tt.goos, tt.goarch)
		if err != nil {
			t.Errorf("Tags(%s, %s): %v", tt.goos, tt.goarch, err)
			continue
		}
		w := Wheel{Name: "cudaforklint", Version: "1.0.0", Tags: tags}
		if got, want := w.Filename(), "cudaforklint-1.0.0-"+tt.file+".whl"; got != want {
			t.Errorf("%s/%s: file name %s, want %s", tt.goos, tt.goarch, got, want)
		}
	}
	if tags, err := Tags("plan9", "386"); err == nil {
		t.Errorf("Tags(plan9, 386) = %v, want an error", tags)
	}
}

func sample() *Wheel {
	return &Wheel{
		Name:        "cudaforklint",
		Version:     "0.0.0.dev20251202192100+g2173f8f8abcd",
		Tags:        []string{"py3-none-manylinux_2_17_x86_64", "py3-none-manylinux2014_x86_64"},
		Metadata:    []string{"Summary: finds hazards", "License: MIT"},
		Description: "# cudaforklint\n\nText.\n",
		Files: []File{
			{Name: "cudaforklint-0.0.0.dev20251202192100+g2173f8f8abcd.data/scripts/cudaforklint", Mode: 0o755, Data: []byte("\x7fELF binary")},
			{Name: "a,b.txt", Mode: 0o644, Data: []byte("comma")},
		},
		Modified: time.Date(2025, 12, 2, 19, 21, 0, 0, time.UTC),
	}
}

func TestWrite(t *testing.T) {
	w := sample()
	if got, want := w.Filename(), "cudaforklint-0.0.0.dev20251202192100+g2173f8f8abcd-py3-none-manylinux_2_17_x86_64.manylinux2014_x86_64.whl"; got != want {
		t.Errorf("Filename = %s, want %s", got, want)
	}
	var buf bytes.Buffer
	if err := w.Write(&buf); err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	di := "cudaforklint-0.0.0.dev20251202192100+g2173f8f8abcd.dist-info/"
	var names []string
	content := map[string][]byte{}
	for _, f := range zr.File {
		names = append(names, f.Name)
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		content[f.Name], _ = io.ReadAll(rc)
		rc.Close()
		if !f.Modified.Equal(w.Modified) {
			t.Errorf("%s: modified %v, want %v", f.Name, f.Modified, w.Modified)
		}
		wantMode := "-rw-r--r--"
		if strings.Contains(f.Name, ".data/scripts/") {
			wantMode = "-rwxr-xr-x" // pip sets the x bit from external_attr
		}
		if got := f.Mode().String(); got != wantMode {
			t.Errorf("%s: mode %s, want %s", f.Name, got, wantMode)
		}
	}
	wantNames := []string{"a,b.txt", w.Files[0].Name, di + "METADATA", di + "WHEEL", di + "RECORD"}
	if strings.Join(names, "\n") != strings.Join(wantNames, "\n") {
		t.Errorf("entries:\n%s\nwant (sorted, RECORD last):\n%s", strings.Join(names, "\n"), strings.Join(wantNames, "\n"))
	}

	// RECORD: every other entry once, with its urlsafe-base64 sha256 (no padding) and size.
	rows, err := csv.NewReader(bytes.NewReader(content[di+"RECORD"])).ReadAll()
	if err != nil {
		t.Fatalf("RECORD is not CSV: %v", err)
	}
	recorded := map[string]bool{}
	for _, r := range rows {
		if len(r) != 3 {
			t.Fatalf("RECORD row %q: want 3 fields", r)
		}
		recorded[r[0]] = true
		if r[0] == di+"RECORD" {
			if r[1] != "" || r[2] != "" {
				t.Errorf("RECORD's own row %q: want no hash and size", r)
			}
			continue
		}
		data, ok := content[r[0]]
		if !ok {
			t.Errorf("RECORD names %s, which is not in the wheel", r[0])
			continue
		}
		sum := sha256.Sum256(data)
		if want := "sha256=" + base64.RawURLEncoding.EncodeToString(sum[:]); r[1] != want {
			t.Errorf("%s: hash %s, want %s", r[0], r[1], want)
		}
		if r[2] != strconv.Itoa(len(data)) {
			t.Errorf("%s: size %s, want %d", r[0], r[2], len(data))
		}
	}
	for _, n := range names {
		if !recorded[n] {
			t.Errorf("%s is not in RECORD", n)
		}
	}

	wantWheel := "Wheel-Version: 1.0\nGenerator: cudaforklint scripts/release\nRoot-Is-Purelib: false\n" +
		"Tag: py3-none-manylinux_2_17_x86_64\nTag: py3-none-manylinux2014_x86_64\n"
	if got := string(content[di+"WHEEL"]); got != wantWheel {
		t.Errorf("WHEEL:\n%s\nwant:\n%s", got, wantWheel)
	}
	wantMeta := "Metadata-Version: 2.1\nName: cudaforklint\nVersion: 0.0.0.dev20251202192100+g2173f8f8abcd\n" +
		"Summary: finds hazards\nLicense: MIT\n\n# cudaforklint\n\nText.\n"
	if got := string(content[di+"METADATA"]); got != wantMeta {
		t.Errorf("METADATA:\n%s\nwant:\n%s", got, wantMeta)
	}

	// Reproducible: the same wheel from files given in another order is the same bytes.
	w2 := sample()
	w2.Files[0], w2.Files[1] = w2.Files[1], w2.Files[0]
	var buf2 bytes.Buffer
	if err := w2.Write(&buf2); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), buf2.Bytes()) {
		t.Errorf("the wheel depends on the order of Files")
	}
}

func TestWriteRejects(t *testing.T) {
	tests := []struct {
		name   string
		change func(*Wheel)
		want   string
	}{
		{"unnormalized name", func(w *Wheel) { w.Name = "CudaForkLint" }, "not a normalized distribution name"},
		{"Go version", func(w *Wheel) { w.Version = "0.1.0-dev" }, "not a normalized PEP 440 version"},
		{"no tags", func(w *Wheel) { w.Tags = nil }, "no tags"},
		{"bad tag", func(w *Wheel) { w.Tags = []string{"manylinux2014_x86_64"} }, "not python-abi-platform"},
		{"absolute path", func(w *Wheel) { w.Files[1].Name = "/etc/passwd" }, "bad file name"},
		{"parent directory", func(w *Wheel) { w.Files[1].Name = "x/../../y" }, "bad file name"},
		{"into dist-info", func(w *Wheel) {
			w.Files[1].Name = "cudaforklint-0.0.0.dev20251202192100+g2173f8f8abcd.dist-info/RECORD"
		}, "bad file name"},
		{"twice", func(w *Wheel) { w.Files[1].Name = w.Files[0].Name }, "twice"},
	}
	for _, tt := range tests {
		w := sample()
		tt.change(w)
		var buf bytes.Buffer
		err := w.Write(&buf)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: Write error %v, want %q", tt.name, err, tt.want)
		}
	}
}
