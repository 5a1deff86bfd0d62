"""fairseq's binarizer shape: a classmethod, called on the class, hands its
Pool another classmethod through `cls`. `cls` is the class, not the first
argument, so the children's code is seen: the text chunks are binarized on
the CPU (a benign fork), while the look-alike's workers put tensors on the
GPU (an error)."""
from multiprocessing import Pool

import torch


class Binarizer:
    @classmethod
    def _binarize_chunk(cls, chunk):
        return [len(line.split()) for line in chunk]

    @classmethod
    def multiprocess_dataset(cls, chunks, num_workers=4):
        with Pool(processes=num_workers) as pool:
            results = [pool.apply_async(cls._binarize_chunk, (chunk,)) for chunk in chunks]
            return [r.get() for r in results]


class GpuBinarizer:
    @classmethod
    def _binarize_chunk(cls, chunk):
        return torch.tensor([len(line) for line in chunk], device="cuda")

    @classmethod
    def multiprocess_dataset(cls, chunks, num_workers=4):
        with Pool(processes=num_workers) as pool:
            return pool.map(cls._binarize_chunk, chunks)


def main():
    use_cuda = torch.cuda.is_available()  # want "CFL003 .*Pool workers.*the children never touch CUDA" "CFL001 .*uses CUDA \\(`torch\\.tensor\\(\\)`"
    chunks = [["a b c", "d e"], ["f"]]
    print(use_cuda, Binarizer.multiprocess_dataset(chunks))
    print(GpuBinarizer.multiprocess_dataset(chunks))


if __name__ == "__main__":
    main()
