"""The PyTorch examples of ../shared/seeds, with ``torch`` renamed to ``unigrad``.

Each snippet runs unchanged apart from that rename and must print what the
seed documents (seed 004's ``grad_fn=`` lost its ``<...>`` in the markdown).
"""

import contextlib
import io
import textwrap

import pytest

import unigrad


def run(snippet: str) -> list:
    output = io.StringIO()
    with contextlib.redirect_stdout(output):
        exec(textwrap.dedent(snippet), {"unigrad": unigrad})
    return output.getvalue().splitlines()


def test_seed_000_backward_and_grad():
    lines = run("""
        import unigrad
        x = unigrad.tensor(2., requires_grad=True)
        y = unigrad.tensor(3., requires_grad=True)
        z = x * x * y
        z.backward()
        print(x.grad, y.grad)

        x = unigrad.tensor(2.).requires_grad_()
        y = unigrad.tensor(3.).requires_grad_()
        z = x * x * y
        grad_x = unigrad.autograd.grad(outputs=z, inputs=x)
        print(grad_x[0])
    """)
    assert lines == ["tensor(12.) tensor(4.)", "tensor(12.)"]


def test_seed_002_grad_and_backward_agree():
    lines = run("""
        import unigrad
        x1 = unigrad.tensor([0.3939], requires_grad=True)
        x2 = unigrad.tensor([0.7965], requires_grad=True)
        y = x1**2 + 5*x2
        print(y)
        print(unigrad.autograd.grad(y, (x1, x2), unigrad.ones_like(y)))

        x1 = unigrad.tensor([0.3939], requires_grad=True)
        x2 = unigrad.tensor([0.7965], requires_grad=True)
        y = x1**2 + 5*x2
        print(unigrad.autograd.backward(y, unigrad.ones_like(y)))
        print((x1.grad, x2.grad))
    """)
    assert lines == ["tensor([4.1377], grad_fn=<AddBackward0>)",
                     "(tensor([0.7878]), tensor([5.]))",
                     "None",
                     "(tensor([0.7878]), tensor([5.]))"]


def test_seed_002_rand_inputs_run():
    lines = run("""
        import unigrad
        x1 = unigrad.rand(1, requires_grad=True)
        x2 = unigrad.rand(1, requires_grad=True)
        y = x1**2 + 5*x2
        g1, g2 = unigrad.autograd.grad(y, (x1, x2), unigrad.ones_like(y))
        print(bool(abs(g1 - 2 * x1.detach()).item() < 1e-6), g2)
    """)
    assert lines == ["True tensor([5.])"]


def test_seed_004_variable_backward_with_a_tensor_gradient():
    lines = run("""
        import unigrad
        from unigrad.autograd import Variable

        x = Variable(unigrad.ones(2, 2),
                     requires_grad=True)
        x = x * 2
        y = x - 1
        y.backward(x)
        print(x.grad_fn.name(), y.requires_grad)
    """)
    assert lines == ["MulBackward0 True"]


def test_seed_004_tensor_backward_and_autograd_backward():
    lines = run("""
        import unigrad
        print("=== tensor.backward ===")
        x = unigrad.tensor(1.0, requires_grad=True)
        y = unigrad.tensor(2.0, requires_grad=True)
        z = x**2+y
        print("x.grad before backward", x.grad)
        print("y.grad before backward", y.grad)
        z.backward()
        print("z", z)
        print("x.grad", x.grad)
        print("y.grad", y.grad)
        print("=== unigrad.autograd.backward ===")
        x = unigrad.tensor(1.0, requires_grad=True)
        y = unigrad.tensor(2.0, requires_grad=True)
        z = x**2+y
        unigrad.autograd.backward(z)
        print("z", z)
        print("x.grad", x.grad)
        print("y.grad", y.grad)
    """)
    assert lines == ["=== tensor.backward ===",
                     "x.grad before backward None",
                     "y.grad before backward None",
                     "z tensor(3., grad_fn=<AddBackward0>)",
                     "x.grad tensor(2.)",
                     "y.grad tensor(1.)",
                     "=== unigrad.autograd.backward ===",
                     "z tensor(3., grad_fn=<AddBackward0>)",
                     "x.grad tensor(2.)",
                     "y.grad tensor(1.)"]


def test_seed_004_autograd_grad():
    lines = run("""
        import unigrad
        x = unigrad.tensor(1.0, requires_grad=True)
        y = unigrad.tensor(2.0, requires_grad=True)
        z = x**2+y
        out = unigrad.autograd.grad(z, x, retain_graph=True)
        out1 = unigrad.autograd.grad(z, y)
        print("out", out)
        print("out1", out1)
    """)
    assert lines == ["out (tensor(2.),)", "out1 (tensor(1.),)"]


def test_seed_004_autograd_grad_twice_without_retain_graph():
    # The seed calls grad twice on the same z; PyTorch allows it because
    # x**2 + y's second call only reaches nodes that saved nothing for y.
    lines = run("""
        import unigrad
        x = unigrad.tensor(1.0, requires_grad=True)
        y = unigrad.tensor(2.0, requires_grad=True)
        z = x**2+y
        out = unigrad.autograd.grad(z, x)
        out1 = unigrad.autograd.grad(z, y)
        print("out", out)
        print("out1", out1)
    """)
    assert lines == ["out (tensor(2.),)", "out1 (tensor(1.),)"]


def test_seed_004_no_grad_and_enable_grad():
    lines = run("""
        import unigrad
        x = unigrad.tensor(1.0, requires_grad=True)
        y = unigrad.tensor(2.0, requires_grad=True)
        z = x**2+y
        print("z.requires_grad", z.requires_grad)
        with unigrad.no_grad():
            z = x**2+y
        print("z.requires_grad", z.requires_grad)
        with unigrad.no_grad():
            z = x**2+y
        print("z.requires_grad", z.requires_grad)
        with unigrad.enable_grad():
            z = x**2+y
        print("z.requires_grad", z.requires_grad)
    """)
    assert lines == ["z.requires_grad True", "z.requires_grad False",
                     "z.requires_grad False", "z.requires_grad True"]


def test_seed_004_pow_node_is_released_after_backward():
    x = unigrad.tensor(1.0, requires_grad=True)
    z = x ** 2
    unigrad.autograd.grad(z, x)
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        unigrad.autograd.grad(z, x)
