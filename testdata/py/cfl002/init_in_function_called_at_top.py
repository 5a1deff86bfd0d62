"""The model is built by a helper function the script calls at its top level
(the shape of fairseq's MMPT feature extractor)."""
import multiprocessing as mp

import torch


def get_model():
    net = torch.nn.Linear(16, 4)
    return net.cuda()  # want "CFL002 .*while the main module is imported \\(in `get_model`, called from its top level at line 13\\)" "CFL004 .*in `get_model`"


model = get_model()


def embed(x):
    return torch.tensor(x, device="cuda").sum().item()


if __name__ == "__main__":
    with mp.get_context("forkserver").Pool(2) as pool:
        print(pool.map(embed, [[1.0], [2.0]]))
