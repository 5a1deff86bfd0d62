//go:build ignore

// bench is the benchmark driver behind scripts/bench/bench.sh: it runs
// cudaforklint, its floors (reading the files, tree-sitter parse-only,
// syntax.Parse) and its peers (pyflakes, ruff's F rules in WebAssembly) on the
// same files in one run, each several times as a separate process, and prints
// min and median wall time, throughput, peak RSS and the ratios the targets
// are stated in (docs/performance.md).
//
//	bench run -work DIR -cfl BIN -self BIN -ruff DIR [-runs N] [-doc FILE]
//	bench floor-read LIST | floor-parse LIST WORKERS | floor-syntax LIST WORKERS
//	bench gen DIR N    (writes the generated corpus: go run scripts/bench/bench.go gen DIR N)
//	bench measure CMD [ARG ...]   (runs CMD and reports its wall time, CPU time and peak RSS on fd 3)
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/python"

	"github.com/cudaforklint/cudaforklint/benchcorpus"
	"github.com/cudaforklint/cudaforklint/syntax"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: bench run|floor-read|floor-parse|floor-syntax ...")
		os.Exit(2)
	}
	switch os.Args[1] {
	case "run":
		benchRun(os.Args[2:])
	case "measure":
		os.Exit(measure(os.Args[2:]))
	case "gen":
		n, err := strconv.Atoi(os.Args[3])
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		files, err := benchcorpus.Generate(os.Args[2], n, 1)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Printf("%d files\n", len(files))
	case "floor-read":
		floor(os.Args[2], 0, func([]byte) {})
	case "floor-parse":
		w, _ := strconv.Atoi(os.Args[3])
		lang := python.GetLanguage()
		var pool sync.Pool
		floor(os.Args[2], w, func(src []byte) {
			p, _ := pool.Get().(*sitter.Parser)
			if p == nil {
				p = sitter.NewParser()
				p.SetLanguage(lang)
			}
			tree, err := p.ParseCtx(context.Background(), nil, src)
			if err == nil {
				tree.Close()
			}
			pool.Put(p)
		})
	case "floor-syntax":
		w, _ := strconv.Atoi(os.Args[3])
		floor(os.Args[2], w, func(src []byte) { syntax.Parse(src) })
	default:
		fmt.Fprintln(os.Stderr, "unknown mode", os.Args[1])
		os.Exit(2)
	}
}

// floor reads every listed file (and applies fn to it) with w workers
// (0: GOMAXPROCS).
func floor(list string, w int, fn func([]byte)) {
	files := readList(list)
	if w <= 0 {
		w = runtime.GOMAXPROCS(0)
	}
	next := make(chan string)
	var wg sync.WaitGroup
	for i := 0; i < w; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for f := range next {
				if b, err := os.ReadFile(f); err == nil {
					fn(b)
				}
			}
		}()
	}
	for _, f := range files {
		next <- f
	}
	close(next)
	wg.Wait()
}

func readList(path string) []string {
	b, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	return strings.Fields(string(b))
}

// corpus is a directory of Python files and its list file.
type corpus struct {
	name  string
	dir   string
	list  string
	files int
	bytes int64
}

func makeCorpus(name, dir, listPath string) corpus {
	c := corpus{name: name, dir: dir, list: listPath}
	var files []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".py") {
			files = append(files, p)
			if fi, err := d.Info(); err == nil {
				c.bytes += fi.Size()
			}
		}
		return nil
	})
	sort.Strings(files)
	c.files = len(files)
	os.WriteFile(listPath, []byte(strings.Join(files, "\n")+"\n"), 0o644)
	return c
}

// copyStdlib copies the *.py files of python3's standard library, without
// site-packages, to dst.
func copyStdlib(dst string) (string, error) {
	out, err := exec.Command("python3", "-c", `import sysconfig; print(sysconfig.get_paths()["stdlib"])`).Output()
	if err != nil {
		return "", fmt.Errorf("python3: %v", err)
	}
	src := strings.TrimSpace(string(out))
	if _, err := os.Stat(dst); err == nil {
		return src, nil
	}
	err = copyTree(src, dst, func(p string, d fs.DirEntry) bool {
		if d.IsDir() {
			return d.Name() != "site-packages" && d.Name() != "__pycache__"
		}
		return strings.HasSuffix(p, ".py") && d.Type().IsRegular()
	})
	return src, err
}

// measurement is one benchmarked command.
type measurement struct {
	name    string
	corpus  *corpus
	cores   int
	times   []time.Duration
	cpu     []time.Duration // user + system time of each run
	rssKB   int64
	skipped string // why it did not run

	// the command, run once per round (repeat times)
	dir    string
	env    []string
	bin    string
	args   []string
	repeat int
	before func() // run before each timed run, untimed
	// pinned runs the command on one CPU (taskset), where GOMAXPROCS=1
	// alone would not hold it there: tree-sitter's parse runs in cgo
	// calls, on threads GOMAXPROCS does not count.
	pinned bool
}

// pinCommand is name and args run on the first CPU, through taskset where
// the machine has it (pinned is false otherwise).
func pinCommand(name string, args []string) (string, []string, bool) {
	ts, err := exec.LookPath("taskset")
	if err != nil {
		return name, args, false
	}
	return ts, append([]string{"-c", "0", name}, args...), true
}

func (m *measurement) min() time.Duration { return sorted(m.times)[0] }

// medianCPU is the median user + system time: less sensitive than wall
// time to other processes on a small machine.
func (m *measurement) medianCPU() time.Duration {
	s := sorted(m.cpu)
	if len(s) == 0 {
		return 0
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
func (m *measurement) median() time.Duration {
	s := sorted(m.times)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func sorted(t []time.Duration) []time.Duration {
	s := append([]time.Duration(nil), t...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s
}

// measurer is this program, built (run's -self): timeCmd runs every
// command under its measure subcommand.
var measurer string

// measure runs argv as a child, with this process's standard streams, and
// writes its wall time and CPU time (nanoseconds) and peak RSS (KB) to
// file descriptor 3; it exits with the child's exit code.
//
// Why a process between the driver and the command: Go starts a child with
// vfork semantics (CLONE_VM), and Linux carries the memory's high-water mark
// at exec into the child's ru_maxrss, so every command the driver ran
// directly reported at least the driver's own peak (43 MB in one
// measured run). Under this process, whose peak is about 5 MB
// when it starts the command, /bin/true reports 5 MB. The wall time is
// taken here too, so that this process's start is not in it.
func measure(argv []string) int {
	report := os.NewFile(3, "report")
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if cmd.ProcessState == nil {
		fmt.Fprintln(os.Stderr, err)
		return 127
	}
	var rss int64
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		rss = ru.Maxrss
	}
	cpu := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	fmt.Fprintf(report, "%d %d %d\n", wall.Nanoseconds(), cpu.Nanoseconds(), rss)
	report.Close()
	return cmd.ProcessState.ExitCode()
}

// measured runs cmd, a command built by exec.Command, under measurer, and
// returns the command's own wall time, CPU time and peak RSS in KB (see
// measure); ok is false when it could not be measured.
func measured(cmd *exec.Cmd) (wall, cpu time.Duration, rssKB int64, err error, ok bool) {
	r, w, perr := os.Pipe()
	if perr != nil {
		return 0, 0, 0, perr, false
	}
	defer r.Close()
	cmd.Args = append([]string{measurer, "measure", cmd.Path}, cmd.Args[1:]...)
	cmd.Path = measurer
	cmd.ExtraFiles = []*os.File{w}
	err = cmd.Run()
	w.Close()
	var wallNS, cpuNS int64
	if _, serr := fmt.Fscan(r, &wallNS, &cpuNS, &rssKB); serr != nil {
		if err == nil {
			err = fmt.Errorf("no measurement: %v", serr)
		}
		return 0, 0, 0, err, false
	}
	return time.Duration(wallNS), time.Duration(cpuNS), rssKB, err, true
}

// timeCmd runs a command n times and records wall time, CPU time and peak
// RSS, each the command's own (measure).
func timeCmd(m *measurement, n int, dir string, env []string, name string, args ...string) {
	for i := 0; i < n; i++ {
		if m.before != nil {
			m.before()
		}
		bin, argv := name, args
		if m.pinned {
			bin, argv, m.pinned = pinCommand(name, args)
		}
		cmd := exec.Command(bin, argv...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), env...)
		var stderr bytes.Buffer
		cmd.Stdout = nil
		cmd.Stderr = &stderr
		d, cpu, rssKB, err, ok := measured(cmd)
		if !ok {
			m.skipped = fmt.Sprintf("%s: %v %s", name, err, firstLine(stderr.String()))
			return
		}
		if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() > 2 || err != nil && !isExit(err) {
			m.skipped = fmt.Sprintf("%s failed: %v %s", name, err, firstLine(stderr.String()))
			return
		}
		m.times = append(m.times, d)
		m.cpu = append(m.cpu, cpu)
		m.rssKB = max(m.rssKB, rssKB)
	}
}

func isExit(err error) bool { _, ok := err.(*exec.ExitError); return ok }

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func benchRun(args []string) {
	fl := flag.NewFlagSet("run", flag.ExitOnError)
	work := fl.String("work", "", "work directory (corpora, lists)")
	cfl := fl.String("cfl", "", "cudaforklint binary")
	self := fl.String("self", "", "this program, built")
	ruffDir := fl.String("ruff", "", "directory with node_modules/@astral-sh/ruff-wasm-nodejs")
	runs := fl.Int("runs", 3, "runs of each command")
	genN := fl.Int("gen", 800, "scripts in the generated corpus")
	doc := fl.String("doc", "", "docs/performance.md to update between its bench markers")
	script := fl.String("script", "scripts/bench/ruff_check.mjs", "the ruff runner")
	golden := fl.String("golden", "", "also run scripts/golden/compare.sh against this git revision (findings must be identical)")
	fl.Parse(args)
	if *work == "" || *cfl == "" || *self == "" {
		fl.Usage()
		os.Exit(2)
	}
	measurer = *self
	os.MkdirAll(*work, 0o755)
	cores := runtime.NumCPU()
	allCores := fmt.Sprintf("%d", cores)

	stdlibSrc, err := copyStdlib(filepath.Join(*work, "stdlib"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	// The doubled corpus: two copies side by side.
	double := filepath.Join(*work, "stdlib2x")
	if _, err := os.Stat(double); err != nil {
		for _, half := range []string{"a", "b"} {
			copyTree(filepath.Join(*work, "stdlib"), filepath.Join(double, half), nil)
		}
	}
	quad := filepath.Join(*work, "stdlib4x")
	if _, err := os.Stat(quad); err != nil {
		for _, part := range []string{"a", "b", "c", "d"} {
			copyTree(filepath.Join(*work, "stdlib"), filepath.Join(quad, part), nil)
		}
	}
	// The same four copies as four separate projects: directories named
	// so that no import statement or module-name string of the stdlib
	// reaches from one into another (a, b, c, d do: test_pathlib's
	// 'd.xml' names module xml of d/ from the project root), so that the
	// driver analyzes them as four programs (pyprogram.Programs), one
	// after another.
	apart := filepath.Join(*work, "stdlib4x-projects")
	if _, err := os.Stat(apart); err != nil {
		for _, part := range []string{"project_one", "project_two", "project_three", "project_four"} {
			copyTree(filepath.Join(*work, "stdlib"), filepath.Join(apart, part), nil)
		}
	}
	// One large file, twice the size of another: the stdlib's modules
	// (tests excluded) concatenated.
	big5, err5 := bigFile(filepath.Join(*work, "stdlib"), filepath.Join(*work, "big5"), 5e6)
	big10, err10 := bigFile(filepath.Join(*work, "stdlib"), filepath.Join(*work, "big10"), 10e6)
	if err5 != nil || err10 != nil {
		fmt.Fprintln(os.Stderr, "big files:", err5, err10)
		os.Exit(1)
	}
	gen := filepath.Join(*work, fmt.Sprintf("gen%d", *genN))
	if _, err := os.Stat(gen); err != nil {
		if _, err := benchcorpus.Generate(gen, *genN, 1); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	std := makeCorpus("stdlib", filepath.Join(*work, "stdlib"), filepath.Join(*work, "stdlib.list"))
	std2 := makeCorpus("stdlib ×2", double, filepath.Join(*work, "stdlib2x.list"))
	std4 := makeCorpus("stdlib ×4", quad, filepath.Join(*work, "stdlib4x.list"))
	std4apart := makeCorpus("stdlib ×4, separate projects", apart, filepath.Join(*work, "stdlib4x-projects.list"))
	gc := makeCorpus(fmt.Sprintf("generated (%d jobs)", *genN), gen, filepath.Join(*work, "gen.list"))

	var ms []*measurement
	add := func(m *measurement) *measurement { ms = append(ms, m); return m }
	one := []string{"GOMAXPROCS=1"}
	full := []string{"CUDAFORKLINT_FORCE_FULL=1"}
	check := func(c *corpus) []string {
		return []string{"check", "--isolated", "--exit-zero", "--no-cache", "--format", "concise", "."}
	}
	progress := func(m *measurement) {
		if m.skipped != "" {
			fmt.Fprintf(os.Stderr, "  %-44s %-24s skipped: %s\n", m.name, m.corpus.name, m.skipped)
			return
		}
		fmt.Fprintf(os.Stderr, "  %-44s %-24s %d cores  last %.3fs\n", m.name, m.corpus.name, m.cores, m.times[len(m.times)-1].Seconds())
	}
	// Commands are registered, then run round-robin, one run of each per
	// round: load from other processes on the machine then hits every
	// command alike, and min over the rounds filters it.
	run := func(name string, c *corpus, cores int, env []string, bin string, args ...string) *measurement {
		return add(&measurement{name: name, corpus: c, cores: cores, dir: c.dir, env: env, bin: bin, args: args, repeat: 1})
	}
	fmt.Fprintf(os.Stderr, "corpora: %s %d files %.1f MB; %s %d files; %s %d files %.1f MB\n",
		std.dir, std.files, mb(std.bytes), std2.name, std2.files, gc.name, gc.files, mb(gc.bytes))

	read := run("floor: read the files", &std, cores, nil, *self, "floor-read", std.list)
	ts1 := run("floor: tree-sitter parse-only", &std, 1, one, *self, "floor-parse", std.list, "1")
	tsN := run("floor: tree-sitter parse-only", &std, cores, nil, *self, "floor-parse", std.list, allCores)
	run("floor: syntax.Parse (parse, C walk, convert)", &std, cores, nil, *self, "floor-syntax", std.list, allCores)
	users1 := run("check (as users run it)", &std, 1, one, *cfl, append(check(&std), "--workers", "1")...)
	usersN := run("check (as users run it)", &std, cores, nil, *cfl, check(&std)...)
	full1 := run("check, forced full", &std, 1, append(one, full...), *cfl, append(check(&std), "--workers", "1")...)
	ts1.pinned, users1.pinned, full1.pinned = true, true, true
	fullN := run("check, forced full", &std, cores, full, *cfl, check(&std)...)
	users2x := run("check (as users run it)", &std2, cores, nil, *cfl, check(&std2)...)
	full2x := run("check, forced full", &std2, cores, full, *cfl, check(&std2)...)
	full4x := run("check, forced full", &std4, cores, full, *cfl, check(&std4)...)
	full4xApart := run("check, forced full", &std4apart, cores, full, *cfl, check(&std4apart)...)
	bigHalf := &corpus{name: "one 5 MB file", dir: filepath.Dir(big5), files: 1, bytes: fileSize(big5)}
	bigFull := &corpus{name: "one 10 MB file", dir: filepath.Dir(big10), files: 1, bytes: fileSize(big10)}
	big5M := run("check one file, forced full", bigHalf, cores, full, *cfl, "check", "--isolated", "--exit-zero", "--no-cache", "--format", "concise", "big.py")
	big10M := run("check one file, forced full", bigFull, cores, full, *cfl, "check", "--isolated", "--exit-zero", "--no-cache", "--format", "concise", "big.py")
	// One file whose local imports reach much of the stdlib: they are
	// loaded while it is analysed.
	importer := &corpus{name: "stdlib json/decoder.py (imports 169 modules)", dir: std.dir, files: 1, bytes: fileSize(filepath.Join(std.dir, "json", "decoder.py"))}
	importerM := run("check one file", importer, cores, nil, *cfl, "check", "--isolated", "--exit-zero", "--no-cache", "--format", "concise", "json/decoder.py")
	genUsers := run("check (as users run it)", &gc, cores, nil, *cfl, check(&gc)...)
	genFull := run("check, forced full", &gc, cores, full, *cfl, check(&gc)...)
	tsGen := run("floor: tree-sitter parse-only", &gc, cores, nil, *self, "floor-parse", gc.list, allCores)

	// The pre-commit case: one file of the generated corpus, its helpers
	// found on disk.
	single := &corpus{name: "one generated job (pre-commit)", dir: gen, files: 1}
	if fi, err := os.Stat(filepath.Join(gen, "proj00", "job_0000.py")); err == nil {
		single.bytes = fi.Size()
	}
	singleM := run("check one file", single, cores, nil, *cfl, "check", "--isolated", "--exit-zero", "--no-cache", "--force-exclude", "proj00/job_0000.py")
	singleM.repeat = 4

	// The results cache: a second run on the unchanged stdlib, its entry
	// stored by one run before the rounds (the other rows pass --no-cache).
	cachedArgs := []string{"check", "--isolated", "--exit-zero", "--cache-dir", filepath.Join(*work, "cache"), "--format", "concise", "."}
	prime := exec.Command(*cfl, cachedArgs...)
	prime.Dir = std.dir
	prime.Run()
	cachedM := run("check, second run (results cache)", &std, cores, nil, *cfl, cachedArgs...)

	// The parse-tree cache: a run after an edit, when the results cache
	// misses and every unchanged file's tree is decoded instead of parsed.
	// The results entries are removed before each run (what an edit does to
	// them); the trees were stored by one run before the rounds.
	treesDir := filepath.Join(*work, "cache-trees")
	treesArgs := func(paths ...string) []string {
		return append([]string{"check", "--isolated", "--exit-zero", "--cache-dir", treesDir, "--format", "concise"}, paths...)
	}
	dropResults := func() { os.RemoveAll(filepath.Join(treesDir, "v1")) }
	primeTrees := exec.Command(*cfl, treesArgs(".")...)
	primeTrees.Dir = std.dir
	primeTrees.Run()
	treesM := run("check after an edit (parse trees cached)", &std, cores, nil, *cfl, treesArgs(".")...)
	treesM.before = dropResults
	treesFullM := run("check after an edit (parse trees cached), forced full", &std, cores, full, *cfl, treesArgs(".")...)
	treesFullM.before = dropResults
	treesImporterM := run("check one file after an edit (parse trees cached)", importer, cores, nil, *cfl, treesArgs("json/decoder.py")...)
	treesImporterM.before = dropResults

	// An edit outside the largest program: the stdlib is one program of
	// 1,748 files and 37 small ones (pyprogram.Programs), and a run after
	// an edit of one of those reuses what the entry holds of every other
	// program. The file is edited in a copy of its own (the other rows'
	// entries would see its times change), a comment appended and removed
	// in turn before each run, then a pause past the cache's racy window,
	// so that each run stores the entry the next compares with.
	editDir := filepath.Join(*work, "stdlib-edit")
	if _, err := os.Stat(editDir); err != nil {
		copyTree(std.dir, editDir, nil)
	}
	stdEdit := makeCorpus("stdlib", editDir, filepath.Join(*work, "stdlib-edit.list"))
	editCacheDir := filepath.Join(*work, "cache-edit")
	editArgs := []string{"check", "--isolated", "--exit-zero", "--cache-dir", editCacheDir, "--format", "concise", "."}
	// A copy made just now would look changed to the priming run (racy
	// git's rule), which would then store nothing.
	time.Sleep(150 * time.Millisecond)
	primeEdit := exec.Command(*cfl, editArgs...)
	primeEdit.Dir = editDir
	primeEdit.Run()
	editedFile := filepath.Join(editDir, "test", "subprocessdata", "qcat.py")
	editM := run("check after an edit outside the largest program", &stdEdit, cores, nil, *cfl, editArgs...)
	editM.before = func() {
		toggleComment(editedFile)
		time.Sleep(150 * time.Millisecond)
	}

	// The first run with the cache on and nothing in it (CI without a kept
	// cache): the analysis of the --no-cache row plus storing every tree
	// and the result. The whole cache directory is removed before each run.
	coldDir := filepath.Join(*work, "cache-cold")
	coldM := run("check, first run (cache cold)", &std, cores, nil, *cfl, "check", "--isolated", "--exit-zero", "--cache-dir", coldDir, "--format", "concise", ".")
	coldM.before = func() { os.RemoveAll(coldDir) }

	pyflakes := run("peer: pyflakes", &std, 1, nil, "/usr/bin/python3", "-m", "pyflakes", ".")
	pyflakesVersion := ""
	if out, err := exec.Command("/usr/bin/python3", "-m", "pyflakes", "--version").Output(); err == nil {
		pyflakesVersion = strings.TrimSpace(string(out))
	} else {
		pyflakes.skipped = "pyflakes not installed (apt-get install python3-pyflakes)"
	}
	ruff := add(&measurement{name: "peer: ruff-wasm F rules", corpus: &std, cores: 1, repeat: 1})
	ruffVersion := ""
	scriptAbs, _ := filepath.Abs(*script)
	nodeEnv := []string{"NODE_PATH=" + filepath.Join(*ruffDir, "node_modules")}
	runner := filepath.Join(*ruffDir, "ruff_check.mjs")
	if b, err := os.ReadFile(scriptAbs); err == nil && *ruffDir != "" {
		os.WriteFile(runner, b, 0o644) // next to node_modules, so the import resolves
		if out, err := exec.Command("node", runner, std.list, "--version").Output(); err == nil {
			ruffVersion = strings.TrimSpace(string(out))
			ruff.dir, ruff.env, ruff.bin, ruff.args = std.dir, nodeEnv, "node", []string{runner, std.list}
		} else {
			ruff.skipped = "ruff-wasm not installed: " + err.Error()
		}
	} else {
		ruff.skipped = "no ruff directory"
	}

	for round := 1; round <= *runs; round++ {
		fmt.Fprintf(os.Stderr, "round %d of %d\n", round, *runs)
		for _, m := range ms {
			if m.skipped == "" && m.bin != "" {
				timeCmd(m, m.repeat, m.dir, m.env, m.bin, m.args...)
				progress(m)
			}
		}
	}

	// The language server's latency, from its Go benchmark (an in-process
	// client; see BenchmarkDidChangeToDiagnostics).
	fmt.Fprintf(os.Stderr, "server: didChange → publishDiagnostics (go test -bench DidChange ./server)\n")
	lsp := serverLatency()

	// The table.
	var b strings.Builder
	ref := func(m *measurement) float64 {
		if m.skipped != "" || len(m.times) == 0 {
			return 0
		}
		return m.median().Seconds()
	}
	fmt.Fprintf(&b, "| what | corpus | cores | files | MB | min s | median s | median CPU s | MB/s | peak RSS MB | ruff-wasm time ÷ this | this ÷ parse-only (same cores) |\n")
	fmt.Fprintf(&b, "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	for _, m := range ms {
		if m.skipped != "" || len(m.times) == 0 {
			fmt.Fprintf(&b, "| %s | %s | %d | %d | %.1f | – | – | – | – | – | – | – (%s) |\n", m.name, m.corpus.name, m.cores, m.corpus.files, mb(m.corpus.bytes), m.skipped)
			continue
		}
		vsRuff, vsParse := "", ""
		if r := ref(ruff); r > 0 && m.corpus == &std {
			vsRuff = fmt.Sprintf("%.2f×", r/m.median().Seconds())
		}
		var p *measurement
		switch {
		case m.corpus == &std && m.cores == 1:
			p = ts1
		case m.corpus == &std:
			p = tsN
		case m.corpus == &gc:
			p = tsGen
		}
		if p != nil && p != m && ref(p) > 0 && !strings.HasPrefix(m.name, "peer") {
			vsParse = fmt.Sprintf("%.2f×", m.median().Seconds()/ref(p))
		}
		fmt.Fprintf(&b, "| %s | %s | %d | %d | %.1f | %.3f | %.3f | %.3f | %.1f | %.0f | %s | %s |\n",
			m.name, m.corpus.name, m.cores, m.corpus.files, mb(m.corpus.bytes), m.min().Seconds(), m.median().Seconds(),
			m.medianCPU().Seconds(), mb(m.corpus.bytes)/m.median().Seconds(), float64(m.rssKB)/1024, vsRuff, vsParse)
	}
	ratio := func(a, c *measurement) string {
		if ref(a) == 0 || ref(c) == 0 {
			return "n/a"
		}
		return fmt.Sprintf("%.2f", ref(a)/ref(c))
	}
	fmt.Fprintf(&b, "\nRatios (medians):\n\n")
	rss := func(a, c *measurement) string {
		if a.rssKB == 0 || c.rssKB == 0 {
			return "n/a"
		}
		return fmt.Sprintf("%.2f", float64(a.rssKB)/float64(c.rssKB))
	}
	cpuRatio := func(a, c *measurement) string {
		if a.medianCPU() == 0 || c.medianCPU() == 0 {
			return "n/a"
		}
		return fmt.Sprintf("%.2f", a.medianCPU().Seconds()/c.medianCPU().Seconds())
	}
	fmt.Fprintf(&b, "- forced full, %d cores: ruff-wasm ÷ it = %s (target ≥ 1.6); it ÷ tree-sitter parse-only on %d cores = %s\n", cores, ratio(ruff, fullN), cores, ratio(fullN, tsN))
	fmt.Fprintf(&b, "- as users run it, %d cores: ruff-wasm ÷ it = %s (target ≥ 10)\n", cores, ratio(ruff, usersN))
	fmt.Fprintf(&b, "- peak RSS, stdlib: as users %.0f MB (target ≤ 150), forced full %.0f MB (target ≤ 300)\n", float64(usersN.rssKB)/1024, float64(fullN.rssKB)/1024)
	fmt.Fprintf(&b, "- 4× the stdlib ÷ 1×, forced full: peak RSS %s (target ≤ 1.5), CPU time %s (target ≤ 4.4 for Analyze alone), wall %s\n", rss(full4x, fullN), cpuRatio(full4x, fullN), ratio(full4x, fullN))
	fmt.Fprintf(&b, "- 4× the stdlib as four separate projects (four programs) ÷ 1×, forced full: peak RSS %s, CPU time %s, wall %s\n", rss(full4xApart, fullN), cpuRatio(full4xApart, fullN), ratio(full4xApart, fullN))
	fmt.Fprintf(&b, "- one 10 MB file, forced full: median %.2f s, %.0f MB (target ≤ 4 s, ≤ 600 MB); ÷ one 5 MB file: time %s, CPU %s, RSS %s (linear: 2)\n", ref(big10M), float64(big10M.rssKB)/1024, ratio(big10M, big5M), cpuRatio(big10M, big5M), rss(big10M, big5M))
	fmt.Fprintf(&b, "- one file importing 169 local modules (stdlib json/decoder.py): median %.2f s (target ≤ 0.3 s cold)\n", ref(importerM))
	fmt.Fprintf(&b, "- speed-up 1 → %d cores: as users %s, forced full %s (target ≥ 1.8)\n", cores, ratio(users1, usersN), ratio(full1, fullN))
	fmt.Fprintf(&b, "- 2× the files: as users %s×, forced full %s× the time (target ≤ 2.1)\n", ratio(users2x, usersN), ratio(full2x, fullN))
	fmt.Fprintf(&b, "- generated corpus, as users ÷ forced full: %s\n", ratio(genUsers, genFull))
	fmt.Fprintf(&b, "- one-file check: median %.0f ms (target ≤ 50 ms)\n", ref(singleM)*1000)
	fmt.Fprintf(&b, "- second run on the unchanged stdlib (results cache): median %.2f s (target ≤ 0.5 s)\n", ref(cachedM))
	fmt.Fprintf(&b, "- after an edit (results cache missed, parse trees cached), 2 cores: as users %.2f s (%s the uncached run), forced full %.2f s (%s); ruff-wasm ÷ it: as users %s, forced full %s; json/decoder.py alone %.2f s (%s the uncached run)\n",
		ref(treesM), ratio(treesM, usersN), ref(treesFullM), ratio(treesFullM, fullN), ratio(ruff, treesM), ratio(ruff, treesFullM), ref(treesImporterM), ratio(treesImporterM, importerM))
	fmt.Fprintf(&b, "- after an edit outside the largest program (test/subprocessdata/qcat.py; the other programs reused): median %.2f s (%s the uncached run), peak RSS %.0f MB\n", ref(editM), ratio(editM, usersN), float64(editM.rssKB)/1024)
	fmt.Fprintf(&b, "- first run with the cache on and cold ÷ --no-cache, as users: wall %s, CPU %s, peak RSS %s\n", ratio(coldM, usersN), cpuRatio(coldM, usersN), rss(coldM, usersN))
	fmt.Fprintf(&b, "- reading the files: %.0f MB/s\n", mb(std.bytes)/ref(read))
	fmt.Fprintf(&b, "- server, didChange → publishDiagnostics on a 2,000-line file with local imports (debounce off): %s (target < 50 ms)\n", lsp)

	// Machine and versions.
	var env strings.Builder
	fmt.Fprintf(&env, "- date: %s\n", time.Now().UTC().Format("2006-01-02 15:04 UTC"))
	fmt.Fprintf(&env, "- machine: %s, %d cores, %s\n", cpuModel(), cores, memTotal())
	fmt.Fprintf(&env, "- %s; cudaforklint at %s\n", runtime.Version(), gitHead())
	fmt.Fprintf(&env, "- corpus: %s (python3's standard library, site-packages excluded, copied), %d files, %.1f MB; generated: %d files, %.1f MB\n", stdlibSrc, std.files, mb(std.bytes), gc.files, mb(gc.bytes))
	fmt.Fprintf(&env, "- peers: pyflakes %s (Debian python3-pyflakes, /usr/bin/python3); ruff %s (@astral-sh/ruff-wasm-nodejs, node %s), F rules, one process each\n", pyflakesVersion, ruffVersion, nodeVersion())
	fmt.Fprintf(&env, "- each command run %d times as its own process, round-robin (one run of each per round, so that load from other processes hits all alike; the one-file check %d times); min and median wall time; peak RSS is the largest ru_maxrss\n", *runs, 4**runs)
	if full1.pinned {
		fmt.Fprintf(&env, "- the one-core rows run on one CPU (`taskset -c 0` and GOMAXPROCS=1): GOMAXPROCS alone lets tree-sitter's C parse run on other CPUs; the peers run as users run them\n")
	} else {
		fmt.Fprintf(&env, "- the one-core rows set GOMAXPROCS=1 only (no taskset here): tree-sitter's C parse may run on other CPUs\n")
	}

	// Findings: as users run it and forced full must agree on every corpus
	// (the prefilter skips only files without findings); with -golden, the
	// golden comparison against another revision too.
	fmt.Fprintf(&b, "\nFindings:\n\n")
	identical := true
	for _, c := range []*corpus{&std, &gc} {
		same, n, err := sameFindings(*cfl, c.dir)
		switch {
		case err != nil:
			identical = false
			fmt.Fprintf(&b, "- %s: could not compare (%v)\n", c.name, err)
		case same:
			fmt.Fprintf(&b, "- %s: as users run it and forced full report the same %d findings (JSON, byte for byte)\n", c.name, n)
		default:
			identical = false
			fmt.Fprintf(&b, "- %s: as users run it and forced full DIFFER\n", c.name)
		}
	}
	if *golden != "" {
		fmt.Fprintf(os.Stderr, "golden comparison against %s\n", *golden)
		cmd := exec.Command("scripts/golden/compare.sh", *golden)
		cmd.Env = append(os.Environ(), "GOLDEN_WORK="+filepath.Join(*work, "golden"))
		out, err := cmd.CombinedOutput()
		line := firstLine(strings.TrimSpace(string(out)))
		if err != nil {
			identical = false
			fmt.Fprintf(os.Stderr, "%s\n", out)
		}
		fmt.Fprintf(&b, "- golden comparison (scripts/golden/compare.sh %s: fixtures, stdlib, generated corpus; full and json formats; with and without the prefilter): %s\n", *golden, line)
	}

	out := "### Machine\n\n" + env.String() + "\n### Results\n\n" + b.String()
	fmt.Println(out)
	if *doc != "" {
		if err := updateDoc(*doc, out); err != nil {
			fmt.Fprintln(os.Stderr, "doc:", err)
		}
	}
	if !identical {
		fmt.Fprintln(os.Stderr, "bench: findings differ: a faster build that loses a finding is not faster")
		os.Exit(1)
	}
}

// sameFindings checks dir as users run it and forced full, in the JSON
// format, and reports whether the outputs are identical and how many
// findings they hold.
func sameFindings(cfl, dir string) (bool, int, error) {
	var outs [2][]byte
	for i, env := range []string{"CUDAFORKLINT_FORCE_FULL=0", "CUDAFORKLINT_FORCE_FULL=1"} {
		cmd := exec.Command(cfl, "check", "--isolated", "--exit-zero", "--select", "ALL", "--format", "json", ".")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), env)
		out, err := cmd.Output()
		// Exit 2 reports files that could not be checked (the stdlib has
		// a few in other encodings): the findings are printed all the same.
		if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() > 2) {
			return false, 0, err
		}
		outs[i] = out
	}
	return bytes.Equal(outs[0], outs[1]), bytes.Count(outs[1], []byte(`"code"`)), nil
}

func fileSize(path string) int64 {
	fi, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return fi.Size()
}

// bigFile writes dir/big.py, the stdlib copy's modules outside its tests
// (sorted by path, valid UTF-8 only) joined until size bytes, once.
func bigFile(stdlib, dir string, size int64) (string, error) {
	out := filepath.Join(dir, "big.py")
	if _, err := os.Stat(out); err == nil {
		return out, nil
	}
	var files []string
	filepath.WalkDir(stdlib, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".py") {
			files = append(files, p)
		}
		return nil
	})
	sort.Strings(files)
	var buf bytes.Buffer
	for _, f := range files {
		rel, _ := filepath.Rel(stdlib, f)
		if strings.Contains(rel, "test") || strings.HasPrefix(rel, "lib2to3") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil || !utf8.Valid(b) || bytes.IndexByte(b, 0) >= 0 {
			continue
		}
		buf.Write(b)
		buf.WriteByte('\n')
		if int64(buf.Len()) >= size {
			break
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	return out, os.WriteFile(out, buf.Bytes(), 0o644)
}

func mb(n int64) float64 { return float64(n) / 1e6 }

// serverLatency runs the server package's latency benchmark (100 changes)
// and returns its median, 95th percentile and CPU time per change, or why
// it did not run.
func serverLatency() string {
	out, err := exec.Command("go", "test", "-run", "^$", "-bench", "DidChangeToDiagnostics", "-benchtime", "100x", "./server").CombinedOutput()
	if err != nil {
		return fmt.Sprintf("not measured (%v: %s)", err, firstLine(string(out)))
	}
	metrics := map[string]string{}
	for _, line := range strings.Split(string(out), "\n") {
		if !strings.HasPrefix(line, "BenchmarkDidChangeToDiagnostics") {
			continue
		}
		f := strings.Fields(line)
		for i := 1; i+1 < len(f); i++ {
			metrics[f[i+1]] = f[i]
		}
	}
	if metrics["ms-median"] == "" {
		return "not measured (no benchmark line)"
	}
	return fmt.Sprintf("median %s ms, p95 %s ms, %s ms CPU per change; syntax.Parse of the file alone %s ms", metrics["ms-median"], metrics["ms-p95"], metrics["ms-cpu/op"], metrics["ms-parse-floor"])
}

// toggleComment appends a comment line to the file at path, or removes
// the one it appended before.
func toggleComment(path string) {
	const line = "# edited by the benchmark\n"
	b, err := os.ReadFile(path)
	if err != nil {
		return
	}
	if rest, ok := bytes.CutSuffix(b, []byte(line)); ok {
		b = rest
	} else {
		b = append(b, line...)
	}
	os.WriteFile(path, b, 0o644)
}

// copyTree copies the files below src to dst: those keep accepts, below
// the directories it accepts (every one when keep is nil).
func copyTree(src, dst string, keep func(p string, d fs.DirEntry) bool) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if keep != nil && !keep(p, d) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(src, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		t := filepath.Join(dst, rel)
		os.MkdirAll(filepath.Dir(t), 0o755)
		return os.WriteFile(t, b, 0o644)
	})
}

func cpuModel() string {
	b, _ := os.ReadFile("/proc/cpuinfo")
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "model name") {
			return strings.TrimSpace(l[strings.IndexByte(l, ':')+1:])
		}
	}
	return runtime.GOARCH
}

func memTotal() string {
	b, _ := os.ReadFile("/proc/meminfo")
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "MemTotal:") {
			f := strings.Fields(l)
			if len(f) >= 2 {
				kb, _ := strconv.ParseFloat(f[1], 64)
				return fmt.Sprintf("%.0f GiB memory", kb/1024/1024)
			}
		}
	}
	return ""
}

func gitHead() string {
	out, err := exec.Command("git", "rev-parse", "--short", "HEAD").Output()
	if err != nil {
		return "unknown commit"
	}
	s := "commit " + strings.TrimSpace(string(out))
	if out, err := exec.Command("git", "status", "--porcelain", "--untracked-files=no").Output(); err == nil && len(out) > 0 {
		s += " (with uncommitted changes)"
	}
	return s
}

func nodeVersion() string {
	out, err := exec.Command("node", "--version").Output()
	if err != nil {
		return "?"
	}
	return strings.TrimSpace(string(out))
}

const beginMark, endMark = "<!-- bench:begin -->", "<!-- bench:end -->"

// updateDoc replaces the text between the bench markers.
func updateDoc(path, text string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	s := string(b)
	i, j := strings.Index(s, beginMark), strings.Index(s, endMark)
	if i < 0 || j < i {
		return fmt.Errorf("%s has no %s ... %s markers", path, beginMark, endMark)
	}
	s = s[:i+len(beginMark)] + "\n" + text + "\n" + s[j:]
	return os.WriteFile(path, []byte(s), 0o644)
}
