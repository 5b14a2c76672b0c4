"""``python -m unigrad``: run the gradient walkthrough (see :mod:`unigrad.cli`)."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
