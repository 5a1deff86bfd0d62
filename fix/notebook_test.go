package fix_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/cudaforklint/cudaforklint/analyzer"
	"github.com/cudaforklint/cudaforklint/config"
	"github.com/cudaforklint/cudaforklint/finding"
	"github.com/cudaforklint/cudaforklint/fix"
	"github.com/cudaforklint/cudaforklint/passes/pyprogram"
	"github.com/cudaforklint/cudaforklint/ruledoc"
	"github.com/cudaforklint/cudaforklint/rules"
)

// copyFixture copies files of testdata/py/notebooks into a new directory.
func copyFixture(t *testing.T, names ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join("..", "testdata", "py", "notebooks", n))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, n), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func check(t *testing.T, dir string, codes ...string) *analyzer.Result {
	t.Helper()
	l, err := config.NewLoader(ruledoc.All(), config.Overrides{Select: codes, Isolated: true})
	if err != nil {
		t.Fatal(err)
	}
	res, err := analyzer.Run(context.Background(), analyzer.Options{Split: pyprogram.Split, Paths: []string{dir}, Analyzers: rules.All(), Policy: config.NewPolicy(l), WorkDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Errors) > 0 {
		t.Fatalf("errors: %v", res.Errors)
	}
	return res
}

func cellsOf(t *testing.T, raw []byte) []map[string]any {
	t.Helper()
	var nb struct {
		Cells []map[string]any `json:"cells"`
	}
	if err := json.Unmarshal(raw, &nb); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	return nb.Cells
}

// changedRegion returns the span of b that differs from a: b[start:end]
// replaced a[start:len(a)-(len(b)-end)].
func changedRegion(a, b []byte) (start, endA, endB int) {
	for start < len(a) && start < len(b) && a[start] == b[start] {
		start++
	}
	endA, endB = len(a), len(b)
	for endA > start && endB > start && a[endA-1] == b[endB-1] {
		endA--
		endB--
	}
	return start, endA, endB
}

// TestNotebookFixRoundTrip applies CFL001's unsafe fix ("fork" becomes
// "spawn") to a notebook: only the source of that cell changes, every other
// byte of the file (outputs, metadata, indentation, the final newline) is
// kept, and the finding is gone.
func TestNotebookFixRoundTrip(t *testing.T) {
	dir := copyFixture(t, "fix_spawn.ipynb", "workers.py")
	path := filepath.Join(dir, "fix_spawn.ipynb")
	before, _ := os.ReadFile(path)
	res := check(t, dir, "CFL001")
	if len(res.Findings) != 1 || res.Findings[0].Cell != 2 {
		t.Fatalf("findings %+v, want one CFL001 in cell 2", res.Findings)
	}
	fx := res.Findings[0].Fixes[0]
	if fx.Applicability != finding.Unsafe || fx.Edits[0].Cell != 3 {
		t.Fatalf("fix %+v, want an unsafe edit of cell 3", fx)
	}

	fr := fix.Apply(res.Findings, fix.Options{Unsafe: true, Diff: true, ReadFile: res.ReadFile, WorkDir: dir})
	if err := fr.Err(); err != nil {
		t.Fatal(err)
	}
	wantDiff := "--- a/fix_spawn.ipynb:cell 3\n+++ b/fix_spawn.ipynb:cell 3\n@@ -1,4 +1,4 @@\n-ctx = mp.get_context(\"fork\")\n+ctx = mp.get_context(\"spawn\")\n"
	if !strings.HasPrefix(fr.Diff(), wantDiff) {
		t.Errorf("diff:\n%s\nwant the prefix:\n%s", fr.Diff(), wantDiff)
	}
	if now, _ := os.ReadFile(path); !bytes.Equal(now, before) {
		t.Fatal("--diff wrote the notebook")
	}

	fr = fix.Apply(res.Findings, fix.Options{Unsafe: true, ReadFile: res.ReadFile, WorkDir: dir})
	if err := fr.Err(); err != nil || len(fr.Fixed) != 1 {
		t.Fatalf("fixed %v, err %v", fr.Fixed, err)
	}
	after, _ := os.ReadFile(path)
	cb, ca := cellsOf(t, before), cellsOf(t, after)
	if len(cb) != len(ca) {
		t.Fatalf("%d cells, was %d", len(ca), len(cb))
	}
	for i := range cb {
		if i == 2 {
			src := ca[i]["source"].([]any)
			if src[0] != "ctx = mp.get_context(\"spawn\")\n" {
				t.Errorf("cell 3 source %q", src)
			}
			delete(ca[i], "source")
			delete(cb[i], "source")
		}
		if !reflect.DeepEqual(cb[i], ca[i]) {
			t.Errorf("cell %d changed:\n%v\n%v", i+1, cb[i], ca[i])
		}
	}
	start, endA, endB := changedRegion(before, after)
	if got, want := string(before[start:endA])+" -> "+string(after[start:endB]), "fork -> spawn"; got != want {
		t.Errorf("the bytes that changed: %q, want %q", got, want)
	}
	if !bytes.HasSuffix(after, []byte("}\n")) {
		t.Error("the final newline is gone")
	}
	if res := check(t, dir, "CFL001", "CFL007"); len(res.Findings) != 0 {
		t.Errorf("after the fix: %v", res.Findings)
	}
}

// TestNotebookSafeFix removes a stale noqa in a cell (CFL100's safe fix);
// the cell's source was one string and stays one.
func TestNotebookSafeFix(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "nb.ipynb")
	raw := "{\n \"cells\": [\n  {\"cell_type\": \"code\", \"metadata\": {}, \"outputs\": [], \"source\": \"import os\\nx = 1  # noqa: CFL001\\n\"},\n  {\"cell_type\": \"code\", \"metadata\": {}, \"outputs\": [], \"source\": [\"%ls\\n\", \"y = 2\"]}\n ],\n \"metadata\": {},\n \"nbformat\": 4,\n \"nbformat_minor\": 4\n}"
	os.WriteFile(path, []byte(raw), 0o644)
	res := check(t, dir, "CFL001", "CFL100")
	if len(res.Findings) != 1 || res.Findings[0].Code != "CFL100" || res.Findings[0].Cell != 1 || res.Findings[0].Start.Line != 2 {
		t.Fatalf("findings %+v, want CFL100 at cell 1 line 2", res.Findings)
	}
	fr := fix.Apply(res.Findings, fix.Options{ReadFile: res.ReadFile, WorkDir: dir})
	if err := fr.Err(); err != nil || len(fr.Fixed) != 1 {
		t.Fatalf("fixed %v, err %v", fr.Fixed, err)
	}
	after, _ := os.ReadFile(path)
	want := strings.Replace(raw, `x = 1  # noqa: CFL001\n`, `x = 1\n`, 1)
	if string(after) != want {
		t.Errorf("got\n%s\nwant\n%s", after, want)
	}
}

// TestNotebookChangedSinceChecked: a notebook edited between the check and
// the fix is left alone.
func TestNotebookChangedSinceChecked(t *testing.T) {
	dir := copyFixture(t, "fix_spawn.ipynb", "workers.py")
	path := filepath.Join(dir, "fix_spawn.ipynb")
	res := check(t, dir, "CFL001")
	before, _ := os.ReadFile(path)
	edited := bytes.Replace(before, []byte("p.join()"), []byte("p.join(5)"), 1)
	os.WriteFile(path, edited, 0o644)
	fr := fix.Apply(res.Findings, fix.Options{Unsafe: true, ReadFile: res.ReadFile, WorkDir: dir})
	if err := fr.Err(); err == nil || !strings.Contains(err.Error(), "changed since it was checked") {
		t.Errorf("err %v", err)
	}
	if now, _ := os.ReadFile(path); !bytes.Equal(now, edited) {
		t.Error("the notebook was written")
	}
}

// TestNotebookFixRefused: a fix that would write before a cell magic is
// shown, never applied, and says why.
func TestNotebookFixRefused(t *testing.T) {
	dir := t.TempDir()
	cell := func(src ...string) map[string]any {
		return map[string]any{"cell_type": "code", "metadata": map[string]any{}, "outputs": []any{}, "source": src}
	}
	nb := map[string]any{"nbformat": 4, "nbformat_minor": 5, "metadata": map[string]any{}, "cells": []any{
		cell("\"\"\"Forks after the check.\"\"\"\n"),
		cell("%%capture\n", "import torch\n", "torch.manual_seed(0)\n"),
		cell("import os\n", "if torch.cuda.is_available():\n", "    pid = os.fork()\n", "    if pid == 0:\n", "        torch.ones(1).cuda()\n"),
	}}
	b, _ := json.MarshalIndent(nb, "", " ")
	os.WriteFile(filepath.Join(dir, "nb.ipynb"), b, 0o644)
	res := check(t, dir, "CFL001")
	if len(res.Findings) != 1 {
		t.Fatalf("findings %v", res.Findings)
	}
	var nvml *finding.Fix
	for i, fx := range res.Findings[0].Fixes {
		if strings.Contains(fx.Message, "PYTORCH_NVML_BASED_CUDA_CHECK") {
			nvml = &res.Findings[0].Fixes[i]
		}
	}
	if nvml == nil || nvml.Applicability != finding.DisplayOnly || !strings.Contains(nvml.Message, "not applied to the notebook: it would change the %%capture line of cell 2") {
		t.Errorf("the NVML fix: %+v", nvml)
	}
}
