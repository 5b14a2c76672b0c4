"""The op-table format: one ``OpSpec`` per public op, in ``tests/ops/table_*.py``.

Every file ``tests/ops/table_<family>.py`` defines ``OPS: list[OpSpec]``.
``tests/ops/test_op_table.py`` collects them all and checks, for every spec and
sample: value vs the NumPy reference, shape rule == impl for every primitive
the op binds, vjp (inner-product identity vs central differences, float64),
jvp vs central differences, second order, and the float32 dtype; it fails when
a registered primitive is exercised by no spec.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np


@dataclass
class Sample:
    """One call: ``op(*args, **kwargs)``.

    ``args`` holds float64 (or complex128) NumPy arrays (turned into Tensors by the harness)
    and plain Python values (passed as they are). ``diff`` lists the indices of
    the array arguments to differentiate (default: every floating array).
    """

    args: tuple
    kwargs: dict = field(default_factory=dict)
    diff: tuple | None = None
    label: str = ""

    def differentiable_indices(self) -> tuple:
        if self.diff is not None:
            return tuple(self.diff)
        return tuple(i for i, a in enumerate(self.args)
                     if isinstance(a, np.ndarray) and a.dtype.kind in "fc")


@dataclass
class OpSpec:
    """How to call one op, what it should compute, and which primitives it covers.

    - ``op``: the unigrad callable, called with Tensors in place of the arrays.
    - ``ref``: NumPy reference, called like the op (``ref(*args, **kwargs)``)
      with the float64 arrays (``None``: no value check).
    - ``samples``: ``samples(rng) -> list[Sample]``; include broadcasting
      shapes such as (3, 1) with (1, 4), 0-d scalars and zero-size arrays
      where the op allows them.
    - ``primitives``: names of registered primitives this spec exercises.
    - ``grad``: check first-order vjp/jvp; ``second_order``: check grad of grad.
    - ``jvp``: check forward mode.
    - ``float32``: check that float32 inputs give float32 outputs close to the
      float64 ones (``float32_tol``: their relative and absolute tolerance).
    - ``vmap``: check that ``ug.vmap(op)`` equals a loop over a batch; False only where
      vmap must refuse the op (say why at the spec, and test the refusal).
    - ``jit``: check that ``ug.jit(op)`` equals eager; False only for ops whose result's
      shape depends on the input's values, which ``ug.jit`` refuses
      (``tests/graph/test_jit_op_table.py`` checks the refusal).
    """

    name: str
    op: Callable
    ref: Callable | None
    samples: Callable[[np.random.Generator], list]
    primitives: tuple = ()
    grad: bool = True
    second_order: bool = True
    jvp: bool = True
    atol: float = 1e-6
    rtol: float = 1e-5
    grad_atol: float = 1e-5
    grad_rtol: float = 1e-4
    eps: float = 1e-6
    float32: bool = True
    float32_tol: float = 1e-4
    vmap: bool = True
    jit: bool = True


def positive(rng: np.random.Generator, *shape) -> np.ndarray:
    """Values in [0.5, 2] (safe for log, sqrt, division)."""
    return rng.uniform(0.5, 2.0, size=shape)


def normal(rng: np.random.Generator, *shape) -> np.ndarray:
    return rng.standard_normal(size=shape)


def away_from_zero(rng: np.random.Generator, *shape) -> np.ndarray:
    """Values with |x| in [0.3, 2] (for ops with a kink at zero)."""
    magnitude = rng.uniform(0.3, 2.0, size=shape)
    return magnitude * rng.choice([-1.0, 1.0], size=shape)


def distinct(rng: np.random.Generator, *shape) -> np.ndarray:
    """Normal values with no ties (for max/min/sort-like ops)."""
    size = int(np.prod(shape, dtype=np.int64))
    values = rng.permutation(size).astype(np.float64) * 0.37 - size * 0.15
    return values.reshape(shape)
