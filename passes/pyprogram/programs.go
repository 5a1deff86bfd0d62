package pyprogram

import (
	"path/filepath"

	"github.com/cudaforklint/cudaforklint/analyzer/runstate"
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
// Programs reads the checked files' reaches (past where the prefilter's
// verdict is settled), and two checked files whose reaches share a file, or
// reach each other, are one program. Files in different programs then never
// meet in one model: whatever the model computes for one program, it
// computes from that program's modules alone. Proving two files apart
// takes reading both reaches whole; once the edges read join every checked
// file, nothing read later can split them, and reading stops (a pre-commit
// run on a few modules of one package reads a wave or two of imports).
//
// Each program lists its files in the order of files; programs come in the
// order of their first file. Files without a configuration are put with
// the first program (the pass skips them). One file, or none, is one
// program, and nothing is read.
//
// It also returns the scans it made of the files it read, for the passes
// (Scans); nil when it read none.
func Programs(files []string, read func(string) ([]byte, error), pol *config.Policy) ([]Program, *Scans) {
	if len(files) <= 1 {
		return []Program{{Files: files}}, nil
	}
	checked := configured(pol, files)
	extra := runExtraInitializers(pol, checked)
	dirs := newDirCache()
	pf := newPrefilter(read, dirs.IsFile, pol.ImportRoots, extra)
	pf.expandAll = true
	pf.explore(checked, pol.Workers)

	uf := pf.components()
	group := map[int]int{} // component root → index in out
	var out []Program
	var unconfigured []string
	for _, f := range files {
		n, ok := pf.index[filepath.Clean(f)]
		if !ok {
			unconfigured = append(unconfigured, f)
			continue
		}
		r := uf.find(n)
		g, ok := group[r]
		if !ok {
			g = len(out)
			group[r] = g
			out = append(out, Program{})
		}
		out[g].Files = append(out[g].Files, f)
	}
	scans := pf.scans(extra)
	if len(out) == 0 {
		return []Program{{Files: files}}, scans
	}
	out[0].Files = append(out[0].Files, unconfigured...)
	for n, nd := range pf.nodes {
		if g, ok := group[uf.find(n)]; ok {
			out[g].Bytes += int64(nd.size)
			if nd.scanned {
				out[g].Reach = append(out[g].Reach, nd.path)
			}
		}
	}
	return out, scans
}

// Program is one independent program of a run. Its Bytes, when the run is
// one program, count only what was read before that was settled (0 when
// nothing was); its Reach, the files of its reach that Programs read, decide
// with their scans which of its files the passes skip, and are empty when
// the run is one program and nothing was read.
type Program = runstate.Program

// Split is Programs as the driver takes it (analyzer.Options.Split): the
// scans go to each program's pass through runstate.State.Scans.
func Split(files []string, read func(string) ([]byte, error), pol *config.Policy) ([]runstate.Program, any) {
	progs, scans := Programs(files, read, pol)
	if scans == nil {
		return progs, nil // no typed nil in State.Scans
	}
	return progs, scans
}
