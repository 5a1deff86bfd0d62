"""A PyG training script: importing torch_geometric runs cuInit (its typing
module calls torch.__config__.show()), then a NeighborLoader with workers is
iterated. The workers sample on the CPU and the parent gathers the features,
even for data on the GPU: a benign fork (CFL003), anchored at the import."""
import torch


def train(loader, model, optimizer):
    for batch in loader:
        optimizer.zero_grad()
        out = model(batch.x, batch.edge_index)
        loss = torch.nn.functional.cross_entropy(out[: batch.batch_size], batch.y[: batch.batch_size])
        loss.backward()
        optimizer.step()


def main():
    import torch_geometric  # want "CFL003 import torch_geometric.*DataLoader workers.*never touch CUDA"
    from torch_geometric.datasets import Reddit
    from torch_geometric.loader import NeighborLoader

    device = torch.device("cuda")
    data = Reddit("data/Reddit")[0].to(device, "x", "y")
    loader = NeighborLoader(data, num_neighbors=[25, 10], batch_size=1024, shuffle=True, num_workers=6)
    model = torch_geometric.nn.GraphSAGE(data.num_features, 256, 2).to(device)
    train(loader, model, torch.optim.Adam(model.parameters()))


if __name__ == "__main__":
    main()
