"""A record whose __post_init__ builds the loader from its fields, after the
parent moved the model to the GPU: forked workers over a CPU dataset."""
import dataclasses

import torch
from torch.utils.data import DataLoader


@dataclasses.dataclass
class Loaders:
    dataset: list
    workers: int = 4

    def __post_init__(self):
        self.train = DataLoader(self.dataset, batch_size=4, num_workers=self.workers)


if __name__ == "__main__":
    model = torch.nn.Linear(4, 1).cuda()  # want "CFL003 `\\.cuda\\(\\)` initializes CUDA before the process forks at `loaders\\.train`"
    loaders = Loaders(list(range(32)))
    for batch in loaders.train:
        print(model(batch.float().unsqueeze(1).repeat(1, 4).cuda()))
