package pyprogram

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCodeOnly: comments and plain strings are blanked, offsets and line
// breaks kept; f-strings stay whole (their fields are code); a string left
// open gives up.
func TestCodeOnly(t *testing.T) {
	// blanked is src with each of parts replaced by as many spaces, line
	// breaks kept.
	blanked := func(src string, parts ...string) string {
		for _, p := range parts {
			src = strings.Replace(src, p, strings.Map(func(r rune) rune {
				if r == '\n' || r == '\r' {
					return r
				}
				return ' '
			}, p), 1)
		}
		return src
	}
	for _, tt := range []struct {
		src   string
		blank []string
		ok    bool
	}{
		{"x = 'torch'  # import torch\ny.cuda()", []string{"'torch'", "# import torch"}, true},
		{"s = \"\"\"a\n.to('cuda')\"\"\"\nt", []string{"\"\"\"a\n.to('cuda')\"\"\""}, true},
		{`rb'\'x' + b"y"`, []string{`rb'\'x'`, `b"y"`}, true},
		{`f'{x.cuda()} {"k"}' # c`, []string{"# c"}, true},
		{"x = 'open\ny.cuda()", nil, false},
		{"x = '''never closed\ny.cuda()", nil, false},
	} {
		got, ok := codeOnly([]byte(tt.src))
		if want := blanked(tt.src, tt.blank...); ok != tt.ok || ok && string(got) != want {
			t.Errorf("codeOnly(%q) = %q, %v; want %q, %v", tt.src, got, ok, want, tt.ok)
		}
	}
}

// TestCUDAOracle: a module is cleared only when no file its imports reach
// (through packages, function bodies, cycles and star imports) names CUDA
// in code, and every one of them could be read.
func TestCUDAOracle(t *testing.T) {
	dir := t.TempDir()
	for rel, src := range map[string]string{
		"clean.py":          "import helper\nfrom pkg import sub\n",
		"helper.py":         "# import torch\n'''x.cuda()'''\ndef f():\n    from pkg import deep\n",
		"pkg/__init__.py":   "",
		"pkg/sub.py":        "import helper\n",
		"pkg/deep.py":       "from . import sub\n",
		"leaf_cuda.py":      "def g(x):\n    return x.to(0)\n",
		"via_fn.py":         "def f():\n    import leaf_cuda\n",
		"uses_torch.py":     "import helper\nimport torch\n",
		"cyc_a.py":          "import cyc_b\n",
		"cyc_b.py":          "import cyc_a\nimport uses_torch\n",
		"star/__init__.py":  "__all__ = ['boot']\n",
		"star/boot.py":      "import cupy\n",
		"star_user.py":      "from star import *\n",
		"plain_star.py":     "from star import boot as b\n",
		"binary.py":         "x = 1\x00\n",
		"imports_binary.py": "import binary\n",
	} {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dirs := newDirCache()
	roots := isolatedPolicy(t, dir).ImportRoots
	var all []string
	for _, rel := range []string{"clean.py", "via_fn.py", "uses_torch.py", "cyc_a.py", "star_user.py", "imports_binary.py"} {
		all = append(all, filepath.Join(dir, rel))
	}
	// The oracle alone, and after a prefilter over the files, whose scans
	// it takes (as a run's does): the answers are the same.
	for _, known := range []*Scans{nil, runPrefilter(all, os.ReadFile, dirs.IsFile, roots, nil, 2, nil).scans} {
		o := newCUDAOracle(os.ReadFile, dirs.IsFile, dirs, roots)
		o.known = known
		for _, tt := range []struct {
			path string
			want bool
		}{
			{"clean.py", true},
			{"via_fn.py", false},
			{"uses_torch.py", false},
			{"cyc_a.py", false},
			{"cyc_b.py", false},
			{"star_user.py", false},
			{"plain_star.py", false},
			{"imports_binary.py", false},
		} {
			if got := o.Unreachable(filepath.Join(dir, tt.path), true); got != tt.want {
				t.Errorf("with the prefilter's scans %v: Unreachable(%s) = %v, want %v", known != nil, tt.path, got, tt.want)
			}
		}
		if !o.Unreachable(filepath.Join(dir, "pkg/deep.py"), false) {
			t.Errorf("with the prefilter's scans %v: pkg/deep.py, read for clean.py, is not known to be clear", known != nil)
		}
	}
	fresh := newCUDAOracle(os.ReadFile, dirs.IsFile, dirs, roots)
	if fresh.Unreachable(filepath.Join(dir, "clean.py"), false) {
		t.Error("with read false, an oracle that read nothing cleared a module")
	}

	// A scan the prefilter made is taken as it is, not made again: one
	// that says pkg/sub.py imports uses_torch is followed there.
	known := runPrefilter(all, os.ReadFile, dirs.IsFile, roots, nil, 2, nil).scans
	sub := filepath.Join(dir, "pkg/sub.py")
	b, ok := known.files[sub]
	if !ok {
		t.Fatal("the prefilter did not scan pkg/sub.py")
	}
	b.scan.imports = append(b.scan.imports, impRef{name: "uses_torch"})
	known.files[sub] = b
	o := newCUDAOracle(os.ReadFile, dirs.IsFile, dirs, roots)
	o.known = known
	if o.Unreachable(filepath.Join(dir, "clean.py"), true) {
		t.Error("the oracle scanned pkg/sub.py again instead of taking the prefilter's scan")
	}
}
