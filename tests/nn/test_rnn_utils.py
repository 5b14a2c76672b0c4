"""``unigrad.nn.utils.rnn`` against ``torch.nn.utils.rnn``: values, lengths, indices and the
gradients that flow through packing and padding."""

from __future__ import annotations

import numpy as np
import pytest
import torch
import torch.nn.utils.rnn as torch_rnn

import unigrad as ug
import unigrad.compat.torch as compat_torch
from unigrad.nn.utils import rnn


def _leaf(array):
    return torch.tensor(array, requires_grad=True), ug.tensor(array, requires_grad=True)


def _same(actual, expected):
    np.testing.assert_allclose(actual.detach().numpy(), expected.detach().numpy(), rtol=1e-12)


def _same_packed(actual, expected):
    _same(actual.data, expected.data)
    assert actual.batch_sizes.tolist() == expected.batch_sizes.tolist()
    assert actual.batch_sizes.dtype == ug.int64
    for ours, theirs in ((actual.sorted_indices, expected.sorted_indices),
                         (actual.unsorted_indices, expected.unsorted_indices)):
        assert (ours is None) == (theirs is None)
        if ours is not None:
            assert ours.tolist() == theirs.tolist()


def _backward(ours, theirs, seed=0):
    weight = np.random.default_rng(seed).standard_normal(tuple(theirs.shape))
    (theirs * torch.tensor(weight)).sum().backward()
    (ours * ug.tensor(weight)).sum().backward()


@pytest.mark.parametrize("batch_first", [False, True])
@pytest.mark.parametrize("lengths,enforce_sorted", [([4, 3, 1], True), ([2, 4, 2], False),
                                                    ([1, 1, 1], True)])
def test_pack_padded_sequence_and_back(batch_first, lengths, enforce_sorted):
    shape = (3, 4, 2) if batch_first else (4, 3, 2)
    torch_x, ug_x = _leaf(np.random.default_rng(1).standard_normal(shape))
    expected = torch_rnn.pack_padded_sequence(torch_x, torch.tensor(lengths), batch_first,
                                              enforce_sorted)
    actual = rnn.pack_padded_sequence(ug_x, ug.tensor(lengths), batch_first, enforce_sorted)
    _same_packed(actual, expected)
    expected_padded, expected_lengths = torch_rnn.pad_packed_sequence(
        expected, batch_first=batch_first, padding_value=-2.0, total_length=5)
    padded, actual_lengths = rnn.pad_packed_sequence(actual, batch_first=batch_first,
                                                     padding_value=-2.0, total_length=5)
    _same(padded, expected_padded)
    assert actual_lengths.tolist() == expected_lengths.tolist()
    assert actual_lengths.dtype == ug.int64
    _backward(padded, expected_padded)
    _same(ug_x.grad, torch_x.grad)


@pytest.mark.parametrize("batch_first", [False, True])
@pytest.mark.parametrize("padding_side", ["right", "left"])
def test_pad_sequence(batch_first, padding_side):
    rng = np.random.default_rng(2)
    pairs = [_leaf(rng.standard_normal((n, 2))) for n in (2, 4, 1)]
    expected = torch_rnn.pad_sequence([p[0] for p in pairs], batch_first, 7.0, padding_side)
    actual = rnn.pad_sequence([p[1] for p in pairs], batch_first, 7.0, padding_side)
    _same(actual, expected)
    _backward(actual, expected)
    for theirs, ours in pairs:
        _same(ours.grad, theirs.grad)


@pytest.mark.parametrize("enforce_sorted", [True, False])
def test_pack_sequence_unpack_sequence_and_unpad_sequence(enforce_sorted):
    rng = np.random.default_rng(3)
    sizes = (4, 2, 1) if enforce_sorted else (2, 4, 1)
    pairs = [_leaf(rng.standard_normal((n, 3))) for n in sizes]
    expected = torch_rnn.pack_sequence([p[0] for p in pairs], enforce_sorted)
    actual = rnn.pack_sequence([p[1] for p in pairs], enforce_sorted)
    _same_packed(actual, expected)
    for ours, theirs in zip(rnn.unpack_sequence(actual), torch_rnn.unpack_sequence(expected)):
        _same(ours, theirs)
    padded = rnn.pad_sequence([p[1] for p in pairs])
    pieces = rnn.unpad_sequence(padded, [4, 2, 1] if enforce_sorted else [2, 4, 1])
    for piece, (_, source) in zip(pieces, pairs):
        _same(piece, source)
    _backward(actual.data, expected.data)
    for theirs, ours in pairs:
        _same(ours.grad, theirs.grad)


def test_packed_sequence_is_a_namedtuple_like_torch():
    packed = rnn.pack_sequence([ug.tensor([1.0, 2.0]), ug.tensor([3.0, 4.0, 5.0])],
                               enforce_sorted=False)
    data, batch_sizes, sorted_indices, unsorted_indices = packed
    assert packed._fields == ("data", "batch_sizes", "sorted_indices", "unsorted_indices")
    assert data.tolist() == [3.0, 1.0, 4.0, 2.0, 5.0]
    assert batch_sizes.tolist() == [2, 2, 1]
    assert sorted_indices.tolist() == [1, 0] and unsorted_indices.tolist() == [1, 0]
    converted = packed.to(ug.float64)
    assert converted.data.dtype == ug.float64 and converted.sorted_indices is not None
    assert packed.to(ug.float32) is packed
    assert rnn.invert_permutation(ug.tensor([2, 0, 1])).tolist() == [1, 2, 0]
    assert rnn.invert_permutation(None) is None


def test_compat_torch_exports_the_same_objects():
    assert compat_torch.nn.utils.rnn.PackedSequence is rnn.PackedSequence
    assert compat_torch.nn.utils.rnn.pack_padded_sequence is rnn.pack_padded_sequence
    assert sorted(rnn.__all__) == sorted(torch_rnn.__all__)


def test_errors_match_torch():
    x = ug.ones(3, 2)
    with pytest.raises(RuntimeError, match="must be sorted in decreasing order"):
        rnn.pack_padded_sequence(x, [1, 3])
    with pytest.raises(RuntimeError, match="Length of all samples has to be greater than 0"):
        rnn.pack_padded_sequence(x, [3, 0])
    with pytest.raises(RuntimeError, match="Expected `len\\(lengths\\)` to be equal to "
                                           "batch_size"):
        rnn.pack_padded_sequence(x, [3, 2, 1])
    with pytest.raises(ValueError, match="Expected total_length to be at least"):
        rnn.pad_packed_sequence(rnn.pack_padded_sequence(x, [3, 2]), total_length=2)
    with pytest.raises(ValueError, match="Expected padding_side to be one of left or right"):
        rnn.pad_sequence([x], padding_side="middle")
