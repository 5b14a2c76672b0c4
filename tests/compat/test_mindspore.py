"""The MindSpore front-end ``unigrad.compat.mindspore``: spellings, text forms, structures."""

from __future__ import annotations

import numpy as np
import pytest

import unigrad as ug
import unigrad.compat.mindspore as ms
from unigrad.compat.mindspore import amp, nn, ops
from unigrad.compat.mindspore._tensor import format_value, to_ms


@pytest.fixture(autouse=True)
def _pynative():
    ms.set_context(mode=ms.PYNATIVE_MODE)
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)


def is_ms(value) -> bool:
    return type(value) in (ms.Tensor, ms.Parameter)


def leaves(tree):
    if isinstance(tree, (tuple, list)):
        for item in tree:
            yield from leaves(item)
    else:
        yield tree


def numeric_grad(fn, x: np.ndarray, eps: float = 1e-6) -> np.ndarray:
    """Central differences of the scalar ``fn`` (NumPy in, float out) in float64."""
    x = x.astype(np.float64)
    out = np.zeros_like(x)
    for index in np.ndindex(x.shape):
        step = np.zeros_like(x)
        step[index] = eps
        out[index] = (fn(x + step) - fn(x - step)) / (2 * eps)
    return out


# ============================================================================ dtypes / Tensor

class TestDtypesAndTensor:
    def test_dtype_reprs(self):
        assert [repr(d) for d in (ms.float16, ms.float32, ms.float64, ms.int32, ms.int64,
                                  ms.bool_, ms.uint8, ms.int8)] == [
            "mindspore.float16", "mindspore.float32", "mindspore.float64", "mindspore.int32",
            "mindspore.int64", "mindspore.bool", "mindspore.uint8", "mindspore.int8"]
        assert str(ms.float32) == "Float32"
        assert ms.float_ == ms.float32 and ms.int_ == ms.int64 and ms.half == ms.float16
        assert ms.dtype.float64 is ms.float64 and ms.double is ms.float64

    def test_dtypes_interoperate_with_unigrad_and_numpy(self):
        assert ms.float32 == ug.float32 and ms.float32 == np.float32
        assert hash(ms.int64) == hash(ug.int64)
        assert ug.tensor([1, 2], dtype=ms.float64).dtype == ug.float64
        assert ms.dtype_to_nptype(ms.int32) is np.int32

    @pytest.mark.parametrize("data, dtype", [
        (1.0, ms.float32), (3, ms.int64), (True, ms.bool_), ([1.0, 2], ms.float32),
        ([[1, 2]], ms.int64), (np.array([1.0]), ms.float64), (np.array([1], np.int32), ms.int32),
        (np.float16(2.0), ms.float16)])
    def test_dtype_inference(self, data, dtype):
        t = ms.Tensor(data)
        assert t.dtype == dtype and repr(t.dtype) == repr(dtype)

    def test_explicit_dtype_and_shape(self):
        t = ms.Tensor([[1, 2, 3]], ms.float32)
        assert t.dtype == ms.float32 and t.shape == (1, 3) and isinstance(t.shape, tuple)
        assert t.size == 3 and t.ndim == 2 and t.itemsize == 4 and t.nbytes == 12
        np.testing.assert_array_equal(t.asnumpy(), [[1.0, 2.0, 3.0]])

    def test_shape_and_init(self):
        t = ms.Tensor(shape=(2, 3), dtype=ms.float32, init="ones")
        np.testing.assert_array_equal(t.asnumpy(), np.ones((2, 3), np.float32))
        z = ms.Tensor(shape=2, dtype=ms.int32)
        assert z.dtype == ms.int32 and z.asnumpy().tolist() == [0, 0]

    def test_str_is_numpy_text(self):
        assert str(ms.Tensor(2.0)) == "2.0"
        assert str(ms.Tensor([[4.0, 6.0, 8.0]])) == "[[4. 6. 8.]]"
        assert str(ms.Tensor([[6.0, 9.0, 12.0]])) == "[[ 6.  9. 12.]]"
        value = np.array([[1.41, 1.6, 6.6]] * 2, np.float32) + np.float32(1e-7)
        assert str(ms.Tensor(value)) == str(value)

    @pytest.mark.parametrize("value, text", [
        (20.0, "Tensor(shape=[], dtype=Float32, value= 20)"),
        (-2.0, "Tensor(shape=[], dtype=Float32, value= -2)"),
        (1.0, "Tensor(shape=[], dtype=Float32, value= 1)"),
        (0.5, "Tensor(shape=[], dtype=Float32, value= 0.5)"),
        (3, "Tensor(shape=[], dtype=Int64, value= 3)"),
        (False, "Tensor(shape=[], dtype=Bool, value= False)")])
    def test_scalar_repr(self, value, text):
        assert repr(ms.Tensor(value)) == text

    def test_array_repr(self):
        assert repr(ms.Tensor([[4.0, 6.0, 8.0]])) == (
            "Tensor(shape=[1, 3], dtype=Float32, value=\n"
            "[[4.00000000e+000, 6.00000000e+000, 8.00000000e+000]])")
        assert repr(ms.Tensor([2048.0, -0.25])) == (
            "Tensor(shape=[2], dtype=Float32, value= [2.04800000e+003, -2.50000000e-001])")
        assert repr(ms.Tensor([1, 20])) == "Tensor(shape=[2], dtype=Int64, value= [ 1, 20])"
        assert repr(ms.Tensor(np.array([1.5], np.float16))) == (
            "Tensor(shape=[1], dtype=Float16, value= [1.5000e+000])")
        assert format_value(np.array([np.inf], np.float32)) == "[            inf]"

    def test_two_dimensional_rows_on_separate_lines(self):
        text = repr(ms.Tensor([[1.0, 2.0], [3.0, 4.0]]))
        assert text.splitlines()[1:] == ["[[1.00000000e+000, 2.00000000e+000],",
                                         " [3.00000000e+000, 4.00000000e+000]])"]

    def test_ops_on_ms_tensors_stay_ms_tensors(self):
        x = ms.Tensor([1.0, 2.0])
        for value in (x + 1, 2 * x, x ** 2, -x, x @ x, ug.exp(x), x.sum(), x[0], x.reshape(2, 1)):
            assert type(value) is ms.Tensor

    def test_methods(self):
        x = ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
        assert x.transpose().shape == (3, 2) and x.transpose(1, 0).shape == (3, 2)
        np.testing.assert_array_equal(x.transpose((1, 0)).asnumpy(), x.asnumpy().T)
        np.testing.assert_allclose(x.mean(axis=1, keep_dims=True).asnumpy(), [[1.0], [4.0]])
        np.testing.assert_allclose(x.sum(axis=0).asnumpy(), [3.0, 5.0, 7.0])
        assert float(x.sum(initial=1.0)) == 16.0
        assert x.expand_dims(0).shape == (1, 2, 3)
        assert ms.Tensor(np.ones((1, 3, 1))).squeeze().shape == (3,)
        assert ms.Tensor(np.ones((1, 3, 1))).squeeze((0, 2)).shape == (3,)
        cast = x.astype(ms.int32)
        assert cast.dtype == ms.int32 and is_ms(cast)
        copied = x.copy()
        copied.assign_value(ms.Tensor(np.zeros((2, 3), np.float32)))
        assert float(x.sum()) == 15.0 and float(copied.sum()) == 0.0
        assert x.ravel().shape == (6,) and x.fill(2.0).asnumpy().sum() == 12.0

    def test_asnumpy_shares_memory(self):
        x = ms.Tensor([1.0, 2.0])
        assert np.shares_memory(x.asnumpy(), x.asnumpy())

    def test_bad_input(self):
        with pytest.raises(TypeError, match="input_data"):
            ms.Tensor("abc")
        with pytest.raises(ValueError, match="'shape' and 'init'"):
            ms.Tensor([1.0], shape=(1,))
        with pytest.raises(ValueError, match="'shape' and 'dtype'"):
            ms.Tensor(shape=(2,))
        with pytest.raises(TypeError, match="shape"):
            ms.Tensor(shape=(2, -1), dtype=ms.float32)
        with pytest.raises(ValueError, match="assign_value"):
            ms.Tensor([1.0]).assign_value(ms.Tensor([1.0, 2.0]))

    def test_to_ms_keeps_structure_and_identity(self):
        a, b = ug.tensor(1.0), ug.tensor([2.0])
        out = to_ms({"k": (a, [b]), "n": 3})
        assert out["k"][0] is a and out["k"][1][0] is b and out["n"] == 3
        assert isinstance(out["k"], tuple) and isinstance(out["k"][1], list)
        assert is_ms(a) and is_ms(b)


# ============================================================================ Parameter

class TestParameter:
    def test_repr_and_attributes(self):
        z = ms.Parameter(ms.Tensor(np.array([1.0], np.float32)), name="z")
        assert repr(z) == "Parameter (name=z, shape=(1,), dtype=Float32, requires_grad=True)"
        assert str(z) == repr(z)
        assert z.name == "z" and z.requires_grad and z.data is z
        frozen = ms.Parameter(ms.Tensor(2.0), name="b", requires_grad=False)
        assert repr(frozen).endswith("shape=(), dtype=Float32, requires_grad=False)")

    def test_set_data_and_results(self):
        w = ms.Parameter(ms.Tensor([1.0, 2.0]), name="w")
        assert w.set_data(ms.Tensor([3, 4], ms.int64)) is w
        np.testing.assert_array_equal(w.data.asnumpy(), [3.0, 4.0])
        assert w.dtype == ms.float32
        assert type(w * 2) is ms.Tensor
        with pytest.raises(ValueError, match="shape"):
            w.set_data(ms.Tensor([1.0]))

    def test_clone_and_tuple(self):
        w = ms.Parameter(ms.Tensor([1.0, 2.0]), name="w")
        clone = w.clone(init="zeros")
        assert type(clone) is ms.Parameter and clone.name == "w"
        assert clone.asnumpy().tolist() == [0.0, 0.0] and w.asnumpy().tolist() == [1.0, 2.0]
        params = ms.ParameterTuple([w])
        acc = params.clone(prefix="accumulate_", init="zeros")
        assert isinstance(acc, ms.ParameterTuple) and type(acc[0]) is ms.Parameter
        assert acc[0].name == "accumulate_.w"
        with pytest.raises(TypeError):
            ms.ParameterTuple([ms.Tensor(1.0)])

    def test_copy_and_pickle_keep_the_class(self):
        import copy
        import pickle
        w = ms.Parameter(ms.Tensor([1.0, 2.0]), name="w")
        t = ms.Tensor([[3, 4]], ms.int32)
        for clone in (copy.deepcopy(w), pickle.loads(pickle.dumps(w))):
            assert type(clone) is ms.Parameter and clone.name == "w" and clone is not w
            assert clone.asnumpy().tolist() == [1.0, 2.0]
        for clone in (copy.deepcopy(t), pickle.loads(pickle.dumps(t))):
            assert type(clone) is ms.Tensor and clone.dtype == ms.int32
            assert clone.asnumpy().tolist() == [[3, 4]]

    def test_bad_input(self):
        with pytest.raises(TypeError, match="requires_grad"):
            ms.Parameter(ms.Tensor(1.0), requires_grad="yes")
        with pytest.raises(TypeError, match="default_input"):
            ms.Parameter("w")


# ============================================================================ grad structures

class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(3, 1, has_bias=False)
        self.loss = nn.MSELoss()

    def construct(self, x, y):
        logits = self.fc(x).squeeze()
        return self.loss(logits, y), logits


@pytest.fixture
def seed_net():
    net = Net()
    net.fc.weight.set_data(ms.Tensor([[2, 3, 4]], ms.float32))
    return net, ms.Tensor([[1, 2, 3]], ms.float32), ms.Tensor(19, ms.float32)


class TestGrad:
    def test_seed_values_and_types(self, seed_net):
        net, x, y = seed_net
        gx, aux = ms.grad(net, 0, has_aux=True)(x, y)
        assert is_ms(gx) and gx.asnumpy().tolist() == [[4.0, 6.0, 8.0]]
        assert isinstance(aux, tuple) and len(aux) == 1 and float(aux[0]) == 20.0
        assert float(ms.grad(net, 1, has_aux=True)(x, y)[0]) == -2.0
        np.testing.assert_array_equal(ms.grad(net, 0)(x, y).asnumpy(), [[6.0, 9.0, 12.0]])

    @pytest.mark.parametrize("position, weights, shape", [
        (0, None, "g"), (1, None, "g"), ((0, 1), None, "(g, g)"), (None, "list", "(g,)"),
        (None, "single", "g"), (0, "list", "(g, (g,))"), ((0, 1), "list", "((g, g), (g,))"),
        (0, "single", "(g, g)"), ((0,), None, "g")])
    def test_return_structure(self, seed_net, position, weights, shape):
        net, x, y = seed_net
        w = {"list": net.trainable_params(), "single": net.fc.weight, None: None}[weights]
        grads, _ = ms.grad(net, position, w, has_aux=True)(x, y)
        assert _structure(grads) == shape
        assert all(is_ms(g) for g in leaves(grads))
        value, grads2 = ms.value_and_grad(net, position, w, has_aux=True)(x, y)
        assert _structure(grads2) == shape
        assert isinstance(value, tuple) and [float(v) for v in value] == [1.0, 20.0]
        assert all(is_ms(v) for v in value)

    def test_weights_grad_matches_numeric(self, seed_net):
        net, x, y = seed_net
        (gw,) = ms.grad(lambda a, b: net(a, b)[0], None, net.trainable_params())(x, y)
        xs, target = x.asnumpy().astype(np.float64), 19.0
        numeric = numeric_grad(lambda w: float(((xs @ w.T).squeeze() - target) ** 2),
                               net.fc.weight.asnumpy())
        np.testing.assert_allclose(gw.asnumpy(), numeric, rtol=1e-5)

    def test_function_sees_ms_tensors(self):
        seen = []

        def f(x):
            seen.append(type(x))
            return (x * x).sum()

        ms.grad(f)(ms.Tensor([1.0, 2.0]))
        ms.grad(f)(ug.tensor([1.0, 2.0]))
        assert seen == [ms.Tensor, ms.Tensor]

    def test_return_ids_and_get_grad(self, seed_net):
        net, x, y = seed_net
        grads = ms.grad(net, (0, 1), net.trainable_params(), has_aux=True,
                        return_ids=True)(x, y)[0]
        assert grads[0][0][0] == 0 and grads[1][0][0] == "fc.weight"
        assert float(ms.get_grad(grads, 1)) == -2.0
        gw = ms.get_grad(grads, net.fc.weight)
        assert is_ms(gw) and gw.asnumpy().tolist() == [[2.0, 4.0, 6.0]]
        with pytest.raises(RuntimeError):
            ms.get_grad(grads, 5)

    def test_sens_param_and_higher_order(self):
        f = lambda x: x ** 3  # noqa: E731
        g = ms.grad(f, sens_param=True)(ms.Tensor(2.0), ms.Tensor(0.5))
        assert float(g) == 6.0
        second = ms.grad(ms.grad(f))(ms.Tensor(2.0))
        assert is_ms(second) and float(second) == 12.0

    def test_errors(self, seed_net):
        net, x, y = seed_net
        with pytest.raises(ValueError, match="can not be None at the same time"):
            ms.grad(net, grad_position=None, weights=None)
        with pytest.raises(ValueError, match="can not be None at the same time"):
            ms.value_and_grad(net, None, None)
        with pytest.raises(TypeError):
            ms.grad(net, grad_position=[0])
        with pytest.raises(TypeError, match="has_aux"):
            ms.grad(net, has_aux="yes")
        with pytest.raises(ValueError, match="more than one outputs"):
            ms.grad(lambda a: a * 2, has_aux=True)(x)
        with pytest.raises((IndexError, ValueError)):
            ms.grad(net, 5)(x, y)


def _structure(tree) -> str:
    if isinstance(tree, tuple):
        return "(" + ", ".join(_structure(t) for t in tree) + ("," if len(tree) == 1 else "") + ")"
    return "g"


# ============================================================================ GradOperation

class TestGradOperation:
    def setup_method(self):
        self.w = ms.Parameter(ms.Tensor([2.0]), name="w")
        self.b = ms.Parameter(ms.Tensor([1.0]), name="b")
        self.f = lambda x, y: x * y * self.w + self.b

    def test_rows(self):
        x, y = ms.Tensor([3.0]), ms.Tensor([5.0])
        default = ops.GradOperation()(self.f)(x, y)
        assert is_ms(default) and default.asnumpy().tolist() == [10.0]
        all_inputs = ops.GradOperation(get_all=True)(self.f)(x, y)
        assert [g.asnumpy().tolist() for g in all_inputs] == [[10.0], [6.0]]
        one = ops.GradOperation(get_all=True)(lambda a: a * 2)(x)
        assert isinstance(one, tuple) and len(one) == 1
        by_list = ops.GradOperation(get_by_list=True)(self.f, ms.ParameterTuple([self.w, self.b]))
        assert [g.asnumpy().tolist() for g in by_list(x, y)] == [[15.0], [1.0]]
        single = ops.GradOperation(get_by_list=True)(self.f, self.w)(x, y)
        assert is_ms(single) and single.asnumpy().tolist() == [15.0]
        both = ops.GradOperation(get_all=True, get_by_list=True)(self.f, [self.w, self.b])(x, y)
        assert _structure(both) == "((g, g), (g, g))"
        assert all(is_ms(g) for g in leaves(both))
        sens = ops.GradOperation(sens_param=True)(self.f)(x, y, ms.Tensor([2.0]))
        assert sens.asnumpy().tolist() == [20.0]

    def test_errors(self):
        with pytest.raises(TypeError, match="get_all"):
            ops.GradOperation(get_all=1)
        with pytest.raises(TypeError, match="callable"):
            ops.GradOperation()(3)


# ============================================================================ ops

UNARY = [
    (ops.Exp, np.exp), (ops.Log, np.log), (ops.Sqrt, np.sqrt), (ops.Square, np.square),
    (ops.Sin, np.sin), (ops.Cos, np.cos), (ops.Tanh, np.tanh),
    (ops.Sigmoid, lambda a: 1 / (1 + np.exp(-a))), (ops.ReLU, lambda a: np.maximum(a, 0)),
    (ops.Abs, np.abs), (ops.Neg, np.negative), (ops.Rsqrt, lambda a: 1 / np.sqrt(a)),
    (ops.Reciprocal, np.reciprocal)]

BINARY = [(ops.Add, np.add), (ops.Sub, np.subtract), (ops.Mul, np.multiply),
          (ops.Div, np.divide), (ops.RealDiv, np.divide), (ops.Pow, np.power),
          (ops.Maximum, np.maximum), (ops.Minimum, np.minimum)]

X = np.array([[0.5, 1.5, 2.0], [0.3, 1.2, 0.8]])
Y = np.array([[1.2, 0.7, 1.1], [0.9, 2.0, 0.4]])


def check_value_and_grad(fn, ms_fn, *arrays):
    """``ms_fn`` on MindSpore tensors equals ``fn`` on NumPy, and ms.grad of its sum equals
    central differences (float64)."""
    tensors = [ms.Tensor(a) for a in arrays]
    out = ms_fn(*tensors)
    assert is_ms(out)
    np.testing.assert_allclose(out.asnumpy(), fn(*arrays), rtol=1e-10)
    grads = ms.grad(lambda *t: ms_fn(*t).sum(), tuple(range(len(arrays))))(*tensors)
    grads = grads if isinstance(grads, tuple) else (grads,)
    for i, g in enumerate(grads):
        def partial_fn(a, i=i):
            args = list(arrays)
            args[i] = a
            return float(np.sum(fn(*args)))
        np.testing.assert_allclose(g.asnumpy(), numeric_grad(partial_fn, arrays[i]), rtol=1e-5,
                                   atol=1e-7)


class TestOps:
    @pytest.mark.parametrize("cls, fn", UNARY, ids=[c.__name__ for c, _ in UNARY])
    def test_unary_classes(self, cls, fn):
        check_value_and_grad(fn, cls(), X)

    @pytest.mark.parametrize("cls, fn", BINARY, ids=[c.__name__ for c, _ in BINARY])
    def test_binary_classes(self, cls, fn):
        check_value_and_grad(fn, cls(), X, Y)

    def test_binary_with_python_number_keeps_float32(self):
        x = ms.Tensor([1.0, 2.0])
        out = ops.Add()(x, 1)
        assert out.dtype == ms.float32 and out.asnumpy().tolist() == [2.0, 3.0]

    @pytest.mark.parametrize("ta, tb", [(False, False), (True, False), (False, True),
                                        (True, True)])
    def test_matmul(self, ta, tb):
        a = X if not ta else X.T
        b = Y.T if not tb else Y
        check_value_and_grad(lambda p, q: (p.T if ta else p) @ (q.T if tb else q),
                             ops.MatMul(transpose_a=ta, transpose_b=tb), a, b)

    def test_matmul_needs_2d(self):
        with pytest.raises(ValueError, match="2-D"):
            ops.MatMul()(ms.Tensor(np.ones((2, 2, 2))), ms.Tensor(np.ones((2, 2, 2))))
        batched = ops.BatchMatMul(transpose_b=True)(ms.Tensor(np.ones((4, 2, 3))),
                                                    ms.Tensor(np.ones((4, 5, 3))))
        assert batched.shape == (4, 2, 5) and float(batched.asnumpy()[0, 0, 0]) == 3.0

    @pytest.mark.parametrize("cls, fn", [(ops.ReduceSum, np.sum), (ops.ReduceMean, np.mean),
                                         (ops.ReduceMax, np.max), (ops.ReduceMin, np.min),
                                         (ops.ReduceProd, np.prod)])
    @pytest.mark.parametrize("keep_dims", [False, True])
    def test_reductions(self, cls, fn, keep_dims):
        check_value_and_grad(lambda a: fn(a, axis=1, keepdims=keep_dims), _Bound(cls(keep_dims), 1),
                             X)
        full = cls(keep_dims)(ms.Tensor(X))
        np.testing.assert_allclose(full.asnumpy(), fn(X, keepdims=keep_dims))

    def test_softmax_classes(self):
        def softmax(a):
            e = np.exp(a - a.max(axis=-1, keepdims=True))
            return e / e.sum(axis=-1, keepdims=True)
        check_value_and_grad(lambda a: softmax(a) * Y, lambda t: ops.Softmax()(t) * ms.Tensor(Y),
                             X)
        check_value_and_grad(lambda a: np.log(softmax(a.T).T) * Y,
                             lambda t: ops.LogSoftmax(axis=0)(t) * ms.Tensor(Y), X)

    def test_shape_classes(self):
        check_value_and_grad(lambda a: a.reshape(3, 2) * Y.reshape(3, 2),
                             lambda t: ops.Reshape()(t, (3, 2)) * ms.Tensor(Y.reshape(3, 2)), X)
        check_value_and_grad(lambda a: a.T * Y.T,
                             lambda t: ops.Transpose()(t, (1, 0)) * ms.Tensor(Y.T), X)
        check_value_and_grad(lambda a, b: np.concatenate([a, b], 1) ** 2,
                             lambda a, b: ops.Concat(axis=1)((a, b)) ** 2, X, Y)
        check_value_and_grad(lambda a, b: np.stack([a, b]) ** 2,
                             lambda a, b: ops.Stack()((a, b)) ** 2, X, Y)
        check_value_and_grad(lambda a: a[None] ** 2, lambda t: ops.ExpandDims()(t, 0) ** 2, X)
        check_value_and_grad(lambda a: a[None].squeeze(0) ** 2,
                             lambda t: ops.Squeeze(0)(ops.ExpandDims()(t, 0)) ** 2, X)
        check_value_and_grad(lambda a: np.tile(a, (2, 1)) ** 2,
                             lambda t: ops.Tile()(t, (2, 1)) ** 2, X)
        assert ops.Shape()(ms.Tensor(X)) == (2, 3)
        assert ops.BroadcastTo((4, 2, 3))(ms.Tensor(X)).shape == (4, 2, 3)

    def test_cast_and_creation_classes(self):
        out = ops.Cast()(ms.Tensor(X), ms.float32)
        assert out.dtype == ms.float32
        assert ops.OnesLike()(ms.Tensor(X)).asnumpy().sum() == 6.0
        assert ops.ZerosLike()(ms.Tensor(X)).asnumpy().sum() == 0.0
        assert ops.Ones()((2, 2), ms.int32).dtype == ms.int32
        assert ops.Zeros()(3, ms.float32).asnumpy().tolist() == [0.0, 0.0, 0.0]
        filled = ops.Fill()(ms.float32, (2,), 7)
        assert filled.asnumpy().tolist() == [7.0, 7.0] and is_ms(filled)
        selected = ops.Select()(ms.Tensor([True, False]), ms.Tensor([1.0, 2.0]),
                                ms.Tensor([3.0, 4.0]))
        assert selected.asnumpy().tolist() == [1.0, 4.0]

    def test_comparisons(self):
        a, b = ms.Tensor([1.0, 2.0]), ms.Tensor([2.0, 2.0])
        assert ops.Equal()(a, b).asnumpy().tolist() == [False, True]
        assert ops.Greater()(a, b).asnumpy().tolist() == [False, False]
        assert ops.LessEqual()(a, b).dtype == ms.bool_

    def test_primitive_repr(self):
        assert repr(ops.Add()) == "Prim[Add]"
        assert repr(ops.ReduceSum(keep_dims=True)) == "Prim[ReduceSum]<keep_dims=True>"
        assert repr(ops.MatMul()) == "Prim[MatMul]<transpose_a=False, transpose_b=False>"

    def test_functions(self):
        t = ms.Tensor(X)
        np.testing.assert_allclose(ops.matmul(t, ms.Tensor(Y.T)).asnumpy(), X @ Y.T)
        np.testing.assert_allclose(ops.sum(t, 1, keepdim=True).asnumpy(), X.sum(1, keepdims=True))
        np.testing.assert_allclose(ops.mean(t, axis=0).asnumpy(), X.mean(0))
        np.testing.assert_allclose(ops.reduce_sum(t).asnumpy(), X.sum())
        np.testing.assert_allclose(ops.exp(t).asnumpy(), np.exp(X))
        np.testing.assert_allclose(ops.square(t).asnumpy(), X ** 2)
        assert ops.reshape(t, (6,)).shape == (6,) and ops.transpose(t, (1, 0)).shape == (3, 2)
        assert ops.ones((2, 3)).dtype == ms.float32 and ops.zeros(2, ms.int64).dtype == ms.int64
        assert ops.ones_like(t).dtype == ms.float64
        assert ops.cat((t, t)).shape == (4, 3) and ops.concat([t, t], axis=1).shape == (2, 6)
        assert ops.stack([t, t], axis=2).shape == (2, 3, 2)
        assert ops.expand_dims(t, 1).shape == (2, 1, 3) and ops.unsqueeze(t, 0).shape == (1, 2, 3)
        assert ops.flatten(ms.Tensor(np.ones((2, 3, 4)))).shape == (2, 12)
        np.testing.assert_allclose(ops.relu(ms.Tensor([-1.0, 2.0])).asnumpy(), [0.0, 2.0])
        np.testing.assert_allclose(ops.softmax(t).asnumpy().sum(-1), [1.0, 1.0])
        np.testing.assert_allclose(np.exp(ops.log_softmax(t).asnumpy()).sum(-1), [1.0, 1.0])
        assert float(ops.mse_loss(t, ms.Tensor(Y))) == pytest.approx(((X - Y) ** 2).mean())
        assert float(ops.l1_loss(t, ms.Tensor(Y), "sum")) == pytest.approx(np.abs(X - Y).sum())
        assert float(ops.div(ms.Tensor(7.0), 2.0, rounding_mode="floor")) == 3.0
        assert ops.cast(t, ms.float16).dtype == ms.float16
        assert bool(ops.all(ops.isfinite(t))) and ops.depend(t, None) is t
        np.testing.assert_allclose(ops.clamp(t, 0.6, 1.0).asnumpy(), np.clip(X, 0.6, 1.0))

    def test_function_gradients(self):
        check_value_and_grad(lambda a: np.sum(a ** 2, axis=1), lambda t: ops.sum(t ** 2, 1), X)
        check_value_and_grad(lambda a, b: a @ b.T, lambda a, b: ops.matmul(a, b.T), X, Y)
        check_value_and_grad(lambda a: np.mean(np.tanh(a), axis=0),
                             lambda t: ops.mean(ops.tanh(t), axis=0), X)

    def test_stop_gradient_and_clipping(self):
        g = ms.grad(lambda x: x * ops.stop_gradient(x))(ms.Tensor(3.0))
        assert float(g) == 3.0 and is_ms(g)
        assert float(ms.grad(lambda x: ops.StopGradient()(x) ** 2)(ms.Tensor(3.0))) == 0.0
        clipped = ops.clip_by_global_norm((ms.Tensor([3.0, 4.0]), ms.Tensor([0.0])), 1.0)
        assert isinstance(clipped, tuple) and all(is_ms(c) for c in clipped)
        np.testing.assert_allclose(clipped[0].asnumpy(), [0.6, 0.8], rtol=1e-6)
        by_value = ops.clip_by_value([ms.Tensor([-2.0, 5.0])], -1.0, 1.0)
        assert isinstance(by_value, list) and by_value[0].asnumpy().tolist() == [-1.0, 1.0]
        with pytest.raises(ValueError, match="clip_value_min"):
            ops.clip_by_value(ms.Tensor([1.0]))

    def test_assign_and_hyper_map(self):
        w = ms.Parameter(ms.Tensor([1.0, 2.0]), name="w")
        ops.assign(w, ms.Tensor([5.0, 6.0]))
        ops.AssignAdd()(w, 1.0)
        assert w.asnumpy().tolist() == [6.0, 7.0]
        with pytest.raises(TypeError, match="Parameter"):
            ops.assign(ms.Tensor([1.0]), ms.Tensor([2.0]))
        mapped = ops.HyperMap()(ops.mul, (ms.Tensor(2.0), ms.Tensor(3.0)), (2.0, 2.0))
        assert [float(m) for m in mapped] == [4.0, 6.0]
        double = ops.partial(ops.mul, 2.0)
        assert float(double(ms.Tensor(4.0))) == 8.0

    def test_bad_input(self):
        with pytest.raises(TypeError, match="For 'Exp'"):
            ops.Exp()("x")
        with pytest.raises(TypeError, match="keep_dims"):
            ops.ReduceSum(keep_dims=1)
        with pytest.raises(TypeError, match="transpose_a"):
            ops.MatMul(transpose_a="no")
        with pytest.raises(TypeError, match="tuple or list"):
            ops.Concat()(ms.Tensor([1.0]))
        with pytest.raises(TypeError, match="shape"):
            ops.reshape(ms.Tensor([1.0, 2.0]), "2")
        with pytest.raises(ValueError, match="rounding_mode"):
            ops.div(ms.Tensor(1.0), 2.0, rounding_mode="up")


class _Bound:
    """``primitive(x, *extra)`` as a one-argument function."""

    def __init__(self, primitive, *extra):
        self.primitive, self.extra = primitive, extra

    def __call__(self, x):
        return self.primitive(x, *self.extra)


# ============================================================================ nn

class TestNn:
    def test_parameters_are_ms_and_named(self, seed_net):
        net, x, y = seed_net
        params = net.trainable_params()
        assert [p.name for p in params] == ["fc.weight"]
        assert all(type(p) is ms.Parameter for p in params)
        assert params[0].data.asnumpy().tolist() == [[2.0, 3.0, 4.0]]
        assert [name for name, _ in net.parameters_and_names()] == ["fc.weight"]
        assert list(net.parameters_dict()) == ["fc.weight"]
        assert [type(p) for p in net.get_parameters()] == [ms.Parameter]

    def test_outputs_and_inputs_are_ms(self, seed_net):
        net, x, y = seed_net
        loss, logits = net(x, y)
        assert is_ms(loss) and is_ms(logits)
        assert str(loss) == "1.0" and str(logits) == "20.0"
        seen = []

        class Probe(nn.Cell):
            def construct(self, a):
                seen.append(type(a))
                return a * 2

        assert is_ms(Probe()(ug.tensor([1.0])))
        assert seen == [ms.Tensor]

    def test_containers_and_layers(self):
        ms.set_seed(3)
        seq = nn.SequentialCell([nn.Dense(3, 4, activation="relu"), nn.Dropout(p=0.5),
                                 nn.Dense(4, 2), nn.Softmax()])
        assert [p.name for p in seq.trainable_params()] == ["0.weight", "0.bias", "2.weight",
                                                           "2.bias"]
        assert all(type(p) is ms.Parameter for p in seq.trainable_params())
        seq.set_train(False)
        out = seq(ms.Tensor(np.ones((5, 3), np.float32)))
        assert is_ms(out) and out.shape == (5, 2)
        np.testing.assert_allclose(out.asnumpy().sum(-1), np.ones(5), rtol=1e-6)
        cells = nn.CellList([nn.ReLU(), nn.Tanh(), nn.Sigmoid(), nn.Flatten()])
        assert len(cells) == 4
        x = ms.Tensor([[-1.0, 0.5]])
        np.testing.assert_allclose(cells[0](x).asnumpy(), [[0.0, 0.5]])
        np.testing.assert_allclose(cells[1](x).asnumpy(), np.tanh([[-1.0, 0.5]]), rtol=1e-6)
        np.testing.assert_allclose(nn.LeakyReLU(0.1)(x).asnumpy(), [[-0.1, 0.5]], rtol=1e-6)
        assert nn.Flatten()(ms.Tensor(np.ones((2, 3, 4)))).shape == (2, 12)

    def test_reprs(self):
        assert repr(nn.Dense(3, 1, has_bias=False)) == "Dense(input_channels=3, output_channels=1)"
        assert repr(nn.Dropout(p=0.2)) == "Dropout(p=0.2)"
        assert nn.Dropout(keep_prob=0.8).p == pytest.approx(0.2)
        text = repr(Net())
        assert text.startswith("Net(\n  (fc): Dense(input_channels=3, output_channels=1)")

    def test_losses(self):
        logits = ms.Tensor([[2.0, 1.0, 0.1], [0.5, 2.5, 0.3]])
        labels = ms.Tensor([0, 1], ms.int32)
        log_p = logits.asnumpy() - np.log(np.exp(logits.asnumpy()).sum(-1, keepdims=True))
        expected = -log_p[[0, 1], [0, 1]]
        sparse = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="none")(logits, labels)
        assert is_ms(sparse)
        np.testing.assert_allclose(sparse.asnumpy(), expected, rtol=1e-6)
        ce = nn.CrossEntropyLoss()(logits, ms.Tensor([0, 1]))
        assert float(ce) == pytest.approx(expected.mean(), rel=1e-6)
        assert float(nn.L1Loss()(logits, ms.Tensor(np.zeros((2, 3), np.float32)))) == \
            pytest.approx(np.abs(logits.asnumpy()).mean())
        with pytest.raises(ValueError):
            nn.MSELoss(reduction="avg")

    def test_training_loop_matches_plain_unigrad(self):
        data = np.random.default_rng(0).normal(size=(8, 3)).astype(np.float32)
        target = data @ np.array([[1.0], [-2.0], [0.5]], np.float32)
        init_w = np.array([[0.1, 0.2, 0.3]], np.float32)
        init_b = np.array([0.05], np.float32)

        net = nn.Dense(3, 1)
        net.weight.set_data(ms.Tensor(init_w))
        net.bias.set_data(ms.Tensor(init_b))
        step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                                   nn.Momentum(net.trainable_params(), learning_rate=0.1,
                                               momentum=0.9))
        ms_losses = [step(ms.Tensor(data), ms.Tensor(target)) for _ in range(5)]
        assert all(is_ms(loss) for loss in ms_losses)

        w = ug.nn.Parameter(ug.tensor(init_w), name="w")
        b = ug.nn.Parameter(ug.tensor(init_b), name="b")
        opt = ug.optim.Momentum([w, b], learning_rate=0.1, momentum=0.9)
        ug_losses = []
        for _ in range(5):
            loss, grads = ug.value_and_grad(
                lambda: ((ug.tensor(data) @ w.T + b - ug.tensor(target)) ** 2).mean(),
                None, [w, b])()
            opt(grads)
            ug_losses.append(float(loss))
        np.testing.assert_allclose([float(v) for v in ms_losses], ug_losses, rtol=1e-5)
        np.testing.assert_allclose(net.weight.asnumpy(), w.detach().numpy(), rtol=1e-5)
        assert ug_losses[-1] < ug_losses[0]

    def test_optimizers_take_mindspore_arguments(self):
        w = ms.Parameter(ms.Tensor([1.0]), name="w")
        nn.SGD([w], 0.5)((ms.Tensor([1.0]),))
        assert w.asnumpy().tolist() == [0.5]
        v = ms.Parameter(ms.Tensor([1.0]), name="v")
        adam = nn.Adam([v], learning_rate=0.1, beta1=0.9, beta2=0.999)
        adam((ms.Tensor([2.0]),))
        assert v.asnumpy()[0] == pytest.approx(0.9, rel=1e-5)
        with pytest.raises(ValueError, match="use_nesterov"):
            nn.Adam([v], use_nesterov=True)
        with pytest.raises(TypeError, match="learning_rate"):
            nn.Momentum([v])

    def test_loss_scale_cell(self, seed_net):
        net = nn.Dense(3, 1, has_bias=False)
        net.weight.set_data(ms.Tensor([[2.0, 3.0, 4.0]]))
        cell = nn.TrainOneStepWithLossScaleCell(
            nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.1),
            scale_sense=nn.DynamicLossScaleUpdateCell(1024.0, 2, 1000))
        loss, overflow, scale = cell(ms.Tensor([[1.0, 2.0, 3.0]]), ms.Tensor([[19.0]]))
        assert [repr(v) for v in (loss, overflow, scale)] == [
            "Tensor(shape=[], dtype=Float32, value= 1)",
            "Tensor(shape=[], dtype=Bool, value= False)",
            "Tensor(shape=[], dtype=Float32, value= 1024)"]
        np.testing.assert_allclose(net.weight.asnumpy(), [[1.8, 2.6, 3.4]], rtol=1e-6)

    def test_insert_param_and_errors(self):
        cell = nn.Cell()
        cell.insert_param_to_cell("w", ug.nn.Parameter(ug.ones(2)))
        assert type(cell.w) is ms.Parameter and cell.w.name == "w"
        with pytest.raises(KeyError):
            cell.insert_param_to_cell("a.b", ms.Parameter(ms.Tensor(1.0)))
        with pytest.raises(TypeError):
            cell.insert_param_to_cell("c", ms.Tensor(1.0))
        assert nn.Dropout(keep_prob=0.5, p=0.2).p == 0.2  # MindSpore 2.10: p wins
        with pytest.raises(ValueError, match="keep_prob"):
            nn.Dropout(keep_prob=1.5)


# ============================================================================ amp

class TestAmp:
    def test_static_scaler(self):
        scaler = amp.StaticLossScaler(1024.0)
        assert type(scaler.scale_value) is ms.Parameter
        scaled = scaler.scale((ms.Tensor([1.0]), [ms.Tensor([2.0])]))
        assert isinstance(scaled, tuple) and isinstance(scaled[1], list)
        assert scaled[0].asnumpy().tolist() == [1024.0] and is_ms(scaled[1][0])
        assert scaler.unscale(ms.Tensor(2048.0)).asnumpy() == 2.0
        assert scaler.adjust(True) is False
        with pytest.raises(ValueError, match="scale_value"):
            amp.StaticLossScaler(0.5)

    def test_dynamic_scaler_and_all_finite(self):
        scaler = amp.DynamicLossScaler(2 ** 10, 2, 1)
        assert scaler.adjust(amp.all_finite((ms.Tensor([float("inf")]),))) is True
        assert float(scaler.scale_value) == 512.0
        ok = amp.all_finite([ms.Tensor([1.0])])
        assert str(ok) == "True" and repr(ok) == "Tensor(shape=[], dtype=Bool, value= True)"
        with pytest.raises(TypeError, match="scale_factor"):
            amp.DynamicLossScaler(2.0, 2.5, 1)

    def test_managers(self):
        fixed = amp.FixedLossScaleManager(128.0, drop_overflow_update=False)
        assert fixed.get_loss_scale() == 128.0 and fixed.get_update_cell() is None
        dynamic = amp.DynamicLossScaleManager(2 ** 12, 2, 100)
        assert isinstance(dynamic.get_update_cell(), nn.DynamicLossScaleUpdateCell)
        with pytest.raises(ValueError, match="loss_scale"):
            amp.FixedLossScaleManager(0.5)


# ============================================================================ jit / context

class TestJitAndContext:
    def test_jit_forms(self):
        @ms.jit
        def f(x):
            return (x * 3).sum()

        assert repr(f(ms.Tensor([1.0, 2.0]))) == "Tensor(shape=[], dtype=Float32, value= 9)"
        assert f(ms.Tensor([2.0, 2.0])).asnumpy() == 12.0
        assert f.compiled.trace_count == 1
        g = ms.jit(lambda x: x + 1)
        assert is_ms(g(ms.Tensor(1.0)))

        @ms.jit(capture_mode="ast", jit_level="O0")
        def h(x):
            return x * 2
        assert float(h(ms.Tensor(1.5))) == 3.0
        with pytest.raises(TypeError, match="function"):
            ms.jit(3)

    def test_jit_on_construct_and_grad_of_jit(self):
        class JitNet(nn.Cell):
            def __init__(self):
                super().__init__()
                self.w = ms.Parameter(ms.Tensor([2.0, 3.0]), name="w")

            @ms.jit
            def construct(self, x):
                return (self.w * x).sum()

        net = JitNet()
        x = ms.Tensor([1.0, 4.0])
        assert float(net(x)) == 14.0
        gx, (gw,) = ms.grad(net, 0, net.trainable_params())(x)
        assert gx.asnumpy().tolist() == [2.0, 3.0] and gw.asnumpy().tolist() == [1.0, 4.0]
        assert is_ms(gx) and is_ms(gw)

    def test_graph_mode_matches_pynative(self, seed_net):
        net, x, y = seed_net
        eager = ms.value_and_grad(net, (0, 1), net.trainable_params(), has_aux=True)(x, y)
        ms.set_context(mode=ms.GRAPH_MODE, device_target="CPU")
        assert ms.get_context("mode") == ms.GRAPH_MODE and ug.get_context("mode") == ug.GRAPH_MODE
        graph_out = net(x, y)
        graph = ms.value_and_grad(net, (0, 1), net.trainable_params(), has_aux=True)(x, y)
        assert all(is_ms(v) for v in leaves(graph_out)) and all(is_ms(v) for v in leaves(graph))
        for a, b in zip(leaves(eager), leaves(graph)):
            np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=1e-6)
        output = ms.grad(net, 0, has_aux=True)(x, y)[0]
        assert output.asnumpy().tolist() == [[4.0, 6.0, 8.0]]

    def test_context_settings(self):
        ms.set_context(device_target="CPU", save_graphs=False, pynative_synchronize=True)
        assert ms.get_context("device_target") == "CPU"
        assert ms.get_context("pynative_synchronize") is True
        with pytest.raises(ValueError, match="not recognized"):
            ms.set_context(no_such_option=1)
        with pytest.raises(ValueError, match="device_target"):
            ms.set_context(device_target="TPU")
        with pytest.raises(ValueError, match="mode"):
            ms.set_context(mode=5)
        with pytest.raises(ValueError):
            ms.get_context("no_such_option")

    def test_set_seed(self):
        ms.set_seed(7)
        a = ops.randn((3,))
        ms.set_seed(7)
        b = ops.randn(3)
        np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())
        assert ms.get_seed() == 7 and is_ms(a)
        with pytest.raises(ValueError, match="seed"):
            ms.set_seed(-1)
        with pytest.raises(TypeError, match="seed"):
            ms.set_seed(1.5)
