"""Writes a dataset into shards with a pool of worker processes."""
from multiprocessing import Process, Queue


def _work(queue, path):
    while (item := queue.get()) is not None:
        with open(f"{path}.{item}", "w") as out:
            out.write(str(item))


class ShardWriter:
    def __init__(self, path, num_workers=4):
        self.path = path
        self.num_workers = num_workers

    def write(self, items):
        queue = Queue()
        for item in items:
            queue.put(item)
        for _ in range(self.num_workers):
            queue.put(None)
        workers = [Process(target=_work, args=(queue, self.path)) for _ in range(self.num_workers)]
        for p in workers:
            p.start()
        for p in workers:
            p.join()
