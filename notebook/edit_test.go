package notebook

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/cudaforklint/cudaforklint/finding"
)

func TestAt(t *testing.T) {
	raw := nbJSON(t, "python", markdown("m"), code("import torch\n", "model.cuda()"), code("x = 'é'; y = 2\n"))
	nb, err := Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		find       string // a unique piece of Source
		cell, line int
		col, col16 int
	}{
		{"import", 2, 1, 1, 1},
		{"cuda()", 2, 2, 7, 7},
		{"x =", 3, 1, 1, 1},
		{"y = 2", 3, 1, 11, 10}, // after the two-byte é
	} {
		off := bytes.Index(nb.Source, []byte(tc.find))
		p, ok := nb.At(off)
		if !ok || p.Cell.Number != tc.cell || p.Line != tc.line || p.Column != tc.col || p.UTF16Column != tc.col16 {
			t.Errorf("At(%q) = cell %d %d:%d (utf16 %d), want cell %d %d:%d (utf16 %d)", tc.find, p.Cell.Number, p.Line, p.Column, p.UTF16Column, tc.cell, tc.line, tc.col, tc.col16)
		}
	}
	// The newline Source adds after "model.cuda()" is the end of cell 2.
	end := bytes.Index(nb.Source, []byte("x ="))
	if p, _ := nb.At(end - 1); p.Cell.Number != 2 || p.Line != 2 || p.Column != 13 {
		t.Errorf("At(added newline) = cell %d %d:%d, want cell 2 2:13", p.Cell.Number, p.Line, p.Column)
	}
	if p, _ := nb.At(len(nb.Source)); p.Cell.Number != 3 || p.Line != 2 || p.Column != 1 {
		t.Errorf("At(end) = cell %d %d:%d, want cell 3 2:1", p.Cell.Number, p.Line, p.Column)
	}
	if _, ok := nb.At(len(nb.Source) + 1); ok {
		t.Error("At past the end succeeded")
	}
}

// TestFilePos checks that every character of every cell maps to the place
// in the file where it is written: the same bytes for a plain character,
// the start of its escape otherwise.
func TestFilePos(t *testing.T) {
	for _, raw := range [][]byte{
		nbJSON(t, "python", code("import torch  # \"gpu\"\n", "\tx = 'é😀'\n", "y = 1"), markdown("x"), code("z\\w\n")),
		[]byte("{\"nbformat\": 4, \"cells\": [\n  {\"cell_type\": \"code\", \"source\": \"a = 1\\nb = \\\"\\u00e9\\\"\\n\"}]}"),
		[]byte("{\"nbformat\": 4, \"cells\": [{\"cell_type\": \"code\", \"source\": [\"ab\", \"c\\n\", \"d\"]}]}"),
	} {
		nb, err := Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		lines := bytes.Split(raw, []byte("\n"))
		for _, c := range nb.CodeCells() {
			for o, r := range c.Text {
				fp := nb.FilePos(c, o)
				line := lines[fp.Line-1]
				at := 0
				for i := 1; i < fp.Column; i++ {
					_, n := utf8.DecodeRune(line[at:])
					at += n
				}
				got := line[at:]
				plain := r != '"' && r != '\\' && r >= 0x20
				escaped := bytes.HasPrefix(got, []byte(`\`))
				if plain && !escaped && !bytes.HasPrefix(got, []byte(string(r))) || !plain && !escaped {
					t.Errorf("cell %d offset %d (%q) maps to line %d column %d: %q", c.Number, o, r, fp.Line, fp.Column, got[:min(len(got), 8)])
				}
				if utf16 := finding.UTF16Len(line[:at]) + 1; utf16 != fp.UTF16Column {
					t.Errorf("cell %d offset %d: UTF-16 column %d, want %d", c.Number, o, fp.UTF16Column, utf16)
				}
			}
		}
	}
}

// cells decodes a notebook file with encoding/json, for comparisons.
func cells(t *testing.T, raw []byte) []map[string]any {
	t.Helper()
	var nb struct {
		Cells []map[string]any `json:"cells"`
	}
	if err := json.Unmarshal(raw, &nb); err != nil {
		t.Fatalf("the file is not JSON any more: %v\n%s", err, raw)
	}
	return nb.Cells
}

func TestApply(t *testing.T) {
	raw := nbJSON(t, "python",
		markdown("# m"),
		code("import torch\n", "ctx = mp.get_context(\"fork\")\n", "%time model.cuda()"),
		code("x = 1\n"),
	)
	nb, err := Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	src := string(nb.Source)
	lit := strings.Index(src, `"fork"`)
	out, changes, err := nb.Apply([]Edit{{Start: lit, End: lit + len(`"fork"`), Text: `"spawn"`}})
	if err != nil {
		t.Fatal(err)
	}
	if len(changes) != 1 || changes[0].Cell.Number != 2 {
		t.Fatalf("changes = %+v, want cell 2", changes)
	}
	before, after := cells(t, raw), cells(t, out)
	for i := range before {
		b, _ := json.Marshal(before[i])
		a, _ := json.Marshal(after[i])
		if i == 1 {
			want := []any{"import torch\n", "ctx = mp.get_context(\"spawn\")\n", "%time model.cuda()"}
			if got, _ := json.Marshal(after[i]["source"]); string(got) != mustJSON(t, want) {
				t.Errorf("cell 2 source = %s, want %s", got, mustJSON(t, want))
			}
			delete(before[i], "source")
			delete(after[i], "source")
			b, _ = json.Marshal(before[i])
			a, _ = json.Marshal(after[i])
		}
		if string(a) != string(b) {
			t.Errorf("cell %d changed:\n%s\n%s", i+1, b, a)
		}
	}
	// Every byte outside the changed source value is the same.
	s := changes[0].Cell.source
	n := len(out) - (len(raw) - (s.end - s.start))
	if !bytes.Equal(out[:s.start], raw[:s.start]) || !bytes.Equal(out[s.start+n:], raw[s.end:]) {
		t.Error("bytes outside the changed source value differ")
	}
	// The list keeps its layout: the old file with the one line replaced.
	if want := bytes.Replace(raw, []byte(`\"fork\"`), []byte(`\"spawn\"`), 1); !bytes.Equal(out, want) {
		t.Errorf("rewritten notebook:\n%s\nwant:\n%s", out, want)
	}
}

func mustJSON(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestApplyForms(t *testing.T) {
	for _, tc := range []struct {
		name     string
		raw      string
		find     string
		edit     string
		want     string
		wantText string
		insert   bool
	}{
		{
			name:     "string source",
			raw:      `{"nbformat": 4, "cells": [{"cell_type": "code", "source": "a = 1\nb = 2"}]}`,
			find:     "b = 2",
			edit:     "b = 3  # é",
			want:     `{"nbformat": 4, "cells": [{"cell_type": "code", "source": "a = 1\nb = 3  # é"}]}`,
			wantText: "a = 1\nb = 3  # é",
		},
		{
			name:     "ascii-escaped file",
			raw:      `{"nbformat": 4, "cells": [{"cell_type": "code", "source": ["s = '\u00e9'\n", "t = 1"]}]}`,
			find:     "t = 1",
			edit:     "t = '😀'",
			want:     `{"nbformat": 4, "cells": [{"cell_type": "code", "source": ["s = '\u00e9'\n", "t = '\ud83d\ude00'"]}]}`,
			wantText: "s = 'é'\nt = '😀'",
		},
		{
			name:     "insert a line at the top",
			raw:      "{\"nbformat\": 4, \"cells\": [\n {\n  \"cell_type\": \"code\",\n  \"source\": [\n   \"x = 1\\n\",\n   \"y = 2\"\n  ]\n }\n]}\n",
			find:     "x = 1",
			edit:     "import os\n",
			want:     "{\"nbformat\": 4, \"cells\": [\n {\n  \"cell_type\": \"code\",\n  \"source\": [\n   \"import os\\n\",\n   \"x = 1\\n\",\n   \"y = 2\"\n  ]\n }\n]}\n",
			wantText: "import os\nx = 1\ny = 2",
			insert:   true,
		},
		{
			name:     "empty list takes nbformat's layout",
			raw:      "{\"nbformat\": 4, \"cells\": [\n {\n  \"cell_type\": \"code\",\n  \"source\": []\n }\n]}\n",
			find:     "",
			edit:     "a\nb",
			want:     "{\"nbformat\": 4, \"cells\": [\n {\n  \"cell_type\": \"code\",\n  \"source\": [\n   \"a\\n\",\n   \"b\"\n  ]\n }\n]}\n",
			wantText: "a\nb",
		},
		{
			name:     "emptied cell",
			raw:      `{"nbformat": 4, "cells": [{"cell_type": "code", "source": ["x = 1\n"]}]}`,
			find:     "x = 1\n",
			edit:     "",
			want:     `{"nbformat": 4, "cells": [{"cell_type": "code", "source": []}]}`,
			wantText: "",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			nb, err := Parse([]byte(tc.raw))
			if err != nil {
				t.Fatal(err)
			}
			start := strings.Index(string(nb.Source), tc.find)
			e := Edit{Start: start, End: start + len(tc.find), Text: tc.edit}
			if tc.insert {
				e.End = e.Start
			}
			out, _, err := nb.Apply([]Edit{e})
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != tc.want {
				t.Errorf("got\n%s\nwant\n%s", out, tc.want)
			}
			again, err := Parse(out)
			if err != nil {
				t.Fatalf("the result does not parse: %v", err)
			}
			if got := again.CodeCells()[0].Text; got != tc.wantText {
				t.Errorf("cell text %q, want %q", got, tc.wantText)
			}
		})
	}
}

// TestMatches: a module with a cell left out (spaces) still matches the
// notebook; one with a cell changed does not.
func TestMatches(t *testing.T) {
	raw := nbJSON(t, "python", code("x = 1\n"), code("y = (\n"), code("z = 3"))
	nb, err := Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	module := append([]byte(nil), nb.Source...)
	other, _ := Parse(raw)
	other.SkipCell(other.CodeCells()[0], "a syntax error")
	if !nb.Matches(other.Source) || !nb.Matches(module) {
		t.Error("a module with a cell left out does not match")
	}
	changed := bytes.Replace(module, []byte("z = 3"), []byte("z = 4"), 1)
	if nb.Matches(changed) || nb.Matches(module[1:]) {
		t.Error("a changed module matches")
	}
}

func TestCheck(t *testing.T) {
	raw := nbJSON(t, "python",
		code("!pip install x\n", "a = 1\n"),
		code("%%time\n", "b = 2\n"),
		code("c = 3"),
	)
	nb, err := Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	src := string(nb.Source)
	at := func(s string) int {
		i := strings.Index(src, s)
		if i < 0 {
			t.Fatalf("%q not in %q", s, src)
		}
		return i
	}
	for _, tc := range []struct {
		name string
		e    Edit
		want string // "" or a piece of the refusal
	}{
		{"plain replacement", Edit{at("a = 1"), at("a = 1") + 5, "a = 2"}, ""},
		{"insert before a magic line", Edit{0, 0, "import os\n"}, ""},
		{"into a magic line", Edit{3, 6, "x"}, "line 1 of cell 1, which is not Python"},
		{"at the end of a magic line", Edit{at("\na = 1"), at("\na = 1"), " y"}, "line 1 of cell 1"},
		{"delete a line after a magic line", Edit{at("a = 1"), at("a = 1") + 6, ""}, ""},
		{"before the cell magic", Edit{at("      \nb"), at("      \nb"), "x = 1\n"}, "the %%time line of cell 2"},
		{"body of a cell magic", Edit{at("b = 2"), at("b = 2") + 5, "b = 3"}, ""},
		{"across cells", Edit{at("b = 2"), at("c = 3") + 1, ""}, "spans two cells"},
		{"delete the added newline", Edit{at("c = 3") + 5, at("c = 3") + 6, ""}, ""},
		{"out of range", Edit{0, len(src) + 1, ""}, "out of range"},
	} {
		got := nb.Check(tc.e)
		if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
			t.Errorf("%s: Check = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// FuzzParse checks that Parse never panics, that Source keeps every code
// cell's length, that every offset of Source maps to a cell, and that a
// notebook rewritten with an empty edit in each cell is byte-for-byte the
// same file.
func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"nbformat": 4, "cells": [{"cell_type": "code", "source": ["%%time\n", "x = 1\n"]}]}`))
	f.Add([]byte(`{"nbformat": 4, "cells": [{"cell_type": "code", "source": "!ls\nx = '\u00e9'"}, {"cell_type": "markdown", "source": []}]}`))
	f.Add([]byte(`{"nbformat": 4, "metadata": {"kernelspec": {"language": "R"}}, "cells": []}`))
	f.Add([]byte(`{"nbformat": 4, "cells": [{"cell_type": "code", "source": ["a\\", "b\"", "\ud800"]}]}`))
	f.Add([]byte(`{"cells": [{"cell_type": "code", "source": ["ls ./data\n", "ls = 3\n", "rm -rf out/\n"]}], "metadata": {}}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		nb, err := Parse(raw)
		if err != nil {
			return
		}
		var edits []Edit
		for _, c := range nb.CodeCells() {
			if c.end()-c.Start < len(c.Text) {
				t.Fatalf("cell %d: %d bytes in Source for a text of %d", c.Number, c.end()-c.Start, len(c.Text))
			}
			if c.source != nil {
				edits = append(edits, Edit{Start: c.Start, End: c.Start})
			}
		}
		for off := 0; off <= len(nb.Source); off++ {
			if _, ok := nb.At(off); !ok && len(nb.CodeCells()) > 0 {
				t.Fatalf("At(%d) failed", off)
			}
		}
		var ok []Edit
		for _, e := range edits {
			if nb.Check(e) == "" {
				ok = append(ok, e)
			}
		}
		out, changes, err := nb.Apply(ok)
		if err != nil || len(changes) != 0 || !bytes.Equal(out, raw) {
			t.Fatalf("empty edits changed the file (err %v, %d changes)", err, len(changes))
		}
	})
}
