"""fire.Fire on a class instantiates it with the command line's flags, then
calls the method the next argument names: `python x.py --device=cuda run
shards`. The constructor puts the model on the GPU; run forks DataLoader
workers."""
import fire
import torch
from torch.utils.data import DataLoader


class Captioner:
    def __init__(self, device="cuda"):
        self.model = torch.nn.Linear(4, 2).to(device)  # want "CFL003 .*forks at `DataLoader\\(data, num_workers=workers\\)` \\(line 15: DataLoader workers"

    def run(self, data, workers=4):
        for batch in DataLoader(data, num_workers=workers):
            self.model(batch.to(self.model.weight.device))

    def info(self):
        print(self.model)


if __name__ == "__main__":
    fire.Fire(component=Captioner)
