"""A distributed metric test (allennlp's NaturalLanguageInference and
AssociationWithoutGroundTruth shapes): each forked worker joins a gloo
process group and calls a metric that keeps running sums in its attributes,
a dict of floats and a tensor moved to the device of the labels it is given.
The sums are reduced on the device the backend communicates through, the
CPU for gloo. With CPU labels the workers never touch CUDA; with labels made
on the GPU they do."""
import torch
import torch.distributed as dist
import torch.multiprocessing as mp


def comm_device():
    index = -1 if dist.get_backend() != "nccl" else torch.cuda.current_device()
    return torch.device("cpu") if index < 0 else torch.device("cuda", index)


def reduce_sum(value):
    if not dist.is_initialized():
        return value
    device = comm_device()
    if isinstance(value, torch.Tensor):
        total = value.clone().to(device)
    else:
        total = torch.tensor(value, device=device)
    dist.all_reduce(total)
    if isinstance(value, torch.Tensor):
        return total
    return total.item()


class ThresholdMetric:
    def __init__(self, num_classes, taus=(0.5, 0.7)):
        self.taus = taus
        self.count = 0
        self.above = {tau: 0.0 for tau in taus}
        self.class_counts = torch.zeros(num_classes)

    def __call__(self, probs):
        device = probs.device
        self.class_counts = self.class_counts.to(device)
        counts = torch.zeros_like(self.class_counts).scatter_add_(0, probs.argmax(-1), torch.ones_like(probs[:, 0]))
        self.class_counts += reduce_sum(counts)
        for tau in self.taus:
            self.above[tau] += reduce_sum((probs > tau).float().sum().item())
        self.count += reduce_sum(probs.numel())

    def get_metric(self):
        scores = {tau: self.above[tau] / self.count for tau in self.taus}
        scores["classes"] = self.class_counts.tolist()
        return scores


def worker(rank, metric, probs):
    dist.init_process_group("gloo", init_method="tcp://127.0.0.1:29500", rank=rank, world_size=2)
    metric(probs[rank])
    print(metric.get_metric())


def run_distributed(metric, probs):
    mp.start_processes(worker, args=(metric, probs), nprocs=2, start_method="fork")


def test_cpu_probs():
    probs = 0.6 * torch.eye(3)
    run_distributed(ThresholdMetric(3), [probs, probs])


def test_gpu_probs():
    probs = 0.6 * torch.eye(3, device="cuda")
    run_distributed(ThresholdMetric(3), [probs, probs])


if torch.cuda.is_available():  # want "CFL003 .*torch.multiprocessing workers.*the children never touch CUDA" "CFL001 .*torch.multiprocessing workers.*the child uses CUDA"
    print("testing on", torch.cuda.get_device_name(0))
