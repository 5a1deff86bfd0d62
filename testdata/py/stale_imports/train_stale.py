"""An example script left behind by the toolkit's 0.4 release, which dropped
the helper classes it imports: the import on line 8 raises ImportError and
nothing after it runs, on any Python."""
import torch
from torch.utils.data import DataLoader, TensorDataset
from tqdm import tqdm

from speechkit import Container, Object
from speechkit.nn import Upstream

device = "cuda" if torch.cuda.is_available() else "cpu"


def main():
    config = Container(batch_size=8)
    dataset = TensorDataset(torch.randn(64, 8), torch.randint(0, 2, (64,)))
    loader = DataLoader(dataset, batch_size=config.batch_size, num_workers=2)
    model = Upstream().to(device)
    for x, y in tqdm(loader, desc="Train"):
        loss = torch.nn.functional.cross_entropy(model(x.to(device)), y.to(device))
        loss.backward()
    Object()


if __name__ == "__main__":
    main()
