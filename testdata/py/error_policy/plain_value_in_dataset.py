"""DataLoader workers read an id the dataset copied from a model living on
the GPU: the id is a plain int, and the workers never touch CUDA. An
attribute of a GPU object may be a tensor or a plain value, so the analysis
says it could not tell: a warning, not an error."""
import torch
from torch.utils.data import DataLoader, Dataset
from transformers import AutoModel


class Tokenized(Dataset):
    def __init__(self, texts, bos_id):
        self.texts = texts
        self.bos_id = bos_id

    def __len__(self):
        return len(self.texts)

    def __getitem__(self, i):
        return torch.tensor([self.bos_id] + [ord(c) for c in self.texts[i]])


if __name__ == "__main__":
    model = AutoModel.from_pretrained("bert-base-uncased").to("cuda")  # want "CFL003 .*DataLoader workers.*could not tell whether `self\\.bos_id` is on the GPU"
    ds = Tokenized(["ab", "cd"], bos_id=model.config.bos_token_id)
    for batch in DataLoader(ds, num_workers=2):
        model(batch.cuda())
