"""The look-alike that fails: the same top-level initialization, but the
children put their results on the GPU."""
import multiprocessing as mp

import torch

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"  # want "CFL002 .*the children use CUDA \\(`torch\\.tensor\\(\\)`, line 11\\).*3\\.13\\.8\\+, 3\\.14\\.1\\+, 3\\.15" "CFL004 .*3\\.11–3\\.13\\.7, 3\\.14\\.0"


def embed(values):
    return torch.tensor(values, device="cuda").sum().item()


if __name__ == "__main__":
    with mp.get_context("forkserver").Pool(2) as pool:
        print(pool.map(embed, [[1.0, 2.0], [3.0]]))
