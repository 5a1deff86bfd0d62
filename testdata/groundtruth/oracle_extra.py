"""More probes for the catalog: calls whose catalog rows rested on docs or library
source only. Same method as oracle.py: each probe runs in a fresh interpreter;
afterwards libcuda is asked (without initializing it) whether cuInit has run
(cuDeviceGetCount != CUDA_ERROR_NOT_INITIALIZED) and whether a context is current.
Writes $OUT/oracle_extra.json and prints the same table. A probe whose API is
missing or raises records an error instead of a measurement.
JAX probes set XLA_PYTHON_CLIENT_PREALLOCATE=false and run at most 4 at a time."""
import json, os, subprocess, sys, threading, concurrent.futures as cf

CHECK = r'''
import ctypes, json, sys
loaded = any('libcuda.so' in l for l in open('/proc/self/maps'))
st = {"libcuda_loaded": loaded}
if loaded:
    cu = ctypes.CDLL('libcuda.so.1')
    n = ctypes.c_int(0)
    st["cuDeviceGetCount_rc"] = cu.cuDeviceGetCount(ctypes.byref(n))
    ctx = ctypes.c_void_p(0)
    st["cuCtxGetCurrent_rc"] = cu.cuCtxGetCurrent(ctypes.byref(ctx))
    st["has_current_ctx"] = bool(ctx.value)
st["driver_initialized"] = loaded and st.get("cuDeviceGetCount_rc") == 0
print("@@" + json.dumps(st))
'''

JAXENV = "import os; os.environ['XLA_PYTHON_CLIENT_PREALLOCATE']='false'; "
# numba 0.68 in the device image still calls numpy.row_stack, which numpy 2.5 removed;
# the shim lets its compiler run and touches nothing CUDA.
NPSHIM = "import numpy as np; np.row_stack = getattr(np, 'row_stack', np.vstack)\n"

TRITON_KERNEL_FILE = (
    "import os, sys, tempfile; d = tempfile.mkdtemp(); "
    "open(os.path.join(d, 'tk_extra.py'), 'w').write('import triton\\n@triton.jit\\ndef k(x):\\n    pass\\n'); "
    "sys.path.insert(0, d); import tk_extra"
)

PROBES = {
 # torch: factories and conversions
 "torch: torch.ones(1, device='cuda')": "import torch; torch.ones(1, device='cuda')",
 "torch: torch.tensor([1.0], device='cuda')": "import torch; torch.tensor([1.0], device='cuda')",
 "torch: torch.zeros_like(t, device='cuda')": "import torch; torch.zeros_like(torch.zeros(1), device='cuda')",
 "torch: torch.zeros(1, pin_memory=True)": "import torch; torch.zeros(1, pin_memory=True)",
 "torch: torch.load(map_location='cuda') of cpu tensor": "import torch,io; b=io.BytesIO(); torch.save(torch.zeros(2),b); b.seek(0); torch.load(b, map_location='cuda')",
 "torch: torch.cuda.FloatTensor(2)": "import torch; torch.cuda.FloatTensor(2)",
 "torch: torch.nn.DataParallel(nn.Linear(2,2))": "import torch; torch.nn.DataParallel(torch.nn.Linear(2,2))",
 "torch: torch.Generator(device='cuda')": "import torch; torch.Generator(device='cuda')",
 # torch: amp
 "torch: torch.cuda.amp.GradScaler()": "import torch; torch.cuda.amp.GradScaler()",
 "torch: torch.amp.GradScaler('cpu')": "import torch; torch.amp.GradScaler('cpu')",
 "torch: with torch.autocast('cuda')": "import torch\nwith torch.autocast('cuda'): pass",
 "torch: with torch.cuda.amp.autocast()": "import torch\nwith torch.cuda.amp.autocast(): pass",
 # torch: streams, events, graphs
 "torch: torch.cuda.Event()": "import torch; torch.cuda.Event()",
 "torch: torch.cuda.current_stream()": "import torch; torch.cuda.current_stream()",
 "torch: torch.cuda.stream(None) context manager": "import torch\nwith torch.cuda.stream(None): pass",
 "torch: torch.cuda.CUDAGraph()": "import torch; torch.cuda.CUDAGraph()",
 # torch: rng
 "torch: torch.cuda.get_rng_state()": "import torch; torch.cuda.get_rng_state()",
 "torch: torch.cuda.set_rng_state(state)": "import torch; torch.cuda.set_rng_state(torch.zeros(16, dtype=torch.uint8))",
 "torch: torch.cuda.seed()": "import torch; torch.cuda.seed()",
 "torch: torch.cuda.initial_seed()": "import torch; torch.cuda.initial_seed()",
 "torch: torch.cuda.default_stream()": "import torch; torch.cuda.default_stream()",
 "torch: torch.cuda.device(0) constructed, not entered": "import torch; torch.cuda.device(0)",
 "torch: with torch.autocast('cpu')": "import torch\nwith torch.autocast('cpu'): pass",
 "torch: torch.cuda.seed_all()": "import torch; torch.cuda.seed_all()",
 "torch: torch.cuda.get_rng_state_all()": "import torch; torch.cuda.get_rng_state_all()",
 # torch: memory and queries
 "torch: torch.cuda.memory_reserved()": "import torch; torch.cuda.memory_reserved()",
 "torch: torch.cuda.max_memory_allocated()": "import torch; torch.cuda.max_memory_allocated()",
 "torch: torch.cuda.memory_stats()": "import torch; torch.cuda.memory_stats()",
 "torch: torch.cuda.reset_max_memory_allocated()": "import torch; torch.cuda.reset_max_memory_allocated()",
 "torch: torch.cuda.ipc_collect()": "import torch; torch.cuda.ipc_collect()",
 "torch: torch.cuda.memory_summary()": "import torch; torch.cuda.memory_summary()",
 "torch: torch.cuda.set_per_process_memory_fraction(0.5)": "import torch; torch.cuda.set_per_process_memory_fraction(0.5)",
 "torch: torch.cuda.utilization()": "import torch; torch.cuda.utilization()",
 "torch: torch.__config__.show()": "import torch; torch.__config__.show()",
 "torch: torch.backends.cudnn.benchmark = True": "import torch; torch.backends.cudnn.benchmark = True; torch.backends.cuda.is_built()",
 # cupy
 "cupy: cupy.get_default_pinned_memory_pool()": "import cupy; cupy.get_default_pinned_memory_pool()",
 "cupy: cupy.get_default_memory_pool().free_all_blocks()": "import cupy; cupy.get_default_memory_pool().free_all_blocks()",
 "cupy: cupy.get_default_memory_pool().used_bytes()": "import cupy; cupy.get_default_memory_pool().used_bytes()",
 "cupy: cupy.get_default_pinned_memory_pool().free_all_blocks()": "import cupy; cupy.get_default_pinned_memory_pool().free_all_blocks()",
 "cupy: cupy.cuda.PinnedMemoryPool()": "import cupy; cupy.cuda.PinnedMemoryPool()",
 "cupy: cupy.cuda.MemoryPool()": "import cupy; cupy.cuda.MemoryPool()",
 "cupy: cupy.cuda.set_allocator(None)": "import cupy; cupy.cuda.set_allocator(None)",
 "cupy: cupy.cuda.runtime.setDevice(0)": "import cupy; cupy.cuda.runtime.setDevice(0)",
 "cupy: cupy.cuda.runtime.getDeviceProperties(0)": "import cupy; cupy.cuda.runtime.getDeviceProperties(0)",
 "cupy: cupy.cuda.Device() without an index": "import cupy; cupy.cuda.Device()",
 "cupy: with cupy.cuda.Device(0)": "import cupy\nwith cupy.cuda.Device(0): pass",
 "cupy: cupy.cuda.Device(0).synchronize()": "import cupy; cupy.cuda.Device(0).synchronize()",
 "cupy: cupy.cuda.Stream()": "import cupy; cupy.cuda.Stream()",
 "cupy: cupy.cuda.Event()": "import cupy; cupy.cuda.Event()",
 "cupy: cupy.cuda.Device(0).mem_info": "import cupy; cupy.cuda.Device(0).mem_info",
 "cupy: cupy.show_config()": "import cupy; cupy.show_config()",
 "cupy: cupy.asnumpy(numpy array)": "import cupy, numpy; cupy.asnumpy(numpy.zeros(2))",
 "cupy: cupy.cuda.driver.ctxGetCurrent() (error caught)": "import cupy\ntry: cupy.cuda.driver.ctxGetCurrent()\nexcept Exception as e: print('raised', type(e).__name__, e)",
 "cupy: cupy.random.seed(0)": "import cupy; cupy.random.seed(0)",
 "cupy: cupy.ElementwiseKernel(...) construction": "import cupy; cupy.ElementwiseKernel('float32 x', 'float32 y', 'y = x', 'copy_k')",
 "cupy: cupy.RawKernel(...) construction": "import cupy; cupy.RawKernel('extern \"C\" __global__ void k(float* x) {}', 'k')",
 "cupy: cupy.RawModule(code=...) construction": "import cupy; cupy.RawModule(code='extern \"C\" __global__ void k(float* x) {}')",
 "cupy: cupy.fuse decoration": "import cupy\n@cupy.fuse()\ndef f(x):\n    return x + 1",
 "cupy: cupyx.jit.rawkernel decoration": "from cupyx import jit\n@jit.rawkernel()\ndef k(x):\n    pass",
 # numba
 "numba: cuda.device_array(3)": "from numba import cuda; cuda.device_array(3)",
 "numba: cuda.pinned_array(3)": "from numba import cuda; cuda.pinned_array(3)",
 "numba: cuda.current_context()": "from numba import cuda; cuda.current_context()",
 "numba: cuda.synchronize()": "from numba import cuda; cuda.synchronize()",
 "numba: cuda.stream()": "from numba import cuda; cuda.stream()",
 "numba: cuda.list_devices()": "from numba import cuda; cuda.list_devices()",
 "numba: cuda.event()": "from numba import cuda; cuda.event()",
 "numba: cuda.default_stream()": "from numba import cuda; cuda.default_stream()",
 "numba: cuda.is_cuda_array(numpy array)": "import numpy as np; from numba import cuda; cuda.is_cuda_array(np.zeros(1))",
 "numba: kernel launch k[1, 1](a)": NPSHIM + "import numpy as np; from numba import cuda\n@cuda.jit\ndef k(a):\n    a[0] = 1\nk[1, 1](np.zeros(1))",
 "numba: @cuda.jit('void(float64[:])') with a signature": NPSHIM + "from numba import cuda\n@cuda.jit('void(float64[:])')\ndef k(a):\n    a[0] = 1",
 # jax
 "jax: jax.local_devices()": JAXENV + "import jax; jax.local_devices()",
 "jax: jax.local_device_count()": JAXENV + "import jax; jax.local_device_count()",
 "jax: jax.device_put(1.0)": JAXENV + "import jax; jax.device_put(1.0)",
 "jax: jnp.finfo(jnp.float32)": JAXENV + "import jax.numpy as jnp; jnp.finfo(jnp.float32)",
 "jax: jnp.iinfo, jnp.dtype, jnp.issubdtype, jnp.promote_types": JAXENV + "import jax.numpy as jnp; jnp.iinfo(jnp.int32); jnp.dtype('float32'); jnp.issubdtype(jnp.float32, jnp.floating); jnp.promote_types(jnp.int32, jnp.float32)",
 "jax: jax.grad, jax.vmap, jax.value_and_grad wrapping": JAXENV + "import jax; f = lambda x: x; jax.grad(f); jax.vmap(f); jax.value_and_grad(f)",
 "jax: jax.config.update('jax_enable_x64', True)": JAXENV + "import jax; jax.config.update('jax_enable_x64', True)",
 "jax: jax.jit(f)(1.0)": JAXENV + "import jax; jax.jit(lambda x: x + 1)(1.0)",
 "jax: jax.grad(f)(1.0)": JAXENV + "import jax; jax.grad(lambda x: x * x)(1.0)",
 "jax: jax.process_count()": JAXENV + "import jax; jax.process_count()",
 "jax: jax.lax.add(1.0, 2.0)": JAXENV + "import jax; jax.lax.add(1.0, 2.0)",
 "jax: jax.pmap decoration": JAXENV + "import jax\n@jax.pmap\ndef f(x): return x",
 "jax: jax_platforms=cpu then jax.devices()": JAXENV + "import jax; jax.config.update('jax_platforms', 'cpu'); jax.devices()",
 # cuda.bindings
 "cuda.bindings: runtime.cudaDriverGetVersion()": "from cuda.bindings import runtime; runtime.cudaDriverGetVersion()",
 "cuda.bindings: runtime.cudaGetDevice()": "from cuda.bindings import runtime; runtime.cudaGetDevice()",
 "cuda.bindings: runtime.cudaGetDeviceProperties(0)": "from cuda.bindings import runtime; runtime.cudaGetDeviceProperties(0)",
 "cuda.bindings: runtime.cudaDeviceGetAttribute(major, 0)": "from cuda.bindings import runtime; runtime.cudaDeviceGetAttribute(runtime.cudaDeviceAttr.cudaDevAttrComputeCapabilityMajor, 0)",
 "cuda.bindings: runtime.cudaGetErrorString(cudaSuccess)": "from cuda.bindings import runtime; runtime.cudaGetErrorString(runtime.cudaError_t.cudaSuccess)",
 "cuda.bindings: runtime.cudaMalloc(16)": "from cuda.bindings import runtime; runtime.cudaMalloc(16)",
 "cuda.bindings: driver.cuDeviceGetCount() without cuInit": "from cuda.bindings import driver; driver.cuDeviceGetCount()",
 "cuda.bindings: driver.cuGetErrorString(CUDA_SUCCESS)": "from cuda.bindings import driver; driver.cuGetErrorString(driver.CUresult.CUDA_SUCCESS)",
 "cuda.bindings: nvrtc.nvrtcVersion()": "from cuda.bindings import nvrtc; nvrtc.nvrtcVersion()",
 # triton / nvml
 "triton: jit decoration in a file": TRITON_KERNEL_FILE,
 "triton: triton.runtime.driver.active (attribute only)": "import triton; triton.runtime.driver.active",
 "pynvml: handle, memory info, name, driver version": "import pynvml; pynvml.nvmlInit(); h = pynvml.nvmlDeviceGetHandleByIndex(0); pynvml.nvmlDeviceGetMemoryInfo(h); pynvml.nvmlDeviceGetName(h); pynvml.nvmlSystemGetDriverVersion(); pynvml.nvmlShutdown()",
}

_jax_slots = threading.Semaphore(4)

def run(name, code):
    src = code + "\n" + CHECK
    env = dict(os.environ, XLA_PYTHON_CLIENT_PREALLOCATE="false")
    slot = _jax_slots if name.startswith("jax:") else None
    try:
        if slot:
            slot.acquire()
        p = subprocess.run([sys.executable, "-c", src], capture_output=True, text=True, timeout=240, env=env)
    except subprocess.TimeoutExpired:
        return name, {"error": "timeout"}
    except Exception as e:  # the harness must survive any single probe
        return name, {"error": f"{type(e).__name__}: {e}"[:300]}
    finally:
        if slot:
            slot.release()
    out = [l for l in p.stdout.splitlines() if l.startswith("@@")]
    if not out:
        return name, {"error": (p.stderr.strip().splitlines() or ["?"])[-1][:300], "rc": p.returncode}
    r = json.loads(out[-1][2:])
    printed = [l[:200] for l in p.stdout.splitlines() if l.strip() and not l.startswith("@@")]
    if printed:  # e.g. the text of an error a probe caught on purpose
        r["printed"] = printed[-2:]
    return name, r

if __name__ == "__main__":
    res = {}
    with cf.ThreadPoolExecutor(int(os.environ.get("PAR", "12"))) as ex:
        for name, r in ex.map(lambda kv: run(*kv), PROBES.items()):
            res[name] = r
    out = os.environ.get("OUT", ".")
    json.dump(res, open(os.path.join(out, "oracle_extra.json"), "w"), indent=1)
    for k in PROBES:
        r = res[k]
        if "error" in r:
            print(f"{k:70s} ERROR {r['error']}")
        else:
            print(f"{k:70s} init={int(r['driver_initialized'])} ctx={int(r.get('has_current_ctx', False))} loaded={int(r['libcuda_loaded'])}")
