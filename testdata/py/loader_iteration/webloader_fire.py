"""The shape of accelerate's examples/inference/distributed/florence2.py: main
is reached only through fire.Fire, which calls it with the command line's
arguments; it initializes CUDA, then iterates a webdataset WebLoader, whose
DataLoader workers fork (once: persistent_workers). They decode on the CPU."""
import fire
import torch
import webdataset as wds
from accelerate import PartialState
from tqdm import tqdm
from transformers import AutoModelForCausalLM


def main(data_path: str, batch_size: int, num_workers: int, model_name: str = "microsoft/Florence-2-large"):
    distributed_state = PartialState()  # want "CFL003 .*forks at `enumerate\\(dataloader\\)` \\(line 33: DataLoader workers.*assumed CPU-only"
    model = AutoModelForCausalLM.from_pretrained(
        model_name,
        device_map=distributed_state.device,
        torch_dtype=torch.float16,
    )
    dataset = (
        wds.WebDataset(data_path, shardshuffle=False)
        .decode("pil")
        .batched(batch_size, partial=False)
    )
    dataloader = wds.WebLoader(
        dataset,
        batch_size=None,
        num_workers=num_workers,
        pin_memory=True,
        persistent_workers=True,
    )
    for _, batch in tqdm(
        enumerate(dataloader),
        disable=not distributed_state.is_main_process,
    ):
        model.generate(pixel_values=batch["pixel_values"].to(distributed_state.device))


if __name__ == "__main__":
    fire.Fire(main)
