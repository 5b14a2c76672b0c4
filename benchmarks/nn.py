"""torch.nn layers, DataLoader and LBFGS: unigrad against PyTorch eager (CPU).

Each workload is written once against the shared API (``nn`` is ``torch.nn`` or
``unigrad.nn``), built in both libraries with the same parameters (PyTorch's
initial ``state_dict`` loaded into unigrad), and timed as one training pass:
``zero_grad()``, forward, ``(output * cotangent).sum().backward()`` with a fixed
random cotangent (float32, CPU):

* ``conv``: two blocks of Conv2d(3x3, padding 1, no bias) + BatchNorm2d + ReLU + MaxPool2d(2)
  (3 -> 16 -> 32 channels), Flatten, Linear(2048, 10); batch 32 of 3x32x32.
* ``lstm``: LSTM(32, 64, num_layers=2, batch_first=True); batch 16, sequence 32.
* ``gru``: GRU(32, 64, batch_first=True); batch 16, sequence 32.
* ``transformer``: TransformerEncoderLayer(d_model=64, nhead=4, dim_feedforward=128,
  dropout=0.0, batch_first=True); batch 16, sequence 32.
* ``mha``: MultiheadAttention(64, 4, batch_first=True) as self-attention,
  ``mha(x, x, x, need_weights=False)``; batch 16, sequence 32.

and two workloads that are not a layer:

* ``dataloader``: one epoch of ``DataLoader(TensorDataset(features, labels),
  batch_size=64, shuffle=True, num_workers=0)`` over 10,000 rows of 32 float32
  features and an int64 label (157 batches; nothing is computed on them).
* ``lbfgs``: ``LBFGS(lr=1, max_iter=20, line_search_fn="strong_wolfe").step(closure)``
  from the same start on a float64 1-20-20-1 tanh MLP fitting ``sin(3x)`` at 128
  points with MSE (24 closure calls, each a forward and backward).

Targets (unigrad/torch time ratio, lower is better): ``transformer`` <= 2.5,
``mha`` <= 2.0, ``lbfgs`` <= 2.5; the other rows are reported only (see
``benchmarks/README.md`` for why).

Before timing, the outputs and every parameter gradient of the two libraries are
compared (``rtol=1e-3``, ``atol=1e-5`` times the array's largest magnitude when
above 1); for ``dataloader``, that the epoch yields every row once, in batches of
the same sizes and dtypes; for ``lbfgs``, the parameters, the final loss and the
number of closure calls after the step (``rtol=1e-6``, float64). A workload whose
layer or optimizer does not exist in unigrad yet is skipped with a note.

Usage::

    python benchmarks/nn.py            # full run (about 30 seconds on an idle machine)
    python benchmarks/nn.py --quick    # a few seconds, fewer repeats
    python benchmarks/nn.py --threads 2 --only lstm

BLAS and PyTorch are limited to ``--threads`` threads (default 1); the thread
environment variables are set before NumPy is imported. PyTorch is required
(it is the reference the gradients are checked against).
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from eager import (  # noqa: E402
    ABSOLUTE_TOLERANCE,
    RELATIVE_TOLERANCE,
    best_times,
    format_ratio,
    limit_threads,
)

WORKLOADS = ("conv", "lstm", "gru", "transformer", "mha", "dataloader", "lbfgs")
# unigrad/torch time ratio targets (None: reported only); the reasons are in README.md
TARGETS = {
    "conv": None,  # 2.3-3.5x: im2col matmuls, max-pool windows and BatchNorm's elementwise passes
    "lstm": None,  # 4-7x: about 20 ops per time step, each paying the per-op dispatch cost
    "gru": None,  # 2-2.7x: the same per-step cost, fewer ops per step than the LSTM
    "transformer": 2.5,  # matmuls on par with PyTorch's; the rest is per-op cost
    "mha": 2.0,
    "dataloader": None,  # about 5x: a getitem per row and tensor, then a stack of 64 per batch
    "lbfgs": 2.5,  # the same ops as PyTorch's LBFGS on 481 parameters: per-op cost only
}
# (calls per repeat: full run, --quick)
NUMBERS = {"conv": (3, 1), "lstm": (3, 1), "gru": (5, 1), "transformer": (5, 1),
           "mha": (10, 2), "dataloader": (1, 1), "lbfgs": (2, 1)}
# what each workload needs from unigrad (a missing name skips the row)
REQUIRES = {
    "conv": ("nn.Conv2d", "nn.BatchNorm2d", "nn.ReLU", "nn.MaxPool2d", "nn.Flatten", "nn.Linear"),
    "lstm": ("nn.LSTM",),
    "gru": ("nn.GRU",),
    "transformer": ("nn.TransformerEncoderLayer",),
    "mha": ("nn.MultiheadAttention",),
    "dataloader": ("data.DataLoader", "data.TensorDataset"),
    "lbfgs": ("optim.LBFGS", "nn.Linear", "nn.Tanh", "nn.MSELoss"),
}
BATCH = 16
SEQUENCE = 32
FEATURES = 32
HIDDEN = 64
DATASET_ROWS = 10_000
LOADER_BATCH = 64
LBFGS_POINTS = 128
LBFGS_WIDTH = 20
LBFGS_TOLERANCE = 1e-6


def parse_arguments(argv: list[str] | None = None) -> argparse.Namespace:
    """Read the command line (before NumPy is imported)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="few repeats: a smoke run")
    parser.add_argument("--threads", type=int, default=1,
                        help="BLAS / PyTorch intra-op threads (default 1)")
    parser.add_argument("--repeats", type=int, default=None,
                        help="timed repeats per measurement; the minimum is reported")
    parser.add_argument("--only", choices=WORKLOADS, default=None, help="run one workload only")
    parser.add_argument("--with-gc", action="store_true",
                        help="keep the garbage collector running while timing (by default it is "
                             "paused, as timeit and torch.utils.benchmark do)")
    return parser.parse_args(argv)


def missing_names(ug, names: tuple[str, ...]) -> list[str]:
    """The dotted names (relative to ``unigrad``) that do not exist."""
    missing = []
    for name in names:
        value = ug
        for part in name.split("."):
            value = getattr(value, part, None)
        if value is None:
            missing.append(f"unigrad.{name}")
    return missing


# ---------------------------------------------------------------------------------------------
# layers: one training pass (zero_grad, forward, backward of a fixed linear functional)


def conv_stack(nn):
    """Two Conv2d + BatchNorm2d + ReLU + MaxPool2d blocks and a Linear classifier head.

    The convolutions have no bias, as usual before a BatchNorm (which subtracts the
    channel mean, so such a bias's gradient is zero up to rounding noise).
    """
    return nn.Sequential(
        nn.Conv2d(3, 16, 3, padding=1, bias=False), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(16, 32, 3, padding=1, bias=False), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(), nn.Linear(32 * 8 * 8, 10))


def first_output(module, inputs):
    """``module(inputs)[0]``: a recurrent layer's output sequence without its final state."""
    return module(inputs)[0]


def self_attention(module, inputs):
    """``module(x, x, x, need_weights=False)[0]``: MultiheadAttention as self-attention."""
    return module(inputs, inputs, inputs, need_weights=False)[0]


def plain_call(module, inputs):
    """``module(inputs)``."""
    return module(inputs)


# name: (builder from an ``nn`` namespace, input shape, forward)
LAYER_WORKLOADS = {
    "conv": (conv_stack, (32, 3, 32, 32), plain_call),
    "lstm": (lambda nn: nn.LSTM(FEATURES, HIDDEN, num_layers=2, batch_first=True),
             (BATCH, SEQUENCE, FEATURES), first_output),
    "gru": (lambda nn: nn.GRU(FEATURES, HIDDEN, batch_first=True),
            (BATCH, SEQUENCE, FEATURES), first_output),
    "transformer": (lambda nn: nn.TransformerEncoderLayer(HIDDEN, 4, dim_feedforward=128,
                                                          dropout=0.0, batch_first=True),
                    (BATCH, SEQUENCE, HIDDEN), plain_call),
    "mha": (lambda nn: nn.MultiheadAttention(HIDDEN, 4, batch_first=True),
            (BATCH, SEQUENCE, HIDDEN), self_attention),
}


def training_pass(module, forward: Callable, inputs, cotangent) -> Callable:
    """A closure running ``zero_grad``, forward and backward of ``sum(output * cotangent)``.

    Called with ``collect=True`` it returns the output and the parameter gradients
    by parameter name, as NumPy arrays; the same code serves both libraries.
    """

    def run(collect: bool = False):
        module.zero_grad()
        output = forward(module, inputs)
        (output * cotangent).sum().backward()
        if collect:
            values = {"output": output.detach().numpy().copy()}
            values.update({name: parameter.grad.numpy().copy()
                           for name, parameter in module.named_parameters()})
            return values

    return run


def layer_workload(ug, torch, np, name: str) -> dict[str, Callable]:
    """The ``unigrad`` and ``torch`` training passes of one ``LAYER_WORKLOADS`` entry."""
    build, shape, forward = LAYER_WORKLOADS[name]
    torch.manual_seed(0)
    torch_module = build(torch.nn)
    unigrad_module = build(ug.nn)
    unigrad_module.load_state_dict({key: value.detach().numpy().copy()
                                    for key, value in torch_module.state_dict().items()})
    generator = np.random.default_rng(3)
    inputs = generator.standard_normal(shape).astype(np.float32)
    with torch.no_grad():
        output_shape = tuple(forward(torch_module, torch.from_numpy(inputs)).shape)
    cotangent = generator.standard_normal(output_shape).astype(np.float32)
    return {"unigrad": training_pass(unigrad_module, forward, ug.from_numpy(inputs),
                                     ug.from_numpy(cotangent)),
            "torch": training_pass(torch_module, forward, torch.from_numpy(inputs),
                                   torch.from_numpy(cotangent))}


# ---------------------------------------------------------------------------------------------
# dataloader: one shuffled epoch over a TensorDataset


def loader_epoch(data, features, labels) -> Callable:
    """A closure iterating one epoch; with ``collect=True`` it returns what it saw.

    ``data`` is ``unigrad.data`` or ``torch.utils.data``.
    """
    loader = data.DataLoader(data.TensorDataset(features, labels), batch_size=LOADER_BATCH,
                             shuffle=True, num_workers=0)

    def run(collect: bool = False):
        if not collect:
            for _ in loader:
                pass
            return None
        batches = [(batch_features.numpy().copy(), batch_labels.numpy().copy())
                   for batch_features, batch_labels in loader]
        return batches

    return run


def dataloader_workload(ug, torch, np) -> dict[str, Callable]:
    """The ``unigrad`` and ``torch`` epochs over the same 10,000 rows."""
    generator = np.random.default_rng(4)
    features = generator.standard_normal((DATASET_ROWS, FEATURES)).astype(np.float32)
    labels = np.arange(DATASET_ROWS, dtype=np.int64)
    return {"unigrad": loader_epoch(ug.data, ug.from_numpy(features), ug.from_numpy(labels)),
            "torch": loader_epoch(torch.utils.data, torch.from_numpy(features),
                                  torch.from_numpy(labels))}


def check_epoch(np, features, labels, batches, reference_batches) -> None:
    """Every row exactly once, in the reference's batch sizes and dtypes."""
    sizes = [len(batch_labels) for _, batch_labels in batches]
    reference_sizes = [len(batch_labels) for _, batch_labels in reference_batches]
    assert sizes == reference_sizes, f"dataloader: batch sizes {sizes} != {reference_sizes}"
    for (got_features, got_labels), (want_features, want_labels) in zip(batches,
                                                                        reference_batches):
        assert got_features.dtype == want_features.dtype, "dataloader: feature dtype differs"
        assert got_labels.dtype == want_labels.dtype, "dataloader: label dtype differs"
    seen_labels = np.concatenate([batch_labels for _, batch_labels in batches])
    seen_features = np.concatenate([batch_features for batch_features, _ in batches])
    order = np.argsort(seen_labels)
    np.testing.assert_array_equal(seen_labels[order], labels,
                                  err_msg="dataloader: the epoch does not yield every row once")
    np.testing.assert_array_equal(seen_features[order], features,
                                  err_msg="dataloader: a row's features do not match its label")
    assert not np.array_equal(seen_labels, labels), "dataloader: shuffle=True did not shuffle"


# ---------------------------------------------------------------------------------------------
# lbfgs: 20 strong-Wolfe L-BFGS iterations on a small float64 MLP


def lbfgs_data(np):
    """Inputs, targets and the initial (weight, bias) pairs, float64."""
    generator = np.random.default_rng(5)
    inputs = np.linspace(-1.0, 1.0, LBFGS_POINTS).reshape(-1, 1)
    targets = np.sin(3.0 * inputs)
    sizes = (1, LBFGS_WIDTH, LBFGS_WIDTH, 1)
    parameters = {}
    for index, (fan_in, fan_out) in enumerate(zip(sizes[:-1], sizes[1:])):
        bound = 1.0 / np.sqrt(fan_in)
        parameters[f"{2 * index}.weight"] = generator.uniform(-bound, bound, (fan_out, fan_in))
        parameters[f"{2 * index}.bias"] = generator.uniform(-bound, bound, fan_out)
    return inputs, targets, parameters


def lbfgs_run(library, np, inputs, targets, parameters) -> Callable:
    """A closure restoring the start, then running one ``LBFGS.step`` (20 iterations).

    ``library`` is ``unigrad`` or ``torch``; with ``collect=True`` the closure
    returns the final parameters, the last loss and the number of closure calls.
    """
    nn = library.nn
    model = nn.Sequential(nn.Linear(1, LBFGS_WIDTH, dtype=library.float64), nn.Tanh(),
                          nn.Linear(LBFGS_WIDTH, LBFGS_WIDTH, dtype=library.float64), nn.Tanh(),
                          nn.Linear(LBFGS_WIDTH, 1, dtype=library.float64))
    start = {name: library.from_numpy(value) for name, value in parameters.items()}
    batch, labels = library.from_numpy(inputs), library.from_numpy(targets)
    loss_fn = nn.MSELoss()

    def run(collect: bool = False):
        with library.no_grad():
            for name, parameter in model.named_parameters():
                parameter.copy_(start[name])
        optimizer = library.optim.LBFGS(model.parameters(), lr=1, max_iter=20,
                                        line_search_fn="strong_wolfe")
        calls = []

        def closure():
            optimizer.zero_grad()
            loss = loss_fn(model(batch), labels)
            loss.backward()
            calls.append(loss.item())
            return loss

        optimizer.step(closure)
        if collect:
            values = {name: parameter.detach().numpy().copy()
                      for name, parameter in model.named_parameters()}
            values["last loss"] = np.asarray(calls[-1])
            values["closure calls"] = np.asarray(len(calls))
            return values

    return run


# ---------------------------------------------------------------------------------------------


def check_agreement(np, name: str, got: dict, want: dict, rtol: float, atol: float) -> None:
    """Raise AssertionError unless unigrad's values match PyTorch's, key by key.

    ``atol`` is relative to the array's largest magnitude (when above 1): float32
    sums of thousands of O(1) terms leave absolute errors of that order's 1e-6 in
    their small elements.
    """
    assert got.keys() == want.keys(), f"{name}: unigrad gave {sorted(got)}, torch {sorted(want)}"
    for key, expected in want.items():
        scale = max(1.0, float(np.abs(expected).max(initial=0.0)))
        np.testing.assert_allclose(got[key], expected, rtol=rtol, atol=atol * scale,
                                   err_msg=f"{name}: unigrad's {key} disagrees with torch's")


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the table; returns the exit status."""
    arguments = parse_arguments(argv)
    limit_threads(arguments.threads)

    import numpy as np
    import torch
    import torch.utils.data

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    import unigrad as ug
    import unigrad.data

    torch.set_num_threads(arguments.threads)
    repeats = arguments.repeats or (3 if arguments.quick else 10)
    warmup = 1 if arguments.quick else 2
    rows, notes = [], []

    for name in WORKLOADS:
        if arguments.only not in (None, name):
            continue
        missing = missing_names(ug, REQUIRES[name])
        if missing:
            notes.append(f"{name}: skipped, unigrad has no {', '.join(missing)} yet")
            continue
        if name in LAYER_WORKLOADS:
            functions = layer_workload(ug, torch, np, name)
            check_agreement(np, name, functions["unigrad"](collect=True),
                            functions["torch"](collect=True),
                            RELATIVE_TOLERANCE, ABSOLUTE_TOLERANCE)
        elif name == "dataloader":
            functions = dataloader_workload(ug, torch, np)
            reference = functions["torch"](collect=True)
            features = np.concatenate([batch for batch, _ in reference])
            labels = np.concatenate([batch for _, batch in reference])
            order = np.argsort(labels)
            check_epoch(np, features[order], labels[order], functions["unigrad"](collect=True),
                        reference)
        else:
            inputs, targets, parameters = lbfgs_data(np)
            functions = {"unigrad": lbfgs_run(ug, np, inputs, targets, parameters),
                         "torch": lbfgs_run(torch, np, inputs, targets, parameters)}
            check_agreement(np, name, functions["unigrad"](collect=True),
                            functions["torch"](collect=True), LBFGS_TOLERANCE, 1e-10)
        number = NUMBERS[name][1 if arguments.quick else 0]
        rows.append((name, best_times(functions, repeats, number, warmup,
                                      not arguments.with_gc)))

    print(f"unigrad {ug.__version__} | numpy {np.__version__} | torch {torch.__version__} | "
          f"python {platform.python_version()} | {os.cpu_count()} cores | "
          f"threads {arguments.threads} | repeats {repeats} (min reported)")
    print("outputs and gradients agree with torch (rtol 1e-3, atol 1e-5 x max; lbfgs: parameters, "
          "last loss and closure calls, rtol 1e-6); dataloader: every row once, same batches")
    header = f"{'workload':<13}{'unigrad ms':>12}{'torch ms':>11}  {'unigrad/torch':<22}"
    print(header)
    print("-" * len(header))
    for name, timings in rows:
        ratio = timings["unigrad"] / timings["torch"]
        print(f"{name:<13}{timings['unigrad'] * 1e3:>12.3f}{timings['torch'] * 1e3:>11.3f}  "
              f"{format_ratio(ratio, TARGETS[name]):<22}")
    for note in notes:
        print(note)
    return 0


if __name__ == "__main__":
    sys.exit(main())
