package model

import (
	"testing"

	"github.com/cudaforklint/cudaforklint/syntax"
)

// TestDevices checks where values live: factories by their device argument,
// methods keeping, moving or leaving the device, and what reads of
// metadata give.
func TestDevices(t *testing.T) {
	prelude := "import os\nimport torch\nimport numpy as np\nimport cupy\nfrom numba import cuda\n" +
		"dev = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\n" +
		"gpu = torch.zeros(3, device='cuda')\n"
	tests := []struct {
		expr string
		want Device
	}{
		{"torch.tensor([1, 2])", DevDefault},
		{"torch.tensor([1, 2]).float()", DevDefault},
		{"torch.zeros(3, device='cpu')", DevCPU},
		{"torch.zeros(3, device='cuda:1')", DevCUDA},
		{"torch.zeros(3, device=dev)", DevCUDA},
		{"torch.zeros(3, device=None)", DevDefault},
		{"torch.zeros(3, device=os.environ['D'])", DevUnknown},
		{"torch.randperm(8).tolist()", DevNone},
		{"torch.arange(8, dtype=torch.int).numpy()", DevCPU},
		{"torch.zeros(3).sum().item()", DevNone},
		{"torch.from_numpy(np.ones(3)).float()", DevNone},
		{"torch.ones(3).cuda()", DevCUDA},
		{"torch.ones(3).to('cuda')", DevCUDA},
		{"torch.ones(3).to(dev)", DevCUDA},
		{"gpu.float()", DevCUDA},
		{"gpu.to(torch.float16)", DevCUDA},
		{"gpu.to('cpu')", DevCPU},
		{"gpu.cpu().numpy()", DevCPU},
		{"gpu.item()", DevNone},
		{"gpu.shape", DevNone},
		{"gpu.size(0)", DevNone},
		{"gpu[0]", DevCUDA},
		{"gpu * 2", DevCUDA},
		{"torch.stack([gpu, gpu])", DevCUDA},
		{"torch.utils.data.TensorDataset(gpu)", DevCUDA},
		{"torch.stack([torch.ones(2)])", DevDefault},
		{"torch.nn.Linear(2, 2)", DevDefault},
		{"torch.nn.Linear(2, 2, device='cpu')", DevCPU},
		{"torch.nn.Linear(2, 2).cuda()", DevCUDA},
		{"torch.cuda.is_available()", DevNone},
		{"cupy.arange(3)", DevCUDA},
		{"cupy.arange(3).get()", DevCPU},
		{"np.arange(3)", DevNone},
		{"cuda.to_device(np.ones(3))", DevCUDA},
		{"cuda.to_device(np.ones(3)).copy_to_host()", DevCPU},
		{"list(gpu.chunk(2))[0]", DevCUDA},
		{"torch.ones_like(gpu)", DevCUDA},
		{"torch.ones_like(torch.tensor([1, 2])).bool()", DevDefault},
		{"torch.zeros_like(gpu, device='cpu')", DevCPU},
		{"torch.zeros(2).to(torch.ones_like(torch.zeros(2, device='cpu')).device)", DevCPU},
		{"(gpu if os.environ['G'] else None).float()", DevCUDA},
		{"torch.zeros(2, device=(torch.ones(2, device='cpu') if os.environ['G'] else None).device)", DevCPU},
	}
	for _, tt := range tests {
		d := heldBy(t, prelude, tt.expr)
		if d != tt.want {
			t.Errorf("%s: on %v, want %v", tt.expr, d, tt.want)
		}
	}
}

// TestDeviceNamed checks what device arguments name.
func TestDeviceNamed(t *testing.T) {
	tests := []struct {
		expr string
		want Device
	}{
		{"'cuda'", DevCUDA},
		{"'cuda:0'", DevCUDA},
		{"f'cuda:{rank}'", DevCUDA},
		{"0", DevCUDA},
		{"-1", DevCPU},
		{"'cpu'", DevCPU},
		{"None", DevDefault},
		{"torch.device('cpu')", DevCPU},
		{"torch.device('cuda', 1)", DevCUDA},
		{"torch.float16", DevNone},
		{"self.dtype", DevNone},
		{"unknown_name", DevUnknown},
		{"f'{where}'", DevUnknown},
	}
	for _, tt := range tests {
		m := load(t, memSource{"/p/m.py": "import torch\nrank = 0\nx = " + tt.expr + "\n"}, "/p/m.py")
		b := m.Scope.Bindings["x"][0]
		var ev evaluator
		if got := ev.deviceNamed(b.Value, m.Scope); got != tt.want {
			t.Errorf("%s names %v, want %v", tt.expr, got, tt.want)
		}
	}
}

// TestDeviceOrTensorJoinedWithGPU checks what an argument names where a
// device is expected when one of its values is a GPU device and another a
// value the model cannot place: a device (the GPU wins the join, as for any
// device joined with one the model could not evaluate), or a torch tensor
// whose device x.to(other) adopts (then where it moves is unknown).
func TestDeviceOrTensorJoinedWithGPU(t *testing.T) {
	for _, tt := range []struct {
		name, other string
		want        Device
	}{
		// yolov5's validation: the GPU when run alone, else the trained
		// model's own device (a module known by its library base class).
		{"module's .device", "Detector().device", DevCUDA},
		// DGL's test backends: torch's device, or MXNet's context.
		{"another library's device object", "mxnet.gpu()", DevCUDA},
		{"a torch tensor", "torch.as_tensor(affine)", DevUnknown},
	} {
		src := "import sys\nimport mxnet\nimport torch\n\nclass Detector(torch.nn.Module):\n    pass\n\naffine = [1.0]\n" +
			"x = torch.device('cuda:0') if len(sys.argv) > 1 else " + tt.other + "\n"
		m := load(t, memSource{"/p/m.py": src}, "/p/m.py")
		b := m.Scope.Bindings["x"][0]
		var ev evaluator
		if got := ev.deviceNamed(b.Value, m.Scope); got != tt.want {
			t.Errorf("%s: names %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestUnpackOfUnknownLength checks that names unpacked from a list whose
// length the model cannot tell (a comprehension's one representative
// element) each get its elements.
func TestUnpackOfUnknownLength(t *testing.T) {
	src := "import torch\ngpu = torch.zeros(3, device='cuda')\n" +
		"a, b, x = (t.detach() for t in (gpu, gpu, gpu))\n"
	m := load(t, memSource{"/p/m.py": src}, "/p/m.py")
	d := DevNone
	for _, v := range m.Eval(&syntax.Name{ID: "x"}, m.Scope) {
		d = d.join(held(v))
	}
	if d != DevCUDA {
		t.Errorf("x: on %v, want %v", d, DevCUDA)
	}
}

// TestPlainReadsOfValuesKnownByDevice checks what reading an attribute of
// a value the model knows only by its device (an element of a checkpoint
// loaded onto the GPU) gives: a plain read, possibly on the GPU, as the
// same read of a library path is; a tensor attribute, an element, or
// calling the read (a submodule's forward) stays on the GPU; a method or
// an attribute of the read is only possibly there.
func TestPlainReadsOfValuesKnownByDevice(t *testing.T) {
	prelude := "import os\nimport torch\n" +
		"model, step = torch.load('model.pt', map_location='cuda')\n" +
		"gpu = torch.zeros(3, device='cuda')\n"
	tests := []struct {
		expr string
		want Device
	}{
		{"model", DevCUDA},
		{"model.cfg", DevUnknown},
		{"model.cfg.sample_rate", DevUnknown},
		{"model.weight", DevCUDA},
		{"model.cfg.weight", DevCUDA},
		{"model.encoder(gpu)", DevCUDA},
		{"model.tokenizer.decode(gpu)", DevUnknown},
		{"model.cfg.sample_rate.float()", DevUnknown},
		{"model.cfg.device", DevNone},
		{"model.cfg.shape", DevNone},
	}
	for _, tt := range tests {
		d := heldBy(t, prelude, tt.expr)
		if d != tt.want {
			t.Errorf("%s: holds %v, want %v", tt.expr, d, tt.want)
		}
	}
}

// TestMergeHoldsTheMostCertain checks the one value that stands for
// several (a tuple's element bound in two branches): it holds what the
// most certain of them holds, whichever comes first. A plain read of a GPU
// object among them is a possible GPU value, not a certain one; a value
// certainly on the GPU among them keeps the representative certain.
func TestMergeHoldsTheMostCertain(t *testing.T) {
	none := Value{Kind: VConst, Int: int(syntax.ConstNone)}
	processor := Value{Kind: VPath, Path: "transformers.AutoModel.from_pretrained().get_vision_tower().image_processor", Dev: DevCUDA}
	sampleRate := Value{Kind: VUnknown, Dev: DevCUDA, Read: true}
	tensor := Value{Kind: VPath, Path: "torch.zeros()", Dev: DevCUDA}
	module := Value{Kind: VUnknown, Dev: DevCUDA}
	cpu := Value{Kind: VPath, Path: "torch.zeros()", Dev: DevCPU}
	name := Value{Kind: VStr, Str: "bert-base-uncased"}
	tests := []struct {
		name string
		vs   []Value
		want Device
	}{
		{"None or a GPU model's processor", []Value{none, processor}, DevUnknown},
		{"a GPU model's processor or None", []Value{processor, none}, DevUnknown},
		{"None or a GPU checkpoint's sample rate", []Value{none, sampleRate}, DevUnknown},
		{"a GPU checkpoint's sample rate or a processor", []Value{sampleRate, processor}, DevUnknown},
		{"a CPU tensor or a GPU model's processor", []Value{cpu, processor}, DevUnknown},
		{"None or a GPU tensor", []Value{none, tensor}, DevCUDA},
		{"a GPU model's processor or a GPU tensor", []Value{processor, tensor}, DevCUDA},
		{"a GPU checkpoint's sample rate or a GPU module", []Value{sampleRate, module}, DevCUDA},
		{"a model's name or a GPU tensor", []Value{name, tensor}, DevCUDA},
		{"None or a CPU tensor", []Value{none, cpu}, DevCPU},
	}
	for _, tt := range tests {
		if got := held(merge(tt.vs)); got != tt.want {
			t.Errorf("%s: merged holds %v, want %v", tt.name, got, tt.want)
		}
	}
}

// heldBy is the device that the values of expr, evaluated after prelude
// in a module of its own, hold.
func heldBy(t *testing.T, prelude, expr string) Device {
	t.Helper()
	m := load(t, memSource{"/p/m.py": prelude + "x = " + expr + "\n"}, "/p/m.py")
	d := DevNone
	for _, v := range m.Eval(&syntax.Name{ID: "x"}, m.Scope) {
		d = d.join(held(v))
	}
	return d
}
