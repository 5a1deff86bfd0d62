package model

import (
	"strings"

	"github.com/cudaforklint/cudaforklint/syntax"
)

// Where a value lives. Tensors, modules, arrays and device objects carry an
// abstract device (Value.Dev), so that a method called on a tensor the child
// built on the CPU (torch.tensor([i]).float()) is not taken for CUDA use
// while the same method on a tensor the parent moved to the GPU is.
//
// The lattice, from "nothing to fear" to "uses CUDA":
//
//	DevNone < DevCPU < DevDefault < DevUnknown < DevCUDA
//
// Joining two possibilities keeps the worse one: a value that may be on the
// GPU is treated as on the GPU (the model is a may-analysis), one that may be
// anywhere stays unknown. DevDefault is torch's default device at the time
// the tensor was made: the CPU, unless torch.set_default_device("cuda") ran
// earlier in the process, which only the simulation knows (effects that
// depend on it carry condDefaultDevice).

// Device is where a value lives, or the device a device object names.
type Device uint8

const (
	// DevNone: not known to hold device memory (Python data, numbers, a
	// library object, a value the model could not evaluate at all).
	DevNone Device = iota
	// DevCPU: host memory (a tensor made without a device or with
	// device="cpu", from numpy or Python data, after .cpu() or .numpy()), or a
	// device object or string naming the CPU.
	DevCPU
	// DevDefault: torch's default device when the tensor was made.
	DevDefault
	// DevUnknown: placed on a device the model could not evaluate
	// (device=dev where dev is a parameter nothing binds).
	DevUnknown
	// DevCUDA: GPU memory (a tensor or module moved to the GPU, a cupy or
	// jax array, a numba device array, a CUDA stream), or a device object,
	// string or index naming a GPU.
	DevCUDA
)

func (d Device) String() string {
	return [...]string{"none", "cpu", "default", "unknown", "cuda"}[d]
}

// join is the device of a value that may live on d or on o.
func (d Device) join(o Device) Device { return max(d, o) }

// held is the device memory a value holds: its device, except for strings
// and device objects, which only name one.
func held(v Value) Device {
	if v.Kind == VStr || v.Kind == VDevice {
		return DevNone
	}
	if v.Dev == DevCUDA && plainRead(v) {
		return DevUnknown
	}
	return v.Dev
}

// heldDeep is held joined over the elements of lists, dicts and namespaces,
// to depth 3 (an args tuple of lists of tensors).
func heldDeep(vs []Value, depth int) Device {
	d := DevNone
	for _, v := range vs {
		d = d.join(held(v))
		if (v.Kind == VList || v.Kind == VDict) && depth < 3 {
			d = d.join(heldDeep(v.elems(), depth+1))
		}
	}
	return d
}

// deviceUse is the effect of touching, at site, a value on device d: a CUDA
// use, a use that only happens when the default device is CUDA, a possible
// use (the device could not be evaluated), or nothing for host values. api
// names the use for messages.
func deviceUse(d Device, api string, site Site) (effect, bool) {
	switch d {
	case DevCUDA:
		return effect{kind: effUse, api: api, site: site}, true
	case DevDefault:
		return effect{kind: effUse, cond: condDefaultDevice, api: api, site: site}, true
	case DevUnknown:
		return effect{kind: effMaybeUse, api: api, site: site}, true
	}
	return effect{}, false
}

// deviceNamed is the device an argument that names one evaluates to,
// joined over its possible values: "cuda", "cuda:1", f"cuda:{rank}", a
// device index, torch.device("cuda"), a tensor's .device name CUDA; "cpu"
// and other device types the CPU; None the default device; a dtype
// (x.to(torch.float16)) names none (DevNone); anything the model cannot
// evaluate is DevUnknown.
func (ev *evaluator) deviceNamed(e syntax.Expr, sc *Scope) Device {
	if namesDtype(e) {
		return DevNone
	}
	d := DevNone
	var like []Device // devices of the tensors among the values (x.to(other))
	mixed := false
	for _, v := range ev.expr(e, sc) {
		if namesByMemory(v) {
			like = append(like, namedDevice(v))
			continue
		}
		mixed = mixed || namesNoDevice(v)
		d = d.join(namedDevice(v))
	}
	switch t := likeDevice(like); {
	case len(like) == 0:
		if mixed && d == DevCUDA {
			// An index or "cuda" among values that are no device at all
			// (an affine read from a scan's metadata through a key the
			// model cannot evaluate may be its "LPS", its 0 or its
			// array): which one the call gets could not be told.
			return DevUnknown
		}
		return d
	case d == DevNone || d == t:
		return t
	}
	// A tensor, or else a device string or index (an affine the model also
	// saw bound to "LPS" or 0): where the call moves to could not be told.
	return DevUnknown
}

// namesNoDevice reports whether v, passed where a device is expected,
// cannot be one: a string that names no device type ("LPS", "RAS"; torch
// rejects it), a container. A set of values holding one is not the
// evaluation of a device, whatever else it holds.
func namesNoDevice(v Value) bool {
	switch v.Kind {
	case VStr:
		if v.Interp || strings.HasPrefix(v.Str, "torch.") {
			return false // f"{kind}:{rank}"; a tensor type name
		}
		kind, _, _ := strings.Cut(v.Str, ":")
		return !deviceTypes[kind]
	case VList, VDict, VNamespace:
		return true
	}
	return false
}

// deviceTypes are the device type names a device string starts with:
// torch's (c10/core/DeviceType.h), the names backends rename its private
// one to (npu, musa), and the words other libraries and device maps take
// for a device ("gpu", "auto").
var deviceTypes = map[string]bool{
	"cpu": true, "cuda": true, "mps": true, "xpu": true, "meta": true, "hip": true, "xla": true,
	"lazy": true, "vulkan": true, "metal": true, "ipu": true, "hpu": true, "ve": true, "fpga": true,
	"maia": true, "mtia": true, "privateuseone": true, "opengl": true, "opencl": true, "ideep": true,
	"mkldnn": true, "npu": true, "musa": true, "gpu": true, "tpu": true, "auto": true,
}

// namesByMemory reports whether v, passed where a device is expected, is a
// tensor or array whose device the call adopts (x.to(affine)) rather than
// a device, a device string or an index: a call's result, or a value the
// model placed on a device. An object's `.device` attribute
// (`model.device` of a library module, `batch.device`) is a torch.device,
// whatever object it was read from: it names a device, not memory. A
// call's result of another library that the model placed on no device is
// no torch tensor (x.to(other) takes only those): a device object of that
// library (`mxnet.gpu()`, where a test suite's backend module picks
// torch's, MXNet's or TensorFlow's device by the backend that runs).
func namesByMemory(v Value) bool {
	switch v.Kind {
	case VStr, VInt, VConst, VDevice:
		return false
	case VPath:
		if strings.HasSuffix(v.Path, ".device") {
			return false
		}
		if v.Dev == DevNone && !strings.HasPrefix(v.Path, "torch.") {
			return false
		}
		return !isDtypePath(v.Path) && (v.Dev != DevNone || strings.Contains(v.Path, "()"))
	}
	return v.Dev != DevNone
}

// likeDevice is the device of x.to(other) where other is one of tensors on
// devs: other's own device when they agree, and unknown when they do not
// (an affine that is a CPU tensor in one call and a GPU one in another):
// a possible use, never a certain one.
func likeDevice(devs []Device) Device {
	if len(devs) == 0 {
		return DevNone
	}
	for _, d := range devs[1:] {
		if d != devs[0] {
			return DevUnknown
		}
	}
	return devs[0]
}

func namedDevice(v Value) Device {
	switch v.Kind {
	case VStr:
		switch {
		case strings.HasPrefix(v.Str, "cuda"), strings.HasPrefix(v.Str, "torch.cuda."):
			// "torch.cuda.FloatTensor" names a CUDA tensor type
			// (set_default_tensor_type).
			return DevCUDA
		case v.Interp && v.Str == "":
			return DevUnknown // f"{device}"
		}
		return DevCPU
	case VInt:
		if v.Int < 0 {
			return DevCPU // transformers' pipeline(device=-1): the CPU
		}
		return DevCUDA // a device index
	case VConst:
		if v.Int == int(syntax.ConstNone) {
			return DevDefault
		}
		return DevCPU
	case VDevice:
		if v.Dev == DevNone {
			return DevUnknown
		}
		return v.Dev
	case VPath:
		if isDtypePath(v.Path) {
			return DevNone
		}
	}
	if v.Dev != DevNone {
		return v.Dev // x.to(other) moves x to other's device
	}
	return DevUnknown
}

// namesDtype recognises an argument written as a dtype (dtype,
// self.dtype, x.dtype, weight_dtype): x.to() takes dtypes as well as
// devices, and a dtype the model cannot evaluate is still not a device.
func namesDtype(e syntax.Expr) bool {
	switch e := e.(type) {
	case *syntax.Name:
		return strings.Contains(e.ID, "dtype")
	case *syntax.Attribute:
		return strings.Contains(e.Attr, "dtype")
	}
	return false
}

// isDtypePath recognises torch's and numpy's dtypes, which x.to() also takes.
func isDtypePath(path string) bool {
	for _, lib := range []string{"torch.", "numpy."} {
		if name, ok := strings.CutPrefix(path, lib); ok && dtypeNames[name] {
			return true
		}
	}
	return false
}

var dtypeNames = map[string]bool{
	"float": true, "float16": true, "float32": true, "float64": true, "half": true, "double": true,
	"bfloat16": true, "float8_e4m3fn": true, "float8_e5m2": true,
	"int": true, "int8": true, "int16": true, "int32": true, "int64": true, "long": true, "short": true,
	"uint8": true, "uint16": true, "uint32": true, "uint64": true, "bool": true, "bool_": true,
	"complex64": true, "complex128": true, "cfloat": true, "cdouble": true,
	"channels_last": true, "contiguous_format": true, "preserve_format": true,
}

// hostMethods return host data: calling one on a CUDA tensor copies from the
// GPU (a use), but the result lives on the host.
var hostMethods = map[string]bool{
	"cpu": true, "numpy": true, "item": true, "tolist": true,
	"copy_to_host": true, // numba device arrays
	"get":          true, // cupy arrays
}

// metadataMethods and metadataAttrs read a tensor's metadata, which lives
// on the host: they neither touch CUDA nor return device memory.
var metadataMethods = map[string]bool{
	"size": true, "dim": true, "ndimension": true, "numel": true, "nelement": true, "stride": true,
	"element_size": true, "is_contiguous": true, "get_device": true, "is_floating_point": true,
	"is_complex": true,
}

var metadataAttrs = map[string]bool{
	"shape": true, "dtype": true, "ndim": true, "is_cuda": true, "requires_grad": true, "layout": true,
	"is_leaf": true, "names": true, "nbytes": true, "itemsize": true, "size": true,
}

// methodResult is where the result of calling method name (with no catalog
// row that moves it) on a value on device d lives.
func methodResult(d Device, name string) Device {
	switch {
	case name == "item" || name == "tolist" || metadataMethods[name]:
		return DevNone // Python data
	case hostMethods[name] && d != DevNone:
		return DevCPU
	}
	return d
}

// attrResult is the value of reading attribute name of v, a value the
// model knows by its device (other than a method): its metadata is host
// data, x.device names the device, one of tensorAttrs (x.T, x.data,
// x.grad, a module's weight) lives where x does, and anything else
// (out.lengths, checkpoint.cfg) is a plain read of x, marked Read as a
// library path's shape would show it (plainRead).
func attrResult(v Value, name string) Value {
	switch {
	case name == "device" && v.Dev != DevNone:
		return Value{Kind: VDevice, Dev: v.Dev}
	case metadataAttrs[name]:
		return Value{Kind: VUnknown}
	}
	return Value{Kind: VUnknown, Dev: readDevice(v, name), Read: !tensorAttrs[name]}
}

// readDevice is the device of attribute name read from v: v's own, except
// that an attribute of a marked plain read (Read) other than one of
// tensorAttrs is only possibly on the GPU, as calledDevice has it for the
// attribute of a path that shows the read (a tokenizer's method, a
// processor's image_mean).
func readDevice(v Value, name string) Device {
	if v.Read && v.Dev == DevCUDA && !tensorAttrs[name] {
		return DevUnknown
	}
	return v.Dev
}

// blockDevice is the default device that `with torch.device(d):` blocks
// enclosing call c in its own scope give it: a factory or a module built
// there without device= allocates on d (probes-2026-12.md: `with
// torch.device('cuda'): m = torch.nn.Linear(2, 2)` initializes CUDA), in
// the parent and in a child alike. The innermost such block wins; DevNone
// when none encloses c. What functions called inside the block allocate is
// the simulation's business: the block sets the default device of the
// simulated process while it runs (summary.go, simulate.go).
func (ev *evaluator) blockDevice(c *syntax.Call, sc *Scope) Device {
	withs, ok := sc.Module.withs[sc]
	if !ok {
		eachBlock(sc.body(), false, func(block []syntax.Stmt, _ bool) { // dominance.go
			for _, s := range block {
				if w, ok := s.(*syntax.With); ok {
					withs = append(withs, w)
				}
			}
		})
		if sc.Module.withs == nil {
			sc.Module.withs = map[*Scope][]*syntax.With{}
		}
		sc.Module.withs[sc] = withs
	}
	at := c.Pos().Start
	d, inner := DevNone, syntax.Span{Start: -1, End: 1<<31 - 1}
	for _, w := range withs {
		if len(w.Body) == 0 || at < w.Body[0].Pos().Start || at >= w.Span.End || w.Span.Len() > inner.Len() {
			continue
		}
		for _, it := range w.Items {
			if bd := ev.withDevice(it.Value, sc); bd != DevNone {
				d, inner = bd, w.Span
			}
		}
	}
	return d
}

// withDevice is the device a with item makes the default inside its block:
// the device a torch.device object names (DevUnknown for one the model
// cannot evaluate), DevNone for an item that is no device.
func (ev *evaluator) withDevice(item syntax.Expr, sc *Scope) Device {
	d := DevNone
	for _, v := range ev.expr(item, sc) {
		if v.Kind == VDevice {
			d = d.join(namedDevice(v))
		}
	}
	return d
}

// outerDevice is the default device a device block replaced.
type outerDevice uint8

const (
	outerNone outerDevice = iota // no device block is running
	outerCPU
	outerCUDA
)

// Local modules placed on a device. A local subclass of a library module
// (torch.nn.Module, a transformers PreTrainedModel) made by its library
// base's factory (Model.from_pretrained(...)) or moved by its methods
// (model.to("cuda"), model.half().eval()) is still the local instance,
// now on the device the call names: its methods are the class's own,
// whose bodies say what they touch (a CPU preprocessing step touches
// nothing, a forward touches the device), rather than unknown methods of
// a GPU object, each a use.

// receiverMethods are torch.nn.Module's methods that return the module
// they are called on (moved or cast in place).
var receiverMethods = map[string]bool{
	"to": true, "cuda": true, "cpu": true, "half": true, "float": true, "double": true, "bfloat16": true,
	"train": true, "eval": true, "requires_grad_": true, "share_memory": true, "to_empty": true,
}

// classFactories are library classmethods that return an instance of the
// class they are called on (transformers' and Lightning's loaders).
var classFactories = map[string]bool{
	"from_pretrained": true, "from_config": true, "load_from_checkpoint": true,
}

// returnsReceiver turns the values pathCall added to r from index n, for
// calling v, one of receiverMethods or classFactories of a local class's
// library base, into the local instance, on the device the call left
// them on (the catalog's row for .to(): its device argument, or the
// receiver's).
func (ev *evaluator) returnsReceiver(r *callResult, n int, v Value, name string) {
	if v.Self == nil || !(receiverMethods[name] || classFactories[name]) {
		return
	}
	dev := v.Dev
	if len(r.values) > n {
		dev = DevNone
		for _, x := range r.values[n:] {
			dev = dev.join(x.Dev)
		}
	}
	r.values = append(r.values[:n], Value{Kind: VInstance, Class: v.Self, Env: v.Env, Dev: dev})
}

// movedParts are vs, the values of an attribute of v, a local instance on
// a device, as moving v placed them: its submodules (local modules,
// torch.nn layers) moved with it; anything else (a tokenizer, a config,
// a plain tensor attribute, which Module.to does not move) as stored.
func (ev *evaluator) movedParts(v Value, vs []Value) []Value {
	if v.Dev == DevNone {
		return vs
	}
	var out []Value
	for i, x := range vs {
		if x.Dev == v.Dev || !ev.isTorchModule(x) {
			continue
		}
		if out == nil {
			out = append([]Value(nil), vs...)
		}
		out[i].Dev = v.Dev
	}
	if out == nil {
		return vs
	}
	return out
}

// isTorchModule reports whether x is a torch module: a torch.nn layer, or an
// instance of a local class with a module among its library bases.
func (ev *evaluator) isTorchModule(x Value) bool {
	switch x.Kind {
	case VPath:
		return strings.HasPrefix(x.Path, "torch.nn.") && !strings.HasPrefix(x.Path, "torch.nn.functional.") && !strings.HasPrefix(x.Path, "torch.nn.init.")
	case VInstance:
		for _, b := range ev.basePaths(x.Class, 0) {
			if strings.HasPrefix(b, "torch.nn.") || strings.HasSuffix(b, "PreTrainedModel") || strings.HasSuffix(b, "LightningModule") {
				return true
			}
		}
	}
	return false
}
