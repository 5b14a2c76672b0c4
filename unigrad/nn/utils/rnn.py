"""Variable-length sequences for the recurrent layers: PackedSequence, pack_padded_sequence,
pad_packed_sequence, pad_sequence, pack_sequence, unpad_sequence, unpack_sequence.

A :class:`PackedSequence` stores the time steps of a batch of sequences one
after the other, each step holding only the sequences still running
(``batch_sizes[t]`` rows, longest sequences first). Every function here is a
composite of differentiable ops, so gradients flow from packed data back to
the padded tensors and the other way.

Example:
    >>> import unigrad as ug
    >>> from unigrad.nn.utils.rnn import pack_sequence, pad_packed_sequence
    >>> packed = pack_sequence([ug.tensor([1.0, 2.0, 3.0]), ug.tensor([4.0])])
    >>> packed.data, packed.batch_sizes
    (tensor([1., 4., 2., 3.]), tensor([2, 1, 1]))
    >>> pad_packed_sequence(packed, batch_first=True)
    (tensor([[1., 2., 3.],
            [4., 0., 0.]]), tensor([3, 1]))
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from ...backend import int64
from ...ops.creation import as_tensor, full
from ...ops.shape import concat, split, stack, transpose
from ...tensor import Tensor

__all__ = ["PackedSequence", "pack_padded_sequence", "pad_packed_sequence", "pad_sequence",
           "pack_sequence", "unpad_sequence", "unpack_sequence", "invert_permutation"]


def invert_permutation(permutation: Tensor | None) -> Tensor | None:
    """The permutation that undoes ``permutation`` (None stays None).

    Example:
        >>> import unigrad as ug
        >>> from unigrad.nn.utils.rnn import invert_permutation
        >>> invert_permutation(ug.tensor([2, 0, 1]))
        tensor([1, 2, 0])
    """
    if permutation is None:
        return None
    order = np.asarray(permutation.tolist(), dtype=np.int64)
    inverse = np.empty_like(order)
    inverse[order] = np.arange(order.size, dtype=np.int64)
    return as_tensor(inverse, device=permutation.device)


class PackedSequence(namedtuple("PackedSequence_",
                                ["data", "batch_sizes", "sorted_indices", "unsorted_indices"])):
    """A batch of variable-length sequences packed step after step (PyTorch's class).

    ``data`` holds the steps one after the other (``batch_sizes[t]`` rows for
    step ``t``), ``batch_sizes`` is an int64 tensor, ``sorted_indices`` the
    batch order used for packing (None when the batch was already sorted by
    decreasing length) and ``unsorted_indices`` its inverse. Build it with
    :func:`pack_padded_sequence` or :func:`pack_sequence`.

    Example:
        >>> import unigrad as ug
        >>> from unigrad.nn.utils.rnn import PackedSequence
        >>> packed = PackedSequence(ug.tensor([1.0, 2.0, 3.0]), ug.tensor([2, 1]))
        >>> packed.batch_sizes, packed.sorted_indices
        (tensor([2, 1]), None)
    """

    def __new__(cls, data: Tensor, batch_sizes: Tensor | None = None,
                sorted_indices: Tensor | None = None, unsorted_indices: Tensor | None = None):
        if batch_sizes is None:
            raise TypeError("PackedSequence: argument 'batch_sizes' must be an int64 tensor, "
                            "got None")
        if unsorted_indices is None:
            unsorted_indices = invert_permutation(sorted_indices)
        return super().__new__(cls, data, batch_sizes, sorted_indices, unsorted_indices)

    def to(self, *args, **kwargs) -> PackedSequence:
        """This sequence with ``data`` moved/cast by ``Tensor.to`` (indices follow the device).

        Example:
            >>> import unigrad as ug
            >>> from unigrad.nn.utils.rnn import pack_sequence
            >>> pack_sequence([ug.tensor([1.0, 2.0])]).to(ug.float64).data.dtype
            unigrad.float64
        """
        data = self.data.to(*args, **kwargs)
        if data is self.data:
            return self
        device = data.device
        indices = [None if index is None else index.to(device=device)
                   for index in (self.sorted_indices, self.unsorted_indices)]
        return type(self)(data, self.batch_sizes, *indices)

    def cpu(self) -> PackedSequence:
        """This sequence on the CPU."""
        return self.to(device="cpu")

    def double(self) -> PackedSequence:
        """This sequence with float64 ``data``."""
        return self.to(dtype=np.float64)

    def float(self) -> PackedSequence:
        """This sequence with float32 ``data``."""
        return self.to(dtype=np.float32)

    def half(self) -> PackedSequence:
        """This sequence with float16 ``data``."""
        return self.to(dtype=np.float16)

    @property
    def is_cuda(self) -> bool:
        """Whether ``data`` lives on a CUDA device."""
        return self.data.is_cuda


def _lengths_array(lengths) -> np.ndarray:
    if isinstance(lengths, Tensor):
        if lengths.ndim != 1:
            raise RuntimeError(f"'lengths' argument should be a 1D tensor, but got a "
                               f"{lengths.ndim}D tensor")
        lengths = lengths.tolist()
    array = np.asarray(lengths)
    if array.ndim != 1 or (array.size and array.dtype.kind not in "iu"):
        raise RuntimeError(f"'lengths' argument should be a 1D sequence of integers, but got "
                           f"{lengths!r}")
    return array.astype(np.int64)


def pack_padded_sequence(input: Tensor, lengths, batch_first: bool = False,
                         enforce_sorted: bool = True) -> PackedSequence:
    """Pack a padded batch of sequences (``(T, B, *)``, or ``(B, T, *)`` when ``batch_first``).

    ``lengths`` (a list or a 1-D int64 tensor) gives each sequence's length.
    With ``enforce_sorted=True`` they must be in decreasing order; otherwise
    the batch is sorted here and ``sorted_indices`` records the order.

    Example:
        >>> import unigrad as ug
        >>> from unigrad.nn.utils.rnn import pack_padded_sequence
        >>> padded = ug.tensor([[1.0, 4.0], [2.0, 0.0], [3.0, 0.0]])
        >>> pack_padded_sequence(padded, [3, 1])
        PackedSequence(data=tensor([1., 4., 2., 3.]), batch_sizes=tensor([2, 1, 1]), \
sorted_indices=None, unsorted_indices=None)
    """
    lengths = _lengths_array(lengths)
    batch_dim = 0 if batch_first else 1
    if input.ndim < 2 or input.shape[batch_dim] != lengths.size:
        raise RuntimeError(f"Expected `len(lengths)` to be equal to batch_size, but got "
                           f"{lengths.size} (batch_size="
                           f"{input.shape[batch_dim] if input.ndim >= 2 else None})")
    if lengths.size and lengths.min() <= 0:
        raise RuntimeError("Length of all samples has to be greater than 0, but found an "
                           "element in 'lengths' that is <= 0")
    sorted_indices = None
    if enforce_sorted:
        if np.any(lengths[1:] > lengths[:-1]):
            raise RuntimeError("`lengths` array must be sorted in decreasing order when "
                               "`enforce_sorted` is True. You can pass `enforce_sorted=False` "
                               "to pack_padded_sequence and/or pack_sequence to sidestep this "
                               "requirement if you do not need ONNX exportability.")
    else:
        order = np.argsort(-lengths, kind="stable")
        lengths = lengths[order]
        sorted_indices = as_tensor(order, device=input.device)
        input = input.index_select(batch_dim, sorted_indices)
    if lengths.size and lengths[0] > input.shape[1 - batch_dim]:
        raise RuntimeError(f"Start ({input.shape[1 - batch_dim]}) + length (1) exceeds "
                           f"dimension size ({input.shape[1 - batch_dim]}).")
    if batch_first:
        input = transpose(input, 0, 1)
    steps = int(lengths[0]) if lengths.size else 0
    batch_sizes = np.array([(lengths > step).sum() for step in range(steps)], dtype=np.int64)
    data = concat([input[step, :size] for step, size in enumerate(batch_sizes.tolist())], 0)
    return PackedSequence(data, as_tensor(batch_sizes), sorted_indices, None)


def pad_packed_sequence(sequence: PackedSequence, batch_first: bool = False,
                        padding_value: float = 0.0,
                        total_length: int | None = None) -> tuple[Tensor, Tensor]:
    """Undo :func:`pack_padded_sequence`: ``(padded, lengths)`` in the original batch order.

    ``padded`` is ``(T, B, *)`` (``(B, T, *)`` when ``batch_first``) filled with
    ``padding_value`` past each sequence's end; ``total_length`` pads ``T``
    further. ``lengths`` is an int64 tensor.

    Example:
        >>> import unigrad as ug
        >>> from unigrad.nn.utils.rnn import pack_sequence, pad_packed_sequence
        >>> packed = pack_sequence([ug.tensor([1.0]), ug.tensor([2.0, 3.0])],
        ...                        enforce_sorted=False)
        >>> pad_packed_sequence(packed, padding_value=-1.0, total_length=3)
        (tensor([[ 1.,  2.],
                [-1.,  3.],
                [-1., -1.]]), tensor([1, 2]))
    """
    data, batch_sizes = sequence.data, [int(size) for size in sequence.batch_sizes.tolist()]
    steps, batch = len(batch_sizes), (batch_sizes[0] if batch_sizes else 0)
    if total_length is not None:
        if total_length < steps:
            raise ValueError(f"Expected total_length to be at least the length of the longest "
                             f"sequence in input, but got total_length={total_length} and max "
                             f"sequence length being {steps}")
    else:
        total_length = steps
    tail = tuple(data.shape[1:])
    rows = list(split(data, batch_sizes, 0)) if steps else []
    rows = [row if size == batch else concat(
        [row, full((batch - size,) + tail, padding_value, dtype=data.dtype, device=data.device)],
        0) for row, size in zip(rows, batch_sizes)]
    rows += [full((batch,) + tail, padding_value, dtype=data.dtype, device=data.device)
             for _ in range(total_length - steps)]
    padded = stack(rows, 0) if rows else full((0, batch) + tail, padding_value,
                                              dtype=data.dtype, device=data.device)
    sizes = np.asarray(batch_sizes, dtype=np.int64)
    lengths = np.array([(sizes > row).sum() for row in range(batch)], dtype=np.int64)
    if sequence.unsorted_indices is not None:
        padded = padded.index_select(1, sequence.unsorted_indices)
        lengths = lengths[np.asarray(sequence.unsorted_indices.tolist(), dtype=np.int64)]
    if batch_first:
        padded = transpose(padded, 0, 1)
    return padded, as_tensor(lengths)


def pad_sequence(sequences, batch_first: bool = False, padding_value: float = 0.0,
                 padding_side: str = "right") -> Tensor:
    """Stack tensors of shape ``(L_i, *)`` into ``(max L, B, *)`` (``(B, max L, *)``
    when ``batch_first``), padding each with ``padding_value`` on ``padding_side``.

    Example:
        >>> import unigrad as ug
        >>> from unigrad.nn.utils.rnn import pad_sequence
        >>> pad_sequence([ug.tensor([1.0, 2.0]), ug.tensor([3.0])], batch_first=True,
        ...              padding_side="left")
        tensor([[1., 2.],
                [0., 3.]])
    """
    if padding_side not in ("left", "right"):
        raise ValueError(f"Expected padding_side to be one of left or right, but got "
                         f"{padding_side}.")
    if isinstance(sequences, Tensor):
        sequences = list(sequences.unbind(0))
    sequences = list(sequences)
    if not sequences:
        raise RuntimeError("received an empty list of sequences")
    longest = max(sequence.shape[0] for sequence in sequences)
    padded = []
    for sequence in sequences:
        missing = longest - sequence.shape[0]
        if missing:
            filler = full((missing,) + tuple(sequence.shape[1:]), padding_value,
                          dtype=sequence.dtype, device=sequence.device)
            pieces = [sequence, filler] if padding_side == "right" else [filler, sequence]
            sequence = concat(pieces, 0)
        padded.append(sequence)
    return stack(padded, 0 if batch_first else 1)


def unpad_sequence(padded_sequences: Tensor, lengths, batch_first: bool = False) -> list:
    """Split a padded batch back into a list of its sequences, cut to ``lengths``.

    Example:
        >>> import unigrad as ug
        >>> from unigrad.nn.utils.rnn import unpad_sequence
        >>> unpad_sequence(ug.tensor([[1.0, 2.0], [3.0, 0.0]]), ug.tensor([2, 1]),
        ...                batch_first=True)
        [tensor([1., 2.]), tensor([3.])]
    """
    if not batch_first:
        padded_sequences = transpose(padded_sequences, 0, 1)
    return [padded_sequences[index, :length]
            for index, length in enumerate(_lengths_array(lengths).tolist())]


def pack_sequence(sequences, enforce_sorted: bool = True) -> PackedSequence:
    """Pack a list of tensors of shapes ``(L_i, *)`` (see :func:`pack_padded_sequence`).

    Example:
        >>> import unigrad as ug
        >>> from unigrad.nn.utils.rnn import pack_sequence
        >>> pack_sequence([ug.tensor([1.0]), ug.tensor([2.0, 3.0])], enforce_sorted=False)
        PackedSequence(data=tensor([2., 1., 3.]), batch_sizes=tensor([2, 1]), \
sorted_indices=tensor([1, 0]), unsorted_indices=tensor([1, 0]))
    """
    lengths = as_tensor([sequence.shape[0] for sequence in sequences], dtype=int64)
    return pack_padded_sequence(pad_sequence(sequences), lengths,
                                enforce_sorted=enforce_sorted)


def unpack_sequence(packed_sequences: PackedSequence) -> list:
    """The list of sequences a :class:`PackedSequence` holds, in their original order.

    Example:
        >>> import unigrad as ug
        >>> from unigrad.nn.utils.rnn import pack_sequence, unpack_sequence
        >>> unpack_sequence(pack_sequence([ug.tensor([1.0]), ug.tensor([2.0, 3.0])],
        ...                               enforce_sorted=False))
        [tensor([1.]), tensor([2., 3.])]
    """
    padded, lengths = pad_packed_sequence(packed_sequences, batch_first=True)
    return unpad_sequence(padded, lengths, batch_first=True)
