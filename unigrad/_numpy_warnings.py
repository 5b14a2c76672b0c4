"""NumPy's floating-point warnings inside unigrad: silenced, as PyTorch computes silently.

NumPy warns when an array operation divides by zero, overflows or takes
``log(-1)``; unigrad's ops run on NumPy arrays, so ``x.log()`` of a negative value
would warn where PyTorch returns ``nan`` without a word. :func:`silence` (run
when unigrad is imported) ignores those warnings when they come from unigrad's
own modules; NumPy code outside unigrad keeps its warnings.

Example:
    >>> import warnings
    >>> import numpy as np
    >>> import unigrad as ug
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("error")
    ...     silence()
    ...     ug.tensor([-1.0, 0.0]).log()
    tensor([nan, -inf])
"""

from __future__ import annotations

import warnings

__all__ = ["silence"]


def silence() -> None:
    """Ignore NumPy's floating-point RuntimeWarnings raised in unigrad's modules (in the
    current warning filters: call it again inside ``warnings.catch_warnings`` blocks that
    reset them)."""
    warnings.filterwarnings("ignore", message=r".*encountered in", category=RuntimeWarning,
                            module=r"unigrad(\.|$)")


silence()
