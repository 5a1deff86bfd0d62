"""Catalog fixture: cudf. Importing cudf initializes the CUDA driver: its
__init__ calls validate_setup(), which counts the devices and reads their
compute capability through the CUDA runtime (skipped only when
RAPIDS_NO_INITIALIZE or CUDF_NO_INITIALIZE is set). So this file imports cudf
only inside functions; each probe imports it and then forks a worker that uses
the GPU through cudf, and the import is reported (CFL001). cudf was not on the
measuring machine: the row rests on cudf's source (python/cudf/cudf/__init__.py,
cudf/utils/gpu_utils.py). The "# row:" line names the catalog row a probe
proves, the "# evidence:" line why the row says so."""
import multiprocessing as mp


def use_gpu():
    import cudf

    assert int(cudf.Series([1, 2]).sum()) == 3


def fork_worker():
    p = mp.get_context("fork").Process(target=use_gpu)
    p.start()
    p.join()


def probe_import_cudf():
    # row: import cudf
    # evidence: code rapidsai/cudf python/cudf/cudf/__init__.py (calls validate_setup() at import; cudf/utils/gpu_utils.py validate_setup calls getDeviceCount and getDeviceAttribute through the CUDA runtime)
    import cudf  # want "CFL001"
    print(cudf.__version__)
    fork_worker()


def probe_from_cudf_import():
    # row: import cudf
    # evidence: code rapidsai/cudf python/cudf/cudf/__init__.py (calls validate_setup() at import; cudf/utils/gpu_utils.py validate_setup calls getDeviceCount and getDeviceAttribute through the CUDA runtime)
    from cudf import DataFrame  # want "CFL001"
    print(DataFrame)
    fork_worker()
