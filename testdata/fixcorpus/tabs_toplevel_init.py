"""Tab-indented: the moved initialization is indented with a tab."""
# fixcorpus: CFL004 unsafe
import multiprocessing as mp

import torch

torch.cuda.init()


def double(x):
	return 2 * x


if __name__ == "__main__":
	with mp.get_context("spawn").Pool(2) as pool:
		print(pool.map(double, range(5)))
