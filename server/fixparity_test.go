package server

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cudaforklint/cudaforklint/analyzer"
	"github.com/cudaforklint/cudaforklint/config"
	"github.com/cudaforklint/cudaforklint/finding"
	"github.com/cudaforklint/cudaforklint/fix"
	"github.com/cudaforklint/cudaforklint/passes/pyprogram"
	"github.com/cudaforklint/cudaforklint/ruledoc"
	"github.com/cudaforklint/cudaforklint/rules"
	"github.com/cudaforklint/cudaforklint/server/internal/protocol"
)

// TestQuickFixesAreTheCLIFixes: for every fixture with a fix (testdata/py,
// as written and with CRLF line breaks), each fix the server offers as a
// quick fix leaves the editor's texts exactly as `cudaforklint check
// --fix --unsafe-fixes` leaves the files when it applies that fix alone
// (fix.Apply on the findings of the CLI's run of the file). Fixes that end
// the file (the move of the last statements under a new guard) are among
// them. Notebooks are left out: their fixes are their cells' (notebook
// tests).
func TestQuickFixesAreTheCLIFixes(t *testing.T) {
	if testing.Short() {
		t.Skip("checks every fixture twice")
	}
	src, err := filepath.Abs(filepath.Join("..", "testdata", "py"))
	if err != nil {
		t.Fatal(err)
	}
	for _, variant := range []string{"LF", "CRLF"} {
		t.Run(variant, func(t *testing.T) {
			root := src
			if variant == "CRLF" {
				root = crlfCopy(t, src)
			}
			loader, err := config.NewLoader(ruledoc.All(), config.Overrides{})
			if err != nil {
				t.Fatal(err)
			}
			// One run of the whole tree says which files have findings
			// with fixes (of any applicability: a fix withheld in this
			// run, where another checked file imports the module, may be
			// offered in a run of the file alone); those are compared.
			pol := config.NewPolicy(loader)
			pol.Roots = []string{root}
			all, err := analyzer.Run(context.Background(), analyzer.Options{Split: pyprogram.Split, Paths: []string{root}, Analyzers: rules.All(), Policy: pol, WorkDir: root})
			if err != nil {
				t.Fatal(err)
			}
			candidates := map[string]bool{}
			for _, f := range all.Findings {
				if len(f.Fixes) > 0 && strings.HasSuffix(f.Path, ".py") {
					candidates[f.Path] = true
				}
			}
			c := startServer(t, clientOptions{folders: []string{root}})
			compared := 0
			for rel := range candidates {
				compared += compareFixes(t, c, loader, root, filepath.Join(root, rel))
			}
			// The fixtures hold a few hundred fixes.
			t.Logf("compared %d fixes in %d files", compared, len(candidates))
			if compared < 100 {
				t.Errorf("compared %d fixes; the fixtures hold more", compared)
			}
		})
	}
}

// compareFixes compares the server's quick fixes of the findings in path
// with the CLI's, and returns how many it compared.
func compareFixes(t *testing.T, c *testClient, loader *config.Loader, root, path string) int {
	t.Helper()
	pol := config.NewPolicy(loader)
	pol.Roots = []string{root}
	res, err := analyzer.Run(context.Background(), analyzer.Options{Split: pyprogram.Split, Paths: []string{path}, Analyzers: rules.All(), Policy: pol, WorkDir: root})
	if err != nil {
		t.Fatal(err)
	}
	rel, _ := filepath.Rel(root, path)
	var withFixes []finding.Finding
	for _, f := range res.Findings {
		if f.Path != rel || f.Suppressed {
			continue
		}
		for _, fx := range f.Fixes {
			if fx.Applicability != finding.DisplayOnly {
				withFixes = append(withFixes, f)
				break
			}
		}
	}
	if len(withFixes) == 0 {
		return 0
	}
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	uri := c.open(path, string(text))
	defer c.notify(protocol.MethodDidClose, protocol.DidCloseTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}})
	c.waitPublish(uri, 0, hasVersion(1))
	compared := 0
	for _, f := range withFixes {
		actions := c.codeActions(uri, rangeOf(f.Location, c.enc), protocol.KindQuickFix)
		for _, fx := range f.Fixes {
			if fx.Applicability == finding.DisplayOnly {
				continue
			}
			one := f
			one.Fixes = []finding.Fix{fx}
			cli := fix.Apply([]finding.Finding{one}, fix.Options{Unsafe: true, Diff: true, WorkDir: root})
			if err := cli.Err(); err != nil {
				t.Errorf("%s:%d: %s: the CLI cannot apply %q: %v", rel, f.Start.Line, f.Code, fx.Message, err)
				continue
			}
			var action *protocol.CodeAction
			for i, a := range actions {
				if strings.TrimSuffix(a.Title, " (unsafe)") == fx.Message && len(a.Diagnostics) == 1 &&
					a.Diagnostics[0].Code == f.Code && a.Diagnostics[0].Message == f.Message {
					action = &actions[i]
				}
			}
			if action == nil {
				t.Errorf("%s:%d: %s: no quick fix %q", rel, f.Start.Line, f.Code, fx.Message)
				continue
			}
			compared++
			want := map[string][]byte{}
			for _, fr := range cli.Files {
				want[uriOf(filepath.Join(root, fr.Path))] = fr.After
			}
			got := map[string]bool{}
			for u := range editedURIs(action.Edit) {
				got[u] = true
				before := text
				if u != uri {
					p, _ := pathOf(u)
					before, _ = os.ReadFile(p)
				}
				after, err := applyEdits(string(before), editsFor(action.Edit, u), c.enc)
				if err != nil || !bytes.Equal([]byte(after), want[u]) {
					t.Errorf("%s:%d: %s %q: the server's edit of %s gives\n%q (%v)\nthe CLI's\n%q", rel, f.Start.Line, f.Code, fx.Message, u, after, err, want[u])
				}
			}
			for u := range want {
				if !got[u] {
					t.Errorf("%s:%d: %s %q: the server does not edit %s", rel, f.Start.Line, f.Code, fx.Message, u)
				}
			}
		}
	}
	return compared
}

// editedURIs lists the documents a workspace edit changes.
func editedURIs(we *protocol.WorkspaceEdit) map[string]bool {
	out := map[string]bool{}
	if we == nil {
		return out
	}
	for u := range we.Changes {
		out[u] = true
	}
	for _, dc := range we.DocumentChanges {
		out[dc.TextDocument.URI] = true
	}
	return out
}

// crlfCopy copies the fixture tree under a temporary directory, the line
// breaks of its Python files made CRLF.
func crlfCopy(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		out := filepath.Join(dst, rel)
		if e.IsDir() {
			return os.MkdirAll(out, 0o755)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if strings.HasSuffix(path, ".py") {
			b = bytes.ReplaceAll(bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n")), []byte("\n"), []byte("\r\n"))
		}
		return os.WriteFile(out, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}
