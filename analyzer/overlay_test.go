package analyzer_test

import (
	"context"
	"crypto/sha256"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/cudaforklint/cudaforklint/analyzer"
	"github.com/cudaforklint/cudaforklint/config"
	"github.com/cudaforklint/cudaforklint/passes/pyprogram"
	"github.com/cudaforklint/cudaforklint/ruledoc"
	"github.com/cudaforklint/cudaforklint/rules"
)

// The files on disk are clean: main.py forks a child that uses CUDA after
// calling gpu.setup, which does not touch CUDA.
var overlayDisk = map[string]string{
	"main.py": `import multiprocessing as mp

import gpu


def child():
    import torch

    torch.zeros(1, device="cuda")


if __name__ == "__main__":
    gpu.setup()
    p = mp.get_context("fork").Process(target=child)
    p.start()
    p.join()
`,
	"gpu.py": `def setup():
    return 0
`,
	"unrelated.py": `import json
`,
}

// gpuInit is gpu.py as an editor holds it before saving: setup now
// initializes CUDA.
const gpuInit = `import torch


def setup():
    torch.cuda.init()
    return 0
`

// TestOverlay: a run reads the overlay instead of the disk, for the checked
// file and for the local modules it imports, and lists what it read. It
// takes the bytes a caller read from disk (Options.Read) as read from
// disk, and DiskSum tells the sum and size of exactly what it read from
// disk: never of an overlay's bytes, which the disk does not hold.
func TestOverlay(t *testing.T) {
	dir := t.TempDir()
	for name, src := range overlayDisk {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	abs := func(name string) string { return filepath.Join(dir, name) }
	forkInit := strings.Replace(overlayDisk["main.py"], "    gpu.setup()\n", "    import torch\n    torch.cuda.init()\n", 1)
	for _, tc := range []struct {
		name     string
		paths    []string
		overlay  map[string]string
		read     map[string]string // Options.Read
		maxSize  int64
		want     []string // "path:line: code"
		wantErr  string   // a tool error containing this
		wantRead []string
	}{
		{
			name:     "disk",
			paths:    []string{"main.py"},
			wantRead: []string{"gpu.py", "main.py"},
		},
		{
			name:     "checked file from the overlay",
			paths:    []string{"main.py"},
			overlay:  map[string]string{"main.py": forkInit},
			want:     []string{"main.py:14: CFL001"},
			wantRead: []string{"gpu.py", "main.py"},
		},
		{
			name:     "imported module from the overlay",
			paths:    []string{"main.py"},
			overlay:  map[string]string{"gpu.py": gpuInit},
			want:     []string{"gpu.py:5: CFL001"},
			wantRead: []string{"gpu.py", "main.py"},
		},
		{
			name:     "a file only in the overlay",
			paths:    []string{"new.py"},
			overlay:  map[string]string{"new.py": forkInit},
			want:     []string{"new.py:14: CFL001"},
			wantRead: []string{"gpu.py", "new.py"},
		},
		{
			name:     "an imported module the caller read",
			paths:    []string{"main.py"},
			read:     map[string]string{"gpu.py": gpuInit},
			want:     []string{"gpu.py:5: CFL001"},
			wantRead: []string{"gpu.py", "main.py"},
		},
		{
			name:     "the overlay over what the caller read",
			paths:    []string{"main.py"},
			overlay:  map[string]string{"gpu.py": gpuInit},
			read:     map[string]string{"gpu.py": overlayDisk["gpu.py"]},
			want:     []string{"gpu.py:5: CFL001"},
			wantRead: []string{"gpu.py", "main.py"},
		},
		{
			name:     "the size limit holds for what the caller read",
			paths:    []string{"main.py"},
			read:     map[string]string{"main.py": forkInit},
			maxSize:  100,
			wantErr:  "larger than",
			wantRead: []string{},
		},
		{
			name:     "the size limit holds for the overlay",
			paths:    []string{"main.py"},
			overlay:  map[string]string{"main.py": forkInit},
			maxSize:  100,
			wantErr:  "larger than",
			wantRead: []string{},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := config.NewLoader(ruledoc.All(), config.Overrides{Isolated: true})
			if err != nil {
				t.Fatal(err)
			}
			pol := config.NewPolicy(l)
			pol.Roots = []string{dir}
			ov, rd := map[string][]byte{}, map[string][]byte{}
			for name, src := range tc.overlay {
				ov[abs(name)] = []byte(src)
			}
			for name, src := range tc.read {
				rd[abs(name)] = []byte(src)
			}
			res, err := analyzer.Run(context.Background(), analyzer.Options{
				Split:       pyprogram.Split,
				Paths:       tc.paths,
				Analyzers:   rules.All(),
				Policy:      pol,
				WorkDir:     dir,
				Overlay:     ov,
				Read:        rd,
				MaxFileSize: tc.maxSize,
			})
			if err != nil {
				t.Fatal(err)
			}
			got := []string{}
			for _, f := range res.Findings {
				got = append(got, f.Path+":"+strconv.Itoa(f.Start.Line)+": "+f.Code)
			}
			if tc.want == nil {
				tc.want = []string{}
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("findings %v, want %v", got, tc.want)
			}
			var errs []string
			for _, e := range res.Errors {
				errs = append(errs, e.Message)
			}
			if tc.wantErr == "" && len(errs) > 0 || tc.wantErr != "" && !strings.Contains(strings.Join(errs, "\n"), tc.wantErr) {
				t.Errorf("errors %q, want one containing %q", errs, tc.wantErr)
			}
			read := []string{}
			for _, name := range tc.wantRead {
				read = append(read, abs(name))
			}
			if res.FilesRead == nil {
				res.FilesRead = []string{}
			}
			if !reflect.DeepEqual(res.FilesRead, read) {
				t.Errorf("FilesRead %v, want %v", res.FilesRead, read)
			}
			for _, p := range res.FilesRead {
				name := filepath.Base(p)
				sum, size, ok := res.DiskSum(p)
				if _, inOverlay := tc.overlay[name]; inOverlay {
					if ok {
						t.Errorf("DiskSum(%s) ok for a file read from the overlay", name)
					}
					continue
				}
				disk, inRead := tc.read[name]
				if !inRead {
					disk = overlayDisk[name]
				}
				if !ok || sum != sha256.Sum256([]byte(disk)) || size != int64(len(disk)) {
					t.Errorf("DiskSum(%s) = %x, %d, %v; want the sum and size of the bytes read", name, sum[:4], size, ok)
				}
			}
		})
	}
}
