"""MindSpore cases: the text of tensors and Parameters, byte for byte (MindSpore 2.10's
two-digit exponents: unigrad's ``ms.set_print_style("2.10")``, which real MindSpore lacks,
is switched on for these cases only; the default three-digit style is the seed documents').
Conventions: see ``mindspore_cases.py``.
"""

from __future__ import annotations

import numpy as np

from . import case


def _texts(ms, arrays: list) -> list:
    switch = getattr(ms, "set_print_style", None)
    if switch is not None:
        switch("2.10")
    try:
        return [repr(ms.Tensor(array)) for array in arrays]
    finally:
        if switch is not None:
            switch("2.3")


@case
def case_printing_one_dimensional(ms):
    return _texts(ms, [np.arange(24, dtype=np.int32), np.arange(30, dtype=np.int32),
                       np.arange(12, dtype=np.float32), np.arange(13, dtype=np.float32),
                       np.arange(30) % 2 == 0, np.arange(1001, dtype=np.int32),
                       np.arange(1002, dtype=np.float32), np.array([-1, 20, 3], np.int32),
                       np.array([-1.5, 2.0], np.float32), np.array([1.5, 2.25], np.float16),
                       np.array([np.nan, np.inf, -np.inf, 1.0], np.float32),
                       np.array([0.5, -2.0, 1e-8, 123456.0], np.float64),
                       np.array([3 + 4j, -1.5 - 2j, 0.1j], np.complex128)])


@case
def case_printing_summarized_blocks(ms):
    corner = np.arange(24).reshape(3, 8).astype(np.int32)
    corner[0, 4] = 100000
    return _texts(ms, [np.arange(14, dtype=np.int32).reshape(2, 7) * -1, corner,
                       np.arange(49, dtype=np.int32).reshape(7, 7),
                       np.arange(63, dtype=np.int32).reshape(3, 3, 7),
                       np.arange(7, dtype=np.int32).reshape(7, 1, 1),
                       np.arange(40, dtype=np.float32).reshape(4, 10) * 1.5,
                       np.arange(6, dtype=np.float32).reshape(2, 3) / 3,
                       np.arange(24, dtype=np.int32).reshape(2, 3, 4),
                       np.array([[True, False], [False, True]]),
                       np.array([[1.5, -2.5]], np.float16)])


@case
def case_printing_scalars_and_empty(ms):
    return _texts(ms, [np.array(2.5, np.float32), np.array(3, np.int32), np.array(True),
                       np.array(1 + 2j, np.complex64), np.zeros((0, 3), np.float32),
                       np.zeros((0,), np.float32)])
