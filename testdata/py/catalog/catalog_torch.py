"""Catalog fixture: torch. Each probe calls one catalogued API and then forks a
worker that uses CUDA; initializers are reported at the call (CFL001), known
non-initializers stay silent. The "# row:" line names the catalog row a probe
proves, the "# evidence:" line why the row says so. Evidence:
testdata/groundtruth/oracle.json and oracle_extra.json (measured on an H200),
forkmatrix.json for what the forked children then did."""
import multiprocessing as mp
import os

import torch

DEVICE = "cuda"


def use_gpu():
    torch.zeros(1, device="cuda")


def fork_worker():
    p = mp.get_context("fork").Process(target=use_gpu)
    p.start()
    p.join()


# --- import, availability and device queries --------------------------------


def probe_import_torch():
    # row: import torch
    # evidence: oracle "torch: import torch"
    import torch
    fork_worker()


def probe_is_available():
    # row: call torch.cuda.is_available
    # evidence: oracle "torch: torch.cuda.is_available()"
    if torch.cuda.is_available():  # want "CFL001"
        print("cuda")
    fork_worker()


def probe_is_available_nvml_check():
    os.environ["PYTORCH_NVML_BASED_CUDA_CHECK"] = "1"
    # row: call torch.cuda.is_available
    # evidence: oracle "torch: torch.cuda.is_available()"
    if torch.cuda.is_available():
        print("cuda")
    fork_worker()


def probe_device_count():
    # row: call torch.cuda.device_count
    # evidence: oracle "torch: torch.cuda.device_count()"
    n = torch.cuda.device_count()
    print(n)
    fork_worker()


def probe_is_initialized():
    # row: call torch.cuda.is_initialized
    # evidence: oracle "torch: torch.cuda.is_initialized()"
    assert not torch.cuda.is_initialized()
    fork_worker()


def probe_device_object():
    # row: call torch.device
    # evidence: oracle "torch: torch.device('cuda')"
    dev = torch.device("cuda")
    print(dev)
    fork_worker()


def probe_init():
    # row: call torch.cuda.init
    # evidence: oracle "torch: torch.cuda.init()"
    torch.cuda.init()  # want "CFL001"
    fork_worker()


def probe_get_device_name():
    # row: call torch.cuda.get_device_name
    # evidence: oracle "torch: torch.cuda.get_device_name(0)"
    name = torch.cuda.get_device_name(0)  # want "CFL001"
    print(name)
    fork_worker()


def probe_get_device_properties():
    # row: call torch.cuda.get_device_properties
    # evidence: oracle "torch: torch.cuda.get_device_properties(0)"
    props = torch.cuda.get_device_properties(0)  # want "CFL001"
    print(props.total_memory)
    fork_worker()


def probe_get_device_capability():
    # row: call torch.cuda.get_device_capability
    # evidence: oracle "torch: torch.cuda.get_device_capability()"
    major, minor = torch.cuda.get_device_capability()  # want "CFL001"
    print(major, minor)
    fork_worker()


def probe_current_device():
    # row: call torch.cuda.current_device
    # evidence: oracle "torch: torch.cuda.current_device()"
    idx = torch.cuda.current_device()  # want "CFL001"
    print(idx)
    fork_worker()


def probe_get_arch_list():
    # row: call torch.cuda.get_arch_list
    # evidence: oracle "torch: torch.cuda.get_arch_list()"
    archs = torch.cuda.get_arch_list()  # want "CFL001"
    print(archs)
    fork_worker()


def probe_is_bf16_supported():
    # row: call torch.cuda.is_bf16_supported
    # evidence: oracle "torch: torch.cuda.is_bf16_supported()"
    use_bf16 = torch.cuda.is_bf16_supported()  # want "CFL001"
    print(use_bf16)
    fork_worker()


def probe_utilization():
    # row: call torch.cuda.utilization
    # evidence: oracle_extra "torch: torch.cuda.utilization()"
    busy = torch.cuda.utilization()  # want "CFL001"
    print(busy)
    fork_worker()


def probe_config_show():
    # row: call torch.__config__.show
    # evidence: oracle_extra "torch: torch.__config__.show()"
    config = torch.__config__.show()  # want "CFL001"
    print(config)
    fork_worker()


def probe_nccl_version():
    # row: call torch.cuda.nccl.version
    # evidence: oracle "torch: torch.cuda.nccl.version()"
    print(torch.cuda.nccl.version())
    fork_worker()


def probe_cudnn_version():
    # row: call torch.backends.cudnn.version
    # evidence: oracle "torch: torch.backends.cudnn.version()"
    print(torch.backends.cudnn.version())  # want "CFL001"
    fork_worker()


def probe_cudnn_is_available():
    # row: call torch.backends.cudnn.is_available
    # evidence: oracle "torch: torch.backends.cudnn.is_available()"
    print(torch.backends.cudnn.is_available())
    fork_worker()


def probe_cudnn_benchmark():
    # row: attr torch.backends.cudnn.benchmark
    # evidence: oracle_extra "torch: torch.backends.cudnn.benchmark = True"
    torch.backends.cudnn.benchmark = True
    fork_worker()


def probe_cudnn_deterministic():
    # row: attr torch.backends.cudnn.deterministic
    # evidence: code pytorch/pytorch torch/backends/cudnn/__init__.py (a flag stored in torch._C, like benchmark)
    torch.backends.cudnn.deterministic = True
    fork_worker()


def probe_cuda_is_built():
    # row: call torch.backends.cuda.is_built
    # evidence: oracle_extra "torch: torch.backends.cudnn.benchmark = True"
    print(torch.backends.cuda.is_built())
    fork_worker()


# --- device selection and synchronization -----------------------------------


def probe_set_device(rank):
    # row: call torch.cuda.set_device
    # evidence: oracle "torch: torch.cuda.set_device(0)"
    torch.cuda.set_device(rank)  # want "CFL001"
    fork_worker()


def probe_device_context():
    # row: call torch.cuda.device
    # evidence: oracle "torch: torch.cuda.device(0) context manager"
    with torch.cuda.device(0):  # want "CFL001"
        pass
    fork_worker()


def probe_synchronize():
    # row: call torch.cuda.synchronize
    # evidence: oracle "torch: torch.cuda.synchronize()"
    torch.cuda.synchronize()  # want "CFL001"
    fork_worker()


def probe_mem_get_info():
    # row: call torch.cuda.mem_get_info
    # evidence: oracle "torch: torch.cuda.mem_get_info()"
    free, total = torch.cuda.mem_get_info()  # want "CFL001"
    print(free, total)
    fork_worker()


def probe_ipc_collect():
    # row: call torch.cuda.ipc_collect
    # evidence: oracle_extra "torch: torch.cuda.ipc_collect()"
    torch.cuda.ipc_collect()  # want "CFL001"
    fork_worker()


# --- streams, events, graphs -------------------------------------------------


def probe_stream():
    # row: call torch.cuda.Stream
    # evidence: oracle "torch: torch.cuda.Stream()"
    side = torch.cuda.Stream()  # want "CFL001"
    print(side)
    fork_worker()


def probe_current_stream():
    # row: call torch.cuda.current_stream
    # evidence: oracle_extra "torch: torch.cuda.current_stream()"
    stream = torch.cuda.current_stream()  # want "CFL001"
    print(stream)
    fork_worker()


def probe_default_stream():
    # row: call torch.cuda.default_stream
    # evidence: oracle_extra "torch: torch.cuda.default_stream()"
    stream = torch.cuda.default_stream()  # want "CFL001"
    print(stream)
    fork_worker()


def probe_stream_context(side):
    # row: call torch.cuda.stream
    # evidence: oracle_extra "torch: torch.cuda.stream(None) context manager"
    with torch.cuda.stream(side):  # want "CFL001"
        pass
    fork_worker()


def probe_event():
    # row: call torch.cuda.Event
    # evidence: oracle_extra "torch: torch.cuda.Event()"
    start = torch.cuda.Event(enable_timing=True)
    print(start)
    fork_worker()


def probe_cuda_graph():
    # row: call torch.cuda.CUDAGraph
    # evidence: oracle_extra "torch: torch.cuda.CUDAGraph()"
    graph = torch.cuda.CUDAGraph()  # want "CFL001"
    print(graph)
    fork_worker()


def probe_graph_capture(graph):
    # row: call torch.cuda.graph
    # evidence: code pytorch/pytorch torch/cuda/graphs.py (graph.__init__ creates its capture torch.cuda.Stream, measured InitContext)
    with torch.cuda.graph(graph):  # want "CFL001"
        pass
    fork_worker()


def probe_make_graphed_callables(model, sample):
    # row: call torch.cuda.make_graphed_callables
    # evidence: code pytorch/pytorch torch/cuda/graphs.py (warms up and captures the callables on CUDA streams)
    model = torch.cuda.make_graphed_callables(model, (sample,))  # want "CFL001"
    fork_worker()


# --- random number generators --------------------------------------------------


def probe_manual_seed():
    # row: call torch.manual_seed
    # evidence: oracle "torch: torch.manual_seed(0)"
    torch.manual_seed(0)
    fork_worker()


def probe_cuda_manual_seed():
    # row: call torch.cuda.manual_seed
    # evidence: oracle "torch: torch.cuda.manual_seed(0)"
    torch.cuda.manual_seed(0)
    fork_worker()


def probe_cuda_manual_seed_all():
    # row: call torch.cuda.manual_seed_all
    # evidence: oracle "torch: torch.cuda.manual_seed_all(0)"
    torch.cuda.manual_seed_all(0)
    fork_worker()


def probe_cuda_seed():
    # row: call torch.cuda.seed
    # evidence: oracle_extra "torch: torch.cuda.seed()"
    torch.cuda.seed()
    fork_worker()


def probe_cuda_seed_all():
    # row: call torch.cuda.seed_all
    # evidence: oracle_extra "torch: torch.cuda.seed_all()"
    torch.cuda.seed_all()
    fork_worker()


def probe_set_rng_state(state):
    # row: call torch.cuda.set_rng_state
    # evidence: oracle_extra "torch: torch.cuda.set_rng_state(state)"
    torch.cuda.set_rng_state(state)
    fork_worker()


def probe_set_rng_state_all(states):
    # row: call torch.cuda.set_rng_state_all
    # evidence: code pytorch/pytorch torch/cuda/random.py (calls set_rng_state per device, each queued with _lazy_call)
    torch.cuda.set_rng_state_all(states)
    fork_worker()


def probe_get_rng_state():
    # row: call torch.cuda.get_rng_state
    # evidence: oracle_extra "torch: torch.cuda.get_rng_state()"
    state = torch.cuda.get_rng_state()  # want "CFL001"
    print(state)
    fork_worker()


def probe_get_rng_state_all():
    # row: call torch.cuda.get_rng_state_all
    # evidence: oracle_extra "torch: torch.cuda.get_rng_state_all()"
    states = torch.cuda.get_rng_state_all()  # want "CFL001"
    print(states)
    fork_worker()


def probe_initial_seed():
    # row: call torch.cuda.initial_seed
    # evidence: oracle_extra "torch: torch.cuda.initial_seed()"
    print(torch.cuda.initial_seed())  # want "CFL001"
    fork_worker()


def probe_cuda_generator():
    # row: call torch.Generator
    # evidence: oracle_extra "torch: torch.Generator(device='cuda')"
    gen = torch.Generator(device="cuda")  # want "CFL001"
    print(gen)
    fork_worker()


def probe_cpu_generator():
    # row: call torch.Generator
    # evidence: oracle_extra "torch: torch.Generator(device='cuda')"
    gen = torch.Generator()
    print(gen)
    fork_worker()


# --- memory statistics and allocator settings ----------------------------------


def probe_memory_allocated():
    # row: call torch.cuda.memory_allocated
    # evidence: oracle "torch: torch.cuda.memory_allocated()"
    print(torch.cuda.memory_allocated())
    fork_worker()


def probe_memory_reserved():
    # row: call torch.cuda.memory_reserved
    # evidence: oracle_extra "torch: torch.cuda.memory_reserved()"
    print(torch.cuda.memory_reserved())
    fork_worker()


def probe_max_memory_allocated():
    # row: call torch.cuda.max_memory_allocated
    # evidence: oracle_extra "torch: torch.cuda.max_memory_allocated()"
    print(torch.cuda.max_memory_allocated())
    fork_worker()


def probe_max_memory_reserved():
    # row: call torch.cuda.max_memory_reserved
    # evidence: code pytorch/pytorch torch/cuda/memory.py (reads memory_stats(), which returns {} while CUDA is uninitialized; max_memory_allocated measured silent)
    print(torch.cuda.max_memory_reserved())
    fork_worker()


def probe_memory_stats():
    # row: call torch.cuda.memory_stats
    # evidence: oracle_extra "torch: torch.cuda.memory_stats()"
    stats = torch.cuda.memory_stats()
    print(stats)
    fork_worker()


def probe_memory_summary():
    # row: call torch.cuda.memory_summary
    # evidence: oracle_extra "torch: torch.cuda.memory_summary()"
    print(torch.cuda.memory_summary())  # want "CFL001"
    fork_worker()


def probe_reset_peak_memory_stats():
    # row: call torch.cuda.reset_peak_memory_stats
    # evidence: oracle "torch: torch.cuda.reset_peak_memory_stats()"
    torch.cuda.reset_peak_memory_stats()  # want "CFL001"
    fork_worker()


def probe_reset_max_memory_allocated():
    # row: call torch.cuda.reset_max_memory_allocated
    # evidence: oracle_extra "torch: torch.cuda.reset_max_memory_allocated()"
    torch.cuda.reset_max_memory_allocated()  # want "CFL001"
    fork_worker()


def probe_empty_cache():
    # row: call torch.cuda.empty_cache
    # evidence: oracle "torch: torch.cuda.empty_cache()"
    torch.cuda.empty_cache()
    fork_worker()


def probe_memory_fraction():
    # row: call torch.cuda.set_per_process_memory_fraction
    # evidence: oracle_extra "torch: torch.cuda.set_per_process_memory_fraction(0.5)"
    torch.cuda.set_per_process_memory_fraction(0.5)  # want "CFL001"
    fork_worker()


# --- mixed precision -------------------------------------------------------------


def probe_grad_scaler_cuda():
    # row: call torch.amp.GradScaler
    # evidence: oracle "torch: torch.amp.GradScaler('cuda')"
    scaler = torch.amp.GradScaler("cuda")  # want "CFL001"
    print(scaler)
    fork_worker()


def probe_grad_scaler_default():
    # row: call torch.amp.GradScaler
    # evidence: oracle "torch: torch.amp.GradScaler('cuda')"
    scaler = torch.amp.GradScaler()  # want "CFL001"
    print(scaler)
    fork_worker()


def probe_grad_scaler_keyword():
    # row: call torch.amp.GradScaler
    # evidence: oracle "torch: torch.amp.GradScaler('cuda')"
    scaler = torch.amp.GradScaler(device="cuda", init_scale=1024.0)  # want "CFL001"
    print(scaler)
    fork_worker()


def probe_grad_scaler_cpu():
    # row: call torch.amp.GradScaler
    # evidence: oracle "torch: torch.amp.GradScaler('cuda')"
    scaler = torch.amp.GradScaler("cpu")
    print(scaler)
    fork_worker()


def probe_cuda_amp_grad_scaler():
    # row: call torch.cuda.amp.GradScaler
    # evidence: oracle_extra "torch: torch.cuda.amp.GradScaler()"
    scaler = torch.cuda.amp.GradScaler()  # want "CFL001"
    print(scaler)
    fork_worker()


def probe_autocast_cuda():
    # row: call torch.autocast
    # evidence: oracle_extra "torch: with torch.autocast('cuda')"
    with torch.autocast("cuda"):  # want "CFL001"
        pass
    fork_worker()


def probe_autocast_cpu():
    # row: call torch.autocast
    # evidence: oracle_extra "torch: with torch.autocast('cuda')"
    with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
        pass
    fork_worker()


def probe_grad_scaler_disabled():
    # row: call torch.amp.GradScaler
    # evidence: probes "torch.amp.GradScaler('cuda', enabled=False)"
    scaler = torch.amp.GradScaler("cuda", enabled=False)
    print(scaler)
    fork_worker()


def probe_cuda_amp_grad_scaler_disabled():
    # row: call torch.cuda.amp.GradScaler
    # evidence: probes "torch.amp.GradScaler('cuda', enabled=False)"
    scaler = torch.cuda.amp.GradScaler(enabled=False)
    print(scaler)
    fork_worker()


def probe_autocast_enabled():
    # row: call torch.autocast
    # evidence: probes "torch.amp.autocast('cuda', enabled=True)"
    with torch.amp.autocast("cuda", enabled=True):  # want "CFL001"
        pass
    fork_worker()


def probe_autocast_disabled():
    # row: call torch.autocast
    # evidence: probes "torch.autocast(device_type='cuda', enabled=False)"
    with torch.autocast(device_type="cuda", enabled=False):
        pass
    fork_worker()


def probe_cuda_amp_autocast_disabled():
    # row: call torch.cuda.amp.autocast
    # evidence: probes "torch.amp.autocast('cuda', enabled=False)"
    with torch.cuda.amp.autocast(enabled=False):
        pass
    fork_worker()


def probe_cuda_amp_autocast():
    # row: call torch.cuda.amp.autocast
    # evidence: oracle_extra "torch: with torch.cuda.amp.autocast()"
    with torch.cuda.amp.autocast():  # want "CFL001"
        pass
    fork_worker()


# --- tensors and modules placed on a device --------------------------------------


def probe_zeros_cuda():
    # row: call torch.zeros
    # evidence: oracle "torch: torch.zeros(1, device='cuda')"
    buf = torch.zeros(1, device="cuda")  # want "CFL001"
    print(buf)
    fork_worker()


def probe_zeros_cpu():
    # row: call torch.zeros
    # evidence: oracle "torch: torch.zeros(1, device='cuda')"
    buf = torch.zeros(3)
    print(buf)
    fork_worker()


def probe_zeros_after_set_default_device():
    # row: call torch.set_default_device
    # evidence: oracle "torch: torch.set_default_device('cuda')"
    torch.set_default_device("cuda")
    # row: call torch.zeros
    # evidence: oracle "torch: torch.zeros(1, device='cuda')"
    buf = torch.zeros(1)  # want "CFL001"
    print(buf)
    fork_worker()


def probe_default_tensor_type():
    # row: call torch.set_default_tensor_type
    # evidence: probes "torch.set_default_tensor_type('torch.cuda.FloatTensor') (nothing allocated after it)"
    torch.set_default_tensor_type("torch.cuda.FloatTensor")
    fork_worker()


def probe_get_default_device():
    # row: call torch.get_default_device
    # evidence: probes "torch.get_default_device()"
    print(torch.get_default_device())
    fork_worker()


def probe_linear_under_cuda_device():
    with torch.device("cuda"):
        # row: call torch.nn.Linear
        # evidence: probes "with torch.device('cuda'): m = torch.nn.Linear(2, 2)"
        m = torch.nn.Linear(2, 2)  # want "CFL001"
    print(m)
    fork_worker()


def probe_linear_cpu():
    # row: call torch.nn.Linear
    # evidence: probes "with torch.device('cuda'): m = torch.nn.Linear(2, 2)"
    m = torch.nn.Linear(2, 2)
    print(m)
    fork_worker()


def probe_layers_on_cuda():
    # row: call torch.nn.Conv2d
    # evidence: code "pytorch/pytorch torch/nn/modules"
    conv = torch.nn.Conv2d(3, 8, 3, device="cuda")  # want "CFL001"
    print(conv)
    fork_worker()


def probe_layers_on_cpu():
    # row: call torch.nn.Embedding
    # evidence: code "pytorch/pytorch torch/nn/modules"
    emb = torch.nn.Embedding(10, 4)
    # row: call torch.nn.LayerNorm
    # evidence: code "pytorch/pytorch torch/nn/modules"
    norm = torch.nn.LayerNorm(4, device="cpu")
    print(emb, norm)
    fork_worker()


def probe_ones_device_object():
    dev = torch.device("cuda")
    # row: call torch.ones
    # evidence: oracle_extra "torch: torch.ones(1, device='cuda')"
    buf = torch.ones(2, device=dev)  # want "CFL001"
    print(buf)
    fork_worker()


def probe_tensor():
    # row: call torch.tensor
    # evidence: oracle_extra "torch: torch.tensor([1.0], device='cuda')"
    t = torch.tensor([1.0, 2.0], device="cuda:0")  # want "CFL001"
    print(t)
    fork_worker()


def probe_tensor_cpu():
    # row: call torch.tensor
    # evidence: oracle_extra "torch: torch.tensor([1.0], device='cuda')"
    t = torch.tensor([1.0, 2.0])
    print(t)
    fork_worker()


def probe_as_tensor(data):
    # row: call torch.as_tensor
    # evidence: code pytorch/pytorch torch/_torch_docs.py (as_tensor(data, dtype=None, device=None) copies data to device; same allocation as torch.tensor)
    t = torch.as_tensor(data, device="cuda")  # want "CFL001"
    print(t)
    fork_worker()


def probe_empty():
    # row: call torch.empty
    # evidence: code pytorch/pytorch torch/_torch_docs.py (factory with device=; same allocation path as torch.zeros and torch.ones, measured)
    t = torch.empty(2, 3, device="cuda")  # want "CFL001"
    print(t)
    fork_worker()


def probe_full():
    # row: call torch.full
    # evidence: code pytorch/pytorch torch/_torch_docs.py (factory with device=; same allocation path as torch.zeros and torch.ones, measured)
    t = torch.full((2,), 1.0, device="cuda")  # want "CFL001"
    print(t)
    fork_worker()


def probe_rand():
    # row: call torch.rand
    # evidence: code pytorch/pytorch torch/_torch_docs.py (factory with device=; same allocation path as torch.zeros and torch.ones, measured)
    t = torch.rand(4, device="cuda")  # want "CFL001"
    print(t)
    fork_worker()


def probe_randn_constant_device():
    # row: call torch.randn
    # evidence: code pytorch/pytorch torch/_torch_docs.py (factory with device=; same allocation path as torch.zeros and torch.ones, measured)
    t = torch.randn(4, device=DEVICE)  # want "CFL001"
    print(t)
    fork_worker()


def probe_randint():
    # row: call torch.randint
    # evidence: code pytorch/pytorch torch/_torch_docs.py (factory with device=; same allocation path as torch.zeros and torch.ones, measured)
    t = torch.randint(0, 10, (4,), device="cuda")  # want "CFL001"
    print(t)
    fork_worker()


def probe_randperm():
    # row: call torch.randperm
    # evidence: code pytorch/pytorch torch/_torch_docs.py (factory with device=; same allocation path as torch.zeros and torch.ones, measured)
    t = torch.randperm(8, device="cuda")  # want "CFL001"
    print(t)
    fork_worker()


def probe_arange():
    # row: call torch.arange
    # evidence: code pytorch/pytorch torch/_torch_docs.py (factory with device=; same allocation path as torch.zeros and torch.ones, measured)
    t = torch.arange(8, device="cuda")  # want "CFL001"
    print(t)
    fork_worker()


def probe_linspace():
    # row: call torch.linspace
    # evidence: code pytorch/pytorch torch/_torch_docs.py (factory with device=; same allocation path as torch.zeros and torch.ones, measured)
    t = torch.linspace(0, 1, 5, device="cuda")  # want "CFL001"
    print(t)
    fork_worker()


def probe_logspace():
    # row: call torch.logspace
    # evidence: code pytorch/pytorch torch/_torch_docs.py (factory with device=; same allocation path as torch.zeros and torch.ones, measured)
    t = torch.logspace(0, 1, 5, device="cuda")  # want "CFL001"
    print(t)
    fork_worker()


def probe_eye():
    # row: call torch.eye
    # evidence: code pytorch/pytorch torch/_torch_docs.py (factory with device=; same allocation path as torch.zeros and torch.ones, measured)
    t = torch.eye(3, device="cuda")  # want "CFL001"
    print(t)
    fork_worker()


def probe_empty_strided():
    # row: call torch.empty_strided
    # evidence: code pytorch/pytorch torch/_torch_docs.py (factory with device=; same allocation path as torch.zeros and torch.ones, measured)
    t = torch.empty_strided((2, 2), (2, 1), device="cuda")  # want "CFL001"
    print(t)
    fork_worker()


def probe_zeros_like(x):
    # row: call torch.zeros_like
    # evidence: oracle_extra "torch: torch.zeros_like(t, device='cuda')"
    t = torch.zeros_like(x, device="cuda")  # want "CFL001"
    print(t)
    fork_worker()


def probe_ones_like_same_device(x):
    # row: call torch.ones_like
    # evidence: code pytorch/pytorch torch/_torch_docs.py (*_like factories take device=; zeros_like measured)
    t = torch.ones_like(x)
    print(t)
    fork_worker()


def probe_ones_like(x):
    # row: call torch.ones_like
    # evidence: code pytorch/pytorch torch/_torch_docs.py (*_like factories take device=; zeros_like measured)
    t = torch.ones_like(x, device="cuda")  # want "CFL001"
    print(t)
    fork_worker()


def probe_empty_like(x):
    # row: call torch.empty_like
    # evidence: code pytorch/pytorch torch/_torch_docs.py (*_like factories take device=; zeros_like measured)
    t = torch.empty_like(x, device="cuda")  # want "CFL001"
    print(t)
    fork_worker()


def probe_full_like(x):
    # row: call torch.full_like
    # evidence: code pytorch/pytorch torch/_torch_docs.py (*_like factories take device=; zeros_like measured)
    t = torch.full_like(x, 7, device="cuda")  # want "CFL001"
    print(t)
    fork_worker()


def probe_rand_like(x):
    # row: call torch.rand_like
    # evidence: code pytorch/pytorch torch/_torch_docs.py (*_like factories take device=; zeros_like measured)
    t = torch.rand_like(x, device="cuda")  # want "CFL001"
    print(t)
    fork_worker()


def probe_randn_like(x):
    # row: call torch.randn_like
    # evidence: code pytorch/pytorch torch/_torch_docs.py (*_like factories take device=; zeros_like measured)
    t = torch.randn_like(x, device="cuda")  # want "CFL001"
    print(t)
    fork_worker()


def probe_randint_like(x):
    # row: call torch.randint_like
    # evidence: code pytorch/pytorch torch/_torch_docs.py (*_like factories take device=; zeros_like measured)
    t = torch.randint_like(x, 10, device="cuda")  # want "CFL001"
    print(t)
    fork_worker()


def probe_load_to_cuda(path):
    # row: call torch.load
    # evidence: oracle_extra "torch: torch.load(map_location='cuda') of cpu tensor"
    state = torch.load(path, map_location="cuda")  # want "CFL001"
    print(state)
    fork_worker()


def probe_load_positional_device(path):
    # row: call torch.load
    # evidence: oracle_extra "torch: torch.load(map_location='cuda') of cpu tensor"
    state = torch.load(path, "cuda:0")  # want "CFL001"
    print(state)
    fork_worker()


def probe_load_to_cpu(path):
    # row: call torch.load
    # evidence: oracle_extra "torch: torch.load(map_location='cuda') of cpu tensor"
    state = torch.load(path, map_location="cpu")
    print(state)
    fork_worker()


def probe_float_tensor():
    # row: call torch.cuda.FloatTensor
    # evidence: oracle_extra "torch: torch.cuda.FloatTensor(2)"
    t = torch.cuda.FloatTensor(2)  # want "CFL001"
    print(t)
    fork_worker()


def probe_double_tensor():
    # row: call torch.cuda.DoubleTensor
    # evidence: code pytorch/pytorch torch/csrc/tensor/python_tensor.cpp (legacy CUDA tensor types lazily init CUDA and allocate; FloatTensor measured)
    t = torch.cuda.DoubleTensor(2)  # want "CFL001"
    print(t)
    fork_worker()


def probe_half_tensor():
    # row: call torch.cuda.HalfTensor
    # evidence: code pytorch/pytorch torch/csrc/tensor/python_tensor.cpp (legacy CUDA tensor types lazily init CUDA and allocate; FloatTensor measured)
    t = torch.cuda.HalfTensor(2)  # want "CFL001"
    print(t)
    fork_worker()


def probe_bfloat16_tensor():
    # row: call torch.cuda.BFloat16Tensor
    # evidence: code pytorch/pytorch torch/csrc/tensor/python_tensor.cpp (legacy CUDA tensor types lazily init CUDA and allocate; FloatTensor measured)
    t = torch.cuda.BFloat16Tensor(2)  # want "CFL001"
    print(t)
    fork_worker()


def probe_long_tensor():
    # row: call torch.cuda.LongTensor
    # evidence: code pytorch/pytorch torch/csrc/tensor/python_tensor.cpp (legacy CUDA tensor types lazily init CUDA and allocate; FloatTensor measured)
    t = torch.cuda.LongTensor([1, 2])  # want "CFL001"
    print(t)
    fork_worker()


def probe_int_tensor():
    # row: call torch.cuda.IntTensor
    # evidence: code pytorch/pytorch torch/csrc/tensor/python_tensor.cpp (legacy CUDA tensor types lazily init CUDA and allocate; FloatTensor measured)
    t = torch.cuda.IntTensor([1, 2])  # want "CFL001"
    print(t)
    fork_worker()


def probe_short_tensor():
    # row: call torch.cuda.ShortTensor
    # evidence: code pytorch/pytorch torch/csrc/tensor/python_tensor.cpp (legacy CUDA tensor types lazily init CUDA and allocate; FloatTensor measured)
    t = torch.cuda.ShortTensor([1, 2])  # want "CFL001"
    print(t)
    fork_worker()


def probe_char_tensor():
    # row: call torch.cuda.CharTensor
    # evidence: code pytorch/pytorch torch/csrc/tensor/python_tensor.cpp (legacy CUDA tensor types lazily init CUDA and allocate; FloatTensor measured)
    t = torch.cuda.CharTensor([1, 2])  # want "CFL001"
    print(t)
    fork_worker()


def probe_byte_tensor():
    # row: call torch.cuda.ByteTensor
    # evidence: code pytorch/pytorch torch/csrc/tensor/python_tensor.cpp (legacy CUDA tensor types lazily init CUDA and allocate; FloatTensor measured)
    t = torch.cuda.ByteTensor([1, 2])  # want "CFL001"
    print(t)
    fork_worker()


def probe_bool_tensor():
    # row: call torch.cuda.BoolTensor
    # evidence: code pytorch/pytorch torch/csrc/tensor/python_tensor.cpp (legacy CUDA tensor types lazily init CUDA and allocate; FloatTensor measured)
    t = torch.cuda.BoolTensor([True])  # want "CFL001"
    print(t)
    fork_worker()


def probe_data_parallel(model):
    # row: call torch.nn.DataParallel
    # evidence: oracle_extra "torch: torch.nn.DataParallel(nn.Linear(2,2))"
    model = torch.nn.DataParallel(model)  # want "CFL001"
    fork_worker()


def probe_tensor_cuda(batch):
    # row: method .cuda
    # evidence: oracle "torch: torch.zeros(1).cuda()"
    batch = batch.cuda()  # want "CFL001"
    fork_worker()


def probe_module_to_cuda(model):
    # row: method .to
    # evidence: oracle "torch: nn.Linear(2,2).to('cuda')"
    model.to("cuda")  # want "CFL001"
    fork_worker()


def probe_tensor_to_device_object(batch):
    # row: method .to
    # evidence: oracle "torch: nn.Linear(2,2).to('cuda')"
    batch = batch.to(torch.device("cuda", 0))  # want "CFL001"
    fork_worker()


def probe_tensor_to_device_keyword(batch):
    # row: method .to
    # evidence: oracle "torch: nn.Linear(2,2).to('cuda')"
    batch = batch.to(device="cuda:1", non_blocking=True)  # want "CFL001"
    fork_worker()


def probe_module_to_cpu(model):
    # row: method .to
    # evidence: oracle "torch: nn.Linear(2,2).to('cuda')"
    model.to("cpu")
    fork_worker()


def probe_tensor_to_dtype(batch):
    # row: method .to
    # evidence: oracle "torch: nn.Linear(2,2).to('cuda')"
    batch = batch.to(torch.float16)
    fork_worker()


def probe_pin_memory(batch):
    # row: method .pin_memory
    # evidence: oracle "torch: torch.randn(2).pin_memory()"
    batch = batch.pin_memory()  # want "CFL001"
    fork_worker()


# --- the device-generic API (libraries.json) ---------------------------------


def probe_accelerator_is_available():
    # row: call torch.accelerator.is_available
    # evidence: libraries "torch: import torch; torch.accelerator.is_available()"
    if torch.accelerator.is_available():  # want "CFL001"
        print("accelerator")
    fork_worker()


def probe_accelerator_device_count():
    # row: call torch.accelerator.device_count
    # evidence: libraries "torch: import torch; torch.accelerator.device_count()"
    print(torch.accelerator.device_count())
    fork_worker()


def probe_current_accelerator():
    # row: call torch.accelerator.current_accelerator
    # evidence: libraries "torch: import torch; torch.accelerator.current_accelerator()"
    print(torch.accelerator.current_accelerator())
    fork_worker()


def probe_current_device_index():
    # row: call torch.accelerator.current_device_index
    # evidence: libraries "torch: import torch; torch.accelerator.current_device_index()"
    print(torch.accelerator.current_device_index())  # want "CFL001"
    fork_worker()


def probe_get_device_module():
    # row: call torch.get_device_module
    # evidence: libraries "probes-2026-12: torch.get_device_module()"
    mod = torch.get_device_module()  # want "CFL001"
    print(mod)
    fork_worker()


def probe_allow_tf32():
    # row: attr torch.backends.cuda.matmul.allow_tf32
    # evidence: libraries "torch: import torch; torch.backends.cuda.matmul.allow_tf32 = True"
    torch.backends.cuda.matmul.allow_tf32 = True
    fork_worker()


def probe_matmul_precision():
    # row: call torch.set_float32_matmul_precision
    # evidence: libraries "torch: import torch; torch.set_float32_matmul_precision("high")"
    torch.set_float32_matmul_precision("high")
    fork_worker()
