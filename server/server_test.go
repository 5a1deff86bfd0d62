package server

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/cudaforklint/cudaforklint/ruledoc"
	"github.com/cudaforklint/cudaforklint/server/internal/protocol"
)

func rng(l1, c1, l2, c2 int) protocol.Range {
	return protocol.Range{Start: protocol.Position{Line: l1, Character: c1}, End: protocol.Position{Line: l2, Character: c2}}
}

// TestDiagnosticsOnOpen: opening a hazard publishes CFL001 at the
// initialization, with the rule's severity, its page, and the related
// locations except the primary one.
func TestDiagnosticsOnOpen(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "train.py")
	writeFiles(t, dir, map[string]string{"train.py": hazard})
	c := startServer(t, clientOptions{folders: []string{dir}})
	uri := c.open(path, hazard)
	p := c.waitPublish(uri, 0, hasVersion(1))
	if len(p.Diagnostics) != 1 {
		t.Fatalf("diagnostics %s, want one", mustJSON(p.Diagnostics))
	}
	d := p.Diagnostics[0]
	want := protocol.Diagnostic{
		Range:           rng(10, 4, 10, 21),
		Severity:        protocol.SeverityError,
		Code:            "CFL001",
		CodeDescription: &protocol.CodeDescription{Href: ruledoc.CFL001.URL()},
		Source:          "cudaforklint",
	}
	got := d
	got.Message, got.RelatedInformation = "", nil
	if !reflect.DeepEqual(got, want) {
		t.Errorf("diagnostic %s, want %s", mustJSON(got), mustJSON(want))
	}
	if !strings.Contains(d.Message, "`torch.cuda.init()` initializes CUDA before the process forks") {
		t.Errorf("message %q", d.Message)
	}
	var related []string
	for _, r := range d.RelatedInformation {
		if r.Location.URI != uri {
			t.Errorf("related location in %s, want %s", r.Location.URI, uri)
		}
		s := r.Location.Range.Start
		related = append(related, fmt.Sprintf("%d:%d:%s", s.Line, s.Character, r.Message))
	}
	wantRelated := []string{
		`12:4:Children are forked here (a Process, the "fork" start method)`,
		`11:23:The "fork" start method is chosen here`,
		"11:46:The child runs `child`",
		"6:4:The child uses CUDA here (`torch.zeros()`)",
	}
	if !reflect.DeepEqual(related, wantRelated) {
		t.Errorf("related %q, want %q", related, wantRelated)
	}
}

// clean is hazard with the "spawn" start method: no finding.
var clean = strings.Replace(hazard, `get_context("fork")`, `get_context("spawn")`, 1)

// forkLiteral is the range of "fork" (with its quotes) in hazard.
var forkLiteral = rng(11, 23, 11, 29)

// TestBufferNotDisk: the server checks what the editor holds, on open, on
// change and on save, and clears a closed document.
func TestBufferNotDisk(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "train.py")
	writeFiles(t, dir, map[string]string{"train.py": clean})
	c := startServer(t, clientOptions{folders: []string{dir}})

	uri := c.open(path, hazard)
	if p := c.waitPublish(uri, 0, hasVersion(1)); !reflect.DeepEqual(codes(p.Diagnostics), []string{"CFL001"}) {
		t.Fatalf("on open: %v, want [CFL001] from the buffer (the disk is clean)", codes(p.Diagnostics))
	}
	v := c.change(uri, protocol.TextDocumentContentChangeEvent{Range: &forkLiteral, Text: `"spawn"`})
	if p := c.waitPublish(uri, 0, hasVersion(v)); len(p.Diagnostics) != 0 {
		t.Fatalf("after the change to spawn: %v, want none", codes(p.Diagnostics))
	}
	v = c.replaceAll(uri, hazard)
	c.waitPublish(uri, 0, hasVersion(v))
	n := c.published()
	c.notify(protocol.MethodDidSave, protocol.DidSaveTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}})
	if p := c.waitPublish(uri, n, hasVersion(v)); len(p.Diagnostics) != 1 {
		t.Errorf("on save: %v, want [CFL001]", codes(p.Diagnostics))
	}
	n = c.published()
	c.notify(protocol.MethodDidClose, protocol.DidCloseTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}})
	c.waitPublish(uri, n, func(p protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 0 })
}

// TestDebounce: a burst of changes, each within the delay of the one
// before, is checked once, at its last version (without the delay, the
// worker would have checked the first changes: a check takes milliseconds).
func TestDebounce(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "train.py")
	c := startServer(t, clientOptions{folders: []string{dir}, debounceMs: 1000})
	uri := c.open(path, clean)
	c.waitPublish(uri, 0, hasVersion(1))
	n := c.published()
	var last int
	for i := 0; i < 5; i++ {
		text := clean
		if i%2 == 0 {
			text = hazard
		}
		last = c.replaceAll(uri, text)
		time.Sleep(30 * time.Millisecond)
	}
	if p := c.waitPublish(uri, n, hasVersion(last)); len(p.Diagnostics) != 1 {
		t.Errorf("after the burst: %v, want [CFL001]", codes(p.Diagnostics))
	}
	c.barrier(dir)
	if ps := c.publishesOf(uri, n); len(ps) != 1 {
		t.Errorf("%d publishes after a burst of 5 changes, want 1: %s", len(ps), mustJSON(ps))
	}
}

// main.py forks a child that uses CUDA after calling gpu.setup(); gpu.py
// is clean on disk; gpuInit makes setup() initialize CUDA.
const (
	mainPy = `import multiprocessing as mp

import gpu


def child():
    import torch

    torch.zeros(1, device="cuda")


if __name__ == "__main__":
    gpu.setup()
    p = mp.get_context("fork").Process(target=child)
    p.start()
    p.join()
`
	gpuPy = `def setup():
    return 0
`
	gpuInit = `import torch


def setup():
    torch.cuda.init()
    return 0
`
)

// TestDependents: a change in a module re-checks the open files that read
// it (in the editor, on close and on disk), and only those; the finding
// lies in the module and is published there.
func TestDependents(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"main.py": mainPy, "gpu.py": gpuPy, "other.py": "import json\n"})
	c := startServer(t, clientOptions{folders: []string{dir}})
	mainURI := c.open(filepath.Join(dir, "main.py"), mainPy)
	gpuURI := c.open(filepath.Join(dir, "gpu.py"), gpuPy)
	otherURI := c.open(filepath.Join(dir, "other.py"), "import json\n")
	c.barrier(dir)

	n := c.published()
	c.replaceAll(gpuURI, gpuInit)
	p := c.waitPublish(gpuURI, n, func(p protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) > 0 })
	if got := codes(p.Diagnostics); !reflect.DeepEqual(got, []string{"CFL001"}) || p.Diagnostics[0].Range.Start.Line != 4 {
		t.Errorf("gpu.py: %s, want CFL001 on line 4 (0-based)", mustJSON(p.Diagnostics))
	}
	c.barrier(dir)
	if len(c.publishesOf(mainURI, n)) == 0 {
		t.Errorf("main.py, which imports gpu.py, was not checked again")
	}
	if ps := c.publishesOf(otherURI, n); len(ps) != 0 {
		t.Errorf("other.py, which does not import gpu.py, was checked again: %s", mustJSON(ps))
	}

	// Closing gpu.py drops its buffer: main.py reads the clean disk again.
	n = c.published()
	c.notify(protocol.MethodDidClose, protocol.DidCloseTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: gpuURI}})
	c.waitPublish(gpuURI, n, func(p protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 0 })

	// A change on disk, reported by the client's file watcher.
	writeFiles(t, dir, map[string]string{"gpu.py": gpuInit})
	n = c.published()
	c.notify(protocol.MethodDidChangeWatchedFiles, protocol.DidChangeWatchedFilesParams{Changes: []protocol.FileEvent{{URI: gpuURI, Type: protocol.FileChanged}}})
	c.waitPublish(gpuURI, n, func(p protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 1 })
}

// TestCodeActions: the fix of a finding as a quick fix (unsafe, so
// labelled), the noqa quick fix, both applied; a range without findings
// gets nothing.
func TestCodeActions(t *testing.T) {
	for _, docChanges := range []bool{false, true} {
		t.Run(fmt.Sprintf("documentChanges=%v", docChanges), func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "train.py")
			c := startServer(t, clientOptions{folders: []string{dir}, documentChanges: docChanges})
			uri := c.open(path, hazard)
			c.waitPublish(uri, 0, hasVersion(1))

			if got := c.codeActions(uri, rng(0, 0, 0, 0)); len(got) != 0 {
				t.Errorf("actions on line 0: %s, want none", mustJSON(got))
			}
			actions := c.codeActions(uri, rng(10, 8, 10, 8))
			var titles []string
			for _, a := range actions {
				titles = append(titles, a.Title)
				if a.Kind != protocol.KindQuickFix || len(a.Diagnostics) != 1 || a.Diagnostics[0].Code != "CFL001" {
					t.Errorf("action %q: kind %q, diagnostics %v", a.Title, a.Kind, codes(a.Diagnostics))
				}
				if docChanges != (len(a.Edit.DocumentChanges) > 0) || docChanges && *a.Edit.DocumentChanges[0].TextDocument.Version != 1 {
					t.Errorf("action %q: edit %s, want documentChanges=%v at version 1", a.Title, mustJSON(a.Edit), docChanges)
				}
			}
			want := []string{`Use the "spawn" start method; the children's arguments must pickle (unsafe)`, "Disable CFL001 for this line"}
			if !reflect.DeepEqual(titles, want) {
				t.Fatalf("titles %q, want %q", titles, want)
			}
			fixed, err := applyEdits(hazard, editsFor(actions[0].Edit, uri), c.enc)
			if err != nil || fixed != clean {
				t.Errorf("the spawn fix gives %q (%v), want %q", fixed, err, clean)
			}
			suppressed, err := applyEdits(hazard, editsFor(actions[1].Edit, uri), c.enc)
			wantLine := "    torch.cuda.init()  # noqa: CFL001\n"
			if err != nil || suppressed != strings.Replace(hazard, "    torch.cuda.init()\n", wantLine, 1) {
				t.Fatalf("the noqa fix gives %q (%v)", suppressed, err)
			}
			v := c.replaceAll(uri, suppressed)
			if p := c.waitPublish(uri, 0, hasVersion(v)); len(p.Diagnostics) != 0 {
				t.Errorf("after the noqa fix: %v, want none", codes(p.Diagnostics))
			}
		})
	}
}

// TestNoqaExtendsDirective: a line with another tool's `# noqa: X` gets
// the code appended to its list.
func TestNoqaExtendsDirective(t *testing.T) {
	dir := t.TempDir()
	text := strings.Replace(hazard, "    torch.cuda.init()\n", "    torch.cuda.init()  # noqa: E501 (long)\n", 1)
	c := startServer(t, clientOptions{folders: []string{dir}})
	uri := c.open(filepath.Join(dir, "train.py"), text)
	c.waitPublish(uri, 0, hasVersion(1))
	var noqa *protocol.CodeAction
	for _, a := range c.codeActions(uri, rng(10, 0, 10, 40), protocol.KindQuickFix) {
		if a.Title == "Disable CFL001 for this line" {
			noqa = &a
		}
	}
	if noqa == nil {
		t.Fatal("no noqa action")
	}
	got, err := applyEdits(text, editsFor(noqa.Edit, uri), c.enc)
	if want := strings.Replace(text, "E501 (long)", "E501, CFL001 (long)", 1); err != nil || got != want {
		t.Errorf("got %q (%v), want %q", got, err, want)
	}
}

// TestFixAll: source.fixAll.cudaforklint applies the safe fixes (here
// CFL100's removal of a stale noqa) and leaves the unsafe ones.
func TestFixAll(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"cudaforklint.toml": "extend-select = [\"CFL100\"]\n"})
	text := hazard + "x = 1  # noqa: CFL005\ny = 2  # noqa: CFL002\n"
	c := startServer(t, clientOptions{folders: []string{dir}})
	uri := c.open(filepath.Join(dir, "train.py"), text)
	p := c.waitPublish(uri, 0, hasVersion(1))
	if got := codes(p.Diagnostics); !reflect.DeepEqual(got, []string{"CFL001", "CFL100", "CFL100"}) {
		t.Fatalf("diagnostics %v", got)
	}
	for _, only := range [][]string{{"source.fixAll"}, {"source"}, {protocol.KindFixAll}, nil} {
		var all []protocol.CodeAction
		for _, a := range c.codeActions(uri, rng(0, 0, 0, 0), only...) {
			if a.Kind == protocol.KindFixAll {
				all = append(all, a)
			}
		}
		if len(all) != 1 {
			t.Fatalf("only=%v: %d fix-all actions, want 1", only, len(all))
		}
		got, err := applyEdits(text, editsFor(all[0].Edit, uri), c.enc)
		if want := hazard + "x = 1\ny = 2\n"; err != nil || got != want {
			t.Errorf("only=%v: fix all gives %q (%v), want %q", only, got, err, want)
		}
	}
	if got := c.codeActions(uri, rng(0, 0, 0, 0), protocol.KindQuickFix); len(got) != 0 {
		t.Errorf("quick fixes only: got %s", mustJSON(got))
	}
	var remove *protocol.CodeAction
	for _, a := range c.codeActions(uri, rng(14, 10, 14, 10)) {
		if a.Title == "Remove the unused `noqa` directive" {
			remove = &a
		}
	}
	if remove == nil || !remove.IsPreferred {
		t.Errorf("the safe CFL100 fix: %s, want a preferred quick fix", mustJSON(remove))
	}
}

// TestPositionEncoding: columns are UTF-16 code units by default and bytes
// when the client offers UTF-8, in diagnostics, in the edits of code
// actions and in incremental changes.
func TestPositionEncoding(t *testing.T) {
	text := strings.Replace(hazard, "    torch.cuda.init()\n", "    s = \"é😀\"; torch.cuda.init()\n", 1)
	for _, tc := range []struct {
		utf8  bool
		enc   string
		start int
	}{
		{false, protocol.EncodingUTF16, 15}, // 4 + `s = "` + é (1) + 😀 (2) + `"; `
		{true, protocol.EncodingUTF8, 18},   // 4 + `s = "` + é (2) + 😀 (4) + `"; `
	} {
		t.Run(tc.enc, func(t *testing.T) {
			dir := t.TempDir()
			c := startServer(t, clientOptions{folders: []string{dir}, utf8: tc.utf8})
			if c.enc != tc.enc {
				t.Fatalf("negotiated %q, want %q", c.enc, tc.enc)
			}
			uri := c.open(filepath.Join(dir, "train.py"), text)
			p := c.waitPublish(uri, 0, hasVersion(1))
			if len(p.Diagnostics) != 1 || p.Diagnostics[0].Range != rng(10, tc.start, 10, tc.start+17) {
				t.Fatalf("diagnostics %s, want one at 10:%d", mustJSON(p.Diagnostics), tc.start)
			}
			var noqa *protocol.CodeAction
			for _, a := range c.codeActions(uri, rng(10, tc.start, 10, tc.start)) {
				if a.Title == "Disable CFL001 for this line" {
					noqa = &a
				}
			}
			if noqa == nil {
				t.Fatal("no noqa action")
			}
			got, err := applyEdits(text, editsFor(noqa.Edit, uri), c.enc)
			if want := strings.Replace(text, "torch.cuda.init()\n", "torch.cuda.init()  # noqa: CFL001\n", 1); err != nil || got != want {
				t.Errorf("the noqa edit gives %q (%v), want %q", got, err, want)
			}
			r := rng(10, tc.start, 10, tc.start+17)
			v := c.change(uri, protocol.TextDocumentContentChangeEvent{Range: &r, Text: "pass"})
			if p := c.waitPublish(uri, 0, hasVersion(v)); len(p.Diagnostics) != 0 {
				t.Errorf("after replacing the call: %s, want none", mustJSON(p.Diagnostics))
			}
		})
	}
}

// TestConfiguration: settings come from the folder's configuration file,
// are reloaded when the watcher reports a change, and configuration errors
// are shown; each workspace folder has its own.
func TestConfiguration(t *testing.T) {
	root := t.TempDir()
	a, b := filepath.Join(root, "a"), filepath.Join(root, "b")
	writeFiles(t, root, map[string]string{
		"a/cudaforklint.toml": "ignore = [\"CFL001\"]\n",
		"a/train.py":          hazard,
		"b/train.py":          hazard,
		"b/pyproject.toml":    "[tool.cudaforklint]\nextend-exclude = [\"generated_*.py\"]\n",
	})
	c := startServer(t, clientOptions{folders: []string{a, b}, dynamicWatch: true})
	uriA := c.open(filepath.Join(a, "train.py"), hazard)
	uriB := c.open(filepath.Join(b, "train.py"), hazard)
	uriGen := c.open(filepath.Join(b, "generated_1.py"), hazard)
	if p := c.waitPublish(uriA, 0, hasVersion(1)); len(p.Diagnostics) != 0 {
		t.Errorf("a/ ignores CFL001: %v", codes(p.Diagnostics))
	}
	if p := c.waitPublish(uriB, 0, hasVersion(1)); len(p.Diagnostics) != 1 {
		t.Errorf("b/ selects CFL001: %v", codes(p.Diagnostics))
	}
	if p := c.waitPublish(uriGen, 0, hasVersion(1)); len(p.Diagnostics) != 0 {
		t.Errorf("b/generated_1.py is excluded: %v", codes(p.Diagnostics))
	}

	c.waitRegistrations("**/pyproject.toml", "**/cudaforklint.toml", "**/*.py")

	cfgA := filepath.Join(a, "cudaforklint.toml")
	writeFiles(t, a, map[string]string{"cudaforklint.toml": "ignore = []\n"})
	n := c.published()
	c.notify(protocol.MethodDidChangeWatchedFiles, protocol.DidChangeWatchedFilesParams{Changes: []protocol.FileEvent{{URI: uriOf(cfgA), Type: protocol.FileChanged}}})
	c.waitPublish(uriA, n, func(p protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 1 })

	writeFiles(t, a, map[string]string{"cudaforklint.toml": "selct = [\"ALL\"]\n"})
	c.notify(protocol.MethodDidChangeWatchedFiles, protocol.DidChangeWatchedFilesParams{Changes: []protocol.FileEvent{{URI: uriOf(cfgA), Type: protocol.FileChanged}}})
	c.barrier(root)
	c.mu.Lock()
	msgs := mustJSON(c.messages)
	c.mu.Unlock()
	if !strings.Contains(msgs, `unknown key \"selct\"`) {
		t.Errorf("messages %s, want the configuration error", msgs)
	}
}

// TestNoqaAcrossFiles: the noqa action on a finding that lies in an
// imported module (found by checking the file that imports it) silences
// it.
func TestNoqaAcrossFiles(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"main.py": mainPy, "gpu.py": gpuInit})
	c := startServer(t, clientOptions{folders: []string{dir}})
	c.open(filepath.Join(dir, "main.py"), mainPy)
	gpuURI := c.open(filepath.Join(dir, "gpu.py"), gpuInit)
	c.waitPublish(gpuURI, 0, func(p protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 1 })
	var noqa *protocol.CodeAction
	for _, a := range c.codeActions(gpuURI, rng(4, 4, 4, 4)) {
		if a.Title == "Disable CFL001 for this line" {
			noqa = &a
		}
	}
	if noqa == nil {
		t.Fatal("no noqa action on the finding in gpu.py")
	}
	text, err := applyEdits(gpuInit, editsFor(noqa.Edit, gpuURI), c.enc)
	if err != nil || !strings.Contains(text, "    torch.cuda.init()  # noqa: CFL001\n") {
		t.Fatalf("the noqa edit gives %q (%v)", text, err)
	}
	v := c.replaceAll(gpuURI, text)
	c.barrier(dir)
	ps := c.publishesOf(gpuURI, 0)
	if last := ps[len(ps)-1]; len(last.Diagnostics) != 0 {
		t.Errorf("after the noqa (version %d), gpu.py still has %s", v, mustJSON(last.Diagnostics))
	}
}

// TestNoqaEndsTheLogicalLine: the noqa quick fix for a finding on a line
// that a backslash continues, or that opens a triple-quoted string, goes
// where the logical line ends (appended to the physical line it would be a
// SyntaxError, or text inside the string), in LF and CRLF files; applied,
// it suppresses the finding.
func TestNoqaEndsTheLogicalLine(t *testing.T) {
	for _, tc := range []struct{ name, line, want string }{
		{"continuation", "    ok = torch.cuda.init() or \\\n        True\n", "    ok = torch.cuda.init() or \\\n        True  # noqa: CFL001\n"},
		{"triple-quoted string", "    torch.cuda.init(); print(\"\"\"\ncuda is up\n\"\"\")\n", "    torch.cuda.init(); print(\"\"\"\ncuda is up\n\"\"\")  # noqa: CFL001\n"},
	} {
		for _, eol := range []string{"\n", "\r\n"} {
			t.Run(fmt.Sprintf("%s %q", tc.name, eol), func(t *testing.T) {
				dir := t.TempDir()
				text := strings.ReplaceAll(strings.Replace(hazard, "    torch.cuda.init()\n", tc.line, 1), "\n", eol)
				c := startServer(t, clientOptions{folders: []string{dir}})
				uri := c.open(filepath.Join(dir, "train.py"), text)
				if p := c.waitPublish(uri, 0, hasVersion(1)); !reflect.DeepEqual(codes(p.Diagnostics), []string{"CFL001"}) {
					t.Fatalf("diagnostics %v", codes(p.Diagnostics))
				}
				var action *protocol.CodeAction
				for _, a := range c.codeActions(uri, rng(10, 12, 10, 12)) {
					if a.Title == "Disable CFL001 for this line" {
						action = &a
					}
				}
				if action == nil {
					t.Fatal("no noqa action")
				}
				got, err := applyEdits(text, editsFor(action.Edit, uri), c.enc)
				if want := strings.ReplaceAll(strings.Replace(hazard, "    torch.cuda.init()\n", tc.want, 1), "\n", eol); err != nil || got != want {
					t.Fatalf("got %q (%v), want %q", got, err, want)
				}
				v := c.replaceAll(uri, got)
				if p := c.waitPublish(uri, 0, hasVersion(v)); len(p.Diagnostics) != 0 {
					t.Errorf("after the noqa: %v, want none", codes(p.Diagnostics))
				}
			})
		}
	}
}
