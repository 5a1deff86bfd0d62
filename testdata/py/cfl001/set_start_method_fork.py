"""set_start_method("fork") makes every later start fork, on every version."""
import multiprocessing

import torch


def square_on_gpu(x):
    return (torch.tensor([x], device="cuda") ** 2).item()


if __name__ == "__main__":
    multiprocessing.set_start_method("fork", force=True)
    print(torch.cuda.get_device_name(0))  # want "CFL001 .*Python 3\\.11–3\\.15 on Linux"
    pool = multiprocessing.Pool(2)
    print(pool.map(square_on_gpu, range(4)))
    pool.close()
    pool.join()
