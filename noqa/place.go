package noqa

import (
	"sort"
	"strings"

	"github.com/cudaforklint/cudaforklint/syntax"
	"github.com/cudaforklint/cudaforklint/tokcheck"
)

// Where a `# noqa` goes. A finding is reported on a physical line, but a
// comment can only end a logical line: appended after a backslash that
// continues the line it is a SyntaxError, and on a line that opens a
// triple-quoted string it is text inside the string. So a line directive
// covers the lines of the logical line it ends, as ruff's do for
// continuations and multi-line strings: it goes on the logical line's last
// physical line, after the continuation or the string closes; brackets
// spanning lines make one logical line too (CPython's tokenizer joins them).
// Place says where that is; Suppresses reads a directive there as covering
// every line of the logical line.

// Placement is where a `# noqa` for a finding goes, and the edit that puts
// it there.
type Placement struct {
	// Line is the 1-based physical line the directive goes on: the last
	// line of the finding's logical line.
	Line int
	// Edit inserts the codes: ", CODE" after the codes of the line
	// directive already on Line (`# noqa: E501` becomes `# noqa: E501,
	// CODE`, a reason after the codes kept after them), or else
	// "  # noqa: CODE" at the end of Line, after any comment there and
	// before trailing whitespace and the line break.
	Edit Edit
}

// Place returns where a `# noqa` naming codes goes for a finding on line
// (1-based) of src, a Python file's source (or a notebook cell's text, for
// a finding located in that cell). Codes a directive there covers already
// are left out; ok is false when that leaves none, or when line is not a
// line of src. It is the one answer to "where does the noqa go" for every
// caller that writes one (the language server's quick fix).
func Place(src []byte, line int, codes ...string) (Placement, bool) {
	scan := tokcheck.Scan(src)
	set := Parse(src, commentsOf(src, scan))
	if line < 1 || line > len(set.lineStart) {
		return Placement{}, false
	}
	last := set.logicalLast(scan)[line-1]
	var dir *Directive
	for _, d := range set.lines[last] {
		dir = d
		break
	}
	var add []string
	for _, c := range codes {
		if dir != nil && (dir.Blanket() || contains(dir.Codes, c)) || contains(add, c) {
			continue
		}
		add = append(add, c)
	}
	if len(add) == 0 {
		return Placement{}, false
	}
	list := strings.Join(add, ", ")
	if dir != nil {
		return Placement{Line: last, Edit: Edit{Start: int(dir.Span.End), End: int(dir.Span.End), NewText: ", " + list}}, true
	}
	end := set.lineEnd(last)
	for end > set.lineStart[last-1] && isSpace(src[end-1]) {
		end--
	}
	return Placement{Line: last, Edit: Edit{Start: end, End: end, NewText: "  # noqa: " + list}}, true
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// commentsOf turns the scan's comments into the parser's form, for Parse.
func commentsOf(src []byte, scan *tokcheck.Result) []syntax.Comment {
	out := make([]syntax.Comment, len(scan.Comments))
	for i, c := range scan.Comments {
		out[i] = syntax.Comment{Span: syntax.Span{Start: int32(c.Start), End: int32(c.End)}, Text: string(src[c.Start:c.End])}
	}
	return out
}

// lineEnd is the offset of the '\n' ending line (1-based), or the end of
// the source.
func (s *Set) lineEnd(line int) int {
	if line < len(s.lineStart) {
		return s.lineStart[line] - 1
	}
	return len(s.src)
}

// logicalLast returns, for each physical line (index line-1), the 1-based
// last line of the logical line it belongs to. A line break ends a logical
// line unless it is inside a string, inside brackets, or escaped by a
// backslash; comments are skipped (a bracket or a quote in one counts for
// nothing). Strings and comments are the tokenizer's (scan).
func (s *Set) logicalLast(scan *tokcheck.Result) []int {
	if s.last != nil {
		return s.last
	}
	// The outermost strings, by start: a string nested in an f-string's
	// replacement field lies inside one.
	strs := append([]tokcheck.Span(nil), scan.Strings...)
	sort.Slice(strs, func(i, j int) bool { return strs[i].Start < strs[j].Start })
	skip := make([]tokcheck.Span, 0, len(strs)+len(scan.Comments))
	end := -1
	for _, sp := range strs {
		if sp.Start >= end {
			skip = append(skip, sp)
			end = sp.End
		}
	}
	skip = append(skip, scan.Comments...)
	sort.Slice(skip, func(i, j int) bool { return skip[i].Start < skip[j].Start })

	last := make([]int, len(s.lineStart))
	first, depth, next := 0, 0, 0 // first: index of the logical line's first line
	code := 0                     // where the code after the last string or comment starts
	src := s.src
	for i := 0; i < len(src); i++ {
		for next < len(skip) && skip[next].End <= i {
			next++
		}
		if next < len(skip) && skip[next].Start <= i {
			i = skip[next].End - 1
			code = skip[next].End
			continue
		}
		switch src[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth > 0 {
				depth--
			}
		case '\n':
			line := s.LineOf(i) // the line this break ends
			b := i - 1          // a backslash in code (not ending a comment) escapes the break
			if b >= 0 && src[b] == '\r' {
				b--
			}
			escaped := b >= code && src[b] == '\\'
			if depth > 0 || escaped {
				continue
			}
			for l := first; l < line; l++ {
				last[l] = line
			}
			first = line
		}
	}
	for l := first; l < len(last); l++ {
		last[l] = len(last)
	}
	s.last = last
	return last
}
