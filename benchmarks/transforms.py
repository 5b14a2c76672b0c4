"""Batched transforms: vmap-based Jacobians, Hessians and per-sample gradients vs torch.func.

Workloads (float64 Jacobians and Hessians, float32 per-sample gradients, CPU):

* ``jacrev``: ``jacrev(lambda x: tanh(W @ x))`` at 200 inputs -> 200 outputs, against
  ``torch.func.jacrev``. Target: unigrad <= 1.5x torch.func.
* ``hessian``: ``hessian(lambda x: sum(tanh(W @ x) ** 2))`` at 100 inputs, against
  ``torch.func.hessian``. Target: unigrad <= 1.5x torch.func.
* ``per-sample``: per-example gradients of the digits MLP (64-64-10, ReLU,
  cross-entropy) on a batch of 64 through
  ``vmap(grad(loss), in_axes=(None, 0, 0))`` with ``functional_call``, against the
  same torch.func code. Target: unigrad <= 1.5x torch.func.
* ``jacrev-scaling``: the cost of ``jacrev`` at 200 outputs over its cost at 50, batched
  and with ``vectorize=False`` (one vjp per row): a batched pass should grow far less
  than the 4x of the row loop (reported).

Usage::

    python benchmarks/transforms.py            # full run
    python benchmarks/transforms.py --quick    # a smoke run
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from eager import best_times, format_ratio, limit_threads  # noqa: E402

TARGETS = {"jacrev": 1.5, "hessian": 1.5, "per-sample": 1.5}


def jacobian_workload(ug, torch, np, size: int):
    rng = np.random.default_rng(0)
    weight = rng.standard_normal((size, size)) / np.sqrt(size)
    x = rng.standard_normal(size)
    ug_weight, ug_x = ug.tensor(weight), ug.tensor(x)
    ours = {"unigrad": lambda: ug.jacrev(lambda v: ug.tanh(ug_weight @ v))(ug_x),
            "unigrad-loop": lambda: ug.jacrev(lambda v: ug.tanh(ug_weight @ v),
                                              vectorize=False)(ug_x)}
    theirs = {}
    if torch is not None:
        torch_weight, torch_x = torch.tensor(weight), torch.tensor(x)
        theirs["torch"] = lambda: torch.func.jacrev(lambda v: torch.tanh(torch_weight @ v))(
            torch_x)
    return ours, theirs


def hessian_workload(ug, torch, np, size: int = 100):
    rng = np.random.default_rng(1)
    weight = rng.standard_normal((size, size)) / np.sqrt(size)
    x = rng.standard_normal(size)
    ug_weight, ug_x = ug.tensor(weight), ug.tensor(x)
    ours = {"unigrad": lambda: ug.hessian(lambda v: (ug.tanh(ug_weight @ v) ** 2).sum())(ug_x)}
    theirs = {}
    if torch is not None:
        torch_weight, torch_x = torch.tensor(weight), torch.tensor(x)
        theirs["torch"] = lambda: torch.func.hessian(
            lambda v: (torch.tanh(torch_weight @ v) ** 2).sum())(torch_x)
    return ours, theirs


def per_sample_workload(ug, torch, np, batch: int = 64):
    rng = np.random.default_rng(2)
    inputs = rng.standard_normal((batch, 64)).astype(np.float32)
    labels = rng.integers(0, 10, batch)
    model = ug.nn.Sequential(ug.nn.Linear(64, 64), ug.nn.ReLU(), ug.nn.Linear(64, 10))
    params = {k: v.detach() for k, v in model.named_parameters()}
    ug_inputs, ug_labels = ug.tensor(inputs), ug.tensor(labels)

    def loss(parameters, x, y):
        logits = ug.func.functional_call(model, parameters, (x[None],))
        return ug.nn.functional.cross_entropy(logits, y[None])

    per_sample = ug.vmap(ug.grad(loss), in_axes=(None, 0, 0))
    ours = {"unigrad": lambda: per_sample(params, ug_inputs, ug_labels)}
    theirs = {}
    if torch is not None:
        torch_model = torch.nn.Sequential(torch.nn.Linear(64, 64), torch.nn.ReLU(),
                                          torch.nn.Linear(64, 10))
        with torch.no_grad():
            for name, parameter in torch_model.named_parameters():
                parameter.copy_(torch.tensor(params[name].numpy()))
        torch_params = {k: v.detach() for k, v in torch_model.named_parameters()}
        torch_inputs, torch_labels = torch.tensor(inputs), torch.tensor(labels)

        def torch_loss(parameters, x, y):
            logits = torch.func.functional_call(torch_model, parameters, (x[None],))
            return torch.nn.functional.cross_entropy(logits, y[None])

        torch_per_sample = torch.func.vmap(torch.func.grad(torch_loss), in_dims=(None, 0, 0))
        theirs["torch"] = lambda: torch_per_sample(torch_params, torch_inputs, torch_labels)
        ours_result = ours["unigrad"]()
        theirs_result = theirs["torch"]()
        for name in params:
            np.testing.assert_allclose(ours_result[name].numpy(), theirs_result[name].numpy(),
                                       rtol=1e-4, atol=1e-6)
    return ours, theirs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="few repeats: a smoke run")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--no-torch", action="store_true")
    arguments = parser.parse_args(argv)
    limit_threads(arguments.threads)
    import numpy as np

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    import unigrad as ug
    torch = None
    if not arguments.no_torch:
        try:
            import torch
            torch.set_num_threads(arguments.threads)
        except ImportError:
            print("torch is not installed: its column is skipped")
    repeats, number = (3, 1) if arguments.quick else (15, 3)

    rows = []
    for name, build in (("jacrev", lambda: jacobian_workload(ug, torch, np, 200)),
                        ("hessian", lambda: hessian_workload(ug, torch, np)),
                        ("per-sample", lambda: per_sample_workload(ug, torch, np))):
        ours, theirs = build()
        ours.pop("unigrad-loop", None)
        if torch is not None and name != "per-sample":
            np.testing.assert_allclose(ours["unigrad"]().numpy(), theirs["torch"]().numpy(),
                                       rtol=1e-8, atol=1e-10)
        times = best_times({**ours, **theirs}, repeats, number, warmup=1)
        ratio = times["unigrad"] / times["torch"] if "torch" in times else None
        rows.append((name, times["unigrad"], times.get("torch"), ratio, TARGETS[name]))

    scaling = {}
    for size in (50, 200):
        ours, _ = jacobian_workload(ug, None, np, size)
        scaling[size] = best_times(ours, repeats, number, warmup=1)

    print(f"unigrad {ug.__version__} | numpy {np.__version__} | "
          f"torch {getattr(torch, '__version__', '-')} | threads {arguments.threads}")
    print(f"{'workload':<12}{'unigrad ms':>12}{'torch ms':>12}  unigrad/torch.func")
    print("-" * 60)
    for name, ours_time, torch_time, ratio, target in rows:
        torch_cell = f"{torch_time * 1e3:12.3f}" if torch_time is not None else f"{'-':>12}"
        print(f"{name:<12}{ours_time * 1e3:12.3f}{torch_cell}  {format_ratio(ratio, target)}")
    batched = scaling[200]["unigrad"] / scaling[50]["unigrad"]
    looped = scaling[200]["unigrad-loop"] / scaling[50]["unigrad-loop"]
    print(f"jacrev-scaling: 200 outputs / 50 outputs = {batched:.2f}x batched, "
          f"{looped:.2f}x with vectorize=False (one vjp per row); batched at 200 is "
          f"{scaling[200]['unigrad-loop'] / scaling[200]['unigrad']:.1f}x faster than the loop")
    return 0


if __name__ == "__main__":
    sys.exit(main())
