"""webdataset's fluid methods on a WebLoader return a pipeline over the same
DataLoader: iterating the chain forks the loader's workers, after the model
went to the GPU. Spelled through the module's own names too, and with the
worker count by position, where torch's DataLoader takes it."""
import torch
import webdataset
from webdataset import WebLoader


def train(urls, workers):
    model = torch.nn.Linear(8, 2).cuda()  # want "CFL003 .*forks at `loader` \\(line 14: DataLoader workers"
    dataset = webdataset.WebDataset(urls).decode("torch").to_tuple("x.pyd", "y.cls")
    loader = WebLoader(dataset, batch_size=None, num_workers=workers).unbatched().shuffle(1000).batched(32)
    for x, y in loader:
        model(x.cuda()).sum().backward()


def evaluate(urls):
    model = torch.nn.Linear(8, 2).cuda()  # want "CFL003 .*forks at `loader.with_epoch\\(100\\)` \\(line 21: DataLoader workers"
    loader = webdataset.compat.WebLoader(webdataset.WebDataset(urls), None, False, None, None, 4)
    for x in loader.with_epoch(100):
        model(x.cuda())
