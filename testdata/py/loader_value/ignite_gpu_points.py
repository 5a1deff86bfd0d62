"""An ignite training script whose dataset samples its points on the GPU,
so that each worker uses CUDA. The loader is handed to `trainer.run`, a
library call the analysis does not know: it may iterate the loader, and
the workers are taken to start there, after the model went to the GPU.
That iteration is assumed, not seen: a warning, not an error."""
import torch
from ignite.engine import create_supervised_trainer
from torch.utils.data import DataLoader, Dataset


class GPUPoints(Dataset):
    def __len__(self):
        return 256

    def __getitem__(self, i):
        x = torch.randn(3, device="cuda")
        return x, x.sum(dim=0, keepdim=True)


def main():
    loader = DataLoader(GPUPoints(), batch_size=32, num_workers=2)
    model = torch.nn.Linear(3, 1).cuda()  # want "CFL003 `\\.cuda\\(\\)` initializes CUDA before the process forks at `trainer\\.run\\(loader, max_epochs=5\\)` \\(line 25: DataLoader workers, the default \"fork\" start method; it is handed to a library call that may iterate it, which the analysis could not see\\); the child uses CUDA"
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    trainer = create_supervised_trainer(model, optimizer, torch.nn.MSELoss(), device="cuda")
    trainer.run(loader, max_epochs=5)


if __name__ == "__main__":
    main()
