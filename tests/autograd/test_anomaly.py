"""Anomaly detection: NaN in backward names the op and the user's source line."""

from __future__ import annotations

import math
import warnings

import pytest

import unigrad as ug
from unigrad import _state
from unigrad.autograd import anomaly


@pytest.fixture(autouse=True)
def restore_anomaly_mode():
    previous = (_state.global_state.anomaly_enabled, _state.global_state.anomaly_check_nan)
    yield
    _state.global_state.anomaly_enabled, _state.global_state.anomaly_check_nan = previous


def nan_producing_backward():
    x = ug.tensor([0.0, 4.0], requires_grad=True)
    y = ug.sqrt(x)  # the line anomaly mode must name
    (y * 0.0).sum().backward()


def test_nan_in_backward_raises_naming_op_and_source_line():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with ug.autograd.detect_anomaly():
            with pytest.raises(RuntimeError) as info:
                nan_producing_backward()
    message = str(info.value)
    assert message.splitlines()[0] == "Function 'SqrtBackward0' returned nan values in its 0th " \
                                      "output."
    assert "test_anomaly.py" in message
    assert "y = ug.sqrt(x)  # the line anomaly mode must name" in message
    texts = [str(w.message) for w in caught]
    assert any(text.startswith("Anomaly Detection has been enabled.") for text in texts)
    trace = [text for text in texts if text.startswith("Error detected in SqrtBackward0. "
                                                       "Traceback of forward call that caused "
                                                       "the error:")]
    assert len(trace) == 1
    assert "y = ug.sqrt(x)" in trace[0]
    assert "unigrad/ops" not in trace[0] and "unigrad/autograd" not in trace[0]


def test_without_anomaly_mode_nan_passes_silently():
    x = ug.tensor([0.0, 4.0], requires_grad=True)
    (ug.sqrt(x) * 0.0).sum().backward()
    assert x.grad.isnan().tolist() == [True, False]


def test_check_nan_false_only_records_traces():
    with pytest.warns(UserWarning):
        context = ug.autograd.detect_anomaly(check_nan=False)
    with context:
        x = ug.tensor([0.0], requires_grad=True)
        y = ug.sqrt(x)
        assert y.grad_fn.hooks.forward_trace is not None
        (y * 0.0).sum().backward()
    assert x.grad.isnan().tolist() == [True]


def test_inf_in_backward_passes_as_in_pytorch():
    """PyTorch's anomaly mode checks for NaN only: sqrt's infinite slope at 0 is a value."""
    x = ug.tensor([0.0, 4.0], requires_grad=True)
    with ug.autograd.set_detect_anomaly(True), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ug.sqrt(x).sum().backward()
    assert x.grad.tolist() == [math.inf, 0.25]


def test_context_manager_and_flags_restore():
    assert not ug.autograd.is_anomaly_enabled()
    with pytest.warns(UserWarning):
        with ug.autograd.detect_anomaly(check_nan=False):
            assert ug.autograd.is_anomaly_enabled()
            assert not ug.autograd.is_anomaly_check_nan_enabled()
    assert not ug.autograd.is_anomaly_enabled()
    assert ug.autograd.is_anomaly_check_nan_enabled()


def test_set_detect_anomaly_plain_call_and_decorator():
    ug.autograd.set_detect_anomaly(True)
    assert ug.autograd.is_anomaly_enabled()
    ug.autograd.set_detect_anomaly(False)
    assert not ug.autograd.is_anomaly_enabled()

    with pytest.warns(UserWarning):
        @ug.autograd.detect_anomaly()
        def inside():
            return ug.autograd.is_anomaly_enabled()
    assert inside() is True
    assert not ug.autograd.is_anomaly_enabled()


def test_user_frames_filters_unigrad_internals():
    ug.autograd.set_detect_anomaly(True)
    y = ug.tensor([1.0], requires_grad=True).exp()
    frames = anomaly.user_frames(y.grad_fn.hooks.forward_trace)
    assert frames and frames[-1].name == "test_user_frames_filters_unigrad_internals"
    assert all("/unigrad/" not in frame.filename for frame in frames)
    assert anomaly.forward_location(y.grad_fn).endswith(
        "y = ug.tensor([1.0], requires_grad=True).exp()")


def test_version_error_hint_changes_in_anomaly_mode():
    x = ug.tensor([1.0], requires_grad=True)
    out = x.exp()
    with ug.no_grad():
        out.add_(1.0)
    with pytest.raises(RuntimeError, match="Hint: enable anomaly detection"):
        out.sum().backward()
    with ug.autograd.set_detect_anomaly(True), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = x.exp()
        with ug.no_grad():
            out.add_(1.0)
        with pytest.raises(RuntimeError, match="Good luck!"):
            out.sum().backward()
