package fix

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// python3 returns the python3 on PATH. Where there is none the test is
// skipped, except in CI (CI set), where python3 is part of the machine and
// its absence is a failure.
func python3(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("python3")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("python3 is required in CI: %v", err)
		}
		t.Skip("python3 not found")
	}
	return p
}

// compileAll reports which of srcs CPython compiles, in one python3
// process.
func compileAll(t *testing.T, py string, srcs [][]byte) []bool {
	t.Helper()
	dir := t.TempDir()
	var paths []string
	for i, src := range srcs {
		p := filepath.Join(dir, fmt.Sprintf("f%d.py", i))
		if err := os.WriteFile(p, src, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	script := "import py_compile, sys\nfor p in sys.argv[1:]:\n    try:\n        py_compile.compile(p, doraise=True)\n        print('ok')\n    except Exception:\n        print('fail')\n"
	out, err := exec.Command(py, append([]string{"-c", script}, paths...)...).Output()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Fields(string(out))
	if len(lines) != len(srcs) {
		t.Fatalf("py_compile printed %q", out)
	}
	ok := make([]bool, len(lines))
	for i, l := range lines {
		ok[i] = l == "ok"
	}
	return ok
}

// TestVerify: the safety net rejects fixed text that CPython would reject
// although tree-sitter parses it, and accepts the usual fixes. Each case
// is confirmed with CPython itself.
func TestVerify(t *testing.T) {
	py := python3(t)
	tests := []struct {
		name     string
		src      string
		edits    []span
		rejected string // a substring of the error, "" when accepted
	}{
		{"insert in front of a byte order mark",
			"\ufeffimport torch\ntorch.cuda.init()\n", []span{{0, 0, "import os\n"}}, "byte order mark"},
		{"insert after a byte order mark",
			"\ufeffimport torch\ntorch.cuda.init()\n", []span{{3, 3, "import os\n"}}, ""},
		{"insert above a #! line",
			"#!/usr/bin/env python3\nimport torch\n", []span{{0, 0, "import os\n"}}, "#! line"},
		{"insert above a coding declaration",
			"# -*- coding: latin-1 -*-\nx = '\xe9'\n", []span{{0, 0, "import os\n"}}, "coding"},
		{"insert below the coding declaration",
			"# -*- coding: utf-8 -*-\nx = 1\n", []span{{24, 24, "import os\n"}}, ""},
		{"insert into a docstring",
			"\"\"\"Doc\n\nstring.\"\"\"\nx = 1\n", []span{{5, 5, "import os\n"}}, "inside the string literal at line 1"},
		{"insert into a triple-quoted f-string with a nested field",
			"s = f'''a {d[\"k\"]}\nb'''\n", []span{{19, 19, "import os\n"}}, "inside the string literal"},
		{"replace a whole string",
			"mp.get_context(\"fork\")\n", []span{{15, 21, "\"spawn\""}}, ""},
		{"a space-indented line into a tab-indented block",
			"if x:\n\tif y:\n\t\tpass\n", []span{{13, 13, "        z = 1\n"}}, "TabError"},
		{"a tab-indented line into a tab-indented block",
			"if x:\n\tif y:\n\t\tpass\n", []span{{13, 13, "\t\tz = 1\n"}}, ""},
		{"code moved into a CRLF guard",
			"import os\r\nx = 1\r\nif __name__ == \"__main__\":\r\n    pass\r\n", []span{{11, 18, ""}, {46, 46, "    x = 1\r\n"}}, ""},
	}
	var srcs [][]byte
	outs := make([][]byte, len(tests))
	for i, tt := range tests {
		out, err := applyEdits([]byte(tt.src), tt.edits)
		if err != nil {
			t.Fatal(err)
		}
		outs[i] = out
		srcs = append(srcs, []byte(tt.src), out)
	}
	ok := compileAll(t, py, srcs)
	for i, tt := range tests {
		src, out := []byte(tt.src), outs[i]
		if !ok[2*i] {
			t.Errorf("%s: the original does not compile:\n%s", tt.name, src)
			continue
		}
		opt := Options{}
		err := opt.verify(src, out, tt.edits)
		switch {
		case tt.rejected == "" && err != nil:
			t.Errorf("%s: rejected: %v\n%s", tt.name, err, out)
		case tt.rejected != "" && (err == nil || !strings.Contains(err.Error(), tt.rejected)):
			t.Errorf("%s: error %v, want one about %q\n%s", tt.name, err, tt.rejected, out)
		}
		// The verdict agrees with CPython, except for what CPython
		// compiles but is wrong anyway: an edit inside a string, a #!
		// line that is no longer the first.
		if !strings.Contains(tt.rejected, "string") && tt.rejected != "#! line" && ok[2*i+1] != (err == nil) {
			t.Errorf("%s: CPython compiles the result: %v; verify: %v\n%s", tt.name, ok[2*i+1], err, out)
		}
	}
}
