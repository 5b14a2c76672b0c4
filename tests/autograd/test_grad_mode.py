"""Grad modes: context managers, decorators (with and without parentheses), threads."""

from __future__ import annotations

import threading

import pytest

import unigrad as ug


def leaf():
    return ug.tensor([1.0, 2.0], requires_grad=True)


def test_no_grad_context():
    x = leaf()
    with ug.no_grad():
        assert not ug.is_grad_enabled()
        y = x * 2
    assert not y.requires_grad and y.grad_fn is None
    assert ug.is_grad_enabled()


def test_enable_grad_inside_no_grad():
    x = leaf()
    with ug.no_grad():
        with ug.enable_grad():
            y = x * 2
        z = x * 2
    assert y.requires_grad and not z.requires_grad


def test_set_grad_enabled_context_and_plain_call():
    x = leaf()
    with ug.set_grad_enabled(False):
        assert not (x * 2).requires_grad
    assert ug.is_grad_enabled()
    ug.set_grad_enabled(False)
    try:
        assert not (x * 2).requires_grad
    finally:
        ug.set_grad_enabled(True)
    assert (x * 2).requires_grad


def test_set_grad_enabled_decorator():
    @ug.set_grad_enabled(False)
    def compute(t):
        return t * 2

    assert ug.is_grad_enabled()
    assert not compute(leaf()).requires_grad
    assert ug.is_grad_enabled()


@pytest.mark.parametrize("decorator", [ug.no_grad, ug.no_grad()], ids=["bare", "called"])
def test_no_grad_decorator_with_and_without_parentheses(decorator):
    @decorator
    def compute(t):
        """Doubles t."""
        return t * 2

    assert compute.__name__ == "compute" and compute.__doc__ == "Doubles t."
    assert not compute(leaf()).requires_grad
    assert ug.is_grad_enabled()


def test_enable_grad_bare_decorator():
    @ug.enable_grad
    def compute(t):
        return t * 2

    with ug.no_grad():
        assert compute(leaf()).requires_grad


def test_inference_mode_bare_and_called_decorator():
    @ug.inference_mode
    def bare(t):
        return t * 2

    @ug.inference_mode()
    def called(t):
        return t * 2

    assert bare(leaf()).is_inference() and called(leaf()).is_inference()


def test_decorator_on_generator_function():
    @ug.no_grad()
    def generate(t):
        for _ in range(2):
            yield t * 2, ug.is_grad_enabled()

    outputs = []
    for value, enabled in generate(leaf()):
        outputs.append((value.requires_grad, enabled, ug.is_grad_enabled()))
    assert outputs == [(False, False, True), (False, False, True)]


def test_inference_mode_tensors_cannot_be_saved_for_backward():
    with ug.inference_mode():
        inference = ug.tensor([1.0, 2.0]) * 1.0
    assert inference.is_inference()
    x = leaf()
    with pytest.raises(RuntimeError) as info:
        x * inference
    assert str(info.value).startswith(
        "Inference tensors cannot be saved for backward. Please do not use Tensors created in "
        "inference mode in computation tracked by autograd. To work around this, you can make a "
        "clone to get a normal tensor and use it in autograd, or use ")


def test_inplace_on_inference_tensor_outside_inference_mode():
    with ug.inference_mode():
        inference = ug.ones(2) * 1.0
        inference.add_(1.0)
    with pytest.raises(RuntimeError) as info:
        inference.add_(1.0)
    assert str(info.value) == (
        "Inplace update to inference tensor outside InferenceMode is not allowed.You can make a "
        "clone to get a normal tensor before doing inplace update.See "
        "https://github.com/pytorch/rfcs/pull/17 for more details.")


def test_inference_mode_false_records():
    x = leaf()
    with ug.inference_mode(False):
        assert (x * 2).requires_grad


def test_grad_mode_is_thread_local():
    inside = threading.Event()
    release = threading.Event()
    seen = {}

    def worker():
        with ug.no_grad():
            seen["worker"] = ug.is_grad_enabled()
            inside.set()
            release.wait(5)

    thread = threading.Thread(target=worker)
    thread.start()
    inside.wait(5)
    seen["main"] = ug.is_grad_enabled()
    seen["main_records"] = (leaf() * 2).requires_grad
    release.set()
    thread.join()
    assert seen == {"worker": False, "main": True, "main_records": True}


def test_new_thread_starts_with_grad_enabled():
    seen = []
    with ug.no_grad():
        thread = threading.Thread(target=lambda: seen.append(ug.is_grad_enabled()))
        thread.start()
        thread.join()
    assert seen == [True]


def test_no_grad_restores_mode_after_exception():
    with pytest.raises(ValueError):
        with ug.no_grad():
            raise ValueError("boom")
    assert ug.is_grad_enabled()
