package model

import (
	"testing"

	"github.com/cudaforklint/cudaforklint/syntax"
)

// TestInitializerConditions checks the conditions of the rows above torch:
// a flag that keeps the library on the CPU, a device map that places
// weights on a GPU, a method row that applies to a library class.
func TestInitializerConditions(t *testing.T) {
	tests := []struct {
		call string
		init bool
	}{
		{`accelerate.Accelerator()`, true},
		{`accelerate.Accelerator(mixed_precision="fp16")`, true},
		{`accelerate.Accelerator(cpu=True)`, false},
		{`accelerate.Accelerator(cpu=False)`, true},
		// unknown: proves no initialization (a possible use, TestSwitches)
		{`accelerate.Accelerator(cpu=flag)`, false},
		{`transformers.TrainingArguments(output_dir="o")`, true},
		{`transformers.TrainingArguments(output_dir="o", use_cpu=True)`, false},
		{`transformers.TrainingArguments(output_dir="o", no_cuda=True)`, false},
		{`transformers.AutoModel.from_pretrained("m")`, false},
		{`transformers.AutoModel.from_pretrained("m", device_map="auto")`, true},
		{`transformers.AutoModel.from_pretrained("m", device_map="balanced_low_0")`, true},
		{`transformers.AutoModel.from_pretrained("m", device_map="cuda:1")`, true},
		{`transformers.AutoModel.from_pretrained("m", device_map=0)`, true},
		{`transformers.AutoModel.from_pretrained("m", device_map={"": 0})`, true},
		{`transformers.AutoModel.from_pretrained("m", device_map={"": "cpu"})`, false},
		{`transformers.AutoModel.from_pretrained("m", device_map="cpu")`, false},
		{`transformers.AutoModel.from_pretrained("m", device_map=f"cuda:{rank}")`, true},
		{`transformers.AutoModel.from_pretrained("m", device_map=args.device_map)`, false},
		{`loaded.from_pretrained("m", device_map="auto")`, true},
		{`transformers.pipeline("fill-mask", model="m")`, true},
		{`transformers.pipeline("fill-mask", model="m", device=-1)`, false},
		{`transformers.pipeline("fill-mask", model="m", device="cpu")`, false},
		{`transformers.pipeline("fill-mask", model="m", device=1)`, true},
		{`sentence_transformers.SentenceTransformer("m", None, "cpu")`, false},
		{`sentence_transformers.SentenceTransformer("m")`, true},
	}
	for _, tt := range tests {
		src := "import accelerate, transformers, sentence_transformers\nloaded = load()\n" + tt.call + "\n"
		r, _ := resolveLast(t, src)
		got := false
		for _, e := range r.effects {
			got = got || e.kind == effInit
		}
		if got != tt.init {
			t.Errorf("%s: initializes %v, want %v", tt.call, got, tt.init)
		}
	}
}

// TestLocalFirstRowsStayOutOfTheirProject: a DeepSpeed row applies to a
// project that uses the installed library, not inside DeepSpeed's own tree.
func TestLocalFirstRowsStayOutOfTheirProject(t *testing.T) {
	src := "from deepspeed.accelerator import get_accelerator\nget_accelerator()\n"
	for _, tt := range []struct {
		files map[string]string
		init  bool
	}{
		{memSource{"/p/m.py": src}, true},
		{memSource{"/p/m.py": src, "/p/deepspeed/__init__.py": ""}, false},
	} {
		m := load(t, tt.files, "/p/m.py")
		call := m.File.Body[len(m.File.Body)-1].(*syntax.ExprStmt).X.(*syntax.Call)
		var ev evaluator
		r := ev.resolveCall(call, m.Scope)
		got := false
		for _, e := range r.effects {
			got = got || e.kind == effInit
		}
		if got != tt.init {
			t.Errorf("files %v: initializes %v, want %v", len(tt.files), got, tt.init)
		}
	}
}

// TestSwitches checks the arguments that switch an initializer off
// (catalog.Switch): a literal or a resolved constant that turns it off
// stops it, one that leaves it on keeps it, and one the model cannot
// evaluate records no initialization but a possible use naming it.
func TestSwitches(t *testing.T) {
	tests := []struct {
		call  string
		init  bool
		maybe string // the possible use's text, "" for none
	}{
		{`torch.autocast("cuda")`, true, ""},
		{`torch.autocast("cuda", enabled=False)`, false, ""},
		{`torch.autocast("cuda", torch.float16, False)`, false, ""},
		{`torch.autocast("cuda", enabled=OFF)`, false, ""},
		{`torch.autocast("cuda", enabled=ON)`, true, ""},
		{`torch.autocast("cuda", enabled=OFF or ON)`, true, ""},
		{`torch.autocast("cpu", enabled=True)`, false, ""},
		{`torch.amp.autocast(device_type="cuda", enabled=False)`, false, ""},
		{`torch.autocast("cuda", enabled=cfg.amp)`, false, "`torch.autocast()`, whose `enabled=cfg.amp` could not be evaluated"},
		{`torch.cuda.amp.autocast(False)`, false, ""},
		{`torch.amp.GradScaler("cuda", enabled=False)`, false, ""},
		{`torch.amp.GradScaler(enabled=OFF)`, false, ""},
		{`torch.amp.GradScaler("cuda", 2.0**16, 2.0, 0.5, 2000, False)`, false, ""},
		{`torch.amp.GradScaler("cuda", 2.0**16, 2.0, 0.5, 2000, True)`, true, ""},
		{`torch.cuda.amp.GradScaler(enabled=False)`, false, ""},
		{`transformers.TrainingArguments("out", use_cpu=True)`, false, ""},
		{`transformers.TrainingArguments("out", no_cuda=ON)`, false, ""},
	}
	for _, tt := range tests {
		src := "import sys, torch, transformers\nOFF = False\nON = True\ncfg = sys.modules[__name__]\n" + tt.call + "\n"
		r, _ := resolveLast(t, src)
		init, maybe := false, ""
		for _, e := range r.effects {
			init = init || e.kind == effInit
			if e.kind == effMaybeUse {
				maybe = e.api
			}
		}
		if init != tt.init || maybe != tt.maybe {
			t.Errorf("%s: initializes %v, possible use %q; want %v, %q", tt.call, init, maybe, tt.init, tt.maybe)
		}
	}
}
