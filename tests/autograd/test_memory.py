"""Backward frees intermediates; create_graph training loops do not grow memory."""

from __future__ import annotations

import gc
import tracemalloc
import weakref

import numpy as np
import pytest

import unigrad as ug
from unigrad.autograd.node import Node


class Tracked(np.ndarray):
    """An ndarray subclass: ufunc results are Tracked too, and it supports weakrefs."""


def tracked(values) -> Tracked:
    return np.asarray(values, dtype=np.float64).view(Tracked)


def intermediates_of(loss, leaf) -> list:
    """Weak references to the arrays (other than the leaf's) held by the nodes behind ``loss``."""
    refs = []
    stack = [loss.grad_fn]
    seen = set()
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        for value in _held_arrays(node):
            if value is not leaf._data:
                refs.append(weakref.ref(value))
        stack.extend(edge for edge, _ in node.next_functions if isinstance(edge, Node))
    return refs


def _held_arrays(node):
    saved = node.saved if isinstance(node.saved, tuple) else ()
    for value in saved:
        data = getattr(value, "_data", None)
        if isinstance(data, Tracked):
            yield data
    if isinstance(node.out, Tracked):
        yield node.out


def test_backward_frees_saved_intermediates():
    x = ug.from_numpy(tracked([0.5, 1.0, 2.0])).requires_grad_()
    assert isinstance(x._data, Tracked)
    hidden = x.sin()
    activations = hidden.exp() * hidden
    loss = (activations * activations).sum()
    data_refs = [weakref.ref(t._data) for t in (hidden, activations)]
    refs = intermediates_of(loss, x)
    assert len(refs) >= 3
    del hidden, activations
    gc.collect()
    assert any(ref() is not None for ref in refs)
    loss.backward()
    gc.collect()
    assert [ref() is None for ref in refs + data_refs] == [True] * (len(refs) + len(data_refs))
    assert x.grad.shape == (3,)


def test_retain_graph_keeps_intermediates_until_graph_dies():
    x = ug.from_numpy(tracked([0.5, 1.0])).requires_grad_()
    loss = (x.sin().exp() * x).sum()
    refs = intermediates_of(loss, x)
    assert len(refs) >= 2
    loss.backward(retain_graph=True)
    gc.collect()
    assert all(ref() is not None for ref in refs)
    del loss
    gc.collect()
    assert all(ref() is None for ref in refs)


@pytest.mark.slow
def test_create_graph_training_loop_does_not_grow():
    rng = np.random.default_rng(0)
    w = ug.tensor(rng.standard_normal(32), dtype=ug.float64, requires_grad=True)
    x = ug.tensor(rng.standard_normal(32), dtype=ug.float64)

    def step():
        loss = ((w * x).tanh() ** 2).sum()
        with pytest.warns(UserWarning):
            loss.backward(create_graph=True)
        penalty = (w.grad * w.grad).sum()
        w.grad = None
        (g,) = ug.autograd.grad(penalty, w)
        with ug.no_grad():
            w.sub_(g * 1e-3)

    tracemalloc.start()
    try:
        for _ in range(200):
            step()
        gc.collect()
        baseline = tracemalloc.get_traced_memory()[0]
        for _ in range(800):
            step()
        gc.collect()
        growth = tracemalloc.get_traced_memory()[0] - baseline
    finally:
        tracemalloc.stop()
    assert growth < 64 * 1024, f"memory grew by {growth} bytes over 800 steps"
