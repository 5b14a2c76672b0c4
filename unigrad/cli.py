"""Command line entry point: ``python -m unigrad`` runs a short gradient walkthrough.

The walkthrough touches the tape API end to end: ``Tensor.backward``,
``ug.autograd.grad`` (and the same gradient by ``ug.grad`` and
``ug.GradientTape``), a second derivative through ``create_graph=True`` and a
tiny least-squares fit by gradient descent. Every number it prints is
deterministic, so the test suite checks them.

Example:
    >>> from unigrad.cli import least_squares_example
    >>> weight, bias, loss = least_squares_example(steps=1, learning_rate=0.5)
    3. least squares: fit y = w x + b to y = 3 x + 0.5 (1 steps, learning rate 0.5)
       step   0  loss 3.55e+00  w 0.0000  b 0.0000
       final     loss 1.32e+00  w 1.1000  b 0.5000
    >>> round(weight, 4), round(bias, 4)
    (1.1, 0.5)
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

import unigrad as ug


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser for ``python -m unigrad``."""
    parser = argparse.ArgumentParser(
        prog="python -m unigrad",
        description="unigrad demo: a short walkthrough of reverse-mode gradients on the tape.",
    )
    parser.add_argument("command", nargs="?", default="demo", choices=["demo"],
                        help="what to run (default: demo)")
    parser.add_argument("--steps", type=int, default=60,
                        help="gradient-descent steps of the least-squares fit (default: 60)")
    parser.add_argument("--learning-rate", type=float, default=0.5,
                        help="step size of the least-squares fit (default: 0.5)")
    parser.add_argument("--version", action="version", version=f"unigrad {ug.__version__}")
    return parser


def seed_example() -> None:
    """z = x*x*y at x=2, y=3: dz/dx = 2xy = 12 and dz/dy = x*x = 4, in three dialects."""
    print("1. z = x * x * y at x = 2, y = 3")
    x = ug.tensor(2.0, requires_grad=True)
    y = ug.tensor(3.0, requires_grad=True)
    z = x * x * y
    z.backward()
    print(f"   z.backward()                -> dz/dx = {x.grad.item():g}, dz/dy = {y.grad.item():g}")

    x = ug.tensor(2.0, requires_grad=True)
    y = ug.tensor(3.0, requires_grad=True)
    gradient_x, gradient_y = ug.autograd.grad(x * x * y, (x, y))
    print(f"   ug.autograd.grad(z, (x, y)) -> dz/dx = {gradient_x.item():g}, "
          f"dz/dy = {gradient_y.item():g}")

    def net(x, y):
        return x * x * y

    x, y = ug.tensor(2.0), ug.tensor(3.0)
    gradient_x, gradient_y = ug.grad(net, grad_position=(0, 1))(x, y)
    print(f"   ug.grad(net, (0, 1))(x, y)  -> dz/dx = {gradient_x.item():g}, "
          f"dz/dy = {gradient_y.item():g}   (MindSpore)")
    with ug.GradientTape() as tape:
        tape.watch([x, y])
        z = net(x, y)
    gradient_x, gradient_y = tape.gradient(z, [x, y])
    print(f"   GradientTape().gradient     -> dz/dx = {gradient_x.item():g}, "
          f"dz/dy = {gradient_y.item():g}   (TensorFlow)")


def second_derivative_example() -> None:
    """f(x) = x**3 at x=2: f'(x) = 3x**2 = 12 and f''(x) = 6x = 12 via create_graph."""
    print("2. f(x) = x ** 3 at x = 2, differentiated twice")
    x = ug.tensor(2.0, requires_grad=True)
    (first,) = ug.autograd.grad(x ** 3, x, create_graph=True)
    (second,) = ug.autograd.grad(first, x)
    print(f"   f'(2)  = {first.item():g}   (3 x^2)")
    print(f"   f''(2) = {second.item():g}   (6 x, through create_graph=True)")


def least_squares_example(steps: int, learning_rate: float) -> tuple[float, float, float]:
    """Fit y = w*x + b to points on y = 3x + 0.5 by gradient descent; return (w, b, loss)."""
    print(f"3. least squares: fit y = w x + b to y = 3 x + 0.5 ({steps} steps, "
          f"learning rate {learning_rate:g})")
    inputs = ug.linspace(-1.0, 1.0, 21)
    targets = 3.0 * inputs + 0.5
    weight = ug.tensor(0.0, requires_grad=True)
    bias = ug.tensor(0.0, requires_grad=True)
    report_every = max(1, steps // 6)
    loss_value = float(((weight * inputs + bias - targets) ** 2).mean().item())
    for step in range(steps):
        loss = ((weight * inputs + bias - targets) ** 2).mean()
        loss_value = loss.item()
        if step % report_every == 0:
            print(f"   step {step:3d}  loss {loss_value:.2e}  "
                  f"w {weight.item():.4f}  b {bias.item():.4f}")
        weight.grad = None
        bias.grad = None
        loss.backward()
        with ug.no_grad():
            weight -= learning_rate * weight.grad
            bias -= learning_rate * bias.grad
    if steps:
        loss_value = ((weight * inputs + bias - targets) ** 2).mean().item()
    print(f"   final     loss {loss_value:.2e}  w {weight.item():.4f}  b {bias.item():.4f}")
    return weight.item(), bias.item(), loss_value


def run_demo(steps: int, learning_rate: float) -> None:
    """Print the whole walkthrough."""
    print(f"unigrad {ug.__version__}: reverse-mode autodiff on NumPy, in PyTorch, MindSpore "
          f"and TensorFlow spelling")
    print()
    seed_example()
    print()
    second_derivative_example()
    print()
    least_squares_example(steps, learning_rate)


def main(argv: Sequence[str] | None = None) -> int:
    """Parse ``argv`` (default: ``sys.argv[1:]``), run the command, return the exit status."""
    arguments = build_parser().parse_args(argv)
    if arguments.steps < 0:
        print("--steps must be >= 0", file=sys.stderr)
        return 2
    run_demo(arguments.steps, arguments.learning_rate)
    return 0
