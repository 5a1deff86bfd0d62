"""Workers that build masks with torch.ones_like and put their counts on
the mask's device. A *_like factory given no device allocates where its
input lives: on the CPU for labels made on the CPU, so the worker never
touches CUDA; labels made on the GPU are CUDA objects the worker inherits."""
import torch
import torch.multiprocessing as mp


def count_masked(labels, num_classes):
    mask = torch.ones_like(labels).bool()
    device = mask.device
    counts = torch.zeros(num_classes).to(device)
    counts.scatter_add_(0, labels[mask], torch.ones(int(mask.sum())))
    print(counts.tolist())


def run(labels):
    p = mp.Process(target=count_masked, args=(labels, 3))
    p.start()
    p.join()


if __name__ == "__main__":
    mp.set_start_method("fork")
    print("running on", torch.cuda.get_device_name(0))  # want "CFL003 .*a Process.*the children never touch CUDA" "CFL001 .*a Process.*the child uses CUDA \\(CUDA objects passed to the child, line 18\\)"
    run(torch.tensor([0, 1, 1, 2]))
    run(torch.tensor([0, 1, 1, 2], device="cuda"))
