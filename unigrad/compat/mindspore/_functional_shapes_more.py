"""More ``mindspore.ops`` functions for shapes, views, copies, queries and creation,
spelled from one table over the core's ops (the rows and the factory work as in
:mod:`._functional_more`): ``chunk``, ``split``, ``narrow``, ``gather``, ``moveaxis``,
``expand``, ``repeat_elements``, ``shape``, ``is_floating_point``, ``eye``, ``range``, the
windows (``hann_window``, ``kaiser_window``...)
Imported into :mod:`unigrad.compat.mindspore.ops`.

Example:
    >>> import unigrad.compat.mindspore as ms
    >>> from unigrad.compat.mindspore import ops
    >>> x = ms.Tensor([[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]])
    >>> [tuple(part.shape) for part in ops.chunk(x, 2, 1)]
    [(2, 2), (2, 1)]
    >>> ops.shape(x), ops.is_floating_point(x)
    ((2, 3), True)
    >>> print(ops.range(0, 7, 2), ops.eye(2).dtype)
    [0 2 4 6] Float32
"""

from __future__ import annotations

import builtins
import math

from ... import ops as _ug
from ...dtype_info import finfo as _finfo
from ...tensor import Tensor as _UgTensor
from ._functional_more import _INT64, _as_tuple, _publish
from ._primitive_classes import _bias_add, _gather, _gather_nd, _one_hot, _slice
from .dtype import to_ms_dtype
from .ops import _dtype_or_default, _int, _tensor, _tensors


def _reverse_sequence(x, seq_lengths, seq_dim: int, batch_dim: int):
    """x with the first seq_lengths[b] elements along seq_dim of each batch b reversed."""
    size = x.shape[_int(seq_dim, "reverse_sequence", "seq_dim")]
    positions = _ug.unsqueeze(_ug.arange(size), 0)
    lengths = _ug.unsqueeze(_ug.cast(seq_lengths, _INT64), 1)
    order = _ug.where(_ug.lt(positions, lengths), _ug.sub(_ug.sub(lengths, 1), positions),
                      positions)
    moved = _ug.movedim(x, (batch_dim, seq_dim), (0, 1))
    index = _ug.reshape(order, tuple(order.shape) + (1,) * (moved.ndim - 2))
    gathered = _ug.gather(moved, 1, _ug.expand(index, *moved.shape))
    return _ug.movedim(gathered, (0, 1), (batch_dim, seq_dim))


def _mirror_pad(input_x, paddings, mode: str):
    """input_x padded with its mirror image: 'REFLECT' leaves out the edge, 'SYMMETRIC'
    repeats it."""
    if mode not in ("REFLECT", "SYMMETRIC"):
        raise ValueError(f"For 'MirrorPad', the 'mode' must be 'REFLECT' or 'SYMMETRIC', but "
                         f"got {mode!r}")
    skip = 1 if mode == "REFLECT" else 0
    pairs = paddings.tolist() if isinstance(paddings, _UgTensor) else list(paddings)
    for axis, (before, after) in enumerate(pairs):
        size = input_x.shape[axis]
        pieces = [_ug.flip(_ug.narrow(input_x, axis, skip, before), (axis,)), input_x,
                  _ug.flip(_ug.narrow(input_x, axis, size - skip - after, after), (axis,))]
        input_x = _ug.cat(pieces, axis)
    return input_x


# the module's own ``range`` and ``slice`` are MindSpore's (published below): the helpers
# use the builtins by their full names
def _blocks(block, spatial: int, owner: str) -> list:
    sizes = [block] * spatial if isinstance(block, int) else list(block)
    if len(sizes) != spatial or any(_int(size, owner, "block_size") < 1 for size in sizes):
        raise ValueError(f"For '{owner}', the block sizes must be {spatial} positive ints, but "
                         f"got {block}")
    return sizes


def _space_to_batch(input_x, block_size, paddings):
    """(N, C, *spatial) padded, cut into blocks, each block offset a new batch slice
    (offset-major): (N * prod(block), C, *spatial / block)."""
    spatial = len(paddings)
    sizes = _blocks(block_size, spatial, "SpaceToBatchND")
    x = _ug.pad(input_x, [amount for pair in reversed(list(paddings)) for amount in pair])
    lead = tuple(x.shape[:x.ndim - spatial])
    split = [extent for size, length in zip(sizes, x.shape[len(lead):])
             for extent in (length // size, size)]
    x = _ug.reshape(x, lead + tuple(split))
    offsets = [len(lead) + 2 * i + 1 for i in builtins.range(spatial)]
    x = _ug.permute(x, offsets + [axis for axis in builtins.range(x.ndim) if axis not in offsets])
    return _ug.reshape(x, (-1,) + tuple(x.shape[spatial + 1:]))


def _batch_to_space(input_x, block_shape, crops):
    """The inverse of space_to_batch_nd: batch slices put back as block offsets, then the
    (start, end) crops cut off each spatial axis."""
    spatial = len(crops)
    sizes = _blocks(block_shape, spatial, "BatchToSpaceND")
    rest = tuple(input_x.shape[1:])
    x = _ug.reshape(input_x, tuple(sizes) + (-1,) + rest)
    lead = x.ndim - 2 * spatial
    order = list(builtins.range(spatial, lead + spatial))
    for i in builtins.range(spatial):
        order += [lead + spatial + i, i]
    x = _ug.permute(x, order)
    x = _ug.reshape(x, tuple(x.shape[:lead]) + tuple(
        length * size for length, size in zip(rest[-spatial:], sizes)))
    for axis, (start, end) in zip(builtins.range(lead, x.ndim), crops):
        x = _ug.narrow(x, axis, start, x.shape[axis] - start - end)
    return x


def _window_length(window_length, owner: str, as_tensor: bool) -> int:
    """The window length, an int (a 0-D integer Tensor for bartlett/blackman)."""
    if as_tensor:
        if not isinstance(window_length, _UgTensor):
            raise TypeError(f"For Primitive[{owner}], the type of input argument[window_length] "
                            f"must be Tensor but got {type(window_length).__name__}")
        window_length = window_length.item()
    if isinstance(window_length, bool) or not isinstance(window_length, int) \
            or window_length < 0:
        raise TypeError(f"For '{owner}', 'window_length' must be a non-negative integer, but "
                        f"got {window_length!r}")
    return window_length


def _cosine_window(coefficients: tuple, owner: str, default: str, as_tensor: bool = False):
    """A window sum_k c_k cos(2 pi k n / N) (N = length when periodic, else length - 1)."""
    def window(window_length, periodic: bool, dtype):
        length = _window_length(window_length, owner, as_tensor)
        if length <= 1:
            return _ug.ones(length, dtype=_dtype_or_default(dtype or default))
        angle = _ug.mul(_ug.arange(length, dtype=to_ms_dtype("float64")),
                        2 * math.pi / (length if periodic else length - 1))
        total = _ug.zeros(length, dtype=to_ms_dtype("float64"))
        for order, coefficient in enumerate(coefficients):
            total = _ug.add(total, _ug.mul(_ug.cos(_ug.mul(angle, order)), coefficient))
        return _ug.cast(total, _dtype_or_default(dtype or default))
    return window


def _kaiser_window(window_length, periodic: bool, beta: float, dtype):
    """I0(beta sqrt(1 - (2 n / N - 1) ** 2)) / I0(beta), N as for the cosine windows."""
    length = _window_length(window_length, "kaiser_window", False)
    if length <= 1:
        return _ug.ones(length, dtype=_dtype_or_default(dtype or "float64"))
    span = length if periodic else length - 1
    ratio = _ug.sub(_ug.mul(_ug.arange(length, dtype=to_ms_dtype("float64")), 2.0 / span), 1.0)
    argument = _ug.mul(_ug.sqrt(_ug.clamp(_ug.sub(1.0, _ug.square(ratio)), min=0.0)), beta)
    window = _ug.div(_ug.i0(argument), _ug.i0(_ug.tensor(float(beta),
                                                          dtype=to_ms_dtype("float64"))))
    return _ug.cast(window, _dtype_or_default(dtype or "float64"))


def _bartlett_window(window_length, periodic: bool, dtype):
    """1 - |2 n / N - 1|, N as for the cosine windows."""
    length = _window_length(window_length, "BartlettWindow", True)
    if length <= 1:
        return _ug.ones(length, dtype=_dtype_or_default(dtype))
    span = length if periodic else length - 1
    ratio = _ug.sub(_ug.mul(_ug.arange(length, dtype=to_ms_dtype("float64")), 2.0 / span), 1.0)
    return _ug.cast(_ug.sub(1.0, _ug.abs(ratio)), _dtype_or_default(dtype))


_HANN = _cosine_window((0.5, -0.5), "hann_window", "float64")
_BLACKMAN = _cosine_window((0.42, -0.5, 0.08), "BlackmanWindow", "float32", as_tensor=True)


def _chunk(input, chunks: int, axis: int) -> tuple:
    if _int(chunks, "chunk", "chunks") <= 0:
        raise ValueError(f"For ops.chunk parameter 'chunks' must be greater than 0, but got "
                         f"{chunks}")
    return tuple(_ug.chunk(input, chunks, axis))


def _narrow(input, axis: int, start: int, length: int):
    size = input.shape[_int(axis, "narrow", "axis")]
    if not 0 <= _int(start, "narrow", "start") <= size:
        raise ValueError(f"For 'narrow', the 'start' must be in range of [0, {size}], but got "
                         f"{start}")
    if not 0 <= _int(length, "narrow", "length") <= size - start:
        raise ValueError(f"For 'narrow', the 'length' must be in range of [0, {size - start}], "
                         f"but got {length}")
    return _ug.narrow(input, axis, start, length)


def _checked_bias_add(input_x, bias):
    if input_x.ndim < 2 or bias.ndim != 1 or bias.shape[0] != input_x.shape[1]:
        raise ValueError(f"For 'BiasAdd', bias[0] shape should be equal to input_x[1] shape, "
                         f"but got bias shape: {list(bias.shape)}, input_shape: "
                         f"{list(input_x.shape)}")
    return _bias_add(input_x, bias, "NCHW")


def _expand(input_x, size):
    shape = size.tolist() if isinstance(size, _UgTensor) else list(size)
    return _ug.expand(input_x, *shape)


def _repeat_elements(x, rep: int, axis: int):
    return _ug.repeat_interleave(x, _int(rep, "repeat_elements", "rep"),
                                 dim=_int(axis, "repeat_elements", "axis"))


def _adjoint(x):
    return _ug.conj(_ug.transpose(x, -2, -1))


def _range(start, end, step, maxlen: int):
    numbers = (start, end, step)
    integral = all(isinstance(number, int) and not isinstance(number, bool) for number in numbers)
    return _ug.arange(start, end, step, dtype=to_ms_dtype("int64" if integral else "float32"))


def _sequence_mask(lengths, maxlen):
    size = int(lengths.max().item()) if maxlen is None else _int(maxlen, "sequence_mask", "maxlen")
    return _ug.lt(_ug.arange(size), _ug.unsqueeze(lengths, -1))


def _full_like(input, fill_value, dtype):
    return _ug.full_like(input, fill_value, dtype=None if dtype is None else to_ms_dtype(dtype))


def _eye(n: int, m, dtype):
    rows = _int(n, "eye", "n")
    return _ug.eye(rows, rows if m is None else _int(m, "eye", "m"),
                   dtype=_dtype_or_default(dtype))


def _linspace(start, end, steps: int):
    return _ug.linspace(float(start), float(end), _int(steps, "linspace", "steps"),
                        dtype=_dtype_or_default(None))


def _is_nonzero(input) -> bool:
    if input.numel() != 1:
        raise ValueError(f"For is_nonzero, the numel of input must be 1, but got "
                         f"{input.numel()}.")
    return bool(input.item() != 0)


def _band_part(x, lower: int, upper: int):
    if _int(lower, "matrix_band_part", "lower") >= 0:
        x = _ug.triu(x, -lower)
    if _int(upper, "matrix_band_part", "upper") >= 0:
        x = _ug.tril(x, upper)
    return x


def _to_array(input_x):
    numbers = list(input_x)
    integral = all(isinstance(number, int) for number in numbers)
    return _ug.tensor(numbers, dtype=to_ms_dtype("int32" if integral else "float32"))


_ROWS = (
    # shapes, views and copies
    ("chunk", lambda input, chunks, axis=0: _chunk(input, chunks, axis),
     "a tuple of at most chunks pieces along axis"),
    ("split", lambda tensor, split_size_or_sections, axis=0:
        _as_tuple(_ug.split(_tensor(tensor, "split", "tensor"), split_size_or_sections, axis)),
     "a tuple of pieces of the given size(s) along axis"),
    ("unbind", lambda input, dim=0: _as_tuple(_ug.unbind(input, dim)),
     "the tuple of slices along dim"),
    ("unstack", lambda input_x, axis=0: _as_tuple(_ug.unbind(input_x, axis)),
     "the tuple of slices along axis"),
    ("narrow", lambda input, axis, start, length: _narrow(input, axis, start, length),
     "length elements from start along axis"),
    ("index_select", lambda input, axis, index: _ug.index_select(input, axis, index),
     "the slices of input at index along axis"),
    ("take", lambda input, index: _ug.take(input, index),
     "the elements of the flattened input at index"),
    ("gather", lambda input_params, input_indices, axis, batch_dims=0:
        _gather(input_params, input_indices, axis, batch_dims),
     "the slices of input_params at input_indices along axis"),
    ("gather_d", lambda x, dim, index: _ug.gather(x, dim, index),
     "the values of x at index along dim"),
    ("gather_elements", lambda input, dim, index: _ug.gather(input, dim, index),
     "the values of input at index along dim"),
    ("gather_nd", lambda input_x, indices: _gather_nd(input_x, indices),
     "the elements or slices of input_x at each index tuple"),
    ("slice", lambda input_x, begin, size: _slice(input_x, begin, size),
     "the block of size (-1: to the end) starting at begin"),
    ("masked_fill", lambda input_x, mask, value: _ug.masked_fill(input_x, mask, value),
     "input_x with value where mask is true"),
    ("one_hot", lambda indices, depth, on_value=1, off_value=0, axis=-1:
        _one_hot(indices, depth, on_value, off_value, axis),
     "on_value at each index, off_value elsewhere"),
    ("bias_add", lambda input_x, bias: _checked_bias_add(input_x, bias),
     "input_x + bias along the channel axis (1)"),
    ("moveaxis", lambda x, source, destination: _ug.movedim(x, source, destination),
     "x with the axes source moved to destination"),
    ("movedim", lambda x, source, destination: _ug.movedim(x, source, destination),
     "x with the axes source moved to destination"),
    ("swapaxes", lambda input, axis0, axis1: _ug.transpose(input, axis0, axis1),
     "input with two axes swapped"),
    ("swapdims", lambda input, dim0, dim1: _ug.transpose(input, dim0, dim1),
     "input with two dimensions swapped"),
    ("t", lambda input: _ug.t(input), "a 2-D input transposed (1-D unchanged)"),
    ("adjoint", lambda x: _adjoint(x), "the conjugate transpose of the last two axes"),
    ("ravel", lambda input: _ug.ravel(input), "input flattened to 1-D"),
    ("flip", lambda input, dims: _ug.flip(input, dims), "input reversed along dims"),
    ("reverse", lambda x, axis: _ug.flip(x, tuple(axis)), "x reversed along axis"),
    ("expand", lambda input_x, size: _expand(input_x, size),
     "input_x broadcast to size (-1 keeps an axis)"),
    ("expand_as", lambda input, other: _ug.expand_as(input, other),
     "input broadcast to other's shape"),
    ("view_as", lambda input, other: _ug.reshape(input, other.shape),
     "input reshaped to other's shape"),
    ("reverse_sequence", lambda x, seq_lengths, seq_dim, batch_dim=0:
        _reverse_sequence(x, seq_lengths, seq_dim, batch_dim),
     "x with the first seq_lengths[b] elements along seq_dim of each batch reversed"),
    ("mirror_pad", lambda input_x, paddings, mode: _mirror_pad(input_x, paddings, mode),
     "input_x padded with its mirror image ('REFLECT' or 'SYMMETRIC')"),
    ("space_to_batch_nd", lambda input_x, block_size, paddings:
        _space_to_batch(input_x, block_size, paddings),
     "the spatial axes cut into blocks that become batch slices"),
    ("batch_to_space_nd", lambda input_x, block_shape, crops:
        _batch_to_space(input_x, block_shape, crops),
     "batch slices put back as spatial blocks, then cropped"),
    ("repeat_interleave", lambda input, repeats, axis=None:
        _ug.repeat_interleave(input, repeats, dim=axis),
     "each element repeated (flattened when axis is None)"),
    ("repeat_elements", lambda x, rep, axis=0: _repeat_elements(x, rep, axis),
     "each slice along axis repeated rep times"),
    ("tril", lambda input, diagonal=0: _ug.tril(input, diagonal),
     "input with the elements above the diagonal-th diagonal zeroed"),
    ("triu", lambda input, diagonal=0: _ug.triu(input, diagonal),
     "input with the elements below the diagonal-th diagonal zeroed"),
    ("row_stack", lambda tensors: _ug.vstack(_tensors(tensors, "row_stack", "tensors")),
     "the tensors stacked row-wise"),
    ("matrix_band_part", lambda x, lower, upper: _band_part(x, lower, upper),
     "x with the elements outside the band of lower / upper diagonals zeroed (-1: all)"),
    ("padding", lambda x, pad_dim_size=8: _ug.pad(x, [0, pad_dim_size - 1]),
     "x's last axis (of size 1) padded with zeros to pad_dim_size"),
    ("deepcopy", lambda input_x: _ug.clone(input_x), "a copy of input_x"),
    ("shape", lambda input_x: tuple(input_x.shape), "input_x's shape, a tuple of ints"),
    ("size", lambda input_x: int(input_x.numel()), "the number of elements, an int"),
    ("numel", lambda input: int(input.numel()), "the number of elements, an int"),
    ("rank", lambda input_x: input_x.ndim, "the number of dimensions, an int"),
    ("dyn_shape", lambda input_x: _ug.tensor(list(input_x.shape), dtype=_INT64),
     "input_x's shape as an Int64 tensor"),
    ("eps", lambda x: _ug.full_like(x, _finfo(x.dtype).eps),
     "the machine epsilon of x's dtype, in x's shape"),
    ("is_tensor", lambda obj: isinstance(obj, _UgTensor), "whether obj is a Tensor"),
    ("is_floating_point", lambda input: input.dtype.is_floating_point,
     "whether input's dtype is a floating-point one"),
    ("is_complex", lambda input: input.dtype.is_complex, "whether input's dtype is complex"),
    ("is_nonzero", lambda input: _is_nonzero(input),
     "whether the single element of input is not zero"),
    # creation
    ("eye", lambda n, m=None, dtype=None: _eye(n, m, dtype),
     "an n x m identity matrix (Float32 unless dtype)"),
    ("linspace", lambda start, end, steps: _linspace(start, end, steps),
     "steps evenly spaced Float32 values from start to end"),
    ("full_like", lambda input, fill_value, *, dtype=None: _full_like(input, fill_value, dtype),
     "fill_value in input's shape (and dtype unless dtype)"),
    ("range", lambda start, end, step, maxlen=1000000: _range(start, end, step, maxlen),
     "start, start + step, ... below end (Int64 for ints, Float32 otherwise)"),
    ("hann_window", lambda window_length, periodic=True, *, dtype=None:
        _HANN(window_length, periodic, dtype),
     "the Hann window (Float64 unless dtype)", frozenset({"window_length"})),
    ("hamming_window", lambda window_length, periodic=True, alpha=0.54, beta=0.46, *,
        dtype=None: _cosine_window((alpha, -beta), "hamming_window", "float32")(
            window_length, periodic, dtype),
     "the Hamming window alpha - beta cos(2 pi n / N) (Float32 unless dtype)",
     frozenset({"window_length"})),
    ("blackman_window", lambda window_length, periodic=True, *, dtype=None:
        _BLACKMAN(window_length, periodic, dtype),
     "the Blackman window of a 0-D Tensor length (Float32 unless dtype)",
     frozenset({"window_length"})),
    ("bartlett_window", lambda window_length, periodic=True, *, dtype=None:
        _bartlett_window(window_length, periodic, dtype),
     "the Bartlett (triangular) window of a 0-D Tensor length (Float32 unless dtype)",
     frozenset({"window_length"})),
    ("kaiser_window", lambda window_length, periodic=True, beta=12.0, *, dtype=None:
        _kaiser_window(window_length, periodic, beta, dtype),
     "the Kaiser window of shape beta (Float64 unless dtype)", frozenset({"window_length"})),
    ("tuple_to_array", lambda input_x: _to_array(input_x),
     "a tuple of numbers as a tensor (Int32 for ints, Float32 otherwise)", frozenset({"input_x"})),
    ("scalar_to_tensor", lambda input_x, dtype=to_ms_dtype("float32"):
        _ug.tensor(input_x, dtype=to_ms_dtype(dtype)),
     "a number as a 0-D tensor of dtype", frozenset({"input_x"})),
    ("sequence_mask", lambda lengths, maxlen=None: _sequence_mask(lengths, maxlen),
     "a bool mask of the first lengths positions of each row"),
)

__all__ = _publish(_ROWS, globals(), __name__)
