"""Catalog fixture: jax. Each probe calls one catalogued API and then forks a
worker that uses the GPU through jax; initializers are reported at the call
(CFL001), known non-initializers stay silent. JAX initializes every backend,
CUDA included, on first use of any of them (even jax.devices("cpu")); wrapping
a function (jit, pmap, grad, vmap) is lazy until it is called. The "# row:"
line names the catalog row a probe proves, the "# evidence:" line why the row
says so. Evidence: testdata/groundtruth/oracle.json and oracle_extra.json
(measured on an H200), forkmatrix.json for the children (hang or abort)."""
import multiprocessing as mp

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def double(x):
    return x * 2


@jax.pmap
def pdouble(x):
    return x * 2


def loss(x):
    return x * x


def use_gpu():
    assert float(jnp.ones(3).sum()) == 3.0


def fork_worker():
    p = mp.get_context("fork").Process(target=use_gpu)
    p.start()
    p.join()


# --- import and backend queries -----------------------------------------------


def probe_import_jax():
    # row: import jax
    # evidence: oracle "jax: import jax"
    import jax
    print(jax.__version__)
    fork_worker()


def probe_import_jax_numpy():
    # row: import jax.numpy
    # evidence: oracle "jax: import jax.numpy"
    import jax.numpy
    fork_worker()


def probe_devices():
    # row: call jax.devices
    # evidence: oracle "jax: jax.devices()"
    print(jax.devices())  # want "CFL001"
    fork_worker()


def probe_cpu_devices():
    # row: call jax.devices
    # evidence: oracle "jax: jax.devices()"
    cpus = jax.devices("cpu")  # want "CFL001"
    print(cpus)
    fork_worker()


def probe_local_devices():
    # row: call jax.local_devices
    # evidence: oracle_extra "jax: jax.local_devices()"
    print(jax.local_devices())  # want "CFL001"
    fork_worker()


def probe_device_count():
    # row: call jax.device_count
    # evidence: oracle "jax: jax.device_count()"
    n = jax.device_count()  # want "CFL001"
    print(n)
    fork_worker()


def probe_local_device_count():
    # row: call jax.local_device_count
    # evidence: oracle_extra "jax: jax.local_device_count()"
    n = jax.local_device_count()  # want "CFL001"
    print(n)
    fork_worker()


def probe_process_count():
    # row: call jax.process_count
    # evidence: oracle_extra "jax: jax.process_count()"
    print(jax.process_count())  # want "CFL001"
    fork_worker()


def probe_process_index():
    # row: call jax.process_index
    # evidence: code jax-ml/jax jax/_src/xla_bridge.py (process_index gets the default backend, as process_count does, measured)
    print(jax.process_index())  # want "CFL001"
    fork_worker()


def probe_default_backend():
    # row: call jax.default_backend
    # evidence: oracle "jax: jax.default_backend()"
    print(jax.default_backend())  # want "CFL001"
    fork_worker()


def probe_device_put():
    # row: call jax.device_put
    # evidence: oracle_extra "jax: jax.device_put(1.0)"
    x = jax.device_put(np.ones(3))  # want "CFL001"
    print(x)
    fork_worker()


def probe_config_update():
    # row: call jax.config.update
    # evidence: oracle_extra "jax: jax.config.update('jax_enable_x64', True)"
    jax.config.update("jax_enable_x64", True)
    fork_worker()


# --- arrays, random keys, lax --------------------------------------------------


def probe_jnp_array():
    # row: prefix jax.numpy
    # evidence: oracle "jax: jnp.zeros(3)"
    x = jnp.zeros(3)  # want "CFL001"
    print(x)
    fork_worker()


def probe_jnp_finfo():
    # row: call jax.numpy.finfo
    # evidence: oracle_extra "jax: jnp.finfo(jnp.float32)"
    eps = jnp.finfo(jnp.float32).eps
    limit = jnp.finfo(jnp.float8_e4m3fn).max.astype(jnp.float32)
    print(limit)
    print(eps)
    fork_worker()


def probe_jnp_iinfo():
    # row: call jax.numpy.iinfo
    # evidence: oracle_extra "jax: jnp.iinfo, jnp.dtype, jnp.issubdtype, jnp.promote_types"
    print(jnp.iinfo(jnp.int32).max.item())
    fork_worker()


def probe_jnp_dtype():
    # row: call jax.numpy.dtype
    # evidence: oracle_extra "jax: jnp.iinfo, jnp.dtype, jnp.issubdtype, jnp.promote_types"
    print(jnp.dtype("float32").newbyteorder(">"))
    fork_worker()


def probe_jnp_issubdtype():
    # row: call jax.numpy.issubdtype
    # evidence: oracle_extra "jax: jnp.iinfo, jnp.dtype, jnp.issubdtype, jnp.promote_types"
    print(jnp.issubdtype(jnp.float32, jnp.floating))
    fork_worker()


def probe_jnp_promote_types():
    # row: call jax.numpy.promote_types
    # evidence: oracle_extra "jax: jnp.iinfo, jnp.dtype, jnp.issubdtype, jnp.promote_types"
    print(jnp.promote_types(jnp.int32, jnp.float32).str.upper())
    fork_worker()


def probe_jnp_result_type(weights):
    # row: call jax.numpy.result_type
    # evidence: code jax-ml/jax jax/_src/dtypes.py (result_type applies the promotion lattice to its arguments' dtypes and returns a NumPy dtype; jax/_src/numpy/lax_numpy.py result_type only calls it)
    print(jnp.result_type(weights, jnp.float32).type(0))
    fork_worker()


def probe_jnp_can_cast():
    # row: call jax.numpy.can_cast
    # evidence: code jax-ml/jax jax/_src/dtypes.py (can_cast = np.can_cast; jax/_src/numpy/lax_numpy.py re-exports it)
    print(jnp.can_cast(jnp.float32, jnp.bfloat16).bit_length())
    fork_worker()


def probe_jnp_isdtype():
    # row: call jax.numpy.isdtype
    # evidence: code jax-ml/jax jax/_src/dtypes.py (isdtype compares dtypes and kind names; no array, no backend)
    print(jnp.isdtype(jnp.float32, "real floating"))
    fork_worker()


def probe_lax_ragged_dot_dimension_numbers():
    # row: call jax.lax.RaggedDotDimensionNumbers
    # evidence: code jax-ml/jax jax/_src/lax/lax.py (RaggedDotDimensionNumbers is a frozen dataclass that stores tuples of dimension indices; building one makes no array and touches no backend)
    spec = jax.lax.RaggedDotDimensionNumbers(dot_dimension_numbers=(([2], [1]), ([], [])), lhs_ragged_dimensions=[0], rhs_group_dimensions=[0])
    print(spec)
    fork_worker()


def probe_lax_gather_dimension_numbers():
    # row: call jax.lax.GatherDimensionNumbers
    # evidence: code jax-ml/jax jax/_src/lax/slicing.py (GatherDimensionNumbers is a NamedTuple of dimension indices; building one makes no array and touches no backend)
    spec = jax.lax.GatherDimensionNumbers(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,))
    print(spec)
    fork_worker()


def probe_lax_scatter_dimension_numbers():
    # row: call jax.lax.ScatterDimensionNumbers
    # evidence: code jax-ml/jax jax/_src/lax/slicing.py (ScatterDimensionNumbers is a NamedTuple of dimension indices; building one makes no array and touches no backend)
    spec = jax.lax.ScatterDimensionNumbers(update_window_dims=(1,), inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,))
    print(spec)
    fork_worker()


def probe_lax_conv_dimension_numbers():
    # row: call jax.lax.ConvDimensionNumbers
    # evidence: code jax-ml/jax jax/_src/lax/convolution.py (ConvDimensionNumbers is a NamedTuple of dimension orders; building one makes no array and touches no backend)
    spec = jax.lax.ConvDimensionNumbers(lhs_spec=(0, 3, 1, 2), rhs_spec=(3, 2, 0, 1), out_spec=(0, 3, 1, 2))
    print(spec)
    fork_worker()


def probe_lax_dot_algorithm():
    # row: call jax.lax.DotAlgorithm
    # evidence: code jax-ml/jax jax/_src/lax/lax.py (DotAlgorithm is a NamedTuple of dtypes and accumulation settings; building one makes no array and touches no backend)
    spec = jax.lax.DotAlgorithm(lhs_precision_type=jnp.bfloat16, rhs_precision_type=jnp.bfloat16, accumulation_type=jnp.float32)
    print(spec)
    fork_worker()


def probe_lax_precision():
    # row: call jax.lax.Precision
    # evidence: code jax-ml/jax jax/_src/lax/lax.py (Precision is an enum.Enum of precision names; building one makes no array and touches no backend)
    spec = jax.lax.Precision("highest")
    print(spec)
    fork_worker()


def probe_lax_gather_scatter_mode():
    # row: call jax.lax.GatherScatterMode.from_any
    # evidence: code jax-ml/jax jax/_src/lax/slicing.py (GatherScatterMode is an enum.Enum of out-of-bounds modes; from_any only maps a name or None to a member)
    spec = jax.lax.GatherScatterMode.from_any("clip")
    print(spec)
    fork_worker()


def probe_lax_tolerance():
    # row: call jax.lax.Tolerance
    # evidence: code jax-ml/jax jax/_src/lax/lax.py (Tolerance is a plain class that stores atol, rtol and ulps; building one makes no array and touches no backend)
    spec = jax.lax.Tolerance(atol=1e-6, rtol=1e-6)
    print(spec)
    fork_worker()


def probe_random_key():
    # row: prefix jax.random
    # evidence: oracle "jax: jax.random.key(0)"
    key = jax.random.PRNGKey(0)  # want "CFL001"
    print(key)
    fork_worker()


def probe_lax():
    # row: prefix jax.lax
    # evidence: oracle_extra "jax: jax.lax.add(1.0, 2.0)"
    print(jax.lax.add(1.0, 2.0))  # want "CFL001"
    fork_worker()


# --- transformations: lazy until called -------------------------------------------


def probe_jit_decoration():
    # row: call jax.jit
    # evidence: oracle "jax: jax.jit decoration"
    @jax.jit
    def triple(x):
        return x * 3

    print(triple)
    fork_worker()


def probe_jitted_call():
    # row: call jax.jit()
    # evidence: oracle_extra "jax: jax.jit(f)(1.0)"
    y = double(1.0)  # want "CFL001"
    print(y)
    fork_worker()


def probe_jit_inline():
    # row: call jax.jit()
    # evidence: oracle_extra "jax: jax.jit(f)(1.0)"
    y = jax.jit(loss)(2.0)  # want "CFL001"
    print(y)
    fork_worker()


def probe_pmap_decoration():
    # row: call jax.pmap
    # evidence: oracle_extra "jax: jax.pmap decoration"
    @jax.pmap
    def ptriple(x):
        return x * 3

    print(ptriple)
    fork_worker()


def probe_pmapped_call(xs):
    # row: call jax.pmap()
    # evidence: code jax-ml/jax jax/_src/api.py (calling a pmapped function lowers and runs it on the local devices, initializing the backends like jax.jit(f)(x), measured)
    ys = pdouble(xs)  # want "CFL001"
    print(ys)
    fork_worker()


def probe_grad_wrap():
    # row: call jax.grad
    # evidence: oracle_extra "jax: jax.grad, jax.vmap, jax.value_and_grad wrapping"
    dloss = jax.grad(loss)
    print(dloss)
    fork_worker()


def probe_grad_call():
    # row: call jax.grad()
    # evidence: oracle_extra "jax: jax.grad(f)(1.0)"
    g = jax.grad(loss)(1.0)  # want "CFL001"
    print(g)
    fork_worker()


def probe_vmap_wrap():
    # row: call jax.vmap
    # evidence: oracle_extra "jax: jax.grad, jax.vmap, jax.value_and_grad wrapping"
    batched = jax.vmap(loss)
    print(batched)
    fork_worker()


def probe_vmap_call(xs):
    # row: call jax.vmap()
    # evidence: code jax-ml/jax jax/_src/api.py (calling a vmapped function traces and runs it on the default backend, like jax.grad(f)(x), measured)
    ys = jax.vmap(loss)(xs)  # want "CFL001"
    print(ys)
    fork_worker()


def probe_value_and_grad_wrap():
    # row: call jax.value_and_grad
    # evidence: oracle_extra "jax: jax.grad, jax.vmap, jax.value_and_grad wrapping"
    vg = jax.value_and_grad(loss)
    print(vg)
    fork_worker()


def probe_value_and_grad_call():
    # row: call jax.value_and_grad()
    # evidence: code jax-ml/jax jax/_src/api.py (value_and_grad(f)(x) evaluates f on the default backend, like jax.grad(f)(x), measured)
    value, grad = jax.value_and_grad(loss)(1.0)  # want "CFL001"
    print(value, grad)
    fork_worker()
