"""grad_fn names and next_functions of the torch front-end against PyTorch's: the node each
layer, loss, activation and tensor operation records, and the operands it lists, in order."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import unigrad.compat.torch as ut  # noqa: E402

pytestmark = pytest.mark.torch
TEXT_NAMES = "torch"

RNG = np.random.default_rng(3)
VALUES = {
    "x": RNG.standard_normal((3, 4)),
    "y": RNG.uniform(0.1, 0.9, (3, 4)),
    "images": RNG.standard_normal((2, 3, 6, 6)),
    "vector": RNG.standard_normal(3),
    "kernel": RNG.standard_normal((4, 3, 3, 3)),
    "kernel1d": RNG.standard_normal((4, 3, 3)),
    "weight": RNG.standard_normal((2, 4)),
    "table": RNG.standard_normal((5, 2)),
}


class Values:
    """The case's tensors, made by one library: leaves that require grad (``x``, ...) and
    plain ones (``y``) from the same values."""

    def __init__(self, module):
        self.module = module
        for name, array in VALUES.items():
            setattr(self, name, module.tensor(array, requires_grad=name != "y"))

    def ones(self, *shape, requires_grad=False):
        return self.module.ones(*shape, dtype=self.module.float64, requires_grad=requires_grad)

    def zeros(self, *shape, requires_grad=False):
        return self.module.zeros(*shape, dtype=self.module.float64, requires_grad=requires_grad)

    def classes(self, *values):
        return self.module.tensor(list(values))


def _activation(name: str):
    return lambda m, v: getattr(m.nn.functional, name)(v.x)


CASES = {
    # arithmetic and operand order
    "tutorial": lambda m, v: ((2 * m.sin(v.vector)) + 1).sum(),
    "radd": lambda m, v: 1 + v.x, "rmul": lambda m, v: 3 * v.x, "rsub": lambda m, v: 1 - v.x,
    "sub": lambda m, v: v.x - 1, "mul": lambda m, v: v.x * v.y, "div": lambda m, v: v.x / 2,
    "pow": lambda m, v: v.x.pow(2), "power": lambda m, v: v.x ** 3, "neg": lambda m, v: -v.x,
    "matmul": lambda m, v: v.x @ v.x.t(), "exp": lambda m, v: v.x.exp() * 3 - 1,
    # reductions
    "sum": lambda m, v: v.x.sum(), "sum_dim": lambda m, v: v.x.sum(1),
    "sum_keepdim": lambda m, v: v.x.sum(1, keepdim=True), "mean": lambda m, v: v.x.mean(),
    "mean_dim": lambda m, v: v.x.mean(1), "max": lambda m, v: v.x.max(),
    "min": lambda m, v: v.x.min(), "max_dim": lambda m, v: v.x.max(1)[0],
    "amax": lambda m, v: v.x.amax(1), "norm": lambda m, v: v.x.norm(),
    "norm_dim": lambda m, v: v.x.norm(dim=1), "var": lambda m, v: v.x.var(),
    "std": lambda m, v: v.x.std(), "var_dim": lambda m, v: v.x.var(1),
    # shapes and indexing
    "t": lambda m, v: v.x.t(), "transpose": lambda m, v: v.x.transpose(0, 1),
    "reshape": lambda m, v: v.x.reshape(12), "view": lambda m, v: v.x.view(12),
    "flatten": lambda m, v: m.flatten(v.images, 1), "unsqueeze": lambda m, v: v.x.unsqueeze(1),
    "squeeze": lambda m, v: v.x[None].squeeze(), "squeeze_dim": lambda m, v: v.x[None].squeeze(0),
    "expand": lambda m, v: v.vector.expand(2, 3), "select": lambda m, v: v.x[1],
    "select_column": lambda m, v: v.x[:, 1], "select_twice": lambda m, v: v.x[0, 1],
    "slice": lambda m, v: v.x[1:], "cat": lambda m, v: m.cat([v.x, v.x]),
    "stack": lambda m, v: m.stack([v.x, v.x]), "clamp": lambda m, v: v.x.clamp(0, 1),
    "clamp_min": lambda m, v: v.x.clamp(min=0), "clamp_max": lambda m, v: v.x.clamp(max=0),
    "dot": lambda m, v: m.dot(v.vector, v.vector), "mv": lambda m, v: m.mv(v.x.t(), v.vector),
    # activations
    **{name: _activation(name) for name in (
        "relu", "elu", "selu", "celu", "gelu", "glu", "hardshrink", "hardswish", "hardsigmoid",
        "hardtanh", "relu6", "leaky_relu", "mish", "silu", "softplus", "softshrink",
        "logsigmoid", "sigmoid", "tanh")},
    "gelu_tanh": lambda m, v: m.nn.functional.gelu(v.x, approximate="tanh"),
    "threshold": lambda m, v: m.nn.functional.threshold(v.x, 0.1, 2.0),
    "prelu": lambda m, v: m.nn.functional.prelu(v.x, v.ones(1, requires_grad=True) * 0.25),
    "softmax": lambda m, v: m.softmax(v.x, 1), "log_softmax": lambda m, v: m.log_softmax(v.x, 1),
    # losses
    "mse": lambda m, v: m.nn.functional.mse_loss(v.x, v.y),
    "mse_none": lambda m, v: m.nn.functional.mse_loss(v.x, v.y, reduction="none"),
    "mse_sum": lambda m, v: m.nn.MSELoss(reduction="sum")(v.x, v.y),
    "l1": lambda m, v: m.nn.functional.l1_loss(v.x, v.y),
    "bce": lambda m, v: m.nn.functional.binary_cross_entropy(m.sigmoid(v.x), v.y),
    "bce_logits": lambda m, v: m.nn.functional.binary_cross_entropy_with_logits(v.x, v.y),
    "bce_logits_pos": lambda m, v: m.nn.BCEWithLogitsLoss(pos_weight=v.ones(4))(v.x, v.y),
    "huber": lambda m, v: m.nn.functional.huber_loss(v.x, v.y),
    "smooth_l1": lambda m, v: m.nn.functional.smooth_l1_loss(v.x, v.y),
    "soft_margin": lambda m, v: m.nn.functional.soft_margin_loss(v.x, v.y),
    "cross_entropy": lambda m, v: m.nn.functional.cross_entropy(v.x, v.classes(0, 1, 2)),
    "cross_entropy_weight": lambda m, v: m.nn.CrossEntropyLoss(weight=v.ones(4))(
        v.x, v.classes(0, 1, 2)),
    "cross_entropy_none": lambda m, v: m.nn.functional.cross_entropy(
        v.x, v.classes(0, 1, 2), reduction="none"),
    "nll": lambda m, v: m.nn.functional.nll_loss(v.x, v.classes(0, 1, 2)),
    "nll_2d": lambda m, v: m.nn.NLLLoss()(v.images, m.zeros(2, 6, 6, dtype=m.int64)),
    # layers
    "linear": lambda m, v: m.nn.functional.linear(v.x, v.weight, v.zeros(2, requires_grad=True)),
    "linear_no_bias": lambda m, v: m.nn.functional.linear(v.x, v.weight),
    "linear_no_bias_3d": lambda m, v: m.nn.functional.linear(v.x[None].expand(2, 3, 4) * 1.0,
                                                             v.weight),
    "linear_no_bias_3d_plain": lambda m, v: m.nn.functional.linear(v.y[None] * 1.0, v.weight),
    "linear_plain_input": lambda m, v: m.nn.functional.linear(
        v.y, v.weight, v.zeros(2, requires_grad=True)),
    "conv2d": lambda m, v: m.nn.functional.conv2d(v.images, v.kernel,
                                                  v.zeros(4, requires_grad=True)),
    "conv2d_no_bias": lambda m, v: m.nn.functional.conv2d(v.images, v.kernel),
    "conv1d": lambda m, v: m.nn.functional.conv1d(v.images[:, :, 0], v.kernel1d),
    "max_pool2d": lambda m, v: m.nn.functional.max_pool2d(v.images, 2),
    "avg_pool2d": lambda m, v: m.nn.functional.avg_pool2d(v.images, 2),
    "adaptive_avg_pool2d": lambda m, v: m.nn.functional.adaptive_avg_pool2d(v.images, 2),
    "batch_norm": lambda m, v: m.nn.functional.batch_norm(
        v.images, v.zeros(3), v.ones(3), v.ones(3, requires_grad=True),
        v.zeros(3, requires_grad=True), training=True),
    "batch_norm_eval": lambda m, v: m.nn.functional.batch_norm(
        v.images, v.zeros(3), v.ones(3), v.ones(3, requires_grad=True),
        v.zeros(3, requires_grad=True), training=False),
    "layer_norm": lambda m, v: m.nn.functional.layer_norm(
        v.x, (4,), v.ones(4, requires_grad=True), v.zeros(4, requires_grad=True)),
    "layer_norm_plain": lambda m, v: m.nn.functional.layer_norm(v.x, (4,)),
    "group_norm": lambda m, v: m.nn.functional.group_norm(
        v.images, 3, v.ones(3, requires_grad=True), v.zeros(3, requires_grad=True)),
    "embedding": lambda m, v: m.nn.functional.embedding(v.classes(0, 1, 4), v.table),
    "reflection_pad2d": lambda m, v: m.nn.ReflectionPad2d((1, 2, 2, 1))(v.images),
    "replication_pad1d": lambda m, v: m.nn.functional.pad(v.x[None], (2, 1), "replicate"),
    "reflection_pad3d": lambda m, v: m.nn.functional.pad(v.images[None], (1, 1, 1, 1, 1, 1),
                                                         "reflect"),
}


def _graph(tensor, depth: int = 3) -> list:
    """The node names of ``tensor``'s graph, ``depth`` levels deep, with None for operands
    that need no gradient."""
    lines = []

    def visit(node, level):
        if node is None:
            lines.append(("  " * level) + "None")
            return
        lines.append(("  " * level) + node.name().rsplit("::", 1)[-1])
        if level < depth:
            for child, _ in getattr(node, "next_functions", ()):
                visit(child, level + 1)
    visit(tensor.grad_fn, 0)
    return lines


@pytest.mark.parametrize("name", sorted(CASES))
def test_grad_fn_and_next_functions_match_pytorch(name):
    case = CASES[name]
    torch.manual_seed(0)
    theirs = case(torch, Values(torch))
    ours = case(ut, Values(ut))
    assert _graph(ours) == _graph(theirs)
