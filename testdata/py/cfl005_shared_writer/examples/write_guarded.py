# The safe look-alike: the write runs under the main guard.
from shardkit.writer import ShardWriter


def main():
    writer = ShardWriter("/tmp/guarded")
    writer.write(range(10))


if __name__ == "__main__":
    main()
