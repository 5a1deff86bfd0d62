package model

import (
	"testing"

	"github.com/cudaforklint/cudaforklint/syntax"
)

// TestEnvDefaultTruth checks which tests on the environment its defaults
// decide, and that a read without a default, or of a name the model cannot
// read, decides nothing.
func TestEnvDefaultTruth(t *testing.T) {
	prelude := "import os\nimport sys\nfrom os import getenv, environ\nkey = sys.argv[1]\nworkers = 4\nshare = os.getenv(\"SHARE\", \"0\") == \"1\"\nmode = os.getenv(\"MODE\", \"pool\")\nmode = sys.argv[2]\na = b\nb = a\n"
	tests := []struct {
		test        string
		want, known bool
	}{
		{`bool(int(os.getenv("SHARE", "0")))`, false, true},
		{`bool(int(os.getenv("SHARE", "1")))`, true, true},
		{`int(os.environ.get("CHAINER_CUDNN", "1")) == 0`, false, true},
		{`os.environ.get("FAST", "False").lower() in ("1", "true")`, false, true},
		{`os.getenv("FAST", "yes").strip() not in ["0", "no"]`, true, true},
		{`int(os.getenv("LEVEL", "2")) in {1, 2}`, true, true},
		{`os.getenv("MODE", "pool") in ("pool", key)`, false, false},
		{`os.environ.get("MODE", default="pool") == "pool"`, true, true},
		{`os.environ.get("RANK") is not None`, false, true},
		{`os.getenv("RANK")`, false, true},
		{`getenv("DEBUG", "") != ""`, false, true},
		{`"SLURM_ARRAY_TASK_ID" in os.environ`, false, true},
		{`"SLURM_ARRAY_TASK_ID" not in environ`, true, true},
		{`not "LOCAL_RANK" in os.environ`, true, true},
		{`workers > 1 and "SLURM_JOB_ID" in os.environ`, false, true},
		{`workers > 1 or "SLURM_JOB_ID" in os.environ`, true, true},
		{`os.environ["MODE"] == "pool"`, false, false},
		{`os.environ.get(key, "0") == "1"`, false, false},
		{`key in os.environ`, false, false},
		{`os.getenv("N", sys.argv[2]) == "1"`, false, false},
		{`int(os.getenv("N", "many")) > 1`, false, false},
		{`workers > 1`, false, false},
		{`share`, false, true},
		{`not share and workers > 1`, true, true},
		{`mode == "pool"`, false, false},
		{`a == "1"`, false, false},
	}
	for _, tt := range tests {
		m := load(t, memSource{"/p/m.py": prelude + "x_test = " + tt.test + "\n"}, "/p/m.py")
		assign := m.File.Body[len(m.File.Body)-1].(*syntax.Assign)
		var ev evaluator
		got, known := ev.envDefaultTruth(assign.Value, m.Scope)
		if got != tt.want || known != tt.known {
			t.Errorf("%s: (%v, known %v), want (%v, known %v)", tt.test, got, known, tt.want, tt.known)
		}
	}
}
