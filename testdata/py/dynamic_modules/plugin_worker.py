"""The parent warms the GPU through a helper the plugins package installs
with setattr, then forks a pool whose workers allocate on the device the
package names (setattr by a constant name)."""
import multiprocessing as mp

import plugins
import torch


def work(i):
    return torch.ones(2, device=plugins.default_device).sum().item() + i


if __name__ == "__main__":
    plugins.warm_up()
    with mp.Pool(2) as pool:
        print(pool.map(work, range(4)))
