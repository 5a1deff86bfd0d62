"""The same tutorial without choosing a method: simkit sets "spawn", and each
spawned child re-imports this script and starts the pool again."""
import multiprocessing

import simkit

pool = multiprocessing.Pool(2)  # want "CFL005 .*the \"spawn\" start method"
print(pool.map(simkit.rollout, [0, 1]))
