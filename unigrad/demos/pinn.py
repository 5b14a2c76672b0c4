"""pinn: a physics-informed network whose loss contains its own second derivative.

Fit ``u'' = -pi^2 sin(pi x)`` on ``[0, 1]`` with ``u(0) = u(1) = 0`` (exact
solution ``u = sin(pi x)``) with a small tanh MLP, PyTorch style: ``u_x`` and
``u_xx`` come from ``ug.autograd.grad(u, x, grad_outputs=ug.ones_like(u),
create_graph=True)`` twice, the loss (mean squared ODE residual plus a
weighted boundary term) is differentiated with ``loss.backward()``, and
``ug.optim.Adam`` steps with an exponentially decaying learning rate
(``ug.optim.lr_scheduler.ExponentialLR``). This is the use case behind the
question "autograd.grad or loss.backward?": both, ``grad`` for the
derivatives inside the loss (``create_graph=True`` keeps them
differentiable), ``backward`` for the parameters.

With ``jit=True`` the loss function (both ``autograd.grad`` calls included)
is also compiled with ``ug.jit``; ``backward()`` runs through the compiled
call, and the same training from the same seed is timed against eager mode.

Example:
    >>> import unigrad as ug
    >>> model = build_model(width=8, seed=0)
    >>> points = ug.linspace(0.0, 1.0, 5).reshape(-1, 1)
    >>> residual_loss(model, points, exact_forcing(points)).shape
    ()
    >>> run = train(PinnConfig(steps=3, width=8, points=16), seed=0)
    >>> len(run.losses), run.losses[-1] < run.losses[0]
    (3, True)
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

import unigrad as ug

from ._report import (
    DemoOptions,
    DemoResult,
    format_table,
    new_figure,
    progress_bar,
    save_figure,
    seconds,
)

NAME = "pinn"
DESCRIPTION = "PyTorch style: solve u'' = -pi^2 sin(pi x) with a net whose loss holds its u''"


@dataclass(frozen=True)
class PinnConfig:
    """Network and training sizes of the PINN demo.

    ``steps`` Adam steps with the learning rate decaying exponentially from
    ``learning_rate`` to ``learning_rate * final_lr_fraction``; ``points``
    equally spaced collocation points on ``[0, 1]``; two hidden tanh layers of
    ``width`` units; the boundary term is weighted by ``boundary_weight``.
    """

    steps: int = 2000
    width: int = 20
    points: int = 64
    learning_rate: float = 0.01
    final_lr_fraction: float = 0.05
    boundary_weight: float = 100.0
    grid: int = 1001

    def __post_init__(self) -> None:
        for name in ("steps", "width", "points", "grid"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"PinnConfig: {name!r} must be a positive int, got {value!r}")
        for name in ("learning_rate", "final_lr_fraction", "boundary_weight"):
            value = getattr(self, name)
            if not isinstance(value, (int, float)) or not value > 0:
                raise ValueError(f"PinnConfig: {name!r} must be a positive number, got {value!r}")


FULL = PinnConfig()
QUICK = PinnConfig(steps=200)


@dataclass
class PinnRun:
    """One training run: the trained model, its loss curve, timings and error."""

    mode: str
    model: ug.nn.Module
    losses: list[float]
    seconds: float
    first_step_seconds: float
    max_error: float
    grid: np.ndarray = field(repr=False)
    prediction: np.ndarray = field(repr=False)

    @property
    def steady_step_seconds(self) -> float:
        """Mean time of a step after the first (the first one compiles in graph mode)."""
        steps = len(self.losses)
        if steps < 2:
            return self.seconds
        return (self.seconds - self.first_step_seconds) / (steps - 1)


def exact_solution(x: np.ndarray) -> np.ndarray:
    """``u(x) = sin(pi x)``, the solution the network should find.

    Example:
        >>> exact_solution(np.array([0.0, 0.5])).tolist()
        [0.0, 1.0]
    """
    return np.sin(np.pi * x)


def exact_forcing(x: ug.Tensor) -> ug.Tensor:
    """The right-hand side ``-pi^2 sin(pi x)`` of the ODE at the points ``x``."""
    return -(math.pi ** 2) * ug.sin(math.pi * x)


def build_model(width: int, seed: int) -> ug.nn.Module:
    """A 1 -> width -> width -> 1 tanh MLP, initialised from ``ug.manual_seed(seed)``."""
    ug.manual_seed(seed)
    return ug.nn.Sequential(
        ug.nn.Linear(1, width), ug.nn.Tanh(),
        ug.nn.Linear(width, width), ug.nn.Tanh(),
        ug.nn.Linear(width, 1),
    )


def residual_loss(model: ug.nn.Module, points: ug.Tensor, forcing: ug.Tensor,
                  boundary_weight: float = 100.0) -> ug.Tensor:
    """Mean squared residual of ``u'' - f`` at ``points`` plus the weighted boundary error.

    ``u_x`` and ``u_xx`` are taken with ``ug.autograd.grad(...,
    create_graph=True)``, so the returned loss can itself be differentiated
    with respect to the model's parameters (``loss.backward()``).
    """
    x = points.detach().requires_grad_(True)
    u = model(x)
    (u_x,) = ug.autograd.grad(u, x, grad_outputs=ug.ones_like(u), create_graph=True)
    (u_xx,) = ug.autograd.grad(u_x, x, grad_outputs=ug.ones_like(u_x), create_graph=True)
    boundary = model(ug.tensor([[0.0], [1.0]]))
    return ((u_xx - forcing) ** 2).mean() + boundary_weight * (boundary ** 2).mean()


def max_error(model: ug.nn.Module, grid: int = 1001) -> tuple[float, np.ndarray, np.ndarray]:
    """Max ``|u_net(x) - sin(pi x)|`` over ``grid`` equally spaced points; also the curves."""
    x = np.linspace(0.0, 1.0, grid, dtype=np.float32)
    with ug.no_grad():
        prediction = model(ug.tensor(x.reshape(-1, 1))).numpy()[:, 0]
    return float(np.abs(prediction - exact_solution(x)).max()), x, prediction


def train(config: PinnConfig, seed: int = 0, jit: bool = False, progress: bool = False,
          description: str = "pinn") -> PinnRun:
    """Train the PINN eagerly (or with the loss under ``ug.jit``) and return the run."""
    model = build_model(config.width, seed)
    optimizer = ug.optim.Adam(model.parameters(), lr=config.learning_rate)
    scheduler = ug.optim.lr_scheduler.ExponentialLR(
        optimizer, gamma=config.final_lr_fraction ** (1.0 / config.steps))
    points = ug.linspace(0.0, 1.0, config.points).reshape(-1, 1)
    forcing = exact_forcing(points)

    def loss_fn(points: ug.Tensor, forcing: ug.Tensor) -> ug.Tensor:
        return residual_loss(model, points, forcing, config.boundary_weight)

    step_loss: Callable[[ug.Tensor, ug.Tensor], ug.Tensor] = ug.jit(loss_fn) if jit else loss_fn
    losses: list[float] = []
    first_step = 0.0
    start = time.perf_counter()
    with progress_bar(config.steps, description, enabled=progress) as bar:
        for step in range(config.steps):
            optimizer.zero_grad()
            loss = step_loss(points, forcing)
            loss.backward()
            optimizer.step()
            scheduler.step()
            losses.append(loss.item())
            if step == 0:
                first_step = time.perf_counter() - start
            bar.update(1)
            if step % 50 == 0 or step == config.steps - 1:
                bar.set_postfix(loss=f"{losses[-1]:.2e}", refresh=False)
    elapsed = time.perf_counter() - start
    error, grid, prediction = max_error(model, config.grid)
    return PinnRun("graph (ug.jit)" if jit else "eager", model, losses, elapsed, first_step,
                   error, grid, prediction)


def _plot(runs: list[PinnRun], options: DemoOptions) -> list:
    figure, (solution_axes, error_axes, loss_axes) = new_figure(3, width=4.6, height=3.8)
    reference = runs[0]
    solution_axes.plot(reference.grid, exact_solution(reference.grid), color="black",
                       linewidth=3, alpha=0.35, label="exact sin(pi x)")
    for run, style in zip(runs, ("-", "--")):
        solution_axes.plot(run.grid, run.prediction, style, label=f"network, {run.mode}")
        error = np.abs(run.prediction - exact_solution(run.grid))
        error_axes.semilogy(run.grid, np.maximum(error, 1e-8), style, label=run.mode)
        loss_axes.semilogy(np.arange(1, len(run.losses) + 1), run.losses, style, label=run.mode)
    solution_axes.set(title="u'' = -pi^2 sin(pi x), u(0) = u(1) = 0", xlabel="x", ylabel="u")
    error_axes.set(title="|network - exact|", xlabel="x")
    loss_axes.set(title="training loss", xlabel="step")
    for axes in (solution_axes, error_axes, loss_axes):
        axes.legend(fontsize="small")
    return [save_figure(figure, options.out, "pinn.png")]


def run(options: DemoOptions) -> DemoResult:
    """Train (eagerly, and with ``options.jit`` also compiled), plot, and tabulate."""
    config = QUICK if options.quick else FULL
    runs = [train(config, options.seed, jit=False, progress=options.progress,
                  description="pinn (eager)")]
    if options.jit:
        runs.append(train(config, options.seed, jit=True, progress=options.progress,
                          description="pinn (ug.jit)"))
    rows = [[run.mode, len(run.losses), f"{run.losses[-1]:.2e}", f"{run.max_error:.2e}",
             seconds(run.seconds), f"{run.steady_step_seconds * 1e3:.2f}"] for run in runs]
    table = format_table(["pinn: mode", "steps", "final loss",
                          f"max |u - sin(pi x)| ({config.grid} pts)", "train time", "ms/step"],
                         rows)
    metrics = {"max_error": runs[0].max_error, "final_loss": runs[0].losses[-1],
               "seconds": runs[0].seconds, "steps": config.steps}
    if options.jit:
        eager, graph = runs
        speedup = eager.steady_step_seconds / graph.steady_step_seconds
        table += (f"\ngraph mode: {speedup:.2f}x faster per step than eager (steady state); "
                  f"its first step took {seconds(graph.first_step_seconds)} "
                  f"(trace + compile)")
        metrics.update(jit_max_error=graph.max_error, speedup=speedup,
                       compile_seconds=graph.first_step_seconds)
    return DemoResult(NAME, table, _plot(runs, options), metrics)
