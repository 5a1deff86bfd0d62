import jax
import jax.numpy as jnp


def cuda():
    return jax.devices("gpu")[0]


def cpu():
    return "cpu"


def tensor(data):
    # Creating an array initializes JAX's GPU backend: true of this backend
    # only, so not of a program that runs another one.
    return jnp.asarray(data)
