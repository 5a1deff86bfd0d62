"""A tutorial run as a plain script, without a main guard: it chooses "fork" when
nothing chose a method yet, before simkit is imported, so its children fork and
never re-import it."""
import multiprocessing

if multiprocessing.get_start_method(allow_none=True) is None:
    multiprocessing.set_start_method("fork")

import simkit  # noqa: E402

pool = multiprocessing.Pool(2)
print(pool.map(simkit.rollout, [0, 1]))
