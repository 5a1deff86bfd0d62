package output

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/cudaforklint/cudaforklint/finding"
	"github.com/cudaforklint/cudaforklint/ruledoc"
	"github.com/fatih/color"
)

var update = flag.Bool("update", false, "rewrite the golden files (output/testdata and testdata/sarif)")

// golden compares got with the file at path, or rewrites it with -update.
func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./output -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (run go test ./output -update and review the diff)\n--- got ---\n%s", path, got)
	}
}

// The fixture files. hazard.py has non-ASCII text before a span on line 11
// ("ñ" is 2 bytes and 1 UTF-16 unit, "😀" 4 bytes and 2 units).
var files = map[string]string{
	"hazard.py": `import multiprocessing as mp
import os
import torch


def init():
    torch.cuda.init()


def work():
    msg = "ñ😀"; os.fork()


if __name__ == "__main__":
    init()
    p = mp.Process(target=work)
    p.start()
`,
	"pkg/wörk.py": "import torch\n\nresult = pool.map(\n    torch.cuda.device_count,\n    range(4),\n)\n",
}

func readFixture(p string) ([]byte, error) {
	if s, ok := files[p]; ok {
		return []byte(s), nil
	}
	return nil, fmt.Errorf("open %s: no such file or directory", p)
}

// at returns the position of the n-th (1-based) occurrence of needle in the
// file, or just after it when after is set.
func at(path, needle string, n int, after bool) finding.Position {
	src := files[path]
	off := -1
	for i := 0; i < n; i++ {
		j := strings.Index(src[off+1:], needle)
		if j < 0 {
			panic("no " + needle)
		}
		off += 1 + j
	}
	if after {
		off += len(needle)
	}
	return posAt(src, off)
}

func posAt(src string, off int) finding.Position {
	line := strings.Count(src[:off], "\n") + 1
	ls := strings.LastIndex(src[:off], "\n") + 1
	u16 := len(utf16.Encode([]rune(src[ls:off])))
	return finding.Position{Offset: off, Line: line, Column: off - ls + 1, UTF16Column: u16 + 1}
}

func span(path, needle string, n int) finding.Location {
	return finding.Location{Path: path, Start: at(path, needle, n, false), End: at(path, needle, n, true)}
}

func rules() []*ruledoc.Doc {
	base := func(code, name, summary string, sev finding.Severity, fix string) *ruledoc.Doc {
		return &ruledoc.Doc{
			Code: code, Name: name, Summary: summary, Severity: sev, DefaultEnabled: true,
			Precision: "high", Tags: []string{"correctness", "cuda", "multiprocessing"}, FixAvailable: fix,
			WhatItDoes:   "Reports this hazard: " + summary + ".",
			WhyIsThisBad: "The CUDA driver does not survive `fork`; the child\nfails or hangs at its first CUDA call.",
			Example:      "import os\nimport torch\n\ntorch.cuda.init()\nos.fork()",
			UseInstead:   "import multiprocessing as mp\n\nmp.get_context(\"spawn\").Process(target=work).start()",
			FixSafety:    "The fix changes the start method.",
			Versions:     "Python 3.10–3.13 on Linux.",
			References:   []string{"https://docs.python.org/3/library/multiprocessing.html#contexts-and-start-methods"},
		}
	}
	return []*ruledoc.Doc{
		base("CFL001", "fork-after-cuda-init", "Process started with fork after CUDA was initialized", finding.Error, "sometimes"),
		base("CFL002", "os-fork-after-cuda-init", "`os.fork()` called after CUDA was initialized", finding.Warning, "sometimes"),
		base("CFL003", "cuda-in-pool-initializer", "Pool task initializes CUDA in a forked worker", finding.Info, "never"),
		base("CFL004", "cuda-at-import", "CUDA initialized at import time of a module a child imports", finding.Warning, "never"),
	}
}

func ruleURL(code string) string { return ruledoc.BaseURL + code + ".md" }

func hazardFindings() []finding.Finding {
	start := span("hazard.py", "p.start()", 1)
	process := span("hazard.py", "mp.Process", 1)
	fork := span("hazard.py", "os.fork()", 1)
	wörk := span("pkg/wörk.py", "pool.map(", 1)
	wörk.End = at("pkg/wörk.py", ")\n", 1, false)
	wörk.End.Offset++
	wörk.End.Column++
	wörk.End.UTF16Column++
	fs := []finding.Finding{
		{
			Code: "CFL001", Name: "fork-after-cuda-init", Severity: finding.Error,
			Message:  "Process started with `fork` after CUDA was initialized [in `init()`]",
			Location: start,
			URL:      ruleURL("CFL001"),
			Related: []finding.Related{
				{Location: span("hazard.py", "init()", 3), Message: "`init()` is called here"},
				{Location: span("hazard.py", "torch.cuda.init()", 1), Message: "CUDA is initialized here by `torch.cuda.init()`"},
				{Location: start, Message: "the process is started here, with the default `fork` start method"},
				{Location: span("hazard.py", "def work", 1), Message: "the child runs `work`"},
			},
			Fixes: []finding.Fix{{
				Message: "Use the `spawn` start method", Applicability: finding.Safe,
				Edits: []finding.Edit{{Location: process, NewText: `mp.get_context("spawn").Process`}},
			}},
		},
		{
			Code: "CFL002", Name: "os-fork-after-cuda-init", Severity: finding.Warning,
			Message:  "`os.fork()` called after CUDA was initialized",
			Location: fork,
			URL:      ruleURL("CFL002"),
			Related: []finding.Related{
				{Location: span("hazard.py", "torch.cuda.init()", 1), Message: "CUDA is initialized here"},
			},
			Fixes: []finding.Fix{{
				Message: "Replace `os.fork()` with a spawned process", Applicability: finding.Unsafe,
				Edits: []finding.Edit{{Location: fork, NewText: `mp.get_context("spawn").Process(target=work).start()`}},
			}},
		},
		{
			Code: "CFL001", Name: "fork-after-cuda-init", Severity: finding.Error,
			Message:    "Process started with `fork` after CUDA was initialized",
			Location:   span("hazard.py", "os.fork()", 1),
			URL:        ruleURL("CFL001"),
			Suppressed: true,
		},
		{
			Code: "CFL003", Name: "cuda-in-pool-initializer", Severity: finding.Info,
			Message:  "Pool task `torch.cuda.device_count` initializes CUDA in a forked worker",
			Location: wörk,
			URL:      ruleURL("CFL003"),
			Fixes: []finding.Fix{{
				Message: "Create the pool with `mp.get_context(\"spawn\").Pool()`", Applicability: finding.DisplayOnly,
				Edits: []finding.Edit{{Location: span("pkg/wörk.py", "pool", 1), NewText: `mp.get_context("spawn").Pool()`}},
			}},
			Status:   "confirmed",
			Evidence: []string{"cuInit in pid 4242 before fork to pid 4243"},
		},
	}
	sortFindings(fs)
	return fs
}

func report(name string) *Report {
	r := &Report{
		Rules:    rules(),
		WorkDir:  "/home/user/my project",
		Version:  "0.1.0",
		Args:     []string{"cudaforklint", "check", "--output-format", "sarif", "it's here/"},
		ReadFile: readFixture,
	}
	switch name {
	case "hazard":
		r.Findings = hazardFindings()
		r.Files = 3
		r.SyntaxErrors = []finding.SyntaxError{{Path: "pkg/wörk.py", Line: 3, Column: 8, Message: "SyntaxError: cannot parse this code (the rest of the file was checked)"}}
		r.Errors = []finding.ToolError{{Path: "broken.py", Message: "could not read the file: permission denied"}}
		r.Notices = []finding.Notice{{Path: "hazard.py", Line: 3, Message: "could not parse lines 3–4; analyzed around them"}}
		r.ExitCode = 2
	case "suppressed":
		r.Findings = hazardFindings()
		r.Files = 2
		r.ShowSuppressed = true
		r.ExitCode = 1
	case "fixed":
		r.Findings = hazardFindings()[1:2]
		r.Files = 1
		r.Fixed = 2
		r.ExitCode = 1
	case "empty":
		r.Files = 1
	}
	return r
}

var cases = []string{"hazard", "suppressed", "fixed", "empty"}

func TestGolden(t *testing.T) {
	for _, c := range cases {
		for _, f := range Formats {
			t.Run(c+"/"+string(f), func(t *testing.T) {
				var b bytes.Buffer
				if err := Write(&b, f, report(c), Options{}); err != nil {
					t.Fatal(err)
				}
				path := filepath.Join("testdata", c+"."+string(f)+".golden")
				if f == SARIF {
					path = filepath.Join("..", "testdata", "sarif", c+".sarif")
				}
				golden(t, path, b.Bytes())
			})
		}
	}
}

func TestFullColor(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, Full, report("hazard"), Options{Color: true}); err != nil {
		t.Fatal(err)
	}
	golden(t, filepath.Join("testdata", "hazard.full-color.golden"), b.Bytes())
	if !strings.Contains(b.String(), "\x1b[") {
		t.Error("Color: true wrote no escape codes (writing to a buffer, not a terminal)")
	}
	// Never colour when not asked, even if fatih/color's global says yes.
	saved := color.NoColor
	color.NoColor = false
	defer func() { color.NoColor = saved }()
	b.Reset()
	Write(&b, Full, report("hazard"), Options{Color: false})
	if strings.Contains(b.String(), "\x1b[") {
		t.Error("Color: false wrote escape codes")
	}
}

func TestUnsafeFixesOptions(t *testing.T) {
	var b bytes.Buffer
	Write(&b, Full, report("hazard"), Options{UnsafeFixes: true})
	if !strings.Contains(b.String(), "CFL002 [*]") || !strings.Contains(b.String(), "[*] 2 fixable with the `--fix` option.\n") {
		t.Errorf("--unsafe-fixes: unsafe fix not counted as fixable:\n%s", b.String())
	}
	b.Reset()
	Write(&b, Full, report("hazard"), Options{NoUnsafeFixesHint: true})
	if strings.Contains(b.String(), "hidden") {
		t.Error("--no-unsafe-fixes: hint still shown")
	}
	b.Reset()
	r := report("hazard")
	r.Findings = r.Findings[1:2] // only the unsafe one
	Write(&b, Full, r, Options{})
	if !strings.Contains(b.String(), "No fixes available (1 hidden fix can be enabled with the `--unsafe-fixes` option).") {
		t.Errorf("unsafe-only summary:\n%s", b.String())
	}
}

// TestColumns checks the three column kinds on the non-ASCII line.
func TestColumns(t *testing.T) {
	r := report("hazard")
	var fork finding.Finding
	for _, f := range r.Findings {
		if f.Code == "CFL002" {
			fork = f
		}
	}
	line := strings.Split(files["hazard.py"], "\n")[10]
	prefix := line[:strings.Index(line, "os.fork()")]
	wantChar := utf8.RuneCountInString(prefix) + 1
	wantU16 := len(utf16.Encode([]rune(prefix))) + 1
	if fork.Start.Column == wantChar || wantChar == wantU16 {
		t.Fatal("fixture does not tell the column kinds apart")
	}
	var b bytes.Buffer
	Write(&b, Concise, r, Options{})
	if want := fmt.Sprintf("hazard.py:11:%d: CFL002 ", wantChar); !strings.Contains(b.String(), want) {
		t.Errorf("concise lacks %q:\n%s", want, b.String())
	}
	b.Reset()
	Write(&b, JSON, r, Options{})
	var objs []map[string]any
	if err := json.Unmarshal(b.Bytes(), &objs); err != nil {
		t.Fatal(err)
	}
	for _, o := range objs {
		if o["code"] == "CFL002" {
			loc := o["location"].(map[string]any)
			end := o["end_location"].(map[string]any)
			if int(loc["column"].(float64)) != wantChar || int(end["column"].(float64)) != wantChar+len("os.fork()") {
				t.Errorf("json columns %v-%v, want %d-%d", loc["column"], end["column"], wantChar, wantChar+9)
			}
		}
	}
	b.Reset()
	Write(&b, SARIF, r, Options{})
	var log sarifLog
	if err := json.Unmarshal(b.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	for _, res := range log.Runs[0].Results {
		if res.RuleID == "CFL002" {
			reg := res.Locations[0].PhysicalLocation.Region
			if reg.StartColumn != wantU16 || reg.EndColumn != wantU16+9 {
				t.Errorf("sarif columns %d-%d, want %d-%d", reg.StartColumn, reg.EndColumn, wantU16, wantU16+9)
			}
		}
	}
}

func TestSARIFStructure(t *testing.T) {
	var b bytes.Buffer
	Write(&b, SARIF, report("hazard"), Options{})
	var log sarifLog
	if err := json.Unmarshal(b.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	if len(run.Tool.Driver.Rules) != 4 {
		t.Errorf("rules: %d, want every enabled rule (4)", len(run.Tool.Driver.Rules))
	}
	if run.Tool.Driver.Rules[0].Name != "ForkAfterCudaInit" {
		t.Errorf("rule name %q", run.Tool.Driver.Rules[0].Name)
	}
	for _, res := range run.Results {
		if run.Tool.Driver.Rules[res.RuleIndex].ID != res.RuleID {
			t.Errorf("ruleIndex %d does not point at %s", res.RuleIndex, res.RuleID)
		}
		if res.PartialFingerprints["primaryLocationLineHash"] == "" {
			t.Errorf("%s: no fingerprint", res.RuleID)
		}
		for _, rl := range res.RelatedLocations {
			if !strings.Contains(res.Message.Text, fmt.Sprintf("](%d)", *rl.ID)) {
				t.Errorf("related location %d not linked from %q", *rl.ID, res.Message.Text)
			}
		}
		if res.Suppressions != nil {
			t.Errorf("suppressions without ShowSuppressed")
		}
	}
	if len(run.Results) != 3 {
		t.Errorf("%d results, want 3 (the suppressed one left out)", len(run.Results))
	}
	var first sarifResult
	for _, res := range run.Results {
		if res.RuleID == "CFL001" {
			first = res
		}
	}
	if first.RuleID != "CFL001" || len(first.RelatedLocations) != 3 || len(first.CodeFlows[0].ThreadFlows[0].Locations) != 4 {
		t.Errorf("CFL001: %d related (want 3: the primary span is skipped), %d flow steps (want 4)",
			len(first.RelatedLocations), len(first.CodeFlows[0].ThreadFlows[0].Locations))
	}
	if !strings.HasPrefix(first.Message.Text, "Process started with `fork` after CUDA was initialized \\[in `init()`\\]. Related: [") {
		t.Errorf("message %q", first.Message.Text)
	}
	inv := run.Invocations[0]
	if inv.ExecutionSuccessful || inv.ExitCode != 2 || len(inv.ToolExecutionNotifications) != 3 {
		t.Errorf("invocation %+v", inv)
	}
	if inv.WorkingDirectory.URI != "file:///home/user/my%20project/" || run.OriginalURIBaseIDs[srcRoot].URI != inv.WorkingDirectory.URI {
		t.Errorf("working directory %q", inv.WorkingDirectory.URI)
	}
	if inv.CommandLine != `cudaforklint check --output-format sarif 'it'\''s here/'` {
		t.Errorf("commandLine %q", inv.CommandLine)
	}
	for _, res := range run.Results {
		if strings.HasPrefix(res.Locations[0].PhysicalLocation.ArtifactLocation.URI, "pkg/") &&
			res.Locations[0].PhysicalLocation.ArtifactLocation.URI != "pkg/w%C3%B6rk.py" {
			t.Errorf("uri %q", res.Locations[0].PhysicalLocation.ArtifactLocation.URI)
		}
		if res.RuleID == "CFL003" && len(res.Fixes) != 0 {
			t.Error("display-only fix written to SARIF")
		}
	}
}

func TestSARIFSuppressed(t *testing.T) {
	var b bytes.Buffer
	Write(&b, SARIF, report("suppressed"), Options{})
	var log sarifLog
	json.Unmarshal(b.Bytes(), &log)
	n := 0
	for _, res := range log.Runs[0].Results {
		if res.Suppressions == nil {
			t.Error("ShowSuppressed: a result without suppressions")
		}
		if res.Suppressions != nil && len(*res.Suppressions) == 1 && (*res.Suppressions)[0].Kind == "inSource" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d inSource suppressions, want 1", n)
	}
}

func TestSARIFAdhocRuleAndAbsolutePath(t *testing.T) {
	r := &Report{
		Rules:   rules()[:1],
		WorkDir: "/w",
		Findings: []finding.Finding{{
			Code: "CFL100", Name: "unused-noqa", Severity: finding.Warning, Message: "Unused `noqa` directive",
			Location: finding.Location{Path: "/elsewhere/x.py", Start: finding.Position{Line: 1, Column: 1, UTF16Column: 1}, End: finding.Position{Line: 1, Column: 5, UTF16Column: 5}},
		}},
		ReadFile: readFixture,
	}
	var b bytes.Buffer
	Write(&b, SARIF, r, Options{})
	var log sarifLog
	json.Unmarshal(b.Bytes(), &log)
	run := log.Runs[0]
	if len(run.Tool.Driver.Rules) != 2 || run.Tool.Driver.Rules[1].ID != "CFL100" || run.Results[0].RuleIndex != 1 {
		t.Errorf("ad hoc rule: %+v", run.Tool.Driver.Rules)
	}
	loc := run.Results[0].Locations[0].PhysicalLocation.ArtifactLocation
	if loc.URI != "file:///elsewhere/x.py" || loc.URIBaseID != "" {
		t.Errorf("absolute path location %+v", loc)
	}
	if run.Results[0].PartialFingerprints != nil {
		t.Error("fingerprint for a file outside the working directory")
	}
}

func TestGitHubEscaping(t *testing.T) {
	if got := escapeProperty("a,b:c%d\r\ne"); got != "a%2Cb%3Ac%25d%0D%0Ae" {
		t.Errorf("escapeProperty = %q", got)
	}
	if got := escapeData("a,b:c%d\r\ne"); got != "a,b:c%25d%0D%0Ae" {
		t.Errorf("escapeData = %q", got)
	}
	r := &Report{Findings: []finding.Finding{{
		Code: "CFL001", Severity: finding.Error, Message: "100% bad,\nreally",
		Location: finding.Location{Path: "dir,with:odd.py",
			Start: finding.Position{Line: 2, Column: 3}, End: finding.Position{Line: 2, Column: 7}},
	}}, ReadFile: readFixture}
	var b bytes.Buffer
	Write(&b, GitHub, r, Options{})
	want := "::error title=cudaforklint (CFL001),file=dir%2Cwith%3Aodd.py,line=2,col=3,endLine=2,endColumn=7::dir,with:odd.py:2:3: CFL001 100%25 bad,%0Areally\n"
	if b.String() != want {
		t.Errorf("github:\n got %q\nwant %q", b.String(), want)
	}
}

func TestParseFormatAndDestination(t *testing.T) {
	for _, f := range Formats {
		if got, err := ParseFormat(string(f)); err != nil || got != f {
			t.Errorf("ParseFormat(%q) = %q, %v", f, got, err)
		}
	}
	if _, err := ParseFormat("xml"); err == nil || !strings.Contains(err.Error(), "full, concise, json, json-lines, github, gitlab, sarif") {
		t.Errorf("ParseFormat(xml) error %v", err)
	}
	tests := []struct {
		in   string
		want Destination
		err  bool
	}{
		{"full", Destination{Format: Full}, false},
		{"sarif:.sarif/cudaforklint.sarif", Destination{Format: SARIF, Path: ".sarif/cudaforklint.sarif"}, false},
		{"json:C:\\out\\x.json", Destination{Format: JSON, Path: "C:\\out\\x.json"}, false},
		{"json:-", Destination{Format: JSON, Path: "-"}, false},
		{"sarif:", Destination{}, true},
		{"nope:x", Destination{}, true},
	}
	for _, tt := range tests {
		got, err := ParseDestination(tt.in)
		if (err != nil) != tt.err || got != tt.want {
			t.Errorf("ParseDestination(%q) = %+v, %v", tt.in, got, err)
		}
	}
}

func TestColorEnabled(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	f, _ := os.CreateTemp(t.TempDir(), "out") // not a terminal
	defer f.Close()
	tests := []struct {
		mode string
		env  func(string) string
		want bool
	}{
		{"always", env("NO_COLOR", "1"), true},
		{"never", env("FORCE_COLOR", "1"), false},
		{"auto", env(), false}, // a file
		{"auto", env("FORCE_COLOR", "1"), true},
		{"auto", env("FORCE_COLOR", "1", "NO_COLOR", "1"), false},
		{"auto", env("FORCE_COLOR", "0"), false},
	}
	for _, tt := range tests {
		if got, err := ColorEnabled(tt.mode, f, tt.env); err != nil || got != tt.want {
			t.Errorf("ColorEnabled(%s) = %v, %v; want %v", tt.mode, got, err, tt.want)
		}
	}
	if _, err := ColorEnabled("sometimes", f, env()); err == nil {
		t.Error("bad mode accepted")
	}
}

func TestWriteProblemsAndFile(t *testing.T) {
	for _, withSyntax := range []bool{false, true} {
		var b bytes.Buffer
		WriteProblems(&b, report("hazard"), withSyntax)
		want := "error: broken.py: could not read the file: permission denied\n"
		if withSyntax {
			want += "error: pkg/wörk.py:3:8: SyntaxError: cannot parse this code (the rest of the file was checked)\n"
		}
		want += "warning: hazard.py:3: could not parse lines 3–4; analyzed around them\n"
		if b.String() != want {
			t.Errorf("WriteProblems(withSyntax=%v):\n%s", withSyntax, b.String())
		}
	}
	path := filepath.Join(t.TempDir(), ".sarif", "cudaforklint.sarif")
	if err := WriteFile(path, SARIF, report("empty"), Options{}); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(path); !json.Valid(data) {
		t.Error("WriteFile wrote invalid JSON")
	}
}

func TestSemver(t *testing.T) {
	for in, want := range map[string]string{"0.1.0": "0.1.0", "v1.2.3": "1.2.3", "1.2.3-rc.1": "1.2.3-rc.1", "(devel)": "", "1.2": "", "": ""} {
		if got := semver(in); got != want {
			t.Errorf("semver(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestDisplayWidthAndTabs(t *testing.T) {
	if w := displayWidth([]byte("\tx中")); w != tabWidth+1+2 {
		t.Errorf("displayWidth = %d", w)
	}
	r := &Report{Findings: []finding.Finding{{
		Code: "CFL001", Message: "m",
		Location: finding.Location{Path: "t.py", Start: finding.Position{Line: 1, Column: 4}, End: finding.Position{Line: 1, Column: 6}},
	}}, ReadFile: func(string) ([]byte, error) { return []byte("\t中x = 1\n"), nil }}
	var b bytes.Buffer
	Write(&b, Full, r, Options{})
	lines := strings.Split(b.String(), "\n")
	// "\t中" (4 bytes) before the span is 6 cells wide; the span "x " is 2.
	if lines[2] != "1 |     中x = 1" || lines[3] != "  |       ^^ CFL001" {
		t.Errorf("snippet:\n%s", b.String())
	}
}

func TestStatistics(t *testing.T) {
	var b bytes.Buffer
	r := report("hazard")
	var extra finding.Finding
	for _, f := range r.Findings {
		if f.Code == "CFL002" {
			extra = f
		}
	}
	extra.Fixes = nil
	r.Findings = append(r.Findings, extra) // a second CFL002, not fixable
	if err := WriteStatistics(&b, r, Options{UnsafeFixes: true}); err != nil {
		t.Fatal(err)
	}
	want := "2\tCFL002\t[-] os-fork-after-cuda-init\n1\tCFL001\t[*] fork-after-cuda-init\n1\tCFL003\t[ ] cuda-in-pool-initializer\n"
	if b.String() != want {
		t.Errorf("statistics:\n%q\nwant\n%q", b.String(), want)
	}
}

// TestVerifyStatusInEveryFormat: a finding `verify` did not see happen must not read like one it
// proved, in any format.
func TestVerifyStatusInEveryFormat(t *testing.T) {
	for _, status := range []string{"confirmed", "not observed", "refuted", "runtime only"} {
		f := finding.Finding{Code: "CFL001", Message: "m", Severity: finding.Error,
			Location: finding.Location{Path: "hazard.py", Start: at("hazard.py", "init()", 2, false), End: at("hazard.py", "init()", 2, true)},
			Status:   status}
		r := &Report{Findings: []finding.Finding{f}, WorkDir: "/w", ReadFile: readFixture}
		for _, format := range Formats {
			var b strings.Builder
			if err := Write(&b, format, r, Options{}); err != nil {
				t.Fatal(err)
			}
			want := `"status": "` + status + `"`
			switch format {
			case Concise, GitHub:
				want = "CFL001 m [" + status + "]\n"
			case Full:
				want = "= verify: " + status + "\n"
			case JSONLines:
				want = `"status":"` + status + `"`
			case GitLab:
				want = `"description": "CFL001 m [` + status + `]"`
			}
			if !strings.Contains(b.String(), want) {
				t.Errorf("%s, status %q: no %q in\n%s", format, status, want, b.String())
			}
		}
	}
}

// sortFindings orders findings as the driver hands them to the formats:
// by path, line, column, code, then message.
func sortFindings(fs []finding.Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Start.Line != b.Start.Line {
			return a.Start.Line < b.Start.Line
		}
		if a.Start.Column != b.Start.Column {
			return a.Start.Column < b.Start.Column
		}
		if a.Code != b.Code {
			return a.Code < b.Code
		}
		return a.Message < b.Message
	})
}
