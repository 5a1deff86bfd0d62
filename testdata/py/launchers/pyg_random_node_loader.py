"""RandomNodeLoader over a graph that lives on the GPU: its collate indexes the
data object inside each worker, so the workers use CUDA and fail (measured
in /work/eval: AcceleratorError in the worker)."""
import torch


def main():
    from torch_geometric.datasets import Planetoid  # want "CFL001 import torch_geometric.*DataLoader workers.*CUDA objects passed to the child"
    from torch_geometric.loader import RandomNodeLoader

    data = Planetoid("data", "Cora")[0].to("cuda")
    loader = RandomNodeLoader(data, num_parts=8, shuffle=True, num_workers=4)
    for part in loader:
        print(part.num_nodes)


if __name__ == "__main__":
    main()
