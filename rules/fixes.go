package rules

import (
	"bytes"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/cudaforklint/cudaforklint/fixsafety"
	"github.com/cudaforklint/cudaforklint/model"
	"github.com/cudaforklint/cudaforklint/syntax"
)

// Fixes are built here so that every rule offers the same ones the same way.
// All of them change what the program does at run time (that is the point),
// so they are unsafe in ruff's sense: --fix applies them only with
// --unsafe-fixes. Each edit keeps the file parseable; the fixer re-parses and
// rolls back otherwise.

// spawnFix replaces a "fork" start-method literal with "spawn".
func (r reporter) spawnFix(rec *model.StartRecord) (fixsafety.Fix, bool) {
	lit := rec.MethodLit
	if !lit.Valid() || rec.Method.String() != "fork" {
		return fixsafety.Fix{}, false
	}
	text := string(lit.Mod.Src[lit.Span.Start:lit.Span.End])
	i := strings.Index(text, "fork")
	if i < 0 || strings.Count(text, "fork") != 1 {
		return fixsafety.Fix{}, false
	}
	pos, end := r.span(lit)
	edit := analysis.TextEdit{Pos: pos, End: end, NewText: []byte(text[:i] + "spawn" + text[i+len("fork"):])}
	return fixsafety.Unsafe(`Use the "spawn" start method`, edit), true
}

// nvmlFix makes torch.cuda.is_available() ask NVML instead of initializing
// the driver, by setting PYTORCH_NVML_BASED_CUDA_CHECK=1 at the top of the
// module (after its docstring and __future__ imports).
func (r reporter) nvmlFix(init *model.InitRecord) (fixsafety.Fix, bool) {
	if init.API != "torch.cuda.is_available()" {
		return fixsafety.Fix{}, false
	}
	m := init.Site.Mod
	at := insertionPoint(m)
	var text strings.Builder
	if !bindsOS(m) {
		text.WriteString("import os\n")
	}
	text.WriteString("os.environ.setdefault(\"PYTORCH_NVML_BASED_CUDA_CHECK\", \"1\")  # torch.cuda.is_available() asks NVML, not the driver\n")
	pos := r.prog.File(m).Pos(at)
	return fixsafety.Unsafe("Set PYTORCH_NVML_BASED_CUDA_CHECK=1 so `torch.cuda.is_available()` does not initialize CUDA",
		analysis.TextEdit{Pos: pos, End: pos, NewText: []byte(text.String())}), true
}

// bindsOS reports whether the module imports os at its top level.
func bindsOS(m *model.Module) bool {
	for _, b := range m.Scope.Bindings["os"] {
		if b.Kind == model.BindImport && b.Import == "os" {
			return true
		}
	}
	return false
}

// insertionPoint is the offset of the first line after the module docstring
// and any __future__ imports.
func insertionPoint(m *model.Module) int {
	at := 0
	for i, s := range m.File.Body {
		switch s := s.(type) {
		case *syntax.ExprStmt:
			if _, ok := s.X.(*syntax.String); ok && i == 0 {
				at = lineEnd(m.Src, s.End)
				continue
			}
		case *syntax.ImportFrom:
			if s.Module == "__future__" {
				at = lineEnd(m.Src, s.End)
				continue
			}
		}
		break
	}
	return at
}

func lineStart(src []byte, off int) int {
	return bytes.LastIndexByte(src[:off], '\n') + 1
}

func lineEnd(src []byte, off int) int {
	if i := bytes.IndexByte(src[off:], '\n'); i >= 0 {
		return off + i + 1
	}
	return len(src)
}

// guardFix moves the plain top-level statements around site (a run of
// assignments and expression statements, stopping at imports, definitions and
// compound statements) to the start of the module's main guard, creating one
// at the end of the file when there is none.
func (r reporter) guardFix(site model.Site, message string) (fixsafety.Fix, bool) {
	m := site.Mod
	body := m.File.Body
	idx := -1
	for i, s := range body {
		if s.Pos().Contains(site.Span) {
			idx = i
			break
		}
	}
	if idx < 0 || !plainStatement(body[idx]) {
		return fixsafety.Fix{}, false
	}
	first, last := idx, idx
	for first > 0 && plainStatement(body[first-1]) {
		first--
	}
	for last+1 < len(body) && plainStatement(body[last+1]) {
		last++
	}
	start := lineStart(m.Src, body[first].Pos().Start)
	end := lineEnd(m.Src, body[last].Pos().End)
	// The run must own its lines: nothing else may share them.
	if start != body[first].Pos().Start && strings.TrimSpace(string(m.Src[start:body[first].Pos().Start])) != "" {
		return fixsafety.Fix{}, false
	}
	for i := first; i <= last; i++ {
		if hasMultilineString(m.Src, body[i]) {
			return fixsafety.Fix{}, false
		}
	}
	moved := string(m.Src[start:end])
	tf := r.prog.File(m)
	del := analysis.TextEdit{Pos: tf.Pos(start), End: tf.Pos(end)}
	if len(m.Guards) > 0 && !m.Guards[0].Negated && len(m.Guards[0].Body) > 0 && m.Guards[0].If.Start > end {
		g := m.Guards[0]
		at := lineStart(m.Src, g.Body[0].Pos().Start)
		indent := string(m.Src[at:g.Body[0].Pos().Start])
		if strings.TrimSpace(indent) != "" {
			return fixsafety.Fix{}, false
		}
		ins := analysis.TextEdit{Pos: tf.Pos(at), End: tf.Pos(at), NewText: []byte(indentLines(moved, indent))}
		return fixsafety.Unsafe(message, del, ins), true
	}
	if len(m.Guards) > 0 {
		return fixsafety.Fix{}, false
	}
	tail := ""
	if len(m.Src) > 0 && m.Src[len(m.Src)-1] != '\n' {
		tail = "\n"
	}
	text := tail + "\n\nif __name__ == \"__main__\":\n" + indentLines(moved, "    ")
	eof := tf.Pos(len(m.Src))
	ins := analysis.TextEdit{Pos: eof, End: eof, NewText: []byte(text)}
	return fixsafety.Unsafe(message, del, ins), true
}

func plainStatement(s syntax.Stmt) bool {
	switch s.(type) {
	case *syntax.Assign, *syntax.ExprStmt:
		if e, ok := s.(*syntax.ExprStmt); ok {
			if _, isDoc := e.X.(*syntax.String); isDoc {
				return false
			}
		}
		return true
	}
	return false
}

func hasMultilineString(src []byte, s syntax.Stmt) bool {
	found := false
	syntax.Inspect(s, func(n syntax.Node) bool {
		if st, ok := n.(*syntax.String); ok && bytes.IndexByte(src[st.Start:st.End], '\n') >= 0 {
			found = true
		}
		return !found
	})
	return found
}

func indentLines(text, indent string) string {
	lines := strings.SplitAfter(text, "\n")
	var b strings.Builder
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			b.WriteString(l)
			continue
		}
		b.WriteString(indent + l)
	}
	s := b.String()
	if !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	return s
}
