"""Small Darcy-flow data, as neuraloperator's neuralop.data.datasets.darcy
loads it: a training loader and one test loader per resolution, kept in a
dict, returned together."""
import torch
from torch.utils.data import DataLoader, TensorDataset


def _fields(n, res):
    return TensorDataset(torch.randn(n, 1, res, res), torch.randn(n, 1, res, res))


def load_darcy_flow_small(n_train, n_tests, batch_size, test_batch_sizes, test_resolutions=(16, 32)):
    train_db = _fields(n_train, 16)
    train_loader = DataLoader(train_db, batch_size=batch_size, num_workers=1, pin_memory=True, persistent_workers=False)

    test_loaders = {}
    for res, n_test, test_bsize in zip(test_resolutions, n_tests, test_batch_sizes):
        test_loaders[res] = DataLoader(
            _fields(n_test, res), batch_size=test_bsize, shuffle=False, num_workers=1, pin_memory=True, persistent_workers=False
        )

    return train_loader, test_loaders, None
