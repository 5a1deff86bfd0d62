import multiprocessing as mp

import torch

# fixcorpus: CFL001 unsafe
# A byte order mark and CRLF line endings: the inserted lines go after the
# mark and end with CRLF.


def work(x):
    return torch.ones(2, device="cuda").sum().item() + x


if __name__ == "__main__":
    if torch.cuda.is_available():
        print("gpu")
    with mp.Pool(2) as pool:
        print(pool.map(work, range(3)))
