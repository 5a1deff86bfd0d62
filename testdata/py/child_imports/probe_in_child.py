"""The look-alike that fails: the loader workers call gpu_tool.get_gpu_info
themselves, and query the GPU in the forked process."""
import torch
from torch.utils.data import DataLoader, Dataset


class Probes(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        from gpu_tool import get_gpu_info

        return str(get_gpu_info())


if __name__ == "__main__":
    model = torch.nn.Linear(4, 4).cuda()  # want "CFL001 .*the child uses CUDA .*gpu_tool\\.py"
    for batch in DataLoader(Probes(), num_workers=2):
        print(batch, model)
