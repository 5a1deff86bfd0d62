"""A wrapper whose DataLoader, handed out through a property, serves a
dataset of CUDA tensors: the forked workers read them, which fails."""
import torch
from torch.utils.data import DataLoader, TensorDataset


class CudaFeatures:
    def __init__(self, features):
        self.loader_of_features = DataLoader(TensorDataset(features), batch_size=8, num_workers=2)

    @property
    def feature_loader(self):
        return self.loader_of_features


if __name__ == "__main__":
    features = torch.randn(64, 4, device="cuda")  # want "CFL001 .*forks at `CudaFeatures\\(features\\).feature_loader`"
    for (x,) in CudaFeatures(features).feature_loader:
        print(x.sum())
