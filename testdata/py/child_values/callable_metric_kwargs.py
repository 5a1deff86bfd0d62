"""A distributed test harness (allennlp's run_distributed_test shape): each
forked worker calls a metric object with the keyword arguments of its rank,
gathered into a dict by name. The metric's __call__ runs on the tensors the
test made: on the CPU that is benign, on the GPU it fails."""
import torch
import torch.multiprocessing as mp


class CountMetric:
    def __init__(self, num_classes):
        self.counts = torch.zeros(num_classes)

    def __call__(self, predicted_labels):
        device = predicted_labels.device
        self.counts = self.counts.to(device)
        self.counts += torch.bincount(predicted_labels.flatten(), minlength=len(self.counts))


def global_metric(rank, metric, metric_kwargs):
    kwargs = {}
    for name in metric_kwargs:
        kwargs[name] = metric_kwargs[name][rank]
    metric(**kwargs)


def run_distributed(func, *args):
    mp.start_processes(func, args=args, nprocs=2, start_method="fork")


def test_cpu_labels():
    labels = torch.eye(3).long()
    run_distributed(global_metric, CountMetric(3), {"predicted_labels": [labels, labels]})


def test_gpu_labels():
    labels = torch.eye(3, device="cuda").long()
    run_distributed(global_metric, CountMetric(3), {"predicted_labels": [labels, labels]})


if torch.cuda.is_available():  # want "CFL003 .*torch.multiprocessing workers.*the children never touch CUDA" "CFL001 .*torch.multiprocessing workers.*the child uses CUDA"
    print("testing on", torch.cuda.get_device_name(0))
