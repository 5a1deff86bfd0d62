"""Catalog fixture: tensorflow. Each probe calls one catalogued API and then
forks a worker that uses the GPU through tensorflow; initializers are reported
at the call (CFL001), known non-initializers stay silent. tensorflow was not on
the measuring machine: the rows rest on its docs and issue threads
(tensorflow/tensorflow#57877: a forked child aborts with CUDA_ERROR_NOT_INITIALIZED
after the parent ran an op; #8220: a Session before fork hangs the child), see
testdata/groundtruth/documented.md. The "# row:" line names the catalog row a
probe proves, the "# evidence:" line why the row says so."""
import multiprocessing as mp

import tensorflow as tf


@tf.function
def double(x):
    return x * 2


def use_gpu():
    with tf.device("/GPU:0"):
        assert float(tf.reduce_sum(tf.ones((2, 2)))) == 4.0


def fork_worker():
    p = mp.get_context("fork").Process(target=use_gpu)
    p.start()
    p.join()


# --- device discovery and configuration ----------------------------------------


def probe_list_physical_devices():
    # row: call tensorflow.config.list_physical_devices
    # evidence: code tensorflow/tensorflow tensorflow/python/eager/context.py (list_physical_devices enumerates GPUs through the CUDA platform, which calls cuInit)
    gpus = tf.config.list_physical_devices("GPU")  # want "CFL001"
    print(gpus)
    fork_worker()


def probe_experimental_list_physical_devices():
    # row: call tensorflow.config.experimental.list_physical_devices
    # evidence: code tensorflow/tensorflow tensorflow/python/framework/config.py (experimental spelling of list_physical_devices)
    gpus = tf.config.experimental.list_physical_devices("GPU")  # want "CFL001"
    print(gpus)
    fork_worker()


def probe_list_logical_devices():
    # row: call tensorflow.config.list_logical_devices
    # evidence: docs https://www.tensorflow.org/api_docs/python/tf/config/list_logical_devices
    print(tf.config.list_logical_devices("GPU"))  # want "CFL001"
    fork_worker()


def probe_experimental_list_logical_devices():
    # row: call tensorflow.config.experimental.list_logical_devices
    # evidence: docs https://www.tensorflow.org/api_docs/python/tf/config/list_logical_devices
    print(tf.config.experimental.list_logical_devices("GPU"))  # want "CFL001"
    fork_worker()


def probe_set_memory_growth(gpu):
    # row: call tensorflow.config.experimental.set_memory_growth
    # evidence: docs https://www.tensorflow.org/api_docs/python/tf/config/experimental/set_memory_growth
    tf.config.experimental.set_memory_growth(gpu, True)
    fork_worker()


def probe_set_visible_devices():
    # row: call tensorflow.config.set_visible_devices
    # evidence: docs https://www.tensorflow.org/api_docs/python/tf/config/set_visible_devices
    tf.config.set_visible_devices([], "GPU")
    fork_worker()


def probe_is_gpu_available():
    # row: call tensorflow.test.is_gpu_available
    # evidence: docs https://www.tensorflow.org/api_docs/python/tf/test/is_gpu_available
    print(tf.test.is_gpu_available())  # want "CFL001"
    fork_worker()


def probe_gpu_device_name():
    # row: call tensorflow.test.gpu_device_name
    # evidence: docs https://www.tensorflow.org/api_docs/python/tf/test/gpu_device_name
    print(tf.test.gpu_device_name())  # want "CFL001"
    fork_worker()


def probe_is_built_with_cuda():
    # row: call tensorflow.test.is_built_with_cuda
    # evidence: docs https://www.tensorflow.org/api_docs/python/tf/test/is_built_with_cuda
    print(tf.test.is_built_with_cuda())
    fork_worker()


def probe_list_local_devices():
    from tensorflow.python.client import device_lib

    # row: call tensorflow.python.client.device_lib.list_local_devices
    # evidence: docs https://github.com/yuanyuanli85/Keras-Multiple-Process-Prediction/issues/2
    devices = device_lib.list_local_devices()  # want "CFL001"
    print(devices)
    fork_worker()


# --- the first eager op starts the runtime on every visible GPU -------------------


def probe_constant():
    # row: call tensorflow.constant
    # evidence: docs https://www.tensorflow.org/guide/gpu
    x = tf.constant([1.0, 2.0])  # want "CFL001"
    print(x)
    fork_worker()


def probe_variable():
    # row: call tensorflow.Variable
    # evidence: docs https://www.tensorflow.org/guide/gpu
    v = tf.Variable(0.0)  # want "CFL001"
    print(v)
    fork_worker()


def probe_convert_to_tensor(data):
    # row: call tensorflow.convert_to_tensor
    # evidence: docs https://www.tensorflow.org/guide/gpu
    x = tf.convert_to_tensor(data)  # want "CFL001"
    print(x)
    fork_worker()


def probe_zeros():
    # row: call tensorflow.zeros
    # evidence: docs https://www.tensorflow.org/guide/gpu
    x = tf.zeros((2, 2))  # want "CFL001"
    print(x)
    fork_worker()


def probe_ones():
    # row: call tensorflow.ones
    # evidence: docs https://github.com/tensorflow/tensorflow/issues/57877
    x = tf.ones((100, 100))  # want "CFL001"
    print(x)
    fork_worker()


def probe_random_normal():
    # row: call tensorflow.random.normal
    # evidence: docs https://www.tensorflow.org/guide/gpu
    x = tf.random.normal((2, 2))  # want "CFL001"
    print(x)
    fork_worker()


def probe_random_uniform():
    # row: call tensorflow.random.uniform
    # evidence: docs https://www.tensorflow.org/guide/gpu
    x = tf.random.uniform((2, 2))  # want "CFL001"
    print(x)
    fork_worker()


def probe_function_decoration():
    # row: call tensorflow.function
    # evidence: docs https://www.tensorflow.org/api_docs/python/tf/function
    @tf.function
    def triple(x):
        return x * 3

    print(triple)
    fork_worker()


def probe_function_call():
    # row: call tensorflow.function()
    # evidence: docs https://github.com/tensorflow/tensorflow/issues/57877
    y = double(2.0)  # want "CFL001"
    print(y)
    fork_worker()


def probe_session():
    # row: call tensorflow.Session
    # evidence: docs https://github.com/tensorflow/tensorflow/issues/8220
    sess = tf.compat.v1.Session()  # want "CFL001"
    print(sess)
    fork_worker()
