"""The same top-level pool in a plain script: each spawned child re-imports it
and starts the pool again while bootstrapping."""
import multiprocessing as mp


def square(x):
    return x * x


SQUARES = mp.get_context("spawn").Pool(2).map(square, range(4))  # want "CFL005"
print(SQUARES)
