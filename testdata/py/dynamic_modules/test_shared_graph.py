"""A test that moves a graph to the GPU and then forks a reader of the
shared-memory copy: `F.cuda()` is the backend's, found through the computed
import and the globals() copy."""
import multiprocessing as mp

import backend as F
import torch


def read_shared(name):
    return torch.load(name)


def test_copy_from_gpu():
    features = torch.ones(4, 2)
    on_gpu = features.to(F.cuda())  # want "CFL003 `\\.to\\(\\)` initializes CUDA before the process forks at `p\\.start\\(\\)`"
    torch.save(on_gpu.cpu(), "/tmp/features.pt")
    p = mp.Process(target=read_shared, args=("/tmp/features.pt",))
    p.start()
    p.join()


if __name__ == "__main__":
    test_copy_from_gpu()
