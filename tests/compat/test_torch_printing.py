"""The torch front-end's text forms against PyTorch's, byte for byte: tensor reprs over a
corpus of shapes, dtypes, magnitudes and autograd states under every print option,
``torch.Size``, dtype names, ``finfo``/``iinfo``."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import unigrad.compat.torch as ut  # noqa: E402

pytestmark = pytest.mark.torch
TEXT_NAMES = "torch"

SHAPES = [(), (1,), (5,), (3, 4), (2, 3, 4), (20,), (9, 9), (2, 0), (0,), (3, 1, 2), (1001,),
          (40, 40), (2, 2, 2, 2), (3, 400)]
DTYPES = ["float32", "float64", "float16", "int64", "int32", "uint8", "bool", "complex64",
          "complex128"]
SCALES = [1e-6, 1e-3, 1.0, 1e3, 1e5, 1e8, 1e10]


def _values(rng: np.random.Generator, shape: tuple, dtype: str) -> np.ndarray:
    values = rng.standard_normal(shape)
    if dtype == "bool":
        return values > 0
    if dtype == "uint8":
        return np.abs(values * 100).astype(dtype)
    if dtype.startswith("int"):
        return (values * 100).astype(dtype)
    if dtype.startswith("complex"):
        return (values + 1j * rng.standard_normal(shape)).astype(dtype)
    return values.astype(dtype)


def _corpus() -> list[np.ndarray]:
    rng = np.random.default_rng(7)
    arrays = [_values(rng, shape, dtype) for shape, dtype in itertools.product(SHAPES, DTYPES)]
    arrays += [(rng.standard_normal((3, 5)) * scale).astype("float32") for scale in SCALES]
    arrays += [
        np.array([1e-20, 1.0, 1e20]),
        np.array([np.nan, 1.5, np.inf, -np.inf], dtype="float32"),
        np.array([np.nan, 2.0, -np.inf]),
        np.array([1.0, 2000.0]),  # integral but spread over more than 1000x: scientific
        np.array([123456789012.0, 1.0]),
        np.zeros((2, 3)),
        np.array([0.0, -0.0, 1.0]),
        np.arange(100.0).reshape(10, 10) * 1.5,
        np.array([[1 + 0j, -2.5j], [1e-5 + 3j, 4 - 4j]]),
        np.array(3.5), np.array(-7), np.array(True),
    ]
    return arrays


CORPUS = _corpus()
OPTIONS = [
    {},
    {"precision": 2},
    {"precision": 8, "linewidth": 120},
    {"threshold": 5},
    {"threshold": 5, "edgeitems": 1},
    {"threshold": 5, "edgeitems": 0},
    {"linewidth": 40},
    {"sci_mode": True},
    {"sci_mode": False},
    {"profile": "short"},
    {"profile": "full"},
]


def _pair(array: np.ndarray, requires_grad: bool, through_op: bool):
    ours = ut.tensor(array, requires_grad=requires_grad)
    theirs = torch.tensor(array, requires_grad=requires_grad)
    if through_op:
        return ours * 2, theirs * 2
    return ours, theirs


@pytest.fixture
def print_options(request):
    options = request.param
    ut.set_printoptions(**options)
    torch.set_printoptions(**options)
    yield
    ut.set_printoptions(profile="default")
    torch.set_printoptions(profile="default")


@pytest.mark.parametrize("print_options", OPTIONS, indirect=True, ids=repr)
def test_tensor_reprs_match_pytorch_byte_for_byte(print_options):
    mismatches = []
    for array in CORPUS:
        states = [(False, False)]
        if array.dtype.kind in "fc":
            states += [(True, False), (True, True)]
        for requires_grad, through_op in states:
            ours, theirs = _pair(array, requires_grad, through_op)
            if repr(ours) != repr(theirs) or str(ours) != str(theirs):
                mismatches.append(f"ours:\n{ours!r}\ntorch:\n{theirs!r}")
    assert not mismatches, f"{len(mismatches)} reprs differ; first:\n{mismatches[0]}"


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_default_dtype_decides_which_dtype_is_printed(dtype):
    ut.set_default_dtype(getattr(ut, dtype))
    torch.set_default_dtype(getattr(torch, dtype))
    try:
        for array in (np.ones(3, "float32"), np.ones(3), np.ones(2, "complex64"),
                      np.ones(2, "complex128"), np.zeros((0, 2), "int64")):
            assert repr(ut.tensor(array)) == repr(torch.tensor(array))
    finally:
        ut.set_default_dtype(ut.float32)
        torch.set_default_dtype(torch.float32)


def test_parameters_and_forward_ad_tangents_print_as_pytorch():
    ours = ut.nn.Parameter(ut.tensor([[1.5, -2.0], [3.25, 4.0]], dtype=ut.float64))
    theirs = torch.nn.Parameter(torch.tensor([[1.5, -2.0], [3.25, 4.0]], dtype=torch.float64))
    assert repr(ours) == repr(theirs)
    assert repr(ours) == ("Parameter containing:\ntensor([[ 1.5000, -2.0000],\n"
                          "        [ 3.2500,  4.0000]], dtype=torch.float64, requires_grad=True)")
    import torch.autograd.forward_ad as torch_forward
    ut_forward = ut.autograd.forward_ad
    with ut_forward.dual_level(), torch_forward.dual_level():
        dual_ours = ut_forward.make_dual(ut.tensor([1.0, 2.0]), ut.tensor([0.5, 0.25]))
        dual_theirs = torch_forward.make_dual(torch.tensor([1.0, 2.0]), torch.tensor([0.5, 0.25]))
        assert repr(dual_ours * 3) == repr(dual_theirs * 3)
        assert "tangent=tensor([1.5000, 0.7500])" in repr(dual_ours * 3)


def test_size_is_pytorchs():
    shape = ut.ones(2, 3).shape
    assert isinstance(shape, ut.Size) and isinstance(shape, tuple)
    assert repr(shape) == str(shape) == repr(torch.ones(2, 3).shape) == "torch.Size([2, 3])"
    assert repr(ut.ones(()).shape) == "torch.Size([])"
    assert ut.ones(4, 5).size() == (4, 5) and ut.ones(4, 5).size(1) == 5
    assert shape.numel() == 6 and ut.Size([]).numel() == 1
    reference = torch.Size([2, 3])
    for ours, theirs in [(shape[1:], reference[1:]), (shape + (4,), reference + (4,)),
                         ((4,) + shape, (4,) + reference), (shape * 2, reference * 2)]:
        assert type(ours) is ut.Size and repr(ours) == repr(theirs)
    assert ut.Size([ut.tensor(3)]) == (3,)
    with pytest.raises(TypeError, match=r"torch.Size\(\) takes an iterable of 'int' \(item 0 is "
                                        r"'float'\)"):
        ut.Size([2.5])
    import pickle
    assert pickle.loads(pickle.dumps(shape)) == shape
    assert type(pickle.loads(pickle.dumps(shape))) is ut.Size


@pytest.mark.parametrize("name", DTYPES)
def test_dtypes_print_with_torchs_names(name):
    ours, theirs = getattr(ut, name if name != "bool" else "bool"), getattr(torch, name)
    assert str(ours) == repr(ours) == str(theirs)
    assert ours.is_floating_point == theirs.is_floating_point
    assert ours.is_complex == theirs.is_complex
    assert ours.itemsize == theirs.itemsize
    assert str(ut.ones(1, dtype=ours).dtype) == str(theirs)


@pytest.mark.parametrize("name", ["float16", "float32", "float64", "complex64", "complex128"])
def test_finfo_matches_pytorch(name):
    ours, theirs = ut.finfo(getattr(ut, name)), torch.finfo(getattr(torch, name))
    assert repr(ours) == repr(theirs)
    for field in ("bits", "eps", "max", "min", "tiny", "smallest_normal", "resolution", "dtype"):
        assert getattr(ours, field) == getattr(theirs, field), field
    assert repr(ut.finfo()) == repr(torch.finfo())


@pytest.mark.parametrize("name", ["uint8", "int8", "int16", "int32", "int64"])
def test_iinfo_matches_pytorch(name):
    ours, theirs = ut.iinfo(getattr(ut, name)), torch.iinfo(getattr(torch, name))
    assert repr(ours) == repr(theirs)
    assert (ours.bits, ours.min, ours.max, ours.dtype) == \
        (theirs.bits, theirs.min, theirs.max, theirs.dtype)


def test_finfo_and_iinfo_refuse_the_other_kind_with_pytorchs_messages():
    for ours, theirs, argument in [(ut.finfo, torch.finfo, "int32"),
                                   (ut.iinfo, torch.iinfo, "float32"),
                                   (ut.iinfo, torch.iinfo, "bool")]:
        with pytest.raises(TypeError) as expected:
            theirs(getattr(torch, argument))
        with pytest.raises(TypeError) as got:
            ours(getattr(ut, argument))
        assert str(got.value) == str(expected.value)


def test_set_printoptions_refuses_bad_options_and_changes_nothing():
    before = repr(ut.tensor([1.123456]))
    with pytest.raises(ValueError, match="profile must be one of"):
        ut.set_printoptions(profile="tiny", precision=1)
    with pytest.raises(TypeError, match="precision must be a non-negative int"):
        ut.set_printoptions(precision=-1)
    with pytest.raises(TypeError, match="sci_mode must be True, False or None"):
        ut.set_printoptions(sci_mode="yes")
    assert repr(ut.tensor([1.123456])) == before == "tensor([1.1235])"


def test_the_other_front_ends_keep_their_own_text_under_pytorchs_names():
    import unigrad.compat.mindspore as ms
    import unigrad.compat.tensorflow as tf
    assert repr(tf.constant([1.0, 2.0])) == \
        "<tf.Tensor: shape=(2,), dtype=float32, numpy=array([1., 2.], dtype=float32)>"
    shape = tf.constant([[1.0]]).shape
    assert shape == (1, 1) and type(shape) is tf.TensorShape and repr(shape) == \
        "TensorShape([1, 1])"
    assert type(ms.Tensor([[1.0, 2.0]]).shape) is tuple
    assert repr(ms.Tensor([[1.0, 2.0]]).shape) == "(1, 2)"
