"""Look-alikes: the value the model sees wins over the annotation (a CPU
experiment passed as an Experiment), and a library annotation invents no
loader (drain is called from nowhere here: its parameter is unknown)."""
import torch
from torch.utils.data import DataLoader


class Experiment:
    def train(self):
        model = torch.nn.Linear(1, 1).cuda()
        for batch in DataLoader(list(range(64)), num_workers=4):
            model(batch.float().unsqueeze(1).cuda())


class CpuExperiment:
    def train(self):
        for batch in DataLoader(list(range(64)), num_workers=4):
            print(batch.sum())


def main(exp: Experiment):
    exp.train()


def drain(loader: DataLoader):
    torch.cuda.init()
    for batch in loader:
        print(batch)


if __name__ == "__main__":
    main(CpuExperiment())
