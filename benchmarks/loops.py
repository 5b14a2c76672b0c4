"""Loops in graph mode: an ODE rollout as one ``fori_loop``, against PyTorch eager.

Workload (issue 19's target): 1,000 steps of an RK4 update of a 64-dim state
through a small MLP (64-64-64, tanh), the loss the squared norm of the final
state, and its gradient with respect to the MLP's weights and biases and the
initial state, float64:

* unigrad: ``ug.jit(ug.grad(loss, grad_position=(0, ..., 4)))`` where the
  rollout is ``ug.fori_loop(0, 1000, rk4_step, state)``: one ``scan`` equation
  whose body is the traced RK4 step; reverse mode saves the 1,000 carries and
  runs the step's vjp backwards (another scan).
* PyTorch eager: the same Python loop with ``torch.autograd.grad``.

Printed: the first call's wall time (trace, optimize, code generation and the
loop body's compilation; target <= 2 s) and the step time of both, with the ratio
(target <= 0.5x PyTorch eager). The gradients are checked against PyTorch's first.

Usage::

    python benchmarks/loops.py            # about 20 seconds
    python benchmarks/loops.py --quick    # fewer repeats
"""

from __future__ import annotations

import argparse
import os
import sys
import time

STEPS = 1000
WIDTH = 64
DT = 0.01
TARGETS = {"compile seconds": 2.0, "ratio to PyTorch eager": 0.5}


def parse_arguments(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats")
    parser.add_argument("--threads", type=int, default=1, help="BLAS/PyTorch threads")
    return parser.parse_args(argv)


def make_data(np):
    rng = np.random.default_rng(0)
    scale = 1.0 / np.sqrt(WIDTH)
    return [rng.standard_normal(WIDTH), rng.standard_normal((WIDTH, WIDTH)) * scale,
            rng.standard_normal(WIDTH) * 0.1, rng.standard_normal((WIDTH, WIDTH)) * scale,
            rng.standard_normal(WIDTH) * 0.1]


def rk4_loss(fori_loop, tanh):
    """``loss(state, w1, b1, w2, b2)`` written once for both libraries."""
    def loss(state, w1, b1, w2, b2):
        def field(y):
            return tanh(tanh(y @ w1 + b1) @ w2 + b2)

        def step(_, y):
            k1 = field(y)
            k2 = field(y + 0.5 * DT * k1)
            k3 = field(y + 0.5 * DT * k2)
            k4 = field(y + DT * k3)
            return y + DT / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4)
        final = fori_loop(0, STEPS, step, state)
        return (final * final).sum()
    return loss


def python_fori_loop(lower, upper, body, value):
    for i in range(lower, upper):
        value = body(i, value)
    return value


def timed(function, repeats: int) -> float:
    """The best of ``repeats`` wall times of ``function()``."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        best = min(best, time.perf_counter() - start)
    return best


def main(argv: list[str] | None = None) -> int:
    arguments = parse_arguments(argv)
    for name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[name] = str(arguments.threads)
    import numpy as np
    import torch

    import unigrad as ug
    torch.set_num_threads(arguments.threads)
    data = make_data(np)
    repeats = 3 if arguments.quick else 7

    loss = rk4_loss(ug.fori_loop, ug.tanh)
    gradient = ug.jit(ug.grad(loss, grad_position=(0, 1, 2, 3, 4)))
    inputs = [ug.tensor(a) for a in data]
    start = time.perf_counter()
    ours = gradient(*inputs)
    compile_seconds = time.perf_counter() - start

    torch_loss = rk4_loss(python_fori_loop, torch.tanh)
    torch_inputs = [torch.tensor(a, requires_grad=True) for a in data]

    def torch_gradient():
        return torch.autograd.grad(torch_loss(*torch_inputs), torch_inputs)
    theirs = torch_gradient()
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-7, atol=1e-9)

    unigrad_seconds = timed(lambda: gradient(*inputs), repeats)
    torch_seconds = timed(torch_gradient, repeats)
    ratio = unigrad_seconds / torch_seconds
    print(f"ODE rollout: {STEPS} RK4 steps of a {WIDTH}-dim state through a "
          f"{WIDTH}-{WIDTH}-{WIDTH} tanh MLP, gradient of the final squared norm (float64, "
          f"{arguments.threads} thread)")
    print(f"  first call (compile)  {compile_seconds:7.2f} s   target <= "
          f"{TARGETS['compile seconds']:.1f} s")
    print(f"  unigrad jit(grad)     {unigrad_seconds * 1e3:7.1f} ms")
    print(f"  PyTorch eager         {torch_seconds * 1e3:7.1f} ms")
    print(f"  ratio                 {ratio:7.2f}x  target <= "
          f"{TARGETS['ratio to PyTorch eager']:.2f}x")
    met = compile_seconds <= TARGETS["compile seconds"] and \
        ratio <= TARGETS["ratio to PyTorch eager"]
    print("  targets met" if met else "  targets NOT met")
    return 0


if __name__ == "__main__":
    sys.exit(main())
