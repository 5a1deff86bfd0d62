# Each example writes its dataset at import time: under the forkserver
# start method each worker re-imports the example and starts workers again.
from shardkit.writer import ShardWriter

writer = ShardWriter("/tmp/shards")
writer.write([i * i for i in range(100)])  # want "CFL005"
