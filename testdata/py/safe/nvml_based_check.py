"""With PYTORCH_NVML_BASED_CUDA_CHECK=1, is_available() asks NVML (oracle.json:
"is_available() with PYTORCH_NVML_BASED_CUDA_CHECK=1" — init: no)."""
import multiprocessing as mp
import os

os.environ["PYTORCH_NVML_BASED_CUDA_CHECK"] = "1"

import torch  # noqa: E402


def child():
    torch.ones(1, device="cuda")


if __name__ == "__main__":
    if torch.cuda.is_available():
        p = mp.get_context("fork").Process(target=child)
        p.start()
        p.join()
