"""DataLoader workers started by a forkserver that imported this module's
top-level CUDA initialization; the dataset stays on the CPU."""
import torch
from torch.utils.data import DataLoader, Dataset

torch.backends.cudnn.benchmark = torch.cuda.is_available()  # want "CFL006 .*`loader` \\(line 20: DataLoader workers, the \"forkserver\" start method\\); the children never touch CUDA, so this works on Python 3\\.13\\.8\\+, 3\\.14\\.1\\+, 3\\.15" "CFL004 .*3\\.11–3\\.13\\.7, 3\\.14\\.0"


class Squares(Dataset):
    def __len__(self):
        return 32

    def __getitem__(self, i):
        return (torch.tensor([float(i * i)]),)


if __name__ == "__main__":
    model = torch.nn.Linear(1, 1).cuda()
    loader = DataLoader(Squares(), batch_size=8, num_workers=2, multiprocessing_context="forkserver")
    for (x,) in loader:
        model(x.cuda())
