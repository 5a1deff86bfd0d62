package model

import (
	"slices"
	"sort"
	"strings"
	"testing"
)

// analyzeInOrder analyzes the files of files together, each its own entry,
// loaded and run in the order of their sorted paths, or reversed.
func analyzeInOrder(files memSource, reversed bool) string {
	var paths []string
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	if reversed {
		slices.Reverse(paths)
	}
	return analyzeLoaded(files, paths, paths)
}

// TestEntryOrderChangesNothing: the entries of a program run in reverse
// give the same hazards, each represented by the same entry, with its
// further starts in the same order (hazardSet's ranks), on every fixture
// directory and on a program where two entries reach one helper's CUDA
// initialization and its pool. Without the ranks, the reversed run names
// the other entry.
func TestEntryOrderChangesNothing(t *testing.T) {
	dirs := fixtureDirs(t)
	dirs["shared helper"] = memSource{
		"/p/helpers/__init__.py": "",
		"/p/helpers/gpu.py": `import torch
import multiprocessing as mp


def setup():
    torch.cuda.init()


def work(x):
    return x


def run_pool():
    with mp.Pool(2) as pool:
        pool.map(work, range(4))
`,
		"/p/job_a.py": sharedHelperJob,
		"/p/job_b.py": sharedHelperJob,
	}
	findings := 0
	for d, files := range dirs {
		forward := analyzeInOrder(files, false)
		reversed := analyzeInOrder(files, true)
		if forward != reversed {
			t.Errorf("%s: in order\n%s\nreversed\n%s", d, forward, reversed)
		}
		if d == "shared helper" && !strings.Contains(forward, "entry /p/job_a.py\n") {
			t.Errorf("shared helper: the hazard is not represented by the first entry, job_a.py:\n%s", forward)
		}
		findings += strings.Count(forward, "kind ")
	}
	if findings < 50 {
		t.Errorf("the fixtures gave only %d findings", findings)
	}
}

// sharedHelperJob is a training script of the shared-helper program: two
// of them, alike, reach the helper's CUDA initialization and its pool.
const sharedHelperJob = `from helpers.gpu import setup, run_pool


def main():
    setup()
    run_pool()


if __name__ == "__main__":
    main()
`
