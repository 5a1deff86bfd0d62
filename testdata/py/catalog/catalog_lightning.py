"""Catalog fixture: Lightning. Each probe calls one catalogued API and then forks
a worker that uses CUDA; initializers are reported at the call (CFL001), known
non-initializers stay silent. Evidence: testdata/groundtruth/libraries.json
(measured on an H200 with lightning 2.6.6): constructing a Trainer or a Fabric
touches no device; Fabric.launch() does."""
import multiprocessing as mp

import torch


def use_gpu():
    torch.zeros(1, device="cuda")


def fork_worker():
    p = mp.get_context("fork").Process(target=use_gpu)
    p.start()
    p.join()


def probe_import():
    # row: import lightning
    # evidence: libraries "lightning: import lightning"
    import lightning
    fork_worker()


def probe_trainer():
    import lightning as L

    # row: call lightning.Trainer
    # evidence: libraries "lightning: import lightning as L; L.Trainer(accelerator="gpu", devices=1, logger=False, enable_checkpointing=False)"
    trainer = L.Trainer(accelerator="gpu", devices=1)
    print(trainer)
    fork_worker()


def probe_pytorch_lightning_trainer():
    import pytorch_lightning as pl

    # row: call lightning.Trainer
    # evidence: libraries "lightning: import pytorch_lightning as pl; pl.Trainer(accelerator="gpu", devices=1, logger=False)"
    trainer = pl.Trainer(accelerator="gpu", devices=1)
    print(trainer)
    fork_worker()


def probe_seed_everything():
    from lightning.pytorch import seed_everything

    # row: call lightning.seed_everything
    # evidence: libraries "lightning: import lightning as L; L.seed_everything(0)"
    seed_everything(0)
    fork_worker()


def probe_num_cuda_devices():
    from lightning.fabric.accelerators.cuda import num_cuda_devices

    # row: call lightning.accelerators.cuda.num_cuda_devices
    # evidence: libraries "lightning: from lightning.fabric.accelerators.cuda import num_cuda_devices; num_cuda_devices()"
    print(num_cuda_devices())
    fork_worker()


def probe_is_cuda_available():
    from lightning.fabric.accelerators.cuda import is_cuda_available

    # row: call lightning.accelerators.cuda.is_cuda_available
    # evidence: libraries "lightning: from lightning.fabric.accelerators.cuda import is_cuda_available; is_cuda_available()"
    print(is_cuda_available())
    fork_worker()


def probe_fabric():
    import lightning as L

    # row: call lightning.Fabric
    # evidence: libraries "lightning: import lightning as L; L.Fabric(accelerator="cuda", devices=1)"
    fabric = L.Fabric(accelerator="cuda", devices=1)
    print(fabric)
    fork_worker()


def probe_fabric_launch():
    from lightning.fabric import Fabric

    fabric = Fabric(accelerator="cuda", devices=1)
    # row: call lightning.Fabric().launch
    # evidence: libraries "lightning: import lightning as L; f = L.Fabric(accelerator="cuda", devices=1); f.launch()"
    fabric.launch()  # want "CFL001"
    fork_worker()
