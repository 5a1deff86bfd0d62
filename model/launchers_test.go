package model

import (
	"testing"

	"github.com/cudaforklint/cudaforklint/pytarget"
)

// launched is what a call of a launcher did: the starts it made now, the
// loader it made (a start when iterated), the object it returned, and what
// the children run.
type launched struct {
	starts, pending int
	obj             *Object
}

func launch(t *testing.T, src string) launched {
	t.Helper()
	r, _ := resolveLast(t, procPrelude+src)
	var l launched
	for _, e := range r.effects {
		switch e.kind {
		case effStart:
			l.starts++
			l.obj = e.obj
		case effPendingStart:
			l.pending++
			l.obj = e.obj
		}
	}
	for _, v := range r.values {
		if v.Kind == VObject {
			l.obj = v.Obj
		}
	}
	return l
}

func runs(o *Object, name string) bool {
	for _, t := range o.Targets {
		if t.Func != nil && t.Func.Name == name {
			return true
		}
	}
	return false
}

// TestNotebookLauncher: num_processes > 1 forks children that run the
// function; 1 runs it in place and an absent count raises.
func TestNotebookLauncher(t *testing.T) {
	tests := []struct {
		call   string
		starts bool
	}{
		{"accelerate.notebook_launcher(work, num_processes=2)", true},
		{"accelerate.notebook_launcher(work, (cuda_x,), 8)", true},
		{"accelerate.notebook_launcher(work, num_processes=n)", true}, // unknown: may fork
		{"accelerate.notebook_launcher(work, num_processes=1)", false},
		{"accelerate.notebook_launcher(work)", false},
		{"accelerate.launchers.notebook_launcher(work, args=(1,), num_processes=4)", true},
	}
	for _, tt := range tests {
		l := launch(t, "n = get()\n"+tt.call+"\n")
		if got := l.starts == 1; got != tt.starts {
			t.Errorf("%s: starts %d, want %v", tt.call, l.starts, tt.starts)
			continue
		}
		if !tt.starts {
			continue
		}
		o := l.obj
		if o.Kind != ObjSpawn || o.Method.Kind != MethodExplicit || o.Method.Method != pytarget.Fork || !runs(o, "work") {
			t.Errorf("%s: object %s, method %+v, targets %+v", tt.call, o.Kind, o.Method, o.Targets)
		}
	}
	if l := launch(t, "accelerate.notebook_launcher(work, (cuda_x,), 8)\n"); l.obj.ArgsDev != DevCUDA {
		t.Errorf("CUDA args not handed to the children")
	}
}

// TestTrainerStrategies: Lightning's strategy names pick the start method;
// other strategies start nothing the model follows; forked children on the
// CPU are left out; on a GPU the children use CUDA.
func TestTrainerStrategies(t *testing.T) {
	tests := []struct {
		call   string
		made   bool
		method pytarget.StartMethod
		gpu    bool
	}{
		{`lightning.Trainer(accelerator="gpu", devices=2, strategy="ddp_fork")`, true, pytarget.Fork, true},
		{`lightning.Trainer(strategy="ddp_notebook")`, true, pytarget.Fork, true},
		{`lightning.pytorch.Trainer(strategy="ddp_notebook_find_unused_parameters_true", accelerator="cuda")`, true, pytarget.Fork, true},
		{`pytorch_lightning.Trainer(strategy="ddp_spawn", accelerator="cpu")`, true, pytarget.Spawn, false},
		{`lightning.Fabric(strategy="ddp_fork", devices=2)`, true, pytarget.Fork, true},
		{`lightning.Trainer(strategy="ddp_fork", accelerator="cpu")`, false, 0, false},
		{`lightning.Trainer(strategy="ddp", accelerator="gpu")`, false, 0, false},
		{`lightning.Trainer(accelerator="gpu")`, false, 0, false},
		{`lightning.Trainer(strategy=s)`, false, 0, false},
	}
	for _, tt := range tests {
		l := launch(t, "s = get()\n"+tt.call+"\n")
		if got := l.obj != nil; got != tt.made {
			t.Errorf("%s: made an object %v, want %v", tt.call, got, tt.made)
			continue
		}
		if !tt.made {
			continue
		}
		o := l.obj
		gpu := len(o.Targets) == 1 && o.Targets[0].API != ""
		if o.Kind != ObjTrainer || l.starts != 0 || o.Method.Kind != MethodExplicit || o.Method.Method != tt.method || gpu != tt.gpu {
			t.Errorf("%s: object %s, starts %d, method %+v, GPU children %v (targets %+v)", tt.call, o.Kind, l.starts, o.Method, gpu, o.Targets)
		}
	}
	// The run methods start it.
	for _, run := range []string{"t.fit(model)", "t.validate(model)", "t.test(model)", "t.predict(model)"} {
		l := launch(t, "t = lightning.Trainer(strategy=\"ddp_fork\")\n"+run+"\n")
		if l.starts != 1 {
			t.Errorf("%s: starts %d", run, l.starts)
		}
	}
	l := launch(t, "f = lightning.Fabric(strategy=\"ddp_fork\")\nf.launch(work)\n")
	if l.starts != 1 || !runs(l.obj, "work") {
		t.Errorf("Fabric.launch(work): starts %d, targets %+v", l.starts, l.obj)
	}
}

// TestJoblibParallel: only the multiprocessing backend forks, when the
// Parallel is called; its children run the delayed functions.
func TestJoblibParallel(t *testing.T) {
	tests := []struct {
		src    string
		starts bool
	}{
		{`joblib.Parallel(n_jobs=2, backend="multiprocessing")(joblib.delayed(work)(i) for i in range(4))`, true},
		{`joblib.Parallel(2, "multiprocessing")([joblib.delayed(work)(1), joblib.delayed(work)(2)])`, true},
		{`joblib.Parallel(n_jobs=2)(joblib.delayed(work)(i) for i in range(4))`, false},
		{`joblib.Parallel(n_jobs=2, backend="loky")(joblib.delayed(work)(i) for i in range(4))`, false},
		{`joblib.Parallel(n_jobs=2, backend="threading")(joblib.delayed(work)(i) for i in range(4))`, false},
		// One job, the default, runs them in the calling process.
		{`joblib.Parallel(backend="multiprocessing")(joblib.delayed(work)(i) for i in range(4))`, false},
		{`joblib.Parallel(n_jobs=1, backend="multiprocessing")(joblib.delayed(work)(i) for i in range(4))`, false},
		{`joblib.Parallel(n_jobs=None, backend="multiprocessing")(joblib.delayed(work)(i) for i in range(4))`, false},
		{`joblib.Parallel(n_jobs=-1, backend="multiprocessing")(joblib.delayed(work)(i) for i in range(4))`, true},
		{`joblib.Parallel(n_jobs=jobs, backend="multiprocessing")(joblib.delayed(work)(i) for i in range(4))`, true},
	}
	for _, tt := range tests {
		l := launch(t, tt.src+"\n")
		if got := l.starts == 1; got != tt.starts {
			t.Errorf("%s: starts %d, want %v", tt.src, l.starts, tt.starts)
			continue
		}
		if tt.starts && (!runs(l.obj, "work") || l.obj.Method.Kind != MethodDefault) {
			t.Errorf("%s: targets %+v, method %+v", tt.src, l.obj.Targets, l.obj.Method)
		}
	}
}

// TestMapNumProc: a map or filter with num_proc > 1 on any receiver but a
// local function or a process object starts a multiprocess pool now.
func TestMapNumProc(t *testing.T) {
	tests := []struct {
		src    string
		starts bool
	}{
		{"ds = datasets.load_dataset('x')\nds['train'].map(work, batched=True, num_proc=4)", true},
		{"def prep(ds):\n    return ds.filter(work, num_proc=8)\nprep(None)\nds = get()\nds.filter(work, num_proc=8)", true},
		{"ds = get()\nds.map(work, num_proc=n)", true},
		{"ds = get()\nds.map(work, num_proc=1)", false},
		{"ds = get()\nds.map(work, num_proc=None)", false},
		{"ds = get()\nds.map(work)", false},
		{"p = multiprocessing.Pool(2)\np.map(work, [1, 2], num_proc=2)", false}, // the pool's own map
		{"class D:\n    def map(self, f, num_proc=1):\n        pass\nD().map(work, num_proc=4)", false},
	}
	for _, tt := range tests {
		l := launch(t, "import datasets\nn = get()\n"+tt.src+"\n")
		if got := l.starts == 1 && l.obj.Kind == ObjPool; got != tt.starts {
			t.Errorf("%q: starts %d, want %v", tt.src, l.starts, tt.starts)
			continue
		}
		if tt.starts && (!runs(l.obj, "work") || l.obj.Method.Family != "multiprocess") {
			t.Errorf("%q: targets %+v, method %+v", tt.src, l.obj.Targets, l.obj.Method)
		}
	}
}

// TestLoaderSubclasses: a local subclass of a DataLoader row forks workers
// when iterated, with its count read by keyword, from its own __init__'s
// default, or from what it hands to super().__init__.
func TestLoaderSubclasses(t *testing.T) {
	tests := []struct {
		src     string
		pending bool
		dataset bool
	}{
		{"class L(torch.utils.data.DataLoader):\n    pass\nL(DS(), 4, num_workers=2)", true, true},
		{"class L(torch.utils.data.DataLoader):\n    pass\nL(DS(), 4)", false, false},
		{"class L(torch.utils.data.DataLoader):\n    def __init__(self, ds, **kw):\n        super().__init__(ds, **kw)\nL(DS(), num_workers=4)", true, true},
		{"class L(torch.utils.data.DataLoader):\n    def __init__(self, ds, bs, nw):\n        super().__init__(ds, bs, num_workers=nw)\nL(DS(), 2, 4)", false, false},
		{"class L(torch.utils.data.DataLoader):\n    def __init__(self, ds, num_workers=8):\n        super().__init__(ds, num_workers=num_workers)\nL(DS())", true, true},
		{"class L(torch.utils.data.DataLoader):\n    def __init__(self, ds):\n        super().__init__(ds, batch_size=1, num_workers=6)\nL(dataset=DS())", true, true},
		{"class L(torch.utils.data.DataLoader):\n    def __init__(self, ds, num_workers=0):\n        super().__init__(ds, num_workers=num_workers)\nL(DS())", false, false},
		{"class Base(torch.utils.data.DataLoader):\n    pass\nclass L(Base):\n    pass\nL(DS(), num_workers=3)", true, true},
		{"class N(torch_geometric.loader.NeighborLoader):\n    pass\nN(data, num_neighbors=[5], num_workers=3)", true, false},
	}
	for _, tt := range tests {
		l := launch(t, "data = get()\n"+tt.src+"\n")
		if got := l.pending == 1 && l.obj.Kind == ObjLoader; got != tt.pending {
			t.Errorf("%q: pending starts %d, want %v", tt.src, l.pending, tt.pending)
			continue
		}
		if tt.pending && runs(l.obj, "__getitem__") != tt.dataset {
			t.Errorf("%q: targets %+v, want the dataset %v", tt.src, l.obj.Targets, tt.dataset)
		}
	}
}
