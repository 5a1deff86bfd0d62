//go:build ignore

// parsediff runs the syntax layer's differential comparison against CPython
// (internal/cpythondiff, which syntax/cpython_test.go's
// TestAcceptsWhatCPythonAccepts runs over the standard libraries) over
// directory trees: every .py file is parsed by syntax.Parse and scanned by
// tokcheck, as `check` does, and the files where that finds a syntax error
// are handed to each CPython 3.9+ interpreter's compile(), one interpreter
// per version. A file some interpreter compiles and we reject is a
// disagreement: a bug of the syntax layer.
//
//	go run scripts/accuracy/parsediff.go [-python python3.12,...] [-record scripts/accuracy/parsediff.tsv -rev COMMIT] DIR...
//
// It prints the numbers and each disagreement (file, line, what we found)
// and exits 1 when there is one. With -record it appends a row (date, this
// checkout's commit, interpreters, files compared, rejected by both,
// encodings left out, disagreements) that accuracy.go puts in
// docs/accuracy.md.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/cudaforklint/cudaforklint/internal/cpythondiff"
)

func main() {
	pythons := flag.String("python", "", "CPython interpreters, comma-separated (default: python3.9 and later found on PATH, in /usr/bin and in pyenv's versions)")
	record := flag.String("record", "", "append the result as a row of this TSV file")
	rev := flag.String("rev", "", "the commit of the syntax layer compared, for -record (default: this checkout's HEAD)")
	flag.Parse()
	if flag.NArg() == 0 {
		fail("name the directories to compare")
	}
	var named []string
	if *pythons != "" {
		named = strings.Split(*pythons, ",")
	}
	found, err := cpythondiff.Interpreters(named...)
	if err != nil {
		fail("%v", err)
	}
	// One interpreter per version: the files are the same for all, and two
	// builds of one version compile alike.
	var pys []cpythondiff.Python
	var names []string
	for _, py := range found {
		if len(names) == 0 || names[len(names)-1] != py.Version {
			pys = append(pys, py)
			names = append(names, py.Version)
		}
	}
	if len(pys) == 0 {
		fail("no CPython %s+ interpreter found", cpythondiff.MinVersion)
	}
	var files []string
	for _, root := range flag.Args() {
		files = append(files, cpythondiff.PyFiles(root)...)
	}
	start := time.Now()
	rejected, encodings, err := cpythondiff.Rejected(files)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
	}
	fmt.Printf("parsed %d files in %v: %d with a syntax error here, %d left out for their encoding\n",
		len(files), time.Since(start).Round(time.Millisecond), len(rejected), encodings)
	everyone := make([]int, len(pys))
	for i := range pys {
		everyone[i] = i
	}
	judges := map[string][]int{}
	for p := range rejected {
		judges[p] = everyone
	}
	disagree, err := cpythondiff.Compare(pys, rejected, judges)
	if err != nil {
		fail("%v", err)
	}
	fmt.Printf("CPython %s: %d files compared, %d rejected by both, %d disagreements\n",
		strings.Join(names, ", "), len(files)-encodings, len(rejected)-len(disagree), len(disagree))
	for _, d := range disagree {
		fmt.Println(d)
	}
	if *record != "" {
		if *rev == "" {
			*rev = "unknown"
			if b, err := exec.Command("git", "rev-parse", "--short=7", "HEAD").Output(); err == nil {
				*rev = strings.TrimSpace(string(b))
			}
		}
		row := fmt.Sprintf("%s\t%s\t%s\t%d\t%d\t%d\t%d\n", time.Now().UTC().Format("2006-01-02"), *rev,
			strings.Join(names, ","), len(files)-encodings, len(rejected)-len(disagree), encodings, len(disagree))
		head := ""
		if _, err := os.Stat(*record); err != nil {
			head = "# date\tcudaforklint commit\tCPython versions\tfiles compared\trejected by both\tleft out (encoding)\tdisagreements\n"
		}
		f, err := os.OpenFile(*record, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			fail("%v", err)
		}
		if _, err := f.WriteString(head + row); err != nil {
			fail("%v", err)
		}
		if err := f.Close(); err != nil {
			fail("%v", err)
		}
	}
	if len(disagree) > 0 {
		os.Exit(1)
	}
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "parsediff: "+format+"\n", args...)
	os.Exit(2)
}
