# The same writer, started by a second example: its own finding, at its
# own line, whatever else is checked with it.
from shardkit.writer import ShardWriter

writer = ShardWriter("/tmp/shards")
writer.write([i ** 3 for i in range(100)])  # want "CFL005"
