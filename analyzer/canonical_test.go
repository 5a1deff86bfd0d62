package analyzer_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cudaforklint/cudaforklint/analyzer"
	"github.com/cudaforklint/cudaforklint/config"
	"github.com/cudaforklint/cudaforklint/passes/pyprogram"
	"github.com/cudaforklint/cudaforklint/ruledoc"
	"github.com/cudaforklint/cudaforklint/rules"
)

// TestFindingsThroughSymlinkedPackages: DeepSpeed links
// deepspeed/accelerator to ../accelerator, and imports it as
// deepspeed.accelerator, so the model loads the file under the link. Its
// findings are reported at the file's own path (the link is no file of the
// repository, and the file checked directly would report them twice), and
// its noqa comments still apply.
func TestFindingsThroughSymlinkedPackages(t *testing.T) {
	outside := t.TempDir() // a linked package outside the project keeps its path
	dir := t.TempDir()
	write := func(root, rel, src string) {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gpu := "import torch\n\n\ndef init():\n    torch.cuda.init()\n"
	write(dir, "accelerator/__init__.py", "")
	write(dir, "accelerator/gpu.py", gpu)
	write(dir, "quiet/__init__.py", "")
	write(dir, "quiet/gpu.py", "import torch\n\n\ndef init():\n    torch.cuda.init()  # noqa: CFL001\n")
	write(outside, "gpu.py", gpu)
	write(dir, "ds/__init__.py", "")
	for link, target := range map[string]string{"ds/accel": "../accelerator", "ds/quiet": "../quiet", "ds/vendor": outside} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	main := func(pkg string) string {
		return "import multiprocessing as mp\nimport torch\nfrom ds." + pkg + " import gpu\n\n\n" +
			"def work(x):\n    return torch.ones(1, device='cuda')\n\n\n" +
			"if __name__ == '__main__':\n    gpu.init()\n    mp.get_context('fork').Pool(2).map(work, [1])\n"
	}
	write(dir, "train.py", main("accel"))
	write(dir, "train_quiet.py", main("quiet"))
	write(dir, "train_vendor.py", main("vendor"))

	tests := []struct {
		paths []string
		want  []string // unsuppressed CFL001 findings: path and where the fork is
	}{
		{[]string{"."}, []string{"accelerator/gpu.py:5 fork train.py:12", "ds/vendor/gpu.py:5 fork train_vendor.py:12"}},
		{[]string{"train.py"}, []string{"accelerator/gpu.py:5 fork train.py:12"}},
		{[]string{"train_quiet.py"}, nil},
		{[]string{"train_vendor.py"}, []string{"ds/vendor/gpu.py:5 fork train_vendor.py:12"}},
	}
	for _, tt := range tests {
		l, err := config.NewLoader(ruledoc.All(), config.Overrides{Select: []string{"CFL001"}, Isolated: true})
		if err != nil {
			t.Fatal(err)
		}
		pol := config.NewPolicy(l)
		pol.Roots = []string{dir}
		res, err := analyzer.Run(context.Background(), analyzer.Options{Split: pyprogram.Split, Paths: tt.paths, Analyzers: rules.All(), WorkDir: dir, Policy: pol})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, f := range res.Findings {
			if f.Suppressed {
				continue
			}
			fork := ""
			for _, r := range f.Related {
				if strings.HasPrefix(r.Message, "Children are forked here") {
					fork = " fork " + r.Path + ":" + strconv.Itoa(r.Start.Line)
				}
			}
			got = append(got, f.Path+":"+strconv.Itoa(f.Start.Line)+fork)
		}
		if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
			t.Errorf("check %v:\n%s\nwant\n%s", tt.paths, strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
		}
	}
}
