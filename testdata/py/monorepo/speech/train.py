import sys

from utils import prefetch_to_gpu

if __name__ == "__main__":
    batches = prefetch_to_gpu(sys.argv[1:])
    print(len(batches))
