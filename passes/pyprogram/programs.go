package pyprogram

import (
	"path/filepath"

	"github.com/cudaforklint/cudaforklint/config"
)

// Programs splits the checked files of a run into independent programs: no
// module that the analysis of one can load is loadable from another. The
// driver runs the passes once per program, as go/analysis runs them once
// per package, and drops each program's trees and summaries before the
// next: memory is bounded by the largest program, not by the whole input (a
// monorepo of separate projects, a directory of standalone scripts).
//
// The split rests on the prefilter's argument (prefilter.go): the model
// loads a module only through names written in modules already loaded, and
// the prefilter's reach over-approximates what those names resolve to. So
// Programs reads every file of every checked file's reach (the prefilter
// stops once its verdict is settled; this cannot), and two checked files
// whose reaches share a file, or reach each other, are one program. Files
// in different programs then never meet in one model: whatever the model
// computes for one program, it computes from that program's modules alone.
//
// Each program lists its files in the order of files; programs come in the
// order of their first file. Files without a configuration are put with
// the first program (the pass skips them). One file, or none, is one
// program, and nothing is read.
func Programs(files []string, read func(string) ([]byte, error), pol *config.Policy) []Program {
	if len(files) <= 1 {
		return []Program{{Files: files}}
	}
	checked := configured(pol, files)
	roots, extra := runSettings(pol, checked)
	dirs := newDirCache()
	pf := newPrefilter(read, dirs.IsFile, roots, extra)
	pf.expandAll = true
	pf.explore(checked, pol.Workers)

	// Union-find over the graph's edges, in either direction.
	parent := make([]int, len(pf.nodes))
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(x int) int {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	for n, nd := range pf.nodes {
		for _, m := range nd.edges {
			if a, b := find(n), find(m); a != b {
				parent[max(a, b)] = min(a, b)
			}
		}
	}

	group := map[int]int{} // component root → index in out
	var out []Program
	var unconfigured []string
	for _, f := range files {
		n, ok := pf.index[filepath.Clean(f)]
		if !ok {
			unconfigured = append(unconfigured, f)
			continue
		}
		r := find(n)
		g, ok := group[r]
		if !ok {
			g = len(out)
			group[r] = g
			out = append(out, Program{})
		}
		out[g].Files = append(out[g].Files, f)
	}
	if len(out) == 0 {
		return []Program{{Files: files}}
	}
	out[0].Files = append(out[0].Files, unconfigured...)
	for n, nd := range pf.nodes {
		if g, ok := group[find(n)]; ok {
			out[g].Bytes += int64(nd.size)
		}
	}
	return out
}

// Program is one independent program of a run.
type Program struct {
	// Files are its checked files.
	Files []string
	// Bytes is the size of every file its analysis can load, checked or
	// imported: what it can hold in memory at most is proportional. 0
	// when the run was not split.
	Bytes int64
}
