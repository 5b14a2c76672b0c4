"""Eager-mode overhead: unigrad against PyTorch eager (CPU) and a hand-written NumPy floor.

Three workloads, each forward + backward:

* ``chain``: ``x = tanh(x * 1.0001 + 0.0001)`` 500 times on a 16-element float32
  vector, then ``x.sum().backward()``. Tiny arrays, so this measures per-op
  dispatch and tape cost. Target: unigrad <= 0.6x PyTorch.
* ``mlp``: gradient of the mean softmax cross-entropy of a 784-512-512-10 ReLU
  MLP on a 256x784 float32 batch, with respect to all weights and biases. Big
  matmuls, so this measures whether the engine adds anything on top of BLAS.
  Targets: unigrad <= 1.0x PyTorch and <= 1.15x the NumPy floor.
* ``mlp-vg``: the same gradients through the functional transforms,
  ``ug.value_and_grad(loss, None, weights)`` against ``torch.func.grad_and_value``
  (what a transform adds over the tape; reported, no target).
* ``step``: one training step of a small MLP (batch 64, 32-64-64-1, tanh, MSE)
  written with ``nn.Sequential(nn.Linear...)`` and ``optim.SGD``:
  ``zero_grad(); loss.backward(); step()`` (what Modules and an optimizer add;
  the eager baseline for graph mode's training-step target; reported, no target).

The NumPy floor is the same computation written by hand (forward and backward)
with NumPy alone: the fastest an engine on NumPy could hope to be. Before any
timing, the gradients of all implementations are checked against each other.

Usage::

    python benchmarks/eager.py            # full run (about 20 seconds)
    python benchmarks/eager.py --quick    # a few seconds, fewer repeats
    python benchmarks/eager.py --threads 2

BLAS and PyTorch are limited to ``--threads`` threads (default 1); the thread
environment variables are set before NumPy is imported.
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path

CHAIN_LENGTH = 500
CHAIN_SIZE = 16
BATCH = 256
LAYER_SIZES = (784, 512, 512, 10)
RELATIVE_TOLERANCE = 1e-3
ABSOLUTE_TOLERANCE = 1e-5

TARGETS = {
    "chain": {"torch": 0.6, "numpy": None},
    "mlp": {"torch": 1.0, "numpy": 1.15},
    # the same MLP through the functional transforms (no targets in the issues: reported only)
    "mlp-vg": {"torch": None, "numpy": None},
    # a Module + optimizer training step (graph mode's workload, eager baseline; reported only)
    "step": {"torch": None, "numpy": None},
}
STEP_BATCH = 64
STEP_SIZES = (32, 64, 64, 1)
STEP_LEARNING_RATE = 0.01


def parse_arguments(argv: list[str] | None = None) -> argparse.Namespace:
    """Read the command line (before NumPy is imported)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="few repeats: a smoke run")
    parser.add_argument("--threads", type=int, default=1,
                        help="BLAS / PyTorch intra-op threads (default 1)")
    parser.add_argument("--repeats", type=int, default=None,
                        help="timed repeats per measurement; the minimum is reported")
    parser.add_argument("--only", choices=["chain", "mlp", "mlp-vg", "step"], default=None,
                        help="run one workload only")
    parser.add_argument("--no-torch", action="store_true", help="skip PyTorch even if installed")
    parser.add_argument("--with-gc", action="store_true",
                        help="keep the garbage collector running while timing (by default it is "
                             "paused, as timeit and torch.utils.benchmark do)")
    return parser.parse_args(argv)


def limit_threads(threads: int) -> None:
    """Pin the BLAS thread pools; must run before NumPy is first imported."""
    for name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
                 "VECLIB_MAXIMUM_THREADS", "NUMEXPR_NUM_THREADS"):
        os.environ[name] = str(threads)


def best_times(functions: dict[str, Callable[[], object]], repeats: int, number: int,
               warmup: int, pause_gc: bool = True) -> dict[str, float]:
    """Per function: minimum over ``repeats`` of the mean seconds per call of ``number`` calls.

    The functions take turns within each repeat, so a burst of load from other
    processes slows all of them alike instead of one of them.
    """
    for function in functions.values():
        for _ in range(warmup):
            function()
    timings = {name: [] for name in functions}
    gc_was_enabled = gc.isenabled()
    for _ in range(repeats):
        for name, function in functions.items():
            gc.collect()
            if pause_gc:
                gc.disable()
            try:
                start = time.perf_counter()
                for _ in range(number):
                    function()
                timings[name].append((time.perf_counter() - start) / number)
            finally:
                if gc_was_enabled:
                    gc.enable()
    return {name: min(values) for name, values in timings.items()}


# ---------------------------------------------------------------------------------------------
# chain: x = tanh(x * 1.0001 + 0.0001), 500 times


def chain_unigrad(ug, start):
    """Gradient of sum(chain(x)) with unigrad; returns a NumPy array."""
    x = ug.tensor(start, requires_grad=True)
    value = x
    for _ in range(CHAIN_LENGTH):
        value = ug.tanh(value * 1.0001 + 0.0001)
    value.sum().backward()
    return x.grad.numpy()


def chain_torch(torch, start):
    """Gradient of sum(chain(x)) with PyTorch eager; returns a NumPy array."""
    x = torch.tensor(start, requires_grad=True)
    value = x
    for _ in range(CHAIN_LENGTH):
        value = torch.tanh(value * 1.0001 + 0.0001)
    value.sum().backward()
    return x.grad.numpy()


def chain_numpy(np, start):
    """Gradient of sum(chain(x)) by hand: keep each tanh output, multiply back."""
    scale = np.float32(1.0001)
    shift = np.float32(0.0001)
    outputs = []
    value = start
    for _ in range(CHAIN_LENGTH):
        value = np.tanh(value * scale + shift)
        outputs.append(value)
    gradient = np.ones_like(start)
    for output in reversed(outputs):
        gradient = gradient * (1 - output * output) * scale
    return gradient


# ---------------------------------------------------------------------------------------------
# mlp: 784-512-512-10, relu, softmax cross-entropy


def make_mlp_data(np):
    """Deterministic batch, labels and parameters (float32), as NumPy arrays."""
    generator = np.random.default_rng(0)
    inputs = generator.standard_normal((BATCH, LAYER_SIZES[0])).astype(np.float32)
    labels = generator.integers(0, LAYER_SIZES[-1], size=BATCH).astype(np.int64)
    parameters = []
    for fan_in, fan_out in zip(LAYER_SIZES[:-1], LAYER_SIZES[1:]):
        bound = 1.0 / np.sqrt(fan_in)
        weight = generator.uniform(-bound, bound, (fan_in, fan_out)).astype(np.float32)
        bias = generator.uniform(-bound, bound, fan_out).astype(np.float32)
        parameters += [weight, bias]
    return inputs, labels, parameters


def unigrad_cross_entropy(ug, np, logits, labels):
    """Mean softmax cross-entropy: ``ug.nn.functional.cross_entropy`` when it exists.

    The fallback uses only exp, log, keepdim sums, mean and a one-hot mask; the
    row maximum it subtracts for stability is a constant (log-sum-exp is shift
    invariant), so no gradient flows through it.
    """
    functional = getattr(getattr(ug, "nn", None), "functional", None)
    if functional is not None and hasattr(functional, "cross_entropy"):
        return functional.cross_entropy(logits, ug.from_numpy(labels))
    row_maximum = logits.detach().numpy().max(axis=1, keepdims=True)
    shifted = logits - ug.tensor(row_maximum)
    log_probabilities = shifted - ug.log(ug.exp(shifted).sum(dim=1, keepdim=True))
    one_hot = np.zeros(log_probabilities.shape, dtype=np.float32)
    one_hot[np.arange(len(labels)), labels] = 1.0
    return -(log_probabilities * ug.tensor(one_hot)).sum(dim=1).mean()


def mlp_unigrad(ug, np, inputs, labels, parameters):
    """Gradients of the MLP loss with unigrad; returns a list of NumPy arrays.

    Like ``torch.from_numpy`` in :func:`mlp_torch`, ``ug.from_numpy`` shares the
    arrays instead of copying them, so neither side pays for copying 2 MB of weights.
    """
    tensors = [ug.from_numpy(parameter).requires_grad_() for parameter in parameters]
    activation = ug.from_numpy(inputs)
    for layer in range(len(tensors) // 2):
        activation = activation @ tensors[2 * layer] + tensors[2 * layer + 1]
        if 2 * layer + 2 < len(tensors):
            activation = ug.relu(activation)
    unigrad_cross_entropy(ug, np, activation, labels).backward()
    return [tensor.grad.numpy() for tensor in tensors]


def mlp_torch(torch, inputs, labels, parameters):
    """Gradients of the MLP loss with PyTorch eager; returns a list of NumPy arrays."""
    tensors = [torch.from_numpy(parameter).requires_grad_() for parameter in parameters]
    activation = torch.from_numpy(inputs)
    for layer in range(len(tensors) // 2):
        activation = activation @ tensors[2 * layer] + tensors[2 * layer + 1]
        if 2 * layer + 2 < len(tensors):
            activation = torch.relu(activation)
    torch.nn.functional.cross_entropy(activation, torch.from_numpy(labels)).backward()
    return [tensor.grad.numpy() for tensor in tensors]


def mlp_unigrad_value_and_grad(ug, np, inputs, labels, parameters):
    """The MLP's gradients by ``ug.value_and_grad(loss, None, weights)`` (MindSpore style)."""
    tensors = [ug.from_numpy(parameter).requires_grad_() for parameter in parameters]

    def loss(batch):
        activation = batch
        for layer in range(len(tensors) // 2):
            activation = activation @ tensors[2 * layer] + tensors[2 * layer + 1]
            if 2 * layer + 2 < len(tensors):
                activation = ug.relu(activation)
        return unigrad_cross_entropy(ug, np, activation, labels)

    _, gradients = ug.value_and_grad(loss, None, tensors)(ug.from_numpy(inputs))
    return [gradient.numpy() for gradient in gradients]


def mlp_torch_func(torch, inputs, labels, parameters):
    """The MLP's gradients by ``torch.func.grad_and_value`` over the parameters."""
    tensors = [torch.from_numpy(parameter) for parameter in parameters]
    batch, targets = torch.from_numpy(inputs), torch.from_numpy(labels)

    def loss(weights):
        activation = batch
        for layer in range(len(weights) // 2):
            activation = activation @ weights[2 * layer] + weights[2 * layer + 1]
            if 2 * layer + 2 < len(weights):
                activation = torch.relu(activation)
        return torch.nn.functional.cross_entropy(activation, targets)

    gradients, _ = torch.func.grad_and_value(loss)(tensors)
    return [gradient.numpy() for gradient in gradients]


def mlp_numpy(np, inputs, labels, parameters):
    """Gradients of the MLP loss written by hand in NumPy (the floor)."""
    weights, biases = parameters[0::2], parameters[1::2]
    activations = [inputs]
    for layer, (weight, bias) in enumerate(zip(weights, biases)):
        output = activations[-1] @ weight + bias
        if layer + 1 < len(weights):
            output = np.maximum(output, 0)
        activations.append(output)
    logits = activations[-1]
    exponentials = np.exp(logits - logits.max(axis=1, keepdims=True))
    cotangent = exponentials / exponentials.sum(axis=1, keepdims=True)
    cotangent[np.arange(len(labels)), labels] -= 1
    cotangent /= len(labels)
    gradients = []
    for layer in reversed(range(len(weights))):
        gradients.append(cotangent.sum(axis=0))
        gradients.append(activations[layer].T @ cotangent)
        if layer:
            cotangent = (cotangent @ weights[layer].T) * (activations[layer] > 0)
    return gradients[::-1]


def make_step_data(np):
    """Batch, targets and (weight, bias) pairs in ``nn.Linear``'s (out, in) layout."""
    generator = np.random.default_rng(2)
    inputs = generator.standard_normal((STEP_BATCH, STEP_SIZES[0])).astype(np.float32)
    targets = generator.standard_normal((STEP_BATCH, STEP_SIZES[-1])).astype(np.float32)
    parameters = []
    for fan_in, fan_out in zip(STEP_SIZES[:-1], STEP_SIZES[1:]):
        bound = 1.0 / np.sqrt(fan_in)
        parameters.append(generator.uniform(-bound, bound, (fan_out, fan_in)).astype(np.float32))
        parameters.append(generator.uniform(-bound, bound, fan_out).astype(np.float32))
    return inputs, targets, parameters


def step_model(ug, parameters):
    """The step workload's ``nn.Sequential`` of Linear + Tanh layers holding ``parameters``."""
    layers = []
    for index in range(len(parameters) // 2):
        linear = ug.nn.Linear(STEP_SIZES[index], STEP_SIZES[index + 1])
        linear.load_state_dict({"weight": parameters[2 * index],
                                "bias": parameters[2 * index + 1]})
        layers += [linear, ug.nn.Tanh()]
    return ug.nn.Sequential(*layers[:-1])


def step_unigrad(ug, inputs, targets, parameters):
    """A training-step closure over an ``nn.Sequential`` model and ``optim.SGD``."""
    model = step_model(ug, parameters)
    optimizer = ug.optim.SGD(model.parameters(), lr=STEP_LEARNING_RATE)
    loss_fn = ug.nn.MSELoss()
    batch, labels = ug.from_numpy(inputs), ug.from_numpy(targets)

    def step(collect: bool = False):
        optimizer.zero_grad()
        loss_fn(model(batch), labels).backward()
        optimizer.step()
        if collect:
            return [parameter.detach().numpy().copy() for parameter in model.parameters()]

    return step


def step_torch(torch, inputs, targets, parameters):
    """The same training step with ``torch.nn`` and ``torch.optim.SGD`` (single-tensor path)."""
    layers = []
    for index in range(len(parameters) // 2):
        linear = torch.nn.Linear(STEP_SIZES[index], STEP_SIZES[index + 1])
        with torch.no_grad():
            linear.weight.copy_(torch.from_numpy(parameters[2 * index]))
            linear.bias.copy_(torch.from_numpy(parameters[2 * index + 1]))
        layers += [linear, torch.nn.Tanh()]
    model = torch.nn.Sequential(*layers[:-1])
    optimizer = torch.optim.SGD(model.parameters(), lr=STEP_LEARNING_RATE, foreach=False)
    loss_fn = torch.nn.MSELoss()
    batch, labels = torch.from_numpy(inputs), torch.from_numpy(targets)

    def step(collect: bool = False):
        optimizer.zero_grad()
        loss_fn(model(batch), labels).backward()
        optimizer.step()
        if collect:
            return [parameter.detach().numpy().copy() for parameter in model.parameters()]

    return step


def step_numpy(np, inputs, targets, parameters):
    """The training step by hand in NumPy: forward, backward, ``p -= lr * g`` in place."""
    parameters = [parameter.copy() for parameter in parameters]
    weights, biases = parameters[0::2], parameters[1::2]

    def step(collect: bool = False):
        activations = [inputs]
        for layer, (weight, bias) in enumerate(zip(weights, biases)):
            output = activations[-1] @ weight.T + bias
            if layer + 1 < len(weights):
                output = np.tanh(output)
            activations.append(output)
        cotangent = (activations[-1] - targets) * (2.0 / activations[-1].size)
        for layer in reversed(range(len(weights))):
            weight_gradient = cotangent.T @ activations[layer]
            bias_gradient = cotangent.sum(axis=0)
            if layer:
                cotangent = (cotangent @ weights[layer]) * (1.0 - activations[layer] ** 2)
            weights[layer] -= STEP_LEARNING_RATE * weight_gradient
            biases[layer] -= STEP_LEARNING_RATE * bias_gradient
        if collect:
            return [parameter.copy() for parameter in parameters]

    return step


# ---------------------------------------------------------------------------------------------


def check_agreement(np, name, reference, candidates):
    """Raise AssertionError unless every candidate's gradients match the reference's."""
    for label, gradients in candidates.items():
        if not isinstance(gradients, list):
            gradients, expected = [gradients], [reference]
        else:
            expected = reference
        for index, (got, want) in enumerate(zip(gradients, expected)):
            np.testing.assert_allclose(
                got, want, rtol=RELATIVE_TOLERANCE, atol=ABSOLUTE_TOLERANCE,
                err_msg=f"{name}: {label} gradient {index} disagrees with the NumPy reference")


def format_ratio(ratio, target):
    """``0.42x (<= 0.6 ok)`` style cell."""
    if ratio is None:
        return "-"
    if target is None:
        return f"{ratio:.2f}x"
    verdict = "ok" if ratio <= target else "MISSED"
    return f"{ratio:.2f}x (<= {target:g} {verdict})"


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the table; returns the exit status."""
    arguments = parse_arguments(argv)
    limit_threads(arguments.threads)

    import numpy as np

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    import unigrad as ug

    torch = None
    torch_note = ""
    if not arguments.no_torch:
        try:
            import torch
        except ImportError:
            torch_note = "PyTorch is not installed: torch columns skipped (pip install '.[bench]')."
        else:
            torch.set_num_threads(arguments.threads)
    else:
        torch_note = "--no-torch: torch columns skipped."

    repeats = arguments.repeats or (3 if arguments.quick else 30)
    warmup = 1 if arguments.quick else 3
    rows = []

    def measure(name: str, functions: dict, number: int, results: dict | None = None) -> None:
        """Check each implementation's result against the NumPy floor's, then time them.

        ``results`` (default: ``functions``) are the calls whose return values are compared.
        """
        if torch is None:
            functions.pop("torch", None)
        results = functions if results is None else results
        candidates = {label: result() for label, result in results.items()
                      if label != "numpy" and label in functions}
        check_agreement(np, name, results["numpy"](), candidates)
        rows.append((name, best_times(functions, repeats, number, warmup,
                                      not arguments.with_gc)))

    if arguments.only in (None, "chain"):
        start = np.random.default_rng(1).standard_normal(CHAIN_SIZE).astype(np.float32)
        measure("chain", {"unigrad": lambda: chain_unigrad(ug, start),
                          "numpy": lambda: chain_numpy(np, start),
                          "torch": lambda: chain_torch(torch, start)},
                2 if arguments.quick else 10)

    if arguments.only in (None, "mlp"):
        inputs, labels, parameters = make_mlp_data(np)
        measure("mlp", {"unigrad": lambda: mlp_unigrad(ug, np, inputs, labels, parameters),
                        "numpy": lambda: mlp_numpy(np, inputs, labels, parameters),
                        "torch": lambda: mlp_torch(torch, inputs, labels, parameters)},
                1 if arguments.quick else 3)

    if arguments.only in (None, "mlp-vg"):
        inputs, labels, parameters = make_mlp_data(np)
        measure("mlp-vg",
                {"unigrad": lambda: mlp_unigrad_value_and_grad(ug, np, inputs, labels,
                                                               parameters),
                 "numpy": lambda: mlp_numpy(np, inputs, labels, parameters),
                 "torch": lambda: mlp_torch_func(torch, inputs, labels, parameters)},
                1 if arguments.quick else 3)

    if arguments.only in (None, "step"):
        inputs, targets, parameters = make_step_data(np)
        makers = {"unigrad": lambda: step_unigrad(ug, inputs, targets, parameters),
                  "numpy": lambda: step_numpy(np, inputs, targets, parameters),
                  "torch": lambda: step_torch(torch, inputs, targets, parameters)}
        # the first step from fresh copies is compared; the timed steps return nothing
        first_steps = {label: (lambda make=make: make()(collect=True))
                       for label, make in makers.items()}
        measure("step", {label: make() for label, make in makers.items()
                         if label != "torch" or torch is not None},
                5 if arguments.quick else 50, results=first_steps)

    print(f"unigrad {ug.__version__} | numpy {np.__version__} | "
          f"torch {torch.__version__ if torch is not None else '-'} | "
          f"python {platform.python_version()} | {os.cpu_count()} cores | "
          f"threads {arguments.threads} | repeats {repeats} (min reported)")
    print("gradients (step: updated parameters) agree (rtol 1e-3, atol 1e-5) between all "
          "implementations")
    header = (f"{'workload':<9}{'unigrad ms':>12}{'torch ms':>11}{'numpy ms':>11}  "
              f"{'unigrad/torch':<22}{'unigrad/numpy':<22}")
    print(header)
    print("-" * len(header))
    for name, timings in rows:
        unigrad_ms = timings["unigrad"] * 1e3
        torch_ms = timings["torch"] * 1e3 if "torch" in timings else None
        numpy_ms = timings["numpy"] * 1e3
        torch_ratio = timings["unigrad"] / timings["torch"] if torch_ms is not None else None
        numpy_ratio = timings["unigrad"] / timings["numpy"]
        torch_cell = f"{torch_ms:.3f}" if torch_ms is not None else "-"
        print(f"{name:<9}{unigrad_ms:>12.3f}{torch_cell:>11}{numpy_ms:>11.3f}  "
              f"{format_ratio(torch_ratio, TARGETS[name]['torch']):<22}"
              f"{format_ratio(numpy_ratio, TARGETS[name]['numpy']):<22}")
    if any(name == "mlp" for name, _ in rows):
        functional = getattr(getattr(ug, "nn", None), "functional", None)
        source = ("ug.nn.functional.cross_entropy" if hasattr(functional, "cross_entropy")
                  else "a fallback from exp/log/sum/mean (no ug.nn.functional.cross_entropy yet)")
        print(f"mlp loss in unigrad: {source}")
    if torch_note:
        print(torch_note)
    return 0


if __name__ == "__main__":
    sys.exit(main())
