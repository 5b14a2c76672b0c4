"""The PyTorch front-end prints and behaves as PyTorch does: ``torch.cuda`` and
``torch.accelerator`` on the machine at hand (the CPU-only case everywhere CI runs: no
CuPy GPU, and torch's CPU wheel), ``load_state_dict``'s result."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import unigrad.compat.torch as torch_ug

TEXT_NAMES = "torch"  # PyTorch's names in text forms (tests/conftest.py)

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch


def test_availability_matches_pytorch_on_this_machine():
    assert torch_ug.cuda.is_available() is torch.cuda.is_available()
    assert torch_ug.cuda.device_count() == torch.cuda.device_count()
    assert torch_ug.accelerator.is_available() is torch.accelerator.is_available()
    assert torch_ug.accelerator.device_count() == torch.accelerator.device_count()


@pytest.mark.skipif(torch_ug.cuda.is_available(), reason="a GPU is present")
def test_device_functions_raise_pytorchs_error_without_cuda():
    for function in (torch_ug.cuda.current_device, torch_ug.cuda.synchronize,
                     torch_ug.cuda.get_device_name, torch_ug.cuda.init,
                     torch_ug.accelerator.current_device_index):
        with pytest.raises(AssertionError, match="Torch not compiled with CUDA enabled"):
            function()
    assert torch_ug.accelerator.current_accelerator() is None


def test_seeding_is_accepted_and_leaves_the_cpu_stream_alone():
    torch_ug.manual_seed(3)
    expected = torch_ug.rand(4).tolist()
    torch_ug.manual_seed(3)
    torch_ug.cuda.manual_seed(123)
    torch_ug.cuda.manual_seed_all(7)
    assert torch_ug.rand(4).tolist() == expected


def test_the_tutorial_device_idiom_runs():
    device = "cuda" if torch_ug.cuda.is_available() else "cpu"
    model = torch_ug.nn.Linear(3, 2).to(device)
    out = model(torch_ug.ones(4, 3, device=device))
    assert tuple(out.shape) == (4, 2) and out.device.type == device


@pytest.mark.skipif(torch_ug.cuda.is_available(), reason="a GPU is present")
def test_cuda_autocast_without_cuda_warns_and_does_nothing():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with torch_ug.cuda.amp.autocast():
            product = torch_ug.ones(2, 2) @ torch_ug.ones(2, 2)
    assert product.dtype == torch_ug.float32
    assert any("CUDA is not available" in str(w.message) for w in caught)


def test_load_state_dict_result_prints_like_pytorch():
    ours, theirs = torch_ug.nn.Linear(2, 2), torch.nn.Linear(2, 2)
    assert repr(ours.load_state_dict(ours.state_dict())) == \
        repr(theirs.load_state_dict(theirs.state_dict())) == "<All keys matched successfully>"
    partial_ours = ours.load_state_dict({"weight": ours.weight.detach()}, strict=False)
    partial_theirs = theirs.load_state_dict({"weight": theirs.weight.detach()}, strict=False)
    assert repr(partial_ours) == repr(partial_theirs)
    assert partial_ours.missing_keys == ["bias"] and partial_ours == (["bias"], [])


def test_unpack_dual_outside_a_dual_level_gives_no_tangent_as_pytorch():
    import torch.autograd.forward_ad as theirs

    import unigrad.autograd.forward_ad as ours
    x = torch_ug.ones(2)
    unpacked = ours.unpack_dual(x)
    expected = theirs.unpack_dual(torch.ones(2))
    assert unpacked.primal is x and unpacked.tangent is None and expected.tangent is None
    with pytest.raises(RuntimeError, match="dual_level"):
        ours.make_dual(x, torch_ug.ones(2))


def test_torch_save_and_load_round_trip_paths_and_file_objects(tmp_path):
    import io
    state = {"weight": torch_ug.randn(2, 3), "step": 7, "betas": (0.9, 0.999)}
    torch_ug.save(state, tmp_path / "state.pth")
    buffer = io.BytesIO()
    torch_ug.save(state, buffer)
    buffer.seek(0)
    for loaded in (torch_ug.load(tmp_path / "state.pth"),
                   torch_ug.load(buffer, map_location="cpu", weights_only=True)):
        assert loaded["weight"].tolist() == state["weight"].tolist()
        assert loaded["step"] == 7 and loaded["betas"] == (0.9, 0.999)
    with pytest.raises(TypeError, match="map_location must be None, a device"):
        torch_ug.load(tmp_path / "state.pth", map_location={"cuda:0": "cpu"})
    with pytest.raises(TypeError, match="f must be a path"):
        torch_ug.save(state, 42)


def test_torch_load_reads_a_real_pytorch_checkpoint_into_a_module(tmp_path):
    import unigrad as ug
    reference = torch.nn.Linear(3, 2)
    torch.save(reference.state_dict(), tmp_path / "linear.pt")
    model = torch_ug.nn.Linear(3, 2)
    assert repr(model.load_state_dict(torch_ug.load(tmp_path / "linear.pt"))) == \
        "<All keys matched successfully>"
    assert model.weight.tolist() == reference.weight.tolist()
    assert ug.load(tmp_path / "linear.pt")["bias"].tolist() == reference.bias.tolist()
    x = [[0.5, -1.0, 2.0]]
    assert model(torch_ug.tensor(x)).tolist()[0] == pytest.approx(
        reference(torch.tensor(x)).tolist()[0], abs=1e-6)


def test_gradcheck_takes_pytorchs_checks():
    x = torch_ug.randn(3, dtype=torch_ug.double, requires_grad=True)
    assert torch_ug.autograd.gradcheck(lambda t: t.sin() * t.sum(), (x,),
                                       check_undefined_grad=False, check_batched_grad=False)
    assert torch_ug.autograd.gradcheck(lambda t: (t.sin(), t.exp()), (x,),
                                       check_batched_grad=True, check_grad_dtypes=True,
                                       check_forward_ad=True, check_batched_forward_grad=True)

    class Leaky(torch_ug.autograd.Function):  # a nonzero gradient for a zero output gradient
        @staticmethod
        def forward(ctx, value):
            return value * 2

        @staticmethod
        def backward(ctx, grad):
            return grad * 2 + 1

    with pytest.raises(torch_ug.autograd.GradcheckError, match="undefined or zero"):
        torch_ug.autograd.gradcheck(Leaky.apply, (x,))
    assert torch_ug.autograd.gradcheck(Leaky.apply, (x,), check_undefined_grad=False,
                                       raise_exception=False) is False


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "int64", "int32", "int16",
                                   "int8", "uint8", "bool", "complex64", "complex128"])
def test_tensor_type_names_and_conversions_match_pytorch(dtype):
    ours = torch_ug.ones(2, dtype=getattr(torch_ug, dtype))
    theirs = torch.ones(2, dtype=getattr(torch, dtype))
    assert ours.type() == theirs.type()
    converted = torch_ug.ones(2).type(theirs.type())
    assert converted.dtype.name == dtype and converted.tolist() == \
        torch.ones(2).type(theirs.type()).tolist()


def test_tensor_type_errors_and_gradient():
    with pytest.raises(ValueError, match="invalid type: 'torch.Nope'"):
        torch_ug.ones(2).type("torch.Nope")
    with pytest.raises(TypeError, match="dtype must be a type, str, or dtype object"):
        torch_ug.ones(2).type(3)
    x = torch_ug.ones(2, requires_grad=True)
    x.type(torch_ug.double).sum().backward()
    assert x.grad.tolist() == [1.0, 1.0] and x.grad.dtype == torch_ug.float32
    assert x.type(torch_ug.float32) is x


def test_once_differentiable_imports_from_torch_autograd_function():
    from unigrad.compat.torch.autograd.function import Function, once_differentiable
    assert callable(once_differentiable) and Function is torch_ug.autograd.Function


def _assert_close_cases(lib):
    return [
        (lib.tensor([1.0, 2.0, 3.0]), lib.tensor([1.0, 2.5, 3.0]), {}),
        (lib.tensor([1, 2]), lib.tensor([1, 3]), {}),
        (lib.tensor([1.0]), lib.tensor([1.0], dtype=lib.float64), {}),
        (lib.ones(2), lib.ones(3), {}),
        (1.0, 1.1, {}),
        (3, 4, {}),
        ([lib.ones(1)], [lib.zeros(1)], {}),
        ({"a": lib.ones(1)}, {"a": lib.zeros(1)}, {}),
        (lib.tensor([1.0, float("nan")]), lib.tensor([1.0, float("nan")]), {}),
        (lib.tensor([1.0, float("nan")]), lib.tensor([1.0, float("nan")]), {"equal_nan": True}),
        (lib.tensor([1.0]), lib.tensor([1.01]), {"rtol": 0.1, "atol": 0.0}),
        (lib.tensor([1 + 1j]), lib.tensor([1 + 2j]), {}),
        (lib.tensor([1.0]), lib.tensor([2.0]), {"msg": "custom"}),
    ]


@pytest.mark.parametrize("index", range(13))
def test_assert_close_matches_pytorch_outcome_and_message(index):
    actual, expected, options = _assert_close_cases(torch_ug)[index]
    actual_t, expected_t, _ = _assert_close_cases(torch)[index]
    try:
        torch.testing.assert_close(actual_t, expected_t, **options)
        reference = None
    except AssertionError as error:
        reference = str(error)
    if reference is None:
        torch_ug.testing.assert_close(actual, expected, **options)
    else:
        with pytest.raises(AssertionError) as info:
            torch_ug.testing.assert_close(actual, expected, **options)
        assert str(info.value) == reference


def test_assert_close_wants_both_tolerances():
    with pytest.raises(ValueError, match="Both 'rtol' and 'atol' must be either specified"):
        torch_ug.testing.assert_close(torch_ug.ones(1), torch_ug.ones(1), rtol=0.1)


def test_func_grad_with_a_tuple_of_argnums_returns_a_tuple_as_pytorch():
    ours = torch_ug.func.grad(lambda a: (a ** 2).sum(), argnums=(0,))(torch_ug.ones(2))
    theirs = torch.func.grad(lambda a: (a ** 2).sum(), argnums=(0,))(torch.ones(2))
    assert isinstance(ours, tuple) and len(ours) == len(theirs) == 1
    assert ours[0].tolist() == theirs[0].tolist()
    assert not isinstance(torch_ug.func.grad(lambda a: (a ** 2).sum())(torch_ug.ones(2)), tuple)


def _numpy_cube_function(module):
    """A setup_context-style Function whose forward leaves the framework (NumPy), as in
    PyTorch's "Extending torch.func with autograd.Function" tutorial."""

    class NumpyCube(module.autograd.Function):
        @staticmethod
        def forward(x):
            array = x.cpu().numpy()
            return module.tensor(array ** 3, device=x.device), module.tensor(3 * array ** 2)

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_backward(output[1])

        @staticmethod
        def backward(ctx, grad_output, grad_slope):
            (slope,) = ctx.saved_tensors
            return grad_output * slope
    return NumpyCube


def test_setup_context_function_sees_plain_inputs_under_func_grad():
    import torch
    results = []
    for module in (torch, torch_ug):
        cube = _numpy_cube_function(module)
        x = module.tensor([0.5, -2.0, 3.0], dtype=module.float64)
        results.append(module.func.grad(lambda x, cube=cube: cube.apply(x)[0].sum())(x).numpy())
    np.testing.assert_allclose(results[1], results[0])
    np.testing.assert_allclose(results[1], [0.75, 12.0, 27.0])


@pytest.mark.skipif(torch_ug.cuda.is_available(), reason="a GPU is present")
def test_moving_a_tensor_to_cuda_without_one_raises_pytorchs_assertion():
    import torch
    for move in (lambda m: m.ones(2).cuda(), lambda m: m.ones(2).to("cuda"),
                 lambda m: m.zeros(2, device="cuda")):
        with pytest.raises(AssertionError, match="Torch not compiled with CUDA enabled"):
            move(torch)
        with pytest.raises(AssertionError, match="Torch not compiled with CUDA enabled"):
            move(torch_ug)
    for move in (lambda m: m.ones(2).cuda(), lambda m: m.ones(2).to("cuda")):
        try:
            move(torch)
        except AssertionError as error:
            expected = (type(error), str(error))
        try:
            move(torch_ug)
        except AssertionError as error:
            assert (type(error), str(error)) == expected
    from unigrad import _state
    _state.global_state.text_names = "unigrad"  # unigrad's own names: its own error
    with pytest.raises(RuntimeError, match="needs CuPy") as raised:
        torch_ug.ones(2).cuda()
    assert isinstance(raised.value, AssertionError)


VERSION_ERROR_PROGRAMS = {
    "output of sigmoid": lambda m, a: a.sigmoid().mul_(2),
    "operand of mul": lambda m, a: _modified_operand(a),
    "leaf": lambda m, a: _modified_leaf(m),
}


def _modified_operand(a):
    middle = a * 1
    product = middle * middle
    middle.mul_(2)
    return product


def _modified_leaf(m):
    x = m.tensor([1.0, 2.0], requires_grad=True)
    y = m.tensor([1.0, 2.0])
    product = x * y
    y.add_(1)
    return product


@pytest.mark.parametrize("name", sorted(VERSION_ERROR_PROGRAMS))
def test_in_place_modification_errors_read_as_pytorchs(name):
    import torch
    messages = []
    for module in (torch, torch_ug):
        a = module.tensor([1.0, 2.0, 3.0], requires_grad=True)
        result = VERSION_ERROR_PROGRAMS[name](module, a)
        with pytest.raises(RuntimeError) as raised:
            result.sum().backward()
        messages.append(str(raised.value))
    assert messages[1] == messages[0]


DEVICE_AND_LAYOUT_EXPRESSIONS = [
    "m.device('cpu')", "m.device('cuda:1')", "m.device('cuda', 0)", "str(m.device('cuda', 0))",
    "m.device(type='cpu')", "m.device('cpu').type", "m.device('cuda:0').index",
    "m.device('cpu') == m.device('cpu', 0)", "m.ones(2).device", "m.ones(2).to('cpu').device",
    "m.ones(2).to(m.device('cpu'), m.float64).dtype", "m.ones(2).get_device()",
    "m.ones(2).nbytes", "m.ones(2).itemsize", "m.zeros(2, 3).stride()",
    "m.zeros(2, 3).t().stride()", "m.zeros(2, 3).t().is_contiguous()",
    "m.zeros(2, 3).is_contiguous()", "m.zeros(2, 3).stride(1)", "m.ones(2).data_ptr() > 0",
    "m.ones(2).type()", "m.ones(2).type('torch.DoubleTensor').dtype",
    "m.ones(2, dtype=m.int32).new_ones(2)",
]


@pytest.mark.parametrize("expression", DEVICE_AND_LAYOUT_EXPRESSIONS)
def test_devices_and_memory_layout_answer_as_pytorch(expression):
    import torch
    assert repr(eval(expression, {"m": torch_ug})) == repr(eval(expression, {"m": torch}))


def test_device_refuses_an_index_given_twice_and_a_negative_index():
    with pytest.raises(RuntimeError, match="must not include an index"):
        torch_ug.device("cuda:0", 1)
    with pytest.raises(RuntimeError, match="must not be negative"):
        torch_ug.device("cuda", -1)


def _random_draws(module):
    module.manual_seed(1234)
    x = module.ones(6, requires_grad=True)
    return [module.rand(3), module.randn(2, 2), module.randint(0, 10, (4,)),
            module.randperm(5), module.normal(0.0, 1.0, (3,)),
            module.nn.functional.dropout(x, 0.5), module.empty(3).uniform_(-1, 1),
            module.empty(2).normal_(), module.bernoulli(module.full((4,), 0.5)),
            module.multinomial(module.ones(4), 2)]


def test_manual_seed_makes_every_random_function_repeat():
    first = [draw.detach().numpy() for draw in _random_draws(torch_ug)]
    second = [draw.detach().numpy() for draw in _random_draws(torch_ug)]
    for one, other in zip(first, second):
        np.testing.assert_array_equal(one, other)
    torch_ug.manual_seed(4321)
    assert not np.array_equal(torch_ug.rand(3).numpy(), first[0])


@pytest.mark.parametrize("name", ["sin_", "exp_", "erf_", "expm1_", "log1p_", "rsqrt_",
                                  "square_", "tan_", "negative_", "sigmoid_", "clamp_",
                                  "zero_"])
def test_in_place_functions_write_into_their_input_as_pytorch(name):
    import torch
    arguments = (0.0, 0.5) if name == "clamp_" else ()
    values = []
    for module in (torch, torch_ug):
        x = module.tensor([0.25, 0.5, 1.5], dtype=module.float64)
        result = getattr(module, name)(x, *arguments)
        assert result is x
        values.append(x.numpy())
    np.testing.assert_allclose(values[1], values[0], rtol=1e-15)


def test_tensor_equal_is_pytorchs():
    import torch
    for module in (torch, torch_ug):
        a = module.tensor([1.0, float("nan")])
        assert a.equal(module.tensor([1.0, 2.0])) is False
        assert module.ones(2).equal(module.ones(2)) is True
        assert module.ones(2).equal(module.ones(1, 2)) is False
        assert module.equal(module.ones(2), module.ones(2)) is True


def test_saved_values_are_readable_from_the_node_as_pytorch():
    import torch
    for module in (torch, torch_ug):
        x = module.tensor([1.0, 2.0], requires_grad=True)
        assert x.pow(2).grad_fn._saved_self is x
        y = x.exp()
        saved = y.grad_fn._saved_result
        assert saved.equal(y) and saved is not y and saved.grad_fn.name() == "ExpBackward0"
        product = x * y
        assert product.grad_fn._saved_self is x and product.grad_fn._saved_other is y
        with pytest.raises(AttributeError):
            _ = product.grad_fn._saved_nothing
        product.sum().backward()
        with pytest.raises(RuntimeError, match="Trying to backward through the graph a second"):
            _ = product.grad_fn._saved_self


@pytest.mark.parametrize("name", ["SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "Adadelta",
                                  "Adamax", "NAdam", "RAdam", "ASGD", "Rprop", "Adafactor",
                                  "LBFGS"])
def test_param_group_keys_are_in_pytorchs_order(name):
    import torch
    keys = []
    for module in (torch, torch_ug):
        parameter = module.zeros(2, requires_grad=True)
        optimizer = getattr(module.optim, name)([parameter], lr=0.1)
        keys.append(list(optimizer.state_dict()["param_groups"][0]))
    assert keys[1] == keys[0]


def test_saved_tensors_keep_requires_grad_and_state_dicts_stay_ordered(tmp_path):
    import torch
    loaded = []
    for module in (torch, torch_ug):
        leaf = module.ones(2, requires_grad=True)
        path = tmp_path / f"{module.__name__}.pt"
        module.save({"loss": (leaf * 2).sum(), "model": module.nn.Linear(2, 2).state_dict(),
                     "leaf": leaf}, path)
        state = module.load(path, weights_only=True)
        loaded.append((repr(state["loss"]), type(state["model"]).__name__,
                       state["leaf"].requires_grad, state["leaf"].is_leaf,
                       [value.requires_grad for value in state["model"].values()]))
    assert loaded[1] == loaded[0]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_linspace_values_are_pytorchs_bit_for_bit(dtype):
    import math

    import torch
    for start, end in [(0.0, 2 * math.pi), (0.0, 1.0), (-3.0, 7.5), (2.0, -1.0), (0.1, 0.7)]:
        for steps in (0, 1, 2, 7, 25, 100, 1001):
            want = torch.linspace(start, end, steps, dtype=getattr(torch, dtype)).numpy()
            got = torch_ug.linspace(start, end, steps, dtype=getattr(torch_ug, dtype)).numpy()
            np.testing.assert_array_equal(got, want, err_msg=f"{start}, {end}, {steps}")


class _Settings:
    """A user's object saved whole (it pickles, as under PyTorch)."""

    def __init__(self, rate):
        self.rate = rate


def test_whole_objects_are_pickled_and_load_only_with_weights_only_false(tmp_path):
    import io
    import pickle

    import torch

    import unigrad as ug
    for module in (torch, torch_ug):
        model = module.nn.Sequential(module.nn.Linear(2, 3), module.nn.Tanh())
        path = tmp_path / f"{module.__name__}.pth"
        module.save(model, path)
        with pytest.raises(pickle.UnpicklingError, match="Weights only load failed"):
            module.load(path)
        restored = module.load(path, weights_only=False)
        assert repr(restored) == repr(model)
        assert restored[0].weight.equal(model[0].weight)
        assert isinstance(restored[0].weight, module.nn.Parameter)
        buffer = io.BytesIO()
        module.save({"settings": _Settings(0.5), "step": 3}, buffer)
        buffer.seek(0)
        loaded = module.load(buffer, weights_only=False)
        assert loaded["settings"].rate == 0.5 and loaded["step"] == 3
    with pytest.raises(pickle.UnpicklingError, match="Unsupported global: GLOBAL "
                                                     "unigrad.nn.containers.Sequential"):
        torch_ug.load(tmp_path / "unigrad.compat.torch.pth")
    with pytest.raises(ValueError, match="not a valid or complete"):  # ug.load never unpickles
        ug.load(tmp_path / "unigrad.compat.torch.pth")
