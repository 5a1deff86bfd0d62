"""
A simple Darcy-flow dataset
===========================
A sphinx-gallery example with no main guard: it takes the 32x32 test loader
out of the dict the helper returns and draws one batch from it at the top
level, which starts that loader's worker; under the 3.14 forkserver the
worker re-imports this script and starts another while bootstrapping.
"""
from neuralop_mini import load_darcy_flow_small

train_loader, test_loaders, data_processor = load_darcy_flow_small(
    n_train=100,
    batch_size=4,
    test_resolutions=[16, 32],
    n_tests=[50, 50],
    test_batch_sizes=[4, 2],
)

test_loader = test_loaders[32]
x, y = next(iter(test_loader))  # want "CFL005 Children are started at `iter\\(test_loader\\)` \\(line 20: DataLoader workers, the default \"forkserver\" start method\\) at import time"
print(f"Testing samples for res 32 have shape {x.shape[1:]}")
