"""Other linters' `# noqa` comments are not this tool's: they neither
suppress its findings (unless blanket, which covers every code) nor draw an
"invalid noqa directive" warning or a CFL100 (cli's TestOtherToolsNoqaIsQuiet
runs --select ALL on this file and checks both)."""
import multiprocessing as mp

import torch

LIMIT = 1  # noqa: 501
WIDTH = 2  # noqa: E501
TRAIL = 3  # noqa:E501,W291
SHOUT = 4  # NOQA
PLAIN = 5  # noqa
TEXT = "# noqa: cfl001 # noqa:"  # a string, not a comment
TYPED = 6  # type: ignore # noqa
SPACED = 7  # noqa : E501
LOWER = 8  # noqa:e501
EMPTY = 9  # noqa:
GLUED = 10  # noqa-foo


def work(i):
    return torch.ones(1, device="cuda").item() + i


if __name__ == "__main__":
    torch.cuda.init()  # noqa: E501  # want "CFL001"
    torch.cuda.synchronize()  # noqa: 501
    with mp.get_context("fork").Pool(2) as pool:  # noqa:E501,W291
        print(pool.map(work, range(2)))
