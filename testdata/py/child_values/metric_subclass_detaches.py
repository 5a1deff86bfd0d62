"""A metric hierarchy (allennlp's Metric -> FBetaMeasure ->
FBetaVerboseMeasure): the base detaches its inputs with a staticmethod, the
middle class allocates its running sums on the device of the predictions
the first time it is called, the subclass reads them. The workers of a
distributed test get predictions made on the CPU, so they never touch CUDA;
predictions made on the GPU would be CUDA objects the workers inherit."""
import torch
import torch.multiprocessing as mp


class Metric:
    @staticmethod
    def detach_tensors(*tensors):
        return (x.detach() if isinstance(x, torch.Tensor) else x for x in tensors)


class FBetaMeasure(Metric):
    def __init__(self, beta=1.0, average=None, labels=None):
        self._labels = labels
        self._true_positive_sum = None

    def __call__(self, predictions, gold_labels, mask=None):
        predictions, gold_labels, mask = self.detach_tensors(predictions, gold_labels, mask)
        if mask is None:
            mask = torch.ones_like(gold_labels).bool()
        num_classes = predictions.size(-1)
        if self._true_positive_sum is None:
            self._true_positive_sum = torch.zeros(num_classes, device=predictions.device)
        hits = (predictions.argmax(-1) == gold_labels) & mask
        self._true_positive_sum += torch.bincount(gold_labels[hits], minlength=num_classes).float()


class FBetaVerboseMeasure(FBetaMeasure):
    def __init__(self, beta=1.0, labels=None):
        super().__init__(beta=beta, average=None, labels=labels)

    def get_metric(self):
        return {str(i): v for i, v in enumerate(self._true_positive_sum.tolist())}


def run_metric(rank, metric, predictions, targets):
    metric(predictions[rank], targets[rank])
    print(metric.get_metric())


def check(predictions, targets):
    mp.start_processes(run_metric, args=(FBetaVerboseMeasure(), predictions, targets), nprocs=2, start_method="fork")


if __name__ == "__main__":
    print("GPU:", torch.cuda.get_device_name(0))  # want "CFL003 .*torch.multiprocessing workers.*the children never touch CUDA" "CFL001 .*torch.multiprocessing workers.*CUDA objects passed to the child"
    check([torch.tensor([[0.3, 0.7]]), torch.tensor([[0.6, 0.4]])], [torch.tensor([1]), torch.tensor([0])])
    check([torch.tensor([[0.3, 0.7]], device="cuda")], [torch.tensor([1], device="cuda")])
