package analyzer_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/cudaforklint/cudaforklint/analyzer"
	"github.com/cudaforklint/cudaforklint/config"
	"github.com/cudaforklint/cudaforklint/finding"
	"github.com/cudaforklint/cudaforklint/notebook"
	"github.com/cudaforklint/cudaforklint/passes/pyprogram"
	"github.com/cudaforklint/cudaforklint/ruledoc"
	"github.com/cudaforklint/cudaforklint/rules"
)

// writeNotebook writes a notebook with one code cell per element of cells
// (a markdown cell first, so that code cells count from 2).
func writeNotebook(t *testing.T, path string, cells ...string) {
	t.Helper()
	var cs []any
	cs = append(cs, map[string]any{"cell_type": "markdown", "metadata": map[string]any{}, "source": []string{"# notes"}})
	for _, c := range cells {
		cs = append(cs, map[string]any{
			"cell_type": "code", "execution_count": nil, "metadata": map[string]any{}, "outputs": []any{},
			"source": strings.SplitAfter(c, "\n"),
		})
	}
	b, err := json.MarshalIndent(map[string]any{"cells": cs, "metadata": map[string]any{}, "nbformat": 4, "nbformat_minor": 5}, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

func runAll(t *testing.T, dir string, paths ...string) *analyzer.Result {
	t.Helper()
	l, err := config.NewLoader(ruledoc.All(), config.Overrides{Select: []string{"ALL"}, Isolated: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		paths = []string{dir}
	}
	res, err := analyzer.Run(context.Background(), analyzer.Options{Split: pyprogram.Split, Paths: paths, Analyzers: rules.All(), Policy: config.NewPolicy(l), WorkDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func codes(fs []finding.Finding) []string {
	var out []string
	for _, f := range fs {
		if !f.Suppressed {
			out = append(out, f.Code)
		}
	}
	sort.Strings(out)
	return out
}

// TestNotebookIsTheKernelsMain runs the same code as a script and as a
// notebook: what the children of a script re-import (CFL006 through
// __main__, the children squaring numbers on the CPU; CFL004, CFL005) does
// not happen to a notebook, whose kernel's __main__ nobody re-imports. The
// starts depend on the command line: one the script always made would
// raise in the forkserver importing it, which would fork no child.
func TestNotebookIsTheKernelsMain(t *testing.T) {
	cells := []string{
		"import multiprocessing as mp\nimport sys\nimport torch\nfrom helper import square\n\ntorch.cuda.init()\n",
		"if \"--pool\" in sys.argv:\n    pool = mp.get_context(\"spawn\").Pool(2)\n    print(pool.map(square, range(4)))\n",
		"if \"--process\" in sys.argv:\n    p = mp.get_context(\"forkserver\").Process(target=square, args=(3,))\n    p.start()\n",
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "helper.py"), []byte("def square(x):\n    return x * x\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "script.py"), []byte(strings.Join(cells, "")), 0o644)
	writeNotebook(t, filepath.Join(dir, "nb.ipynb"), cells...)
	res := runAll(t, dir)
	byPath := map[string][]finding.Finding{}
	for _, f := range res.Findings {
		byPath[f.Path] = append(byPath[f.Path], f)
	}
	if got := strings.Join(codes(byPath["script.py"]), " "); !strings.Contains(got, "CFL006") || !strings.Contains(got, "CFL004") || !strings.Contains(got, "CFL005") {
		t.Errorf("script.py: %s, want CFL006, CFL004 and CFL005 (the premise of this test)", got)
	}
	if got := codes(byPath["nb.ipynb"]); len(got) != 0 {
		t.Errorf("nb.ipynb: %v, want nothing", got)
	}
	if len(res.Errors) > 0 {
		t.Errorf("errors: %v", res.Errors)
	}
}

// TestNotebookDiscovery: notebooks are found in directories and taken when
// named; ones that cannot be read are tool errors naming the file, and a
// notebook whose kernel is not Python, or a Git LFS pointer in a
// notebook's place (a clone without `git lfs pull`), is a notice.
func TestNotebookDiscovery(t *testing.T) {
	dir := t.TempDir()
	hazard := []string{"import os\nimport torch\ntorch.cuda.init()\n", "pid = os.fork()\nif pid == 0:\n    torch.ones(1).cuda()\n"}
	writeNotebook(t, filepath.Join(dir, "a.ipynb"), hazard...)
	os.MkdirAll(filepath.Join(dir, "sub"), 0o755)
	writeNotebook(t, filepath.Join(dir, "sub", "b.ipynb"), hazard...)
	os.WriteFile(filepath.Join(dir, "bad.ipynb"), []byte("{\"cells\": [\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "v3.ipynb"), []byte(`{"nbformat": 3, "worksheets": []}`), 0o644)
	os.WriteFile(filepath.Join(dir, "r.ipynb"), []byte(`{"nbformat": 4, "metadata": {"kernelspec": {"language": "R"}}, "cells": [{"cell_type": "code", "source": ["system('nvidia-smi')"]}]}`), 0o644)
	os.WriteFile(filepath.Join(dir, "lfs.ipynb"), []byte("version https://git-lfs.github.com/spec/v1\noid sha256:e4debb404dcb5023c6657f707eab60dded5b7a5327ea1d71a5476dc7ca6f919a\nsize 18728\n"), 0o644)

	res := runAll(t, dir)
	var where []string
	for _, f := range res.Findings {
		where = append(where, f.Path)
	}
	if strings.Join(where, " ") != "a.ipynb "+filepath.Join("sub", "b.ipynb") {
		t.Errorf("findings in %v, want a.ipynb and sub/b.ipynb", where)
	}
	errs := map[string]string{}
	for _, e := range res.Errors {
		errs[e.Path] = e.Message
	}
	if m := errs["bad.ipynb"]; !strings.Contains(m, "invalid notebook: line 2: not valid JSON") {
		t.Errorf("bad.ipynb: error %q", m)
	}
	if m := errs["v3.ipynb"]; !strings.Contains(m, "nbformat 3 is not supported") {
		t.Errorf("v3.ipynb: error %q", m)
	}
	if len(res.Errors) != 2 {
		t.Errorf("errors %v, want the two bad notebooks", res.Errors)
	}
	notices := map[string]string{}
	for _, n := range res.Notices {
		notices[n.Path] = n.Message
	}
	if len(res.Notices) != 2 || !strings.Contains(notices["r.ipynb"], "runs R, not Python") || !strings.Contains(notices["lfs.ipynb"], "a Git LFS pointer, not the notebook") {
		t.Errorf("notices %v, want one for r.ipynb and one for lfs.ipynb", res.Notices)
	}

	// Named on the command line.
	res = runAll(t, dir, filepath.Join(dir, "a.ipynb"))
	if len(res.Findings) != 1 || res.Findings[0].Code != "CFL001" || res.Files != 1 {
		t.Errorf("a.ipynb named: %d files, findings %v", res.Files, codes(res.Findings))
	}
}

// TestNotebookLocations checks the cell, line and column of a finding and
// of the file span, against the JSON file itself.
func TestNotebookLocations(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "nb.ipynb")
	writeNotebook(t, path,
		"%pip install torch\nimport os\nimport torch\n",
		"x = 'é'; torch.cuda.init()\n",
		"pid = os.fork()\nif pid == 0:\n    torch.ones(1).cuda()\n",
	)
	res := runAll(t, dir)
	if len(res.Findings) != 1 {
		t.Fatalf("findings %v, want one", codes(res.Findings))
	}
	f := res.Findings[0]
	if f.Cell != 3 || f.Start.Line != 1 || f.Start.Column != 11 || f.Start.UTF16Column != 10 {
		t.Errorf("location cell %d %d:%d (UTF-16 %d), want cell 3 1:11 (UTF-16 10)", f.Cell, f.Start.Line, f.Start.Column, f.Start.UTF16Column)
	}
	raw, _ := os.ReadFile(path)
	lines := bytes.Split(raw, []byte("\n"))
	if f.File == nil || f.File.Start.Line < 1 || f.File.Start.Line > len(lines) {
		t.Fatalf("file span %+v", f.File)
	}
	line := string(lines[f.File.Start.Line-1])
	if col := strings.Index(line, "torch.cuda.init()"); []rune(line[:col]) == nil || len([]rune(line[:col]))+1 != f.File.Start.Column {
		t.Errorf("file span column %d on %q, want %d", f.File.Start.Column, line, len([]rune(line[:col]))+1)
	}
	var notes []string
	for _, r := range f.Related {
		if r.Cell == 0 {
			t.Errorf("related %q has no cell", r.Message)
		}
		notes = append(notes, r.Message)
	}
	if len(notes) == 0 {
		t.Error("no related locations")
	}
	if !strings.Contains(f.Message, "cell 4, line 1") {
		t.Errorf("message does not name the fork by cell and line: %s", f.Message)
	}
}

// TestNotebookProblems: a malformed noqa is reported in its cell, with the
// line in the cell; a cell with a syntax error or left open (an unclosed
// bracket) is skipped, as the kernel would skip it, and hides nothing of
// the cells after it.
func TestNotebookProblems(t *testing.T) {
	dir := t.TempDir()
	writeNotebook(t, filepath.Join(dir, "nb.ipynb"),
		"import os\nimport torch\n",
		"x = 1\ny = 2 +* 3\n",
		"torch.cuda.init()  # noqa: cfl001\n",
		"z = (\n",
		"pid = os.fork()\nif pid == 0:\n    torch.ones(1).cuda()\n",
	)
	res := runAll(t, dir)
	var got []string
	for _, n := range res.Notices {
		got = append(got, n.Where()+": "+n.Message)
	}
	want := []string{
		"nb.ipynb:cell 3: the cell has a syntax error at line 2, column ",
		"nb.ipynb:cell 4:1: invalid `# noqa` directive",
		"nb.ipynb:cell 5: the cell ends inside a bracket",
	}
	if len(got) != len(want) {
		t.Fatalf("notices:\n%s\nwant %d", strings.Join(got, "\n"), len(want))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("notice %q, want the prefix %q", got[i], want[i])
		}
	}
	if c := codes(res.Findings); len(c) != 1 || c[0] != "CFL001" || res.Findings[0].Cell != 4 {
		t.Fatalf("findings %v, want CFL001 in cell 4 (the open cell 5 hides nothing)", c)
	}
	// The message names the fork by cell although cells were left out.
	if m := res.Findings[0].Message; !strings.Contains(m, "`os.fork()` (cell 6, line 1)") {
		t.Errorf("message %q does not name the fork's cell", m)
	}
}

// TestNotebookMagicsParse: the fixtures' magics leave nothing tree-sitter
// cannot parse.
func TestNotebookMagicsParse(t *testing.T) {
	dir, _ := filepath.Abs("../testdata/py/notebooks")
	res := runAll(t, dir)
	for _, n := range res.Notices {
		if n.Path != "r_kernel.ipynb" {
			t.Errorf("notice: %s: %s", n.Where(), n.Message)
		}
	}
	if len(res.Errors) > 0 {
		t.Errorf("errors: %v", res.Errors)
	}
}

// TestNotebookCells: a notebook an editor holds (Options.Notebooks) is
// checked from its cells, not its file, with the findings, cells, lines,
// columns and fixes the same cells in a file give, and no File span (there
// is no file form); a syntax error leaves its cell out as in a file.
func TestNotebookCells(t *testing.T) {
	cells := []string{
		"import multiprocessing as mp\nimport torch\n%pip install x\n",
		"model = torch.nn.Linear(8, 8).cuda()\n",
		"y = 2 +* 3\n",
		"def work(x):\n    return x\n\nwith mp.get_context(\"fork\").Pool(2) as pool:\n    pool.map(work, range(4))\n",
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "nb.ipynb")
	writeNotebook(t, path, cells...)
	fromFile := runAll(t, dir, path)

	// The file on disk is clean; the editor's cells are not.
	writeNotebook(t, path, "x = 1\n")
	editor := []notebook.CellText{{Type: "markdown", Text: "# notes"}}
	for _, c := range cells {
		editor = append(editor, notebook.CellText{Type: "code", Text: c})
	}
	l, err := config.NewLoader(ruledoc.All(), config.Overrides{Select: []string{"ALL"}, Isolated: true})
	if err != nil {
		t.Fatal(err)
	}
	run := func(p string, nbs map[string][]notebook.CellText) *analyzer.Result {
		res, err := analyzer.Run(context.Background(), analyzer.Options{Split: pyprogram.Split, Paths: []string{p}, Analyzers: rules.All(), Policy: config.NewPolicy(l), WorkDir: dir, Notebooks: nbs})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	fromCells := run(path, map[string][]notebook.CellText{path: editor})
	if len(fromFile.Findings) == 0 {
		t.Fatal("no findings in the notebook file")
	}
	strip := func(fs []finding.Finding) []finding.Finding {
		out := append([]finding.Finding(nil), fs...)
		for i := range out {
			out[i].File = nil
			out[i].Related = append([]finding.Related(nil), out[i].Related...)
			for j := range out[i].Related {
				out[i].Related[j].File = nil
			}
			out[i].Fixes = append([]finding.Fix(nil), out[i].Fixes...)
			for j := range out[i].Fixes {
				out[i].Fixes[j].Edits = append([]finding.Edit(nil), out[i].Fixes[j].Edits...)
				for k := range out[i].Fixes[j].Edits {
					out[i].Fixes[j].Edits[k].File = nil
				}
			}
		}
		return out
	}
	if got, want := mustMarshal(t, fromCells.Findings), mustMarshal(t, strip(fromFile.Findings)); got != want {
		t.Errorf("findings from the cells:\n%s\nwant (from the file):\n%s", got, want)
	}
	for _, f := range fromCells.Findings {
		if f.File != nil {
			t.Errorf("%s has a File span; a notebook built from cells has no file", f.Code)
		}
	}
	if got, want := mustMarshal(t, fromCells.Notices), mustMarshal(t, fromFile.Notices); got != want || !strings.Contains(got, "syntax error") {
		t.Errorf("notices from the cells %s, want %s, with the syntax error of cell 4", got, want)
	}

	// A notebook that exists only in the editor is checked too.
	unsaved := filepath.Join(dir, "unsaved.ipynb")
	if res := run(unsaved, map[string][]notebook.CellText{unsaved: editor}); !reflect.DeepEqual(codes(res.Findings), codes(fromFile.Findings)) {
		t.Errorf("unsaved notebook: %v, want %v", codes(res.Findings), codes(fromFile.Findings))
	}
}

func mustMarshal(t *testing.T, v any) string {
	t.Helper()
	b, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
