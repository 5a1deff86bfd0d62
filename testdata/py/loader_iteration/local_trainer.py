"""A hand-written trainer in the style of Lightning's build_your_own_trainer:
the loader is handed to fit, wrapped by Fabric, passed on to train_loop and
wrapped again by a progress bar; the workers start where train_loop iterates
it."""
import lightning as L
import torch
from torch.utils.data import DataLoader, TensorDataset
from tqdm import tqdm


class MyTrainer:
    def __init__(self, verbose=True):
        self.fabric = L.Fabric(accelerator="cuda", devices=1)
        self.verbose = verbose

    def fit(self, model, train_loader, val_loader=None):
        self.fabric.launch()
        train_loader = self.fabric.setup_dataloaders(train_loader)
        model = self.fabric.setup(model)
        for epoch in range(2):
            self.train_loop(model, train_loader)
            self.summarize(val_loader)

    def train_loop(self, model, loader):
        iterable = self.progress(loader, desc="train")
        for batch_idx, (x,) in enumerate(iterable):  # the fork
            model(x).sum().backward()

    def summarize(self, loader):
        # Measures the validation loader, never iterates it.
        if loader is not None:
            print(len(loader), "validation batches")

    def progress(self, iterable, **kwargs):
        if self.verbose:
            return tqdm(iterable, **kwargs)
        return iterable


if __name__ == "__main__":
    data = TensorDataset(torch.randn(64, 4))
    train = DataLoader(data, batch_size=8, num_workers=2)
    val = DataLoader(data, batch_size=8, num_workers=2)
    torch.cuda.set_device(0)  # want "CFL003 .*forks at `enumerate\\(iterable\\)` \\(line 26: DataLoader workers.*\\); the children never touch CUDA"
    MyTrainer().fit(torch.nn.Linear(4, 1), train, val)
