package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// addedNoqa is the text --add-noqa inserts: a new directive at the end of
// a line, or codes appended to the directive there.
var addedNoqa = regexp.MustCompile(`^(  # noqa: |, )CFL\d{3}(, CFL\d{3})*$`)

// onlyNoqaAdded reports whether after is before with nothing but
// insertions of addedNoqa's text: removing them gives before back byte for
// byte.
func onlyNoqaAdded(before, after []byte) bool {
	if bytes.Equal(before, after) {
		return true
	}
	d := 0
	for d < len(before) && d < len(after) && before[d] == after[d] {
		d++
	}
	// The insertion starts at d or, when its first bytes equal the bytes
	// after it, a little before.
	for i := max(0, d-64); i <= d; i++ {
		for j := i + 1; j <= len(after) && j-i <= 200; j++ {
			if addedNoqa.Match(after[i:j]) && bytes.Equal(after[:i], before[:i]) &&
				onlyNoqaAdded(before[i:], after[j:]) {
				return true
			}
		}
	}
	return false
}

func TestOnlyNoqaAdded(t *testing.T) {
	for _, tc := range []struct {
		before, after string
		want          bool
	}{
		{"x = 1\n", "x = 1  # noqa: CFL001\n", true},
		{"x = 1\r\ny = 2\r\n", "x = 1  # noqa: CFL001\r\ny = 2  # noqa: CFL002, CFL004\r\n", true},
		{"x = 1  # noqa: CFL001\n", "x = 1  # noqa: CFL001, CFL004\n", true},
		{"x = 1\n", "x = 2  # noqa: CFL001\n", false},
		{"x = 1\n", "x = 1  # noqa: CFL001 \n", false},
		{"x = 1\n", "x = 1  # noqa\n", false},
	} {
		if got := onlyNoqaAdded([]byte(tc.before), []byte(tc.after)); got != tc.want {
			t.Errorf("onlyNoqaAdded(%q, %q) = %v, want %v", tc.before, tc.after, got, tc.want)
		}
	}
}

// jsonFindings runs check --format json --show-suppressed in dir and
// returns each finding as "path:line:column CODE", marked when suppressed.
func jsonFindings(t *testing.T, dir string) (all []string, unsuppressed int) {
	t.Helper()
	code, out, stderr := run(t, dir, "check", "--no-cache", "--format", "json", "--show-suppressed", ".")
	if code == ExitError {
		t.Fatalf("check exited %d: %s", code, stderr)
	}
	var fs []struct {
		Code       string `json:"code"`
		Path       string `json:"path"`
		Cell       int    `json:"cell"`
		Suppressed bool   `json:"suppressed"`
		Start      struct{ Line, Column int }
	}
	if err := json.Unmarshal([]byte(out), &fs); err != nil {
		t.Fatalf("json output: %v\n%s", err, out)
	}
	for _, f := range fs {
		all = append(all, fmt.Sprintf("%s:%d:%d:%d %s", f.Path, f.Cell, f.Start.Line, f.Start.Column, f.Code))
		if !f.Suppressed {
			unsuppressed++
		}
	}
	return all, unsuppressed
}

// TestAddNoqaFixtures: over every fixture (notebooks, CRLF files and
// continued lines included), --add-noqa records every finding, a check
// afterwards reports none, the findings are the same ones (now
// suppressed, at the same places), and each file changed only by the
// added comments.
func TestAddNoqaFixtures(t *testing.T) {
	dir := t.TempDir()
	copyTree(t, filepath.Join("..", "testdata", "py"), dir, nil)
	before := readTree(t, dir)
	findings, open := jsonFindings(t, dir)
	if open == 0 {
		t.Fatal("the fixtures have no findings to record")
	}
	code, _, stderr := run(t, dir, "check", "--no-cache", "--add-noqa", ".")
	if code != ExitClean {
		t.Fatalf("--add-noqa exited %d:\n%s", code, stderr)
	}
	m := regexp.MustCompile(`Added (\d+) noqa directives?\.`).FindStringSubmatch(stderr)
	if m == nil || m[1] == "0" {
		t.Fatalf("no count of added directives:\n%s", stderr)
	}
	after := readTree(t, dir)
	changed, notebooks := 0, 0
	for p, b := range before {
		if bytes.Equal(b, after[p]) {
			continue
		}
		changed++
		if strings.HasSuffix(p, ".ipynb") {
			notebooks++
		}
		if !onlyNoqaAdded(b, after[p]) {
			t.Errorf("%s changed by more than added noqa comments:\nbefore:\n%s\nafter:\n%s", p, b, after[p])
		}
	}
	if changed == 0 || notebooks == 0 {
		t.Fatalf("changed %d files, %d of them notebooks; want both > 0", changed, notebooks)
	}
	again, open := jsonFindings(t, dir)
	if open != 0 {
		t.Errorf("%d findings left after --add-noqa", open)
	}
	if strings.Join(again, "\n") != strings.Join(findings, "\n") {
		t.Errorf("the findings moved:\nbefore:\n%s\nafter:\n%s", strings.Join(findings, "\n"), strings.Join(again, "\n"))
	}
	if code, out, _ := run(t, dir, "check", "--no-cache", "."); code != ExitClean {
		t.Errorf("check after --add-noqa exited %d:\n%s", code, out)
	}
	// A second run has nothing to add.
	if _, _, stderr := run(t, dir, "check", "--no-cache", "--add-noqa", "."); !strings.Contains(stderr, "Added 0 noqa directives.") {
		t.Errorf("second --add-noqa:\n%s", stderr)
	}
}

// TestAddNoqaPlacement: where the directive goes for findings on
// continued lines and in files whose bytes must be kept.
func TestAddNoqaPlacement(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
	}{
		{
			name: "crlf line endings kept",
			src:  strings.ReplaceAll(hazard, "\n", "\r\n"),
			want: strings.ReplaceAll(strings.Replace(hazard, "torch.cuda.init()\n", "torch.cuda.init()  # noqa: CFL001\n", 1), "\n", "\r\n"),
		},
		{
			name: "byte order mark",
			src:  "\ufeff" + hazard,
			want: "\ufeff" + strings.Replace(hazard, "torch.cuda.init()\n", "torch.cuda.init()  # noqa: CFL001\n", 1),
		},
		{
			name: "backslash continuation: after the line's end",
			src:  strings.Replace(hazard, "    torch.cuda.init()\n", "    torch.cuda.init(); x = \\\n        1\n", 1),
			want: strings.Replace(hazard, "    torch.cuda.init()\n", "    torch.cuda.init(); x = \\\n        1  # noqa: CFL001\n", 1),
		},
		{
			name: "merged into an existing directive",
			src:  strings.Replace(hazard, "torch.cuda.init()\n", "torch.cuda.init()  # noqa: E501\n", 1),
			want: strings.Replace(hazard, "torch.cuda.init()\n", "torch.cuda.init()  # noqa: E501, CFL001\n", 1),
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			p := write(t, dir, "train.py", tc.src)
			code, _, stderr := run(t, dir, "check", "--no-cache", "--add-noqa", "train.py")
			if code != ExitClean || !strings.Contains(stderr, "Added 1 noqa directive.") {
				t.Fatalf("exit %d:\n%s", code, stderr)
			}
			got, _ := os.ReadFile(p)
			if string(got) != tc.want {
				t.Errorf("got:\n%q\nwant:\n%q", got, tc.want)
			}
			if code, out, _ := run(t, dir, "check", "--no-cache", "train.py"); code != ExitClean {
				t.Errorf("still reported:\n%s", out)
			}
		})
	}
}

func TestAddNoqaRefusesFix(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "train.py", hazard)
	code, _, stderr := run(t, dir, "check", "--add-noqa", "--fix", ".")
	if code != ExitError || !strings.Contains(stderr, "--add-noqa cannot be combined") {
		t.Errorf("exit %d:\n%s", code, stderr)
	}
}
