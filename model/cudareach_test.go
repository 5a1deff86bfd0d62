package model

import "testing"

// TestCUDAPossibleThroughCycle: a module whose only way to CUDA goes
// around an import cycle (pkg.utils → pkg.utils.tools → pkg → pkg.device,
// which imports torch) can initialize CUDA, whichever module is asked
// first. The search that counted a module on its stack as false answered
// false for pkg.utils once check_a.py had been asked first: the shape of
// mmengine, whose tests/test_utils/test_progressbar_rich.py lost its CFL003
// when test_progressbar.py was checked with it.
func TestCUDAPossibleThroughCycle(t *testing.T) {
	files := memSource{
		"/p/pkg/__init__.py":       "from .utils import run\nfrom .device import init\n",
		"/p/pkg/device.py":         "import torch\n\ndef init():\n    torch.cuda.init()\n",
		"/p/pkg/utils/__init__.py": "from .tools import run\n",
		"/p/pkg/utils/tools.py":    "import pkg\n\ndef run():\n    pass\n",
		"/p/check_a.py":            "import pkg\n",
		"/p/check_b.py":            "from pkg.utils import run\n",
		"/p/plain.py":              "import json\n",
		"/p/json.py":               "x = 1\n",
	}
	for _, order := range [][]string{
		{"/p/check_a.py", "/p/check_b.py", "/p/plain.py"},
		{"/p/check_b.py", "/p/check_a.py", "/p/plain.py"},
		{"/p/plain.py", "/p/check_b.py", "/p/check_a.py"},
	} {
		prog := NewProgram(files, Options{Roots: []string{"/p"}})
		for _, path := range order {
			m, err := prog.Module(path)
			if err != nil {
				t.Fatal(err)
			}
			want := path != "/p/plain.py"
			if got := m.cudaPossible(); got != want {
				t.Errorf("asked in the order %v: cudaPossible(%s) = %v, want %v", order, path, got, want)
			}
		}
	}
}
