package ruledoc

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cudaforklint/cudaforklint/finding"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file (run go test -update and review the diff)\n--- got ---\n%s", name, got)
	}
}

func sample() *Doc {
	return &Doc{
		Code:           "CFL001",
		Name:           "fork-after-cuda-init",
		Summary:        "Process forked after CUDA was initialized",
		Severity:       finding.Error,
		DefaultEnabled: true,
		Precision:      "high",
		Tags:           []string{"correctness", "cuda"},
		FixAvailable:   "sometimes",
		WhatItDoes: "Checks for a process started with the `fork` start method (or\n" +
			"`os.fork()`) after the parent has initialized CUDA.",
		WhyIsThisBad: "The CUDA driver does not survive `fork`. A child that touches CUDA\n" +
			"fails with `RuntimeError: Cannot re-initialize CUDA in forked subprocess`.\n\n" +
			"- the child hangs, or\n- it raises at its first CUDA call.",
		Example:    "import multiprocessing as mp\nimport torch\n\ntorch.cuda.init()\nmp.Process(target=work).start()",
		UseInstead: "import multiprocessing as mp\n\nctx = mp.get_context(\"spawn\")\nctx.Process(target=work).start()",
		FixSafety:  "The fix switches to the `spawn` context, which re-imports the main\nmodule in the child; it is unsafe when the module has side effects.",
		Versions:   "Python 3.10–3.13 on Linux (fork is the default start method).",
		References: []string{"[multiprocessing start methods](https://docs.python.org/3/library/multiprocessing.html#contexts-and-start-methods)"},
	}
}

func TestRender(t *testing.T) {
	d := sample()
	golden(t, "text.golden", d.Text())
	golden(t, "markdown.golden", d.Markdown())
	golden(t, "plaintext.golden", d.PlainText())
	golden(t, "sarif-markdown.golden", d.SARIFMarkdown())
	var b bytes.Buffer
	if err := WriteJSON(&b, []*Doc{d}, false); err != nil {
		t.Fatal(err)
	}
	golden(t, "json.golden", b.String())
}

func TestSectionsAndFixLine(t *testing.T) {
	d := sample()
	d.KnownProblems = "Calls through `getattr` are not followed."
	d.FixAvailable = "never"
	d.UseInstead = ""
	d.References = nil
	text := d.Text()
	for _, want := range []string{"# fork-after-cuda-init (CFL001)\n", "## What it does\n", "## Why is this bad?\n",
		"## Example\n\n```python\n", "## Fix safety\n", "## Versions affected\n", "## Known problems\n\nCalls through"} {
		if !strings.Contains(text, want) {
			t.Errorf("Text() lacks %q", want)
		}
	}
	for _, absent := range []string{"Fix is", "Use instead:", "## References"} {
		if strings.Contains(text, absent) {
			t.Errorf("Text() has %q", absent)
		}
	}
	order := []string{"## What it does", "## Why is this bad?", "## Example", "## Fix safety", "## Versions affected", "## Known problems"}
	last := -1
	for _, h := range order {
		i := strings.Index(text, h)
		if i < last {
			t.Errorf("section %q out of order", h)
		}
		last = i
	}
	if got := d.JSON().FixAvailability; got != "None" {
		t.Errorf("FixAvailability = %q", got)
	}
	if !strings.Contains(d.Markdown(), "No fix is available.") {
		t.Error("Markdown lacks the no-fix line")
	}
}

func TestPascalName(t *testing.T) {
	for in, want := range map[string]string{
		"fork-after-cuda-init": "ForkAfterCudaInit",
		"stale-noqa":           "StaleNoqa",
		"x":                    "X",
	} {
		d := &Doc{Name: in}
		if got := d.PascalName(); got != want {
			t.Errorf("PascalName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTruncate(t *testing.T) {
	long := strings.Repeat("é", 2000)
	got := Truncate(long, 1024)
	if n := len([]rune(got)); n != 1024 || !strings.HasSuffix(got, "…") {
		t.Errorf("Truncate: %d runes, suffix %q", n, got[len(got)-3:])
	}
	if Truncate("short", 1024) != "short" {
		t.Error("Truncate changed a short string")
	}
	d := sample()
	d.WhatItDoes = long
	if n := len([]rune(d.FullDescription())); n > 1024 {
		t.Errorf("FullDescription is %d characters", n)
	}
}

func TestUnwrap(t *testing.T) {
	in := "# T\n\npara one\ncontinues\n\n- item\n  more\n- item2\n\n```python\na = 1\nb = 2\n```\n| a |\n| b |\n"
	want := "# T\n\npara one continues\n\n- item more\n- item2\n\n```python\na = 1\nb = 2\n```\n| a |\n| b |\n"
	if got := Unwrap(in); got != want {
		t.Errorf("Unwrap:\n got %q\nwant %q", got, want)
	}
}

func TestJSONFields(t *testing.T) {
	var b bytes.Buffer
	if err := WriteJSON(&b, []*Doc{sample()}, true); err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b.Bytes(), &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"name", "code", "linter", "summary", "fix", "fix_availability", "explanation", "default_severity", "enabled_by_default", "url"} {
		if _, ok := m[k]; !ok {
			t.Errorf("rule JSON lacks %q", k)
		}
	}
	if m["linter"] != "cudaforklint" || m["url"] != BaseURL+"CFL001.md" {
		t.Errorf("linter/url = %v/%v", m["linter"], m["url"])
	}
}

func TestWriteAndCheckDocs(t *testing.T) {
	dir := t.TempDir()
	a, b := sample(), sample()
	b.Code, b.Name = "CFL002", "spawn-imports-cuda"
	docs := []*Doc{a, b}
	if err := CheckDocs(dir, docs); err == nil || !strings.Contains(err.Error(), "CFL001.md: missing") {
		t.Fatalf("CheckDocs on an empty dir: %v", err)
	}
	// A page of a removed rule, and an unrelated file that must survive.
	os.WriteFile(filepath.Join(dir, "CFL099.md"), []byte("old"), 0o644)
	os.WriteFile(filepath.Join(dir, "notes.md"), []byte("keep"), 0o644)
	if err := WriteDocs(dir, docs); err != nil {
		t.Fatal(err)
	}
	if err := CheckDocs(dir, docs); err != nil {
		t.Fatalf("CheckDocs after WriteDocs: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "CFL099.md")); !os.IsNotExist(err) {
		t.Error("WriteDocs kept the page of a removed rule")
	}
	if _, err := os.Stat(filepath.Join(dir, "notes.md")); err != nil {
		t.Error("WriteDocs removed an unrelated file")
	}
	b.Summary = "Changed"
	err := CheckDocs(dir, docs)
	if err == nil || !strings.Contains(err.Error(), "CFL002.md: out of date") || !strings.Contains(err.Error(), "README.md: out of date") {
		t.Fatalf("CheckDocs after a change: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "CFL098.md"), []byte("x"), 0o644)
	if err := CheckDocs(dir, docs); err == nil || !strings.Contains(err.Error(), "CFL098.md: no such rule") {
		t.Fatalf("CheckDocs with an extra page: %v", err)
	}
	page, _ := os.ReadFile(filepath.Join(dir, "CFL001.md"))
	if !strings.HasPrefix(string(page), "<!-- Generated") || !strings.Contains(string(page), a.Markdown()) {
		t.Error("page is not header + Markdown()")
	}
}

func TestLevels(t *testing.T) {
	cases := []struct {
		s            finding.Severity
		level, probl string
	}{{finding.Error, "error", "error"}, {finding.Warning, "warning", "warning"}, {finding.Info, "note", "recommendation"}}
	for _, c := range cases {
		if SARIFLevel(c.s) != c.level || ProblemSeverity(c.s) != c.probl {
			t.Errorf("%v: %s/%s", c.s, SARIFLevel(c.s), ProblemSeverity(c.s))
		}
	}
}

// TestWriteText: `rule --all` prints every rule's page, one blank line
// between two pages and none before the first or after the last.
func TestWriteText(t *testing.T) {
	for _, docs := range [][]*Doc{nil, {CFL001}, {CFL001, CFL002, CFL003}} {
		var b bytes.Buffer
		if err := WriteText(&b, docs); err != nil {
			t.Fatal(err)
		}
		got := b.String()
		var want strings.Builder
		for i, d := range docs {
			if i > 0 {
				want.WriteString("\n")
			}
			want.WriteString(d.Text())
		}
		if got != want.String() {
			t.Errorf("WriteText(%d docs) = %q, want %q", len(docs), got, want.String())
		}
		if len(docs) > 1 && !strings.Contains(got, "\n\n# "+docs[1].Name+" ("+docs[1].Code+")") {
			t.Errorf("no blank line before the second page:\n%s", got)
		}
	}
}
