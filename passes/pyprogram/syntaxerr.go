package pyprogram

import (
	"bytes"
	"fmt"
	"go/token"
	"unicode/utf8"

	"github.com/cudaforklint/cudaforklint/finding"
	"github.com/cudaforklint/cudaforklint/syntax"
	"github.com/cudaforklint/cudaforklint/tokcheck"
)

// Syntax errors. A region tree-sitter could not parse is a syntax error
// (reported like a finding, counted as an error; the run exits 1), unless
// it is one of the constructs of Python 3.13 and 3.14 that the bundled
// grammar predates: those are valid code the parser cannot read, reported
// as a warning. What tree-sitter parses but CPython's tokenizer rejects
// (tokcheck) is a syntax error too. The rest of the file is analyzed
// either way.

// newerSyntax names the Python 3.13+ construct that explains the
// unparsable region sp of src, or returns "".
func newerSyntax(src []byte, sp syntax.Span) string {
	text := src[sp.Start:min(int(sp.End), len(src))]
	lineStart := bytes.LastIndexByte(src[:sp.Start], '\n') + 1
	line := bytes.TrimLeft(src[lineStart:sp.Start], " \t")
	// Template strings (Python 3.14) are not here: the syntax package
	// parses them.
	switch {
	case bytes.Contains(text, []byte("=")) && startsDefinition(line) && inBrackets(src[lineStart:sp.Start]):
		// def f[T = int]: a type parameter default.
		return "a type parameter default (Python 3.13)"
	case bytes.HasPrefix(line, []byte("except")) && bytes.Contains(text, []byte(",")):
		// except A, B: without parentheses.
		return "an except clause without parentheses (Python 3.14)"
	}
	return ""
}

func startsDefinition(line []byte) bool {
	for _, kw := range []string{"def ", "async def ", "class ", "type "} {
		if bytes.HasPrefix(line, []byte(kw)) {
			return true
		}
	}
	return false
}

// inBrackets reports whether more '[' than ']' open before the region on
// its line.
func inBrackets(before []byte) bool {
	return bytes.Count(before, []byte("[")) > bytes.Count(before, []byte("]"))
}

// parseProblems returns the syntax errors and notices of a parsed file:
// the regions tree-sitter could not parse (errs), sorted into syntax
// errors and newer syntax, and what CPython's tokenizer rejects although
// tree-sitter parsed it (rejected, tokcheck.Scan(src).Problems: a stray
// byte order mark, inconsistent tabs), on lines without a tree-sitter
// error. The caller scans on the load's workers: tokenizing every file on
// the goroutine that collects the results took 170 ms of a standard
// library run, while the analysis waited for it.
func parseProblems(path string, src []byte, errs []syntax.Span, rejected []tokcheck.Problem, tf *token.File) (syntaxErrs []finding.SyntaxError, notices []finding.Notice) {
	column := func(off int, pos token.Position) int {
		return utf8.RuneCount(src[off-(pos.Column-1):off]) + 1
	}
	reported := map[int]bool{}
	for _, sp := range errs {
		pos := tf.Position(tf.Pos(int(sp.Start)))
		col := column(int(sp.Start), pos)
		reported[pos.Line] = true
		if what := newerSyntax(src, sp); what != "" {
			notices = append(notices, finding.Notice{Path: path, Line: pos.Line,
				Message: fmt.Sprintf("could not parse the code at line %d, column %d, %s, which cudaforklint's parser predates; analyzed the rest of the file", pos.Line, col, what)})
			continue
		}
		syntaxErrs = append(syntaxErrs, finding.SyntaxError{Path: path, Line: pos.Line, Column: col,
			Message: "SyntaxError: cannot parse this code (the rest of the file was checked)"})
	}
	for _, p := range rejected {
		pos := tf.Position(tf.Pos(p.Offset))
		if reported[pos.Line] {
			continue
		}
		reported[pos.Line] = true
		syntaxErrs = append(syntaxErrs, finding.SyntaxError{Path: path, Line: pos.Line, Column: column(p.Offset, pos), Message: p.Message()})
	}
	return syntaxErrs, notices
}

// crOnlyMessage is the tool error of a checked file whose lines end with CR
// alone.
const crOnlyMessage = "the lines end with CR alone (classic Mac OS line endings), which cudaforklint's parser does not read as line breaks, so the file was not checked: convert it to LF or CRLF"

// readableLines returns the files whose line breaks the parser reads, and a
// tool error for each of the others: a file whose lines end with CR alone.
// CPython reads a lone CR as a line break; tree-sitter does not, so the
// whole file is one line to it, ending in the first comment. Such a file is
// not analyzed at all: no findings, no unused-noqa report (a `# noqa` would
// swallow the lines after it) and so no fix, which would delete the CRs
// inside what the parser took for a comment; the run exits 2 rather than
// report it clean.
func readableLines(files []string, read func(string) ([]byte, error)) (ok []string, errs []finding.ToolError) {
	ok = files[:0:0]
	for _, f := range files {
		if src, err := read(f); err == nil && crOnly(src) {
			errs = append(errs, finding.ToolError{Path: f, Line: 1, Message: crOnlyMessage})
			continue
		}
		ok = append(ok, f)
	}
	return ok, errs
}

// crOnly reports whether src breaks lines with CR alone: it has a CR and no
// LF.
func crOnly(src []byte) bool {
	return bytes.IndexByte(src, '\n') < 0 && bytes.IndexByte(src, '\r') >= 0
}
