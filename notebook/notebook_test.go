package notebook

import (
	"encoding/json"
	"strings"
	"testing"
)

// nbJSON writes a notebook the way Jupyter does (json.dumps with indent=1
// and sorted keys), with one output and some metadata around the cells, so
// that the tests see the layout real notebooks have.
func nbJSON(t testing.TB, language string, cells ...map[string]any) []byte {
	t.Helper()
	nb := map[string]any{
		"cells":          cells,
		"metadata":       map[string]any{"kernelspec": map[string]any{"display_name": "Python 3", "language": language, "name": "python3"}},
		"nbformat":       4,
		"nbformat_minor": 5,
	}
	b, err := json.MarshalIndent(nb, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return append(b, '\n')
}

// code is a code cell whose source is a list of lines, as Jupyter writes it.
func code(lines ...string) map[string]any {
	if lines == nil {
		lines = []string{}
	}
	return map[string]any{
		"cell_type": "code", "execution_count": 1, "id": "c", "metadata": map[string]any{},
		"outputs": []any{map[string]any{"name": "stdout", "output_type": "stream", "text": []string{"out\n"}}},
		"source":  lines,
	}
}

func markdown(text string) map[string]any {
	return map[string]any{"cell_type": "markdown", "id": "m", "metadata": map[string]any{}, "source": text}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
		line            int
	}{
		{"empty", "  \n", "the file is empty", 0},
		{"not JSON", "{\n \"cells\": [\n", "not valid JSON: unexpected end of file", 3},
		{"trailing comma", "{\"nbformat\": 4,}", "not valid JSON: unexpected '}' where a member name should be", 1},
		{"control character", "{\"a\": \"x\ty\"}", "control character 0x09", 1},
		{"bad escape", `{"a": "\q"}`, `invalid escape 'q'`, 1},
		{"trailing data", `{} {}`, "unexpected '{' after the top-level value", 1},
		// A cell's outputs and attachments are scanned, not kept: as strictly.
		{"outputs: bad escape", "{\"nbformat\": 4, \"cells\": [{\"cell_type\": \"code\", \"source\": \"\",\n \"outputs\": [{\"text\": [\"\\q\"]}]}]}", `invalid escape 'q'`, 2},
		{"outputs: trailing comma", "{\"nbformat\": 4, \"cells\": [{\"cell_type\": \"code\", \"source\": \"\",\n\n \"outputs\": [{\"data\": {},}]}]}", "unexpected '}' where a member name should be", 3},
		{"attachments: unclosed", "{\"nbformat\": 4, \"cells\": [{\"cell_type\": \"markdown\", \"source\": \"\", \"attachments\": {\"a.png\": [1, 2}]}]}", "unexpected '}' in an array", 1},
		{"array", "[]", "the top-level JSON value is not an object", 1},
		{"no nbformat, no cells", `{"metadata": {}}`, `no "nbformat" field`, 0},
		{"no nbformat, cells not a list", `{"cells": {}}`, `no "nbformat" field`, 0},
		// A raw control character in a member name before its ':' (found
		// by FuzzParse: the reader went on with no name).
		{"tab in a name", "{\"nbformat\": 4, \"cells\": [{\"cell_type\t: \"code\"}]}", "control character 0x09", 1},
		{"CR in a name", "{\"nbformat\": 4, \"cells\": [{\"cell_type\r:", "control character 0x0d", 1},
		{"LF in a name", "{\"\n:", "control character 0x0a", 1},
		{"nbformat 3", "{\n\"nbformat\": 3, \"worksheets\": []}", "nbformat 3 is not supported", 2},
		{"no cells", `{"nbformat": 4}`, `"cells" is missing or not a list`, 1},
		{"cell not object", `{"nbformat": 4, "cells": [1]}`, "cell 1 is not an object", 1},
		{"no cell_type", `{"nbformat": 4, "cells": [{"source": ""}]}`, `cell 1 has no "cell_type"`, 1},
		{"no source", "{\"nbformat\": 4, \"cells\": [{\"cell_type\": \"code\", \"source\": \"\"},\n {\"cell_type\": \"code\", \"metadata\": {}}]}", `cell 2 has no "source"`, 2},
		{"source number", `{"nbformat": 4, "cells": [{"cell_type": "code", "source": 3}]}`, `cell 1: "source" is neither`, 1},
		{"source list of numbers", "{\"nbformat\": 4, \"cells\": [{\"cell_type\": \"code\",\n \"source\": [\"a\", 3]}]}", `cell 1: "source" holds something other than strings`, 2},
		{"not UTF-8", "{\"nbformat\": 4,\n \"cells\": [\"\xff\"]}", "not valid UTF-8 (byte 0xff)", 2},
		{"deep", strings.Repeat("[", 600), "nested more than 512 deep", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.src))
			e, ok := err.(*Error)
			if !ok {
				t.Fatalf("Parse = %v, want an *Error", err)
			}
			if !strings.Contains(e.Msg, tc.want) || e.Line != tc.line {
				t.Errorf("error %q at line %d, want %q at line %d", e.Msg, e.Line, tc.want, tc.line)
			}
		})
	}
}

// TestNoNbformat: a notebook without "nbformat" whose cells are a list
// (Meta's Bento writes them) is read as nbformat 4.
func TestNoNbformat(t *testing.T) {
	raw := []byte(`{"metadata": {"kernelspec": {"language": "python"}}, "cells": [
  {"cell_type": "markdown", "source": ["# Bento"]},
  {"cell_type": "code", "outputs": [], "source": ["import torch\n", "x = torch.zeros(1)"]}]}`)
	nb, err := Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	if want := "import torch\nx = torch.zeros(1)\n"; string(nb.Source) != want {
		t.Errorf("Source = %q, want %q", nb.Source, want)
	}
	if c := nb.CodeCells(); len(c) != 1 || c[0].Number != 2 {
		t.Errorf("code cells %v, want cell 2", c)
	}
}

func TestSource(t *testing.T) {
	raw := nbJSON(t, "python",
		markdown("# Title"),
		code("import torch\n", "x = 1"),
		map[string]any{"cell_type": "code", "metadata": map[string]any{}, "outputs": []any{}, "source": "y = 2\nz = 3\n"},
		map[string]any{"cell_type": "raw", "metadata": map[string]any{}, "source": []string{"raw"}},
		code(),
		code("w = 'é'"),
	)
	nb, err := Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	want := "import torch\nx = 1\ny = 2\nz = 3\n\nw = 'é'\n"
	if string(nb.Source) != want {
		t.Errorf("Source = %q, want %q", nb.Source, want)
	}
	var numbers []int
	for _, c := range nb.CodeCells() {
		numbers = append(numbers, c.Number)
	}
	if len(numbers) != 4 || numbers[0] != 2 || numbers[1] != 3 || numbers[2] != 5 || numbers[3] != 6 {
		t.Errorf("code cell numbers = %v, want [2 3 5 6] (markdown and raw cells count)", numbers)
	}
	if nb.Cells[0].Start != -1 || nb.Cells[3].Start != -1 {
		t.Error("a markdown or raw cell has a place in Source")
	}
}

func TestLanguage(t *testing.T) {
	for _, tc := range []struct {
		metadata string
		python   bool
	}{
		{`{}`, true},
		{`{"kernelspec": {"language": "python"}}`, true},
		{`{"kernelspec": {"language": "R"}}`, false},
		{`{"language_info": {"name": "python", "version": "3.11"}}`, true},
		{`{"language_info": {"name": "julia"}, "kernelspec": {"language": "python"}}`, false},
		{`{"kernelspec": {"language": "Python 3"}}`, true},
	} {
		nb, err := Parse([]byte(`{"nbformat": 4, "nbformat_minor": 2, "metadata": ` + tc.metadata + `, "cells": [{"cell_type": "code", "source": "x <- 1"}]}`))
		if err != nil {
			t.Fatal(err)
		}
		if nb.Python() != tc.python {
			t.Errorf("%s: Python() = %v, want %v", tc.metadata, nb.Python(), tc.python)
		}
		if !tc.python && len(nb.Source) != 0 {
			t.Errorf("%s: a notebook that is not Python has Source %q", tc.metadata, nb.Source)
		}
	}
}

func TestNeutralise(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
		cellMagic      string
		skipped        bool
	}{
		{"plain", "x = 1\n", "x = 1\n", "", false},
		{"line magic", "%pip install torch\nimport torch\n", "0                 \nimport torch\n", "", false},
		{"shell", "!nvidia-smi\n", "0          \n", "", false},
		{"shell capture", "!!ls\n", "0   \n", "", false},
		{"indented shell", "for f in fs:\n    !cp {f} /tmp\n", "for f in fs:\n    0           \n", "", false},
		{"assign shell", "files = !ls *.py\n", "files = 0       \n", "", false},
		{"assign magic", "a, b = %who_ls\n", "a, b = 0      \n", "", false},
		{"time statement", "%time model.cuda()\n", "0;    model.cuda()\n", "", false},
		{"timeit options", "%timeit -n 10 -r1 f(x)\n", "0;                f(x)\n", "", false},
		{"assign time", "y = %time f()\n", "y =       f()\n", "", false},
		{"time alone", "%time\n", "0    \n", "", false},
		{"help prefix", "?torch.cuda\n", "0          \n", "", false},
		{"help suffix", "torch.cuda.init??\n", "0                \n", "", false},
		{"help wildcard", "np.*load*?\n", "0         \n", "", false},
		{"autocall", "/print x\n", "0       \n", "", false},
		{"automagic pip", "pip install torch\n", "0                \n", "", false},
		{"automagic cd", "cd /content\n", "0          \n", "", false},
		{"automagic flag", "reset -f\n", "0       \n", "", false},
		{"not automagic: keyword", "reset and x\n", "reset and x\n", "", false},
		{"not automagic: operator", "time / 2\n", "time / 2\n", "", false},
		{"not automagic: unknown", "foo bar\n", "foo bar\n", "", false},
		// IPython's shell aliases, with arguments Python cannot read.
		{"automagic ls path", "ls ./data\nx = 1\n", "0        \nx = 1\n", "", false},
		{"automagic ls glob", "  ls *.py\n", "  0      \n", "", false},
		{"automagic rm", "rm -rf build/\n", "0            \n", "", false},
		{"automagic cat", "cat ../README.md\n", "0               \n", "", false},
		{"automagic mkdir", "mkdir -p out/ckpt-1\n", "0                  \n", "", false},
		{"automagic pwd", "pwd .\n", "0    \n", "", false},
		{"automagic env", "env CUDA_VISIBLE_DEVICES=0\n", "0                         \n", "", false},
		// Python that starts with their names stays Python.
		{"not automagic: assignment", "ls = 3\n", "ls = 3\n", "", false},
		{"not automagic: call", "pwd()\n", "pwd()\n", "", false},
		{"not automagic: bare name", "env\n", "env\n", "", false},
		{"not automagic: valid expression", "ls / 2\n", "ls / 2\n", "", false},
		{"not automagic: attribute", "history .append(1)\n", "history .append(1)\n", "", false},
		{"not automagic: open bracket", "env = {\n    'a': 1,\n}\n", "env = {\n    'a': 1,\n}\n", "", false},
		{"not automagic: continued", "cat [x,\n     y]\n", "cat [x,\n     y]\n", "", false},
		{"comparison", "x != y\n", "x != y\n", "", false},
		{"modulo", "s = '%d' % x\n", "s = '%d' % x\n", "", false},
		{"in string", "s = '''\n%pip install\n!ls\n'''\n", "s = '''\n%pip install\n!ls\n'''\n", "", false},
		{"in brackets", "f(\n  !x)\n", "f(\n  !x)\n", "", false},
		{"after backslash", "x = 1 + \\\n!2\n", "x = 1 + \\\n!2\n", "", false},
		{"magic continues", "!echo a \\\n  b\nx = 1\n", "0        \n   \nx = 1\n", "", false},
		{"comment with quote", "# don't\n!ls\n", "# don't\n0  \n", "", false},
		{"cell magic blanks", "%%bash\necho hi\nls\n", "      \n       \n  \n", "%%bash", false},
		{"cell magic body", "%%time\nmodel.cuda()\n", "      \nmodel.cuda()\n", "%%time", false},
		{"cell magic after blank", "\n%%capture out\n!pip install x\ny = 1\n", "\n             \n0             \ny = 1\n", "%%capture", false},
		{"no trailing newline", "%ls", "0  ", "", false},
		{"crlf", "!ls\r\nx = 1\r\n", "0  \r\nx = 1\r\n", "", false},
		{"open bracket", "x = 1\ny = (\n", "     \n     \n", "", true},
		{"open triple string", "s = \"\"\"\n!ls\n", "       \n   \n", "", true},
		{"open continuation", "x = 1 + \\\n", "         \n", "", true},
		{"classic prompt", ">>> x = 1\n... y = 2\n", "         \n         \n", "", true},
		{"ipython prompt", "In [3]: x = 1\n", "             \n", "", true},
		{"not a prompt", "x = 1 >>> 2\n", "x = 1 >>> 2\n", "", false},
		{"closed after magics", "!ls\nf(1,\n  2)\n", "0  \nf(1,\n  2)\n", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, magic, cm, skipped := neutralise(tc.in)
			if (skipped != "") != tc.skipped {
				t.Errorf("skipped = %q, want %v", skipped, tc.skipped)
			}
			if got != tc.want {
				t.Errorf("neutralise(%q) = %q, want %q", tc.in, got, tc.want)
			}
			if len(got) != len(tc.in) {
				t.Errorf("length %d, want %d", len(got), len(tc.in))
			}
			if cm != tc.cellMagic {
				t.Errorf("cell magic %q, want %q", cm, tc.cellMagic)
			}
			// Exactly the changed lines are marked.
			inLines := strings.SplitAfter(tc.in, "\n")
			outLines := strings.SplitAfter(got, "\n")
			for i := range magic {
				if changed := inLines[i] != outLines[i]; changed != magic[i] && strings.TrimSpace(inLines[i]) != "" {
					t.Errorf("line %d: marked %v, changed %v", i+1, magic[i], changed)
				}
			}
		})
	}
}

// TestFromCells: the cells an editor holds give the module, cell numbers,
// positions and edit checks that a file holding the same cells gives.
func TestFromCells(t *testing.T) {
	cells := []CellText{
		{"markdown", "# Title"},
		{"code", "%pip install torch\nimport torch\n"},
		{"code", "%%time\nmodel = torch.nn.Linear(2, 2).cuda()"},
		{"raw", "raw"},
		{"code", "%%bash\necho hi\n"},
		{"code", "x = (\n"},
		{"code", "w = 'é'; !ls"},
	}
	var jsonCells []map[string]any
	for _, c := range cells {
		if c.Type == "code" {
			jsonCells = append(jsonCells, code(strings.SplitAfter(c.Text, "\n")...))
		} else {
			jsonCells = append(jsonCells, map[string]any{"cell_type": c.Type, "metadata": map[string]any{}, "source": c.Text})
		}
	}
	parsed, err := Parse(nbJSON(t, "python", jsonCells...))
	if err != nil {
		t.Fatal(err)
	}
	built := FromCells(cells)
	if string(built.Source) != string(parsed.Source) {
		t.Errorf("Source = %q, want %q", built.Source, parsed.Source)
	}
	if len(built.CodeCells()) != len(parsed.CodeCells()) {
		t.Fatalf("%d code cells, want %d", len(built.CodeCells()), len(parsed.CodeCells()))
	}
	for i, c := range built.CodeCells() {
		p := parsed.CodeCells()[i]
		if c.Number != p.Number || c.Start != p.Start || c.Skipped != p.Skipped || c.CellMagic != p.CellMagic {
			t.Errorf("cell %d: number %d start %d skipped %q magic %q, want %d %d %q %q",
				i, c.Number, c.Start, c.Skipped, c.CellMagic, p.Number, p.Start, p.Skipped, p.CellMagic)
		}
	}
	for off := 0; off <= len(built.Source); off++ {
		b, _ := built.At(off)
		p, _ := parsed.At(off)
		if b.Cell.Number != p.Cell.Number || b.Line != p.Line || b.Column != p.Column || b.UTF16Column != p.UTF16Column {
			t.Fatalf("At(%d) = cell %d %d:%d, want cell %d %d:%d", off, b.Cell.Number, b.Line, b.Column, p.Cell.Number, p.Line, p.Column)
		}
	}
	src := string(built.Source)
	model := strings.Index(src, "model")
	for _, e := range []Edit{
		{Start: model, End: model + len("model"), Text: "net"},   // in a %%time body
		{Start: 0, End: 4, Text: "x"},                            // the %pip line
		{Start: model, End: strings.Index(src, "w ="), Text: ""}, // across cells
		{Start: strings.Index(src, "w ="), End: strings.Index(src, "w =") + 1, Text: "v"},
	} {
		if got, want := built.Check(e), parsed.Check(e); got != want {
			t.Errorf("Check(%+v) = %q, want %q", e, got, want)
		}
	}
	if _, _, err := built.Apply([]Edit{{Start: model, End: model, Text: "#"}}); err == nil {
		t.Error("Apply on a notebook built from cells succeeded; it has no file to rewrite")
	}
}

// TestLFSPointer: a Git LFS pointer in a notebook's place parses as a
// notebook with no cells, marked, instead of failing as JSON; text that
// only starts like one is still an error.
func TestLFSPointer(t *testing.T) {
	const oid = "oid sha256:e4debb404dcb5023c6657f707eab60dded5b7a5327ea1d71a5476dc7ca6f919a\n"
	for _, tc := range []struct {
		name, src string
		pointer   bool
	}{
		{"pointer", "version https://git-lfs.github.com/spec/v1\n" + oid + "size 18728\n", true},
		{"pointer with extension keys", "version https://git-lfs.github.com/spec/v1\next-0-foo sha256:00\n" + oid + "size 1\n", true},
		{"no oid", "version https://git-lfs.github.com/spec/v1\nsize 18728\n", false},
		{"other text", "version 1\n" + oid, false},
		{"too long to be a pointer", "version https://git-lfs.github.com/spec/v1\n" + oid + strings.Repeat("x", 1024), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := IsLFSPointer([]byte(tc.src)); got != tc.pointer {
				t.Fatalf("IsLFSPointer = %v, want %v", got, tc.pointer)
			}
			nb, err := Parse([]byte(tc.src))
			if tc.pointer {
				if err != nil || !nb.LFSPointer || len(nb.Cells) != 0 || len(nb.Source) != 0 {
					t.Fatalf("Parse = %+v, %v; want an empty notebook marked as a pointer", nb, err)
				}
			} else if err == nil {
				t.Fatalf("Parse accepted %q", tc.src)
			}
		})
	}
}
