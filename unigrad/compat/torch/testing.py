"""``torch.testing.assert_close`` on unigrad tensors, with PyTorch's tolerances and messages.

Example:
    >>> import unigrad.compat.torch as torch
    >>> torch.testing.assert_close(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.0000001]))
    >>> torch.testing.assert_close(torch.tensor([1.0]), torch.tensor([1.5]))
    Traceback (most recent call last):
    ...
    AssertionError: Tensor-likes are not close!
    <BLANKLINE>
    Mismatched elements: 1 / 1 (100.0%)
    Greatest absolute difference: 0.5 at index (0,) (up to 1e-05 allowed)
    Greatest relative difference: 0.3333333432674408 at index (0,) (up to 1.3e-06 allowed)
"""

from __future__ import annotations

import collections.abc
import numbers
from typing import Any

import numpy as np

from unigrad.backend import to_numpy
from unigrad.tensor import Tensor

__all__ = ["assert_close"]

# (rtol, atol) by dtype, as PyTorch's defaults; integral and bool dtypes compare exactly
_TOLERANCES = {"float16": (1e-3, 1e-5), "float32": (1.3e-6, 1e-5), "float64": (1e-7, 1e-7),
               "complex64": (1.3e-6, 1e-5), "complex128": (1e-7, 1e-7)}


def _tolerances(dtype_name: str, rtol, atol) -> tuple[float, float]:
    if (rtol is None) != (atol is None):
        given = f"rtol={rtol}" if atol is None else f"atol={atol}"
        missing = "atol" if atol is None else "rtol"
        raise ValueError(f"Both 'rtol' and 'atol' must be either specified or omitted, but got "
                         f"no {missing} and {given}.")
    if rtol is not None:
        return float(rtol), float(atol)
    return _TOLERANCES.get(dtype_name, (0.0, 0.0))


def _where(path: tuple) -> str:
    return "".join(f"[{item!r}]" for item in path)


def _fail(message: str, path: tuple, msg) -> None:
    if path:
        message += f"\n\nThe failure occurred for item {_where(path)}"
    if callable(msg):
        message = msg(message)
    elif msg is not None:
        message = str(msg)
    raise AssertionError(message)


def _index(flat: int, shape: tuple) -> tuple:
    return tuple(int(i) for i in np.unravel_index(flat, shape)) if shape else ()


def _greatest(values: np.ndarray) -> int:
    """The flat index of the greatest value; a NaN counts as greatest (PyTorch's max)."""
    flat = values.ravel()
    nan = np.isnan(flat)
    return int(np.argmax(nan)) if nan.any() else int(np.argmax(flat))


def _torch_dtype(tensor: Tensor) -> str:
    return f"torch.{tensor.dtype.name}"


def _compare_tensors(actual: Tensor, expected: Tensor, rtol, atol, equal_nan, check_dtype,
                     check_device, path, msg) -> None:
    if tuple(actual.shape) != tuple(expected.shape):
        _fail(f"The values for attribute 'shape' do not match: "
              f"torch.Size({list(actual.shape)}) != torch.Size({list(expected.shape)}).",
              path, msg)
    if check_device and actual.device != expected.device:
        _fail(f"The values for attribute 'device' do not match: {actual.device} != "
              f"{expected.device}.", path, msg)
    if check_dtype and actual.dtype != expected.dtype:
        _fail(f"The values for attribute 'dtype' do not match: {_torch_dtype(actual)} != "
              f"{_torch_dtype(expected)}.", path, msg)
    got, want = np.asarray(to_numpy(actual._data)), np.asarray(to_numpy(expected._data))
    if got.dtype != want.dtype:
        common = np.promote_types(got.dtype, want.dtype)
        got, want = got.astype(common), want.astype(common)
    rtol, atol = _tolerances(want.dtype.name, rtol, atol)
    exact = want.dtype.kind in "biu"
    if exact:
        close = got == want
    else:
        with np.errstate(invalid="ignore", over="ignore"):
            close = np.abs(got - want) <= atol + rtol * np.abs(want)
        close |= got == want  # equal infinities
        if equal_nan:
            close |= np.isnan(got) & np.isnan(want)
    if bool(np.all(close)):
        return
    compute = np.float32 if want.dtype.kind in "biu" else want.dtype
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        difference = np.abs(got.astype(compute) - want.astype(compute))
        relative = difference / np.abs(want.astype(compute))
    difference = np.where(close, 0, difference)
    relative = np.where(close, 0, relative)
    mismatched = int(np.count_nonzero(~close))
    total = int(close.size)
    worst, worst_relative = _greatest(difference), _greatest(relative)
    shape = tuple(close.shape)
    absolute_value = difference.ravel()[worst].item()
    if exact:
        absolute_value = int(np.abs(got.astype(np.int64) - want.astype(np.int64)).ravel()[worst])
    lines = [f"Tensor-likes are not {'equal' if exact else 'close'}!", "",
             f"Mismatched elements: {mismatched} / {total} ({100.0 * mismatched / total:.1f}%)"]
    absolute = f"Greatest absolute difference: {absolute_value} at index {_index(worst, shape)}"
    relative_line = (f"Greatest relative difference: {relative.ravel()[worst_relative].item()} "
                     f"at index {_index(worst_relative, shape)}")
    if not exact:
        absolute += f" (up to {atol} allowed)"
        relative_line += f" (up to {rtol} allowed)"
    _fail("\n".join(lines + [absolute, relative_line]), path, msg)


def _compare_numbers(actual, expected, rtol, atol, equal_nan, path, msg) -> None:
    exact = isinstance(expected, (bool, int)) and isinstance(actual, (bool, int))
    rtol, atol = _tolerances("int64" if exact else "float64", rtol, atol)
    difference = abs(actual - expected)
    both_nan = equal_nan and actual != actual and expected != expected
    if both_nan or actual == expected or (not exact and difference <= atol + rtol * abs(expected)):
        return
    relative = difference / abs(expected) if expected else float("inf")
    lines = [f"Scalars are not {'equal' if exact else 'close'}!", "",
             f"Expected {expected} but got {actual}."]
    if exact:
        lines += [f"Absolute difference: {difference}", f"Relative difference: {relative}"]
    else:
        lines += [f"Absolute difference: {difference} (up to {atol} allowed)",
                  f"Relative difference: {relative} (up to {rtol} allowed)"]
    _fail("\n".join(lines), path, msg)


def _compare(actual, expected, rtol, atol, equal_nan, check_dtype, check_device, path,
             msg) -> None:
    if isinstance(actual, Tensor) and isinstance(expected, Tensor):
        _compare_tensors(actual, expected, rtol, atol, equal_nan, check_dtype, check_device,
                         path, msg)
    elif isinstance(actual, numbers.Number) and isinstance(expected, numbers.Number) and \
            not isinstance(actual, Tensor) and not isinstance(expected, Tensor):
        _compare_numbers(actual, expected, rtol, atol, equal_nan, path, msg)
    elif isinstance(actual, collections.abc.Mapping) and \
            isinstance(expected, collections.abc.Mapping):
        if set(actual) != set(expected):
            _fail(f"The keys of the mappings do not match:\n\nMissing keys: "
                  f"{sorted(map(repr, set(expected) - set(actual)))}\nExtra keys: "
                  f"{sorted(map(repr, set(actual) - set(expected)))}", path, msg)
        for key in expected:
            _compare(actual[key], expected[key], rtol, atol, equal_nan, check_dtype,
                     check_device, path + (key,), msg)
    elif isinstance(actual, collections.abc.Sequence) and \
            isinstance(expected, collections.abc.Sequence) and \
            not isinstance(actual, str) and not isinstance(expected, str):
        if len(actual) != len(expected):
            _fail(f"The length of the sequences mismatch: {len(actual)} != {len(expected)}",
                  path, msg)
        for index, (left, right) in enumerate(zip(actual, expected)):
            _compare(left, right, rtol, atol, equal_nan, check_dtype, check_device,
                     path + (index,), msg)
    else:
        raise TypeError(f"No comparison pair was able to handle inputs of type "
                        f"{type(actual)} and {type(expected)}.")


def assert_close(actual: Any, expected: Any, *, allow_subclasses: bool = True, rtol=None,
                 atol=None, equal_nan: bool = False, check_device: bool = True,
                 check_dtype: bool = True, check_layout: bool = True, check_stride: bool = False,
                 msg=None) -> None:
    """Assert that ``actual`` and ``expected`` are close: tensors elementwise within
    ``atol + rtol * |expected|`` (PyTorch's defaults per dtype; integral dtypes exactly),
    with equal shapes, dtypes and devices; numbers likewise; sequences and mappings
    item by item. Raises ``AssertionError`` with PyTorch's message (``msg``, a string or
    a function of the message, replaces it)."""
    _compare(actual, expected, rtol, atol, equal_nan, check_dtype, check_device, (), msg)
