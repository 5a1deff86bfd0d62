package finding

import (
	"path/filepath"
	"testing"
)

func TestRelPathAbsPath(t *testing.T) {
	wd := filepath.FromSlash("/home/u/proj")
	for _, tc := range []struct{ path, rel string }{
		{"/home/u/proj/train.py", "train.py"},
		{"/home/u/proj/pkg/a.py", "pkg/a.py"},
		{"/home/u/other/b.py", "/home/u/other/b.py"},     // outside: stays absolute
		{"/home/u/proj..x/c.py", "/home/u/proj..x/c.py"}, // a sibling whose name starts with the work dir's
		{"/home/u/..hidden.py", "/home/u/..hidden.py"},
		{"/home/u/proj/..data/d.py", "..data/d.py"}, // below, though it starts with ".."
	} {
		path, rel := filepath.FromSlash(tc.path), filepath.FromSlash(tc.rel)
		if got := RelPath(wd, path); got != rel {
			t.Errorf("RelPath(%q) = %q, want %q", path, got, rel)
		}
		if got := AbsPath(wd, rel); got != path {
			t.Errorf("AbsPath(%q) = %q, want %q", rel, got, path)
		}
	}
	if got := RelPath(wd, "already/rel.py"); got != "already/rel.py" {
		t.Errorf("a relative path changed: %q", got)
	}
	if got := AbsPath("", "x/../y.py"); got != "y.py" {
		t.Errorf("AbsPath without a work dir = %q, want y.py", got)
	}
}

func TestWithin(t *testing.T) {
	for _, tc := range []struct {
		dir, path string
		want      bool
	}{
		{"/a", "/a", true},
		{"/a", "/a/b/c.py", true},
		{"/a/", "/a/b", true},
		{"/", "/a", true},
		{"/a", "/ab", false},
		{"/a", "/", false},
		{"/a/b", "/a", false},
		{"/a", "/a/..b", true}, // a name starting with "..", below
		{"/a", "/a/../b", false},
		{"a", "a/b", true},
		{"/a", "a/b", false}, // one absolute, one relative
	} {
		dir, path := filepath.FromSlash(tc.dir), filepath.FromSlash(tc.path)
		if got := Within(dir, path); got != tc.want {
			t.Errorf("Within(%q, %q) = %v, want %v", dir, path, got, tc.want)
		}
	}
}
