"""
Spectral analysis of the Darcy-flow data
========================================
A sphinx-gallery example, run top to bottom with no main guard. It loads the
data through the library's loader helper but reads the training samples
through `train_loader.dataset` alone: no loader is iterated, so no worker
starts, and the test loaders kept in their dict are never touched.
"""
import torch

from neuralop_mini import load_darcy_flow_small

samples = 50
train_loader, test_loaders, data_processor = load_darcy_flow_small(
    n_train=samples,
    n_tests=[50, 50],
    batch_size=50,
    test_batch_sizes=[32, 32],
)

print("Original dataset shape:", train_loader.dataset[:samples][0].shape)
fields = train_loader.dataset[:samples][1].squeeze()
spectrum = torch.fft.rfft2(fields).abs().mean(dim=0)
print(spectrum.shape)
