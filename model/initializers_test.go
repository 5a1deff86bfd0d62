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
		{`accelerate.Accelerator(cpu=flag)`, true}, // unknown: assume the default
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
