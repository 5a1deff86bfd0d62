package syntax

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// roundTrip encodes f, decodes it again and reports how the two trees
// differ, or "" when they are the same: deep-equal, nil and empty slices
// kept apart, and no node of f reachable twice (the encoding writes a tree,
// so a node shared by two parents would come back as two).
func roundTrip(src []byte, f *File) string {
	data := AppendEncoded(nil, f, src)
	g, err := Decode(data, src)
	if err != nil {
		return fmt.Sprintf("Decode: %v", err)
	}
	if d := firstDifference(reflect.ValueOf(f), reflect.ValueOf(g), "File"); d != "" {
		return d
	}
	if p := sharedNode(reflect.ValueOf(f), map[uintptr]bool{}, "File"); p != "" {
		return "node reachable twice: " + p
	}
	if err := checkFile(src, g); err != nil {
		return "decoded tree: " + err.Error()
	}
	// Again with the bodies deferred, as the model leaves a tree.
	f.DeferBodies(src, nil)
	g, err = Decode(AppendEncoded(nil, f, src), src)
	if err != nil {
		return fmt.Sprintf("Decode with deferred bodies: %v", err)
	}
	if d := firstDifference(reflect.ValueOf(f), reflect.ValueOf(g), "File"); d != "" {
		return "with deferred bodies: " + d
	}
	return ""
}

// compareDeferral makes firstDifference tell a deferred body from a
// converted one (TestDeferredBodiesConvertAsBefore compares the contents).
var compareDeferral = true

// firstDifference is reflect.DeepEqual that says where, and that tells a
// nil slice from an empty one.
func firstDifference(a, b reflect.Value, path string) string {
	if a.Kind() != b.Kind() || a.Type() != b.Type() {
		return fmt.Sprintf("%s: %s vs %s", path, a.Type(), b.Type())
	}
	switch a.Kind() {
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				return path + ": nil vs non-nil"
			}
			return ""
		}
		return firstDifference(a.Elem(), b.Elem(), path)
	case reflect.Slice:
		if a.IsNil() != b.IsNil() {
			return fmt.Sprintf("%s: nil %v vs nil %v", path, a.IsNil(), b.IsNil())
		}
		if a.Len() != b.Len() {
			return fmt.Sprintf("%s: length %d vs %d", path, a.Len(), b.Len())
		}
		for i := 0; i < a.Len(); i++ {
			if d := firstDifference(a.Index(i), b.Index(i), fmt.Sprintf("%s[%d]", path, i)); d != "" {
				return d
			}
		}
	case reflect.Struct:
		if fa, ok := a.Addr().Interface().(*FunctionDef); ok && compareDeferral {
			_, da := fa.Deferred()
			_, db := b.Addr().Interface().(*FunctionDef).Deferred()
			if da != db {
				return fmt.Sprintf("%s: deferred body %v vs %v", path, da, db)
			}
		}
		fa, fb := nodeFields(a), nodeFields(b)
		for i := range fa {
			if d := firstDifference(fa[i].value, fb[i].value, path+"."+fa[i].Name); d != "" {
				return d
			}
		}
	case reflect.String:
		if a.String() != b.String() {
			return fmt.Sprintf("%s: %q vs %q", path, a.String(), b.String())
		}
	case reflect.Bool:
		if a.Bool() != b.Bool() {
			return fmt.Sprintf("%s: %v vs %v", path, a.Bool(), b.Bool())
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if a.Int() != b.Int() {
			return fmt.Sprintf("%s: %d vs %d", path, a.Int(), b.Int())
		}
	default:
		return fmt.Sprintf("%s: kind %s not compared (add it here and to the codec)", path, a.Kind())
	}
	return ""
}

// sharedNode returns the path of a node pointer reached a second time.
func sharedNode(v reflect.Value, seen map[uintptr]bool, path string) string {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return ""
		}
		if seen[v.Pointer()] {
			return path
		}
		seen[v.Pointer()] = true
		return sharedNode(v.Elem(), seen, path)
	case reflect.Interface:
		if v.IsNil() {
			return ""
		}
		return sharedNode(v.Elem(), seen, path)
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			if p := sharedNode(v.Index(i), seen, fmt.Sprintf("%s[%d]", path, i)); p != "" {
				return p
			}
		}
	case reflect.Struct:
		for _, fd := range nodeFields(v) {
			if p := sharedNode(fd.value, seen, path+"."+fd.Name); p != "" {
				return p
			}
		}
	}
	return ""
}

// codecSources are the Python files the round trip runs over: every fixture
// of the repository, this package's test inputs, and a sample of python3's
// standard library (every fifth file: all the syntax a real code base
// writes, at a test's cost).
func codecSources(t *testing.T) []string {
	var files []string
	for _, root := range []string{"../testdata", "testdata"} {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".py") {
				files = append(files, p)
			}
			return nil
		})
	}
	if len(files) < 100 {
		t.Fatalf("found %d fixtures; run from the syntax directory", len(files))
	}
	out, err := exec.Command("python3", "-c", `import sysconfig; print(sysconfig.get_paths()["stdlib"])`).Output()
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("python3's standard library is needed in CI: %v", err)
		}
		t.Logf("no python3: the standard library sample is left out")
		return files
	}
	n := 0
	filepath.WalkDir(strings.TrimSpace(string(out)), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && d.Name() == "site-packages" {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".py") {
			if n++; n%5 == 0 {
				files = append(files, p)
			}
		}
		return nil
	})
	return files
}

// eachParsed calls fn with every codec source that Parse accepts (one it
// refuses is not a tree: never stored, never deferred), its bytes and its
// tree, freshly parsed.
func eachParsed(t *testing.T, fn func(p string, src []byte, f *File)) {
	t.Helper()
	for _, p := range codecSources(t) {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if f, err := Parse(src); err == nil {
			fn(p, src, f)
		}
	}
}

// TestCodecRoundTrip: every tree Parse returns comes back from its
// encoding the same.
func TestCodecRoundTrip(t *testing.T) {
	decoded := 0
	eachParsed(t, func(p string, src []byte, f *File) {
		if d := roundTrip(src, f); d != "" {
			t.Errorf("%s: %s", p, d)
		}
		decoded++
	})
	t.Logf("%d files", decoded)
}

// TestCodecOffsetsAreDeltas: where a statement lies in its file does not
// change the size of its encoding, but for its first offset: offsets are
// written as distances from the one before, not as offsets into the file
// (two or three varint bytes each past 16 KB).
func TestCodecOffsetsAreDeltas(t *testing.T) {
	code := "model = build(config.name, device=args.device)\nloader = DataLoader(dataset, batch_size=cfg.batch, num_workers=4)\n"
	near := mustParse(t, code)
	far := mustParse(t, strings.Repeat("\n", 100_000)+code)
	nearEnc := AppendEncoded(nil, near, []byte(code))
	farEnc := AppendEncoded(nil, far, []byte(strings.Repeat("\n", 100_000)+code))
	if grown := len(farEnc) - len(nearEnc); grown > 2 {
		t.Errorf("the statements' encoding is %d bytes larger 100,000 bytes into the file (%d against %d), want at most 2: the first offset's", grown, len(farEnc), len(nearEnc))
	}
}

// TestCodecDamaged: a damaged encoding (any truncation, any byte changed, a
// source of another length) is refused or decodes to a tree whose spans lie
// in the source; it never panics. (The cache's checksum keeps damaged
// entries from being decoded at all; this is the second line.)
func TestCodecDamaged(t *testing.T) {
	src := []byte("import os, torch as t\nfrom . import x\n@dec(a=1)\nclass C(B, metaclass=M):\n    def f(self, *a, k: int = 2, **kw) -> None:\n        '''doc'''\n        return [y for y in a if y] + {k: v for k, v in kw.items()}\nwith open(p) as fh, g():\n    pass\ntry:\n    x = f\"{a!r} \\n\" * -1\nexcept (E, F) as e:\n    raise\nelse:\n    del x\nmatch v:\n    case [1, *_] if ok:\n        lambda q=1: q\n# comment\nfor i in range(3): print(i, sep='')\nwhile not (a < b <= c): await z\n")
	f, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	// The tree as parsed (its deferrable bodies written out) and as the
	// model leaves it (those bodies deferred, kept as their encodings).
	encodings := [][]byte{AppendEncoded(nil, f, src)}
	if d := roundTrip(src, f); d != "" {
		t.Fatal(d)
	}
	deferred, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	deferred.DeferBodies(src, nil)
	if countDeferred(deferred.Body) == 0 {
		t.Fatal("no body deferred")
	}
	encodings = append(encodings, AppendEncoded(nil, deferred, src))
	check := func(what string, data, src []byte) {
		t.Helper()
		g, err := Decode(data, src)
		if err != nil {
			return
		}
		if p := spanOutside(reflect.ValueOf(g), len(src), "File"); p != "" {
			t.Errorf("%s: decoded a span outside the source at %s", what, p)
		}
	}
	for e, data := range encodings {
		for n := 0; n < len(data); n++ {
			if _, err := Decode(data[:n], src); err == nil {
				t.Errorf("encoding %d truncated to %d of %d bytes: decoded", e, n, len(data))
			}
		}
		for i := range data {
			for _, x := range []byte{0x01, 0x80, 0xff} {
				b := append([]byte(nil), data...)
				b[i] ^= x
				check(fmt.Sprintf("encoding %d, byte %d ^ %#x", e, i, x), b, src)
			}
		}
		check(fmt.Sprintf("encoding %d, shorter source", e), data, src[:len(src)/2])
		check(fmt.Sprintf("encoding %d, no source", e), data, nil)
		if _, err := Decode(append(data, 0), src); err == nil {
			t.Errorf("encoding %d, trailing byte: decoded", e)
		}
	}
}

// spanOutside returns the path of a span not inside a source of n bytes.
func spanOutside(v reflect.Value, n int, path string) string {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			return spanOutside(v.Elem(), n, path)
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			if p := spanOutside(v.Index(i), n, fmt.Sprintf("%s[%d]", path, i)); p != "" {
				return p
			}
		}
	case reflect.Struct:
		if s, ok := v.Interface().(Span); ok {
			if s.Start < 0 || s.Start > s.End || int(s.End) > n {
				return path
			}
			return ""
		}
		for _, fd := range nodeFields(v) {
			if p := spanOutside(fd.value, n, path+"."+fd.Name); p != "" {
				return p
			}
		}
	}
	return ""
}

// FuzzDecode: Decode of any bytes against any source returns an error or a
// tree whose spans lie in the source; it never panics. The seeds are
// encodings of real trees.
//
//	go test ./syntax -run '^$' -fuzz '^FuzzDecode$' -fuzztime 5m
func FuzzDecode(f *testing.F) {
	for _, src := range []string{
		"import os\nx = f(a, *b, k=1, **c)\n",
		"class C(B):\n    def m(self, x: int = 0) -> None:\n        return [y for y in x if y]\n",
		"try:\n    pass\nexcept E as e:\n    raise\n# note\n",
	} {
		file, err := Parse([]byte(src))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(AppendEncoded(nil, file, []byte(src)), []byte(src))
		file.DeferBodies([]byte(src), nil)
		f.Add(AppendEncoded(nil, file, []byte(src)), []byte(src))
	}
	f.Fuzz(func(t *testing.T, data, src []byte) {
		g, err := Decode(data, src)
		if err != nil {
			return
		}
		if p := spanOutside(reflect.ValueOf(g), len(src), "File"); p != "" {
			t.Fatalf("decoded a span outside the source at %s", p)
		}
	})
}
