"""The training runs from a main guard placed above a stale import: the
parent starts its loader workers, and only then stops at the import of
helper classes speechkit dropped. Every child the workers' forkserver
starts re-imports this module and stops at that import too, before the
module-level CUDA initialization below it: nothing initializes CUDA again
in the children."""
import torch
from torch.utils.data import DataLoader, TensorDataset


def main():
    dataset = TensorDataset(torch.randn(64, 8), torch.randint(0, 2, (64,)))
    loader = DataLoader(dataset, batch_size=8, num_workers=2)
    for x, y in loader:
        print(x.shape, y.shape)


if __name__ == "__main__":
    main()

from speechkit import Container  # noqa: E402

device = "cuda" if torch.cuda.is_available() else "cpu"
