//go:build ignore

// accuracy regenerates docs/accuracy.md, a reference page of
// cudaforklint's accuracy on public repositories of CUDA + multiprocessing
// code, and docs/accuracy-findings.md, every finding judged by hand (true,
// false, debatable, with one line of why) and the known hazards of those
// repositories it reports or misses. The repositories' code is never
// committed: fetch them, check each out at the commit repos.tsv names into
// CORPUS/<owner+name>/, then run
//
//	go run scripts/accuracy/accuracy.go -corpus CORPUS [-batch-corpus DIR,...] [-bin cudaforklint] [-unrecorded-batches]
//
// The reference page also shows the last row of parsediff.tsv, the syntax
// layer's differential comparison against CPython over the corpus
// (parsediff.go).
//
// The judgments (judgments.tsv) and the known hazards (hazards.tsv) are
// keyed by repository, path, line and code. A finding no judgment covers is
// listed as unjudged, and the run exits 1, so that a model change that
// moves or adds findings cannot pass unread.
//
// The corpus of repos.tsv is checked with every rule; the batches of
// batches.tsv are checked as users run the tool (asUsers). A batch's first
// run is what a model tuned on other code does on code it has never seen,
// so its numbers are recorded once (firstrun.tsv) and never recomputed:
//
//	go run scripts/accuracy/accuracy.go -run-batch NAME -corpus DIR -results OUT
//	go run scripts/accuracy/accuracy.go -record-first-run NAME -results OUT
//
// With -consistency, it checks that where check runs and what else it
// checks do not change a file's findings (see consistency below):
//
//	go run scripts/accuracy/accuracy.go -consistency DIR,... [-sample 20] [-slow 20s] [-limit 2m]
//
// The first writes each repository's JSON output, standard error and exit
// status under OUT; the second joins that output with the judgments and
// appends the batch's rows to firstrun.tsv, once every finding is judged.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// defaultRules are the rules a user gets without --select.
var defaultRules = map[string]bool{}

type repo struct {
	name, commit, about string
	// src are the directories the project puts on PYTHONPATH (repos.tsv's
	// optional fourth column, comma-separated, relative to the checkout):
	// checked with `src` set to them, as its users would configure it.
	src []string
}

type key struct {
	repo, path string
	line       int
	code       string
}

type judgment struct {
	verdict, why string
	used         bool
}

type hazard struct {
	key
	why   string
	found bool
}

type finding struct {
	Code     string `json:"code"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
	Filename string `json:"filename"`
	Cell     int    `json:"cell"`
	Location struct {
		Row int `json:"row"`
	} `json:"location"`
	Related []struct {
		Filename string `json:"filename"`
		Cell     int    `json:"cell"`
		Location struct {
			Row int `json:"row"`
		} `json:"location"`
	} `json:"related"`
	Suppressed bool `json:"suppressed"`
}

func main() {
	corpus := flag.String("corpus", "", "directory holding the checked-out repositories (owner+name)")
	bin := flag.String("bin", "", "cudaforklint binary (default: build ./cmd/cudaforklint)")
	out := flag.String("out", "docs/accuracy.md", "the reference page to write")
	findingsOut := flag.String("findings", "docs/accuracy-findings.md", "the page of every finding to write (linked from -out by its base name)")
	unrecorded := flag.Bool("unrecorded-batches", false, "also run the batches whose first run is not recorded yet")
	dir := flag.String("data", "scripts/accuracy", "directory of repos.tsv, batches.tsv, judgments.tsv, hazards.tsv, firstrun.tsv")
	batchCorpus := flag.String("batch-corpus", "", "more directories (comma-separated) holding the batches' repositories, searched after -corpus")
	runBatch := flag.String("run-batch", "", "run the repositories of this batch as users do and write their outputs under -results")
	recordFirst := flag.String("record-first-run", "", "append this batch's first-run numbers, from the outputs under -results, to firstrun.tsv")
	results := flag.String("results", "", "directory of a batch run's outputs (-run-batch, -record-first-run)")
	rev := flag.String("rev", "", "the cudaforklint commit -run-batch records (default: this checkout's HEAD, with -dirty if it has changes)")
	consistent := flag.String("consistency", "", "directories (comma-separated) of checked-out repositories: compare each one's findings from its root, from its parent and file by file, instead of writing the report")
	sample := flag.Int("sample", 20, "with -consistency: how many files that start processes, besides those with findings, to check one by one")
	slow := flag.Duration("slow", 20*time.Second, "with -consistency: skip the file-by-file step of a repository whose run from the root takes longer")
	limit := flag.Duration("limit", 0, "with -consistency or -run-batch: stop a run of check that takes longer and leave its repository out (0: no limit)")
	flag.Parse()
	if *recordFirst != "" {
		if *results == "" {
			fail("-record-first-run needs -results")
		}
		recordFirstRun(*dir, *recordFirst, *results)
		return
	}
	if *corpus == "" && *consistent == "" {
		fail("-corpus is required")
	}
	if *bin == "" {
		*bin = filepath.Join(os.TempDir(), "cudaforklint-accuracy")
		if b, err := exec.Command("go", "build", "-o", *bin, "./cmd/cudaforklint").CombinedOutput(); err != nil {
			fail("build: %v\n%s", err, b)
		}
	}
	if *consistent != "" {
		if !consistency(*bin, strings.Split(*consistent, ","), *sample, *slow, *limit) {
			os.Exit(1)
		}
		return
	}
	if *runBatch != "" {
		if *results == "" {
			fail("-run-batch needs -results")
		}
		if *rev == "" {
			*rev = headRev()
		}
		runLimit = *limit
		runBatchTo(*dir, *runBatch, *bin, *rev, *results, dirs(*corpus, *batchCorpus))
		return
	}
	if b, err := exec.Command(*bin, "rule", "--all", "--format", "json").Output(); err == nil {
		var rules []struct {
			Code           string `json:"code"`
			DefaultEnabled bool   `json:"enabled_by_default"`
		}
		if json.Unmarshal(b, &rules) == nil {
			for _, r := range rules {
				if r.DefaultEnabled {
					defaultRules[r.Code] = true
				}
			}
		}
	}
	if len(defaultRules) == 0 {
		defaultRules = map[string]bool{"CFL001": true, "CFL002": true, "CFL004": true, "CFL005": true, "CFL007": true}
	}
	repos := readRepos(filepath.Join(*dir, "repos.tsv"))
	judged := readJudgments(filepath.Join(*dir, "judgments.tsv"))
	hazards := readHazards(filepath.Join(*dir, "hazards.tsv"))

	var rep report
	for _, r := range repos {
		root := filepath.Join(*corpus, r.name)
		if _, err := os.Stat(root); err != nil {
			fail("%s: not checked out under %s", r.name, *corpus)
		}
		fs := check(*bin, root, r.src)
		rr := repoResult{repo: r, py: count(root, ".py"), ipynb: count(root, ".ipynb"), ran: true}
		rr.rows = judge(r.name, fs, judged)
		markHazards(r.name, fs, hazards)
		rep.repos = append(rep.repos, rr)
	}
	ran := map[string]bool{}
	for _, rr := range rep.repos {
		ran[rr.name] = true
	}
	firsts := readFirstRuns(filepath.Join(*dir, "firstrun.tsv"))
	for _, b := range readBatches(filepath.Join(*dir, "batches.tsv")) {
		br := batchResult{name: b.name, first: firsts[b.name]}
		// A batch's first run is made with -run-batch and recorded once
		// judged; running it here first would show its findings before
		// that, so the first run would no longer be one on unseen code.
		skip := len(br.first) == 0 && !*unrecorded
		if skip {
			fmt.Fprintf(os.Stderr, "accuracy: batch %s: no first run recorded; not run (-unrecorded-batches runs it)\n", b.name)
		}
		for _, r := range b.repos {
			rr := repoResult{repo: r, py: -1, ipynb: -1}
			if skip {
				br.missing++
			} else if root := find(r.name, dirs(*corpus, *batchCorpus)); root == "" {
				fmt.Fprintf(os.Stderr, "accuracy: batch %s: %s is not checked out; its current numbers are left out\n", b.name, r.name)
				br.missing++
			} else {
				out, _, _ := asUsers(*bin, root)
				rr.py, rr.ipynb = count(root, ".py"), count(root, ".ipynb")
				rr.rows = judge(r.name, decode(root, out), judged)
				rr.ran = true
				ran[r.name] = true
			}
			br.repos = append(br.repos, rr)
		}
		rep.batches = append(rep.batches, br)
	}
	for k, j := range judged {
		// A repository that was not checked out says nothing about its
		// judgments.
		if !j.used && ran[k.repo] {
			rep.stale = append(rep.stale, fmt.Sprintf("%s %s:%d %s (%s)", k.repo, k.path, k.line, k.code, j.verdict))
		}
	}
	sort.Strings(rep.stale)
	rep.hazards = hazards
	page, list := rep.render(filepath.Base(*findingsOut), readParserDiff(filepath.Join(*dir, "parsediff.tsv")))
	if err := os.WriteFile(*out, []byte(page), 0o644); err != nil {
		fail("%v", err)
	}
	if err := os.WriteFile(*findingsOut, []byte(list), 0o644); err != nil {
		fail("%v", err)
	}
	n := rep.unjudged()
	fmt.Printf("wrote %s and %s: %d findings, %d unjudged, %d stale judgments, %d/%d known hazards reported\n",
		*out, *findingsOut, rep.total(), n, len(rep.stale), rep.found(), len(hazards))
	for _, b := range rep.batches {
		t := b.current()
		fmt.Printf("batch %s (as users): %d findings, %d unjudged, %d of %d repositories not run\n",
			b.name, t.all, t.u, b.missing, len(b.repos))
	}
	if n > 0 {
		os.Exit(1)
	}
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "accuracy: "+format+"\n", args...)
	os.Exit(2)
}

// where names a file, or a notebook cell as "nb.ipynb#cell3".
func where(path string, cell int) string {
	if cell > 0 {
		return fmt.Sprintf("%s#cell%d", path, cell)
	}
	return path
}

// judge keys the findings a check of repository name reported and joins
// them with the judgments, marking those it uses.
func judge(name string, fs []finding, judged map[key]*judgment) []row {
	var rows []row
	for _, f := range fs {
		if f.Suppressed {
			continue
		}
		k := key{name, where(f.Filename, f.Cell), f.Location.Row, f.Code}
		v, why := "unjudged", ""
		if j := judged[k]; j != nil {
			j.used = true
			v, why = j.verdict, j.why
		}
		rows = append(rows, row{key: k, severity: f.Severity, verdict: v, why: why, message: f.Message})
	}
	return rows
}

// markHazards marks the known hazards of repository name that a finding of
// their rule reports, at its primary location or a related one.
func markHazards(name string, fs []finding, hazards []*hazard) {
	for _, f := range fs {
		if f.Suppressed {
			continue
		}
		for _, h := range hazards {
			if h.repo != name || h.code != f.Code {
				continue
			}
			if h.path == where(f.Filename, f.Cell) && h.line == f.Location.Row {
				h.found = true
			}
			for _, rel := range f.Related {
				if h.path == where(rel.Filename, rel.Cell) && h.line == rel.Location.Row {
					h.found = true
				}
			}
		}
	}
}

func check(bin, root string, src []string) []finding {
	args := []string{"check", "--select", "ALL", "--no-respect-gitignore", "--exit-zero", "--format", "json"}
	if len(src) > 0 {
		// A configuration outside the checkout (its code is not ours to
		// change), with the src directories made absolute.
		var quoted []string
		for _, d := range src {
			quoted = append(quoted, strconv.Quote(filepath.Join(root, d)))
		}
		cfg := filepath.Join(os.TempDir(), "cudaforklint-accuracy-"+filepath.Base(root)+".toml")
		if err := os.WriteFile(cfg, []byte("src = ["+strings.Join(quoted, ", ")+"]\n"), 0o644); err != nil {
			fail("%v", err)
		}
		defer os.Remove(cfg)
		args = append(args, "--config", cfg)
	}
	out, _, rc := runIn(bin, root, append(args, "."))
	if rc != 0 && rc != 2 {
		fail("%s: exit status %d", root, rc)
	}
	return decode(root, out)
}

// asUsers checks a repository as its users would run the tool: from its
// root, with the default rules and its own configuration (none of ours, no
// src), gitignored files skipped, and no cache, so that every run reads
// every file. Exit status 1 only says there are findings.
func asUsers(bin, root string) (stdout, stderr []byte, rc int) {
	return runIn(bin, root, []string{"check", "--no-cache", "--format", "json", "."})
}

// runIn runs the binary in directory dir and returns what it wrote and its
// exit status; a binary that cannot be started is a failure of this program.
func runIn(bin, dir string, args []string) (stdout, stderr []byte, rc int) {
	var out, errb strings.Builder
	ctx := context.Background()
	if runLimit > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, runLimit)
		defer cancel()
	}
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			fail("%s: %v", dir, err)
		}
		rc = ee.ExitCode()
	}
	return []byte(out.String()), []byte(errb.String()), rc
}

func decode(root string, b []byte) []finding {
	var fs []finding
	if err := json.Unmarshal(b, &fs); err != nil {
		fail("%s: %v", root, err)
	}
	return fs
}

// dirs lists the directories a repository is looked for in, in order.
func dirs(corpus, more string) []string {
	out := []string{corpus}
	for _, d := range strings.Split(more, ",") {
		if d = strings.TrimSpace(d); d != "" {
			out = append(out, d)
		}
	}
	return out
}

// find returns the checkout of repository name in the first of dirs that
// holds it, or "".
func find(name string, dirs []string) string {
	for _, d := range dirs {
		if d == "" {
			continue
		}
		root := filepath.Join(d, name)
		if st, err := os.Stat(root); err == nil && st.IsDir() {
			return root
		}
	}
	return ""
}

func count(root, ext string) int {
	n := 0
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real // a corpus of links to checkouts elsewhere
	}
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ext) {
			n++
		}
		return nil
	})
	return n
}

func tsv(path string, fields int) [][]string {
	f, err := os.Open(path)
	if err != nil {
		if os.IsNotExist(err) {
			return nil
		}
		fail("%v", err)
	}
	defer f.Close()
	var out [][]string
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.SplitN(line, "\t", fields)
		if len(parts) != fields {
			fail("%s:%d: want %d tab-separated fields", path, n, fields)
		}
		out = append(out, parts)
	}
	return out
}

func readRepos(path string) []repo {
	var out []repo
	for _, p := range tsv(path, 3) {
		r := repo{name: p[0], commit: p[1], about: p[2]}
		if about, src, ok := strings.Cut(p[2], "\t"); ok {
			r.about = about
			for _, d := range strings.Split(src, ",") {
				if d = strings.TrimSpace(d); d != "" {
					r.src = append(r.src, d)
				}
			}
		}
		out = append(out, r)
	}
	return out
}

func readJudgments(path string) map[key]*judgment {
	out := map[key]*judgment{}
	for _, p := range tsv(path, 6) {
		line, err := strconv.Atoi(p[2])
		if err != nil {
			fail("%s: bad line %q", path, p[2])
		}
		switch p[4] {
		case "true", "false", "debatable":
		default:
			fail("%s: verdict %q (want true, false or debatable)", path, p[4])
		}
		out[key{p[0], p[1], line, p[3]}] = &judgment{verdict: p[4], why: p[5]}
	}
	return out
}

func readHazards(path string) []*hazard {
	var out []*hazard
	for _, p := range tsv(path, 5) {
		line, err := strconv.Atoi(p[2])
		if err != nil {
			fail("%s: bad line %q", path, p[2])
		}
		out = append(out, &hazard{key: key{p[0], p[1], line, p[3]}, why: p[4]})
	}
	return out
}

// A batch is a set of repositories run as users run the tool
// (batches.tsv: batch, repository, commit, what it is).
type batch struct {
	name  string
	repos []repo
}

func readBatches(path string) []batch {
	var out []batch
	at := map[string]int{}
	for _, p := range tsv(path, 4) {
		i, ok := at[p[0]]
		if !ok {
			i = len(out)
			at[p[0]] = i
			out = append(out, batch{name: p[0]})
		}
		out[i].repos = append(out[i].repos, repo{name: p[1], commit: p[2], about: p[3]})
	}
	return out
}

func batchNamed(dir, name string) batch {
	for _, b := range readBatches(filepath.Join(dir, "batches.tsv")) {
		if b.name == name {
			return b
		}
	}
	fail("no batch %q in %s", name, filepath.Join(dir, "batches.tsv"))
	return batch{}
}

// A firstRun is one repository's numbers at its batch's first run
// (firstrun.tsv: batch, repository, cudaforklint commit, date, findings,
// true, false, debatable), written by -record-first-run and never changed
// after: the fixes that follow a first run are tuned on it.
type firstRun struct {
	rev, date string
	tally
}

// readFirstRuns returns the first runs by batch, then by repository.
func readFirstRuns(path string) map[string]map[string]firstRun {
	out := map[string]map[string]firstRun{}
	for _, p := range tsv(path, 8) {
		var n [4]int
		for i := range n {
			v, err := strconv.Atoi(p[4+i])
			if err != nil {
				fail("%s: bad count %q", path, p[4+i])
			}
			n[i] = v
		}
		if n[1]+n[2]+n[3] != n[0] {
			fail("%s: %s %s: true, false and debatable do not add up to the findings", path, p[0], p[1])
		}
		if out[p[0]] == nil {
			out[p[0]] = map[string]firstRun{}
		}
		out[p[0]][p[1]] = firstRun{rev: p[2], date: p[3], tally: tally{all: n[0], t: n[1], f: n[2], d: n[3]}}
	}
	return out
}

// headRev names the commit of this checkout, the one the default binary is
// built from, with -dirty when a tracked file outside scripts/accuracy (whose
// data change while a batch is judged) differs from it.
func headRev() string {
	b, err := exec.Command("git", "rev-parse", "--short=7", "HEAD").Output()
	if err != nil {
		return "unknown"
	}
	rev := strings.TrimSpace(string(b))
	status := exec.Command("git", "status", "--porcelain", "--untracked-files=no", "--", ".", ":(exclude)scripts/accuracy")
	if d, err := status.Output(); err == nil && len(d) > 0 {
		rev += "-dirty"
	}
	return rev
}

// runBatchTo runs every repository of a batch as users do and writes, under
// out, REPO.json (the output), REPO.err (standard error), status.tsv (exit
// status and seconds of each) and run.tsv (the batch, the cudaforklint
// commit, the date and the version), what -record-first-run reads.
func runBatchTo(dir, name, bin, rev, out string, in []string) {
	b := batchNamed(dir, name)
	roots := map[string]string{}
	for _, r := range b.repos {
		if roots[r.name] = find(r.name, in); roots[r.name] == "" {
			fail("batch %s: %s is not checked out under %s", name, r.name, strings.Join(in, ", "))
		}
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		fail("%v", err)
	}
	write := func(file string, b []byte) {
		if err := os.WriteFile(filepath.Join(out, file), b, 0o644); err != nil {
			fail("%v", err)
		}
	}
	version, _, _ := runIn(bin, ".", []string{"version"})
	date := time.Now().UTC().Format("2006-01-02")
	write("run.tsv", []byte(fmt.Sprintf("# batch\tcudaforklint commit\tdate\tversion\n%s\t%s\t%s\t%s\n",
		name, rev, date, strings.TrimSpace(string(version)))))
	status := "# repository\texit status\tseconds\n"
	bad := 0
	for _, r := range b.repos {
		start := time.Now()
		stdout, stderr, rc := asUsers(bin, roots[r.name])
		secs := time.Since(start).Seconds()
		write(r.name+".json", stdout)
		write(r.name+".err", stderr)
		status += fmt.Sprintf("%s\t%d\t%.1f\n", r.name, rc, secs)
		var fs []finding
		if rc == -1 && runLimit > 0 {
			// A repository the tool cannot finish within the limit is a
			// failure of the tool, reported as such; its findings are
			// unknown, so it cannot enter the first-run numbers.
			bad++
			fmt.Printf("%s: stopped after %s, no output\n", r.name, runLimit)
			continue
		}
		if err := json.Unmarshal(stdout, &fs); err != nil {
			bad++
			fmt.Printf("%s: exit %d, no JSON output (%v); see %s.err\n", r.name, rc, err, r.name)
			continue
		}
		fmt.Printf("%s: exit %d, %d findings, %.1f s\n", r.name, rc, len(fs), secs)
	}
	write("status.tsv", []byte(status))
	if bad > 0 {
		fail("batch %s: %d repositories gave no JSON output", name, bad)
	}
}

// recordFirstRun appends the first-run rows of a batch to firstrun.tsv from
// a -run-batch directory, once every finding there is judged. A batch is
// recorded once.
func recordFirstRun(dir, name, results string) {
	b := batchNamed(dir, name)
	path := filepath.Join(dir, "firstrun.tsv")
	if len(readFirstRuns(path)[name]) > 0 {
		fail("batch %s: its first run is already recorded in %s", name, path)
	}
	run := tsv(filepath.Join(results, "run.tsv"), 4)
	if len(run) != 1 || run[0][0] != name {
		fail("%s: not a run of batch %s", filepath.Join(results, "run.tsv"), name)
	}
	rev, date := run[0][1], run[0][2]
	judged := readJudgments(filepath.Join(dir, "judgments.tsv"))
	var rows strings.Builder
	unjudged := 0
	for _, r := range b.repos {
		file := filepath.Join(results, r.name+".json")
		out, err := os.ReadFile(file)
		if err != nil {
			fail("%v", err)
		}
		var t tally
		for _, x := range judge(r.name, decode(file, out), judged) {
			t.add(x.verdict)
			if x.verdict == "unjudged" {
				fmt.Printf("unjudged: %s\t%s\t%d\t%s\t%s\n", x.repo, x.path, x.line, x.code, x.message)
			}
		}
		unjudged += t.u
		fmt.Fprintf(&rows, "%s\t%s\t%s\t%s\t%d\t%d\t%d\t%d\n", name, r.name, rev, date, t.all, t.t, t.f, t.d)
	}
	if unjudged > 0 {
		fmt.Printf("batch %s: %d findings unjudged; judge them in judgments.tsv, then record again\n", name, unjudged)
		os.Exit(1)
	}
	head := ""
	if _, err := os.Stat(path); err != nil {
		head = "# batch\trepository\tcudaforklint commit\tdate\tfindings\ttrue\tfalse\tdebatable\n"
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		fail("%v", err)
	}
	if _, err := f.WriteString(head + rows.String()); err != nil {
		fail("%v", err)
	}
	if err := f.Close(); err != nil {
		fail("%v", err)
	}
	fmt.Printf("recorded the first run of batch %s (%d repositories) in %s\n", name, len(b.repos), path)
}

type row struct {
	key
	severity, verdict, why, message string
}

type repoResult struct {
	repo
	py, ipynb int
	rows      []row
	// ran is false for a batch's repository that is not checked out.
	ran bool
}

type batchResult struct {
	name    string
	repos   []repoResult
	first   map[string]firstRun // by repository; nil before the first run is recorded
	missing int                 // repositories not checked out
}

func (b batchResult) current() (t tally) {
	for _, rr := range b.repos {
		for _, x := range rr.rows {
			t.add(x.verdict)
		}
	}
	return t
}

type report struct {
	repos   []repoResult
	batches []batchResult
	hazards []*hazard
	stale   []string
}

func (r *report) total() (n int) {
	for _, rr := range r.repos {
		n += len(rr.rows)
	}
	return n
}

func (r *report) unjudged() (n int) {
	for _, rr := range r.repos {
		for _, x := range rr.rows {
			if x.verdict == "unjudged" {
				n++
			}
		}
	}
	for _, b := range r.batches {
		n += b.current().u
	}
	return n
}

func (r *report) found() (n int) {
	for _, h := range r.hazards {
		if h.found {
			n++
		}
	}
	return n
}

type tally struct{ all, t, f, d, u int }

func (t *tally) add(verdict string) {
	t.all++
	switch verdict {
	case "true":
		t.t++
	case "false":
		t.f++
	case "debatable":
		t.d++
	default:
		t.u++
	}
}

// precision is true / (true + false): debatable findings count on neither
// side, and are shown beside it.
func (t tally) precision() string {
	if t.t+t.f == 0 {
		return "–"
	}
	return fmt.Sprintf("%.0f %%", 100*float64(t.t)/float64(t.t+t.f))
}

// render returns the two pages: the reference page (what is measured, how
// to run it, the summary, batches, per-repository, per-rule, known-hazard
// and parser sections) and the list of every finding.
func (r *report) render(findingsPage string, diff *parserDiff) (page, findings string) {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	p("# Accuracy on real code\n\n")
	p("<!-- Generated by `go run scripts/accuracy/accuracy.go`; edit scripts/accuracy/*.tsv, not this file. -->\n\n")
	p("How often cudaforklint's findings are right on public repositories of CUDA + multiprocessing code,\n")
	p("and which of their known hazards it reports. Every finding is judged by reading the code; the\n")
	p("verdict and the reason for each are in [the list of every finding](%s).\n\n", findingsPage)

	p("## What is measured\n\n")
	p("- **The corpus**: %d repositories (`scripts/accuracy/repos.tsv`) checked with every rule\n", len(r.repos))
	p("  (`check --select ALL --no-respect-gitignore`), and `src` set where the project's CI sets `PYTHONPATH`.\n")
	p("  Those marked *held out* were first run after the model was tuned on the others (the development set).\n")
	p("- **Batches run as users run it** (`batches.tsv`): repositories the tool had never been run on, checked\n")
	p("  with `check --no-cache --format json .` from their root, default rules, their own configuration. A\n")
	p("  batch's first run is recorded once (`firstrun.tsv`) and never recomputed: it measures the model on unseen code.\n")
	p("- **Known hazards** (`hazards.tsv`): the real hazards found by grepping for process starts and reading\n")
	p("  notebooks; one counts as reported when a finding of its rule names it, as primary or related location.\n\n")
	p("Each finding is judged against the measured ground truth (`testdata/groundtruth/`) and the rule it\n")
	p("belongs to ([rules](rules/README.md)):\n\n")
	p("- **true**: the hazard is real, in the category reported. An error (CFL001, CFL002, CFL005, CFL007) is\n")
	p("  true only if every link is seen and real: an initializer that initializes with those arguments, a\n")
	p("  feasible path on which it runs before the start, a known start method, and CUDA use that executes in\n")
	p("  the child (a child's import of a module the parent imported runs nothing). A CFL004 is true when a\n")
	p("  measured initializer runs at the main module's import and the children re-import it.\n")
	p("- **false**: a link is missing: an initializer that does not initialize (`autocast(enabled=False)`), a\n")
	p("  plain value read from a CUDA object taken for CUDA use, child code that runs on the CPU, an\n")
	p("  initialization and a start on exclusive paths, a start method set elsewhere, or a start method that\n")
	p("  needs a Python version the code cannot run on (it imports what the libraries of that version removed,\n")
	p("  such as `torch._six`).\n")
	p("- **debatable**: real only under conditions the code does not settle (a flag off by default, a platform).\n\n")
	p("Precision is true / (true + false); debatable findings count on neither side. The off-by-default\n")
	p("benign rules (CFL003, CFL006) are judged by the children's verdict the message states, with a sample read\n")
	p("in each repository.\n\n")

	p("## How to run it\n\n")
	p("Check the repositories out at their commits (`scripts/accuracy/README.md`), then:\n\n")
	p("    go run scripts/accuracy/accuracy.go -corpus CORPUS -batch-corpus DIR,...\n\n")
	p("It rebuilds the binary, checks the corpus and every batch whose first run is recorded, writes this page\n")
	p("and the list of every finding, and exits 1 when a finding has no judgment (`judgments.tsv`). A batch\n")
	p("without a recorded first run is not run unless `-unrecorded-batches` is given: its first run is made with\n")
	p("`-run-batch` and recorded with `-record-first-run` once judged.\n\n")

	var all, def tally
	byRule := map[string]*tally{}
	for _, rr := range r.repos {
		for _, x := range rr.rows {
			all.add(x.verdict)
			if byRule[x.code] == nil {
				byRule[x.code] = &tally{}
			}
			byRule[x.code].add(x.verdict)
			if defaultRules[x.code] {
				def.add(x.verdict)
			}
		}
	}
	p("## Summary\n\n")
	p("| what | findings | true | false | debatable | unjudged | precision |\n| --- | --- | --- | --- | --- | --- | --- |\n")
	p("| corpus, every rule | %d | %d | %d | %d | %d | %s |\n", all.all, all.t, all.f, all.d, all.u, all.precision())
	p("| corpus, default rules | %d | %d | %d | %d | %d | %s |\n", def.all, def.t, def.f, def.d, def.u, def.precision())
	for _, bt := range r.batches {
		if len(bt.first) > 0 {
			f := bt.firstSum()
			p("| batch %s, first run | %d | %d | %d | %d | – | %s |\n", bt.name, f.all, f.t, f.f, f.d, f.precision())
		}
		if bt.runCount() > 0 {
			now := bt.current()
			p("| batch %s, now | %d | %d | %d | %d | %d | %s |\n", bt.name, now.all, now.t, now.f, now.d, now.u, now.precision())
		}
	}
	p("\n%d of %d known hazards are reported. Generated %s.\n\n", r.found(), len(r.hazards), time.Now().UTC().Format("2006-01-02"))

	if len(r.batches) > 0 {
		r.renderBatches(p)
	}

	p("## Per repository\n\n")
	p("| repository | commit | what it is | .py | .ipynb | findings | true | false | debatable | unjudged | default rules: findings | precision |\n")
	p("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n")
	for _, rr := range r.repos {
		var t, d tally
		for _, x := range rr.rows {
			t.add(x.verdict)
			if defaultRules[x.code] {
				d.add(x.verdict)
			}
		}
		about := rr.about
		if len(rr.src) > 0 {
			about += fmt.Sprintf("; checked with `src = [%q]`", strings.Join(rr.src, `", "`))
		}
		p("| %s | `%.10s` | %s | %d | %d | %d | %d | %d | %d | %d | %d | %s |\n",
			rr.name, rr.commit, about, rr.py, rr.ipynb, t.all, t.t, t.f, t.d, t.u, d.all, d.precision())
	}
	p("\n## Per rule\n\nThe corpus, every rule.\n\n")
	p("| rule | default | findings | true | false | debatable | unjudged | precision |\n| --- | --- | --- | --- | --- | --- | --- | --- |\n")
	var codes []string
	for c := range byRule {
		codes = append(codes, c)
	}
	sort.Strings(codes)
	for _, c := range codes {
		t := byRule[c]
		on := "off"
		if defaultRules[c] {
			on = "on"
		}
		p("| [%s](rules/%s.md) | %s | %d | %d | %d | %d | %d | %s |\n", c, c, on, t.all, t.t, t.f, t.d, t.u, t.precision())
	}

	p("\n## Known hazards\n\n")
	p("| rule | known | reported | missed |\n| --- | --- | --- | --- |\n")
	known, got := map[string]int{}, map[string]int{}
	var hcodes []string
	for _, h := range r.hazards {
		if known[h.code] == 0 {
			hcodes = append(hcodes, h.code)
		}
		known[h.code]++
		if h.found {
			got[h.code]++
		}
	}
	sort.Strings(hcodes)
	for _, c := range hcodes {
		p("| %s | %d | %d | %d |\n", c, known[c], got[c], known[c]-got[c])
	}
	p("| **all** | **%d** | **%d** | **%d** |\n\n", len(r.hazards), r.found(), len(r.hazards)-r.found())
	var missed []*hazard
	for _, h := range r.hazards {
		if !h.found {
			missed = append(missed, h)
		}
	}
	if len(missed) > 0 {
		p("Missed:\n\n")
		for _, h := range missed {
			p("- %s `%s:%d` (%s): %s\n", h.repo, h.path, h.line, h.code, h.why)
		}
		p("\n")
	}
	p("Each known hazard, with why it is one: [the list of every finding](%s#known-hazards).\n\n", findingsPage)

	p("## The syntax layer against CPython\n\n")
	p("The differential comparison of `syntax/cpython_test.go` run over the corpus's `.py` files\n")
	p("(`go run scripts/accuracy/parsediff.go CORPUS/*`): a file CPython compiles and `check` reports a syntax\n")
	p("error in is a disagreement, a bug of the syntax layer. Files whose declared encoding is not UTF-8 are left\n")
	p("out (a tool error, not a syntax error).\n\n")
	if diff == nil {
		p("Not run yet (`scripts/accuracy/parsediff.tsv` has no row).\n")
	} else {
		p("| date | cudaforklint commit | CPython | files compared | rejected by both | left out (encoding) | disagreements |\n")
		p("| --- | --- | --- | --- | --- | --- | --- |\n")
		p("| %s | `%s` | %s | %s | %s | %s | **%s** |\n", diff.date, diff.rev, strings.ReplaceAll(diff.pythons, ",", ", "), diff.files, diff.both, diff.encoding, diff.disagreements)
	}
	if len(r.stale) > 0 {
		p("\n%d judgments match no finding any more (moved or gone); [they are listed](%s#judgments-no-finding-matched).\n", len(r.stale), findingsPage)
	}
	return b.String(), r.renderFindings()
}

// renderFindings writes the second page: every finding with its verdict
// and why, the known hazards, and the judgments no finding matched.
func (r *report) renderFindings() string {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	p("# Accuracy: every finding\n\n")
	p("<!-- Generated by `go run scripts/accuracy/accuracy.go`; edit scripts/accuracy/*.tsv, not this file. -->\n\n")
	p("Each finding of the [accuracy evaluation](accuracy.md), with its verdict and why, keyed by its primary\n")
	p("location (a notebook's as `path#cellN` and the line in the cell).\n\n")
	table := func(head string, rows []row) {
		if len(rows) == 0 {
			return
		}
		p("%s\n\n| where | rule | verdict | why |\n| --- | --- | --- | --- |\n", head)
		for _, x := range rows {
			p("| `%s:%d` | %s | %s | %s |\n", x.path, x.line, x.code, x.verdict, x.why)
		}
		p("\n")
	}
	p("## The corpus\n\n")
	for _, rr := range r.repos {
		table("### "+rr.name, rr.rows)
	}
	for _, bt := range r.batches {
		if bt.runCount() == 0 {
			continue
		}
		p("## Batch %s, current build\n\n", bt.name)
		for _, rr := range bt.repos {
			table("### "+rr.name, rr.rows)
		}
	}
	p("## Known hazards\n\n")
	p("| repository | where | rule | reported | why it is a hazard |\n| --- | --- | --- | --- | --- |\n")
	for _, h := range r.hazards {
		got := "**missed**"
		if h.found {
			got = "yes"
		}
		p("| %s | `%s:%d` | %s | %s | %s |\n", h.repo, h.path, h.line, h.code, got, h.why)
	}
	if len(r.stale) > 0 {
		p("\n## Judgments no finding matched\n\nFindings that moved or went away since they were judged:\n\n")
		for _, s := range r.stale {
			p("- %s\n", s)
		}
	}
	return b.String()
}

// renderBatches writes the batches' section: each batch's recorded first
// run beside the current build's numbers, per repository.
func (r *report) renderBatches(p func(string, ...any)) {
	p("## Batches run as users run it\n\n")
	p("*First run* is the recorded first run; *now* is the current build. A batch whose first run is not\n")
	p("recorded yet is not run here.\n\n")
	for _, b := range r.batches {
		if len(b.first) == 0 && b.runCount() == 0 {
			p("- **%s**: %d repositories; first run not recorded yet.\n\n", b.name, len(b.repos))
			continue
		}
		when := b.firstWhen()
		p("### %s\n\nFirst run: %s.\n\n", b.name, when)
		p("| repository | commit | what it is | .py | .ipynb | first run: findings | true | false | debatable | now: findings | true | false | debatable | unjudged |\n")
		p("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n")
		for _, rr := range b.repos {
			first := "– | | |"
			if f, ok := b.first[rr.name]; ok {
				first = fmt.Sprintf("%d | %d | %d | %d", f.all, f.t, f.f, f.d)
			}
			files, cur := "| ", "not run | | | |"
			if rr.ran {
				var t tally
				for _, x := range rr.rows {
					t.add(x.verdict)
				}
				files = fmt.Sprintf("%d | %d", rr.py, rr.ipynb)
				cur = fmt.Sprintf("%d | %d | %d | %d | %d", t.all, t.t, t.f, t.d, t.u)
			}
			p("| %s | `%.10s` | %s | %s | %s | %s |\n", rr.name, rr.commit, rr.about, files, first, cur)
		}
		p("\n")
	}
}

// runCount is how many of the batch's repositories the current build ran.
func (b batchResult) runCount() (n int) {
	for _, rr := range b.repos {
		if rr.ran {
			n++
		}
	}
	return n
}

// firstSum sums a batch's recorded first run.
func (b batchResult) firstSum() (t tally) {
	for _, f := range b.first {
		t.all, t.t, t.f, t.d = t.all+f.all, t.t+f.t, t.f+f.f, t.d+f.d
	}
	return t
}

// firstWhen says when a batch's recorded first run ran, with the
// cudaforklint commits it ran at.
func (b batchResult) firstWhen() string {
	if len(b.first) == 0 {
		return "not recorded"
	}
	var revs []string
	seen := map[string]bool{}
	for _, rr := range b.repos {
		f, ok := b.first[rr.name]
		if !ok {
			continue
		}
		if w := fmt.Sprintf("cudaforklint `%s`, %s", f.rev, f.date); !seen[w] {
			seen[w] = true
			revs = append(revs, w)
		}
	}
	if len(b.first) < len(b.repos) {
		revs = append(revs, fmt.Sprintf("%d of %d repositories", len(b.first), len(b.repos)))
	}
	return strings.Join(revs, "; ")
}

// A parserDiff is the last row of parsediff.tsv: the syntax layer's
// differential comparison against CPython over the corpus.
type parserDiff struct {
	date, rev, pythons, files, both, encoding, disagreements string
}

func readParserDiff(path string) *parserDiff {
	rows := tsv(path, 7)
	if len(rows) == 0 {
		return nil
	}
	x := rows[len(rows)-1]
	return &parserDiff{x[0], x[1], x[2], x[3], x[4], x[5], x[6]}
}

// consistency checks, for each repository under dirs, that a file's
// findings do not depend on where check runs or on what else it checks: the
// run from the repository's root with the default rules against the run
// from its parent (check NAME), and the root's run with every rule against
// check FILE from the root, for every file with a finding and for a sample
// of the other files that start processes. A file's findings are compared
// as rule, path (relative to the repository), line and message; a check of
// one file may also report in a module it imports (where the chain's
// initialization is), which is compared when that file is checked. It prints
// every difference and returns whether there were none. A repository whose
// run from the root takes longer than slow is not checked file by file (a
// run per file would cost as much again each), and it says so.
//
// The repositories are checked smallest first (by their number of .py
// files), and a run of check that takes longer than limit is stopped and
// its repository left out, so that a bounded run compares as many
// repositories as it can.
func consistency(bin string, dirs []string, sample int, slow, limit time.Duration) bool {
	var roots []string
	size := map[string]int{}
	for _, dir := range dirs {
		entries, err := os.ReadDir(dir)
		if err != nil {
			fail("%v", err)
		}
		for _, e := range entries {
			root := filepath.Join(dir, e.Name())
			if st, err := os.Stat(root); err == nil && st.IsDir() {
				roots = append(roots, root)
				size[root] = count(root, ".py")
			}
		}
	}
	sort.SliceStable(roots, func(i, j int) bool { return size[roots[i]] < size[roots[j]] })
	runLimit = limit
	same := true
	for _, root := range roots {
		if !consistentRepo(bin, root, sample, slow) {
			same = false
		}
	}
	return same
}

// runLimit, when set, is how long runIn lets a command run (-consistency's
// -limit); one stopped exits with status -1.
var runLimit time.Duration

// errLimit stops a repository's comparison when a run took over runLimit.
type errLimit struct{ args []string }

// consistentRepo compares one repository's runs and prints its line and
// its differences.
func consistentRepo(bin, root string, sample int, slow time.Duration) (same bool) {
	name := filepath.Base(root)
	defer func() {
		r := recover()
		if e, ok := r.(errLimit); ok {
			fmt.Printf("%s: not compared: check %s took over %s\n", name, strings.Join(e.args, " "), runLimit)
			same = true
		} else if r != nil {
			panic(r)
		}
	}()
	start := time.Now()
	byDefault := keyed(root, root, runChecked(bin, root, "--format", "json", "."), nil)
	took := time.Since(start)
	chains := map[string][]string{}
	all := keyed(root, root, runChecked(bin, root, "--select", "ALL", "--format", "json", "."), chains)
	fromParent := keyed(root, filepath.Dir(root), runChecked(bin, filepath.Dir(root), "--format", "json", name), nil)
	diffs := differ(byDefault, fromParent, "from the root", "from the parent")

	files, skipped := 0, ""
	if took > slow {
		skipped = fmt.Sprintf("; not checked file by file (the run from the root took %.0fs)", took.Seconds())
	} else {
		checked := map[string]map[string]int{}
		alone := func(f string) map[string]int {
			if _, ok := checked[f]; !ok {
				checked[f] = keyed(root, root, runChecked(bin, root, "--select", "ALL", "--format", "json", f), nil)
				files++
			}
			return checked[f]
		}
		// A finding in a module other than the one checked, where the
		// initialization of a shared helper is, stands for every entry
		// that reaches it: its message names the starts of all of them
		// ("and 2 other places"), so a run with more entries words it
		// otherwise. Such findings are compared by rule, path and line.
		allLoose := loose(all)
		for _, f := range sampleFiles(bin, root, all, sample) {
			got := alone(f)
			for _, k := range sortedKeys(got) {
				if inFile(got, f)[k] > 0 && all[k] < got[k] || allLoose[looseKey(k)] == 0 {
					diffs = append(diffs, fmt.Sprintf("only alone (check %s): %s", f, k))
				}
			}
			// A finding in f may come from another file's run (a script
			// calling into f): it must come from checking alone one of
			// the files of its chain.
			for _, k := range sortedKeys(inFile(all, f)) {
				found := got[k] > 0
				for _, g := range chains[k] {
					if !found && g != f {
						found = loose(alone(g))[looseKey(k)] > 0
					}
				}
				if !found {
					diffs = append(diffs, fmt.Sprintf("only from the root (check %s, and the files of its chain): %s", f, k))
				}
			}
		}
	}
	fmt.Printf("%s: %d findings (%d with every rule), %.1fs from the root; %d files checked alone; %d differences%s\n",
		name, len(byDefault), len(all), took.Seconds(), files, len(diffs), skipped)
	for _, d := range diffs {
		fmt.Printf("  %s\n", d)
	}
	return len(diffs) == 0
}

// runChecked runs check without the cache (nothing is written into the
// checkout) and returns its JSON output; a tool error stops this program.
func runChecked(bin, dir string, args ...string) []byte {
	out, errOut, rc := runIn(bin, dir, append([]string{"check", "--no-cache", "--exit-zero"}, args...))
	if rc == -1 && runLimit > 0 {
		panic(errLimit{args})
	}
	if rc != 0 {
		fail("check %q in %s: exit status %d: %s", args, dir, rc, errOut)
	}
	return out
}

// keyed decodes a JSON output of a run in dir into its findings' keys,
// "path:line: CODE message" with the path relative to root, counted (one
// line may hold the same finding twice, once for each of two calls). When
// chains is not nil, it records the files of each finding's related
// locations that lie in the repository.
func keyed(root, dir string, out []byte, chains map[string][]string) map[string]int {
	rel := func(path string) (string, bool) {
		if !filepath.IsAbs(path) {
			path = filepath.Join(dir, path)
		}
		r, err := filepath.Rel(root, path)
		if err != nil || strings.HasPrefix(r, "..") {
			return path, false
		}
		return filepath.ToSlash(r), true
	}
	keys := map[string]int{}
	for _, f := range decode(root, out) {
		path, _ := rel(f.Filename)
		k := fmt.Sprintf("%s:%d: %s %s", where(path, f.Cell), f.Location.Row, f.Code, f.Message)
		keys[k]++
		if chains == nil {
			continue
		}
		for _, r := range f.Related {
			if p, in := rel(r.Filename); in && !slices.Contains(chains[k], p) {
				chains[k] = append(chains[k], p)
			}
		}
	}
	return keys
}

// looseKey is a finding's key without its message: "path:line: CODE".
func looseKey(k string) string {
	colon := strings.Index(k, ": ")
	if sp := strings.Index(k[colon+2:], " "); colon >= 0 && sp >= 0 {
		return k[:colon+2+sp]
	}
	return k
}

// loose counts keys by their looseKey.
func loose(keys map[string]int) map[string]int {
	out := map[string]int{}
	for k, n := range keys {
		out[looseKey(k)] += n
	}
	return out
}

// sortedKeys returns the keys of m in order.
func sortedKeys(m map[string]int) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// inFile returns the keys of the findings in the file rel.
func inFile(keys map[string]int, rel string) map[string]int {
	out := map[string]int{}
	for k, n := range keys {
		if strings.HasPrefix(k, rel+":") || strings.HasPrefix(k, rel+"#") {
			out[k] = n
		}
	}
	return out
}

// differ lists the findings one way gives and the other does not.
func differ(a, b map[string]int, aWay, bWay string) []string {
	var out []string
	for k, n := range a {
		if b[k] < n {
			out = append(out, "only "+aWay+": "+k)
		}
	}
	for k, n := range b {
		if a[k] < n {
			out = append(out, "only "+bWay+": "+k)
		}
	}
	sort.Strings(out)
	return out
}

// sampleFiles returns, relative to root, the files of the run's findings
// and sample others among the files the run checks that start processes
// (their bytes name a process API), spread evenly over the sorted list so
// that the same build picks the same files.
func sampleFiles(bin, root string, all map[string]int, sample int) []string {
	picked := map[string]bool{}
	for k := range all {
		path := k[:strings.Index(k, ":")]
		if i := strings.Index(path, "#"); i >= 0 {
			path = path[:i]
		}
		picked[path] = true
	}
	out, _, rc := runIn(bin, root, []string{"check", "--show-files", "."})
	if rc != 0 {
		fail("check --show-files in %s: exit status %d", root, rc)
	}
	var starts []string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		path := line
		if filepath.IsAbs(path) {
			rel, err := filepath.Rel(root, path)
			if err != nil {
				continue
			}
			path = rel
		}
		path = filepath.ToSlash(path)
		if path == "" || picked[path] || !strings.HasSuffix(path, ".py") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(root, path))
		if err != nil {
			continue
		}
		for _, api := range []string{"multiprocessing", "Process(", "Pool(", "os.fork", "DataLoader", "ProcessPoolExecutor", "mp.spawn", "torch.multiprocessing"} {
			if strings.Contains(string(b), api) {
				starts = append(starts, path)
				break
			}
		}
	}
	sort.Strings(starts)
	var files []string
	for p := range picked {
		files = append(files, p)
	}
	sort.Strings(files)
	for i := 0; i < sample && i < len(starts); i++ {
		files = append(files, starts[i*len(starts)/min(sample, len(starts))])
	}
	return files
}
