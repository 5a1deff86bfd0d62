package fix

import (
	"fmt"
	"strings"
)

// contextLines is the number of unchanged lines around each change.
const contextLines = 3

// UnifiedDiff renders the change from a to b as a unified diff with git's
// a/ and b/ prefixes (so `git apply` and `patch -p1` take it), or "" when
// they are equal. A last line without a newline gets the usual
// "\ No newline at end of file" marker.
func UnifiedDiff(path string, a, b []byte) string {
	if string(a) == string(b) {
		return ""
	}
	al, bl := splitLines(string(a)), splitLines(string(b))
	ops := diffLines(al, bl)
	var out strings.Builder
	fmt.Fprintf(&out, "--- a/%s\n+++ b/%s\n", path, path)
	for _, h := range hunks(ops) {
		writeHunk(&out, h, al, bl)
	}
	return out.String()
}

// splitLines splits s after each '\n'; a last line without one is kept.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

type opKind uint8

const (
	opEq opKind = iota
	opDel
	opIns
)

// op is one line of the edit script: a[ai] kept or deleted, or b[bi] inserted.
type op struct {
	kind   opKind
	ai, bi int
}

// diffLines returns a shortest edit script from a to b (Myers' O(ND)
// algorithm on the lines between the common prefix and suffix).
func diffLines(a, b []string) []op {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var ops []op
	for i := 0; i < pre; i++ {
		ops = append(ops, op{opEq, i, i})
	}
	for _, o := range myers(a[pre:len(a)-suf], b[pre:len(b)-suf]) {
		o.ai += pre
		o.bi += pre
		ops = append(ops, o)
	}
	for i := 0; i < suf; i++ {
		ops = append(ops, op{opEq, len(a) - suf + i, len(b) - suf + i})
	}
	return ops
}

func myers(a, b []string) []op {
	n, m := len(a), len(b)
	max := n + m
	if max == 0 {
		return nil
	}
	off := max + 1
	v := make([]int, 2*max+3)
	var trace [][]int
	var dEnd int
search:
	for d := 0; d <= max; d++ {
		trace = append(trace, append([]int(nil), v...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || k != d && v[off+k-1] < v[off+k+1] {
				x = v[off+k+1]
			} else {
				x = v[off+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[off+k] = x
			if x >= n && y >= m {
				dEnd = d
				break search
			}
		}
	}
	// Backtrack from (n, m) through the saved frontiers.
	var rev []op
	x, y := n, m
	for d := dEnd; d >= 0; d-- {
		v := trace[d]
		k := x - y
		var pk int
		if k == -d || k != d && v[off+k-1] < v[off+k+1] {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := v[off+pk]
		py := px - pk
		for x > px && y > py {
			x--
			y--
			rev = append(rev, op{opEq, x, y})
		}
		if d > 0 {
			if x == px {
				y--
				rev = append(rev, op{opIns, x, y})
			} else {
				x--
				rev = append(rev, op{opDel, x, y})
			}
		}
	}
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	return rev
}

// hunks groups the script into runs of changes with their context, merging
// changes closer than twice the context.
func hunks(ops []op) [][]op {
	var out [][]op
	i := 0
	for i < len(ops) {
		// Find the next change.
		for i < len(ops) && ops[i].kind == opEq {
			i++
		}
		if i == len(ops) {
			break
		}
		start := max(i-contextLines, 0)
		// Extend while another change follows within 2*context equal lines.
		end := i
		for {
			for end < len(ops) && ops[end].kind != opEq {
				end++
			}
			eq := 0
			for end+eq < len(ops) && ops[end+eq].kind == opEq {
				eq++
			}
			if end+eq < len(ops) && eq <= 2*contextLines {
				end += eq
				continue
			}
			end = min(end+contextLines, len(ops))
			break
		}
		out = append(out, ops[start:end])
		i = end
	}
	return out
}

func writeHunk(w *strings.Builder, h []op, a, b []string) {
	aStart, bStart := -1, -1
	aCount, bCount := 0, 0
	for _, o := range h {
		switch o.kind {
		case opEq:
			if aStart < 0 {
				aStart = o.ai
			}
			if bStart < 0 {
				bStart = o.bi
			}
			aCount++
			bCount++
		case opDel:
			if aStart < 0 {
				aStart = o.ai
			}
			aCount++
		case opIns:
			if bStart < 0 {
				bStart = o.bi
			}
			bCount++
		}
	}
	// A side with no lines reports the line before the hunk (GNU diff).
	if aStart < 0 {
		aStart = h[0].ai
	}
	if bStart < 0 {
		bStart = h[0].bi
	}
	fmt.Fprintf(w, "@@ -%s +%s @@\n", hunkRange(aStart, aCount), hunkRange(bStart, bCount))
	line := func(prefix, s string) {
		w.WriteString(prefix)
		w.WriteString(s)
		if !strings.HasSuffix(s, "\n") {
			w.WriteString("\n\\ No newline at end of file\n")
		}
	}
	for _, o := range h {
		switch o.kind {
		case opEq:
			line(" ", a[o.ai])
		case opDel:
			line("-", a[o.ai])
		case opIns:
			line("+", b[o.bi])
		}
	}
}

// hunkRange formats a 0-based start and a count as "l,n" (1-based), "l"
// when n is 1, and "l,0" with l the line before when n is 0.
func hunkRange(start, n int) string {
	switch n {
	case 0:
		return fmt.Sprintf("%d,0", start)
	case 1:
		return fmt.Sprintf("%d", start+1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}
