"""Command line: ``unigrad demo [NAME ...]`` runs the demos, ``unigrad tour`` a short walkthrough.

``python -m unigrad`` and the console script ``unigrad`` are the same
program. Commands:

``demo [NAME ...] [--quick] [--jit] [--out DIR] [--seed N] [--no-progress]``
    Run the demos of :mod:`unigrad.demos` (``pinn``, ``digits``,
    ``dialects``; all three, in that order, when no NAME is given). Each shows
    a progress bar on stderr, prints a summary table and the path of every PNG
    it wrote to ``--out`` (default ``unigrad-demo-output/`` in the current
    directory, created if missing). ``--quick`` runs each in a few seconds;
    ``--jit`` also trains pinn and digits under ``ug.jit`` and reports the
    speed-up over eager mode. Needs the ``[demo]`` extra (matplotlib, tqdm,
    scikit-learn): without it the command names ``pip install
    "unigrad[demo]"`` and exits with status 1.
``tour [--steps N] [--learning-rate LR]``
    A short printed walkthrough of the tape API: the seed example ``z = x *
    x * y`` in three dialects, a second derivative through
    ``create_graph=True`` and a least-squares fit by gradient descent.

With no command, ``python -m unigrad`` runs ``demo`` with its defaults. A bad
demo name or option value is an argparse error (usage on stderr, status 2).
:func:`main` takes the argument list and returns the exit status, so it can
be called in-process.

Example:
    >>> from unigrad.cli import least_squares_example
    >>> weight, bias, loss = least_squares_example(steps=1, learning_rate=0.5)
    3. least squares: fit y = w x + b to y = 3 x + 0.5 (1 steps, learning rate 0.5)
       step   0  loss 3.55e+00  w 0.0000  b 0.0000
       final     loss 1.32e+00  w 1.1000  b 0.5000
    >>> round(weight, 4), round(bias, 4)
    (1.1, 0.5)
    >>> main(["demo", "sudoku"])  # the usage and the error go to stderr
    2
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import unigrad as ug

from .demos import (
    DEMOS,
    DemoDependencyError,
    DemoOptions,
    describe,
    require_demo_dependencies,
    run_demos,
)

DEFAULT_OUT = Path("unigrad-demo-output")


def _demo_name(value: str) -> str:
    if value not in DEMOS:
        raise argparse.ArgumentTypeError(
            f"invalid choice: {value!r} (choose from {', '.join(DEMOS)})")
    return value


def _non_negative_int(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got {value!r}") \
            from None
    if number < 0:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got {value!r}")
    return number


def _positive_float(value: str) -> float:
    try:
        number = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive number, got {value!r}") from None
    if not number > 0 or number == float("inf"):
        raise argparse.ArgumentTypeError(f"expected a positive number, got {value!r}")
    return number


def _output_folder(value: str) -> Path:
    path = Path(value)
    if not value:
        raise argparse.ArgumentTypeError("expected a folder path, got an empty string")
    if path.exists() and not path.is_dir():
        raise argparse.ArgumentTypeError(f"{value!r} exists and is not a folder")
    return path


def build_parser(prog: str = "unigrad") -> argparse.ArgumentParser:
    """Return the argument parser of ``unigrad`` (``prog`` is the name shown in usage lines)."""
    demos_help = f"demos:\n{describe()}"
    parser = argparse.ArgumentParser(
        prog=prog,
        description="unigrad: one NumPy autodiff engine that speaks PyTorch, TensorFlow and "
                    "MindSpore. With no command, runs `demo`.",
        epilog=f"{demos_help}\n\nrun `{prog} demo --help` for the demo options",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"unigrad {ug.__version__}")
    commands = parser.add_subparsers(dest="command", metavar="{demo,tour}")

    demo = commands.add_parser(
        "demo", help="run the demos (progress bar, summary table, plots)",
        description="Run the unigrad demos: each trains or differentiates a small model, "
                    "prints a summary table and writes a PNG plot.",
        epilog=f"{demos_help}\n\nThe demos need the [demo] extra: pip install \"unigrad[demo]\"",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    demo.add_argument("names", nargs="*", metavar="NAME", type=_demo_name,
                      help=f"demos to run, any of {', '.join(DEMOS)} (default: all, in that "
                           f"order)")
    demo.add_argument("--quick", action="store_true",
                      help="small settings: each demo runs in a few seconds")
    demo.add_argument("--jit", action="store_true",
                      help="also train pinn and digits under ug.jit (graph mode) and report the "
                           "speed-up over eager mode")
    demo.add_argument("--out", type=_output_folder, default=DEFAULT_OUT, metavar="DIR",
                      help=f"folder for the PNG plots, created if missing (default: "
                           f"./{DEFAULT_OUT}/)")
    demo.add_argument("--seed", type=_non_negative_int, default=0, metavar="N",
                      help="random seed of the initial weights and data order (default: 0)")
    demo.add_argument("--no-progress", dest="progress", action="store_false",
                      help="do not draw progress bars on stderr")

    tour = commands.add_parser(
        "tour", help="print a short walkthrough of the tape API",
        description="A short walkthrough of reverse-mode gradients on the tape: seed example, "
                    "second derivative, least-squares fit.")
    tour.add_argument("--steps", type=_non_negative_int, default=60, metavar="N",
                      help="gradient-descent steps of the least-squares fit (default: 60)")
    tour.add_argument("--learning-rate", type=_positive_float, default=0.5, metavar="LR",
                      help="step size of the least-squares fit (default: 0.5)")
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


def run_tour(steps: int, learning_rate: float) -> None:
    """Print the whole walkthrough."""
    print(f"unigrad {ug.__version__}: reverse-mode autodiff on NumPy, in PyTorch, MindSpore "
          f"and TensorFlow spelling")
    print()
    seed_example()
    print()
    second_derivative_example()
    print()
    least_squares_example(steps, learning_rate)


def main(argv: Sequence[str] | None = None, prog: str = "unigrad") -> int:
    """Parse ``argv`` (default: ``sys.argv[1:]``), run the command, return the exit status.

    0: success; 1: the demo dependencies are missing or the output folder
    cannot be written; 2: bad arguments (argparse prints the usage and the
    error on stderr).
    """
    parser = build_parser(prog)
    try:
        arguments = parser.parse_args(argv)
    except SystemExit as exit_request:  # --help, --version and usage errors
        return exit_request.code if isinstance(exit_request.code, int) else 2
    if arguments.command == "tour":
        run_tour(arguments.steps, arguments.learning_rate)
        return 0
    if arguments.command is None:  # bare `unigrad`: the demos with their defaults
        arguments = parser.parse_args(["demo"])
    names = list(dict.fromkeys(arguments.names)) or list(DEMOS)
    options = DemoOptions(quick=arguments.quick, jit=arguments.jit, out=arguments.out,
                          seed=arguments.seed, progress=arguments.progress)
    try:
        require_demo_dependencies()
    except DemoDependencyError as error:
        print(f"{prog} demo: error: {error}", file=sys.stderr)
        return 1
    try:
        options.out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        print(f"{prog} demo: error: cannot create the output folder {str(options.out)!r}: "
              f"{error.strerror or error}", file=sys.stderr)
        return 1
    run_demos(names, options)
    return 0
