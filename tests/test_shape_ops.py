"""Shape composites: PyTorch's error types and messages, and view/copy semantics."""

from __future__ import annotations

import pytest

import unigrad as ug


def matrix() -> ug.Tensor:
    return ug.zeros(3, 4)


@pytest.mark.parametrize("call, error, message", [
    (lambda x: ug.cat([]), ValueError, r"torch.cat\(\): expected a non-empty list of Tensors"),
    (lambda x: ug.cat([x, ug.zeros(3)]), RuntimeError,
     "Tensors must have same number of dimensions: got 2 and 1"),
    (lambda x: ug.cat([x, ug.zeros(2, 3)], 1), RuntimeError,
     "Sizes of tensors must match except in dimension 1. Expected size 3 but got size 2 for "
     "tensor number 1 in the list."),
    (lambda x: ug.cat([x], 2), IndexError, "Dimension out of range"),
    (lambda x: ug.stack([]), RuntimeError, "stack expects a non-empty TensorList"),
    (lambda x: ug.stack([x, ug.zeros(3)]), RuntimeError,
     r"stack expects each tensor to be equal size, but got \[3, 4\] at entry 0 and \[3\] at "
     r"entry 1"),
    (lambda x: ug.split(x, [1, 1]), RuntimeError,
     r"split_with_sizes expects split_sizes to sum exactly to 3 \(input tensor's size at "
     r"dimension 0\), but got split_sizes=\[1, 1\]"),
    (lambda x: ug.split(x, 0), RuntimeError, "split_size can only be 0 if dimension size is 0"),
    (lambda x: ug.chunk(x, 0), RuntimeError, "chunk expects `chunks` to be greater than 0"),
    (lambda x: x.repeat(2), RuntimeError,
     "Number of dimensions of repeat dims can not be smaller than number of dimensions"),
    (lambda x: x.flatten(1, 0), RuntimeError, "start_dim cannot come after end_dim"),
    (lambda x: x.unsqueeze(3), IndexError, r"expected to be in range of \[-3, 2\], but got 3"),
    (lambda x: ug.pad(x, (1,)), RuntimeError, "Padding length must be divisible by 2"),
    (lambda x: ug.pad(x, (1,) * 6), RuntimeError,
     "Padding length should be less than or equal to two times the input dimension"),
    (lambda x: ug.pad(x, (4, 4), mode="reflect"), RuntimeError,
     "Padding size should be less than the corresponding input dimension"),
    (lambda x: ug.pad(x, (1, 1), mode="foo"), NotImplementedError,
     "Unrecognised padding mode foo"),
    (lambda x: ug.tril(ug.zeros(3)), RuntimeError,
     "tril: input tensor must have at least 2 dimensions"),
    (lambda x: x.narrow(1, 3, 2), RuntimeError,
     r"start \(3\) \+ length \(2\) exceeds dimension size \(4\)."),
    (lambda x: x.narrow(1, 5, 0), IndexError, "start out of range"),
    (lambda x: x.select(0, 4), IndexError,
     r"select\(\): index 4 out of range for tensor of size \[3, 4\] at dimension 0"),
    (lambda x: x.movedim((0, 1), (1,)), RuntimeError,
     "movedim: Invalid source or destination dims"),
    (lambda x: x.movedim((0, 0), (1, 0)), RuntimeError, r"movedim: repeated dim in `source`"),
    (lambda x: ug.flip(x, (0, 0)), RuntimeError, "dim 0 appears multiple times"),
    (lambda x: x.repeat_interleave(-1), RuntimeError, "Repeats must be non-negative"),
    (lambda x: x.repeat_interleave(ug.tensor([1, 2]), dim=0), RuntimeError,
     r"repeats must have the same size as input along dim, but got repeats.size\(0\) = 2"),
])
def test_shape_errors(call, error, message):
    with pytest.raises(error, match=message):
        call(matrix())


def test_split_chunk_narrow_are_views_and_flip_cat_copy():
    x = ug.arange(6.0)
    first, second = x.split(3)
    assert first._vc is x._vc and x.narrow(0, 1, 2)._vc is x._vc
    second.fill_(0.0)
    assert x.tolist() == [0.0, 1.0, 2.0, 0.0, 0.0, 0.0]
    flipped = ug.flip(x, 0)
    catted = ug.cat([x])
    flipped.fill_(9.0)
    catted.fill_(9.0)
    assert x.tolist() == [0.0, 1.0, 2.0, 0.0, 0.0, 0.0]


def test_chunk_sizes_follow_pytorch():
    assert [c.shape[0] for c in ug.chunk(ug.zeros(5), 4)] == [2, 2, 1]
    assert [c.shape[0] for c in ug.chunk(ug.zeros(6), 4)] == [2, 2, 2]
    assert len(ug.chunk(ug.zeros(0), 3)) == 3


def test_cat_promotes_and_skips_legacy_empty_vectors():
    out = ug.cat([ug.zeros(2, 2), ug.ones(1, 2, dtype=ug.float64), ug.zeros(0)])
    assert out.shape == (3, 2) and out.dtype == ug.float64
    assert ug.cat([ug.tensor([1, 2]), ug.tensor([0.5])]).dtype == ug.float32


def test_concat_gradient_splits_cotangent():
    a = ug.ones(2, requires_grad=True)
    b = ug.ones(3, requires_grad=True)
    (ug.cat([a, b]) * ug.arange(5.0)).sum().backward()
    assert a.grad.tolist() == [0.0, 1.0] and b.grad.tolist() == [2.0, 3.0, 4.0]


def test_reflect_pad_gradient_accumulates_mirrored_entries():
    x = ug.tensor([[1.0, 2.0, 3.0]], requires_grad=True)
    out = ug.pad(x, (2, 1), mode="reflect")
    assert out.tolist() == [[3.0, 2.0, 1.0, 2.0, 3.0, 2.0]]
    out.sum().backward()
    assert x.grad.tolist() == [[1.0, 3.0, 2.0]]


def test_expand_to_an_incompatible_shape_raises_pytorchs_error():
    with pytest.raises(RuntimeError, match=r"The expanded size of the tensor \(3\) must match the "
                                           r"existing size \(2\) at non-singleton dimension 0\.  "
                                           r"Target sizes: \[3, 3\]\.  Tensor sizes: \[2, 3\]"):
        ug.ones(2, 3).expand(3, 3)


def test_repeated_dims_name_the_repeated_dim():
    with pytest.raises(RuntimeError, match="dim 0 appears multiple times in the list of dims"):
        ug.ones(2, 3).sum(dim=(0, 0))


def test_pad_is_in_nn_functional():
    padded = ug.nn.functional.pad(ug.ones(2, 2), (1, 2))
    assert padded.shape == (2, 5)
    assert padded.sum().item() == 4.0
