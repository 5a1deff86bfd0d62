"""DGL's GraphDataLoader is torch's DataLoader with a graph-batching collate:
its workers fork where it is iterated, after the model went to the GPU."""
import dgl
import torch
from dgl.data import GINDataset
from dgl.dataloading import GraphDataLoader


def train(model, loader, device):
    for batched_graph, labels in loader:
        batched_graph = batched_graph.to(device)
        model(batched_graph.ndata["attr"].float()).sum().backward()


if __name__ == "__main__":
    device = torch.device("cuda")
    model = torch.nn.Linear(7, 2).to(device)  # want "CFL003 .*forks at `loader` \\(line 10: DataLoader workers"
    dataset = GINDataset("MUTAG", self_loop=False)
    train(model, GraphDataLoader(dataset, batch_size=32, shuffle=True, num_workers=4), device)
