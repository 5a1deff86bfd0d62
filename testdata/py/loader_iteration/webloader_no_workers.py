"""Look-alikes of webloader_fire.py that fork nothing: a WebLoader without
workers is iterated in the calling process, and one with workers that is
built (and chained) but never iterated starts none."""
import fire
import torch
import webdataset as wds
from accelerate import PartialState


def main(data_path: str, batch_size: int = 8):
    state = PartialState()
    model = torch.nn.Linear(8, 2).to(state.device)
    dataset = wds.WebDataset(data_path).decode("torch").batched(batch_size)
    for batch in wds.WebLoader(dataset, batch_size=None, num_workers=0):
        model(batch.to(state.device))
    spare = wds.WebLoader(dataset, batch_size=None, num_workers=4).unbatched().batched(16)
    print(spare)


if __name__ == "__main__":
    fire.Fire(main)
