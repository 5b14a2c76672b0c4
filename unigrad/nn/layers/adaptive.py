"""PyTorch's ``AdaptiveLogSoftmaxWithLoss``: the adaptive softmax of Grave et al. (2016).

The ``cutoffs`` split the classes by frequency: the first ``cutoffs[0]``
(the shortlist) are scored by the ``head`` layer together with one logit per
tail cluster; a class of cluster ``i`` adds the cluster's log-probability in
the head to its log-probability within the cluster, scored by ``tail[i]``, a
low-rank ``Sequential(Linear, Linear)`` whose hidden size shrinks by
``div_value`` per cluster.

Example:
    >>> import unigrad as ug
    >>> layer = ug.nn.AdaptiveLogSoftmaxWithLoss(8, 10, cutoffs=[4, 8], div_value=2.0)
    >>> result = layer(ug.randn(3, 8), ug.tensor([0, 5, 9]))
    >>> result.output.shape, result.loss.shape
    ((3,), ())
    >>> total = layer.log_prob(ug.randn(3, 8)).exp().sum(dim=1)
    >>> bool((total - 1).abs().max() < 1e-5)
    True
"""

from __future__ import annotations

import numbers
from collections import namedtuple

import numpy as np

from ...backend import device_of as array_device
from ...backend import to_device, to_numpy
from ...ops.nn_activations import log_softmax
from ...ops.shape import cat
from ...tensor import Tensor
from ..cell import Module
from ..containers import ModuleList, Sequential
from ._common import positive_int
from .linear import Linear

_ASMoutput = namedtuple("_ASMoutput", ["output", "loss"])

_CUTOFFS_MESSAGE = ("cutoffs should be a sequence of unique, positive integers sorted in an "
                    "increasing order, where each value is between 1 and n_classes-1")


def _checked_cutoffs(cutoffs, n_classes: int) -> list[int]:
    """``cutoffs`` as a list of ints, or PyTorch's ValueError."""
    cutoffs = list(cutoffs)
    if not cutoffs:
        raise ValueError("cutoffs should be a sequence of length larger than 0")
    if any(isinstance(c, bool) or not isinstance(c, numbers.Real) or int(c) != c
           for c in cutoffs):
        raise ValueError(_CUTOFFS_MESSAGE)
    cutoffs = [int(c) for c in cutoffs]
    if (cutoffs != sorted(cutoffs) or cutoffs[0] <= 0 or cutoffs[-1] > n_classes - 1
            or len(set(cutoffs)) != len(cutoffs)):
        raise ValueError(_CUTOFFS_MESSAGE)
    return cutoffs


def _indices_like(values: np.ndarray, like: Tensor) -> Tensor:
    """The host int64 array ``values`` as a Tensor on ``like``'s device."""
    return Tensor(to_device(np.asarray(values, dtype=np.int64), array_device(like._data)))


class AdaptiveLogSoftmaxWithLoss(Module):
    """Adaptive softmax over ``n_classes`` split at ``cutoffs`` (PyTorch's).

    ``forward(input, target)`` takes ``input`` of shape ``(N, in_features)``
    with ``target`` ``(N,)`` (or ``(in_features,)`` with a 0-d target) and
    returns the named tuple ``(output, loss)``: each target's log-probability
    and the mean negative log-likelihood. :meth:`log_prob` gives the full
    ``(N, n_classes)`` log-probabilities, :meth:`predict` the most likely class.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.AdaptiveLogSoftmaxWithLoss(16, 20, cutoffs=[5, 10], div_value=2.0)
        AdaptiveLogSoftmaxWithLoss(
          (head): Linear(in_features=16, out_features=7, bias=False)
          (tail): ModuleList(
            (0): Sequential(
              (0): Linear(in_features=16, out_features=8, bias=False)
              (1): Linear(in_features=8, out_features=5, bias=False)
            )
            (1): Sequential(
              (0): Linear(in_features=16, out_features=4, bias=False)
              (1): Linear(in_features=4, out_features=10, bias=False)
            )
          )
        )
    """

    def __init__(self, in_features: int, n_classes: int, cutoffs, div_value: float = 4.0,
                 head_bias: bool = False, device=None, dtype=None):
        owner = "AdaptiveLogSoftmaxWithLoss"
        in_features = positive_int(in_features, "in_features", owner)
        n_classes = positive_int(n_classes, "n_classes", owner)
        cutoffs = _checked_cutoffs(cutoffs, n_classes)
        if isinstance(div_value, bool) or not isinstance(div_value, numbers.Real):
            raise TypeError(f"{owner}: argument 'div_value' must be a real number, "
                            f"got {type(div_value).__name__}")
        super().__init__()
        self.in_features, self.n_classes = in_features, n_classes
        self.cutoffs = cutoffs + [n_classes]
        self.div_value, self.head_bias = div_value, head_bias
        self.shortlist_size = self.cutoffs[0]
        self.n_clusters = len(self.cutoffs) - 1
        self.head_size = self.shortlist_size + self.n_clusters
        self.head = Linear(in_features, self.head_size, bias=head_bias, device=device,
                           dtype=dtype)
        self.tail = ModuleList()
        for index in range(self.n_clusters):
            hidden = int(in_features // (div_value ** (index + 1)))
            size = self.cutoffs[index + 1] - self.cutoffs[index]
            self.tail.append(Sequential(
                Linear(in_features, hidden, bias=False, device=device, dtype=dtype),
                Linear(hidden, size, bias=False, device=device, dtype=dtype)))

    def reset_parameters(self) -> None:
        """Re-draw every Linear as at construction."""
        self.head.reset_parameters()
        for projection in self.tail:
            for linear in projection:
                linear.reset_parameters()

    @staticmethod
    def _check_shapes(input: Tensor, target: Tensor) -> None:
        if target.ndim == 1:
            if input.shape[0] != target.shape[0]:
                raise RuntimeError("Input and target should have the same size in the batch "
                                   "dimension.")
            if input.ndim != 2:
                raise RuntimeError(f"1D target tensor expects 2D input tensors, but found "
                                   f"inputs with size {tuple(input.shape)}")
        elif target.ndim == 0:
            if input.ndim != 1:
                raise RuntimeError(f"0D target tensor expects 1D input tensors, but found "
                                   f"inputs with size {tuple(input.shape)}")
        else:
            raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")

    def _clusters_of(self, labels: np.ndarray) -> np.ndarray:
        """Each label's cluster: 0 for the shortlist, ``i`` for ``tail[i - 1]``."""
        if labels.dtype.kind not in "iu":
            raise RuntimeError(f"AdaptiveLogSoftmaxWithLoss: target must hold integer class "
                               f"indices, got dtype {labels.dtype}")
        if labels.size and (labels.min() < 0 or labels.max() >= self.n_classes):
            raise RuntimeError(f"Target values should be in [0, {self.n_classes - 1}], but "
                               f"values in range [{labels.min()}, {labels.max()}] were found. ")
        return np.searchsorted(np.asarray(self.cutoffs), labels, side="right")

    def forward(self, input: Tensor, target: Tensor) -> _ASMoutput:
        """``(output, loss)``: each target's log-probability and the mean of their negations.

        Example:
            >>> import unigrad as ug
            >>> layer = ug.nn.AdaptiveLogSoftmaxWithLoss(4, 6, cutoffs=[3])
            >>> result = layer(ug.ones(4), ug.tensor(5))
            >>> result.output.shape, bool(result.loss == -result.output)
            ((), True)
        """
        self._check_shapes(input, target)
        batched = target.ndim > 0
        if not batched:
            input, target = input.unsqueeze(0), target.unsqueeze(0)
        labels = to_numpy(target._data)
        clusters = self._clusters_of(labels)
        head_index = np.where(clusters == 0, labels, self.shortlist_size + clusters - 1)
        head_logprob = log_softmax(self.head(input), 1)
        output = head_logprob.gather(1, _indices_like(head_index[:, None], input)).squeeze(1)
        for cluster in range(1, self.n_clusters + 1):
            rows = np.flatnonzero(clusters == cluster)
            if rows.size == 0:
                continue
            row_indices = _indices_like(rows, input)
            cluster_logprob = log_softmax(self.tail[cluster - 1](input.index_select(0,
                                                                                  row_indices)), 1)
            relative = labels[rows] - self.cutoffs[cluster - 1]
            within = cluster_logprob.gather(1, _indices_like(relative[:, None], input))
            output = output.index_add(0, row_indices, within.squeeze(1))
        loss = (-output).mean()
        return _ASMoutput(output if batched else output.squeeze(0), loss)

    def _full_log_prob(self, input: Tensor, head_output: Tensor) -> Tensor:
        """``(N, n_classes)`` log-probabilities from ``input`` and its head logits."""
        head_logprob = log_softmax(head_output, 1)
        pieces = [head_logprob[:, :self.shortlist_size]]
        for index, projection in enumerate(self.tail):
            column = self.shortlist_size + index
            pieces.append(log_softmax(projection(input), 1) + head_logprob[:, column:column + 1])
        return cat(pieces, 1)

    def log_prob(self, input: Tensor) -> Tensor:
        """Log-probabilities of every class, ``(N, n_classes)`` for ``(N, in_features)``.

        Example:
            >>> import unigrad as ug
            >>> layer = ug.nn.AdaptiveLogSoftmaxWithLoss(4, 6, cutoffs=[3])
            >>> layer.log_prob(ug.ones(2, 4)).shape
            (2, 6)
        """
        return self._full_log_prob(input, self.head(input))

    def predict(self, input: Tensor) -> Tensor:
        """The most likely class of each row of ``(N, in_features)`` ``input``; only rows whose
        head picks a tail cluster compute the full distribution.

        Example:
            >>> import unigrad as ug
            >>> layer = ug.nn.AdaptiveLogSoftmaxWithLoss(4, 6, cutoffs=[3])
            >>> inputs = ug.randn(5, 4)
            >>> bool((layer.predict(inputs) == layer.log_prob(inputs).argmax(1)).all())
            True
        """
        head_output = self.head(input)
        output = head_output.argmax(dim=1)
        rows = np.flatnonzero(to_numpy((output >= self.shortlist_size)._data))
        if rows.size == 0:
            return output
        if rows.size == output.shape[0]:
            return self._full_log_prob(input, head_output).argmax(dim=1)
        row_indices = _indices_like(rows, input)
        best = self._full_log_prob(input.index_select(0, row_indices),
                                   head_output.index_select(0, row_indices)).argmax(dim=1)
        output[row_indices] = best
        return output


__all__ = ["AdaptiveLogSoftmaxWithLoss"]
