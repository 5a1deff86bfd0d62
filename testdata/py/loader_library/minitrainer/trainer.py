"""The Trainer: the loaders handed to it are iterated in fit()."""
import itertools

from minitrainer.data_spec import ensure_data_spec
from minitrainer.state import State


class Trainer:
    def __init__(self, *, model, train_dataloader=None, max_duration=None, device=None):
        self.state = State(model=model, max_duration=max_duration)
        self._train_data_spec = None if train_dataloader is None else ensure_data_spec(train_dataloader)
        if self._train_data_spec is not None:
            self.state.set_dataloader(self._train_data_spec.dataloader, self._train_data_spec.num_samples)
        self.device = device

    def fit(self):
        self._train_loop()

    def _train_loop(self):
        for epoch in range(self.state.max_duration):
            for batch_idx, batch in enumerate(self._iter_dataloader()):
                self.state.model(batch)

    def _iter_dataloader(self):
        if self.state._dataloader_len is None:
            dataloader_iter = iter(self.state.dataloader)
        else:
            dataloader_iter = itertools.islice(self.state.dataloader, self.state._dataloader_len)
        yield from dataloader_iter
