"""Concurrent backward passes on shared leaves lose no update; grad() calls share no state."""

from __future__ import annotations

import threading

import numpy as np

import unigrad as ug

THREADS = 8
ITERATIONS = 200


def run_in_threads(target, count=THREADS):
    barrier = threading.Barrier(count)
    errors = []

    def wrapped(index):
        try:
            barrier.wait()
            target(index)
        except BaseException as error:  # reported in the main thread
            errors.append(error)

    threads = [threading.Thread(target=wrapped, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []


def test_concurrent_backward_accumulates_exactly():
    w = ug.tensor(np.zeros(16), dtype=ug.float64, requires_grad=True)
    rows = [np.arange(16.0) + i for i in range(THREADS)]

    def work(index):
        x = ug.tensor(rows[index], dtype=ug.float64)
        for _ in range(ITERATIONS):
            (w * x).sum().backward()

    run_in_threads(work)
    expected = ITERATIONS * np.sum(rows, axis=0)
    assert np.array_equal(w.grad.numpy(), expected)


def test_concurrent_grad_calls_match_single_threaded_results():
    w = ug.tensor(np.linspace(-1.0, 1.0, 12), dtype=ug.float64, requires_grad=True)

    def gradient(index):
        x = ug.tensor(np.arange(12.0) * (index + 1), dtype=ug.float64)
        loss = ((w * x).sin() * w).sum()
        return ug.autograd.grad(loss, w)[0].numpy()

    expected = [gradient(i) for i in range(THREADS)]
    results = {}

    def work(index):
        for _ in range(50):
            value = gradient(index)
            if not np.array_equal(value, expected[index]):
                results[index] = value
                return
        results[index] = value

    run_in_threads(work)
    for index in range(THREADS):
        assert np.array_equal(results[index], expected[index])
    assert w.grad is None


def test_concurrent_backward_with_independent_graphs_and_hooks():
    shared = ug.tensor([1.0], dtype=ug.float64, requires_grad=True)
    counts = []
    lock = threading.Lock()

    def hook(grad):
        with lock:
            counts.append(1)

    shared.register_hook(hook)

    def work(index):
        for _ in range(50):
            (shared * float(index)).sum().backward()

    run_in_threads(work)
    assert len(counts) == THREADS * 50
    assert shared.grad.item() == 50 * sum(range(THREADS))
