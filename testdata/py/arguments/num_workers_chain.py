"""A job runner hands its num_workers (default 0) down to a map helper that
starts processes only for more than zero workers; the pipeline calls the
runner at its default with a library function, after CUDA is initialized.
Nothing forks."""
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
    torch.cuda.init()
    return run_jobs(Image.open, paths)


if __name__ == "__main__":
    main(sys.argv[1:])
