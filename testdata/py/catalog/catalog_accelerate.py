"""Catalog fixture: accelerate. Each probe calls one catalogued API and then forks
a worker that uses CUDA; initializers are reported at the call (CFL001), known
non-initializers stay silent. Evidence: testdata/groundtruth/libraries.json
(measured on an H200 with accelerate 1.15.0). Accelerator() runs cuInit but
leaves torch.cuda.is_initialized() False, so nothing in accelerate or torch
warns before the children fail."""
import multiprocessing as mp

import torch


def use_gpu():
    torch.zeros(1, device="cuda")


def fork_worker():
    p = mp.get_context("fork").Process(target=use_gpu)
    p.start()
    p.join()


def probe_import():
    # row: import accelerate
    # evidence: libraries "accelerate: import accelerate"
    import accelerate
    fork_worker()


def probe_accelerator():
    from accelerate import Accelerator

    # row: call accelerate.Accelerator
    # evidence: libraries "accelerate: from accelerate import Accelerator; a = Accelerator()"
    accelerator = Accelerator(mixed_precision="bf16")  # want "CFL001"
    print(accelerator.is_main_process)
    fork_worker()


def probe_accelerator_module_path():
    import accelerate

    # row: call accelerate.Accelerator
    # evidence: libraries "accelerate: from accelerate import Accelerator; a = Accelerator()"
    accelerator = accelerate.accelerator.Accelerator()  # want "CFL001"
    print(accelerator)
    fork_worker()


def probe_accelerator_cpu():
    from accelerate import Accelerator

    # row: call accelerate.Accelerator
    # evidence: libraries "accelerate: from accelerate import Accelerator; a = Accelerator(cpu=True)"
    accelerator = Accelerator(cpu=True)
    print(accelerator)
    fork_worker()


def probe_model_to_accelerator_device(model):
    from accelerate import Accelerator

    accelerator = Accelerator(cpu=True)
    # row: method .to
    # evidence: libraries "accelerate: import torch; from accelerate import Accelerator; a = Accelerator(); torch.nn.Linear(2, 2).to(a.device)"
    model.to(accelerator.device)
    fork_worker()


def probe_partial_state():
    from accelerate import PartialState

    # row: call accelerate.PartialState
    # evidence: libraries "accelerate: from accelerate import PartialState; PartialState()"
    state = PartialState()  # want "CFL001"
    print(state.device)
    fork_worker()


def probe_set_seed():
    from accelerate.utils import set_seed

    # row: call accelerate.utils.set_seed
    # evidence: libraries "accelerate: from accelerate.utils import set_seed; set_seed(0)"
    set_seed(0)
    fork_worker()
