"""torch.utils.data: Dataset and a DataLoader whose workers are a real
multiprocessing pool (the start method of multiprocessing_context, or the
platform default), as PyTorch's are."""
import multiprocessing as _mp

from torch._tensor import Tensor, stack, tensor


class Dataset:
    def __getitem__(self, index):
        raise NotImplementedError


def default_collate(batch):
    first = batch[0]
    if isinstance(first, Tensor):
        return stack(batch)
    if isinstance(first, (int, float)):
        return tensor(batch)
    if isinstance(first, (tuple, list)):
        return type(first)(default_collate(list(items)) for items in zip(*batch))
    return batch


def _fetch(job):
    dataset, indexes, collate = job
    return collate([dataset[i] for i in indexes])


def _init_worker(fn, counter):
    with counter.get_lock():
        worker_id = counter.value
        counter.value += 1
    if fn is not None:
        fn(worker_id)


class DataLoader:
    def __init__(self, dataset, batch_size=1, shuffle=False, num_workers=0, collate_fn=None,
                 pin_memory=False, drop_last=False, worker_init_fn=None,
                 multiprocessing_context=None, persistent_workers=False, **kwargs):
        self.dataset = dataset
        self.batch_size = batch_size
        self.num_workers = num_workers
        self.collate_fn = collate_fn or default_collate
        self.worker_init_fn = worker_init_fn
        self.multiprocessing_context = multiprocessing_context
        self.drop_last = drop_last

    def _batches(self):
        n = len(self.dataset)
        out = [list(range(i, min(i + self.batch_size, n))) for i in range(0, n, self.batch_size)]
        if self.drop_last and out and len(out[-1]) < self.batch_size:
            out.pop()
        return out

    def __len__(self):
        return len(self._batches())

    def __iter__(self):
        jobs = [(self.dataset, b, self.collate_fn) for b in self._batches()]
        if self.num_workers == 0:
            for job in jobs:
                yield _fetch(job)
            return
        ctx = self.multiprocessing_context
        if ctx is None or isinstance(ctx, str):
            ctx = _mp.get_context(ctx)
        counter = ctx.Value("i", 0)
        with ctx.Pool(self.num_workers, initializer=_init_worker, initargs=(self.worker_init_fn, counter)) as pool:
            yield from pool.imap(_fetch, jobs)
