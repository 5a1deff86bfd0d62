package rules_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cudaforklint/cudaforklint/analyzer"
	"github.com/cudaforklint/cudaforklint/config"
	"github.com/cudaforklint/cudaforklint/finding"
	"github.com/cudaforklint/cudaforklint/fix"
	"github.com/cudaforklint/cudaforklint/passes/pyprogram"
	"github.com/cudaforklint/cudaforklint/ruledoc"
	"github.com/cudaforklint/cudaforklint/rules"
)

// checkMain checks src as main.py, alone, with every rule selected.
func checkMain(t *testing.T, src string) *analyzer.Result {
	t.Helper()
	dir := t.TempDir()
	p := filepath.Join(dir, "main.py")
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := config.NewLoader(ruledoc.All(), config.Overrides{Isolated: true, Select: []string{"ALL"}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := analyzer.Run(context.Background(), analyzer.Options{Split: pyprogram.Split, Paths: []string{p}, Analyzers: rules.All(), Policy: config.NewPolicy(l), WorkDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// firstFixOf checks src (as main.py) and returns the first fix of its finding
// with the given code, and the source.
func firstFixOf(t *testing.T, code, src string) (*finding.Fix, []byte) {
	t.Helper()
	res := checkMain(t, src)
	for _, f := range res.Findings {
		if f.Code == code && len(f.Fixes) > 0 {
			return &f.Fixes[0], []byte(src)
		}
	}
	t.Fatalf("no %s finding with a fix in:\n%s\nfindings: %v", code, src, res.Findings)
	return nil, nil
}

const poolMain = `
if __name__ == "__main__":
    with mp.get_context("spawn").Pool(2) as pool:
        print(pool.map(work, range(3)))
`

// TestGuardFixSafety: the move under the main guard is offered only when
// nothing that runs outside the guard reads what it moves; otherwise it is
// display-only and says which name is read where.
func TestGuardFixSafety(t *testing.T) {
	head := "import multiprocessing as mp\nimport torch\n\n"
	tests := []struct {
		name, body string
		code       string
		offered    bool
		says       string // in the display-only message
	}{
		{"the worker reads the model",
			"model = torch.nn.Linear(4, 4).cuda()\n\n\ndef work(x):\n    return model(x)\n" + poolMain,
			"CFL004", false, "`model` is read by `work` (line 8), which may run in a child process without the guard (it is passed as a value at line 12)"},
		{"the worker does not read it",
			"model = torch.nn.Linear(4, 4).cuda()\n\n\ndef work(x):\n    return x + 1\n" + poolMain,
			"CFL004", true, ""},
		{"a helper only the guard calls may read it",
			"model = torch.nn.Linear(4, 4).cuda()\n\n\ndef work(x):\n    return x + 1\n\n\ndef report():\n    print(model)\n\n\ndef main():\n    report()\n" + poolMain + "    main()\n",
			"CFL004", true, ""},
		{"a helper the worker calls may not",
			"model = torch.nn.Linear(4, 4).cuda()\n\n\ndef helper(x):\n    return model(x)\n\n\ndef work(x):\n    return helper(x)\n" + poolMain,
			"CFL004", false, "`model` is read by `helper` (line 8), which `work` calls (line 12), which may run in a child process"},
		{"top-level code after it reads it",
			"model = torch.nn.Linear(4, 4).cuda()\n\n\ndef work(x):\n    return x + 1\n\n\nparams = list(model.parameters())\n" + poolMain,
			"CFL004", false, "`model` is read at line 11, outside the guard"},
		{"a method reads it",
			"model = torch.nn.Linear(4, 4).cuda()\n\n\nclass Data:\n    def get(self, i):\n        return model(i)\n\n\ndef work(x):\n    return x + 1\n" + poolMain,
			"CFL004", false, "`model` is read by `Data.get` (line 9), and objects of `Data` can be sent to child processes"},
		{"a default argument reads it",
			"model = torch.nn.Linear(4, 4).cuda()\n\n\ndef work(x, m=model):\n    return x + 1\n" + poolMain,
			"CFL004", false, "`model` is read at line 7 when `work` is defined"},
		{"moving past a call changes the order",
			"model = torch.nn.Linear(4, 4).cuda()\n\n\ndef work(x):\n    return x + 1\n\n\nif True:\n    print('ready')\n" + poolMain,
			"CFL004", false, "it would move past the statement at line 11"},
		{"a name the moved code reads is bound again before the guard",
			"scale = 1\nmodel = torch.nn.Linear(4, 4).cuda() * scale\n\n\ndef scale():\n    return 2\n\n\ndef work(x):\n    return x + 1\n" + poolMain,
			"CFL004", false, "`scale` is bound again at line 8"},
		{"globals() hides the readers",
			"model = torch.nn.Linear(4, 4).cuda()\n\n\ndef work(x):\n    return globals()['model'](x)\n" + poolMain,
			"CFL004", false, "reaches its globals without naming them (`globals` at line 8)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fx, _ := firstFixOf(t, tt.code, head+tt.body)
			if tt.offered != (fx.Applicability == finding.Unsafe) {
				t.Fatalf("applicability %v, want offered=%v: %s", fx.Applicability, tt.offered, fx.Message)
			}
			if !tt.offered && (fx.Applicability != finding.DisplayOnly || !strings.Contains(fx.Message, tt.says)) {
				t.Errorf("message %q\nwant it to say %q", fx.Message, tt.says)
			}
		})
	}
}

// TestGuardFixKeepsTheFileStyle: code moved or inserted into a CRLF file
// ends its lines with CRLF; into a tab-indented guard, it is indented with
// a tab; after a byte order mark, it stays after it.
func TestGuardFixKeepsTheFileStyle(t *testing.T) {
	tests := []struct {
		name, code, src, want string
	}{
		{"CRLF, existing guard", "CFL004",
			"import multiprocessing as mp\r\nimport torch\r\n\r\nmodel = torch.nn.Linear(4, 4).cuda()\r\n\r\n\r\ndef work(x):\r\n    return x + 1\r\n\r\n\r\nif __name__ == \"__main__\":\r\n    with mp.get_context(\"spawn\").Pool(2) as pool:\r\n        print(pool.map(work, range(3)))\r\n",
			"import multiprocessing as mp\r\nimport torch\r\n\r\n\r\n\r\ndef work(x):\r\n    return x + 1\r\n\r\n\r\nif __name__ == \"__main__\":\r\n    model = torch.nn.Linear(4, 4).cuda()\r\n    with mp.get_context(\"spawn\").Pool(2) as pool:\r\n        print(pool.map(work, range(3)))\r\n"},
		{"tabs", "CFL004",
			"import multiprocessing as mp\nimport torch\n\nmodel = torch.nn.Linear(4, 4).cuda()\n\n\ndef work(x):\n\treturn x + 1\n\n\nif __name__ == \"__main__\":\n\twith mp.get_context(\"spawn\").Pool(2) as pool:\n\t\tprint(pool.map(work, range(3)))\n",
			"import multiprocessing as mp\nimport torch\n\n\n\ndef work(x):\n\treturn x + 1\n\n\nif __name__ == \"__main__\":\n\tmodel = torch.nn.Linear(4, 4).cuda()\n\twith mp.get_context(\"spawn\").Pool(2) as pool:\n\t\tprint(pool.map(work, range(3)))\n"},
		{"no guard yet: one is added, indented like the file", "CFL005",
			"import multiprocessing as mp\n\n\ndef work(x):\n\treturn x + 1\n\n\npool = mp.get_context(\"spawn\").Pool(2)\nprint(pool.map(work, range(3)))",
			"import multiprocessing as mp\n\n\ndef work(x):\n\treturn x + 1\n\n\nif __name__ == \"__main__\":\n\tpool = mp.get_context(\"spawn\").Pool(2)\n\tprint(pool.map(work, range(3)))\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fx, src := firstFixOf(t, tt.code, tt.src)
			if fx.Applicability != finding.Unsafe {
				t.Fatalf("not offered: %s", fx.Message)
			}
			out, err := fix.ApplyEdits(src, fx.Edits)
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != tt.want {
				t.Errorf("fixed:\n%q\nwant:\n%q", out, tt.want)
			}
		})
	}
}

// TestNVMLFixPlacement: the inserted `import os` and environment line go
// after the byte order mark, the #! line, the coding declaration and the
// docstring, with the file's line endings.
func TestNVMLFixPlacement(t *testing.T) {
	rest := "import multiprocessing as mp\r\nimport torch\r\n\r\n\r\ndef child():\r\n    torch.ones(1, device=\"cuda\")\r\n\r\n\r\nif __name__ == \"__main__\":\r\n    if torch.cuda.is_available():\r\n        pass\r\n    p = mp.get_context(\"fork\").Process(target=child)\r\n    p.start()\r\n"
	ins := "import os\r\nos.environ.setdefault(\"PYTORCH_NVML_BASED_CUDA_CHECK\", \"1\")  # torch.cuda.is_available() asks NVML, not the driver\r\n"
	for _, tt := range []struct{ name, head, want string }{
		{"BOM", "\ufeff", "\ufeff" + ins},
		{"BOM, #! and coding", "\ufeff#!/usr/bin/env python3\r\n# -*- coding: utf-8 -*-\r\n", "\ufeff#!/usr/bin/env python3\r\n# -*- coding: utf-8 -*-\r\n" + ins},
		{"docstring", "\"\"\"Train.\"\"\"\r\n", "\"\"\"Train.\"\"\"\r\n" + ins},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "main.py")
			src := tt.head + rest
			if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			res, err := analyzer.Run(context.Background(), analyzer.Options{Split: pyprogram.Split, Paths: []string{p}, Analyzers: rules.All(), WorkDir: dir})
			if err != nil {
				t.Fatal(err)
			}
			var nvml *finding.Fix
			for i := range res.Findings {
				for j := range res.Findings[i].Fixes {
					if strings.Contains(res.Findings[i].Fixes[j].Message, "PYTORCH_NVML_BASED_CUDA_CHECK") {
						nvml = &res.Findings[i].Fixes[j]
					}
				}
			}
			if nvml == nil {
				t.Fatalf("no NVML fix: %v", res.Findings)
			}
			out, err := fix.ApplyEdits([]byte(src), nvml.Edits)
			if err != nil {
				t.Fatal(err)
			}
			if want := tt.want + rest; string(out) != want {
				t.Errorf("fixed:\n%q\nwant:\n%q", out, want)
			}
		})
	}
}

// TestSpawnFixSafety: switching "fork" to "spawn" is offered only when a
// spawn child can run what the fork child ran: the start under the main
// guard, the target a top-level function, and no global it reads bound
// only under the guard.
func TestSpawnFixSafety(t *testing.T) {
	head := "import multiprocessing as mp\nimport torch\n\n"
	tests := []struct {
		name, body string
		offered    bool
		says       string
	}{
		{"a clean worker",
			"SCALE = 2\n\n\ndef work(x):\n    return torch.ones(1, device='cuda').item() * SCALE\n\n\nif __name__ == '__main__':\n    torch.cuda.init()\n    with mp.get_context('fork').Pool(2) as pool:\n        pool.map(work, range(3))\n",
			true, ""},
		{"the worker reads a global only the guard binds",
			"def work(x):\n    return (weights * x).sum().item()\n\n\nif __name__ == '__main__':\n    torch.cuda.init()\n    weights = torch.ones(3, device='cuda')\n    with mp.get_context('fork').Pool(2) as pool:\n        pool.map(work, range(3))\n",
			false, "`weights` is bound at the top level: only the main guard binds it (line 10), and `work` reads it (line 5)"},
		{"through a helper it calls",
			"def helper(x):\n    return (weights * x).sum().item()\n\n\ndef work(x):\n    return helper(x)\n\n\nif __name__ == '__main__':\n    torch.cuda.init()\n    weights = torch.ones(3, device='cuda')\n    with mp.get_context('fork').Pool(2) as pool:\n        pool.map(work, range(3))\n",
			false, "`weights` is bound at the top level"},
		{"a lambda",
			"if __name__ == '__main__':\n    torch.cuda.init()\n    p = mp.get_context('fork').Process(target=lambda: torch.ones(1, device='cuda'))\n    p.start()\n",
			false, "a spawn child cannot receive the lambda at line 6"},
		{"the start is not under the guard",
			"def work():\n    torch.ones(1, device='cuda')\n\n\ntorch.cuda.init()\np = mp.get_context('fork').Process(target=work)\np.start()\n",
			false, "the start at line 10 runs under `if __name__ == \"__main__\":`"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fx, _ := firstFixOf(t, "CFL001", head+tt.body)
			if tt.offered != (fx.Applicability == finding.Unsafe) {
				t.Fatalf("applicability %v, want offered=%v: %s", fx.Applicability, tt.offered, fx.Message)
			}
			if !tt.offered && !strings.Contains(fx.Message, tt.says) {
				t.Errorf("message %q\nwant it to say %q", fx.Message, tt.says)
			}
		})
	}
}

// TestNVMLFixUsesOSAfterItsImport: the inserted line goes after the
// module's opening `import os`; when os is imported only later, the fix
// imports it first (using it before would be a NameError).
func TestNVMLFixUsesOSAfterItsImport(t *testing.T) {
	const rest = "\n\ndef child():\n    torch.ones(1, device='cuda')\n\n\nif __name__ == '__main__':\n    if torch.cuda.is_available():\n        pass\n    p = mp.Process(target=child)\n    p.start()\n"
	const env = "os.environ.setdefault(\"PYTORCH_NVML_BASED_CUDA_CHECK\", \"1\")  # torch.cuda.is_available() asks NVML, not the driver\n"
	for _, tt := range []struct{ head, want string }{
		{"import torch\nimport os\nimport multiprocessing as mp\n", "import torch\nimport os\n" + env + "import multiprocessing as mp\n"},
		{"import torch\nimport multiprocessing as mp\nx = 1\nimport os\n", "import os\n" + env + "import torch\nimport multiprocessing as mp\nx = 1\nimport os\n"},
	} {
		src := tt.head + rest
		dir := t.TempDir()
		p := filepath.Join(dir, "main.py")
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		res, err := analyzer.Run(context.Background(), analyzer.Options{Split: pyprogram.Split, Paths: []string{p}, Analyzers: rules.All(), WorkDir: dir})
		if err != nil {
			t.Fatal(err)
		}
		var nvml *finding.Fix
		for i := range res.Findings {
			for j, fx := range res.Findings[i].Fixes {
				if strings.Contains(fx.Message, "PYTORCH_NVML_BASED_CUDA_CHECK") {
					nvml = &res.Findings[i].Fixes[j]
				}
			}
		}
		if nvml == nil {
			t.Fatalf("no NVML fix: %v", res.Findings)
		}
		out, err := fix.ApplyEdits([]byte(src), nvml.Edits)
		if err != nil {
			t.Fatal(err)
		}
		if want := tt.want + rest; string(out) != want {
			t.Errorf("fixed:\n%s\nwant:\n%s", out, want)
		}
	}
}

// fixesOf checks src (as main.py) and returns the fixes of its findings
// with the given code.
func fixesOf(t *testing.T, code, src string) []finding.Fix {
	t.Helper()
	res := checkMain(t, src)
	var out []finding.Fix
	found := false
	for _, f := range res.Findings {
		if f.Code == code {
			found = true
			out = append(out, f.Fixes...)
		}
	}
	if !found {
		t.Fatalf("no %s finding in:\n%s\nfindings: %v", code, src, res.Findings)
	}
	return out
}

// TestSpawnFixDefaultStart: a start that takes the default method is
// given "spawn" where its object is made, importing multiprocessing when
// nothing binds it; a call the fix cannot tell apart, or one that may
// already pass the argument, gets no fix, and a target a spawn child
// cannot receive makes it display-only.
func TestSpawnFixDefaultStart(t *testing.T) {
	const worker = "def work(x):\n    return torch.ones(1, device='cuda').item() + x\n\n\n"
	tests := []struct {
		name, head, main string
		// want is the fixed main block, "" when no fix is offered;
		// imports: the fix imports multiprocessing at the top;
		// displayOnly: the words the display-only advice must say.
		want, displayOnly string
		imports           bool
		code              string // CFL001 when empty
	}{
		{name: "a Pool of the module's alias",
			head: "import multiprocessing as mp\nimport torch\n\n\n",
			main: "    torch.cuda.init()\n    with mp.Pool(2) as pool:\n        pool.map(work, range(3))\n",
			want: "    torch.cuda.init()\n    with mp.get_context(\"spawn\").Pool(2) as pool:\n        pool.map(work, range(3))\n"},
		{name: "a Pool imported by name: multiprocessing is imported",
			head: "from multiprocessing import Pool\nimport torch\n\n\n",
			main: "    torch.cuda.init()\n    with Pool(2) as pool:\n        pool.map(work, range(3))\n",
			want: "    torch.cuda.init()\n    with multiprocessing.get_context(\"spawn\").Pool(2) as pool:\n        pool.map(work, range(3))\n", imports: true},
		{name: "a Process of torch.multiprocessing",
			head: "import torch\nimport torch.multiprocessing\n\n\n",
			main: "    torch.cuda.init()\n    p = torch.multiprocessing.Process(target=work, args=(1,))\n    p.start()\n",
			want: "    torch.cuda.init()\n    p = torch.multiprocessing.get_context(\"spawn\").Process(target=work, args=(1,))\n    p.start()\n"},
		{name: "an executor, with the module's alias",
			head: "import multiprocessing as mp\nfrom concurrent.futures import ProcessPoolExecutor\nimport torch\n\n\n",
			main: "    torch.cuda.init()\n    with ProcessPoolExecutor(max_workers=2,) as ex:\n        ex.submit(work, 1)\n",
			want: "    torch.cuda.init()\n    with ProcessPoolExecutor(max_workers=2, mp_context=mp.get_context(\"spawn\"),) as ex:\n        ex.submit(work, 1)\n"},
		{name: "an executor, with the first of two imports",
			head: "import multiprocessing as mp\nimport multiprocessing\nfrom concurrent.futures import ProcessPoolExecutor\nimport torch\n\n\n",
			main: "    torch.cuda.init()\n    with ProcessPoolExecutor() as ex:\n        ex.submit(work, 1)\n",
			want: "    torch.cuda.init()\n    with ProcessPoolExecutor(mp_context=mp.get_context(\"spawn\")) as ex:\n        ex.submit(work, 1)\n"},
		{name: "an executor without arguments",
			head: "import concurrent.futures\nimport torch\n\n\n",
			main: "    torch.cuda.init()\n    with concurrent.futures.ProcessPoolExecutor() as ex:\n        ex.submit(work, 1)\n",
			want: "    torch.cuda.init()\n    with concurrent.futures.ProcessPoolExecutor(mp_context=multiprocessing.get_context(\"spawn\")) as ex:\n        ex.submit(work, 1)\n", imports: true},
		{name: "an executor given its context by position",
			head: "from concurrent.futures import ProcessPoolExecutor\nimport torch\n\n\n",
			main: "    torch.cuda.init()\n    with ProcessPoolExecutor(2, None) as ex:\n        ex.submit(work, 1)\n"},
		{name: "a Process subclass",
			head: "import multiprocessing as mp\nimport torch\n\n\nclass Worker(mp.Process):\n    def run(self):\n        work(1)\n\n\n",
			main: "    torch.cuda.init()\n    w = Worker()\n    w.start()\n"},
		{name: "the module's name bound again",
			head: "import multiprocessing as mp\nimport torch\n\nmp = mp.get_context()\n\n\n",
			main: "    torch.cuda.init()\n    with mp.Pool(2) as pool:\n        pool.map(work, range(3))\n"},
		{name: "a DataLoader", code: "CFL003",
			head: "import torch\nfrom torch.utils.data import DataLoader\n\n\n",
			main: "    torch.cuda.init()\n    for x in DataLoader(list(range(4)), num_workers=2):\n        print(x)\n",
			want: "    torch.cuda.init()\n    for x in DataLoader(list(range(4)), num_workers=2, multiprocessing_context=\"spawn\"):\n        print(x)\n"},
		{name: "a DataLoader given its keywords through **", code: "CFL003",
			head: "import torch\nfrom torch.utils.data import DataLoader\n\n\n",
			main: "    torch.cuda.init()\n    kw = {'num_workers': 2}\n    for x in DataLoader(list(range(4)), **kw):\n        print(x)\n"},
		{name: "a function binds the module's name",
			head: "import multiprocessing\nimport multiprocessing as mp\nimport torch\n\n\ndef run():\n    mp = multiprocessing.get_context()\n    with mp.Pool(2) as pool:\n        pool.map(work, range(3))\n\n\n",
			main: "    torch.cuda.init()\n    run()\n"},
		{name: "the start is not under the guard",
			head:        "import multiprocessing as mp\nimport torch\n\n\n",
			main:        "    pass\ntorch.cuda.init()\nwith mp.Pool(2) as pool:\n    pool.map(work, range(3))\n",
			displayOnly: "runs under `if __name__ == \"__main__\":`"},
		{name: "a second start is not under the guard",
			head:        "import multiprocessing as mp\nimport torch\n\ntorch.cuda.init()\n\n\n",
			main:        "    with mp.Pool(2) as pool:\n        pool.map(work, range(3))\nwith mp.Pool(2) as pool:\n    pool.map(work, range(3))\n",
			displayOnly: "the start at line 14 runs under `if __name__ == \"__main__\":`"},
		{name: "a lambda target",
			head:        "import multiprocessing as mp\nimport torch\n\n\n",
			main:        "    torch.cuda.init()\n    p = mp.Process(target=lambda: work(1))\n    p.start()\n",
			displayOnly: "a spawn child cannot receive the lambda"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := tt.head + worker + "if __name__ == \"__main__\":\n" + tt.main
			var spawn *finding.Fix
			code := tt.code
			if code == "" {
				code = "CFL001"
			}
			for _, fx := range fixesOf(t, code, src) {
				if strings.HasPrefix(fx.Message, `Use the "spawn" start method`) {
					spawn = &fx
				}
			}
			switch {
			case tt.want == "" && tt.displayOnly == "":
				if spawn != nil {
					t.Fatalf("fix offered: %+v", spawn)
				}
				return
			case spawn == nil:
				t.Fatal("no spawn fix")
			case tt.displayOnly != "":
				if spawn.Applicability != finding.DisplayOnly || !strings.Contains(spawn.Message, tt.displayOnly) {
					t.Fatalf("fix %v %q, want display-only saying %q", spawn.Applicability, spawn.Message, tt.displayOnly)
				}
				return
			case spawn.Applicability != finding.Unsafe:
				t.Fatalf("fix %v: %s", spawn.Applicability, spawn.Message)
			}
			out, err := fix.ApplyEdits([]byte(src), spawn.Edits)
			if err != nil {
				t.Fatal(err)
			}
			head := tt.head
			if tt.imports {
				head = "import multiprocessing\n" + head
			}
			if want := head + worker + "if __name__ == \"__main__\":\n" + tt.want; string(out) != want {
				t.Errorf("fixed:\n%s\nwant:\n%s", out, want)
			}
		})
	}
}

// TestNVMLFixOnlyWhenItIsTheOnlyInit: setting PYTORCH_NVML_BASED_CUDA_CHECK
// fixes a fork only when every initialization before it is an
// availability check; a `.to(device)` after the check initializes CUDA
// regardless, and the fix is not offered.
func TestNVMLFixOnlyWhenItIsTheOnlyInit(t *testing.T) {
	const head = "import multiprocessing as mp\nimport torch\n\n\ndef child():\n    torch.ones(1, device='cuda')\n\n\nif __name__ == '__main__':\n    device = 'cuda' if torch.cuda.is_available() else 'cpu'\n"
	const tail = "    p = mp.get_context('fork').Process(target=child)\n    p.start()\n"
	for _, tt := range []struct {
		name, between string
		offered       bool
	}{
		{"only the check", "", true},
		{"the check twice", "    print(torch.cuda.is_available())\n", true},
		{"a model moved to the device", "    model = torch.nn.Linear(2, 2).to(device)\n", false},
		{"a model moved to the GPU in a branch", "    if device == 'cuda':\n        model = torch.nn.Linear(2, 2).cuda()\n", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			offered := false
			for _, fx := range fixesOf(t, "CFL001", head+tt.between+tail) {
				if strings.Contains(fx.Message, "PYTORCH_NVML_BASED_CUDA_CHECK") {
					offered = true
				}
			}
			if offered != tt.offered {
				t.Errorf("NVML fix offered: %v, want %v", offered, tt.offered)
			}
		})
	}
}
