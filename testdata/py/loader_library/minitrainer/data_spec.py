"""What the Trainer iterates: a loader wrapped with its transforms."""


class DataSpec:
    def __init__(self, dataloader, num_samples=None):
        self.dataloader = dataloader
        self.num_samples = num_samples


def ensure_data_spec(dataloader):
    if isinstance(dataloader, dict):
        dataloader = DataSpec(**dataloader)
    if not isinstance(dataloader, DataSpec):
        dataloader = DataSpec(dataloader)
    return dataloader
