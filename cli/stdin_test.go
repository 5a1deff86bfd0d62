package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStdinSameAsFile: `cat f | check --stdin-filename f -` reports what
// `check f` reports, for a hazard, a safe look-alike, a script whose
// hazard is in the local modules it imports, and a notebook.
func TestStdinSameAsFile(t *testing.T) {
	fixtures := filepath.Join("..", "testdata", "py")
	for _, tc := range []struct{ dir, file string }{
		{"cfl001", "explicit_fork_pool.py"},
		{"cfl001_local_modules", "train.py"},
		{"cfl002_helper_import", "main.py"},
		{"notebooks", "dataloader.ipynb"},
		{"safe", "init_after_join.py"},
	} {
		t.Run(tc.dir+"/"+tc.file, func(t *testing.T) {
			dir := filepath.Join(fixtures, tc.dir)
			src, err := os.ReadFile(filepath.Join(dir, tc.file))
			if err != nil {
				t.Fatal(err)
			}
			wantCode, want, _ := run(t, dir, "check", "--no-cache", "--format", "concise", tc.file)
			code, got, stderr := runStdin(t, dir, string(src), "check", "--format", "concise", "--stdin-filename", tc.file, "-")
			if code != wantCode || got != want {
				t.Errorf("stdin: exit %d\n%s%s\nthe file: exit %d\n%s", code, got, stderr, wantCode, want)
			}
		})
	}
}

// TestStdinFollowsTheBuffer: the buffer, not the disk, is checked, and
// the file need not exist.
func TestStdinFollowsTheBuffer(t *testing.T) {
	safe := strings.Replace(hazard, "    torch.cuda.init()\n", "", 1)
	dir := t.TempDir()
	write(t, dir, "train.py", hazard)
	write(t, dir, "quiet.py", safe)
	for _, tc := range []struct {
		name, file, buffer string
		want               int
	}{
		{"hazard removed in the buffer", "train.py", safe, ExitClean},
		{"hazard added in the buffer", "quiet.py", hazard, ExitFindings},
		{"a file not on disk", "new.py", hazard, ExitFindings},
		{"the buffer as on disk", "train.py", hazard, ExitFindings},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, stderr := runStdin(t, dir, tc.buffer, "check", "--format", "concise", "--stdin-filename", tc.file)
			if code != tc.want {
				t.Fatalf("exit %d, want %d:\n%s%s", code, tc.want, out, stderr)
			}
			if tc.want == ExitFindings && !strings.HasPrefix(out, tc.file+":10:5: CFL001 ") {
				t.Errorf("not reported as %s:\n%s", tc.file, out)
			}
		})
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "quiet.py")); string(b) != safe {
		t.Error("the file on disk was changed")
	}
}

// TestStdinImportedModuleOnDisk: the buffer's imports resolve against
// PATH's directory, and a hazard the buffer introduces through a local
// module is found.
func TestStdinImportedModuleOnDisk(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "gpu.py", "import torch\n\n\ndef setup():\n    torch.cuda.init()\n")
	main := strings.Replace(hazard, "import torch\n", "import torch\nfrom gpu import setup\n", 1)
	main = strings.Replace(main, "    torch.cuda.init()\n", "    pass\n", 1)
	write(t, dir, "train.py", main)
	if code, out, _ := runStdin(t, dir, main, "check", "--stdin-filename", "train.py"); code != ExitClean {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	buffer := strings.Replace(main, "    pass\n", "    setup()\n", 1)
	code, out, _ := runStdin(t, dir, buffer, "check", "--format", "concise", "--stdin-filename", "train.py")
	if code != ExitFindings || !strings.Contains(out, "gpu.py:5:5: CFL001") {
		t.Errorf("exit %d:\n%s", code, out)
	}
}

// TestStdinFix: --fix writes the fixed source to standard output, the
// report to standard error, and leaves the file alone.
func TestStdinFix(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "train.py", "# on disk\n")
	code, out, stderr := runStdin(t, dir, hazard, "check", "--fix", "--unsafe-fixes", "--stdin-filename", "train.py", "-")
	if code != ExitClean {
		t.Fatalf("exit %d:\n%s", code, stderr)
	}
	if want := strings.Replace(hazard, `get_context("fork")`, `get_context("spawn")`, 1); out != want {
		t.Errorf("stdout:\n%s\nwant:\n%s", out, want)
	}
	if !strings.Contains(stderr, "Fixed 1") {
		t.Errorf("stderr:\n%s", stderr)
	}
	if b, _ := os.ReadFile(p); string(b) != "# on disk\n" {
		t.Errorf("the file was written:\n%s", b)
	}
	// Nothing to fix: the buffer comes back as it was.
	code, out, _ = runStdin(t, dir, hazard, "check", "--fix", "--stdin-filename", "train.py")
	if code != ExitFindings || out != hazard {
		t.Errorf("exit %d, stdout:\n%s", code, out)
	}
}

func TestStdinBadUse(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"check", "-"}, "--stdin-filename"},
		{[]string{"check", "--stdin-filename", "a.py", "b.py"}, `"b.py" cannot be checked`},
		{[]string{"check", "--stdin-filename", "a.py", "--add-noqa"}, "--add-noqa"},
	} {
		code, _, stderr := runStdin(t, dir, hazard, tc.args...)
		if code != ExitError || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d:\n%s", tc.args, code, stderr)
		}
	}
}
