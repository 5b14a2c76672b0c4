"""AutoGraph conversion (issue 19, item 2): converted functions behave as the originals with
values, and under ``ug.jit`` data-dependent ``if``/``while``/``for`` become control-flow
primitives traced once."""

from __future__ import annotations

import functools
import importlib.util
import inspect
import random

import numpy as np
import pytest

import unigrad as ug
from unigrad.graph.autograph import AutographError, convert, converted_call
from unigrad.graph.tracer import ConcretizationError

# ----------------------------------------------------------------------------- functions

def branches(x):
    if x > 2:
        y = x * 10
    elif x > 0:
        y = x + 100
    else:
        y = -x
    return y


def loop_with_jumps(n):
    total = 0
    i = 0
    while i < n:
        i += 1
        if i % 3 == 0:
            continue
        if i > 10:
            break
        total += i
    else:
        total = -total
    return total, i


def first_square_above(limit):
    for i in range(100):
        if i * i > limit:
            return i
    return -1


def nested_loops(n):
    pairs = 0
    for i in range(n):
        for j in range(n):
            if j > i:
                break
            pairs += 1
    return pairs


def helper_sign(x):
    if x >= 0:
        return 1
    return -1


def calls_helper(x):
    def inner(v):
        return helper_sign(v) * 2
    return inner(x) + helper_sign(-x)


def boolean_conditions(a, b):
    if a > 0 and not b > 0 or a == b:
        return "first"
    return "second" if a or b else "neither"


class Accumulator:
    def __init__(self, start):
        self.start = start

    def run(self, n):
        value = self.start
        for _ in range(n):
            if value > 50:
                break
            value = value * 2
        return value


@pytest.mark.parametrize("function, argument_sets", [
    (branches, [(3,), (1,), (-4,)]),
    (loop_with_jumps, [(5,), (20,), (0,)]),
    (first_square_above, [(10,), (10_000,)]),
    (nested_loops, [(4,), (0,)]),
    (calls_helper, [(2,), (-2,)]),
    (boolean_conditions, [(1, -1), (0, 0), (0, 1), (-1, 0)]),
])
def test_converted_behaves_as_the_original_with_values(function, argument_sets):
    converted = convert(function)
    assert converted is not function and converted.__wrapped__ is function
    for arguments in argument_sets:
        assert converted(*arguments) == function(*arguments)


def maybe_defined(flag):
    if flag:
        y = 1
    return y


def test_reading_a_variable_never_assigned_raises_as_python_does():
    converted = convert(maybe_defined)
    assert converted(True) == 1
    for function in (maybe_defined, converted):
        with pytest.raises(UnboundLocalError, match="'y'"):
            function(False)


def test_a_method_converts_its_function_and_stays_bound():
    accumulator = Accumulator(3)
    converted = convert(accumulator.run)
    assert converted.__self__ is accumulator
    assert [converted(n) for n in (0, 2, 10)] == [accumulator.run(n) for n in (0, 2, 10)]


def logged(function):
    @functools.wraps(function)
    def wrapper(*args):
        return function(*args)
    return wrapper


@logged
def decorated(x):
    if x.sum() > 0:
        return x * 2
    return x


def test_a_decorated_function_converts_its_wrapper_and_what_it_wraps():
    f = ug.jit(convert(decorated))
    assert np.allclose(f(ug.tensor([1.0])).numpy(), [2.0])
    assert np.allclose(f(ug.tensor([-1.0])).numpy(), [-1.0])
    assert f.trace_count == 1


def test_conversion_is_cached_per_code_and_keeps_closures_and_defaults():
    scale = [2.0]

    def scaled(x, offset=1.0, *, power=1):
        if x > 0:
            return (x * scale[0] + offset) ** power
        return offset

    first, second = convert(scaled), convert(scaled)
    assert first.__code__ is second.__code__
    scale[0] = 3.0  # the same closure cell
    assert first(2.0) == scaled(2.0) == 7.0 and first(2.0, power=2) == 49.0
    assert first(-1.0, 5.0) == 5.0
    assert convert(first) is first  # a converted function is not converted again


def test_what_cannot_be_converted_is_returned_as_it_is():
    assert convert(len) is len and convert(ug.tanh) is ug.tanh
    twins = [lambda x: x, lambda x: -x]  # one line, same parameters: which is which?
    assert convert(twins[0]) is twins[0]
    with pytest.raises(TypeError, match="callable 'function'"):
        convert(3)


# ----------------------------------------------------------------------------- under jit

def relu_or_square(x):
    if x.sum() > 0:
        y = ug.relu(x) * 2
    else:
        y = x * x
    return y


def test_a_data_dependent_if_takes_either_branch_with_one_trace():
    f = ug.jit(convert(relu_or_square))
    positive, negative = ug.tensor([1.0, -2.0, 4.0]), ug.tensor([-1.0, -2.0, 1.0])
    assert np.allclose(f(positive).numpy(), [2.0, 0.0, 8.0])
    assert np.allclose(f(negative).numpy(), [1.0, 4.0, 1.0])
    assert f.trace_count == 1


def early_return(x):
    if x.sum() > 0:
        return x * 2
    return -x


def test_an_early_return_in_a_traced_if():
    f = ug.jit(convert(early_return))
    assert np.allclose(f(ug.tensor([1.0, 2.0])).numpy(), [2.0, 4.0])
    assert np.allclose(f(ug.tensor([-1.0, -2.0])).numpy(), [1.0, 2.0])
    assert f.trace_count == 1


def newton_sqrt(a):
    x = a
    err = 1e9
    i = 0
    while err > 1e-6 and i < 50:
        new = 0.5 * (x + a / x)
        err = (new - x).abs().max()
        x = new
        i += 1
    return x, i


def test_while_with_a_traced_condition_and_a_counter():
    f = ug.jit(convert(newton_sqrt))
    root, steps = f(ug.tensor([4.0, 9.0]))
    assert np.allclose(root.numpy(), [2.0, 3.0]) and 3 < int(steps) < 50
    root, steps = f(ug.tensor([16.0, 1.0]))
    assert np.allclose(root.numpy(), [4.0, 1.0])
    assert f.trace_count == 1


def fixed_point(a):
    x = a
    steps = 0
    while True:
        new = 0.5 * (x + a / x)
        steps += 1
        if (new - x).abs().max() < 1e-6:
            break
        x = new
    return x, steps


def test_while_true_with_a_traced_break():
    f = ug.jit(convert(fixed_point))
    for values in ([4.0, 9.0], [1.0, 100.0]):
        root, steps = f(ug.tensor(values))
        expected_root, expected_steps = fixed_point(ug.tensor(values))
        assert np.allclose(root.numpy(), expected_root.numpy()) and int(steps) == expected_steps
    assert f.trace_count == 1


def power_sum(x, n):
    total = ug.zeros_like(x)
    term = ug.ones_like(x)
    for _ in range(n):
        term = term * x
        total = total + term
    return total


def test_for_range_with_a_traced_bound():
    f = ug.jit(convert(power_sum))
    x = ug.tensor([2.0, 3.0])
    assert np.allclose(f(x, ug.tensor(3)).numpy(), [14.0, 39.0])
    assert np.allclose(f(x, ug.tensor(1)).numpy(), [2.0, 3.0])
    assert f.trace_count == 1


def first_index_above(x, limit):
    found = -1
    for i in range(x.shape[0]):
        if x[i] > limit:
            found = i
            break
    return found


def test_break_on_a_traced_condition_in_a_python_loop():
    f = ug.jit(convert(first_index_above))
    x = ug.tensor([0.5, 3.0, 7.0])
    assert int(f(x, ug.tensor(1.0))) == 1 and int(f(x, ug.tensor(5.0))) == 2
    assert int(f(x, ug.tensor(9.0))) == -1
    assert f.trace_count == 1


def gated(x, y):
    if (x.sum() > 0 and y.sum() > 0) or not x.sum() < 10:
        return x * y
    return x + y


def test_and_or_not_on_traced_conditions():
    f = ug.jit(convert(gated))
    cases = [([1.0], [2.0]), ([1.0], [-2.0]), ([20.0], [-2.0]), ([-1.0], [2.0])]
    for x, y in cases:
        x, y = ug.tensor(x), ug.tensor(y)
        assert np.allclose(f(x, y).numpy(), gated(x, y).numpy())
    assert f.trace_count == 1


def relu_or_square_sum(x):
    return relu_or_square(x).sum()


def newton_sqrt_sum(x):
    return newton_sqrt(x)[0].sum()


@pytest.mark.parametrize("function", [relu_or_square_sum, newton_sqrt_sum])
def test_gradients_through_a_converted_if_and_while_match_eager(function):
    gradient = ug.jit(ug.grad(convert(function)))
    for values in ([1.0, 3.0], [0.5, -2.0] if function is relu_or_square_sum else [2.0, 5.0]):
        x = ug.tensor(values)
        assert np.allclose(gradient(x).numpy(), ug.grad(function)(x).numpy(), rtol=1e-4)
    assert gradient.trace_count == 1


def test_a_transform_of_a_user_function_converts_the_function():
    gradient = ug.jit(convert(ug.grad(early_return_sum)))
    for values in ([1.0, 2.0], [-1.0, -2.0]):
        x = ug.tensor(values)
        assert np.allclose(gradient(x).numpy(), ug.grad(early_return_sum)(x).numpy())
    assert gradient.trace_count == 1


def early_return_sum(x):
    if x.sum() > 0:
        return (x * x).sum()
    return (x * 3).sum()


def test_a_module_forward_with_an_if_is_converted_when_called():
    class Gate(ug.nn.Module):
        def __init__(self):
            super().__init__()
            self.linear = ug.nn.Linear(2, 2)

        def forward(self, x):
            y = self.linear(x)
            if y.sum() > 0:
                y = y * 10
            return y

    ug.manual_seed(0)
    gate = Gate()
    f = ug.jit(convert(gate))
    for x in (ug.tensor([[1.0, 2.0]]), ug.tensor([[-1.0, -2.0]])):
        assert np.allclose(f(x).detach().numpy(), gate(x).detach().numpy(), rtol=1e-5)
    assert f.trace_count == 1


def test_an_in_place_update_inside_a_traced_branch():
    weight = ug.tensor([1.0, 2.0])

    def step(x):
        if x.sum() > 0:
            weight.add_(x)
        return weight * 1

    f = ug.jit(convert(step))
    f(ug.tensor([1.0, 1.0]))
    assert np.allclose(weight.numpy(), [2.0, 3.0])
    f(ug.tensor([-5.0, 1.0]))
    assert np.allclose(weight.numpy(), [2.0, 3.0])
    assert f.trace_count == 1


def nested_early_returns(x):
    if x.sum() > 0:
        if x.max() > 5:
            return x * 100
        x = x + 1
    x = x * 2
    return x


def numbers_in_branches(x):
    if x.sum() > 0:
        scale, offset = 1, 3
    else:
        scale, offset = 2, 3
    return x * scale + offset


def conditional_expression(x):
    return x * 2 if x.sum() > 0 else x * 3


def sum_until(x, n):
    total = ug.zeros(())
    for _ in range(n):
        if total > 10:
            break
        total = total + x.sum()
    return total


def odd_sum(x, n):
    total = x.sum() * 0
    i = 0
    while i < n:
        i += 1
        if i % 2 == 0:
            continue
        total = total + i
    for j in range(1, n, 2):
        total = total + j
    return total


def return_in_a_nested_else(x):
    if x.sum() > 0:
        x = x + 1
    else:
        if x.max() > -1:
            return x * 100, "tag"
        x = x - 1
    return x * 2, "tag"


def number_or_tensor(x):
    if x.sum() > 0:
        y = x * 2
    else:
        y = 0  # becomes zeros of x's shape and dtype
    return y


def int_or_float(x):
    if x.sum() > 0:
        scale = 1
    else:
        scale = 2.5
    return x * scale


def accumulate(x, n):
    total = 0  # a Python int entering the loop: it takes the type the loop gives it
    for _ in range(n):
        total = total + x
    return total + x * 0


@pytest.mark.parametrize("function, argument_sets", [
    (return_in_a_nested_else, [([1.0, 0.5],), ([-0.5, -0.2],), ([-3.0, -2.0],)]),
    (number_or_tensor, [([1.0, 2.0],), ([-1.0, -2.0],)]),
    (int_or_float, [([1.0],), ([-1.0],)]),
    (accumulate, [([1.0, 2.0], 3), ([1.0, 2.0], 0)]),
    (nested_early_returns, [([1.0],), ([6.0],), ([-1.0],)]),
    (numbers_in_branches, [([1.0],), ([-1.0],)]),
    (conditional_expression, [([1.0],), ([-1.0],)]),
    (sum_until, [([2.0], 3), ([5.0], 10), ([1.0], 0)]),
    (odd_sum, [([1.0], 5), ([1.0], 6)]),
])
def test_traced_control_flow_matches_eager_with_one_trace(function, argument_sets):
    f = ug.jit(convert(function))
    for arguments in argument_sets:
        arguments = [ug.tensor(a) for a in arguments]
        expected = function(arguments[0], *[int(a) for a in arguments[1:]])
        result = f(*arguments)
        if isinstance(expected, tuple):  # (tensor, a Python string chosen with it)
            (expected, expected_tag), (result, tag) = expected, result
            assert tag == expected_tag
        assert np.allclose(result.numpy(), ug.as_tensor(expected).numpy())
    assert f.trace_count == 1


def test_an_optimizer_step_under_a_traced_condition():
    ug.manual_seed(0)
    model = ug.nn.Linear(2, 1)
    optimizer = ug.optim.SGD(model.parameters(), lr=0.1)

    def train_step(x, y):
        optimizer.zero_grad()
        loss = ((model(x) - y) ** 2).mean()
        loss.backward()
        if ug.isfinite(loss) and loss > 0.01:
            optimizer.step()
        return loss

    f = ug.jit(convert(train_step))
    x, y = ug.tensor([[1.0, 2.0]]), ug.tensor([[1.0]])
    before = model.weight.detach().numpy().copy()
    expected = before - 0.1 * ug.grad(lambda w: ((x @ w.T + model.bias - y) ** 2).mean())(
        model.weight.detach()).numpy()
    f(x, y)
    assert np.allclose(model.weight.detach().numpy(), expected, rtol=1e-5)
    after = model.weight.detach().numpy().copy()
    assert np.isnan(float(f(x, y * float("nan"))))  # no step on a non-finite loss
    assert np.array_equal(model.weight.detach().numpy(), after)
    assert f.trace_count == 1


def test_a_cell_construct_calling_super_is_converted():
    class Base(ug.nn.Cell):
        def scale(self, x):
            return x * 2

    class Doubler(Base):
        def scale(self, x):
            if x.sum() > 0:
                return super().scale(x)
            return x

        def construct(self, x):
            return self.scale(x) + 1

    cell = Doubler()
    for f in (ug.jit(convert(cell)), ug.jit(convert(cell._call_pynative))):  # GRAPH_MODE's
        assert np.allclose(f(ug.tensor([1.0])).numpy(), [3.0])
        assert np.allclose(f(ug.tensor([-1.0])).numpy(), [0.0])
        assert f.trace_count == 1


def test_a_lambda_converts_the_functions_it_calls():
    f = ug.jit(convert(lambda x, scale=2.0: relu_or_square(x) * scale if x.sum() < 100 else x))
    assert np.allclose(f(ug.tensor([3.0, -1.0])).numpy(), [12.0, 0.0])
    assert np.allclose(f(ug.tensor([-1.0, -1.0])).numpy(), [2.0, 2.0])
    assert f.trace_count == 1


def test_a_cell_with_hooks_is_called_as_it_is():
    class Doubler(ug.nn.Module):
        def forward(self, x):
            return x * 2

    cell = Doubler()
    cell.register_forward_hook(lambda module, inputs, output: output + 100)
    for f in (ug.jit(convert(cell)), ug.jit(convert(cell._call_pynative))):
        assert np.allclose(f(ug.tensor([1.0])).numpy(), [102.0])


def test_converted_call_converts_user_functions_only():
    x = ug.tensor(-2.0)
    assert float(ug.jit(lambda v: converted_call(helper_sign, v) * v)(x)) == 2.0
    assert converted_call(max, 1, 3) == 3
    assert converted_call(range, 3) == range(3)


# ----------------------------------------------------------------------------- random programs

_CONDITIONS = ["a.sum() > {c}", "b < {c}", "x.max() > {c}", "(a * a).sum() < {c}",
               "a.sum() > {c} and b < {d}", "not b > {c}", "x.min() < {c} or a.max() > {d}"]
_UPDATES = ["a = a + b", "a = a * 0.5", "b = b + a.sum() * 0.1", "a = ug.tanh(a)",
            "b = b * 0.9 + 0.1", "a = a - x", "b = (a * x).sum()"]


def _random_condition(rng) -> str:
    return rng.choice(_CONDITIONS).format(c=round(rng.uniform(-2, 2), 2),
                                          d=round(rng.uniform(-2, 2), 2))


def _random_block(rng, depth: int, pad: str) -> list:
    lines = []
    for number in range(rng.randint(1, 3)):
        kind = rng.choice(["update", "update", "if", "while", "for"]) if depth < 2 else "update"
        if kind == "update":
            lines.append(pad + rng.choice(_UPDATES))
        elif kind == "if":
            lines += [pad + f"if {_random_condition(rng)}:"] + \
                _random_block(rng, depth + 1, pad + "    ")
            if rng.random() < 0.6:
                lines += [pad + "else:"] + _random_block(rng, depth + 1, pad + "    ")
        elif kind == "while":
            counter = f"i{depth}{number}"
            lines += [pad + f"{counter} = 0",
                      pad + f"while ({_random_condition(rng)}) and {counter} < 4:",
                      pad + f"    {counter} += 1"] + _random_block(rng, depth + 1, pad + "    ")
            if rng.random() < 0.4:
                lines += [pad + f"    if {_random_condition(rng)}:", pad + "        break"]
        else:
            lines += [pad + "for k in range(n):", pad + "    b = b + k * 0.01"] + \
                _random_block(rng, depth + 1, pad + "    ")
            if rng.random() < 0.4:
                lines += [pad + f"    if {_random_condition(rng)}:", pad + "        continue"]
    return lines


def random_program(seed: int) -> str:
    """A function of a tensor ``x`` and a count ``n`` with nested, data-dependent ``if``/
    ``while``/``for`` (``break``, ``continue``, an early ``return``)."""
    rng = random.Random(seed)
    lines = [f"def program_{seed}(x, n):", "    a = x * 1.0", "    b = x.sum() * 0.0"]
    lines += _random_block(rng, 0, "    ")
    if rng.random() < 0.3:
        lines += [f"    if {_random_condition(rng)}:", "        return a * 2, b"]
    return "\n".join(lines + ["    return a, b", ""])


@pytest.fixture(scope="module")
def random_programs(tmp_path_factory):
    path = tmp_path_factory.mktemp("autograph") / "random_programs.py"
    path.write_text("import unigrad as ug\n\n\n" + "\n\n".join(
        random_program(seed) for seed in range(8)))
    spec = importlib.util.spec_from_file_location("random_programs", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return [getattr(module, f"program_{seed}") for seed in range(8)]


@pytest.mark.parametrize("seed", range(8))
def test_random_programs_match_eager_with_gradients(random_programs, seed):
    program = random_programs[seed]

    def loss(x, n):
        a, b = program(x, n)
        return a.sum() + b

    for values, n in (([0.5, -1.0, 2.0], 2), ([-1.5, 0.3, 0.1], 3)):
        x = ug.tensor(values)
        expected, result = program(x, n), ug.jit(convert(program))(x, ug.tensor(n))
        for want, got in zip(expected, result):
            assert np.allclose(got.numpy(), ug.as_tensor(want).numpy(), rtol=1e-4, atol=1e-5)
        gradient = ug.jit(ug.grad(convert(loss)))(x, ug.tensor(n))
        assert np.allclose(gradient.numpy(), ug.grad(loss)(x, n).numpy(), rtol=1e-3, atol=1e-4)


def nested_counts(x, n):
    for _ in range(n):
        for _ in range(n):
            x = x + 1
    return x


def test_a_traced_bound_inside_a_traced_loop_serves_every_call():
    f = ug.jit(convert(nested_counts))
    assert float(f(ug.zeros(()), ug.tensor(2))) == 4.0
    assert float(f(ug.zeros(()), ug.tensor(3))) == 9.0


# ----------------------------------------------------------------------------- errors

def one_branch_only(x):
    if x.sum() > 0:
        y = x * 2
    return y


def changes_shape(x):
    while x.sum() < 100:
        x = ug.cat([x, x])
    return x


def appends(x, results):
    if x.sum() > 0:
        results.append(x)
    return x


def appends_in_loop(x, n, results):
    for _ in range(n):
        results.append(x)
    return x


def _line_of(function, text: str) -> int:
    lines, first = inspect.getsourcelines(function)
    return first + next(i for i, line in enumerate(lines) if text in line)


@pytest.mark.parametrize("x", [[1.0], [-1.0]])
def test_a_variable_defined_in_one_branch_is_an_error_on_the_first_call(x):
    line = _line_of(one_branch_only, "if x.sum()")
    with pytest.raises(AutographError, match=rf"test_autograph\.py:{line}: `y` is assigned only "):
        ug.jit(convert(one_branch_only))(ug.tensor(x))
    assert issubclass(AutographError, ConcretizationError)
    assert issubclass(AutographError, TypeError)


def test_a_loop_variable_changing_shape_is_an_error():
    line = _line_of(changes_shape, "while")
    with pytest.raises(AutographError, match=rf"test_autograph\.py:{line}: `x` enters the loop "
                       r"as a tensor f32\[1\] and one iteration makes it a tensor f32\[2\]"):
        ug.jit(convert(changes_shape))(ug.tensor([1.0]))


def test_a_python_side_effect_in_a_traced_branch_is_an_error():
    results = []
    line = _line_of(appends, "if x.sum()")
    with pytest.raises(AutographError, match=rf"test_autograph\.py:{line}: the true branch of "
                       r"the `if` modifies `results` \(a Python list\)"):
        ug.jit(convert(appends))(ug.tensor([-1.0]), results)
    convert(appends)(ug.tensor([1.0]), results)  # with values: Python's semantics
    assert len(results) == 1 and np.allclose(results[0].numpy(), [1.0])


CALLS = 0


def counts_calls(x):
    global CALLS
    if x.sum() > 0:
        CALLS += 1
    return x


def test_assigning_a_global_in_a_traced_branch_is_an_error():
    line = _line_of(counts_calls, "if x.sum()")
    with pytest.raises(AutographError, match=rf"test_autograph\.py:{line}: the true branch of "
                       r"the `if` assigns `CALLS`, a variable of an enclosing scope"):
        ug.jit(convert(counts_calls))(ug.tensor([1.0]))
    before = CALLS
    convert(counts_calls)(ug.tensor([1.0]))  # with values: Python's semantics
    assert CALLS == before + 1


def test_a_python_side_effect_in_a_traced_loop_is_an_error():
    line = _line_of(appends_in_loop, "for _ in")
    with pytest.raises(AutographError, match=rf"test_autograph\.py:{line}: the body of the loop "
                       r"modifies `results`"):
        ug.jit(convert(appends_in_loop))(ug.tensor([1.0]), ug.tensor(2), [])


def search(x, n):
    for i in range(n):
        if x.sum() < i:
            return x * i
    return x


def test_a_return_inside_a_traced_loop():
    f = ug.jit(convert(search))
    for values, n in (([1.5], 5), ([1.5], 2), ([-1.0], 3), ([1.0], 0)):
        x = ug.tensor(values)
        assert np.allclose(f(x, ug.tensor(n)).numpy(), search(x, n).numpy())
    assert f.trace_count == 1


def test_python_objects_a_traced_condition_chooses_between_are_an_error():
    def labelled(x):
        label = "positive" if x.sum() > 0 else "negative"
        return x, label

    with pytest.raises(AutographError, match=r"holds 'negative' in one branch of the `if` and "
                       r"'positive' in the other"):
        ug.jit(convert(labelled))(ug.tensor([1.0]))


def test_a_condition_of_many_elements_is_an_error():
    def positive(x):
        if x > 0:
            x = x * 2
        return x

    with pytest.raises(AutographError, match=r"the condition is a tensor of shape \(2,\)"):
        ug.jit(convert(positive))(ug.tensor([1.0, 2.0]))
