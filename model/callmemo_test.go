package model

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/cudaforklint/cudaforklint/pytarget"
	"github.com/cudaforklint/cudaforklint/syntax"
)

// switchedOff runs f with the mechanism whose switch is on (recordCalls,
// uncalledShortcuts, indexReceivers, configMemo) turned off.
func switchedOff(on *bool, f func()) {
	*on = false
	defer func() { *on = true }()
	f()
}

// describeHazards writes down everything a report is made of.
func describeHazards(hz []*Hazard) string {
	var b strings.Builder
	site := func(s Site) string {
		if s.Mod == nil {
			return "-"
		}
		return fmt.Sprintf("%s:%d-%d", s.Mod.Path, s.Span.Start, s.Span.End)
	}
	chain := func(fs []Frame) string {
		var parts []string
		for _, f := range fs {
			parts = append(parts, site(f.Site)+" "+f.Desc())
		}
		return strings.Join(parts, " > ")
	}
	for _, z := range hz {
		fn := ""
		if z.EntryFunc != nil {
			fn = " " + z.EntryFunc.QualName
		}
		fmt.Fprintf(&b, "kind %d at %s configs %v via %q entry %s%s\n", z.Kind, site(z.At), z.Configs, z.Via, z.Entry.Path, fn)
		if z.Init != nil {
			fmt.Fprintf(&b, "  init %s %s [%s]\n", site(z.Init.Site), z.Init.API, chain(z.Init.Chain))
		}
		fmt.Fprintf(&b, "  start %s %v [%s] child %v %s %s\n", site(z.Start.Site), z.Start.Method, chain(z.Start.Chain),
			z.Child.Verdict, site(z.Child.Evidence), z.Child.Reason)
		for _, m := range z.MoreStarts {
			fmt.Fprintf(&b, "  more %s\n", site(m.Site))
		}
	}
	return b.String()
}

// analyzeProgram analyzes every file of files as an entry, on every
// config, and returns the program and its findings described.
func analyzeProgram(files memSource) (*Program, string) {
	prog := NewProgram(files, Options{})
	var paths []string
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var mods []*Module
	for _, p := range paths {
		if m, err := prog.Module(p); err == nil {
			mods = append(mods, m)
		}
	}
	return prog, describeHazards(prog.Analyze(mods, pytarget.All()))
}

// fixtureDirs are the fixtures under testdata/py, by directory: each
// directory is a program.
func fixtureDirs(t *testing.T) map[string]memSource {
	t.Helper()
	byDir := map[string]memSource{}
	for p, src := range fixtureSources() {
		d := filepath.Dir(p)
		if byDir[d] == nil {
			byDir[d] = memSource{}
		}
		byDir[d][p] = src
	}
	if len(byDir) < 30 {
		t.Fatalf("only %d fixture directories", len(byDir))
	}
	return byDir
}

// TestCallRecordsChangeNoFinding: skipping a call whose recorded run
// changed nothing must give the findings that running it gives, on every
// fixture directory.
func TestCallRecordsChangeNoFinding(t *testing.T) {
	sameFindingsWithout(t, "call records", fixtureDirs(t), &recordCalls)
}

// sameFindingsWithout checks that every program in programs gives the
// same findings with the mechanism named what on and off (its switch on),
// and that together they give enough findings for that to say something.
func sameFindingsWithout(t *testing.T, what string, programs map[string]memSource, on *bool) {
	t.Helper()
	findings := 0
	for d, files := range programs {
		_, with := analyzeProgram(files)
		var off string
		switchedOff(on, func() { _, off = analyzeProgram(files) })
		if with != off {
			t.Errorf("%s: with %s\n%s\nwithout\n%s", d, what, with, off)
		}
		findings += strings.Count(with, "\nkind ")
	}
	if findings < 50 {
		t.Errorf("the programs gave only %d findings", findings)
	}
}

// simulateTop runs src's top level as __main__ on the default config and
// returns the simulator after the run.
func simulateTop(t *testing.T, src string) *simulator {
	t.Helper()
	prog := NewProgram(memSource{"/p/main.py": src}, Options{})
	m, err := prog.Module("/p/main.py")
	if err != nil {
		t.Fatal(err)
	}
	prog.values().newEntry()
	s := &simulator{cfg: configClasses(pytarget.Default())[0].rep, entry: m, out: &hazardSet{}, budget: maxSimEvents}
	s.run(m.topSummary(), newState())
	return s
}

// recordedFuncs names the functions with recorded runs, and how many.
func recordedFuncs(s *simulator) map[string]int {
	out := map[string]int{}
	for k, runs := range s.calls {
		out[k.fn.QualName] += len(runs)
	}
	return out
}

// TestCallRecordsBudget: only calls that changed nothing, started no
// process and were cut nowhere are recorded; the records change nothing
// that is found while the budget holds, and a replayed call uses up one
// event of it, so that the budget bounds the events simulated, not the
// unfolded run (2^n calls of step() in n nested loops), and reaches further
// than a simulation without records where that one runs out.
func TestCallRecordsBudget(t *testing.T) {
	tests := []struct {
		name     string
		src      string
		recorded map[string]int
		hazards  int
		// cutOnlyWithout: without records the budget runs out, and no
		// hazard is found; with them it holds.
		cutOnlyWithout bool
	}{
		{
			// The first setup() initializes CUDA (a change); the later
			// ones find it done and change nothing.
			name: "repeated setup",
			src: `import torch
import multiprocessing as mp


def setup():
    torch.cuda.init()


def work():
    setup()
    setup()


def main():
    setup()
    for _ in range(3):
        work()
    mp.Process(target=print).start()


main()
`,
			recorded: map[string]int{"setup": 1, "work": 1},
			hazards:  1,
		},
		{
			// A call that starts a process is recorded with the
			// initialization its start was reported with; the other
			// iterations replay it, and find the same one hazard.
			name: "a call that starts",
			src: `import torch
import multiprocessing as mp


def launch():
    mp.Process(target=print).start()


torch.cuda.init()
for _ in range(4):
    launch()
`,
			recorded: map[string]int{"launch": 1},
			hazards:  1,
		},
		{
			// A run cut by its own recursion is cut so wherever it runs:
			// recorded, and the second walk(3) replays it.
			name: "recursion",
			src: `import torch


def walk(n):
    torch.cuda.init()
    if n:
        walk(n - 1)


torch.cuda.init()
walk(3)
walk(3)
`,
			recorded: map[string]int{"walk": 1},
		},
		{
			// The first f() initializes at two new sites; in the second,
			// g's run does not enter f (on the stack): that record needs
			// f on the stack. Called alone, g() enters f, so it runs, and
			// its run is recorded too, with f's inside it (which needs g);
			// the last g() replays it.
			name: "mutual recursion",
			src: `import torch


def f():
    torch.cuda.init()
    g()


def g():
    torch.cuda.init()
    f()


torch.cuda.init()
f()
f()
g()
g()
`,
			recorded: map[string]int{"f": 2, "g": 2},
		},
		{
			// A chain of calls deeper than maxCallDepth is cut at its
			// end: replayed at the depth it was recorded at, run again at
			// another.
			name:     "depth",
			src:      deepChain(maxCallDepth + 5),
			recorded: deepChainRecords(maxCallDepth + 5),
		},
		{
			// Loops run their body twice, so 12 nested loops are 4,096
			// calls of step(), whose runs unfolded are about 74,000 events
			// and replayed about 12,000: the fork after them is reached
			// either way.
			name:     "budget holds",
			src:      budgetProgram(12),
			recorded: map[string]int{"setup": 1, "step": 1},
			hazards:  1,
		},
		{
			// 16 loops unfolded are sixteen times as many events, more
			// than the budget; replayed, about 200,000: with records the
			// fork is reached, without them it is not.
			name:           "replays use one event",
			src:            budgetProgram(16),
			recorded:       map[string]int{"setup": 1, "step": 1},
			hazards:        1,
			cutOnlyWithout: true,
		},
		{
			// 19 loops are more than the budget even replayed: the fork
			// is not reached either way.
			name:     "budget runs out",
			src:      budgetProgram(19),
			recorded: map[string]int{"setup": 1, "step": 1},
			hazards:  0,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			with := simulateTop(t, tt.src)
			var without *simulator
			switchedOff(&recordCalls, func() { without = simulateTop(t, tt.src) })
			if with.budget < without.budget {
				t.Errorf("budget left %d with call records, %d without", with.budget, without.budget)
			}
			if !tt.cutOnlyWithout {
				if w, wo := describeHazards(with.out.list), describeHazards(without.out.list); w != wo {
					t.Errorf("with call records\n%s\nwithout\n%s", w, wo)
				}
			} else if len(without.out.list) != 0 || !without.ranOut || with.ranOut {
				t.Errorf("without call records: %d hazards, ran out %v (with them: %v), want none and a cut only without",
					len(without.out.list), without.ranOut, with.ranOut)
			}
			if got := recordedFuncs(with); fmt.Sprint(got) != fmt.Sprint(tt.recorded) {
				t.Errorf("recorded %v, want %v", got, tt.recorded)
			}
			if len(with.out.list) != tt.hazards {
				t.Errorf("%d hazards, want %d", len(with.out.list), tt.hazards)
			}
			if len(without.calls) != 0 {
				t.Errorf("recorded %d calls with records off", len(without.calls))
			}
		})
	}
}

// budgetProgram initializes CUDA, calls step() in n nested loops (2^n
// times: the simulation runs a loop's body twice), and forks.
func budgetProgram(n int) string {
	return "import os\nimport torch\n\n\ndef setup():\n    torch.cuda.init()\n\n\ndef step():\n" +
		strings.Repeat("    setup()\n", 8) + "\n\nsetup()\n" + nestedLoops(n, "step()") + "os.fork()\n"
}

// deepChain defines d0 … d(n-1), each calling the next, and calls d0
// twice from the top level and once from outer().
func deepChain(n int) string {
	var b strings.Builder
	b.WriteString("import torch\n\n\n")
	for i := range n {
		fmt.Fprintf(&b, "def d%d():\n    torch.cuda.init()\n", i)
		if i+1 < n {
			fmt.Fprintf(&b, "    d%d()\n", i+1)
		}
		b.WriteString("\n\n")
	}
	b.WriteString("def outer():\n    d0()\n\n\ntorch.cuda.init()\nd0()\nd0()\nouter()\n")
	return b.String()
}

// deepChainRecords are deepChain's records: each function the chain
// reaches is recorded from the top level and from outer(), one level
// deeper, where the last one is cut.
func deepChainRecords(n int) map[string]int {
	want := map[string]int{"outer": 1}
	for i := range min(n, maxCallDepth) {
		want[fmt.Sprintf("d%d", i)] = 2
	}
	want[fmt.Sprintf("d%d", maxCallDepth-1)] = 1
	return want
}

// nestedLoops writes n loops nested around body, indented from column 0.
func nestedLoops(n int, body string) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "%sfor i%d in range(2):\n", strings.Repeat("    ", i), i)
	}
	fmt.Fprintf(&b, "%s%s\n", strings.Repeat("    ", n), body)
	return b.String()
}

// TestRecordedRunReplays: a record stands for a run only where that run
// would not be cut.
func TestRecordedRunReplays(t *testing.T) {
	f, g, h := &Function{QualName: "f"}, &Function{QualName: "g"}, &Function{QualName: "h"}
	run := &callRun{st: newState(), deepest: 2, entered: []*Function{f, g}}
	tests := []struct {
		name   string
		stack  []*Function
		budget int
		want   bool
	}{
		{"fresh", nil, 100, true},
		{"a caller of its own on the stack", []*Function{h}, 100, true},
		{"a function it entered on the stack", []*Function{h, g}, 100, false},
		{"one event of budget left, for a run of many", nil, 1, true},
		{"the budget spent", nil, 0, false},
		{"deepest call just under the limit", make([]*Function, maxCallDepth-3), 100, true},
		{"deepest call at the limit", make([]*Function, maxCallDepth-2), 100, false},
	}
	for _, tt := range tests {
		s := &simulator{stack: tt.stack, budget: tt.budget}
		if got := s.replays(run, newState()); got != tt.want {
			t.Errorf("%s: replays %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestRecordedStartReplays: a record whose start was reported with an
// initialization stands for the run only where the start would be
// reported with the same one: another initialization of the state that
// was reported with that start since (by a run in another state) would be
// picked first, and make another hazard.
func TestRecordedStartReplays(t *testing.T) {
	start := Site{Span: syntax.Span{Start: 100, End: 110}}
	a := &InitRecord{Site: Site{Span: syntax.Span{Start: 1, End: 2}}}
	b := &InitRecord{Site: Site{Span: syntax.Span{Start: 3, End: 4}}}
	st := newState()
	st.inits = []*InitRecord{a, b}
	st.sure.add(b.Site.setKey())
	run := &callRun{st: st, picks: []initPick{{start: start, init: b.Site}}}
	tests := []struct {
		name     string
		reported [][2]Site
		want     bool
	}{
		{"nothing reported since: b, the first sure one, again", nil, true},
		{"b reported with it", [][2]Site{{start, b.Site}}, true},
		{"a reported with it since", [][2]Site{{start, a.Site}}, false},
		{"a reported with another start", [][2]Site{{{Span: syntax.Span{Start: 200, End: 210}}, a.Site}}, true},
	}
	for _, tt := range tests {
		s := &simulator{budget: 100, reported: map[[2]Site]bool{}}
		for _, r := range tt.reported {
			s.reported[r] = true
		}
		if got := s.replays(run, st); got != tt.want {
			t.Errorf("%s: replays %v, want %v", tt.name, got, tt.want)
		}
	}
	// A replay reports the start with it, as the run did.
	s := &simulator{budget: 100}
	s.replay(run)
	if !s.reported[[2]Site{start, b.Site}] {
		t.Errorf("the replay did not note the initialization its start was reported with")
	}
}

// TestSameState: two states are the same when nothing the simulation
// reads differs; an empty map and a nil one alike.
func TestSameState(t *testing.T) {
	site := Site{Span: syntax.Span{Start: 1, End: 2}}
	init := &InitRecord{Site: site}
	base := func() *simState {
		st := newState()
		st.inits = []*InitRecord{init}
		st.sure.add(site.setKey())
		return st
	}
	tests := []struct {
		name   string
		change func(*simState)
		same   bool
	}{
		{"a copy", func(*simState) {}, true},
		{"nil maps", func(st *simState) { st.methods, st.methodLits, st.preload = nil, nil, nil }, true},
		{"another init", func(st *simState) { st.inits = append(st.inits, &InitRecord{Site: site}) }, false},
		{"not sure", func(st *simState) { st.sure = newCowSet[siteSetKey]() }, false},
		{"a start method", func(st *simState) {
			st.setMethod(MethodSpec{Kind: MethodExplicit, Family: "mp", Method: pytarget.Spawn})
		}, false},
		{"default device", func(st *simState) { st.defaultCUDA = true }, false},
		{"preload", func(st *simState) { st.preload = map[string][]string{"mp": {"m"}} }, false},
		{"nvml", func(st *simState) { st.nvml = true }, false},
		{"imported", func(st *simState) { st.imported.add(3) }, false},
		{"started once", func(st *simState) { st.startedOnce.add(3) }, false},
		{"phase", func(st *simState) { st.phase = PhaseMain }, false},
		{"ended", func(st *simState) { st.ended = true }, false},
	}
	for _, tt := range tests {
		a := base()
		b := a.clone()
		tt.change(b)
		if got := a.sameAs(b); got != tt.same {
			t.Errorf("%s: same %v, want %v", tt.name, got, tt.same)
		}
		if got := b.sameAs(a); got != tt.same {
			t.Errorf("%s (reversed): same %v, want %v", tt.name, got, tt.same)
		}
	}
}
