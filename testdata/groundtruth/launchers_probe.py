"""Launchers and initializers above torch, measured.

Two parts, run on the device machine (one H200) in one call:

1. Probes (the oracle method of oracle.py): each statement runs in a fresh
   interpreter, exec'd with exceptions caught; afterwards the same process
   asks libcuda, without initializing it, whether cuInit ran
   (cuDeviceGetCount returns 3, CUDA_ERROR_NOT_INITIALIZED, until it has) and
   whether a context is current, and reads torch.cuda.is_initialized() when
   torch is loaded. Statements that need a model use a tiny BERT built by
   this harness and saved to a scratch directory ($TINY): nothing is
   downloaded (HF_HUB_OFFLINE=1, TRANSFORMERS_OFFLINE=1).

2. Scenarios: whole scripts that initialize CUDA (or not) and then start
   processes through a library launcher (joblib, datasets.map(num_proc=),
   accelerate.notebook_launcher, Lightning's ddp_fork). Each child reports
   whether it could use CUDA and whether it was forked: a MARK global set
   under the parent's main guard is visible in sys.modules["__main__"] of a
   forked child only (a spawned or forkserver child re-imports the main
   module without running the guard).

Writes $OUT/launchers.json (probes, keyed by label, as oracle_extra.json,
plus "scenarios", "env") and prints a table. Libraries that are not
installed are recorded as such.
"""
import concurrent.futures as cf
import json
import os
import subprocess
import sys
import tempfile
import textwrap
import time

CHECK = r'''
import ctypes, json, sys
st = {"error": __probe_err}
loaded = any('libcuda.so' in l for l in open('/proc/self/maps'))
st["libcuda_loaded"] = loaded
if loaded:
    cu = ctypes.CDLL('libcuda.so.1')
    n = ctypes.c_int(0)
    st["cuDeviceGetCount_rc"] = cu.cuDeviceGetCount(ctypes.byref(n))
    ctx = ctypes.c_void_p(0)
    st["cuCtxGetCurrent_rc"] = cu.cuCtxGetCurrent(ctypes.byref(ctx))
    st["has_current_ctx"] = bool(ctx.value)
st["driver_initialized"] = loaded and st.get("cuDeviceGetCount_rc") == 0
st["torch_cuda_is_initialized"] = sys.modules["torch"].cuda.is_initialized() if "torch" in sys.modules else None
print("@@" + json.dumps(st), flush=True)
'''

WRAP = '''
__probe_err = ""
try:
    exec(compile(%r, "<probe>", "exec"), {"__name__": "__probe__"})
except BaseException as e:
    __probe_err = (type(e).__name__ + ": " + (str(e).splitlines() or [""])[0])[:300]
''' + CHECK

T = 'import os; D = os.environ["TINY"]; '
PROBES = {
    # transformers: pipeline and from_pretrained on a tiny local model
    "transformers: pipeline('feature-extraction', model=<tiny>, device=0)":
        T + "from transformers import pipeline; pipeline('feature-extraction', model=D, device=0)",
    "transformers: pipeline('feature-extraction', model=<tiny>, device='cuda')":
        T + "from transformers import pipeline; pipeline('feature-extraction', model=D, device='cuda')",
    "transformers: pipeline('feature-extraction', model=<tiny>)":
        T + "from transformers import pipeline; pipeline('feature-extraction', model=D)",
    "transformers: pipeline('feature-extraction', model=<tiny>, device=-1)":
        T + "from transformers import pipeline; pipeline('feature-extraction', model=D, device=-1)",
    "transformers: pipeline('feature-extraction', model=<tiny>, device='cpu')":
        T + "from transformers import pipeline; pipeline('feature-extraction', model=D, device='cpu')",
    "transformers: pipeline('feature-extraction', model=<tiny>, device_map='auto')":
        T + "from transformers import pipeline; pipeline('feature-extraction', model=D, device_map='auto')",
    "transformers: AutoModel.from_pretrained(<tiny>)":
        T + "from transformers import AutoModel; AutoModel.from_pretrained(D)",
    "transformers: AutoModel.from_pretrained(<tiny>, device_map='auto')":
        T + "from transformers import AutoModel; AutoModel.from_pretrained(D, device_map='auto')",
    "transformers: AutoModel.from_pretrained(<tiny>, device_map='cuda')":
        T + "from transformers import AutoModel; AutoModel.from_pretrained(D, device_map='cuda')",
    "transformers: AutoModel.from_pretrained(<tiny>, device_map={'': 0})":
        T + "from transformers import AutoModel; AutoModel.from_pretrained(D, device_map={'': 0})",
    "transformers: AutoModel.from_pretrained(<tiny>, device_map='cpu')":
        T + "from transformers import AutoModel; AutoModel.from_pretrained(D, device_map='cpu')",
    "transformers: AutoTokenizer.from_pretrained(<tiny>)":
        T + "from transformers import AutoTokenizer; AutoTokenizer.from_pretrained(D)",
    # sentence-transformers
    "sentence_transformers: SentenceTransformer(<tiny>, device='cuda')":
        T + "from sentence_transformers import SentenceTransformer; SentenceTransformer(D, device='cuda')",
    "sentence_transformers: SentenceTransformer(<tiny>)":
        T + "from sentence_transformers import SentenceTransformer; SentenceTransformer(D)",
    "sentence_transformers: SentenceTransformer(<tiny>, device='cpu')":
        T + "from sentence_transformers import SentenceTransformer; SentenceTransformer(D, device='cpu')",
    # DeepSpeed
    "deepspeed: import deepspeed": "import deepspeed",
    "deepspeed: get_accelerator()": "from deepspeed.accelerator import get_accelerator; get_accelerator()",
    "deepspeed: get_accelerator().device_name()":
        "from deepspeed.accelerator import get_accelerator; get_accelerator().device_name()",
    "deepspeed: get_accelerator().is_available()":
        "from deepspeed.accelerator import get_accelerator; get_accelerator().is_available()",
    # NVIDIA Warp
    "warp: import warp": "import warp",
    "warp: wp.init()": "import warp as wp; wp.init()",
    "warp: wp.zeros(3, device='cuda')": "import warp as wp; wp.zeros(3, device='cuda')",
    "warp: wp.zeros(3, device='cpu')": "import warp as wp; wp.zeros(3, device='cpu')",
    "warp: wp.get_cuda_device_count()": "import warp as wp; wp.get_cuda_device_count()",
    # launchers' own imports and constructors
    "joblib: Parallel(n_jobs=2, backend='multiprocessing') constructed":
        "from joblib import Parallel; Parallel(n_jobs=2, backend='multiprocessing')",
    "datasets: import datasets": "import datasets",
    "lightning: L.Trainer(accelerator='gpu', devices=1, strategy='ddp_fork') constructed":
        "import lightning as L; L.Trainer(accelerator='gpu', devices=1, strategy='ddp_fork', logger=False, enable_checkpointing=False)",
    "accelerate: import accelerate.launchers": "import accelerate.launchers",
}

# The tiny model: a BERT with one layer and a word-level tokenizer, saved to
# $TINY. Tries the tokenizer spellings of transformers 4 and 5 in turn.
SETUP = r'''
import json, os, sys
D = sys.argv[1]
os.makedirs(D, exist_ok=True)
words = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "hello", "world", "the", "a"]
open(os.path.join(D, "vocab.txt"), "w").write("\n".join(words) + "\n")
from transformers import BertConfig, BertModel
cfg = BertConfig(vocab_size=len(words), hidden_size=32, num_hidden_layers=1, num_attention_heads=2, intermediate_size=37)
BertModel(cfg).save_pretrained(D)
how = []
for name in ("BertTokenizerFast", "BertTokenizer"):
    try:
        import transformers
        tok = getattr(transformers, name)(vocab_file=os.path.join(D, "vocab.txt"))
        tok.save_pretrained(D)
        how.append(name)
        break
    except Exception as e:
        how.append(name + " failed: " + str(e)[:200])
print("@@" + json.dumps({"tokenizer": how}))
'''

# Scenario scripts. INIT is what the parent does before the start; each
# script prints one "@@" JSON line.
CHILD = '''
import os, sys, json
def child_report(use_cuda):
    out = {"pid": os.getpid(), "forked": getattr(sys.modules["__main__"], "MARK", None) == "parent-main"}
    if use_cuda:
        try:
            import torch
            out["cuda_value"] = float(torch.ones(1, device="cuda").sum().item())
            out["cuda_ok"] = True
        except BaseException as e:
            out["cuda_ok"] = False
            out["cuda_error"] = (type(e).__name__ + ": " + str(e))[:240]
    return out
'''

JOBLIB = CHILD + '''
import torch
from joblib import Parallel, delayed
def work(i):
    return child_report(USE_CUDA)
if __name__ == "__main__":
    MARK = "parent-main"
    INIT
    try:
        res = Parallel(n_jobs=2, BACKEND)(delayed(work)(i) for i in range(2))
        print("@@" + json.dumps({"children": res}))
    except BaseException as e:
        print("@@" + json.dumps({"parent_error": (type(e).__name__ + ": " + str(e))[:400]}))
'''

DATASETS = CHILD + '''
import torch, datasets, multiprocess
def work(ex):
    r = child_report(USE_CUDA)
    ex["report"] = json.dumps(r)
    return ex
if __name__ == "__main__":
    MARK = "parent-main"
    INIT
    try:
        ds = datasets.Dataset.from_dict({"x": [1, 2, 3, 4]})
        out = ds.map(work, num_proc=2)
        res = [json.loads(r) for r in out["report"]]
        print("@@" + json.dumps({"children": res, "multiprocess_start_method": multiprocess.get_start_method(allow_none=True)}))
    except BaseException as e:
        print("@@" + json.dumps({"parent_error": (type(e).__name__ + ": " + str(e))[:400]}))
'''

NOTEBOOK = CHILD + '''
import torch
from accelerate import notebook_launcher
def work():
    r = child_report(True)
    print("@@child " + json.dumps(r), flush=True)
    if not r["cuda_ok"]:
        raise RuntimeError(r["cuda_error"])
if __name__ == "__main__":
    MARK = "parent-main"
    INIT
    try:
        notebook_launcher(work, num_processes=2, use_port="PORT")
        print("@@" + json.dumps({"launch": "returned"}))
    except BaseException as e:
        print("@@" + json.dumps({"parent_error": (type(e).__name__ + ": " + str(e))[:600]}))
'''

LIGHTNING = CHILD + '''
import torch
import lightning as L
from torch.utils.data import DataLoader, TensorDataset
class M(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.l = torch.nn.Linear(2, 1)
    def training_step(self, batch, i):
        if i == 0:
            print("@@child " + json.dumps(child_report(False) | {"param_device": str(self.l.weight.device)}), flush=True)
        x, y = batch
        return torch.nn.functional.mse_loss(self.l(x), y)
    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.1)
if __name__ == "__main__":
    MARK = "parent-main"
    INIT
    try:
        ds = TensorDataset(torch.randn(8, 2), torch.randn(8, 1))
        t = L.Trainer(accelerator="gpu", devices=1, strategy="STRATEGY", max_epochs=1, logger=False,
                      enable_checkpointing=False, enable_progress_bar=False, enable_model_summary=False)
        t.fit(M(), DataLoader(ds, batch_size=4))
        print("@@" + json.dumps({"fit": "returned"}))
    except BaseException as e:
        print("@@" + json.dumps({"parent_error": (type(e).__name__ + ": " + str(e))[:600]}))
'''

DRV = "torch.cuda.is_available()"
CTX = "torch.zeros(1, device='cuda')"
SCENARIOS = [
    ("joblib: Parallel(backend='multiprocessing') after is_available(), child uses CUDA",
     JOBLIB, {"INIT": DRV, "BACKEND": "backend='multiprocessing'", "USE_CUDA": "True"}),
    ("joblib: Parallel(backend='multiprocessing') after is_available(), child CPU only",
     JOBLIB, {"INIT": DRV, "BACKEND": "backend='multiprocessing'", "USE_CUDA": "False"}),
    ("joblib: Parallel() (loky) after CUDA context, child uses CUDA",
     JOBLIB, {"INIT": CTX, "BACKEND": "prefer='processes'", "USE_CUDA": "True"}),
    ("datasets: map(num_proc=2) after is_available(), function uses CUDA",
     DATASETS, {"INIT": DRV, "USE_CUDA": "True"}),
    ("datasets: map(num_proc=2) after is_available(), function CPU only",
     DATASETS, {"INIT": DRV, "USE_CUDA": "False"}),
    ("accelerate: notebook_launcher(num_processes=2), nothing before",
     NOTEBOOK, {"INIT": "pass", "PORT": "29611"}),
    ("accelerate: notebook_launcher(num_processes=2) after is_available()",
     NOTEBOOK, {"INIT": DRV, "PORT": "29612"}),
    ("accelerate: notebook_launcher(num_processes=2) after CUDA context",
     NOTEBOOK, {"INIT": CTX, "PORT": "29613"}),
    ("accelerate: notebook_launcher(num_processes=2) after Accelerator()",
     NOTEBOOK, {"INIT": "from accelerate import Accelerator; Accelerator()", "PORT": "29614"}),
    ("lightning: Trainer(strategy='ddp_fork').fit, nothing before",
     LIGHTNING, {"INIT": "pass", "STRATEGY": "ddp_fork"}),
    ("lightning: Trainer(strategy='ddp_fork').fit after is_available()",
     LIGHTNING, {"INIT": DRV, "STRATEGY": "ddp_fork"}),
    ("lightning: Trainer(strategy='ddp_notebook').fit after CUDA context",
     LIGHTNING, {"INIT": CTX, "STRATEGY": "ddp_notebook"}),
]

ENV = dict(os.environ, HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", HF_DATASETS_OFFLINE="1",
           TOKENIZERS_PARALLELISM="false", PYTHONUNBUFFERED="1")

PATTERNS = {
    "torch_bad_fork": "Cannot re-initialize CUDA in forked subprocess",
    "not_initialized": "CUDA_ERROR_NOT_INITIALIZED",
    "accelerate_refuses_accelerator": "the `Accelerator` should only be initialized",
    "accelerate_wraps_bad_fork": "has been initialized before the `notebook_launcher`",
    "lightning_refuses": "Lightning can't create new processes if CUDA is already initialized",
}


def probe(label, code):
    t0 = time.time()
    try:
        p = subprocess.run([sys.executable, "-c", WRAP % code], capture_output=True, text=True,
                           timeout=150, env=ENV, cwd=tempfile.gettempdir())
    except subprocess.TimeoutExpired:
        return label, {"error": "timeout 150 s", "driver_initialized": False, "wall_s": 150}
    lines = [l for l in p.stdout.splitlines() if l.startswith("@@")]
    if not lines:
        tail = " | ".join(p.stderr.strip().splitlines()[-3:])[:400]
        return label, {"error": "no result (exit %d): %s" % (p.returncode, tail), "driver_initialized": False}
    r = json.loads(lines[-1][2:])
    r["statement"] = code
    r["wall_s"] = round(time.time() - t0, 1)
    return label, r


def scenario(label, tmpl, subst):
    src = tmpl
    for k, v in subst.items():
        src = src.replace(k, v)
    d = tempfile.mkdtemp(prefix="scn")
    path = os.path.join(d, "main.py")
    open(path, "w").write(textwrap.dedent(src))
    t0 = time.time()
    r = {"scenario": label, "script": src}
    try:
        p = subprocess.run([sys.executable, path], capture_output=True, text=True, timeout=180, env=ENV, cwd=d)
        out, err, r["exit"] = p.stdout, p.stderr, p.returncode
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b"").decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        err = (e.stderr or b"").decode() if isinstance(e.stderr, bytes) else (e.stderr or "")
        r["exit"] = "timeout 180 s"
    r["wall_s"] = round(time.time() - t0, 1)
    r["children_reports"] = [json.loads(l.split("@@child ", 1)[1]) for l in out.splitlines() if "@@child " in l]
    res = [l for l in out.splitlines() if l.startswith("@@") and "@@child " not in l]
    r["result"] = json.loads(res[-1][2:]) if res else None
    both = out + err
    r["seen"] = sorted(k for k, pat in PATTERNS.items() if pat in both)
    r["stderr_tail"] = err.strip().splitlines()[-6:]
    return r


def env_info():
    info = {"python": sys.version.split()[0], "date": time.strftime("%Y-%m-%d")}
    try:
        info["driver"] = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"],
                                        capture_output=True, text=True, timeout=30).stdout.strip()
    except Exception as e:
        info["driver"] = "nvidia-smi failed: %s" % e
    want = ["torch", "accelerate", "lightning", "pytorch-lightning", "transformers", "sentence-transformers",
            "torch-geometric", "datasets", "multiprocess", "dill", "joblib", "deepspeed", "warp-lang", "vllm",
            "sglang", "gunicorn", "celery", "monai", "tokenizers", "huggingface-hub"]
    pl = subprocess.run([sys.executable, "-m", "pip", "list", "--format=json"], capture_output=True, text=True, timeout=120)
    try:
        have = {p["name"].lower().replace("_", "-"): p["version"] for p in json.loads(pl.stdout)}
    except Exception:
        have = {}
    info["versions"] = {w: have.get(w, "not installed") for w in want}
    return info


def main():
    out = os.environ.get("OUT", ".")
    t0 = time.time()
    info = env_info()
    print(json.dumps(info, indent=1), flush=True)
    tiny = tempfile.mkdtemp(prefix="tiny_bert")
    s = subprocess.run([sys.executable, "-c", SETUP, tiny], capture_output=True, text=True, timeout=180, env=ENV)
    info["tiny_model_setup"] = (s.stdout.strip().splitlines() or ["(no output)"])[-1] + " " + " | ".join(s.stderr.strip().splitlines()[-2:])[:300]
    ENV["TINY"] = tiny
    print("setup:", info["tiny_model_setup"], flush=True)
    results = {}
    scen = []
    with cf.ThreadPoolExecutor(8) as pex, cf.ThreadPoolExecutor(3) as sex:
        sf = [sex.submit(scenario, *s) for s in SCENARIOS]
        pf = [pex.submit(probe, k, v) for k, v in PROBES.items()]
        for f in cf.as_completed(pf):
            k, r = f.result()
            results[k] = r
            print("%-95s init=%-5s ctx=%-5s torch=%-5s err=%s" % (k, r.get("driver_initialized"), r.get("has_current_ctx"),
                  r.get("torch_cuda_is_initialized"), r.get("error")), flush=True)
        for f in cf.as_completed(sf):
            r = f.result()
            scen.append(r)
            print("SCENARIO %s: exit=%s seen=%s result=%s children=%s" % (r["scenario"], r["exit"], r["seen"],
                  json.dumps(r["result"])[:500], json.dumps(r["children_reports"])[:300]), flush=True)
    order = {s[0]: i for i, s in enumerate(SCENARIOS)}
    scen.sort(key=lambda r: order[r["scenario"]])
    info["harness_wall_s"] = round(time.time() - t0, 1)
    doc = {"env": info, "probes": {k: results[k] for k in PROBES}, "scenarios": scen}
    with open(os.path.join(out, "launchers.json"), "w") as fh:
        json.dump(doc, fh, indent=1)


if __name__ == "__main__":
    main()
