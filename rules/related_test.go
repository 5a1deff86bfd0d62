package rules_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cudaforklint/cudaforklint/analyzer/checktest"
	"github.com/cudaforklint/cudaforklint/finding"
)

// TestRelatedLocations checks the notes that place a finding's causes: where
// a loader whose iteration forks was made, where a library initializes CUDA
// when the finding is reported at the import that runs it.
func TestRelatedLocations(t *testing.T) {
	tests := []struct {
		dir, file string
		line      int
		code      string
		// want are "file:line message" notes the finding must carry, and
		// absent the starts of notes it must not.
		want, absent []string
	}{
		{"loader_iteration", "accelerate_prepare.py", 10, "CFL003", []string{
			"accelerate_prepare.py:13 The DataLoader is made here",
			"accelerate_prepare.py:18 Children are forked here (DataLoader workers, the default \"fork\" start method)",
		}, nil},
		{"loader_iteration", "local_trainer.py", 44, "CFL003", []string{
			"local_trainer.py:42 The DataLoader is made here",
			"local_trainer.py:45 Calls `MyTrainer.fit`",
			"local_trainer.py:21 Calls `MyTrainer.train_loop`",
			"local_trainer.py:26 Children are forked here",
		}, nil},
		{"library_init", "examples/word_count.py", 5, "CFL003", []string{
			"word_count.py:5 Imports `gpulib`",
			"__init__.py:3 Imports `gpulib._probe`",
			"_probe.py:3 CUDA is initialized here by `torch.cuda.is_available()`",
		}, nil},
		// The "fork" literal chose the method of one path: it is named for
		// the fork's finding, never as where the other path's default
		// forkserver was chosen.
		{"cfl004", "fork_on_request.py", 13, "CFL003", []string{
			"fork_on_request.py:11 The \"fork\" start method is chosen here",
		}, nil},
		{"cfl004", "fork_on_request.py", 13, "CFL004", []string{
			"fork_on_request.py:21 Children are started here (Pool workers, the default \"forkserver\" start method)",
		}, []string{"fork_on_request.py:11 "}},
		// Walking the list of evaluation loaders starts nothing: the only
		// start is each loader's own iteration.
		{"loader_value", "examples/eval_list.py", 25, "CFL005", []string{
			"eval_list.py:14 The DataLoader is made here",
		}, []string{"eval_list.py:37 "}},
		// The test loaders, passed as test_loaders={} to neither run, are
		// not among the starts of the training loader's finding.
		{"loader_value", "examples/checkpoint_FNO_darcy.py", 27, "CFL005", []string{
			"darcy.py:14 The DataLoader is made here",
			"trainer.py:19 Children are started here",
		}, []string{"darcy.py:18 "}},
		// A start assumed where the loader is made says so.
		{"loader_value", "register_loaders.py", 26, "CFL003", []string{
			"register_loaders.py:22 Children may be forked here (DataLoader workers, the default \"fork\" start method)",
		}, nil},
	}
	cache := map[string][]finding.Finding{}
	for _, tt := range tests {
		fs, ok := cache[tt.dir]
		if !ok {
			fs = checktest.Run(t, filepath.Join("../testdata/py", tt.dir))
			cache[tt.dir] = fs
		}
		var f *finding.Finding
		for i := range fs {
			if (fs[i].Path == tt.file || strings.HasSuffix(fs[i].Path, "/"+tt.file)) && fs[i].Start.Line == tt.line && fs[i].Code == tt.code {
				f = &fs[i]
			}
		}
		if f == nil {
			t.Errorf("%s:%d: no %s finding", tt.file, tt.line, tt.code)
			continue
		}
		var got []string
		for _, r := range f.Related {
			got = append(got, fmt.Sprintf("%s:%d %s", filepath.Base(r.Path), r.Start.Line, r.Message))
		}
		for _, w := range tt.want {
			found := false
			for _, g := range got {
				found = found || strings.HasPrefix(g, w)
			}
			if !found {
				t.Errorf("%s:%d %s: no note %q in\n%s", tt.file, tt.line, tt.code, w, strings.Join(got, "\n"))
			}
		}
		for _, a := range tt.absent {
			for _, g := range got {
				if strings.HasPrefix(g, a) {
					t.Errorf("%s:%d %s: note %q should not be there", tt.file, tt.line, tt.code, g)
				}
			}
		}
	}
}
