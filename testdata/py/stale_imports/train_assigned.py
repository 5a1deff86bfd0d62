"""The package binds Output (an assignment in the package): the import succeeds and the
script runs on to its loader."""
import torch
from torch.utils.data import DataLoader, TensorDataset

from speechkit import Output

device = "cuda" if torch.cuda.is_available() else "cpu"  # want "CFL003" "CFL004" "CFL006"


def main():
    dataset = TensorDataset(torch.randn(64, 8), torch.randint(0, 2, (64,)))
    loader = DataLoader(dataset, batch_size=8, num_workers=2)
    model = torch.nn.Linear(8, 2).to(device)
    print(Output)
    for x, y in loader:
        loss = torch.nn.functional.cross_entropy(model(x.to(device)), y.to(device))
        loss.backward()


if __name__ == "__main__":
    main()
