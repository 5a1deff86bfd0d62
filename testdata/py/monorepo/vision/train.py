import sys

import torch

from utils import _decode

if __name__ == "__main__":
    batches = [_decode(p).cuda() for p in sys.argv[1:]]
    print(sum(b.sum() for b in batches))
