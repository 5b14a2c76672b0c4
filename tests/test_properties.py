"""Property tests (hypothesis): broadcasting, dtype promotion and random expression graphs."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import unigrad as ug

try:
    import torch
except ImportError:  # the cross-checks below need PyTorch; the rest does not
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch is not installed")

SETTINGS = settings(max_examples=40, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

BINARY = {
    "add": (ug.add, lambda a, b, g: (g, g)),
    "sub": (ug.sub, lambda a, b, g: (g, -g)),
    "mul": (ug.mul, lambda a, b, g: (g * b, g * a)),
    "div": (ug.div, lambda a, b, g: (g / b, -g * a / b**2)),
}


def sum_to(array: np.ndarray, shape: tuple) -> np.ndarray:
    """Reference unbroadcast: sum leading axes and axes that were 1 in ``shape``."""
    while array.ndim > len(shape):
        array = array.sum(axis=0)
    for axis, size in enumerate(shape):
        if size == 1 and array.shape[axis] != 1:
            array = array.sum(axis=axis, keepdims=True)
    return array


@st.composite
def broadcastable_pair(draw):
    shapes = draw(hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=3,
                                                    max_side=4))
    elements = st.floats(0.5, 2.0)
    a = draw(hnp.arrays(np.float64, shapes.input_shapes[0], elements=elements))
    b = draw(hnp.arrays(np.float64, shapes.input_shapes[1], elements=elements))
    return a, b


@SETTINGS
@given(pair=broadcastable_pair(), name=st.sampled_from(sorted(BINARY)))
def test_binary_gradients_are_unbroadcast_to_each_input(pair, name):
    a, b = pair
    op, reference = BINARY[name]
    ta = ug.tensor(a, requires_grad=True)
    tb = ug.tensor(b, requires_grad=True)
    out = op(ta, tb)
    seed = np.arange(out.numel(), dtype=np.float64).reshape(out.shape) + 1.0
    out.backward(ug.tensor(seed))
    expected_a, expected_b = reference(np.broadcast_to(a, seed.shape),
                                       np.broadcast_to(b, seed.shape), seed)
    assert ta.grad.shape == a.shape and tb.grad.shape == b.shape
    np.testing.assert_allclose(ta.grad.numpy(), sum_to(expected_a, a.shape), rtol=1e-12)
    np.testing.assert_allclose(tb.grad.numpy(), sum_to(expected_b, b.shape), rtol=1e-12)


DTYPES = [ug.bool, ug.int32, ug.int64, ug.float16, ug.float32, ug.float64]


@needs_torch
@SETTINGS
@given(left=st.sampled_from(DTYPES), right=st.sampled_from(DTYPES),
       left_dims=st.integers(0, 2), right_dims=st.integers(0, 2))
def test_promotion_matches_pytorch(left, right, left_dims, right_dims):
    a = ug.ones(*([2] * left_dims), dtype=left)
    b = ug.ones(*([2] * right_dims), dtype=right)
    expected = (torch.ones([2] * left_dims, dtype=getattr(torch, left.name))
                + torch.ones([2] * right_dims, dtype=getattr(torch, right.name))).dtype
    assert (a + b).dtype.name == str(expected).replace("torch.", "")


@needs_torch
@SETTINGS
@given(dtype=st.sampled_from(DTYPES), scalar=st.sampled_from([True, 3, 2.5]))
def test_python_scalars_promote_like_pytorch(dtype, scalar):
    expected = (torch.ones(2, dtype=getattr(torch, dtype.name)) * scalar).dtype
    assert (ug.ones(2, dtype=dtype) * scalar).dtype.name == str(expected).replace("torch.", "")


UNARY = [ug.tanh, ug.sin, ug.exp, ug.sigmoid, lambda x: x * x, lambda x: ug.sqrt(x * x + 1.0)]
MIXING = [ug.add, ug.mul, ug.sub, lambda x, y: x / (y * y + 1.0)]


@st.composite
def expression(draw):
    """A random DAG over one input: each step combines two earlier values."""
    steps = []
    for index in range(draw(st.integers(1, 8))):
        steps.append((draw(st.integers(0, len(UNARY) - 1)), draw(st.integers(0, len(MIXING) - 1)),
                      draw(st.integers(0, index)), draw(st.integers(0, index))))
    return steps


def evaluate(steps, x):
    values = [x]
    for unary, mixing, left, right in steps:
        values.append(MIXING[mixing](UNARY[unary](values[left]), values[right]))
    return values[-1]


@SETTINGS
@given(steps=expression(), data=hnp.arrays(np.float64, (3,), elements=st.floats(-1.5, 1.5)))
def test_random_graphs_match_central_differences_to_second_order(steps, data):
    x = ug.tensor(data, requires_grad=True)
    direction = np.array([0.3, -0.7, 0.5])
    (grad,) = ug.autograd.grad(evaluate(steps, x).sum(), x, create_graph=True)
    eps = 1e-6

    def total(values):
        return float(evaluate(steps, ug.tensor(values)).sum().item())

    numeric = (total(data + eps * direction) - total(data - eps * direction)) / (2 * eps)
    np.testing.assert_allclose(float(grad.detach().numpy() @ direction), numeric,
                               rtol=1e-5, atol=1e-6)
    (hessian_direction,) = ug.autograd.grad((grad * ug.tensor(direction)).sum(), x,
                                            allow_unused=True)
    if hessian_direction is None:
        hessian_direction = ug.zeros(3, dtype=ug.float64)

    def gradient_at(values):
        point = ug.tensor(values, requires_grad=True)
        (value,) = ug.autograd.grad(evaluate(steps, point).sum(), point, allow_unused=True)
        return np.zeros(3) if value is None else value.numpy()

    numeric_second = (gradient_at(data + eps * direction) - gradient_at(data - eps * direction)) \
        / (2 * eps)
    np.testing.assert_allclose(hessian_direction.numpy(), numeric_second, rtol=1e-4, atol=1e-5)
