"""torch.multiprocessing shares multiprocessing's global context."""
import torch
import torch.multiprocessing as tmp


def consume(q):
    t = q.get()
    print(t.sum().item())


if __name__ == "__main__":
    tmp.set_start_method("fork")
    q = tmp.Queue()
    x = torch.ones(4).cuda()  # want "CFL001 .*`p\\.start\\(\\)`.*the \"fork\" start method"
    p = tmp.Process(target=consume, args=(q,))
    p.start()
    q.put(x)
    p.join()
