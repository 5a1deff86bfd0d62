"""The look-alike that forks: the pipeline asks the runner for four workers
after CUDA is initialized; what Pillow does in the children could not be
seen, so it is a warning."""
import sys
from concurrent.futures import ProcessPoolExecutor

import torch
from PIL import Image


def map_files(fn, paths, workers):
    if workers > 0:
        with ProcessPoolExecutor(max_workers=workers) as ex:
            return list(ex.map(fn, paths))
    return [fn(p) for p in paths]


def run_jobs(fn, paths, num_workers=0):
    return map_files(fn, paths, num_workers)


def main(paths):
    torch.cuda.init()  # want "CFL003 .*forks at `ex\\.map\\(fn, paths\\)`.*ProcessPoolExecutor workers.*could not be seen"
    return run_jobs(Image.open, paths, num_workers=4)


if __name__ == "__main__":
    main(sys.argv[1:])
