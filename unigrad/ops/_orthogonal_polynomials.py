"""NumPy kernels of ``torch.special``'s orthogonal polynomials ``P_n(x)``: Chebyshev (T, U, V,
W, and their shifted forms on [0, 1]), Hermite (physicists' H and probabilists' He),
Laguerre L and Legendre P.

Each follows PyTorch's kernel: ``n`` is truncated to an integer (0 for ``n < 0`` and NaN), the
same closed forms at the interval ends and (for Chebyshev, past a small ``n``) the
trigonometric form inside the interval, else the three-term recurrence. All in float64.

Example:
    >>> import numpy as np
    >>> from unigrad.ops._orthogonal_polynomials import evaluate
    >>> evaluate("hermite_polynomial_h", np.array([0.5, 2.0]), np.array(3.0))
    array([-5., 40.])
"""

from __future__ import annotations

import numpy as np

KINDS = ("chebyshev_polynomial_t", "chebyshev_polynomial_u", "chebyshev_polynomial_v",
         "chebyshev_polynomial_w", "shifted_chebyshev_polynomial_t",
         "shifted_chebyshev_polynomial_u", "shifted_chebyshev_polynomial_v",
         "shifted_chebyshev_polynomial_w", "hermite_polynomial_h", "hermite_polynomial_he",
         "laguerre_polynomial_l", "legendre_polynomial_p")


def _degree(n):
    """PyTorch's ``static_cast<int64_t>(n)`` on x86: truncation, and ``INT64_MIN`` (read as
    negative: the result 0) for NaN, infinities and values out of int64's range."""
    n = np.asarray(n)
    if n.dtype.kind == "f":
        with np.errstate(invalid="ignore"):
            n = np.where(np.abs(n) < 2.0 ** 63, np.trunc(n), -1.0)
    return n.astype(np.int64)


def _recurrence(step, first, x, n):
    """``P_n`` from ``P_0 = 1``, ``P_1 = first`` and ``P_{j+1} = step(j, P_j, P_{j-1})``."""
    previous = np.ones_like(x)
    current = first.copy()
    top = int(n.max(initial=1))
    for j in range(1, top):
        active = j < n
        if not active.any():
            break
        following = step(j, current, previous)
        previous = np.where(active, current, previous)
        current = np.where(active, following, current)
    return np.where(n == 0, 1.0, current)


def _select(cases, default):
    """The value of the first true condition in ``cases`` (pairs), else ``default``."""
    result = default
    for condition, value in reversed(cases):
        result = np.where(condition, value, result)
    return result


def _chebyshev(kind, y, n, threshold, ends):
    """Chebyshev polynomials of argument ``y`` (``x``, or ``2x - 1`` when shifted)."""
    even = n % 2 == 0
    first = {"t": y, "u": y + y, "v": y + y - 1.0, "w": y + y + 1.0}[kind]
    recurrence = _recurrence(lambda j, q, p: (y + y) * q - p, first, y, n)
    theta = np.arccos(np.clip(y, -1.0, 1.0))
    inside = (n > threshold) & (np.abs(y) < 1)
    odd_sign = np.where(even, 1.0, -1.0)
    if kind == "t":
        trigonometric = np.cos(n * theta)
    elif kind == "u":
        sine = np.sin(theta)
        trigonometric = np.where(sine != 0, np.sin((n + 1) * theta) / np.where(sine != 0, sine, 1),
                                 (n + 1) * np.cos((n + 1) * theta))
    elif kind == "v":
        trigonometric = np.where(np.sin(theta / 2) != 1,
                                 np.cos((n + 0.5) * theta) / np.cos(theta / 2),
                                 odd_sign * (n + n + 1))
    else:
        half = np.sin(theta / 2)
        trigonometric = np.where(np.cos(theta / 2) != 1,
                                 np.sin((n + 0.5) * theta) / np.where(half != 0, half, 1),
                                 np.where(y > 0, n + n + 1.0, odd_sign))
    return _select([(n < 0, 0.0)] + ends + [(inside, trigonometric)], recurrence)


def _chebyshev_ends(kind, x, n, shifted):
    """PyTorch's values at the ends of the interval (``|x| == 1``; ``x`` in {0, 1} shifted)."""
    even = n % 2 == 0
    odd_sign = np.where(even, 1.0, -1.0)
    upper = (x == 1) if shifted else (np.abs(x) == 1) & (x > 0)
    lower = (x == 0) if shifted else (np.abs(x) == 1) & (x < 0)
    count = n + 1.0
    twice = n + n + 1.0
    values = {"t": (1.0, odd_sign), "u": (count, odd_sign * count),
              "v": (1.0, odd_sign * twice), "w": (twice, odd_sign)}[kind]
    return [(upper, values[0]), (lower, values[1])]


def evaluate(kind: str, x, n):
    """``kind`` (a ``torch.special`` name) of degree ``n`` at ``x``, float64, broadcast."""
    x, n = np.broadcast_arrays(np.asarray(x, dtype=np.float64), _degree(n))
    x, n = x.astype(np.float64), n.astype(np.int64)
    with np.errstate(all="ignore"):
        if "chebyshev" in kind:
            letter, shifted = kind[-1], kind.startswith("shifted")
            y = x + x - 1.0 if shifted else x
            threshold = {"t": 6, "u": 8, "v": 8, "w": 8}[letter]
            if shifted:
                threshold = {"t": 6, "u": 6, "v": 6, "w": 4}[letter]
            return _chebyshev(letter, y, n, threshold, _chebyshev_ends(letter, x, n, shifted))
        if kind == "hermite_polynomial_h":
            values = _recurrence(lambda j, q, p: (x + x) * q - (2 * j) * p, x + x, x, n)
            return np.where(n < 0, 0.0, values)
        if kind == "hermite_polynomial_he":
            values = _recurrence(lambda j, q, p: x * q - j * p, x, x, n)
            return np.where(n < 0, 0.0, values)
        if kind == "laguerre_polynomial_l":
            values = _recurrence(lambda j, q, p: ((j + j + (1.0 - x)) * q - j * p) / (j + 1),
                                 1.0 - x, x, n)
            return _select([(n < 0, 0.0), (x == 0, 1.0)], values)
        if kind == "legendre_polynomial_p":
            values = _recurrence(lambda j, q, p: ((j + j + 1) * x * q - j * p) / (j + 1), x, x, n)
            even = n % 2 == 0
            ends = np.where((x > 0) | even, 1.0, -1.0)
            return _select([(n < 0, 0.0), (np.abs(x) == 1, ends)], values)
    raise ValueError(f"unknown polynomial {kind!r}")
