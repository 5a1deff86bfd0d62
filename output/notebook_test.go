package output

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cudaforklint/cudaforklint/finding"
	"github.com/cudaforklint/cudaforklint/notebook"
)

// nbRaw is a notebook as Jupyter writes it: a markdown cell first (cells
// count from it), a magic, non-ASCII text before a span, and the source of
// cell 3 as one string, so that its second line is on the same JSON line
// as its first.
const nbRaw = `{
 "cells": [
  {
   "cell_type": "markdown",
   "metadata": {},
   "source": [
    "# Training"
   ]
  },
  {
   "cell_type": "code",
   "execution_count": 1,
   "metadata": {},
   "outputs": [],
   "source": [
    "%pip install torch\n",
    "import torch\n",
    "model = torch.nn.Linear(2, 2).cuda()  # ñ😀"
   ]
  },
  {
   "cell_type": "code",
   "execution_count": 2,
   "metadata": {},
   "outputs": [],
   "source": "import multiprocessing as mp\npool = mp.get_context(\"fork\").Pool(2)"
  }
 ],
 "metadata": {"kernelspec": {"language": "python", "name": "python3"}},
 "nbformat": 4,
 "nbformat_minor": 5
}
`

// nbLocation is the location of the n-th needle in the notebook's module,
// converted as the driver converts it.
func nbLocation(t *testing.T, nb *notebook.Notebook, needle string, n int) finding.Location {
	t.Helper()
	off := -1
	for i := 0; i < n; i++ {
		j := bytes.Index(nb.Source[off+1:], []byte(needle))
		if j < 0 {
			t.Fatalf("no %q", needle)
		}
		off += 1 + j
	}
	start, _ := nb.At(off)
	end, _ := nb.At(off + len(needle))
	pos := func(p notebook.Position, off int) finding.Position {
		return finding.Position{Offset: off, Line: p.Line, Column: p.Column, UTF16Column: p.UTF16Column}
	}
	fs, fe := nb.FilePos(start.Cell, start.Offset), nb.FilePos(end.Cell, end.Offset)
	return finding.Location{
		Path: "nb.ipynb", Cell: start.Cell.Number,
		Start: pos(start, off), End: pos(end, off+len(needle)),
		File: &finding.FileSpan{
			Start: finding.FilePosition{Line: fs.Line, Column: fs.Column, UTF16Column: fs.UTF16Column},
			End:   finding.FilePosition{Line: fe.Line, Column: fe.Column, UTF16Column: fe.UTF16Column},
		},
	}
}

func notebookReport(t *testing.T) *Report {
	nb, err := notebook.Parse([]byte(nbRaw))
	if err != nil {
		t.Fatal(err)
	}
	init := nbLocation(t, nb, ".cuda()", 1)
	init.Start.Offset++ // the span is cuda() after the dot
	init.Start.Column++
	init.Start.UTF16Column++
	init.File.Start.Column++
	init.File.Start.UTF16Column++
	fork := nbLocation(t, nb, `"fork"`, 1)
	return &Report{
		Rules:   rules(),
		WorkDir: "/home/user/my project",
		Version: "0.1.0",
		Args:    []string{"cudaforklint", "check", "nb.ipynb"},
		ReadFile: func(p string) ([]byte, error) {
			if p == "nb.ipynb" {
				return nb.Source, nil // what the driver's reader gives
			}
			return nil, fmt.Errorf("open %s: no such file or directory", p)
		},
		Findings: []finding.Finding{{
			Code: "CFL001", Name: "fork-after-cuda-init", Severity: finding.Error,
			Message:  "`.cuda()` initializes CUDA before the process forks",
			Location: init,
			URL:      ruleURL("CFL001"),
			Related: []finding.Related{
				{Location: nbLocation(t, nb, "mp.get_context", 1), Message: "Children are forked here"},
			},
			Fixes: []finding.Fix{{
				Message: `Use the "spawn" start method`, Applicability: finding.Unsafe,
				Edits: []finding.Edit{{Location: fork, NewText: `"spawn"`}},
			}},
		}},
		Notices:  []finding.Notice{{Path: "nb.ipynb", Cell: 3, Line: 2, Message: "could not parse the code at line 2, column 1"}},
		ExitCode: 1,
	}
}

func TestNotebookGolden(t *testing.T) {
	for _, f := range Formats {
		t.Run(string(f), func(t *testing.T) {
			var b bytes.Buffer
			if err := Write(&b, f, notebookReport(t), Options{}); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", "notebook."+string(f)+".golden")
			if f == SARIF {
				path = filepath.Join("..", "testdata", "sarif", "notebook.sarif")
			}
			golden(t, path, b.Bytes())
		})
	}
}

// TestNotebookLocations checks what each format says about a span in a
// cell: the text formats name the cell and count in it; SARIF and GitHub
// point at the JSON line and column where the span is written.
func TestNotebookLocations(t *testing.T) {
	r := notebookReport(t)
	// `cuda()` is in cell 2, line 3; on that line "model = torch.nn.Linear(2, 2)."
	// comes before it: 30 characters.
	var b bytes.Buffer
	Write(&b, Concise, r, Options{})
	if want := "nb.ipynb:cell 2:3:31: CFL001 "; !strings.HasPrefix(b.String(), want) {
		t.Errorf("concise = %q, want the prefix %q", b.String(), want)
	}
	b.Reset()
	Write(&b, Full, r, Options{})
	for _, want := range []string{
		"nb.ipynb:cell 2:3:31: CFL001",
		"3 | model = torch.nn.Linear(2, 2).cuda()  # ñ😀\n",
		"= note: nb.ipynb:cell 3:2:8: Children are forked here",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("full output lacks %q:\n%s", want, b.String())
		}
	}
	b.Reset()
	Write(&b, JSON, r, Options{})
	var objs []map[string]any
	if err := json.Unmarshal(b.Bytes(), &objs); err != nil {
		t.Fatal(err)
	}
	if o := objs[0]; o["cell"] != 2.0 || o["location"].(map[string]any)["row"] != 3.0 || o["related"].([]any)[0].(map[string]any)["cell"] != 3.0 {
		t.Errorf("json cell fields: %v", o)
	}

	// Where the span is written in the file.
	lines := strings.Split(nbRaw, "\n")
	jsonLine, jsonCol := 0, 0
	for i, l := range lines {
		if j := strings.Index(l, "cuda()"); j >= 0 {
			jsonLine, jsonCol = i+1, j+1
		}
	}
	b.Reset()
	Write(&b, GitHub, r, Options{})
	if want := fmt.Sprintf("file=nb.ipynb,line=%d,col=%d,endLine=%d,endColumn=%d::nb.ipynb:cell 2:3:31: CFL001", jsonLine, jsonCol, jsonLine, jsonCol+len("cuda()")); !strings.Contains(b.String(), want) {
		t.Errorf("github output lacks %q:\n%s", want, b.String())
	}
	if !strings.Contains(b.String(), "::notice title=cudaforklint,file=nb.ipynb::nb.ipynb:cell 3:2: could not parse") {
		t.Errorf("github notice does not name the cell without a file line:\n%s", b.String())
	}
	b.Reset()
	Write(&b, SARIF, r, Options{})
	var log sarifLog
	if err := json.Unmarshal(b.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	res := log.Runs[0].Results[0]
	reg := res.Locations[0].PhysicalLocation.Region
	if reg.StartLine != jsonLine || reg.StartColumn != jsonCol || reg.EndColumn != jsonCol+len("cuda()") {
		t.Errorf("sarif region %+v, want line %d columns %d-%d", reg, jsonLine, jsonCol, jsonCol+6)
	}
	if res.PartialFingerprints != nil || res.Fixes != nil {
		t.Errorf("sarif notebook result has fingerprints %v or fixes %v", res.PartialFingerprints, res.Fixes)
	}
	// Cell 3's source is one string: its line 2 is on the JSON line of line 1.
	rel := res.RelatedLocations[0].PhysicalLocation.Region
	var cell3 int
	for i, l := range lines {
		if strings.Contains(l, `"source": "import multiprocessing`) {
			cell3 = i + 1
		}
	}
	if rel.StartLine != cell3 || rel.StartColumn != strings.Index(lines[cell3-1], "mp.get_context")+1 {
		t.Errorf("sarif related region %+v, want line %d column %d", rel, cell3, strings.Index(lines[cell3-1], "mp.get_context")+1)
	}
}
