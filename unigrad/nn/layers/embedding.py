"""``Embedding``: a lookup table of ``num_embeddings`` vectors of size ``embedding_dim``;
``EmbeddingBag``: sums, means or maxes over bags of its rows.

The weight starts as ``N(0, 1)`` with the ``padding_idx`` row zeroed; that row
never receives a gradient. ``max_norm`` renormalizes, in place and before the
lookup, every looked-up row whose ``norm_type``-norm exceeds it (as PyTorch
does); ``scale_grad_by_freq`` divides each row's gradient by how often its
index occurs in the batch.

Example:
    >>> import unigrad as ug
    >>> table = ug.nn.Embedding(4, 2, padding_idx=0)
    >>> table(ug.tensor([[0, 3]])).shape
    (1, 2, 2)
    >>> table.weight[0]
    tensor([0., 0.], grad_fn=<...>)
"""

from __future__ import annotations

import math

import numpy as np

from ... import backend
from ...autograd.grad_mode import no_grad
from ...interpreters import has_values
from ...interpreters.batching import BatchTracer
from ...ops.creation import ones, zeros
from ...ops.elementwise import abs as absolute
from ...ops.elementwise import cast, sqrt, where
from ...ops.indexing import scatter_add
from ...ops.nn_functional import embedding, embedding_bag
from ...ops.reduce import amax, amin
from ...ops.reduce import sum as total
from ...ops.shape import reshape
from ...tensor import Tensor
from .. import init
from ..cell import Cell
from ..parameter import Parameter
from ._common import device_of, floating_dtype, new_parameter, positive_int, real_number


class PaddingIndexError(ValueError, AssertionError):
    """A padding index outside the table: PyTorch asserts (AssertionError); a bad value."""


def _checked_padding_idx(padding_idx, num_embeddings: int) -> int | None:
    if padding_idx is None:
        return None
    if isinstance(padding_idx, bool) or not isinstance(padding_idx, (int, np.integer)):
        raise TypeError(f"Embedding: argument 'padding_idx' must be an int or None, "
                        f"got {type(padding_idx).__name__}")
    if not -num_embeddings <= padding_idx < num_embeddings:
        raise PaddingIndexError(f"Padding_idx must be within num_embeddings (got "
                                f"padding_idx={padding_idx}, num_embeddings={num_embeddings})")
    return int(padding_idx) % num_embeddings


class _LookupTable(Cell):
    """What Embedding and EmbeddingBag share: the checked arguments and the table."""

    def _build_table(self, num_embeddings: int, embedding_dim: int, padding_idx, max_norm,
                     norm_type: float, scale_grad_by_freq: bool, sparse: bool, _weight,
                     _freeze: bool, device, dtype) -> None:
        """Check the arguments and create the table (``_weight`` or a fresh ``N(0, 1)``)."""
        owner = type(self).__name__
        num_embeddings = positive_int(num_embeddings, "num_embeddings", owner,
                                      allow_zero=True)
        embedding_dim = positive_int(embedding_dim, "embedding_dim", owner,
                                     allow_zero=True)
        padding_idx = _checked_padding_idx(padding_idx, num_embeddings)
        if max_norm is not None:
            max_norm = real_number(max_norm, "max_norm", owner)
            if max_norm < 0:
                raise ValueError(f"{owner}: argument 'max_norm' must be non-negative, "
                                 f"got {max_norm}")
        norm_type = real_number(norm_type, "norm_type", owner)
        if sparse:
            raise NotImplementedError(f"{owner}: sparse=True (sparse gradients) is not "
                                      "supported; gradients are dense")
        dtype, device = floating_dtype(dtype, owner), device_of(device)
        if _weight is not None:
            if not isinstance(_weight, Tensor):
                raise TypeError(f"{owner}: '_weight' must be a ug.Tensor, "
                                f"got {type(_weight).__name__}")
            if tuple(_weight.shape) != (num_embeddings, embedding_dim):
                raise ValueError("Shape of weight does not match num_embeddings and "
                                 "embedding_dim")
        self.num_embeddings, self.embedding_dim = num_embeddings, embedding_dim
        self.padding_idx, self.max_norm, self.norm_type = padding_idx, max_norm, norm_type
        self.scale_grad_by_freq, self.sparse = bool(scale_grad_by_freq), False
        if _weight is None:
            self.weight = new_parameter(0.0, (num_embeddings, embedding_dim), dtype, device,
                                        requires_grad=not _freeze)
            self.reset_parameters()
        else:
            self.weight = Parameter(_weight, requires_grad=not _freeze)

    def reset_parameters(self) -> None:
        """Re-draw the table from ``N(0, 1)`` and zero the padding row."""
        init.normal_(self.weight)
        if self.padding_idx is not None:
            with no_grad():
                self.weight._bump_version()
                self.weight._data[self.padding_idx] = 0


class Embedding(_LookupTable):
    """A table of ``num_embeddings`` vectors; integer input of any shape looks rows up.

    The output has shape ``input.shape + (embedding_dim,)``. ``_weight``
    supplies the initial table (used as is), ``_freeze=True`` makes it
    untrainable; see :meth:`from_pretrained`.

    Example:
        >>> import unigrad as ug
        >>> table = ug.nn.Embedding(10, 3, max_norm=1.0)
        >>> table
        Embedding(10, 3, max_norm=1.0)
        >>> out = table(ug.tensor([1, 2, 1]))
        >>> bool((out.norm(dim=1) <= 1.0 + 1e-6).all())
        True
    """

    def __init__(self, num_embeddings: int, embedding_dim: int, padding_idx: int | None = None,
                 max_norm: float | None = None, norm_type: float = 2.0,
                 scale_grad_by_freq: bool = False, sparse: bool = False, _weight=None,
                 _freeze: bool = False, device=None, dtype=None):
        super().__init__()
        self._build_table(num_embeddings, embedding_dim, padding_idx, max_norm, norm_type,
                          scale_grad_by_freq, sparse, _weight, _freeze, device, dtype)

    @classmethod
    def from_pretrained(cls, embeddings: Tensor, freeze: bool = True,
                        padding_idx: int | None = None, max_norm: float | None = None,
                        norm_type: float = 2.0, scale_grad_by_freq: bool = False,
                        sparse: bool = False) -> Embedding:
        """An Embedding whose table is ``embeddings`` (2-D), frozen unless ``freeze=False``.

        Example:
            >>> import unigrad as ug
            >>> table = ug.nn.Embedding.from_pretrained(ug.tensor([[1.0, 2.0], [3.0, 4.0]]))
            >>> table(ug.tensor([1])), table.weight.requires_grad
            (tensor([[3., 4.]]), False)
        """
        if not isinstance(embeddings, Tensor) or embeddings.ndim != 2:
            raise ValueError("Embeddings parameter is expected to be 2-dimensional")
        rows, cols = tuple(embeddings.shape)
        return cls(rows, cols, padding_idx, max_norm, norm_type, scale_grad_by_freq, sparse,
                   _weight=embeddings, _freeze=freeze)

    def _indices(self, input) -> np.ndarray | None:
        """The indices on the host, checked as ``F.embedding`` checks them; None when their
        values are not known (``ug.jit`` traces them, or a vmap batch)."""
        data = input._data if isinstance(input, Tensor) else np.asarray(input)
        if data.dtype.kind not in "iu":
            raise RuntimeError(f"Expected tensor for argument #1 'indices' to have one of the "
                               f"following scalar types: Long, Int; but got {data.dtype} "
                               f"instead")
        if isinstance(input, Tensor) and not has_values(input):
            return None  # the lookup checks them when the graph runs
        host = backend.to_numpy(data)
        if host.size and (int(host.min()) < 0 or int(host.max()) >= self.num_embeddings):
            raise IndexError("index out of range in self")
        return host

    def _renormalize_traced(self, input) -> None:
        """``max_norm`` under ``ug.jit``: the rescaling of ``F.embedding`` as ops and an
        in-place write (a repeated index writes the same new row again)."""
        if type(input._data) is BatchTracer:
            raise NotImplementedError(
                f"{type(self).__name__}(max_norm=...) inside vmap is not supported: the "
                f"renormalization writes the shared weight with each example's rows; "
                f"renormalize outside vmap")
        positions = input.reshape(-1)
        weight = self.weight
        with no_grad():
            selected = weight[positions]
            norms = _row_norms(cast(selected, np.float64), self.norm_type)
            scale = where(norms > self.max_norm, self.max_norm / (norms + 1e-7), 1.0)
            weight[positions] = cast(selected * scale[:, None], selected.dtype)

    def construct(self, input: Tensor) -> Tensor:
        if self._indices(input) is not None:  # values known: the functional form does it all
            return embedding(input, self.weight, self.padding_idx, self.max_norm,
                             self.norm_type, self.scale_grad_by_freq)
        if self.max_norm is not None:
            self._renormalize_traced(input)
        rows = embedding(input, self.weight, self.padding_idx)
        if not self.scale_grad_by_freq or not rows.requires_grad:
            return rows
        flat = input.reshape(-1)  # traced: the counts as ops
        counts = scatter_add(zeros(self.num_embeddings, dtype=rows.dtype, device=rows.device),
                             0, flat, ones(tuple(flat.shape), dtype=rows.dtype,
                                           device=rows.device))
        scale = reshape(1.0 / counts[flat], tuple(input.shape) + (1,))
        constant = rows.detach()
        return constant + (rows - constant) * scale  # same values; gradient divided by count

    def extra_repr(self) -> str:
        text = f"{self.num_embeddings}, {self.embedding_dim}"
        if self.padding_idx is not None:
            text += f", padding_idx={self.padding_idx}"
        if self.max_norm is not None:
            text += f", max_norm={self.max_norm}"
        if self.norm_type != 2:
            text += f", norm_type={self.norm_type}"
        if self.scale_grad_by_freq:
            text += ", scale_grad_by_freq=True"
        return text


class EmbeddingBag(_LookupTable):
    """Sums, means or maxes over bags of rows of a table, without the per-index rows.

    ``forward(input, offsets=None, per_sample_weights=None)`` takes a 1-D
    ``input`` with bag ``offsets`` or a 2-D ``input`` (one bag per row) and
    returns ``(bags, embedding_dim)``; see :func:`unigrad.nn.functional.embedding_bag`.
    ``max_norm`` renormalizes the looked-up rows in place first;
    ``scale_grad_by_freq`` divides each row's gradient by how often its index
    occurs in the mini-batch.

    Example:
        >>> import unigrad as ug
        >>> bag = ug.nn.EmbeddingBag(10, 3, mode="sum")
        >>> bag
        EmbeddingBag(10, 3, mode='sum')
        >>> bag(ug.tensor([1, 2, 4, 5, 4]), ug.tensor([0, 2])).shape
        (2, 3)
    """

    def __init__(self, num_embeddings: int, embedding_dim: int, max_norm: float | None = None,
                 norm_type: float = 2.0, scale_grad_by_freq: bool = False, mode: str = "mean",
                 sparse: bool = False, _weight: Tensor | None = None,
                 include_last_offset: bool = False, padding_idx: int | None = None,
                 device=None, dtype=None):
        super().__init__()
        if mode not in ("sum", "mean", "max"):
            raise ValueError("mode has to be one of sum, mean or max")
        self._build_table(num_embeddings, embedding_dim, padding_idx, max_norm, norm_type,
                          scale_grad_by_freq, sparse, _weight, False, device, dtype)
        self.mode, self.include_last_offset = mode, bool(include_last_offset)

    @classmethod
    def from_pretrained(cls, embeddings: Tensor, freeze: bool = True,
                        max_norm: float | None = None, norm_type: float = 2.0,
                        scale_grad_by_freq: bool = False, mode: str = "mean",
                        sparse: bool = False, include_last_offset: bool = False,
                        padding_idx: int | None = None) -> EmbeddingBag:
        """An EmbeddingBag whose table is ``embeddings`` (2-D), frozen unless ``freeze=False``.

        Example:
            >>> import unigrad as ug
            >>> bag = ug.nn.EmbeddingBag.from_pretrained(ug.tensor([[1.0, 2.0], [3.0, 4.0]]))
            >>> bag(ug.tensor([[0, 1]]))
            tensor([[2., 3.]])
        """
        if not isinstance(embeddings, Tensor) or embeddings.ndim != 2:
            raise ValueError("Embeddings parameter is expected to be 2-dimensional")
        rows, cols = tuple(embeddings.shape)
        bag = cls(rows, cols, max_norm, norm_type, scale_grad_by_freq, mode, sparse, embeddings,
                  include_last_offset, padding_idx)
        bag.weight.requires_grad_(not freeze)
        return bag

    def construct(self, input: Tensor, offsets: Tensor | None = None,
                  per_sample_weights: Tensor | None = None) -> Tensor:
        return embedding_bag(input, self.weight, offsets, self.max_norm, self.norm_type,
                             self.scale_grad_by_freq, self.mode, self.sparse, per_sample_weights,
                             self.include_last_offset, self.padding_idx)

    def extra_repr(self) -> str:
        text = f"{self.num_embeddings}, {self.embedding_dim}"
        if self.max_norm is not None:
            text += f", max_norm={self.max_norm}"
        if self.norm_type != 2:
            text += f", norm_type={self.norm_type}"
        if self.scale_grad_by_freq:
            text += f", scale_grad_by_freq={self.scale_grad_by_freq}"
        text += f", mode={self.mode!r}"
        if self.padding_idx is not None:
            text += f", padding_idx={self.padding_idx}"
        return text


def _row_norms(rows: Tensor, norm_type: float) -> Tensor:
    """The ``norm_type``-norm of each row (NumPy's ``linalg.norm(rows, ord, axis=1)``)."""
    if norm_type == math.inf:
        return amax(absolute(rows), 1)
    if norm_type == -math.inf:
        return amin(absolute(rows), 1)
    if norm_type == 0:
        return total(cast(rows != 0, rows.dtype), 1)
    if norm_type == 1:
        return total(absolute(rows), 1)
    if norm_type == 2:
        return sqrt(total(rows * rows, 1))
    return total(absolute(rows) ** norm_type, 1) ** (1.0 / norm_type)


__all__ = ["Embedding", "EmbeddingBag"]
