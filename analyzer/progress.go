package analyzer

import "sync/atomic"

// Progress counts a run's work while it goes on, for a display of it (the
// command line's on a terminal): the counters are atomic, read from
// another goroutine whenever the display redraws, and cost the run one
// atomic add per file read and per program analyzed. They say nothing of
// rules. Run resets them when it starts, so that one Progress can follow
// the successive runs of a --fix.
type Progress struct {
	// Files is the number of files to check, once discovered.
	Files atomic.Int64
	// Read counts the files read so far: the checked files and the local
	// modules they import.
	Read atomic.Int64
	// Programs is the number of programs to analyze (those a
	// ProgramCache did not give back), once the files are split into
	// programs; Analyzed counts those done.
	Programs, Analyzed atomic.Int64
}

func (p *Progress) start(files int) {
	if p == nil {
		return
	}
	p.Files.Store(int64(files))
	p.Read.Store(0)
	p.Programs.Store(0)
	p.Analyzed.Store(0)
}

func (p *Progress) read() {
	if p != nil {
		p.Read.Add(1)
	}
}

func (p *Progress) programs(n int) {
	if p != nil {
		p.Programs.Store(int64(n))
	}
}

func (p *Progress) analyzed() {
	if p != nil {
		p.Analyzed.Add(1)
	}
}
