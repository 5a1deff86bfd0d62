"""A pytest test module: pytest imports it under its own __main__, so the
children of the spawned results manager re-import pytest's entry script, not
this module, and do not allocate the workspace on the GPU again."""
import multiprocessing as mp

import torch

WORKSPACE = torch.zeros(1024, device="cuda")
RESULTS = mp.get_context("spawn").Manager().dict()


def test_workspace_is_clear():
    RESULTS["sum"] = WORKSPACE.sum().item()
    assert RESULTS["sum"] == 0
