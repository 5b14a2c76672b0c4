"""Gradient accumulation: update once every ``accumulate_steps`` micro-batches.

MindSpore's recipe: ``GradAccumulator(optimizer, accumulate_steps)`` is
called with each micro-batch's gradients (in ``optimizer.parameters``
order); it adds them into zero-initialised buffers and, on every
``accumulate_steps``-th call, hands the sums to the optimizer and clears the
buffers. Scale the loss by ``1 / accumulate_steps`` (as the recipe does) so
that, for a mean loss, the summed gradient equals the full-batch gradient.

PyTorch style needs no buffers (``.grad`` already accumulates over
``backward()`` calls): call ``accumulator.step()`` after each backward; it
runs ``optimizer.step()`` and ``optimizer.zero_grad()`` every
``accumulate_steps``-th time.
"""

from __future__ import annotations

from ..autograd.grad_mode import no_grad
from ..interpreters import has_values
from ..ops.creation import zeros_like
from ..tensor import Tensor, bump_version
from .parameter import Parameter, ParameterTuple
from .wrappers import check_optimizer


class GradAccumulator:
    """Sum micro-batch gradients; step the optimizer every ``accumulate_steps`` calls.

    Example:
        >>> import unigrad as ug
        >>> w = ug.nn.Parameter(ug.tensor([1.0, 1.0]), name="w")
        >>> optimizer = ug.optim.SGD([w], lr=1.0)
        >>> accumulator = ug.GradAccumulator(optimizer, accumulate_steps=2)
        >>> accumulator((ug.tensor([0.5, 0.0]),))   # buffered, no update yet
        False
        >>> accumulator((ug.tensor([0.25, 1.0]),))  # second call: update with the sum
        True
        >>> w.tolist()
        [0.25, 0.0]
    """

    def __init__(self, optimizer, accumulate_steps: int):
        if isinstance(accumulate_steps, bool) or not isinstance(accumulate_steps, int) \
                or accumulate_steps <= 0:
            raise ValueError(f"GradAccumulator: 'accumulate_steps' must be a positive int, got "
                             f"{accumulate_steps!r}")
        self.parameters = check_optimizer(optimizer, "GradAccumulator")
        self.optimizer = optimizer
        self.accumulate_steps = accumulate_steps
        if all(isinstance(p, Parameter) for p in self.parameters):
            self.inner_grads = ParameterTuple(self.parameters).clone("accumulate_", "zeros")
        else:
            self.inner_grads = tuple(zeros_like(p) for p in self.parameters)
        self.counter = 0

    def __call__(self, grads) -> bool:
        """Add ``grads``; on every ``accumulate_steps``-th call update and clear.

        Returns True when the optimizer ran.
        """
        grads = tuple(grads)
        if len(grads) != len(self.parameters):
            raise ValueError(f"GradAccumulator: got {len(grads)} gradients for "
                             f"{len(self.parameters)} parameters")
        for index, (grad, buffer) in enumerate(zip(grads, self.inner_grads)):
            if grad is not None and (not isinstance(grad, Tensor) or grad.shape != buffer.shape):
                shape = grad.shape if isinstance(grad, Tensor) else type(grad).__name__
                raise ValueError(f"GradAccumulator: gradient {index} has shape {shape}, "
                                 f"expected {buffer.shape}")
        eager = has_values(*grads)  # else ug.jit (or vmap): in the trace's view of the buffers
        with no_grad():
            for grad, buffer in zip(grads, self.inner_grads):
                if grad is None:
                    continue
                if eager:
                    buffer._data += grad._data
                    bump_version(buffer)
                else:
                    buffer.add_(grad)
        self.counter += 1
        if self.counter % self.accumulate_steps:
            return False
        self.optimizer(tuple(self.inner_grads))
        with no_grad():
            for buffer in self.inner_grads:
                buffer.zero_()
        return True

    def step(self) -> bool:
        """PyTorch style: after each ``backward()``; steps and zeroes every k-th call.

        Example:
            >>> import unigrad as ug
            >>> w = ug.nn.Parameter(ug.tensor([1.0]))
            >>> optimizer = ug.optim.SGD([w], lr=0.5)
            >>> accumulator = ug.GradAccumulator(optimizer, accumulate_steps=2)
            >>> for x in (1.0, 3.0):
            ...     (w * x).sum().backward()
            ...     stepped = accumulator.step()
            >>> stepped, w.tolist(), w.grad
            (True, [-1.0], None)
        """
        self.counter += 1
        if self.counter % self.accumulate_steps:
            return False
        self.optimizer.step()
        self.optimizer.zero_grad()
        return True

    def __repr__(self) -> str:
        return (f"GradAccumulator(optimizer={type(self.optimizer).__name__}, "
                f"accumulate_steps={self.accumulate_steps}, counter={self.counter})")
