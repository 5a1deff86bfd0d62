"""Look-alikes of fire_class.py that work. fire.Fire runs one command: with a
dict of commands, train (which initializes CUDA) and evaluate (which forks
DataLoader workers) never run in the same process. A class whose methods
return no self cannot chain them: prepare's CUDA and load's workers are
separate commands too. And a Fire entry that never initializes CUDA forks
its workers safely."""
import fire
import torch
from torch.utils.data import DataLoader


def train(data):
    torch.cuda.init()


def evaluate(data, workers=2):
    for batch in DataLoader(data, num_workers=workers):
        print(batch)


class Tool:
    def prepare(self):
        torch.cuda.init()

    def load(self, data):
        for batch in DataLoader(data, num_workers=2):
            print(batch)


def cpu_main(data, workers=4):
    for batch in DataLoader(data, num_workers=workers):
        print(torch.as_tensor(batch).sum())


def commands():
    fire.Fire({"train": train, "eval": evaluate})


def tool():
    fire.Fire(Tool)


if __name__ == "__main__":
    fire.Fire(cpu_main)
