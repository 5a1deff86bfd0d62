"""A pool kept in an attribute and used from another method."""
import multiprocessing as mp

import torch


def embed(batch):
    return torch.as_tensor(batch, device="cuda").mean().item()


class Service:
    def __init__(self):
        self.model = torch.nn.Linear(4, 4).cuda()  # want "CFL001 .*Pool workers.*uses CUDA \\(`torch\\.as_tensor\\(\\)`, line 8\\)"
        self.pool = mp.Pool(2)

    def handle(self, batches):
        return self.pool.map(embed, batches)


if __name__ == "__main__":
    print(Service().handle([[1.0], [2.0]]))
