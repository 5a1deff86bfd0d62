"""Catalog fixture: vLLM. Importing it sets PYTORCH_NVML_BASED_CUDA_CHECK=1
(vllm/env_override.py), so a later torch.cuda.is_available() initializes
nothing and a forked worker may use CUDA."""
import multiprocessing as mp

import torch


def use_gpu():
    torch.zeros(1, device="cuda")


def probe_import():
    # row: import vllm
    # evidence: code vllm-project/vllm vllm/env_override.py
    import vllm

    if torch.cuda.is_available():
        print(vllm.__version__)
    p = mp.get_context("fork").Process(target=use_gpu)
    p.start()
    p.join()
