"""Written for a speechkit with a `superb` subpackage, which 0.4 removed:
`speechkit.superb` has no file in the package, so its import raises
ModuleNotFoundError and the script stops there."""
import torch
from torch.utils.data import DataLoader, TensorDataset

from speechkit.superb import asr as problem

device = "cuda" if torch.cuda.is_available() else "cpu"


def main():
    dataset = TensorDataset(torch.randn(64, 8), torch.randint(0, 2, (64,)))
    loader = DataLoader(dataset, batch_size=8, num_workers=2)
    model = problem.Model().to(device)
    for x, y in loader:
        loss = torch.nn.functional.cross_entropy(model(x.to(device)), y.to(device))
        loss.backward()


if __name__ == "__main__":
    main()
