"""amp.autocast: which ops run in float16 and which in float32, gradients through the casts,
nesting, decorators, exceptions and thread locality."""

from __future__ import annotations

import threading

import numpy as np
import pytest

import unigrad as ug
import unigrad.amp as amp
import unigrad.autograd.forward_ad as fwAD
import unigrad.nn.functional as F

F16, F32, F64 = ug.float16, ug.float32, ug.float64


@pytest.fixture
def data(rng):
    """float32 activations and parameters of a small network."""
    return {
        "x": ug.tensor(rng.standard_normal((4, 3)), dtype=F32),
        "w": ug.tensor(rng.standard_normal((5, 3)), dtype=F32, requires_grad=True),
        "b": ug.tensor(rng.standard_normal(5), dtype=F32, requires_grad=True),
        "h16": ug.tensor(rng.standard_normal((4, 5)), dtype=F16),
        "images": ug.tensor(rng.standard_normal((2, 3, 5, 5)), dtype=F32),
        "kernel": ug.tensor(rng.standard_normal((4, 3, 2, 2)), dtype=F32),
        "kernel1d": ug.tensor(rng.standard_normal((4, 3, 2)), dtype=F32),
        "bias4": ug.tensor(rng.standard_normal(4), dtype=F32),
    }


LOWER_PRECISION_OPS = {
    "matmul": lambda d: ug.matmul(d["x"], d["w"].T),
    "@": lambda d: d["x"] @ d["w"].T,
    "mm": lambda d: ug.mm(d["x"], d["w"].T),
    "bmm": lambda d: ug.bmm(d["x"][None], d["w"].T[None]),
    "mv": lambda d: ug.mv(d["w"], d["x"][0]),
    "einsum": lambda d: ug.einsum("ij,kj->ik", d["x"], d["w"]),
    "einsum_list": lambda d: ug.einsum("ij,kj->ik", [d["x"], d["w"]]),
    "linear": lambda d: F.linear(d["x"], d["w"], d["b"]),
    "linear_no_bias": lambda d: F.linear(d["x"], d["w"]),
    "conv1d": lambda d: F.conv1d(d["images"][:, :, 0], d["kernel1d"], d["bias4"]),
    "conv2d": lambda d: F.conv2d(d["images"], d["kernel"], d["bias4"], padding=1),
}

FLOAT32_OPS = {
    "sum": lambda h: h.sum(),
    "sum_dim": lambda h: ug.sum(h, dim=[0]),
    "mean": lambda h: h.mean(1),
    "prod": lambda h: ug.prod(h, 0),
    "cumsum": lambda h: ug.cumsum(h, 1),
    "var": lambda h: h.var(),
    "std": lambda h: ug.std(h, 0),
    "norm": lambda h: h.norm(),
    "vector_norm": lambda h: ug.vector_norm(h, 3),
    "logsumexp": lambda h: h.logsumexp(1),
    "softmax": lambda h: F.softmax(h, 1),
    "log_softmax": lambda h: h.log_softmax(1),
    "layer_norm": lambda h: F.layer_norm(h, (5,)),
    "mse_loss": lambda h: F.mse_loss(h, ug.zeros((4, 5), dtype=F16)),
    "l1_loss": lambda h: F.l1_loss(h, ug.ones((4, 5), dtype=F16)),
    "cross_entropy": lambda h: F.cross_entropy(h, ug.tensor([0, 1, 2, 4])),
    "cross_entropy_probabilities": lambda h: F.cross_entropy(h, F.softmax(h.float(), 1).half()),
    "nll_loss": lambda h: F.nll_loss(h, ug.tensor([0, 1, 2, 4])),
    "binary_cross_entropy": lambda h: F.binary_cross_entropy(
        ug.sigmoid(h.float()).half().to(h.dtype), ug.ones((4, 5), dtype=h.dtype)),
    "binary_cross_entropy_with_logits": lambda h: F.binary_cross_entropy_with_logits(
        h, ug.ones((4, 5), dtype=F16)),
}


@pytest.mark.parametrize("name", sorted(LOWER_PRECISION_OPS))
def test_lower_precision_ops_compute_in_float16(name, data):
    op = LOWER_PRECISION_OPS[name]
    reference = op(data)
    assert reference.dtype == F32
    with amp.autocast():
        result = op(data)
    assert result.dtype == F16
    np.testing.assert_allclose(result.detach().numpy().astype(np.float32),
                               reference.detach().numpy(), rtol=2e-2, atol=2e-2)
    assert op(data).dtype == F32  # nothing changes outside


@pytest.mark.parametrize("name", sorted(FLOAT32_OPS))
def test_float32_ops_compute_in_float32(name, data):
    op = FLOAT32_OPS[name]
    h16 = data["h16"]
    assert op(h16).dtype == F16  # outside autocast float16 stays float16
    with amp.autocast():
        result = op(h16)
    assert result.dtype == F32
    expected = op(h16.float())  # the float32 computation on the same (float16) values
    np.testing.assert_allclose(result.numpy(), expected.numpy(), rtol=1e-6, atol=1e-6)
    with amp.autocast():
        assert op(h16.float()).dtype == F32  # float32 inputs stay float32


def test_mixed_float16_and_float32_inputs_are_cast_to_one_dtype(data):
    x16, w, b = data["x"].half(), data["w"], data["b"]
    with pytest.raises(RuntimeError, match="expected m1 and m2 to have the same dtype"):
        F.linear(x16, w, b)  # outside autocast, as in PyTorch
    with amp.autocast():
        assert F.linear(x16, w, b).dtype == F16
        assert ug.mm(x16, w.T).dtype == F16
        assert ug.bmm(x16[None], w.T[None]).dtype == F16
        assert F.mse_loss(x16, data["x"]).dtype == F32


def test_float64_is_never_cast_down(data):
    a = ug.ones((2, 2), dtype=F64)
    with amp.autocast():
        assert (a @ a).dtype == F64
        assert F.linear(a, a).dtype == F64
        assert a.sum().dtype == F64
        assert F.softmax(a, 1).dtype == F64


def test_other_ops_keep_their_input_dtype(data):
    h16 = data["h16"]
    images16 = data["images"].half()
    with amp.autocast():
        assert h16.max(1).values.dtype == F16  # max(dim) sums internally
        assert ug.exp(h16).dtype == F16
        assert (h16 + 1.0).dtype == F16
        assert ug.dot(data["x"][0], data["x"][1]).dtype == F32  # dot is not autocast (PyTorch)
        assert F.avg_pool2d(images16, 2).dtype == F16
        assert F.max_pool2d(images16, 2).dtype == F16
        assert F.batch_norm(images16, None, None, training=True).dtype == F16
        assert ug.count_nonzero(h16).dtype == ug.int64
        assert ug.sum(ug.tensor([1, 2])).dtype == ug.int64


def test_linear_model_gradients_flow_to_float32_parameters(data):
    x, w, b = data["x"], data["w"], data["b"]
    target = ug.zeros((4, 5))
    with amp.autocast():
        product = x @ w.T
        promoted = product + b  # PyTorch type promotion: float16 + float32 is float32
        output = F.linear(x, w, b)
        loss = F.mse_loss(output, target)
    assert product.dtype == F16 and promoted.dtype == F32
    assert output.dtype == F16 and loss.dtype == F32
    loss.backward()
    assert w.grad.dtype == F32 and b.grad.dtype == F32
    grad16_w, grad16_b = w.grad.numpy().copy(), b.grad.numpy().copy()
    # the same computation in float32
    w.grad = b.grad = None
    reference = F.mse_loss(F.linear(x, w, b), target)
    reference.backward()
    np.testing.assert_allclose(loss.item(), reference.item(), rtol=1e-2)
    np.testing.assert_allclose(grad16_w, w.grad.numpy(), rtol=1e-2, atol=1e-2)
    np.testing.assert_allclose(grad16_b, b.grad.numpy(), rtol=1e-2, atol=1e-2)


def test_functional_grad_and_backward_inside_the_block(data):
    x, w = data["x"], data["w"]

    def loss_fn(w):
        return F.mse_loss(x @ w.T, ug.zeros((4, 5)))

    with amp.autocast():
        grad16 = ug.grad(loss_fn)(w)
    reference = ug.grad(loss_fn)(w)
    assert grad16.dtype == F32
    np.testing.assert_allclose(grad16.detach().numpy(), reference.detach().numpy(), rtol=1e-2,
                               atol=1e-2)


def test_forward_mode_through_the_casts(data):
    x, w = data["x"], data["w"].detach()
    tangent = ug.ones((5, 3))

    def f(w):
        return (x @ w.T).sum()

    with amp.autocast():
        value, directional = ug.jvp(f, (w,), (tangent,))
        with fwAD.dual_level():
            dual = fwAD.make_dual(w, tangent)
            forward_tangent = fwAD.unpack_dual(f(dual)).tangent
    assert value.dtype == F32 and directional.dtype == F32
    expected = float((x.sum(0) * 5).sum())  # d/dw of sum(x @ w.T) along ones: sum of x
    np.testing.assert_allclose(directional.item(), expected, rtol=1e-2)
    np.testing.assert_allclose(forward_tangent.item(), expected, rtol=1e-2)


def test_nesting_enabled_false_and_other_dtypes():
    a = ug.ones((2, 2))
    a16 = a.half()
    assert not amp.is_autocast_enabled() and amp.get_autocast_dtype() == F16
    with amp.autocast() as outer:
        assert outer.dtype == F16 and outer.enabled is True
        assert amp.is_autocast_enabled() and (a @ a).dtype == F16
        with amp.autocast(enabled=False):
            assert not amp.is_autocast_enabled()
            assert (a @ a).dtype == F32 and a16.sum().dtype == F16
        with amp.autocast(dtype=F32):
            assert amp.get_autocast_dtype() == F32
            assert (a16 @ a16).dtype == F32
        with amp.autocast(dtype="float64"):
            assert (a @ a16).dtype == F64
        assert amp.get_autocast_dtype() == F16 and (a @ a).dtype == F16
    assert not amp.is_autocast_enabled() and (a @ a).dtype == F32


def test_the_same_instance_can_be_reentered():
    a = ug.ones((2, 2))
    context = amp.autocast()
    with context:
        with context:
            assert (a @ a).dtype == F16
        assert (a @ a).dtype == F16
    assert not amp.is_autocast_enabled()


def test_exit_restores_the_state_after_an_exception():
    with pytest.raises(RuntimeError, match="mat1 and mat2 shapes cannot be multiplied"):
        with amp.autocast():
            with amp.autocast(enabled=False):
                ug.ones((2, 3)) @ ug.ones((2, 3))
    assert not amp.is_autocast_enabled()
    with amp.autocast():
        with pytest.raises(ValueError):
            with amp.autocast(enabled=False):
                raise ValueError("boom")
        assert amp.is_autocast_enabled()
        with pytest.raises(RuntimeError):
            ug.ones((2, 3)) @ ug.ones((2, 3))  # an op failing inside its autocast wrapper
        assert amp.is_autocast_enabled() and amp.get_autocast_dtype() == F16


def test_decorator():
    @amp.autocast()
    def product(a, b):
        """Multiply."""
        return a @ b, amp.is_autocast_enabled()

    @amp.autocast(enabled=False)
    def plain(a, b):
        return a @ b

    a = ug.ones((2, 2))
    result, enabled = product(a, a)
    assert result.dtype == F16 and enabled and not amp.is_autocast_enabled()
    assert product.__name__ == "product" and product.__doc__ == "Multiply."
    with amp.autocast():
        assert plain(a, a).dtype == F32
        assert (a @ a).dtype == F16
    with pytest.raises(TypeError, match="a decorated object must be callable"):
        amp.autocast()(3)


def test_autocast_is_thread_local():
    a = ug.ones((2, 2))
    seen = {}
    entered, checked = threading.Event(), threading.Event()

    def other_thread():
        entered.wait(5)
        seen["enabled"] = amp.is_autocast_enabled()
        seen["dtype"] = (a @ a).dtype
        with amp.autocast():
            seen["inside"] = (a @ a).dtype
        checked.set()

    thread = threading.Thread(target=other_thread)
    thread.start()
    with amp.autocast():
        entered.set()
        assert checked.wait(5)
        assert (a @ a).dtype == F16  # the other thread's exit did not touch this one
    thread.join()
    assert seen == {"enabled": False, "dtype": F32, "inside": F16}
    assert not amp.is_autocast_enabled()


@pytest.mark.parametrize("bad", [ug.int32, ug.bool, "bfloat16", None, "float8", 16, ug.ones(1)])
def test_bad_dtype_raises_type_error(bad):
    with pytest.raises(TypeError, match=r"autocast\(\): the argument 'dtype' must be ug.float16, "
                                        r"ug.float32 or ug.float64, but got"):
        amp.autocast(dtype=bad)
    assert not amp.is_autocast_enabled()


def test_accepted_dtype_spellings_and_enabled_check():
    for spelling in (F16, np.float16, "float16", "half"):
        assert amp.autocast(spelling).dtype == F16
    assert amp.autocast(np.dtype("float64")).dtype == F64
    assert repr(amp.autocast()) == "autocast(dtype=unigrad.float16, enabled=True)"
    with pytest.raises(TypeError, match=r"the argument 'enabled' must be a bool, but got str"):
        amp.autocast(enabled="yes")
    with pytest.raises(TypeError, match="'bfloat16' \\(NumPy has no bfloat16"):
        amp.autocast("bfloat16")


# ------------------------------------------------------------------ against PyTorch

@pytest.mark.torch
def test_dtypes_match_torch_cpu_autocast(data):
    torch = pytest.importorskip("torch")
    tF = torch.nn.functional

    def to_torch(t, requires_grad=False):
        return torch.tensor(t.detach().numpy(), requires_grad=requires_grad)

    x, w, b = to_torch(data["x"]), to_torch(data["w"], True), to_torch(data["b"], True)
    images, kernel = to_torch(data["images"]), to_torch(data["kernel"])
    target = torch.zeros(4, 5)
    # ops whose policy is the same in PyTorch's CPU and CUDA autocast lists
    with torch.autocast("cpu", dtype=torch.float16):
        torch_results = {
            "matmul": x @ w.T, "promoted": x @ w.T + b, "linear": tF.linear(x, w, b),
            "bmm": torch.bmm(x[None], w.T[None]), "conv2d": tF.conv2d(images, kernel),
            "mse": tF.mse_loss(tF.linear(x, w, b), target),
            "ce": tF.cross_entropy(tF.linear(x, w, b), torch.tensor([0, 1, 2, 4])),
            "bce_logits": tF.binary_cross_entropy_with_logits(tF.linear(x, w, b), target),
        }
        torch_results["mse"].backward()
    with amp.autocast():
        x_, w_, b_ = data["x"], data["w"], data["b"]
        ours = {
            "matmul": x_ @ w_.T, "promoted": x_ @ w_.T + b_, "linear": F.linear(x_, w_, b_),
            "bmm": ug.bmm(x_[None], w_.T[None]), "conv2d": F.conv2d(data["images"], data["kernel"]),
            "mse": F.mse_loss(F.linear(x_, w_, b_), ug.zeros((4, 5))),
            "ce": F.cross_entropy(F.linear(x_, w_, b_), ug.tensor([0, 1, 2, 4])),
            "bce_logits": F.binary_cross_entropy_with_logits(F.linear(x_, w_, b_),
                                                             ug.zeros((4, 5))),
        }
        ours["mse"].backward()
    for name, expected in torch_results.items():
        assert str(ours[name].dtype).split(".")[-1] == str(expected.dtype).split(".")[-1], name
        np.testing.assert_allclose(ours[name].detach().numpy().astype(np.float32),
                                   expected.detach().float().numpy(), rtol=1e-2, atol=1e-2)
    assert w.grad.dtype == torch.float32 and w_.grad.dtype == F32
    np.testing.assert_allclose(w_.grad.numpy(), w.grad.numpy(), rtol=1e-2, atol=1e-2)
