// Package benchcorpus writes the benchmark's generated corpus: N realistic
// CUDA-heavy Python training and inference scripts (torch, cupy, jax and
// numba; multiprocessing Pools and Processes, ProcessPoolExecutor, DataLoader
// workers, the forkserver and its preload list, torch.multiprocessing.spawn),
// with helpers in local modules, so that cudaforklint's rules really fire and
// its prefilter, import resolution and simulation all do real work.
//
// The output is a deterministic function of N and the seed. Every fourth
// module is a plain data or text utility with no CUDA and no process API
// (most of a real repository), which the prefilter should skip.
//
// It is a library, not a main package (pre-commit installs every main
// package): scripts/bench/bench.go and the tests call Generate.
package benchcorpus

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
)

// Generate writes n scripts (and their helper packages) under dir, which it
// creates. It returns the paths written, sorted.
func Generate(dir string, n int, seed int64) ([]string, error) {
	g := &gen{r: rand.New(rand.NewSource(seed)), dir: dir}
	// One helper package per 20 scripts, shared by them, as in a real
	// repository with a few projects side by side.
	for i := 0; i < n; i++ {
		proj := fmt.Sprintf("proj%02d", i/20)
		if i%20 == 0 {
			if err := g.project(proj); err != nil {
				return nil, err
			}
		}
		var src string
		switch i % 4 {
		case 3:
			src = g.plain(i)
		default:
			src = g.script(proj, i)
		}
		if err := g.write(filepath.Join(proj, fmt.Sprintf("job_%04d.py", i)), src); err != nil {
			return nil, err
		}
	}
	return g.files, nil
}

type gen struct {
	r     *rand.Rand
	dir   string
	files []string
}

func (g *gen) write(rel, src string) error {
	p := filepath.Join(g.dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	g.files = append(g.files, p)
	return os.WriteFile(p, []byte(src), 0o644)
}

func (g *gen) pick(list ...string) string { return list[g.r.Intn(len(list))] }

// project writes a project's helper package: CUDA setup, worker functions,
// a dataset, and a plain utility module.
func (g *gen) project(proj string) error {
	files := map[string]string{
		"__init__.py": `"""Helpers shared by the project's jobs."""` + "\n",
		"gpu.py": `"""Device setup for the jobs."""
import os

import torch


def pick_device(rank=0):
    """Returns the device for this rank, initializing CUDA."""
    if torch.cuda.is_available():
        torch.cuda.set_device(rank)
        return torch.device("cuda", rank)
    return torch.device("cpu")


def warmup(model):
    model = model.cuda()
    x = torch.zeros(8, 16, device="cuda")
    return model(x)


def seed_everything(seed):
    os.environ["PYTHONHASHSEED"] = str(seed)
    torch.manual_seed(seed)
`,
		"workers.py": `"""Per-sample work handed to process pools."""
import math

import numpy as np


def score(sample):
    return sum(math.sqrt(abs(v)) for v in sample)


def normalize(batch):
    arr = np.asarray(batch, dtype=np.float32)
    return (arr - arr.mean()) / (arr.std() + 1e-6)


def gpu_score(sample):
    import torch

    return torch.tensor(sample, device="cuda").sum().item()
`,
		"pools.py": `"""Process pools the jobs share."""
import multiprocessing as mp
from concurrent.futures import ProcessPoolExecutor


def run_pool(fn, items, method=None):
    ctx = mp.get_context(method) if method else mp
    with ctx.Pool(4) as pool:
        return pool.map(fn, items)


def run_executor(fn, items):
    with ProcessPoolExecutor(max_workers=4) as ex:
        return list(ex.map(fn, items))
`,
		"data.py": `"""A map-style dataset of synthetic samples."""
import random

import torch
from torch.utils.data import Dataset


class Synthetic(Dataset):
    def __init__(self, n=1024, dim=16, seed=0):
        rng = random.Random(seed)
        self.rows = [[rng.random() for _ in range(dim)] for _ in range(n)]

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        return torch.tensor(self.rows[i])
`,
		"text.py": plainModule(g.r, 0),
		"warm.py": `"""Imported by the forkserver: compiles kernels at import."""
import torch

torch.cuda.init()
KERNELS = {}
`,
	}
	for _, name := range []string{"__init__.py", "gpu.py", "workers.py", "pools.py", "data.py", "text.py", "warm.py"} {
		if err := g.write(filepath.Join(proj, "helpers", name), files[name]); err != nil {
			return err
		}
	}
	return nil
}

// script writes one job: a CUDA library, a process API and a pattern chosen
// from the seed; about half of them are hazards.
func (g *gen) script(proj string, i int) string {
	var b strings.Builder
	lib := g.pick("torch", "torch", "torch", "cupy", "jax", "numba")
	fmt.Fprintf(&b, "\"\"\"Job %d of %s: %s training and evaluation.\"\"\"\n", i, proj, lib)
	b.WriteString("import argparse\nimport logging\nimport os\nimport time\n")
	b.WriteString("import multiprocessing as mp\n")
	switch lib {
	case "torch":
		b.WriteString("import torch\nimport torch.nn as nn\nfrom torch.utils.data import DataLoader\n")
	case "cupy":
		b.WriteString("import cupy as cp\n")
	case "jax":
		b.WriteString("import jax\nimport jax.numpy as jnp\n")
	case "numba":
		b.WriteString("from numba import cuda\n")
	}
	b.WriteString("\nfrom helpers import gpu, pools, workers\nfrom helpers.data import Synthetic\nfrom helpers.text import tokenize\n\n")
	b.WriteString("log = logging.getLogger(__name__)\n\n")
	fmt.Fprintf(&b, "BATCH = %d\nEPOCHS = %d\nLR = %g\n\n", 16<<g.r.Intn(4), 1+g.r.Intn(9), 0.001*float64(1+g.r.Intn(9)))
	b.WriteString(filler(g.r, 3+g.r.Intn(4)))

	// The CUDA initialization, at import time or in a function.
	initFn := ""
	switch lib {
	case "torch":
		initFn = "def setup():\n    device = gpu.pick_device(int(os.environ.get(\"LOCAL_RANK\", 0)))\n    model = nn.Linear(16, 4).to(device)\n    return model\n\n"
	case "cupy":
		initFn = "def setup():\n    x = cp.arange(1024, dtype=cp.float32)\n    return float(x.sum())\n\n"
	case "jax":
		initFn = "def setup():\n    x = jnp.ones((128, 128))\n    return jax.device_put(x)\n\n"
	case "numba":
		initFn = "def setup():\n    cuda.select_device(0)\n    return cuda.to_device([1.0, 2.0, 3.0])\n\n"
	}
	b.WriteString(initFn)
	b.WriteString("def evaluate(model, items):\n    scores = [workers.score(it) for it in items]\n    log.info(\"scores %s\", scores[:4])\n    return sum(scores) / max(1, len(scores))\n\n")

	pattern := g.r.Intn(8)
	body := ""
	switch pattern {
	case 0: // fork pool after CUDA init: CFL001
		body = "    model = setup()\n    with mp.get_context(\"fork\").Pool(4) as pool:\n        out = pool.map(workers.score, items)\n"
	case 1: // spawn pool, CUDA initialized at import: CFL004
		b.WriteString("WARM = setup()\n\n")
		body = "    model = setup()\n    with mp.get_context(\"spawn\").Pool(4) as pool:\n        out = pool.map(workers.score, items)\n"
	case 2: // helper pool from a local module after init
		body = "    model = setup()\n    out = pools.run_pool(workers.gpu_score, items, \"fork\")\n"
	case 3: // executor
		body = "    model = setup()\n    out = pools.run_executor(workers.score, items)\n"
	case 4: // DataLoader with workers
		if lib == "torch" {
			body = "    model = setup()\n    loader = DataLoader(Synthetic(), batch_size=BATCH, num_workers=4)\n    out = [model(x).sum().item() for x in loader]\n"
		} else {
			body = "    out = pools.run_pool(workers.score, items, \"spawn\")\n    model = setup()\n"
		}
	case 5: // forkserver with a preload that initializes CUDA
		body = "    mp.set_start_method(\"forkserver\")\n    mp.set_forkserver_preload([\"helpers.warm\"])\n    model = setup()\n    procs = [mp.Process(target=workers.score, args=(it,)) for it in items]\n    for p in procs:\n        p.start()\n    for p in procs:\n        p.join()\n    out = []\n"
	case 6: // start at import time (no main guard below)
		body = "    out = pools.run_pool(workers.score, items)\n    model = None\n"
	case 7: // os.fork after init
		body = "    model = setup()\n    pid = os.fork()\n    if pid == 0:\n        workers.score(items[0])\n        os._exit(0)\n    os.waitpid(pid, 0)\n    out = []\n"
	}
	b.WriteString("def main(argv=None):\n    parser = argparse.ArgumentParser()\n    parser.add_argument(\"--n\", type=int, default=64)\n    args = parser.parse_args(argv)\n")
	b.WriteString("    items = [[float(j), float(j * 2)] for j in range(args.n)]\n    start = time.time()\n")
	b.WriteString(body)
	b.WriteString("    log.info(\"took %.2fs\", time.time() - start)\n    return evaluate(model, items), out, tokenize(\"done\")\n\n\n")
	if pattern == 6 {
		b.WriteString("main([])\n")
	} else {
		b.WriteString("if __name__ == \"__main__\":\n    main()\n")
	}
	return b.String()
}

// plain writes a module with no CUDA and no process API.
func (g *gen) plain(i int) string {
	return fmt.Sprintf("\"\"\"Utility module %d: text and data helpers.\"\"\"\n", i) + plainModule(g.r, 4+g.r.Intn(6))
}

func plainModule(r *rand.Rand, extra int) string {
	return `import collections
import json
import re

_WORD = re.compile(r"[A-Za-z_]+")


def tokenize(text):
    return _WORD.findall(text)


def counts(lines):
    c = collections.Counter()
    for line in lines:
        c.update(tokenize(line))
    return c


def dump(obj, path):
    with open(path, "w") as f:
        json.dump(obj, f, indent=2, sort_keys=True)

` + filler(r, extra)
}

// filler writes ordinary code: small classes and functions with branches and
// loops, so that the files have a realistic size and shape.
func filler(r *rand.Rand, n int) string {
	var b strings.Builder
	for k := 0; k < n; k++ {
		name := fmt.Sprintf("%s_%d", []string{"parse", "merge", "scale", "window", "collate", "summarize"}[r.Intn(6)], r.Intn(1000))
		if r.Intn(3) == 0 {
			fmt.Fprintf(&b, "class %s:\n    \"\"\"Keeps running statistics.\"\"\"\n\n    def __init__(self, size=%d):\n        self.size = size\n        self.items = []\n\n", strings.ToUpper(name[:1])+name[1:], 4+r.Intn(60))
			fmt.Fprintf(&b, "    def add(self, x):\n        self.items.append(x)\n        if len(self.items) > self.size:\n            self.items.pop(0)\n        return self\n\n")
			fmt.Fprintf(&b, "    def mean(self):\n        return sum(self.items) / max(1, len(self.items))\n\n\n")
			continue
		}
		fmt.Fprintf(&b, "def %s(values, k=%d):\n    out = []\n    for i, v in enumerate(values):\n        if i %% k == 0:\n            out.append(v * %d)\n        elif v is None:\n            continue\n        else:\n            out.append({\"i\": i, \"v\": v, \"sq\": v ** 2})\n    return out\n\n\n", name, 2+r.Intn(7), 1+r.Intn(9))
	}
	return b.String()
}
