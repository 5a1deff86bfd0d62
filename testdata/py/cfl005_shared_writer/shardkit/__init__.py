"""Dataset shards written in parallel."""
