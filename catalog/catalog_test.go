package catalog

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

const groundTruth = "../testdata/groundtruth"

// probe is one measurement of oracle.py / oracle_extra.py.
type probe struct {
	Error       string `json:"error"`
	Loaded      bool   `json:"libcuda_loaded"`
	Initialized bool   `json:"driver_initialized"`
	// Context is nil where the harness did not record it (probes-2026-12):
	// either initializing effect agrees with such a probe.
	Context *bool `json:"has_current_ctx"`
}

// probeFiles are the files of each measured evidence source. The oracle
// files are a map of probes; the later harnesses (libraries.py,
// launchers_probe.py) keep theirs under "probes", beside the run's
// environment and scenarios.
var probeFiles = map[string]string{
	"oracle":       "oracle.json",
	"oracle_extra": "oracle_extra.json",
	"libraries":    "libraries.json",
	"launchers":    "launchers.json",
	"probes":       "probes-2026-12.json",
}

func loadProbes(t *testing.T, file string) map[string]probe {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(groundTruth, file))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]probe
	var wrapped struct {
		Probes map[string]probe `json:"probes"`
	}
	if err := json.Unmarshal(b, &wrapped); err == nil && wrapped.Probes != nil {
		m = wrapped.Probes
	} else if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	if len(m) == 0 {
		t.Fatalf("%s: no probes", file)
	}
	return m
}

// measured reports whether an evidence source is a probe file.
func measured(source string) bool { _, ok := probeFiles[source]; return ok }

// scenario is one run of forkmatrix.py.
type scenario struct {
	Lib       string  `json:"lib"`
	Scenario  string  `json:"scenario"`
	ChildOK   bool    `json:"child_ok"`
	ChildExit *string `json:"child_exit"`
}

// failed reports whether the child failed, aborted or hung. The DataLoader
// scenarios never print CHILD_OK; their exit line says how they ended.
func (s scenario) failed() bool {
	return !s.ChildOK && (s.ChildExit == nil || *s.ChildExit != "CHILD_EXIT 0")
}

func (s scenario) ref() string { return s.Lib + ": " + s.Scenario }

func loadForkMatrix(t *testing.T) map[string]scenario {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(groundTruth, "forkmatrix.json"))
	if err != nil {
		t.Fatal(err)
	}
	var list []scenario
	if err := json.Unmarshal(b, &list); err != nil {
		t.Fatal(err)
	}
	m := make(map[string]scenario, len(list))
	for _, s := range list {
		m[s.ref()] = s
	}
	return m
}

// measuredEffect says which Effects agree with a measurement: a call that left
// the driver uninitialized may be NoEffect or Uses (the oracle cannot tell
// them apart: Uses calls fail before cuInit rather than initialize).
func measuredEffect(p probe) []Effect {
	switch {
	case !p.Initialized:
		return []Effect{NoEffect, Uses}
	case p.Context == nil:
		return []Effect{InitDriver, InitContext}
	case *p.Context:
		return []Effect{InitContext}
	default:
		return []Effect{InitDriver}
	}
}

func agrees(e Effect, p probe) bool {
	for _, m := range measuredEffect(p) {
		if e == m {
			return true
		}
	}
	return false
}

var knownSources = map[string]bool{"oracle": true, "oracle_extra": true, "libraries": true, "launchers": true, "probes": true,
	"forkmatrix": true, "docs": true, "code": true}

var codeRef = regexp.MustCompile(`^[\w.-]+/[\w.-]+ \S+`)

func rowID(r *Entry) string { return r.Shape.String() + " " + r.Name }

// (a) Measured rows agree with the measurement; (e) every row has evidence.
func TestEvidence(t *testing.T) {
	probes := map[string]map[string]probe{}
	for src, file := range probeFiles {
		probes[src] = loadProbes(t, file)
	}
	fm := loadForkMatrix(t)
	check := func(r *Entry, ev Evidence, silent bool) {
		t.Helper()
		id := rowID(r)
		if !knownSources[ev.Source] {
			t.Errorf("%s: unknown evidence source %q", id, ev.Source)
			return
		}
		if strings.TrimSpace(ev.Ref) == "" {
			t.Errorf("%s: %s evidence without a reference", id, ev.Source)
			return
		}
		switch ev.Source {
		case "oracle", "oracle_extra", "libraries", "launchers", "probes":
			p, ok := probes[ev.Source][ev.Ref]
			switch {
			case !ok:
				t.Errorf("%s: %q is not a probe of %s.json", id, ev.Ref, ev.Source)
			case p.Error != "":
				t.Errorf("%s: probe %q errored (%s); it measures nothing", id, ev.Ref, p.Error)
			case silent && p.Initialized:
				t.Errorf("%s: Silent cites %q, which initialized the driver", id, ev.Ref)
			case !silent && !agrees(r.Effect, p):
				t.Errorf("%s: Effect %v, but %q measured init=%v ctx=%v (want one of %v)",
					id, r.Effect, ev.Ref, p.Initialized, p.Context != nil && *p.Context, measuredEffect(p))
			}
		case "forkmatrix":
			s, ok := fm[ev.Ref]
			switch {
			case !ok:
				t.Errorf("%s: %q is not a forkmatrix scenario (want \"<lib>: <scenario>\")", id, ev.Ref)
			case silent:
				t.Errorf("%s: Silent cites fork-matrix scenario %q; Silent is for oracle probes", id, ev.Ref)
			case r.Effect.Initializes() && !s.failed():
				t.Errorf("%s: initializer cites %q, whose child did not fail", id, ev.Ref)
			}
		case "docs":
			if !strings.HasPrefix(ev.Ref, "https://") {
				t.Errorf("%s: docs evidence %q is not a URL", id, ev.Ref)
			}
			if silent {
				t.Errorf("%s: Silent cites docs %q; Silent is for oracle probes", id, ev.Ref)
			}
		case "code":
			if !codeRef.MatchString(ev.Ref) {
				t.Errorf("%s: code evidence %q is not \"<owner>/<repo> <path> (...)\"", id, ev.Ref)
			}
			if silent {
				t.Errorf("%s: Silent cites source %q; Silent is for oracle probes", id, ev.Ref)
			}
		}
	}
	for i := range rows {
		r := &rows[i]
		check(r, r.Evidence, false)
		for _, ev := range r.Also {
			check(r, ev, false)
		}
		for _, ev := range r.Silent {
			check(r, ev, true)
		}
		// A child-side exception is for an initializer, and says why.
		if r.ChildNoUse != (r.ChildEvidence != Evidence{}) || r.ChildNoUse && !r.Effect.Initializes() {
			t.Errorf("%s: ChildNoUse needs ChildEvidence and an initializing Effect", rowID(r))
		} else if r.ChildNoUse {
			check(r, r.ChildEvidence, false)
		}
	}
}

// uncatalogued lists oracle_extra probes no row cites, with the reason; each
// is a gap in what a row can express, noted on the row it concerns.
var uncatalogued = map[string]string{
	"torch: torch.zeros(1, pin_memory=True)":                "pin_memory=True initializes; no condition for a boolean keyword (note on torch.zeros)",
	"cupy: cupy.cuda.Device() without an index":             "Device() with no index initializes, Device(0) does not; no argument-absent condition (note on cupy.cuda.Device)",
	"numba: @cuda.jit('void(float64[:])') with a signature": "eager compilation with a signature; no argument-present condition (note on numba.cuda.jit)",
}

// (b) Every measured API is in the table.
func TestEveryProbeIsCited(t *testing.T) {
	cited := map[string]bool{}
	for i := range rows {
		r := &rows[i]
		for _, ev := range append(append([]Evidence{r.Evidence}, r.Also...), r.Silent...) {
			if measured(ev.Source) {
				cited[ev.Source+"\x00"+ev.Ref] = true
			}
		}
	}
	// libraries.json is left out: it measured imports and constructors of
	// libraries that have no rows (timm, torchvision, jax...), kept whole
	// as the run's record.
	for _, file := range []string{"oracle", "oracle_extra", "launchers", "probes"} {
		var missing []string
		for k, p := range loadProbes(t, probeFiles[file]) {
			if p.Error != "" || cited[file+"\x00"+k] {
				continue
			}
			if file == "oracle_extra" && uncatalogued[k] != "" {
				continue
			}
			missing = append(missing, k)
		}
		sort.Strings(missing)
		for _, k := range missing {
			t.Errorf("%s.json probe %q is cited by no row", file, k)
		}
	}
	extra := loadProbes(t, "oracle_extra.json")
	for k := range uncatalogued {
		if _, ok := extra[k]; !ok {
			t.Errorf("uncatalogued names %q, which is not an oracle_extra probe", k)
		}
		if cited["oracle_extra\x00"+k] {
			t.Errorf("uncatalogued names %q, which a row cites: drop it from the list", k)
		}
	}
}

// (c) Lookup: exact beats prefix, the longest prefix wins, aliases, shapes.
func TestLookup(t *testing.T) {
	tests := []struct {
		shape  Shape
		name   string // before Canonical
		found  bool
		want   string // Name of the row found
		effect Effect
	}{
		// exact rows
		{Call, "torch.cuda.is_available", true, "torch.cuda.is_available", InitDriver},
		{Call, "torch.cuda.device_count", true, "torch.cuda.device_count", NoEffect},
		{Call, "cupy.cuda.Device().use", true, "cupy.cuda.Device().use", InitContext},
		{Call, "numba.cuda.jit()[]", true, "numba.cuda.jit()[]", InitContext},
		{Call, "jax.jit", true, "jax.jit", NoEffect},
		{Call, "jax.jit()", true, "jax.jit()", InitContext},
		// an exact row beats a prefix row
		{Call, "cupy.get_default_memory_pool", true, "cupy.get_default_memory_pool", NoEffect},
		{Call, "cupy.cuda.runtime.runtimeGetVersion", true, "cupy.cuda.runtime.runtimeGetVersion", NoEffect},
		{Call, "cuda.bindings.driver.cuDriverGetVersion", true, "cuda.bindings.driver.cuDriverGetVersion", NoEffect},
		{Call, "jax.numpy.finfo", true, "jax.numpy.finfo", NoEffect},
		{Call, "cupyx.jit.rawkernel", true, "cupyx.jit.rawkernel", NoEffect},
		// prefix rows, longest first
		{Call, "cupy.zeros", true, "cupy", InitContext},
		{Call, "cupy.linalg.norm", true, "cupy", InitContext},
		{Call, "cupy.cuda.runtime.memcpy", true, "cupy.cuda.runtime", InitDriver},
		{Call, "cupy.cuda.driver.ctxGetCurrent", true, "cupy.cuda.driver", Uses},
		{Call, "cupy.random.rand", true, "cupy.random", InitContext},
		{Call, "cupy.get_default_memory_pool().malloc", true, "cupy", InitContext},
		{Call, "cuda.bindings.driver.cuMemAlloc", true, "cuda.bindings.driver", Uses},
		{Call, "cuda.bindings.runtime.cudaStreamCreate", true, "cuda.bindings.runtime", InitContext},
		{Call, "jax.numpy.ones", true, "jax.numpy", InitContext},
		{Call, "jax.numpy.linalg.norm", true, "jax.numpy", InitContext},
		{Call, "jax.random.normal", true, "jax.random", InitContext},
		{Call, "pynvml.nvmlDeviceGetPowerUsage", true, "pynvml", NoEffect},
		{Call, "triton.runtime.driver.active.get_current_stream", true, "triton.runtime.driver.active", InitDriver},
		{Call, "triton.runtime.driver.active.get_current_device", true, "triton.runtime.driver.active.get_current_device", InitDriver},
		{Call, "pycuda.driver.Device().name", true, "pycuda.driver", Uses},
		{Call, "pycuda.driver.Device().make_context", true, "pycuda.driver.Device().make_context", InitContext},
		// a prefix row matches names under it, not the name itself nor siblings
		{Call, "cupy", false, "", 0},
		{Call, "jax.numpy", false, "", 0},
		{Call, "jax.numpyro", false, "", 0},
		{Call, "cupyx_extra.f", false, "", 0},
		// prefix rows apply to calls only
		{Attr, "cupy.ndarray", false, "", 0},
		{Attr, "jax.numpy.float32", false, "", 0},
		// aliases (Canonical)
		{Call, "cuda.core.experimental.Device", true, "cuda.core.Device", InitDriver},
		{Call, "cuda.core.experimental.Device().set_current", true, "cuda.core.Device().set_current", InitContext},
		{Call, "cuda.core.experimental.system.get_num_devices", true, "cuda.core.system.get_num_devices", NoEffect},
		{Import, "cuda.core.experimental", true, "cuda.core", NoEffect},
		{Call, "cuda.cuda.cuInit", true, "cuda.bindings.driver.cuInit", InitDriver},
		{Call, "cuda.cuda.cuCtxCreate", true, "cuda.bindings.driver", Uses},
		{Call, "cuda.cudart.cudaGetDeviceCount", true, "cuda.bindings.runtime.cudaGetDeviceCount", InitDriver},
		{Call, "cuda.cudart.cudaMalloc", true, "cuda.bindings.runtime", InitContext},
		{Call, "cuda.nvrtc.nvrtcCreateProgram", true, "cuda.bindings.nvrtc", NoEffect},
		{Call, "cupy_backends.cuda.api.runtime.getDeviceCount", true, "cupy.cuda.runtime.getDeviceCount", InitDriver},
		{Call, "tensorflow.compat.v1.Session", true, "tensorflow.Session", InitContext},
		{Call, "tensorflow.compat.v2.config.list_physical_devices", true, "tensorflow.config.list_physical_devices", InitDriver},
		{Call, "torch.cuda.memory.empty_cache", true, "torch.cuda.empty_cache", NoEffect},
		{Call, "torch.cuda.random.manual_seed_all", true, "torch.cuda.manual_seed_all", NoEffect},
		{Call, "torch.cuda.streams.Event", true, "torch.cuda.Event", NoEffect},
		{Call, "torch.amp.autocast", true, "torch.autocast", InitDriver},
		{Call, "torch.nn.parallel.DataParallel", true, "torch.nn.DataParallel", InitContext},
		// Method, Attr and Import shapes
		{Method, ".cuda", true, ".cuda", InitContext},
		{Method, ".to", true, ".to", InitContext},
		{Method, ".pin_memory", true, ".pin_memory", InitContext},
		{Method, ".numpy", false, "", 0},
		{Call, ".cuda", false, "", 0},
		{Attr, "numba.cuda.gpus", true, "numba.cuda.gpus", InitDriver},
		{Call, "numba.cuda.gpus", false, "", 0},
		{Attr, "cupy.cuda.Device().compute_capability", true, "cupy.cuda.Device().compute_capability", InitContext},
		{Attr, "cuda.core.Device().name", true, "cuda.core.Device().name", InitDriver},
		{Import, "pycuda.autoinit", true, "pycuda.autoinit", InitContext},
		{Import, "cudf", true, "cudf", InitDriver},
		{Import, "torch", true, "torch", NoEffect},
		{Call, "pycuda.autoinit", false, "", 0},
		// unknown names
		{Call, "os.getpid", false, "", 0},
		{Call, "torchvision.models.resnet18", false, "", 0},
		{Call, "torch.nn.Linear", true, "torch.nn.Linear", InitContext},
		{Call, "torch.nn.Dropout", false, "", 0},
	}
	for _, tt := range tests {
		e, ok := Lookup(tt.shape, Canonical(tt.name))
		if ok != tt.found {
			t.Errorf("Lookup(%v, %q) found=%v, want %v", tt.shape, tt.name, ok, tt.found)
			continue
		}
		if !ok {
			continue
		}
		if e.Name != tt.want || e.Effect != tt.effect {
			t.Errorf("Lookup(%v, %q) = %s (%v), want %s (%v)", tt.shape, tt.name, e.Name, e.Effect, tt.want, tt.effect)
		}
	}
}

// Conditions and roles come back as the model needs them.
func TestConditions(t *testing.T) {
	tests := []struct {
		shape  Shape
		name   string
		when   Condition
		role   Role
		device ArgRef
	}{
		{Call, "torch.cuda.is_available", UnlessNVMLCheck, RoleNone, ArgRef{}},
		{Call, "torch.zeros", DeviceArgOrDefault, RoleNone, ArgRef{Pos: -1, Keyword: "device"}},
		{Call, "torch.tensor", DeviceArgOrDefault, RoleNone, ArgRef{Pos: -1, Keyword: "device"}},
		{Call, "torch.zeros_like", DeviceArg, RoleNone, ArgRef{Pos: -1, Keyword: "device", LikeInput: true}},
		{Method, ".to", DeviceArg, RoleNone, ArgRef{Pos: 0, Keyword: "device"}},
		{Call, "torch.amp.GradScaler", DeviceArg, RoleNone, ArgRef{Pos: 0, Keyword: "device", DefaultCUDA: true}},
		{Call, "torch.autocast", DeviceArg, RoleNone, ArgRef{Pos: 0, Keyword: "device_type"}},
		{Call, "torch.load", DeviceArg, RoleNone, ArgRef{Pos: 1, Keyword: "map_location"}},
		{Call, "torch.device", Always, RoleDevice, ArgRef{Pos: 0, Keyword: "type"}},
		{Call, "torch.set_default_device", Always, RoleSetDefaultDevice, ArgRef{Pos: 0, Keyword: "device"}},
		{Call, "torch.cuda.amp.GradScaler", Always, RoleNone, ArgRef{}},
	}
	for _, tt := range tests {
		e, ok := Lookup(tt.shape, tt.name)
		if !ok {
			t.Errorf("Lookup(%v, %q): no row", tt.shape, tt.name)
			continue
		}
		if e.When != tt.when || e.Role != tt.role || e.Device != tt.device {
			t.Errorf("%s %s: When=%v Role=%v Device=%+v, want %v %v %+v", tt.shape, tt.name, e.When, e.Role, e.Device, tt.when, tt.role, tt.device)
		}
	}
}

// (d) No two rows share (Shape, Name).
func TestNoDuplicateRows(t *testing.T) {
	seen := map[key]bool{}
	for i := range rows {
		k := key{rows[i].Shape, rows[i].Name}
		if seen[k] {
			t.Errorf("duplicate row %s", rowID(&rows[i]))
		}
		seen[k] = true
	}
	if len(exact) != len(rows) {
		t.Errorf("lookup table has %d rows, table %d", len(exact), len(rows))
	}
}

func TestRowsWellFormed(t *testing.T) {
	libs := map[string]bool{}
	for _, l := range Libraries() {
		libs[l] = true
	}
	for i := range rows {
		r := &rows[i]
		id := rowID(r)
		if r.Name == "" || r.Lib == "" {
			t.Errorf("%s: empty Name or Lib", id)
		}
		if (r.Shape == Method) != strings.HasPrefix(r.Name, ".") {
			t.Errorf("%s: Method rows, and only they, are named \".method\"", id)
		}
		if r.Shape == Method && strings.Count(r.Name, ".") != 1 {
			t.Errorf("%s: a Method row names one bare method", id)
		}
		if r.Shape == PrefixCall && strings.ContainsAny(r.Name, "()[]") {
			t.Errorf("%s: a prefix row names a module path", id)
		}
		if r.Shape == Import && strings.ContainsAny(r.Name, "()[]") {
			t.Errorf("%s: an import row names a module", id)
		}
		if r.Shape != Method && Canonical(r.Name) != r.Name {
			t.Errorf("%s: not canonical (Canonical gives %q), so Lookup can never reach it", id, Canonical(r.Name))
		}
		needsArg := r.When == DeviceArg || r.When == DeviceArgOrDefault || r.When == DeviceMapArg ||
			r.Role == RoleDevice || r.Role == RoleSetDefaultDevice
		if r.Role == RoleNVMLCheck && r.Shape != Import {
			t.Errorf("%s: only an import sets the NVML check", id)
		}
		hasArg := r.Device.Pos >= 0 || r.Device.Keyword != ""
		if needsArg && !hasArg {
			t.Errorf("%s: condition or role without a Device argument", id)
		}
		if !needsArg && r.Device != (ArgRef{}) {
			t.Errorf("%s: Device set on a row that neither tests nor builds a device", id)
		}
		if r.Role != RoleNone && r.Effect != NoEffect {
			t.Errorf("%s: device-role rows are NoEffect by themselves", id)
		}
		if r.When != Always && !r.Effect.Initializes() {
			t.Errorf("%s: a condition on a row that never initializes", id)
		}
		if root := strings.SplitN(r.Name, ".", 2)[0]; r.Effect.TouchesCUDA() && r.Shape != Method && !libs[root] && !slices.Contains(LocalFirst(), root) {
			t.Errorf("%s: touches CUDA, but %q is in neither Libraries() nor LocalFirst()", id, root)
		}
		if len(r.Off) > 0 && !r.Effect.Initializes() {
			t.Errorf("%s: a switch on a row that never initializes", id)
		}
		for _, sw := range r.Off {
			if sw.Arg.Keyword == "" && sw.Arg.Pos < 0 {
				t.Errorf("%s: a switch that names no argument", id)
			}
		}
		if r.AnyReceiver && (r.Shape != Method || r.When == Always) {
			t.Errorf("%s: AnyReceiver is for a Method row whose condition tells the API apart", id)
		}
	}
}

func TestCanonical(t *testing.T) {
	tests := []struct{ in, want string }{
		{"cuda.core.experimental", "cuda.core"},
		{"cuda.core.experimental.Device", "cuda.core.Device"},
		{"cuda.core.experimental.Device().create_stream", "cuda.core.Device().create_stream"},
		{"cuda.cuda.cuInit", "cuda.bindings.driver.cuInit"},
		{"cuda.cudart.cudaFree", "cuda.bindings.runtime.cudaFree"},
		{"tensorflow.compat.v1.Session", "tensorflow.Session"},
		{"tensorflow.compat.v1", "tensorflow"},
		{"torch.cuda.memory.memory_allocated", "torch.cuda.memory_allocated"},
		// prefixes match whole path segments only
		{"torch.cuda.memory_allocated", "torch.cuda.memory_allocated"},
		{"cuda.cudart_ext.f", "cuda.cudart_ext.f"},
		{"cuda.core.experimental_x", "cuda.core.experimental_x"},
		{"torch.amp.autocast_mode.autocast", "torch.autocast"},
		{"torch.cuda.is_available", "torch.cuda.is_available"},
		{"numpy.zeros", "numpy.zeros"},
	}
	for _, tt := range tests {
		if got := Canonical(tt.in); got != tt.want {
			t.Errorf("Canonical(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	for _, a := range aliases {
		for _, n := range []string{a.from, a.from + ".x", a.from + "().y"} {
			c := Canonical(n)
			if Canonical(c) != c {
				t.Errorf("Canonical is not idempotent on %q: %q then %q", n, c, Canonical(c))
			}
		}
	}
}

// The forkmatrix scenarios whose child failed (an error, an abort or a hang)
// started from these parent-side expressions, taken by hand from LIBS in
// forkmatrix.py ("init" and "drv") and from its helper and DataLoader scripts,
// resolved the way the model resolves them. Each must reach a row that
// initializes.
type resolved struct {
	shape Shape
	name  string
	// cudaKeyword is the keyword through which the expression passes 'cuda'
	// (conditional rows only).
	cudaKeyword string
}

var forkMatrixInitializers = map[string]struct {
	expr string
	refs []resolved
}{
	// import torch
	"torch/init": {"torch.zeros(1, device='cuda').sum().item()", []resolved{{Call, "torch.zeros", "device"}}},
	"torch/drv":  {"torch.cuda.is_available()", []resolved{{Call, "torch.cuda.is_available", ""}}},
	// helper_init.py / DataLoader script: X = torch.zeros(1, device='cuda')
	"torch/helper": {"torch.zeros(1, device='cuda')", []resolved{{Call, "torch.zeros", "device"}}},
	// import cupy
	"cupy/init": {"int(cupy.arange(3).sum())", []resolved{{Call, "cupy.arange", ""}}},
	"cupy/drv":  {"cupy.cuda.runtime.getDeviceCount()", []resolved{{Call, "cupy.cuda.runtime.getDeviceCount", ""}}},
	// import jax, jax.numpy as jnp
	"jax/init": {"jnp.zeros(3).block_until_ready()", []resolved{{Call, "jax.numpy.zeros", ""}}},
	"jax/drv":  {"jax.devices()", []resolved{{Call, "jax.devices", ""}}},
	// import numpy as np; from numba import cuda
	"numba/init": {"cuda.to_device(np.zeros(3)).copy_to_host()", []resolved{{Call, "numba.cuda.to_device", ""}}},
	"numba/drv":  {"len(cuda.gpus)", []resolved{{Attr, "numba.cuda.gpus", ""}}},
	// from cuda.core import Device
	"cuda.core/init": {"_d = Device(); _d.set_current(); _d.create_stream().sync()", []resolved{
		{Call, "cuda.core.Device", ""}, {Call, "cuda.core.Device().set_current", ""}, {Call, "cuda.core.Device().create_stream", ""}}},
	"cuda.core/drv": {"Device()", []resolved{{Call, "cuda.core.Device", ""}}},
	// from cuda.bindings import driver
	"cuda.bindings/init": {"assert driver.cuInit(0)[0] == driver.CUresult.CUDA_SUCCESS; ...", []resolved{{Call, "cuda.bindings.driver.cuInit", ""}}},
	"cuda.bindings/drv":  {"assert driver.cuInit(0)[0] == driver.CUresult.CUDA_SUCCESS", []resolved{{Call, "cuda.bindings.driver.cuInit", ""}}},
}

// which says which parent expression a scenario ran.
func which(s scenario) string {
	switch {
	case strings.Contains(s.Scenario, "driver-only init"):
		return s.Lib + "/drv"
	case strings.HasPrefix(s.Scenario, "forkserver: set_forkserver_preload"), strings.HasPrefix(s.Scenario, "DataLoader("):
		return s.Lib + "/helper"
	case strings.Contains(s.Scenario, "parent init"):
		return s.Lib + "/init"
	}
	return ""
}

func TestForkMatrixInitializersInitialize(t *testing.T) {
	failed := 0
	for _, s := range loadForkMatrix(t) {
		if !s.failed() {
			continue
		}
		failed++
		w := which(s)
		fi, ok := forkMatrixInitializers[w]
		if !ok {
			t.Errorf("forkmatrix %q failed, but no parent expression is listed for it (%q)", s.ref(), w)
			continue
		}
		for _, r := range fi.refs {
			e, ok := Lookup(r.shape, Canonical(r.name))
			if !ok {
				t.Errorf("forkmatrix %q: %s (%v %s) has no row", s.ref(), fi.expr, r.shape, r.name)
				continue
			}
			if !e.Effect.Initializes() {
				t.Errorf("forkmatrix %q: %s (%v %s) is %v, but the child failed", s.ref(), fi.expr, r.shape, r.name, e.Effect)
			}
			conditional := e.When == DeviceArg || e.When == DeviceArgOrDefault
			if conditional != (r.cudaKeyword != "") || (conditional && e.Device.Keyword != r.cudaKeyword) {
				t.Errorf("forkmatrix %q: %s: row %s takes its device from %+v, the expression passes 'cuda' as %q",
					s.ref(), fi.expr, e.Name, e.Device, r.cudaKeyword)
			}
		}
	}
	if failed < 20 {
		t.Errorf("only %d failing forkmatrix scenarios; is forkmatrix.json complete?", failed)
	}
}

// Fixtures under testdata/py/catalog/ tag the call each probe exercises on
// the line above it: "# row: <shape> <name>".
var rowTag = regexp.MustCompile(`^\s*# row: (\w+) (\S+)`)

const want = `# want "CFL001"`

func TestEveryRowHasFixture(t *testing.T) {
	files, err := filepath.Glob("../testdata/py/catalog/*.py")
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	byID := map[string]*Entry{}
	for i := range rows {
		byID[rowID(&rows[i])] = &rows[i]
	}
	tagged := map[string]bool{}
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		var lines []string
		sc := bufio.NewScanner(fh)
		for sc.Scan() {
			lines = append(lines, sc.Text())
		}
		fh.Close()
		for i, l := range lines {
			m := rowTag.FindStringSubmatch(l)
			if m == nil {
				continue
			}
			id := m[1] + " " + m[2]
			r, ok := byID[id]
			if !ok {
				t.Errorf("%s:%d: tag %q names no row", f, i+1, id)
				continue
			}
			tagged[id] = true
			// The tagged call is on the next line that is not a comment.
			j := i + 1
			for j < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[j]), "#") {
				j++
			}
			if j == len(lines) {
				t.Errorf("%s:%d: tag %q is followed by no code", f, i+1, id)
				continue
			}
			wants := strings.Contains(lines[j], want)
			if r.When == Always && len(r.Off) == 0 && wants != r.Effect.Initializes() {
				t.Errorf("%s:%d: %s is %v, but the tagged line %s", f, j+1, id, r.Effect,
					map[bool]string{true: "expects CFL001", false: "expects no finding"}[wants])
			}
			if !r.Effect.Initializes() && wants {
				t.Errorf("%s:%d: %s never initializes, but the tagged line expects CFL001", f, j+1, id)
			}
		}
	}
	for i := range rows {
		if id := rowID(&rows[i]); !tagged[id] {
			t.Errorf("row %s has no fixture probe (tag the call with \"# row: %s\")", id, id)
		}
	}
}
