package model

import (
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/cudaforklint/cudaforklint/syntax"
)

// TestPythonBound: which imports bound the Pythons a program runs on. Only
// an import that runs whenever the module does, and cannot be caught and
// replaced, does; local modules are followed through what such imports
// load.
func TestPythonBound(t *testing.T) {
	tests := []struct {
		name  string
		files memSource
		want  string // the row's name, "" for none
		at    string // the module naming it
	}{
		{"module import", memSource{"/p/main.py": "import torch._six\n"}, "torch._six", "/p/main.py"},
		{"name from it", memSource{"/p/main.py": "from torch._six import container_abcs, string_classes\n"}, "torch._six", "/p/main.py"},
		{"removed function", memSource{"/p/main.py": "from torch._utils import _accumulate\n"}, "torch._utils._accumulate", "/p/main.py"},
		{"kept function", memSource{"/p/main.py": "from torch._utils import _rebuild_tensor_v2\n"}, "", ""},
		{"oldest newest Python wins", memSource{"/p/main.py": "from torch._utils import _accumulate\nfrom torch.utils.ffi import _wrap_function\nimport torch._six\n"},
			"torch.utils.ffi", "/p/main.py"},
		{"fallback on ImportError", memSource{"/p/main.py": "try:\n    from torch._six import inf\nexcept ImportError:\n    from torch import inf\n"}, "", ""},
		{"fallback on ModuleNotFoundError", memSource{"/p/main.py": "try:\n    import torch._six\nexcept ModuleNotFoundError:\n    pass\n"}, "", ""},
		{"bare except", memSource{"/p/main.py": "try:\n    import torch._six\nexcept:\n    pass\n"}, "", ""},
		{"except Exception in a tuple", memSource{"/p/main.py": "try:\n    import torch._six\nexcept (KeyError, Exception):\n    pass\n"}, "", ""},
		{"unknown exception name", memSource{"/p/main.py": "try:\n    import torch._six\nexcept MissingDependency:\n    pass\n"}, "", ""},
		{"handler raises again", memSource{"/p/main.py": "try:\n    import torch._six\nexcept ImportError:\n    raise ImportError('install torch<2')\n"}, "torch._six", "/p/main.py"},
		{"handler exits", memSource{"/p/main.py": "import sys\ntry:\n    import torch._six\nexcept ImportError:\n    print('needs torch 1.x')\n    sys.exit(1)\n"}, "torch._six", "/p/main.py"},
		{"other exceptions only", memSource{"/p/main.py": "try:\n    import torch._six\nexcept (KeyError, ValueError):\n    pass\n"}, "torch._six", "/p/main.py"},
		{"version test", memSource{"/p/main.py": "import torch\nif torch.__version__ < '2':\n    from torch._six import inf\nelse:\n    from torch import inf\n"}, "", ""},
		{"in a function", memSource{"/p/main.py": "def collate(batch):\n    from torch._six import string_classes\n    return batch\n"}, "", ""},
		{"under the main guard", memSource{"/p/main.py": "if __name__ == '__main__':\n    import torch._six\n"}, "", ""},
		{"lazy", memSource{"/p/main.py": "lazy import torch._six\n"}, "", ""},
		{"local module", memSource{"/p/main.py": "from data import collate\n", "/p/data.py": "import torch\nfrom torch._six import string_classes\n"}, "torch._six", "/p/data.py"},
		{"through a package", memSource{
			"/p/main.py":                 "from apex import amp\n",
			"/p/apex/__init__.py":        "from . import amp\n",
			"/p/apex/amp/__init__.py":    "from ._initialize import initialize\n",
			"/p/apex/amp/_initialize.py": "import torch\nfrom torch._six import string_classes\n"},
			"torch._six", "/p/apex/amp/_initialize.py"},
		{"local module imported on a fallback path", memSource{
			"/p/main.py": "try:\n    from data import collate\nexcept ImportError:\n    collate = None\n",
			"/p/data.py": "from torch._six import string_classes\n"}, "", ""},
		{"a name from a module is not its submodule", memSource{
			"/p/main.py":         "from pkg import old\n",
			"/p/pkg/__init__.py": "def old():\n    pass\n",
			"/p/pkg/old.py":      "import torch._six\n"}, "", ""},
		{"a sibling directory on sys.path", memSource{
			"/p/main.py":                  "import os, sys\nROOT_DIR = os.path.dirname(os.path.abspath(__file__))\nsys.path.append(os.path.join(ROOT_DIR, 'dataset'))\nfrom grasp_dataset import collate\n",
			"/p/dataset/grasp_dataset.py": "from torch._six import container_abcs\n"}, "torch._six", "/p/dataset/grasp_dataset.py"},
		{"sys.path.insert", memSource{
			"/p/main.py":        "import os, sys\nsys.path.insert(0, os.path.join(os.path.dirname(__file__), 'lib'))\nimport old_ops\n",
			"/p/lib/old_ops.py": "from torch.utils.ffi import _wrap_function\n"}, "torch.utils.ffi", "/p/lib/old_ops.py"},
		{"imported before the directory is added", memSource{
			"/p/main.py":                  "import os, sys\nfrom grasp_dataset import collate\nsys.path.append(os.path.join(os.path.dirname(__file__), 'dataset'))\n",
			"/p/dataset/grasp_dataset.py": "from torch._six import container_abcs\n"}, "", ""},
		{"a root bound twice", memSource{
			"/p/main.py":                  "import os, sys\nROOT = os.path.dirname(__file__)\nROOT = os.getcwd()\nsys.path.append(os.path.join(ROOT, 'dataset'))\nfrom grasp_dataset import collate\n",
			"/p/dataset/grasp_dataset.py": "from torch._six import container_abcs\n"}, "", ""},
		{"read in an if's test", memSource{"/p/main.py": "import torch\n\nif torch._six.PY3:\n    import importlib\n"}, "torch._six", "/p/main.py"},
		{"read in an assignment", memSource{"/p/main.py": "import torch as th\nINF = th._six.inf\n"}, "torch._six", "/p/main.py"},
		{"read in an if's body", memSource{"/p/main.py": "import torch\nif torch.__version__ < '2':\n    PY3 = torch._six.PY3\n"}, "", ""},
		{"read after and", memSource{"/p/main.py": "import torch\nPY3 = hasattr(torch, '_six') and torch._six.PY3\n"}, "", ""},
		{"read in a conditional expression's arm", memSource{"/p/main.py": "import torch\nINF = torch._six.inf if hasattr(torch, '_six') else float('inf')\n"}, "", ""},
		{"read in a lambda", memSource{"/p/main.py": "import torch\nget_inf = lambda: torch._six.inf\n"}, "", ""},
		{"read without the import", memSource{"/p/main.py": "PY3 = torch._six.PY3\n"}, "", ""},
		{"standard library name", memSource{"/p/main.py": "from collections import OrderedDict, Iterable\n"}, "collections.Iterable", "/p/main.py"},
		{"standard library module kept", memSource{"/p/main.py": "from collections.abc import Iterable\n"}, "", ""},
		{"NumPy submodule made private", memSource{"/p/main.py": "from data import pad_to\n", "/p/data.py": "from numpy.lib.arraypad import pad\n"}, "numpy.lib.arraypad", "/p/data.py"},
		{"a local module shadows the library", memSource{"/p/main.py": "from fractions import gcd\n", "/p/fractions.py": "def gcd(a, b):\n    return a\n"}, "", ""},
		{"read of a standard function", memSource{"/p/main.py": "import fractions\nSTEP = 4 * 6 // fractions.gcd(4, 6)\n"}, "fractions.gcd", "/p/main.py"},
		{"patched back before", memSource{"/p/main.py": "import collections, collections.abc\ncollections.Iterable = collections.abc.Iterable\nfrom collections import Iterable\n"}, "", ""},
		{"patched back under a version test", memSource{"/p/main.py": "import sys, collections\nif sys.version_info >= (3, 10):\n    import collections.abc\n    collections.Iterable = collections.abc.Iterable\nfrom utils import flatten\n",
			"/p/utils.py": "from collections import Iterable\n"}, "", ""},
		{"patched back by setattr in an imported module", memSource{"/p/main.py": "import compat\nfrom utils import flatten\n",
			"/p/compat.py": "import math, fractions\nsetattr(fractions, 'gcd', math.gcd)\n", "/p/utils.py": "import fractions\nSTEP = fractions.gcd(4, 6)\n"}, "", ""},
		{"another name patched", memSource{"/p/main.py": "import time\ntime.clock = time.perf_counter\nfrom collections import Iterable\n"}, "collections.Iterable", "/p/main.py"},
		{"read through a from-import", memSource{"/p/main.py": "from scipy import misc\nLOGO = misc.imread('logo.png')\n"}, "scipy.misc.imread", "/p/main.py"},
		{"read through an alias of a from-import", memSource{"/p/main.py": "from sklearn import externals as ext\next.joblib.dump({}, 'x.pkl')\n"}, "sklearn.externals.joblib", "/p/main.py"},
		{"read after the name is bound anew", memSource{"/p/main.py": "from scipy import misc\nmisc = None\nLOGO = misc.imread('logo.png')\n"}, "", ""},
		{"read in a function called at module level", memSource{"/p/main.py": "import fractions\ndef lcm(a, b):\n    return a * b // fractions.gcd(a, b)\nSTEP = lcm(4, 6)\n"}, "", ""},
		{"read of a local module's attribute", memSource{"/p/main.py": "import fractions\nSTEP = fractions.gcd(4, 6)\n", "/p/fractions.py": "def gcd(a, b):\n    return a\n"}, "", ""},
		{"import cycle", memSource{
			"/p/main.py": "import a\n",
			"/p/a.py":    "import b\n",
			"/p/b.py":    "import a\nimport torch.utils.ffi\n"}, "torch.utils.ffi", "/p/b.py"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := load(t, tt.files, "/p/main.py")
			r, at, _ := m.Prog.pythonBound(m)
			got, gotAt := "", ""
			if r != nil {
				got, gotAt = r.Names[0], at.Path
				if slices.Contains(r.Names, tt.want) {
					got = tt.want
				}
			}
			if got != tt.want || gotAt != tt.at {
				t.Errorf("pythonBound = %q in %q, want %q in %q", got, gotAt, tt.want, tt.at)
			}
		})
	}
}

// listedSource is a memSource whose directories can be listed, as the
// driver's can: the failing-import proof needs to see every entry beside
// a package.
type listedSource memSource

func (s listedSource) Parse(path string) (*syntax.File, []byte, error) {
	return memSource(s).Parse(path)
}

func (s listedSource) IsFile(path string) bool { return memSource(s).IsFile(path) }

func (s listedSource) ListDir(dir string) []string {
	seen := map[string]bool{}
	var out []string
	for path := range s {
		rest, ok := strings.CutPrefix(path, dir+"/")
		if !ok {
			continue
		}
		name, _, _ := strings.Cut(rest, "/")
		if !seen[name] {
			seen[name] = true
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// TestImportFails: which certain imports certainly raise ImportError, and
// so bound the program to no Python from their statement on. Each needs
// the namespace or the package directory seen whole; anything that could
// bind the name, or be the submodule, leaves no conclusion.
func TestImportFails(t *testing.T) {
	pkg := "from pathlib import Path\n\n__version__ = '0.4'\n"
	tests := []struct {
		name  string
		files listedSource
		at    string // the module whose import fails, "" for none
	}{
		{"name the package never binds", listedSource{"/p/main.py": "import torch\nfrom pkg import Logs, Output\n", "/p/pkg/__init__.py": pkg}, "/p/main.py"},
		{"used after the import", listedSource{"/p/main.py": "from pkg import Logs\nlogs = Logs()\n", "/p/pkg/__init__.py": pkg}, "/p/main.py"},
		{"plain module", listedSource{"/p/main.py": "from util import Logs\n", "/p/util.py": "def seed():\n    pass\n"}, "/p/main.py"},
		{"bound by an assignment", listedSource{"/p/main.py": "from pkg import Logs\n", "/p/pkg/__init__.py": pkg + "Logs = dict\n"}, ""},
		{"bound by a re-export", listedSource{"/p/main.py": "from pkg import Logs\n", "/p/pkg/__init__.py": "from .logs import Logs\n", "/p/pkg/logs.py": "class Logs:\n    pass\n"}, ""},
		{"bound in a function through global", listedSource{"/p/main.py": "from pkg import Logs\n", "/p/pkg/__init__.py": "def _init():\n    global Logs\n    Logs = list\n_init()\n"}, ""},
		{"a submodule file", listedSource{"/p/main.py": "from pkg import Logs\n", "/p/pkg/__init__.py": pkg, "/p/pkg/Logs.py": "x = 1\n"}, ""},
		{"a namespace directory", listedSource{"/p/main.py": "from pkg import Logs\n", "/p/pkg/__init__.py": pkg, "/p/pkg/Logs/a.py": "x = 1\n"}, ""},
		{"a compiled extension", listedSource{"/p/main.py": "from pkg import Logs\n", "/p/pkg/__init__.py": pkg, "/p/pkg/Logs.cpython-311-x86_64-linux-gnu.so": ""}, ""},
		{"the project builds extensions", listedSource{"/p/main.py": "from pkg import Logs\n", "/p/pkg/__init__.py": pkg,
			"/p/setup.py": "from setuptools import setup\nfrom torch.utils.cpp_extension import CUDAExtension\nsetup(ext_modules=[CUDAExtension('pkg._C', ['csrc/a.cu'])])\n"}, ""},
		{"a pure setup.py", listedSource{"/p/main.py": "from pkg import Logs\n", "/p/pkg/__init__.py": pkg,
			"/p/setup.py": "from setuptools import setup, find_packages\nsetup(name='pkg', packages=find_packages())\n"}, "/p/main.py"},
		{"a star import of a local module binding it", listedSource{"/p/main.py": "from pkg import Logs\n", "/p/pkg/__init__.py": "from .core import *\n", "/p/pkg/core.py": "class Logs:\n    pass\n"}, ""},
		{"a star import of a local module not binding it", listedSource{"/p/main.py": "from pkg import Logs\n", "/p/pkg/__init__.py": "from .core import *\n", "/p/pkg/core.py": "class Output:\n    pass\n"}, "/p/main.py"},
		{"a star import of a library", listedSource{"/p/main.py": "from pkg import Logs\n", "/p/pkg/__init__.py": "from torch.nn import *\n"}, ""},
		{"module __getattr__", listedSource{"/p/main.py": "from pkg import Logs\n", "/p/pkg/__init__.py": "def __getattr__(name):\n    return _load(name)\n"}, ""},
		{"globals written", listedSource{"/p/main.py": "from pkg import Logs\n", "/p/pkg/__init__.py": "for k in ['a']:\n    globals()[k.title()] = k\n"}, ""},
		{"lazy module", listedSource{"/p/main.py": "from pkg import Logs\n", "/p/pkg/__init__.py": "import sys\nfrom transformers.utils import _LazyModule\nsys.modules[__name__] = _LazyModule(__name__, globals()['__file__'], {})\n"}, ""},
		{"lazy_loader", listedSource{"/p/main.py": "from pkg import Logs\n", "/p/pkg/__init__.py": "import lazy_loader as lazy\n__getattr__, __dir__, __all__ = lazy.attach(__name__, submodules=['io'])\n"}, ""},
		{"a dunder", listedSource{"/p/main.py": "from pkg import __version__\n", "/p/pkg/__init__.py": "x = 1\n"}, ""},
		{"set from outside first", listedSource{"/p/main.py": "import pkg\npkg.Logs = object\nfrom pkg import Logs\n", "/p/pkg/__init__.py": pkg}, ""},
		{"set by a module imported first", listedSource{"/p/main.py": "import patch\nfrom pkg import Logs\n", "/p/patch.py": "import pkg\nsetattr(pkg, 'Lo' + 'gs', object)\n", "/p/pkg/__init__.py": pkg}, ""},
		{"set by a module found on sys.path", listedSource{"/p/main.py": "import os, sys\nsys.path.insert(0, os.path.join(os.path.dirname(__file__), 'lib'))\nimport patch\nfrom pkg import Logs\n",
			"/p/lib/patch.py": "import pkg\npkg.Logs = object\n", "/p/pkg/__init__.py": pkg}, ""},
		{"missing submodule", listedSource{"/p/main.py": "import pkg.sampler\n", "/p/pkg/__init__.py": pkg}, "/p/main.py"},
		{"from a missing submodule", listedSource{"/p/main.py": "from pkg.sampler import Wrapper\n", "/p/pkg/__init__.py": pkg}, "/p/main.py"},
		{"submodule of a namespace package", listedSource{"/p/main.py": "from ns.sampler import Wrapper\n", "/p/ns/util.py": "x = 1\n"}, ""},
		{"a package extending __path__", listedSource{"/p/main.py": "import pkg.sampler\n", "/p/pkg/__init__.py": "from pkgutil import extend_path\n__path__ = extend_path(__path__, __name__)\n"}, ""},
		{"fallback on ImportError", listedSource{"/p/main.py": "try:\n    from pkg import Logs\nexcept ImportError:\n    Logs = None\n", "/p/pkg/__init__.py": pkg}, ""},
		{"handler raises again", listedSource{"/p/main.py": "try:\n    from pkg import Logs\nexcept ImportError:\n    raise SystemExit('old pkg')\n", "/p/pkg/__init__.py": pkg}, "/p/main.py"},
		{"another handler goes on", listedSource{"/p/main.py": "try:\n    from pkg import Logs\nexcept KeyError:\n    pass\n", "/p/pkg/__init__.py": pkg}, ""},
		{"under an if", listedSource{"/p/main.py": "import sys\nif sys.argv:\n    from pkg import Logs\n", "/p/pkg/__init__.py": pkg}, ""},
		{"in a local module the entry imports", listedSource{"/p/main.py": "import helper\n", "/p/helper.py": "from pkg import Logs\n", "/p/pkg/__init__.py": pkg}, "/p/helper.py"},
		{"imported where another exception goes on", listedSource{"/p/main.py": "try:\n    import helper\nexcept RuntimeError:\n    helper = None\n", "/p/helper.py": "import torch\nfrom pkg import Logs\n", "/p/pkg/__init__.py": pkg}, ""},
		{"imported where every handler raises", listedSource{"/p/main.py": "try:\n    import helper\nexcept RuntimeError:\n    raise\n", "/p/helper.py": "import torch\nfrom pkg import Logs\n", "/p/pkg/__init__.py": pkg}, "/p/helper.py"},
		{"relative import in a package", listedSource{"/p/main.py": "import pkg.run\n", "/p/pkg/__init__.py": pkg, "/p/pkg/run.py": "from . import Logs\n"}, "/p/pkg/run.py"},
		{"a syntax error in the package", listedSource{"/p/main.py": "from pkg import Logs\n", "/p/pkg/__init__.py": "def (:\n"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := NewProgram(tt.files, Options{}).Module("/p/main.py")
			if err != nil {
				t.Fatal(err)
			}
			_, at, none := m.Prog.pythonBound(m)
			got := ""
			if none {
				got = at.Path
			}
			if got != tt.at {
				t.Errorf("failing import at %q, want %q", got, tt.at)
			}
		})
	}
}
