from torch.utils.data import Sampler


class DistributedBatchSamplerWrapper(Sampler):
    def __init__(self, sampler):
        self.sampler = sampler

    def __iter__(self):
        return iter(self.sampler)

    def __len__(self):
        return len(self.sampler)
