"""``python -m unigrad``: the command line of :mod:`unigrad.cli` (``demo``, ``tour``)."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main(prog="python -m unigrad"))
