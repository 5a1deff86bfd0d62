package model

import (
	"slices"
	"strings"

	"github.com/cudaforklint/cudaforklint/procapi"
	"github.com/cudaforklint/cudaforklint/pytarget"
)

// AnalyzeLoading runs every entry once per class of target configurations
// (configClasses): the classes differ in the default start method, in
// whether the forkserver imports __main__, and in lazy imports. Most runs
// never ask about most of that: a program whose only start names its
// method reads whether the platform has fork and CUDA, which every Linux
// config answers alike. On NVIDIA/Megatron-LM, whose training scripts
// simulate much of the library, the five Linux classes' runs as __main__
// were 19 of the 34 s of a check, the last four classes repeating the
// first's work.
//
// So a run records which properties of its config it read (the simulator's
// accessors below are the only readers), and an entry whose earlier run
// read the same answers on another class is not run again: its run would
// be the same events in the same state, and would add nothing but its
// class to the hazards the earlier run added or found again (hazardSet.add
// merges the configs of the same hazard; a later class ranks after every
// earlier one, so none of them changes which hazard represents). An
// uncalled function's run includes its module's import, shared with the
// module's other uncalled functions (importRun): it carries what the
// import read, and the first function to run in a class runs the import,
// whose hazards it then touches.

// configMemo turns the replay on; tests compare with it off.
var configMemo = true

// cfgReads are the properties of a target config a simulation read.
type cfgReads uint8

const (
	readDefaultStart cfgReads = 1 << iota
	readForkserverImportsMain
	readFork
	readCUDA
	readLazy
	readPlatform
)

// defaultStartMethod is the start method of family's default context on
// the config: a property of the family (multiprocess keeps fork where
// CPython moved to forkserver or spawn, procapi.Families).
func (s *simulator) defaultStartMethod(family string) pytarget.StartMethod {
	s.read |= readDefaultStart
	return procapi.DefaultStartMethod(family, s.cfg)
}

// familyDefaults names every family's default start method on c, in
// procapi.Families order: configs with the same answer run alike.
func familyDefaults(c pytarget.Config) string {
	var b strings.Builder
	for _, f := range procapi.Families() {
		b.WriteString(f.DefaultStartMethod(c).String())
		b.WriteByte(' ')
	}
	return b.String()
}

func (s *simulator) forkserverImportsMain() bool {
	s.read |= readForkserverImportsMain
	return s.cfg.ForkserverImportsMain()
}

func (s *simulator) hasFork() bool {
	s.read |= readFork
	return s.cfg.HasFork()
}

func (s *simulator) hasCUDA() bool {
	s.read |= readCUDA
	return s.cfg.HasCUDA()
}

func (s *simulator) platform() pytarget.Platform {
	s.read |= readPlatform
	return s.cfg.Platform
}

func (s *simulator) hasLazyImports() bool {
	s.read |= readLazy
	return s.cfg.HasLazyImports()
}

// importInits is m.importTimeInits on s's config, recording what of the
// config its answer depends on: what the import's own simulation read.
func (s *simulator) importInits(m *Module, proc procKind, boot bootstrap) []*InitRecord {
	inits := m.importTimeInits(s.cfg, proc, boot)
	s.read |= m.importInitsMemo(s.cfg, proc, boot).read
	return inits
}

// sameAnswers reports whether a and b answer alike every property in read.
func sameAnswers(read cfgReads, a, b pytarget.Config) bool {
	return (read&readDefaultStart == 0 || familyDefaults(a) == familyDefaults(b)) &&
		(read&readForkserverImportsMain == 0 || a.ForkserverImportsMain() == b.ForkserverImportsMain()) &&
		(read&readFork == 0 || a.HasFork() == b.HasFork()) &&
		(read&readCUDA == 0 || a.HasCUDA() == b.HasCUDA()) &&
		(read&readLazy == 0 || a.HasLazyImports() == b.HasLazyImports()) &&
		(read&readPlatform == 0 || a.Platform == b.Platform)
}

// entryKey is an entry: a module run as __main__ (fn nil), or an uncalled
// function of it run after its import.
type entryKey struct {
	m  *Module
	fn *Function
}

// entryRun is one run of an entry: the config it ran on, what of it the
// run read, and the keys of the hazards it added or found again.
type entryRun struct {
	cfg     pytarget.Config
	read    cfgReads
	touched []string
}

// entryRuns are the runs of each entry in one AnalyzeLoading.
type entryRuns map[entryKey][]entryRun

// add records the run s made of e.
func (runs entryRuns) add(e entryKey, s *simulator) {
	if s.dropped {
		// Its hazards are not in the set, and a class its program can
		// meet needs them: such a class runs the entry itself.
		return
	}
	runs[e] = append(runs[e], entryRun{cfg: s.cfg, read: s.read, touched: uniqueKeys(s.touched)})
}

// uniqueKeys returns the hazard keys in keys once each: a run touches the
// same hazard at every visit of its start, and a replayed call adds its
// record's keys again.
func uniqueKeys(keys []string) []string {
	out := slices.Clone(keys)
	slices.Sort(out)
	return slices.Clip(slices.Compact(out))
}

// replay reports whether an earlier run of e stands for its run on cfg,
// and if so adds the configs of cfg's class e can meet to the hazards that
// run touched, as running it again would.
func (runs entryRuns) replay(e entryKey, cfg pytarget.Config, out *hazardSet) bool {
	for _, r := range runs[e] {
		if !sameAnswers(r.read, r.cfg, cfg) {
			continue
		}
		for _, k := range r.touched {
			z := out.byKey[k]
			z.Configs |= out.configsOf(z, e.m, e.fn, cfg)
		}
		return true
	}
	return false
}
