// Package catalog is the table of Python APIs that initialize CUDA, touch it,
// or are known not to, built from measurements.
//
// Every row says what one API does to the CUDA driver in a fresh process and
// why we believe it: the oracle probe that measured it on an H200
// (testdata/groundtruth/oracle.json, copied from the ground-truth run), the
// fork-matrix scenario, or the library's documentation or source. The model
// resolves each call and attribute in a Python file to a qualified name
// ("torch.cuda.is_available", "cupy.cuda.Device().use", "numba.cuda.gpus")
// and looks it up here; the rules never name a library API themselves.
//
// To add an API: add one row to rows.go with its evidence, and a fixture probe
// under testdata/py/catalog/ that exercises it, tagged on the line above the
// call with "# row: <shape> <name>" (shape as Shape.String prints it);
// TestEveryRowHasFixture fails until you do. Measured rows cite the probe label
// of testdata/groundtruth/oracle.json, oracle_extra.json, libraries.json (the
// libraries above torch), launchers.json or probes-2026-12.json (the H100
// probes of probes-2026-12.md), and the tests check that the row's Effect
// agrees with the measurement.
package catalog

import "strings"

// Effect is what an API does to CUDA in the calling process.
type Effect uint8

const (
	// NoEffect: known not to initialize CUDA (torch.device("cuda"), import
	// torch, NVML queries, @cuda.jit decoration). Listed so they stay silent on
	// purpose and are proven by a fixture.
	NoEffect Effect = iota
	// Uses: needs an initialized driver but does not initialize it (driver API
	// calls other than cuInit). Harmless in a fresh process; in a child forked
	// from an initialized one it fails.
	Uses
	// InitDriver: runs cuInit without making a context current. The oracle
	// shows this is already enough to break forked children.
	InitDriver
	// InitContext: runs cuInit and makes a context current.
	InitContext
)

func (e Effect) String() string {
	switch e {
	case NoEffect:
		return "none"
	case Uses:
		return "uses"
	case InitDriver:
		return "init"
	case InitContext:
		return "init+context"
	}
	return "?"
}

// Initializes reports whether e runs cuInit.
func (e Effect) Initializes() bool { return e >= InitDriver }

// TouchesCUDA reports whether e needs a working driver (so it fails in a
// child forked from an initialized process).
func (e Effect) TouchesCUDA() bool { return e >= Uses }

// Shape is how an API is reached in source.
type Shape uint8

func (s Shape) String() string {
	switch s {
	case Call:
		return "call"
	case Attr:
		return "attr"
	case Import:
		return "import"
	case Method:
		return "method"
	case PrefixCall:
		return "prefix"
	}
	return "?"
}

const (
	// Call of the qualified name: torch.cuda.is_available().
	Call Shape = iota
	// Attr is reading the attribute: numba.cuda.gpus.
	Attr
	// Import of the module: import pycuda.autoinit.
	Import
	// Method of that name on a receiver the model could not type (x.cuda(),
	// model.to(device)). Name is the bare method name with a leading dot.
	Method
	// PrefixCall is a call of anything under the name (jax.numpy.*): the row
	// applies unless a row with a longer name matches.
	PrefixCall
)

// Condition narrows when a row's Effect applies.
type Condition uint8

const (
	// Always: the effect happens on every call.
	Always Condition = iota
	// DeviceArg: only when the argument named by Entry.Device is a CUDA
	// device ("cuda", "cuda:1", torch.device("cuda"), a name bound to one).
	// A missing argument counts as CUDA only when Device.DefaultCUDA is set.
	DeviceArg
	// DeviceArgOrDefault: a tensor factory; as DeviceArg, and also when the
	// device argument is absent and torch.set_default_device("cuda") ran
	// earlier in the process.
	DeviceArgOrDefault
	// UnlessNVMLCheck: torch.cuda.is_available(), which asks NVML instead of
	// the driver when PYTORCH_NVML_BASED_CUDA_CHECK=1 is set before the call.
	UnlessNVMLCheck
	// DeviceMapArg: only when the argument named by Entry.Device is present
	// and places weights on a GPU: a placement strategy ("auto",
	// "balanced", "sequential"), a CUDA device or index, or a dict display
	// mapping modules to devices; "cpu", "meta", "disk" and values the model
	// cannot read do not count (from_pretrained(..., device_map="auto")).
	DeviceMapArg
)

// Role marks rows the model treats specially beyond their Effect.
type Role uint8

const (
	RoleNone Role = iota
	// RoleDevice: the call builds a device object from its Device argument
	// (torch.device); its result is a CUDA device when that argument is.
	RoleDevice
	// RoleSetDefaultDevice: torch.set_default_device(dev); later factory calls
	// without a device argument allocate on dev.
	RoleSetDefaultDevice
	// RoleNVMLCheck: importing the module sets PYTORCH_NVML_BASED_CUDA_CHECK=1
	// for the process (lightning), so a later torch.cuda.is_available() asks
	// NVML and initializes nothing.
	RoleNVMLCheck
	// RoleHostResult: a NoEffect call whose result is host data that is not
	// the library's (jnp.finfo returns ml_dtypes' finfo, jnp.result_type a
	// NumPy dtype): a method called on the result, finfo(t).max.astype(),
	// is NumPy's, not a call under the library's prefix row.
	RoleHostResult
)

// ArgRef names an argument by position and keyword.
type ArgRef struct {
	Pos         int    // positional index, -1 if it can only be passed by keyword
	Keyword     string // keyword name, "" if positional-only
	DefaultCUDA bool   // an absent argument means CUDA (torch.amp.GradScaler())
	// LikeInput: an absent argument means the device of the input, the
	// first positional argument (torch.zeros_like(x) allocates where x is).
	LikeInput bool
}

// Switch is an argument whose value turns a row's effect off: the call does
// nothing to CUDA when the argument is passed and every value it may have
// is the truth value Off (enabled=False, cpu=True). An absent argument
// leaves the effect on, as the API's default does. An argument whose value
// cannot be read neither switches the effect off nor proves it on: the
// model reports it as a possible CUDA use, naming the argument it could
// not read (model/initializers.go).
type Switch struct {
	Arg ArgRef
	Off bool
}

// Evidence says why a row is believed.
type Evidence struct {
	// Source is "oracle" (a probe in oracle.json), "oracle_extra" (a probe in
	// oracle_extra.json, the second harness run for rows that first rested on
	// docs), "libraries" (a probe in libraries.json, the run of the
	// libraries above torch), "launchers" (a probe in launchers.json:
	// transformers, sentence-transformers and the launchers), "probes" (a
	// statement of probes-2026-12.json), "forkmatrix" (a
	// scenario in forkmatrix.json), "docs" (documentation, issue or PR
	// threads) or "code" (library source).
	Source string
	// Ref is the oracle probe label ("torch: torch.cuda.is_available()"), the
	// fork-matrix scenario as "<lib>: <scenario>", a URL, or
	// "<owner>/<repo> <path> (what it shows)" for source.
	Ref string
}

// Entry is one catalog row.
type Entry struct {
	Name   string // qualified name, see Shape
	Shape  Shape
	Lib    string // library as users call it: "torch", "cupy", "jax", ...
	Effect Effect
	When   Condition
	Device ArgRef // for DeviceArg, DeviceArgOrDefault, DeviceMapArg and RoleDevice
	// Off lists the arguments that switch the effect off, whatever the
	// condition says: torch.autocast("cuda", enabled=False),
	// Accelerator(cpu=True). See Switch.
	Off []Switch
	// AnyReceiver lets a Method row apply where the receiver is a library
	// class the model knows by name (AutoModel.from_pretrained), not only
	// where it is an untyped object: its condition names a keyword specific
	// enough to tell the API apart.
	AnyReceiver bool
	Role        Role
	// ChildNoUse: in a child forked from a process that had initialized
	// CUDA the call makes no driver call that fails, though it initializes
	// CUDA in a fresh process (torch.cuda.is_available() answers from the
	// device count cached before the fork). The parent's side is Effect;
	// ChildEvidence says why the child's differs.
	ChildNoUse    bool
	ChildEvidence Evidence
	Evidence      Evidence
	// Also lists further evidence that agrees with Effect (another spelling
	// measured, the fork-matrix scenario that shows the consequence).
	Also []Evidence
	// Silent lists measurements of a use the row's Effect does not cover,
	// where the API did not initialize CUDA: its condition did not hold
	// (map_location='cpu', the NVML check, a CPU device), or it was not used
	// the way that initializes (torch.cuda.device(0) built but not entered).
	Silent []Evidence
	Note   string // shown in docs; what is surprising about this row
}

// Lookup finds the row for name reached with shape. For Call it also tries
// PrefixCall rows, longest prefix first; exact rows win over prefix rows.
// name must be canonical (see Canonical).
func Lookup(shape Shape, name string) (*Entry, bool) {
	if e, ok := exact[key{shape, name}]; ok {
		return e, true
	}
	if shape != Call {
		return nil, false
	}
	for n := name; ; {
		i := strings.LastIndexByte(n, '.')
		if i < 0 {
			return nil, false
		}
		n = n[:i]
		if e, ok := exact[key{PrefixCall, n}]; ok {
			return e, true
		}
	}
}

// Rows returns every row, in table order.
func Rows() []Entry { return rows }

type key struct {
	shape Shape
	name  string
}

var exact = func() map[key]*Entry {
	m := make(map[key]*Entry, len(rows))
	for i := range rows {
		r := &rows[i]
		m[key{r.Shape, r.Name}] = r
	}
	return m
}()

// Canonical maps alternative spellings of the same API to the name rows use:
// cuda.core.experimental.X → cuda.core.X, cuda.cuda → cuda.bindings.driver,
// cuda.cudart → cuda.bindings.runtime, tensorflow.compat.v1 → tensorflow ...
func Canonical(name string) string {
	for _, a := range aliases {
		// a.from, then the end or a '.' or '(' (no concatenation: the
		// model asks for every call and attribute it resolves).
		if !strings.HasPrefix(name, a.from) {
			continue
		}
		if rest := name[len(a.from):]; rest == "" || rest[0] == '.' || rest[0] == '(' {
			return a.to + rest
		}
	}
	return name
}

// Libraries lists the top-level module names whose import makes a file
// relevant to the analysis (CUDA libraries, and the libraries above torch
// whose calls initialize it). They always mean the installed library, never
// a file of the checked project.
func Libraries() []string { return libraries }

// LocalFirst lists the top-level modules of libraries that have catalog rows
// but are read from source where the checked project holds them (DeepSpeed,
// Warp): their rows apply to code that uses the installed library.
func LocalFirst() []string { return localFirst }
