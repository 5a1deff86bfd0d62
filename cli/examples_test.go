package cli

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// TestExamples: the README's main command runs on examples/, one script per
// default rule and a safe one. Each must keep reporting exactly its rules
// (the docstring of each example says why), and the run must stay short
// enough to read as a demo.
func TestExamples(t *testing.T) {
	dir, err := filepath.Abs("../examples")
	if err != nil {
		t.Fatal(err)
	}
	code, out, errOut := run(t, dir, "check", "--no-cache", "--format", "json", ".")
	if code != ExitFindings {
		t.Fatalf("exit %d, want %d (findings); stderr:\n%s", code, ExitFindings, errOut)
	}
	var findings []struct {
		Code     string `json:"code"`
		Filename string `json:"filename"`
	}
	if err := json.Unmarshal([]byte(out), &findings); err != nil {
		t.Fatalf("JSON output: %v\n%s", err, out)
	}
	got := map[string][]string{}
	for _, f := range findings {
		got[f.Filename] = append(got[f.Filename], f.Code)
	}
	for _, codes := range got {
		sort.Strings(codes)
	}
	want := map[string][]string{
		"batch_inference.py":       {"CFL001"},
		"serve_forkserver.py":      {"CFL002", "CFL004"},
		"preprocess_spawn.py":      {"CFL004"},
		"pool_at_import.py":        {"CFL005"},
		"feature_extraction.ipynb": {"CFL007"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("findings by file:\n got %v\nwant %v (train_safe.py must have none)", got, want)
	}

	_, full, _ := run(t, dir, "check", "--no-cache", ".")
	if n := strings.Count(full, "\n"); n >= 100 {
		t.Errorf("the main command prints %d lines, want under 100", n)
	}
}
