"""dialects: one model's weight gradients through every front-end, side by side.

The model is a 2-layer tanh MLP ``tanh(x @ w1 + b1) @ w2 + b2`` with fixed
weights (drawn from ``numpy.random.default_rng(seed)``) on a fixed batch,
with a mean squared error loss. Its gradients with respect to ``w1, b1, w2,
b2`` are computed five ways:

- PyTorch front-end (``import unigrad.compat.torch as torch``):
  ``torch.tensor(..., requires_grad=True)`` and ``loss.backward()``, then
  the same with ``torch.autograd.grad(loss, params)``;
- TensorFlow front-end (``import unigrad.compat.tensorflow as tf``):
  ``tf.Variable`` parameters, ``tf.GradientTape`` and ``tape.gradient``;
- MindSpore front-end (``import unigrad.compat.mindspore as ms``):
  ``ms.Parameter`` weights and ``ms.grad(fn, grad_position=None, weights=...)``;
- unigrad's graph mode: ``ug.jit(ug.grad(loss_fn, grad_position=(0, 1, 2, 3)))``.

They all run on the one engine, so the eager spellings agree bit for bit and
the compiled one to float32 rounding (its elementwise chains are fused).

Example:
    >>> problem = make_problem(seed=0)
    >>> [weight.shape for weight in problem.weights]
    [(3, 8), (8,), (8, 2), (2,)]
    >>> loss, grads = SPELLINGS[-1].compute(problem)   # ug.jit(ug.grad(...))
    >>> [grad.shape for grad in grads] == [weight.shape for weight in problem.weights]
    True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

import unigrad as ug

from ._report import DemoOptions, DemoResult, format_table, new_figure, progress_bar, save_figure

NAME = "dialects"
DESCRIPTION = "one model's gradients via the torch, tf and ms front-ends and ug.jit, side by side"

PARAMETER_NAMES = ("w1", "b1", "w2", "b2")


@dataclass(frozen=True)
class Problem:
    """The fixed batch ``x, y`` and weights ``w1, b1, w2, b2`` (float32 NumPy arrays)."""

    x: np.ndarray
    y: np.ndarray
    weights: tuple[np.ndarray, ...]


def make_problem(seed: int = 0, batch: int = 6, features: int = 3, hidden: int = 8,
                 outputs: int = 2) -> Problem:
    """Draw the batch and the weights from ``numpy.random.default_rng(seed)``."""
    rng = np.random.default_rng(seed)

    def draw(*shape: int, scale: float = 1.0) -> np.ndarray:
        return (scale * rng.standard_normal(shape)).astype(np.float32)

    weights = (draw(features, hidden, scale=features ** -0.5), draw(hidden, scale=0.1),
               draw(hidden, outputs, scale=hidden ** -0.5), draw(outputs, scale=0.1))
    return Problem(draw(batch, features), draw(batch, outputs), weights)


def _to_numpy(value) -> np.ndarray:
    """The float32 NumPy array of a front-end tensor (unigrad, torch, tf or ms spelling)."""
    if hasattr(value, "asnumpy"):
        return np.array(value.asnumpy())
    if isinstance(value, ug.Tensor):
        return np.array(value.detach().numpy())
    return np.array(value.numpy())


def pytorch_backward(problem: Problem) -> tuple[float, list[np.ndarray]]:
    """``torch.tensor(..., requires_grad=True)``, ``loss.backward()``, read ``.grad``."""
    import unigrad.compat.torch as torch

    x, y = torch.tensor(problem.x), torch.tensor(problem.y)
    params = [torch.tensor(weight, requires_grad=True) for weight in problem.weights]
    w1, b1, w2, b2 = params
    loss = ((torch.tanh(x @ w1 + b1) @ w2 + b2 - y) ** 2).mean()
    loss.backward()
    return loss.item(), [_to_numpy(param.grad) for param in params]


def pytorch_autograd_grad(problem: Problem) -> tuple[float, list[np.ndarray]]:
    """The same loss, differentiated with ``torch.autograd.grad(loss, params)``."""
    import unigrad.compat.torch as torch

    x, y = torch.tensor(problem.x), torch.tensor(problem.y)
    params = [torch.tensor(weight, requires_grad=True) for weight in problem.weights]
    w1, b1, w2, b2 = params
    loss = ((torch.tanh(x @ w1 + b1) @ w2 + b2 - y) ** 2).mean()
    grads = torch.autograd.grad(loss, params)
    return loss.item(), [_to_numpy(grad) for grad in grads]


def tensorflow_tape(problem: Problem) -> tuple[float, list[np.ndarray]]:
    """``tf.Variable`` parameters, the loss under ``tf.GradientTape``, ``tape.gradient``."""
    import unigrad.compat.tensorflow as tf

    x, y = tf.constant(problem.x), tf.constant(problem.y)
    params = [tf.Variable(weight, name=name)
              for weight, name in zip(problem.weights, PARAMETER_NAMES)]
    w1, b1, w2, b2 = params
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((tf.tanh(x @ w1 + b1) @ w2 + b2 - y) ** 2)
    grads = tape.gradient(loss, params)
    return float(_to_numpy(loss)), [_to_numpy(grad) for grad in grads]


def mindspore_grad(problem: Problem) -> tuple[float, list[np.ndarray]]:
    """``ms.Parameter`` weights and ``ms.grad(forward, grad_position=None, weights=...)``."""
    import unigrad.compat.mindspore as ms

    params = [ms.Parameter(ms.Tensor(weight), name=name)
              for weight, name in zip(problem.weights, PARAMETER_NAMES)]
    w1, b1, w2, b2 = params

    def forward(x, y):
        return ((ms.ops.tanh(x @ w1 + b1) @ w2 + b2 - y) ** 2).mean()

    x, y = ms.Tensor(problem.x), ms.Tensor(problem.y)
    grads = ms.grad(forward, grad_position=None, weights=params)(x, y)
    return float(_to_numpy(forward(x, y))), [_to_numpy(grad) for grad in grads]


def unigrad_jit_grad(problem: Problem) -> tuple[float, list[np.ndarray]]:
    """``ug.jit(ug.grad(loss_fn, grad_position=(0, 1, 2, 3)))``: the compiled backward graph."""

    def loss_fn(w1, b1, w2, b2, x, y):
        return ((ug.tanh(x @ w1 + b1) @ w2 + b2 - y) ** 2).mean()

    weights = [ug.tensor(weight) for weight in problem.weights]
    x, y = ug.tensor(problem.x), ug.tensor(problem.y)
    grads = ug.jit(ug.grad(loss_fn, grad_position=(0, 1, 2, 3)))(*weights, x, y)
    loss = ug.jit(loss_fn)(*weights, x, y)
    return loss.item(), [_to_numpy(grad) for grad in grads]


@dataclass(frozen=True)
class Spelling:
    """One way of writing the gradient computation: table header and function."""

    label: str
    compute: Callable[[Problem], tuple[float, list[np.ndarray]]]


SPELLINGS: tuple[Spelling, ...] = (
    Spelling("torch backward()", pytorch_backward),
    Spelling("torch.autograd.grad", pytorch_autograd_grad),
    Spelling("tf.GradientTape", tensorflow_tape),
    Spelling("ms.grad", mindspore_grad),
    Spelling("ug.jit(ug.grad)", unigrad_jit_grad),
)


@dataclass
class DialectsComparison:
    """The loss and gradients of every spelling, and their differences from the first."""

    labels: list[str]
    losses: list[float]
    grads: list[list[np.ndarray]]

    def max_differences(self) -> list[float]:
        """Max ``|grad - grad of the first spelling|`` over all entries, per spelling."""
        reference = self.grads[0]
        return [max(float(np.abs(grad - ref).max()) for grad, ref in zip(grads, reference))
                for grads in self.grads]

    def bit_identical(self) -> list[bool]:
        """Whether each spelling's gradients equal the first one's bit for bit."""
        reference = self.grads[0]
        return [all(np.array_equal(grad, ref) for grad, ref in zip(grads, reference))
                for grads in self.grads]


def compare(problem: Problem, progress: bool = False) -> DialectsComparison:
    """Compute the gradients of ``problem`` with every spelling of :data:`SPELLINGS`."""
    losses, grads = [], []
    with progress_bar(len(SPELLINGS), "dialects", enabled=progress) as bar:
        for spelling in SPELLINGS:
            loss, spelling_grads = spelling.compute(problem)
            losses.append(loss)
            grads.append(spelling_grads)
            bar.update(1)
    return DialectsComparison([spelling.label for spelling in SPELLINGS], losses, grads)


def _table(problem: Problem, comparison: DialectsComparison) -> str:
    rows = []
    for index, (name, weight) in enumerate(zip(PARAMETER_NAMES, problem.weights)):
        for flat in range(2):
            position = np.unravel_index(flat, weight.shape)
            label = f"d loss/d {name}[{', '.join(map(str, position))}]"
            rows.append([label, *(f"{grads[index][position]:+.8f}"
                                  for grads in comparison.grads)])
    rows.append(["loss", *(f"{loss:.8f}" for loss in comparison.losses)])
    entries = sum(weight.size for weight in problem.weights)
    rows.append([f"max |diff| vs col 1 ({entries} entries)",
                 *(f"{difference:.1e}" if difference else "0"
                   for difference in comparison.max_differences())])
    rows.append(["bit-identical to col 1",
                 *("yes" if same else "no" for same in comparison.bit_identical())])
    shapes = ", ".join(f"{name} {weight.shape}"
                       for name, weight in zip(PARAMETER_NAMES, problem.weights))
    return (format_table(["dialects: gradient", *comparison.labels], rows)
            + f"\nmodel: mean((tanh(x @ w1 + b1) @ w2 + b2 - y) ** 2), x {problem.x.shape}, "
              f"{shapes}")


def _plot(problem: Problem, comparison: DialectsComparison, options: DemoOptions) -> list:
    figure, (image_axes, difference_axes) = new_figure(2, width=5.5, height=3.6)
    flat = np.stack([np.concatenate([grad.ravel() for grad in grads])
                     for grads in comparison.grads])
    limit = float(np.abs(flat).max()) or 1.0
    image = image_axes.imshow(flat, aspect="auto", cmap="coolwarm", vmin=-limit, vmax=limit,
                              interpolation="nearest")
    rows = range(len(comparison.labels))
    image_axes.set_yticks(rows, comparison.labels, fontsize="small")
    boundaries = np.cumsum([0, *(weight.size for weight in problem.weights)])
    for left, right, name in zip(boundaries[:-1], boundaries[1:], PARAMETER_NAMES):
        if left:
            image_axes.axvline(left - 0.5, color="black", linewidth=1)
        image_axes.text((left + right - 1) / 2, -0.7, name, ha="center", va="bottom")
    image_axes.set_xlabel("gradient entry (flattened)")
    image_axes.set_title("every gradient entry, one row per spelling", pad=24)
    figure.colorbar(image, ax=image_axes)
    differences = comparison.max_differences()
    floor = 1e-12
    difference_axes.barh(rows, [max(value, floor) for value in differences], color="tab:blue")
    difference_axes.set_xscale("log")
    difference_axes.set_xlim(floor / 10, 1e-2)
    difference_axes.set_yticks(rows, comparison.labels, fontsize="small")
    difference_axes.invert_yaxis()  # same row order as the image
    for row, value in zip(rows, differences):
        difference_axes.annotate("0: bit-identical" if value == 0 else f"{value:.1e}",
                                 (max(value, floor), row), ha="left", va="center",
                                 fontsize="small", xytext=(4, 0), textcoords="offset points")
    difference_axes.set(title=f"max |grad - {comparison.labels[0]}| (log scale)")
    return [save_figure(figure, options.out, "dialects.png")]


def run(options: DemoOptions) -> DemoResult:
    """Compute the gradients every way, tabulate them side by side and plot them."""
    problem = make_problem(options.seed)
    comparison = compare(problem, progress=options.progress)
    metrics = {"max_differences": dict(zip(comparison.labels, comparison.max_differences())),
               "bit_identical": dict(zip(comparison.labels, comparison.bit_identical())),
               "losses": dict(zip(comparison.labels, comparison.losses))}
    figures = _plot(problem, comparison, options)
    return DemoResult(NAME, _table(problem, comparison), figures, metrics)
