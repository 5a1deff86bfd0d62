package output

import (
	"bufio"
	"fmt"
	"io"
	"sort"
)

// WriteStatistics writes one row per rule that fired, as ruff's
// --statistics (Flake8's shape): the count, the code, a fix marker and the
// rule name, most frequent first (then by code):
//
//	3	CFL001	[*] fork-after-cuda-init
//	1	CFL004	[ ] cuda-at-import
//
// The marker is [*] when every finding of the rule is fixable, [-] when
// some are, [ ] when none are. Suppressed findings are not counted.
func WriteStatistics(w io.Writer, r *Report, opt Options) error {
	type row struct {
		code, name   string
		count, fixes int
	}
	rows := map[string]*row{}
	for i := range r.Findings {
		f := &r.Findings[i]
		if f.Suppressed {
			continue
		}
		rw := rows[f.Code]
		if rw == nil {
			rw = &row{code: f.Code, name: f.Name}
			rows[f.Code] = rw
		}
		rw.count++
		if fixable(f, opt.UnsafeFixes) {
			rw.fixes++
		}
	}
	list := make([]*row, 0, len(rows))
	width, codeWidth := 1, 1
	for _, rw := range rows {
		list = append(list, rw)
		width = max(width, len(fmt.Sprint(rw.count)))
		codeWidth = max(codeWidth, len(rw.code))
	}
	sort.Slice(list, func(i, j int) bool {
		if list[i].count != list[j].count {
			return list[i].count > list[j].count
		}
		return list[i].code < list[j].code
	})
	bw := bufio.NewWriter(w)
	for _, rw := range list {
		marker := "[ ]"
		switch {
		case rw.fixes == rw.count:
			marker = "[*]"
		case rw.fixes > 0:
			marker = "[-]"
		}
		fmt.Fprintf(bw, "%*d\t%-*s\t%s %s\n", width, rw.count, codeWidth, rw.code, marker, rw.name)
	}
	return bw.Flush()
}
