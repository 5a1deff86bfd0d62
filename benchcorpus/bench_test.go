package benchcorpus_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cudaforklint/cudaforklint/analyzer"
	"github.com/cudaforklint/cudaforklint/benchcorpus"
	"github.com/cudaforklint/cudaforklint/config"
	"github.com/cudaforklint/cudaforklint/passes/pyprogram"
	"github.com/cudaforklint/cudaforklint/ruledoc"
	"github.com/cudaforklint/cudaforklint/rules"
)

// TestGenerateDeterministic: the same n and seed write the same bytes.
func TestGenerateDeterministic(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	fa, err := benchcorpus.Generate(a, 30, 1)
	if err != nil {
		t.Fatal(err)
	}
	fb, err := benchcorpus.Generate(b, 30, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(fa) != len(fb) {
		t.Fatalf("%d files, then %d", len(fa), len(fb))
	}
	for i := range fa {
		x, _ := os.ReadFile(fa[i])
		y, _ := os.ReadFile(fb[i])
		if string(x) != string(y) {
			t.Errorf("%s differs between runs", strings.TrimPrefix(fa[i], a))
		}
	}
}

func check(b *testing.B, dir string, full bool) *analyzer.Result {
	l, err := config.NewLoader(ruledoc.All(), config.Overrides{Select: []string{"ALL"}, Isolated: true})
	if err != nil {
		b.Fatal(err)
	}
	pol := config.NewPolicy(l)
	pol.Roots = []string{dir}
	res, err := analyzer.Run(context.Background(), analyzer.Options{Paths: []string{dir}, Analyzers: rules.All(), WorkDir: dir, Policy: pol, Split: pyprogram.Split, ForceFull: full})
	if err != nil {
		b.Fatal(err)
	}
	return res
}

func benchDir(b *testing.B, dir string) {
	var size int64
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".py") {
			if fi, err := d.Info(); err == nil {
				size += fi.Size()
			}
		}
		return nil
	})
	for _, mode := range []struct {
		name string
		full bool
	}{{"prefilter", false}, {"forcefull", true}} {
		b.Run(mode.name, func(b *testing.B) {
			b.SetBytes(size)
			b.ReportAllocs()
			var res *analyzer.Result
			for i := 0; i < b.N; i++ {
				res = check(b, dir, mode.full)
			}
			b.ReportMetric(float64(len(res.Findings)), "findings")
			b.ReportMetric(float64(res.Skipped), "skipped")
		})
	}
}

// BenchmarkCheckGenerated checks the generated corpus (400 jobs), with the
// prefilter and forced through the full model.
func BenchmarkCheckGenerated(b *testing.B) {
	dir := b.TempDir()
	if _, err := benchcorpus.Generate(dir, 400, 1); err != nil {
		b.Fatal(err)
	}
	benchDir(b, dir)
}

// BenchmarkCheckStdlib checks python3's standard library in place (or
// $CFL_CORPUS). It takes seconds per run: use -benchtime 1x.
func BenchmarkCheckStdlib(b *testing.B) {
	benchDir(b, stdlibDir(b))
}

// stdlibDir is $CFL_CORPUS, or python3's standard library.
func stdlibDir(b *testing.B) string {
	if dir := os.Getenv("CFL_CORPUS"); dir != "" {
		return dir
	}
	out, err := exec.Command("python3", "-c", `import sysconfig; print(sysconfig.get_paths()["stdlib"])`).Output()
	if err != nil {
		b.Skip("no python3")
	}
	return strings.TrimSpace(string(out))
}

// BenchmarkCheckStdlibImporter checks one stdlib file whose local imports
// reach most of the standard library (json/decoder.py: the pre-commit case
// in a large package), in python3's standard library or $CFL_CORPUS.
func BenchmarkCheckStdlibImporter(b *testing.B) {
	dir := stdlibDir(b)
	file := filepath.Join(dir, "json", "decoder.py")
	if _, err := os.Stat(file); err != nil {
		b.Skip("no json/decoder.py")
	}
	for i := 0; i < b.N; i++ {
		l, err := config.NewLoader(ruledoc.All(), config.Overrides{Select: []string{"ALL"}, Isolated: true})
		if err != nil {
			b.Fatal(err)
		}
		pol := config.NewPolicy(l)
		pol.Roots = []string{dir}
		if _, err := analyzer.Run(context.Background(), analyzer.Options{Split: pyprogram.Split, Paths: []string{file}, Analyzers: rules.All(), WorkDir: dir, Policy: pol}); err != nil {
			b.Fatal(err)
		}
	}
}
