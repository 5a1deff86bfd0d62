package pytarget

import "strings"

// Removed APIs. A program that imports, whatever the path it takes, a
// module or name its library removed runs only with a release of that
// library from before the removal, and so only on the Pythons those
// releases were built for. PyTorch supports Python 3.14 from torch 2.9
// (October 2025) on; code that imports `torch._six` stopped importing with
// torch 2.0 (March 2023), whose newest Python was 3.11. Such a program never
// meets 3.14's default start method (forkserver on Linux): wherever it
// runs, Linux forks. The standard library is such a library too, whose
// releases are CPython's own: `from fractions import gcd` stops importing
// with 3.9, so the program runs on 3.8 at the newest.
//
// Each row names what import statements name (modules, or a module's
// attributes taken by a from-import) and the newest CPython minor release
// that the last library release still having them was built for. A row may
// err towards a newer Python, never an older one: a too new bound keeps a
// finding a program cannot meet, a too old one would drop findings it can.
// So a standard module that a distribution on PyPI puts back under its own
// name has no row: `distutils` (setuptools' shim, installed with torch), `imp`
// (zombie-imp), the PEP 594 modules of 3.13 (`imghdr`, `pipes`, `cgi`,
// `telnetlib`, ...: python-deadlib's standard-imghdr, standard-pipes and
// the like) import on 3.14 wherever one is installed. Nor have NumPy 1.24's
// removed type aliases (`np.float`, `np.int`): programs and the libraries
// they import put them back (`np.float = float`) to run old code on new
// NumPy.

// RemovedAPI is one row: importable names a library removed in one release.
type RemovedAPI struct {
	// Library is the library's name as its users know it ("PyTorch",
	// "CPython" for the standard library).
	Library string
	// Names are the dotted names as an import writes them: modules
	// ("torch._six"), or a module's attributes ("torch._utils._accumulate",
	// written `from torch._utils import _accumulate`).
	Names []string
	// Label, when set, is how the rule index shows Names (a row of many
	// names); otherwise it lists them.
	Label string
	// RemovedIn is the first release without them, LastRelease the last
	// one with them: CPython minor releases for the standard library.
	RemovedIn, LastRelease string
	// NewestPython is the newest CPython minor release (3.NewestPython)
	// LastRelease was built for.
	NewestPython int
	// Evidence is where the removal and the supported Pythons are stated.
	Evidence string
}

// prefixed is each name of names as an attribute of module.
func prefixed(module string, names ...string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = module + "." + n
	}
	return out
}

// removedAPIs is the table.
var removedAPIs = []RemovedAPI{
	{Library: "PyTorch", Names: []string{"torch._six"}, RemovedIn: "2.0.0", LastRelease: "1.13.1", NewestPython: 11,
		Evidence: "PyTorch 2.0.0 release notes (github.com/pytorch/pytorch/releases/tag/v2.0.0), Releng: " +
			"\"Deprecated private API torch._six\", removed by pytorch/pytorch#94709 (2023-02) with six and future; " +
			"1.13.1's newest wheels are CPython 3.11, on Linux only (pytorch/pytorch#86566, #92826)"},
	{Library: "PyTorch", Names: []string{"torch._utils._accumulate"}, RemovedIn: "2.3.0", LastRelease: "2.2.2", NewestPython: 12,
		Evidence: "torch/_utils.py defines _accumulate up to v2.2.0 and not in 2.3.0 (JaidedAI/EasyOCR#1243, " +
			"clovaai/deep-text-recognition-benchmark#416 with 2.3.0, pyro-ppl/pyro#3364: \"removed in PyTorch 2.3\"); " +
			"2.2 is the first release with CPython 3.12 wheels (pytorch/pytorch#112882, merged 2023-11 for 2.2.0); 2.2.2 is the last 2.2 release"},
	{Library: "PyTorch", Names: []string{"torch.utils.ffi"}, RemovedIn: "1.0.0", LastRelease: "0.4.1", NewestPython: 7,
		Evidence: "pytorch/pytorch#12122 (2018-09, released in 1.0.0) replaced torch/utils/ffi/__init__.py by " +
			"`raise ImportError(\"torch.utils.ffi is deprecated. Please use cpp extensions instead.\")`; " +
			"0.4.1 (2018-07) predates any build for 3.8 (released 2019-10)"},
	{Library: "torchvision", Names: []string{"torchvision.models.utils"}, RemovedIn: "0.11.0", LastRelease: "0.10.1", NewestPython: 9,
		Evidence: "torchvision 0.11.0 replaced torchvision/models/utils.py by torchvision/_internally_replaced_utils.py " +
			"(w86763777/pytorch-image-generation-metrics#3; \"No module named 'torchvision.models.utils'\" with 0.11.3 in " +
			"thuml/Transfer-Learning-Library#114, with 0.13.1 in median-research-group/LibMTL#62); " +
			"0.10.1 (2021-09) predates any build for 3.10 (released 2021-10-04)"},
	{Library: "NumPy", Names: prefixed("numpy.lib", "arraypad", "arraysetops", "arrayterator", "function_base", "histograms",
		"index_tricks", "nanfunctions", "polynomial", "shape_base", "twodim_base", "type_check", "ufunclike", "utils"),
		RemovedIn: "2.0.0", LastRelease: "1.26.4", NewestPython: 12,
		Evidence: "NumPy 2.0 made these numpy.lib submodules private (numpy/numpy#24567 and the NEP 52 clean-up: " +
			"numpy/lib/_arraypad_impl.py and the like); numpy/lib/__init__.py's __getattr__ answers each with " +
			"\"numpy.lib.<name> is now private\" (\"numpy.lib.arrayterator submodule is now private\"), and importing one " +
			"raises ModuleNotFoundError; NumPy 1.26's release notes: \"The Python versions supported in this release are 3.9-3.12\", " +
			"and 1.26 is the last 1.x series"},
	{Library: "SciPy", Names: prefixed("scipy.misc", "bytescale", "fromimage", "imfilter", "imread", "imresize", "imrotate",
		"imsave", "imshow", "toimage"),
		RemovedIn: "1.3.0", LastRelease: "1.2.3", NewestPython: 8,
		Evidence: "SciPy 1.3.0 release notes: \"functions from scipy.misc (bytescale, fromimage, imfilter, imread, imresize, " +
			"imrotate, imsave, imshow, toimage) have been removed\", deprecated since 1.0.0 (scipy/scipy#9325); " +
			"the 1.2 series (last 1.2.3, 2020-01) predates any build for 3.9 (released 2020-10)"},
	{Library: "scikit-learn", Names: []string{"sklearn.externals.joblib", "sklearn.externals.six"},
		RemovedIn: "0.23", LastRelease: "0.22.2.post1", NewestPython: 8,
		Evidence: "\"sklearn.externals.joblib is deprecated in 0.21 and will be removed in 0.23\", \"sklearn.externals.six ... " +
			"will be removed in version 0.23\" (the deprecation warnings, scikit-garden/scikit-garden#88, " +
			"scikit-learn/scikit-learn#13531 unvendoring joblib); 0.22.2.post1 (2020-03) predates any build for 3.9 (released 2020-10)"},
	{Library: "scikit-learn", Names: []string{"sklearn.cross_validation", "sklearn.grid_search", "sklearn.learning_curve"},
		RemovedIn: "0.20", LastRelease: "0.19.2", NewestPython: 7,
		Evidence: "\"This module was deprecated in version 0.18 in favor of the model_selection module ... This module will be " +
			"removed in 0.20\" (the modules' DeprecationWarning; \"From scikit-learn ver0.20, sklearn.cross_validation was " +
			"extinguished\", declare-lab/conv-emotion#15); 0.19.2 (2018-07) predates any build for 3.8 (released 2019-10)"},
	{Library: "CPython", Names: []string{"time.clock"}, RemovedIn: "3.8", LastRelease: "3.7", NewestPython: 7,
		Evidence: "What's New in Python 3.8, API and Feature Removals: \"The function time.clock() has been removed, after " +
			"having been deprecated since Python 3.3\" (bpo-36895, python/cpython#13286)"},
	{Library: "CPython", Names: []string{"fractions.gcd"}, RemovedIn: "3.9", LastRelease: "3.8", NewestPython: 8,
		Evidence: "What's New in Python 3.9, Removed: fractions.gcd(), deprecated since 3.5 (bpo-39350, python/cpython GH-18021)"},
	{Library: "CPython", Names: prefixed("collections", "Awaitable", "Coroutine", "AsyncIterable", "AsyncIterator",
		"AsyncGenerator", "Hashable", "Iterable", "Iterator", "Generator", "Reversible", "Sized", "Container", "Callable",
		"Collection", "Set", "MutableSet", "Mapping", "MutableMapping", "MappingView", "KeysView", "ItemsView", "ValuesView",
		"Sequence", "MutableSequence", "ByteString"),
		Label:     "`collections.Mapping`, `collections.Iterable`, … (each class of `collections.abc` taken from `collections`)",
		RemovedIn: "3.10", LastRelease: "3.9", NewestPython: 9,
		Evidence: "What's New in Python 3.10, Removed: \"Remove deprecated aliases to Collections Abstract Base Classes from " +
			"the collections module\" (bpo-37324, python/cpython#23754); collections' docs: \"they continue to be visible in " +
			"this module through Python 3.9\" (bpo-39674)"},
	{Library: "CPython", Names: []string{"inspect.getargspec", "inspect.formatargspec"}, RemovedIn: "3.11", LastRelease: "3.10", NewestPython: 10,
		Evidence: "What's New in Python 3.11, Removed from the inspect module: getargspec(), deprecated since 3.0, and " +
			"formatargspec(), deprecated since 3.5 (bpo-45320, python/cpython#28618)"},
}

// RemovedAPIs returns the table.
func RemovedAPIs() []RemovedAPI { return removedAPIs }

// LookupRemoved finds the row of an imported dotted name: one of the row's
// names itself, or a name inside it (`torch._six.inf`,
// `torch.utils.ffi.create_extension`, `numpy.lib.arraypad.pad`).
func LookupRemoved(name string) (*RemovedAPI, bool) {
	for i := range removedAPIs {
		r := &removedAPIs[i]
		for _, n := range r.Names {
			if name == n || strings.HasPrefix(name, n+".") {
				return r, true
			}
		}
	}
	return nil, false
}

// UpTo is s without the versions newer than 3.minor: the configs a
// program that runs on no newer Python can meet. On a platform where s has
// no version that old (a program bound to 3.7 checked for 3.11–3.15), s's
// oldest version there stays, standing for the older releases the program
// does run on: those behave as the oldest target does wherever it is older
// than 3.14 (fork by default on Linux, spawn elsewhere, a forkserver that
// does not import __main__), and a target range that starts later was
// chosen for the program by its project.
func (s Set) UpTo(minor int) Set {
	var out Set
	for p := Platform(0); p < numPlatforms; p++ {
		oldest := Set(0)
		for v := Version(0); v < numVersions; v++ {
			c := Config{v, p}
			if !s.Has(c) {
				continue
			}
			if oldest == 0 {
				oldest = bit(c)
			}
			if buckets[v].minor <= minor {
				out |= bit(c)
			}
		}
		if out&platformMask(p) == 0 {
			out |= oldest
		}
	}
	return out
}
