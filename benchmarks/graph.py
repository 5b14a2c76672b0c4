"""Graph mode: ``ug.jit`` against PyTorch eager (CPU), a hand-written NumPy floor and ``jax.jit``.

The graph-mode counterpart of ``eager.py`` (whose workloads, data, NumPy floor,
PyTorch code and timing helpers it reuses). Each unigrad workload is one call
of a function compiled with ``ug.jit``:

* ``chain``: ``g = ug.jit(ug.grad(lambda x: chain(x).sum()))`` where ``chain``
  is ``x = tanh(x * 1.0001 + 0.0001)`` 500 times on a 16-element float32
  vector; timed ``g(x)``. Eager mode pays per-op dispatch and tape cost here;
  a compiled graph should not. Target: unigrad graph <= 0.1x PyTorch eager.
* ``mlp``: gradient of the mean softmax cross-entropy of a 784-512-512-10 ReLU
  MLP on a 256x784 float32 batch with respect to all weights and biases,
  ``ug.jit(ug.grad(loss, grad_position=(1, ..., 6)))`` with the batch and the
  parameters as arguments (nothing closed over but the labels, which become a
  constant: integer index tensors cannot be traced arguments yet). BLAS-bound,
  so this measures what the compiled graph adds on top of the eight GEMMs.
  Target: <= 1.05x the NumPy floor (the ratio to PyTorch eager is reported).
* ``step``: one training step of a small MLP (batch 64, 32-64-64-1, tanh, MSE,
  SGD lr 0.01) built with ``nn.Sequential(nn.Linear...)``, ``nn.MSELoss`` and
  ``optim.SGD``, MindSpore style: ``grad_fn = ug.value_and_grad(forward_fn,
  None, optimizer.parameters)`` and a ``ug.jit`` step that runs ``grad_fn``
  and ``optimizer(grads)``; the parameters are updated in place by the compiled
  step. Against ``eager.py``'s PyTorch eager step and hand-written NumPy step.
  Targets: unigrad graph <= 1.5x the NumPy step and <= 0.4x PyTorch eager.

JAX (when installed, on CPU, float32) runs the same three workloads under
``jax.jit``: the chain's gradient, the MLP's gradients, and the step written
functionally (``jax.value_and_grad`` and ``p - lr * g``); reported, no target.

``ug.jit`` compiles once per input signature, so every function is called
(compiled) before timing; the compile cost of each workload is printed
separately: the first call's wall time, and the trace / optimize / codegen
split of ``compile_report()`` (the first call also compiles the fused numba
kernels and runs once). Before any timing the results are checked against the
NumPy floor (``rtol=1e-3, atol=1e-5``); for ``step`` the parameters after the
first step and after each of several more steps.

``--first-call`` also times what a new process pays before its first result,
for ``chain`` and ``mlp``: a fresh Python process imports unigrad, builds the
workload and calls it once, twice over one new kernel cache directory
(``UNIGRAD_CACHE_DIR``): *cold* (empty, so numba compiles the fused kernels
and stores them) and *warm* (the second process loads them). ``--baseline
DIR`` runs the same first call with the unigrad of ``DIR``, a checkout of
commit ``a30918a`` (the last before fused kernels were cached on disk).
Printed: the first call's milliseconds (``import unigrad`` excluded), warm
over baseline and warm over cold, the seconds from each process's launch to
its first result (interpreter start, import, data, first call) and the warm
process's import. Target: warm first call <= 0.5x the baseline's.

Usage::

    python benchmarks/graph.py            # full run (about 25 seconds, half of it compiling)
    python benchmarks/graph.py --quick    # smoke run, fewer repeats
    python benchmarks/graph.py --threads 2 --only step --no-jax
    git worktree add /tmp/base a30918a    # the baseline of the first-call target, then:
    python benchmarks/graph.py --quick --first-call --baseline /tmp/base

BLAS, PyTorch and XLA are limited to ``--threads`` threads (default 1); the
thread environment variables are set before NumPy (or JAX) is imported.
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _load_eager():
    """``benchmarks/eager.py`` as the module ``eager`` (it imports nothing heavy at the top)."""
    if "eager" in sys.modules:
        return sys.modules["eager"]
    path = Path(__file__).resolve().parent / "eager.py"
    spec = importlib.util.spec_from_file_location("eager", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["eager"] = module
    spec.loader.exec_module(module)
    return module


eager = _load_eager()
CHAIN_LENGTH = eager.CHAIN_LENGTH
CHAIN_SIZE = eager.CHAIN_SIZE
STEP_LEARNING_RATE = eager.STEP_LEARNING_RATE
RELATIVE_TOLERANCE = eager.RELATIVE_TOLERANCE
ABSOLUTE_TOLERANCE = eager.ABSOLUTE_TOLERANCE

WORKLOADS = ("chain", "mlp", "step")
TARGETS = {
    "chain": {"torch": 0.1, "numpy": None},
    "mlp": {"torch": None, "numpy": 1.05},
    "step": {"torch": 0.4, "numpy": 1.5},
}
AGREEMENT_STEPS = 5  # steps after the first whose parameters are compared too
FIRST_CALL_WORKLOADS = ("chain", "mlp")
FIRST_CALL_TARGET = 0.5  # warm-cache first call over the baseline commit's first call
BASELINE_COMMIT = "a30918a"  # the last commit before fused kernels were cached on disk
REPOSITORY = Path(__file__).resolve().parent.parent


def parse_arguments(argv: list[str] | None = None) -> argparse.Namespace:
    """Read the command line (before NumPy is imported)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="few repeats: a smoke run")
    parser.add_argument("--threads", type=int, default=1,
                        help="BLAS / PyTorch / XLA intra-op threads (default 1)")
    parser.add_argument("--repeats", type=int, default=None,
                        help="timed repeats per measurement; the minimum is reported")
    parser.add_argument("--only", choices=WORKLOADS, default=None, help="run one workload only")
    parser.add_argument("--no-torch", action="store_true", help="skip PyTorch even if installed")
    parser.add_argument("--no-jax", action="store_true", help="skip JAX even if installed")
    parser.add_argument("--with-gc", action="store_true",
                        help="keep the garbage collector running while timing (by default it is "
                             "paused, as timeit and torch.utils.benchmark do)")
    parser.add_argument("--first-call", action="store_true",
                        help="also time the first call of chain and mlp in fresh processes, "
                             "with an empty and then a warm kernel cache")
    parser.add_argument("--baseline", type=Path, default=None,
                        help=f"with --first-call: a checkout of {BASELINE_COMMIT} (before the "
                             "kernel cache) whose first calls are the target's reference")
    # internal: one fresh process's first call (run by --first-call)
    parser.add_argument("--first-call-child", choices=FIRST_CALL_WORKLOADS,
                        help=argparse.SUPPRESS)
    parser.add_argument("--unigrad-path", type=Path, default=REPOSITORY, help=argparse.SUPPRESS)
    parser.add_argument("--launched", type=float, default=None, help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def limit_xla_threads(threads: int) -> None:
    """Run XLA's CPU client single-threaded for ``--threads 1``; must run before JAX is imported.

    XLA has no flag for N > 1 threads: with more than one thread it keeps its default pool.
    """
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    if threads == 1:
        flags = os.environ.get("XLA_FLAGS", "")
        extra = "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"
        os.environ["XLA_FLAGS"] = f"{flags} {extra}".strip()


# ---------------------------------------------------------------------------------------------
# unigrad graph mode


def chain_unigrad_graph(ug):
    """``ug.jit(ug.grad(lambda x: chain(x).sum()))``."""

    def chain(value):
        for _ in range(CHAIN_LENGTH):
            value = ug.tanh(value * 1.0001 + 0.0001)
        return value

    return ug.jit(ug.grad(lambda x: chain(x).sum()))


def mlp_unigrad_graph(ug, labels):
    """``ug.jit(ug.grad(loss, grad_position=(1, ..., 6)))`` of ``loss(batch, *parameters)``.

    The labels are made a Tensor inside the loss (a constant of the graph): integer
    index tensors cannot be traced arguments yet.
    """

    def loss(batch, *parameters):
        activation = batch
        for layer in range(len(parameters) // 2):
            activation = activation @ parameters[2 * layer] + parameters[2 * layer + 1]
            if 2 * layer + 2 < len(parameters):
                activation = ug.relu(activation)
        return ug.nn.functional.cross_entropy(activation, ug.from_numpy(labels))

    count = 2 * (len(eager.LAYER_SIZES) - 1)  # a weight and a bias per layer
    return ug.jit(ug.grad(loss, grad_position=tuple(range(1, count + 1))))


def step_unigrad_graph(ug, parameters):
    """A compiled training step over ``nn.Sequential`` and ``optim.SGD``, MindSpore style.

    Returns ``(step, model)``: ``step(x, y)`` is the ``ug.jit`` function (returns the loss).
    """
    model = eager.step_model(ug, parameters)
    optimizer = ug.optim.SGD(model.trainable_params(), lr=STEP_LEARNING_RATE)
    loss_fn = ug.nn.MSELoss()

    def forward_fn(x, y):
        return loss_fn(model(x), y)

    grad_fn = ug.value_and_grad(forward_fn, None, optimizer.parameters)

    @ug.jit
    def step(x, y):
        loss, grads = grad_fn(x, y)
        optimizer(grads)
        return loss

    return step, model


# ---------------------------------------------------------------------------------------------
# JAX (jax.jit, CPU, float32)


def chain_jax(jax):
    """``jax.jit(jax.grad(lambda x: chain(x).sum()))``."""
    jnp = jax.numpy

    def chain(value):
        for _ in range(CHAIN_LENGTH):
            value = jnp.tanh(value * 1.0001 + 0.0001)
        return value

    return jax.jit(jax.grad(lambda x: chain(x).sum()))


def mlp_jax(jax):
    """``jax.jit(jax.grad(loss))`` of ``loss(parameters, batch, labels)`` (labels are int32)."""
    jnp = jax.numpy

    def loss(parameters, batch, labels):
        activation = batch
        for layer in range(len(parameters) // 2):
            activation = activation @ parameters[2 * layer] + parameters[2 * layer + 1]
            if 2 * layer + 2 < len(parameters):
                activation = jax.nn.relu(activation)
        log_probabilities = jax.nn.log_softmax(activation, axis=1)
        picked = jnp.take_along_axis(log_probabilities, labels[:, None], axis=1)
        return -picked.mean()

    return jax.jit(jax.grad(loss))


def step_jax(jax):
    """The training step written functionally: returns ``(new_parameters, loss)``.

    Parameters are (weight, bias) pairs in ``nn.Linear``'s (out, in) layout.
    """

    def loss(parameters, x, y):
        activation = x
        for layer in range(len(parameters) // 2):
            activation = activation @ parameters[2 * layer].T + parameters[2 * layer + 1]
            if 2 * layer + 2 < len(parameters):
                activation = jax.numpy.tanh(activation)
        return ((activation - y) ** 2).mean()

    @jax.jit
    def step(parameters, x, y):
        value, gradients = jax.value_and_grad(loss)(parameters, x, y)
        return [parameter - STEP_LEARNING_RATE * gradient
                for parameter, gradient in zip(parameters, gradients)], value

    return step


# ---------------------------------------------------------------------------------------------


def first_call(function):
    """Seconds taken by the first (compiling) call of ``function``, and its result."""
    start = time.perf_counter()
    result = function()
    return time.perf_counter() - start, result


def describe_compile(name, first_seconds, reports, jax_seconds):
    """One line: the first call's wall time, its trace / optimize / codegen split, and JAX's."""
    traced = sum(report.trace_seconds for report in reports)
    optimized = sum(report.optimize_seconds for report in reports)
    generated = sum(report.codegen_seconds for report in reports)
    total = sum(report.total_seconds for report in reports)
    rest = first_seconds - total
    line = (f"{name:<6} unigrad first call {first_seconds * 1e3:9.1f} ms = trace "
            f"{traced * 1e3:.1f} + optimize {optimized * 1e3:.1f} + codegen "
            f"{generated * 1e3:.1f} ms (compile_report total {total * 1e3:.1f} ms) "
            f"+ {rest * 1e3:.1f} ms first run (incl. numba kernel compilation)")
    if len(reports) != 1:
        line += f"; {len(reports)} signatures compiled"
    if jax_seconds is not None:
        line += f" | jax first call {jax_seconds * 1e3:.1f} ms"
    return line


# ---------------------------------------------------------------------------------------------
# first call in a fresh process


def first_call_workload(ug, np, name):
    """``(compiled function, its arguments)`` of workload ``name``, as the timed rows build it."""
    if name == "chain":
        start = np.random.default_rng(1).standard_normal(CHAIN_SIZE).astype(np.float32)
        return chain_unigrad_graph(ug), [ug.from_numpy(start)]
    inputs, labels, parameters = eager.make_mlp_data(np)
    return (mlp_unigrad_graph(ug, labels),
            [ug.from_numpy(inputs)] + [ug.from_numpy(p) for p in parameters])


def run_first_call_child(arguments: argparse.Namespace) -> int:
    """In the fresh process: import unigrad, call the workload once, print the times as JSON."""
    import numpy as np

    sys.path.insert(0, str(arguments.unigrad_path))
    start = time.perf_counter()
    import unigrad as ug
    imported = time.perf_counter() - start
    graph, call_arguments = first_call_workload(ug, np, arguments.first_call_child)
    seconds, _ = first_call(lambda: graph(*call_arguments))
    print(json.dumps({"import": imported, "first_call": seconds,
                      "start_to_result": time.time() - arguments.launched,
                      "unigrad": str(Path(ug.__file__).resolve().parent.parent)}))
    return 0


def first_call_in_fresh_process(name: str, threads: int, cache: Path, unigrad_path: Path) -> dict:
    """Seconds of ``import unigrad``, of the first call, and from the process's launch to the
    first result, for workload ``name`` in a new Python process using kernel cache ``cache``."""
    launched = time.time()
    command = [sys.executable, str(Path(__file__).resolve()), "--first-call-child", name,
               "--threads", str(threads), "--unigrad-path", str(unigrad_path),
               "--launched", repr(launched)]
    completed = subprocess.run(command, env=dict(os.environ, UNIGRAD_CACHE_DIR=str(cache)),
                               capture_output=True, text=True, check=False)
    if completed.returncode != 0:
        raise RuntimeError(f"first call of {name} with unigrad from {unigrad_path} failed:\n"
                           f"{completed.stderr[-2000:]}")
    times = json.loads(completed.stdout.strip().splitlines()[-1])
    if Path(times["unigrad"]) != unigrad_path.resolve():
        raise RuntimeError(f"the first-call process imported unigrad from {times['unigrad']}, "
                           f"not {unigrad_path}")
    return times


def measure_first_calls(arguments: argparse.Namespace) -> list:
    """Per workload: ``(name, baseline times or None, cold times, warm times)``; cold and warm
    share one new kernel cache directory, the baseline runs with an empty one of its own."""
    rows = []
    for name in FIRST_CALL_WORKLOADS:
        if arguments.only not in (None, name):
            continue
        with tempfile.TemporaryDirectory() as cache:
            cold = first_call_in_fresh_process(name, arguments.threads, Path(cache), REPOSITORY)
            warm = first_call_in_fresh_process(name, arguments.threads, Path(cache), REPOSITORY)
        baseline = None
        if arguments.baseline is not None:
            with tempfile.TemporaryDirectory() as cache:
                baseline = first_call_in_fresh_process(name, arguments.threads, Path(cache),
                                                       arguments.baseline)
        rows.append((name, baseline, cold, warm))
    return rows


def print_first_calls(rows: list, baseline: Path | None) -> None:
    """The first-call table: milliseconds, warm over baseline (the target) and over cold."""
    print(f"first call in a fresh process (import excluded; cold: empty kernel cache, warm: "
          f"the cache the cold run filled; baseline: {baseline or '-'}):")
    header = (f"  {'workload':<9}{'baseline ms':>12}{'cold ms':>10}{'warm ms':>9}  "
              f"{'warm/baseline':<24}{'warm/cold':<11}start-up to result s "
              "(baseline / cold / warm; warm's import)")
    print(header)
    for name, base, cold, warm in rows:
        ratio = warm["first_call"] / base["first_call"] if base is not None else None
        startup = " / ".join("-" if times is None else f"{times['start_to_result']:.2f}"
                             for times in (base, cold, warm))
        print(f"  {name:<9}"
              f"{'-' if base is None else format(base['first_call'] * 1e3, '.1f'):>12}"
              f"{cold['first_call'] * 1e3:>10.1f}{warm['first_call'] * 1e3:>9.1f}  "
              f"{eager.format_ratio(ratio, FIRST_CALL_TARGET):<24}"
              f"{eager.format_ratio(warm['first_call'] / cold['first_call'], None):<11}"
              f"{startup} ({warm['import']:.2f})")
    if baseline is None:
        print(f"  (--baseline DIR, a checkout of {BASELINE_COMMIT}, gives the target's "
              f"reference: warm <= {FIRST_CALL_TARGET:g}x the baseline's first call)")


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the table; returns the exit status."""
    arguments = parse_arguments(argv)
    eager.limit_threads(arguments.threads)
    if arguments.first_call_child is not None:
        return run_first_call_child(arguments)
    # before this process loads anything: the fresh processes then share the machine with less
    first_call_rows = measure_first_calls(arguments) if arguments.first_call else []

    import numpy as np

    sys.path.insert(0, str(REPOSITORY))
    import unigrad as ug
    from unigrad.graph.fusion import numba_available

    torch = None
    notes = []
    if not arguments.no_torch:
        try:
            import torch
        except ImportError:
            notes.append("PyTorch is not installed: torch columns skipped "
                         "(pip install '.[bench]').")
        else:
            torch.set_num_threads(arguments.threads)
    else:
        notes.append("--no-torch: torch columns skipped.")

    jax = None
    if not arguments.no_jax:
        limit_xla_threads(arguments.threads)
        try:
            import jax
        except ImportError:
            notes.append("JAX is not installed: jax columns skipped (pip install jax).")
        else:
            jax.config.update("jax_enable_x64", False)
            jax.config.update("jax_platforms", "cpu")
    else:
        notes.append("--no-jax: jax columns skipped.")
    if not numba_available():
        notes.append("numba is not installed: no elementwise fusion (pip install '.[jit]').")

    repeats = arguments.repeats or (3 if arguments.quick else 30)
    warmup = 1 if arguments.quick else 3
    rows = []
    compile_lines = []

    def check(name, reference, candidates):
        eager.check_agreement(np, name, reference, candidates)

    def time_all(name, functions, number):
        # best_times collects garbage before every measurement: with PyTorch, JAX and numba
        # loaded a full collection takes ~0.1 s, so move what exists now out of its reach
        gc.collect()
        gc.freeze()
        rows.append((name, eager.best_times(functions, repeats, number, warmup,
                                            not arguments.with_gc)))

    if arguments.only in (None, "chain"):
        start = np.random.default_rng(1).standard_normal(CHAIN_SIZE).astype(np.float32)
        graph = chain_unigrad_graph(ug)
        x = ug.from_numpy(start)
        seconds, result = first_call(lambda: graph(x))
        candidates = {"unigrad graph": result.numpy()}
        functions = {"unigrad": lambda: graph(x),
                     "numpy": lambda: eager.chain_numpy(np, start)}
        if torch is not None:
            candidates["torch"] = eager.chain_torch(torch, start)
            functions["torch"] = lambda: eager.chain_torch(torch, start)
        jax_seconds = None
        if jax is not None:
            jax_graph, jax_x = chain_jax(jax), jax.device_put(start)
            jax_seconds, jax_result = first_call(
                lambda: jax_graph(jax_x).block_until_ready())
            candidates["jax"] = np.asarray(jax_result)
            functions["jax"] = lambda: jax_graph(jax_x).block_until_ready()
        check("chain", eager.chain_numpy(np, start), candidates)
        compile_lines.append(describe_compile("chain", seconds, graph.compile_report(),
                                              jax_seconds))
        time_all("chain", functions, 2 if arguments.quick else 10)

    if arguments.only in (None, "mlp"):
        inputs, labels, parameters = eager.make_mlp_data(np)
        graph = mlp_unigrad_graph(ug, labels)
        arguments_ug = [ug.from_numpy(inputs)] + [ug.from_numpy(p) for p in parameters]
        seconds, result = first_call(lambda: graph(*arguments_ug))
        candidates = {"unigrad graph": [gradient.numpy() for gradient in result]}
        functions = {"unigrad": lambda: graph(*arguments_ug),
                     "numpy": lambda: eager.mlp_numpy(np, inputs, labels, parameters)}
        if torch is not None:
            candidates["torch"] = eager.mlp_torch(torch, inputs, labels, parameters)
            functions["torch"] = lambda: eager.mlp_torch(torch, inputs, labels, parameters)
        jax_seconds = None
        if jax is not None:
            jax_graph = mlp_jax(jax)
            jax_arguments = ([jax.device_put(p) for p in parameters], jax.device_put(inputs),
                             jax.device_put(labels.astype(np.int32)))
            jax_seconds, jax_result = first_call(
                lambda: jax.block_until_ready(jax_graph(*jax_arguments)))
            candidates["jax"] = [np.asarray(gradient) for gradient in jax_result]
            functions["jax"] = lambda: jax.block_until_ready(jax_graph(*jax_arguments))
        check("mlp", eager.mlp_numpy(np, inputs, labels, parameters), candidates)
        compile_lines.append(describe_compile("mlp", seconds, graph.compile_report(),
                                              jax_seconds))
        time_all("mlp", functions, 1 if arguments.quick else 3)

    if arguments.only in (None, "step"):
        inputs, targets, parameters = eager.make_step_data(np)
        numpy_step = eager.step_numpy(np, inputs, targets, parameters)
        graph, model = step_unigrad_graph(ug, parameters)
        batch, labels = ug.from_numpy(inputs), ug.from_numpy(targets)

        def graph_parameters():
            return [parameter.detach().numpy().copy() for parameter in model.parameters()]

        jax_step = jax_state = None
        if jax is not None:
            jax_step = step_jax(jax)
            jax_state = {"parameters": [jax.device_put(p) for p in parameters],
                         "x": jax.device_put(inputs), "y": jax.device_put(targets)}

            def jax_call():
                jax_state["parameters"], loss = jax_step(
                    jax_state["parameters"], jax_state["x"], jax_state["y"])
                return jax.block_until_ready(loss)

        torch_step = (eager.step_torch(torch, inputs, targets, parameters)
                      if torch is not None else None)
        # the first step from the shared starting parameters, then several more, each compared
        seconds, _ = first_call(lambda: graph(batch, labels))
        jax_seconds = first_call(jax_call)[0] if jax is not None else None
        for index in range(1 + AGREEMENT_STEPS):
            if index:
                graph(batch, labels)
                if jax is not None:
                    jax_call()
            candidates = {"unigrad graph": graph_parameters()}
            if torch_step is not None:
                candidates["torch"] = torch_step(collect=True)
            if jax is not None:
                candidates["jax"] = [np.asarray(p) for p in jax_state["parameters"]]
            check(f"step {index + 1}", numpy_step(collect=True), candidates)
        functions = {"unigrad": lambda: graph(batch, labels), "numpy": numpy_step}
        if torch_step is not None:
            functions["torch"] = torch_step
        if jax is not None:
            functions["jax"] = jax_call
        compile_lines.append(describe_compile("step", seconds, graph.compile_report(),
                                              jax_seconds))
        if graph.trace_count != 1:
            notes.append(f"step: traced {graph.trace_count} times (expected once).")
        time_all("step", functions, 5 if arguments.quick else 50)

    numba_version = "-"
    if numba_available():
        import numba
        numba_version = numba.__version__

    print(f"unigrad {ug.__version__} | numpy {np.__version__} | numba {numba_version} | "
          f"torch {torch.__version__ if torch is not None else '-'} | "
          f"jax {jax.__version__ if jax is not None else '-'} | "
          f"python {platform.python_version()} | {os.cpu_count()} cores | "
          f"threads {arguments.threads} | repeats {repeats} (min reported)")
    print("gradients (step: parameters after each of the first "
          f"{1 + AGREEMENT_STEPS} steps) agree (rtol {RELATIVE_TOLERANCE:g}, "
          f"atol {ABSOLUTE_TOLERANCE:g}) between all implementations")
    header = (f"{'workload':<9}{'graph ms':>10}{'torch ms':>10}{'numpy ms':>10}{'jax ms':>9}  "
              f"{'graph/torch':<24}{'graph/numpy':<24}{'graph/jax':<10}")
    print(header)
    print("-" * len(header))

    def cell(timings, label):
        return f"{timings[label] * 1e3:.3f}" if label in timings else "-"

    def ratio(timings, label):
        return timings["unigrad"] / timings[label] if label in timings else None

    for name, timings in rows:
        print(f"{name:<9}{cell(timings, 'unigrad'):>10}{cell(timings, 'torch'):>10}"
              f"{cell(timings, 'numpy'):>10}{cell(timings, 'jax'):>9}  "
              f"{eager.format_ratio(ratio(timings, 'torch'), TARGETS[name]['torch']):<24}"
              f"{eager.format_ratio(ratio(timings, 'numpy'), TARGETS[name]['numpy']):<24}"
              f"{eager.format_ratio(ratio(timings, 'jax'), None):<10}")
    print("compile (first call of each signature; not in the timings above):")
    for line in compile_lines:
        print(f"  {line}")
    if first_call_rows:
        print_first_calls(first_call_rows, arguments.baseline)
    for note in notes:
        print(note)
    return 0


if __name__ == "__main__":
    sys.exit(main())
