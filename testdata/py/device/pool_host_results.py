"""Pool workers get NumPy arrays and Python numbers made from CPU tensors
(PyG's geodesic distance shape): nothing CUDA crosses the fork, and the
workers' own tensors are CPU tensors. CFL003."""
import multiprocessing as mp

import torch


def shortest(pos, src, i):
    g = torch.Generator()
    g.manual_seed(i)
    order = torch.randperm(len(src), generator=g).tolist()
    out = torch.from_numpy(pos).to(torch.float32)
    return out[order].sum().item()


if __name__ == "__main__":
    pos = torch.randn(16, 3, device="cuda")  # want "CFL003 .*Pool workers.*the children never touch CUDA"
    pos_np = pos.detach().cpu().numpy()
    src = torch.arange(pos.size(0), dtype=torch.int).numpy()
    with mp.Pool(2) as pool:
        print(pool.starmap(shortest, [(pos_np, src, i) for i in range(4)]))
