# Seed 004, the PyTorch side of "multiple outputs"; only the import line is changed.
# 不支持多个输出
import unigrad.compat.torch as torch  # noqa: I001 - the seed has no blank line here
print("=== torch.autograd.backward 不支持多个output ===")
x = torch.tensor(1.0, requires_grad=True)
y = torch.tensor(2.0, requires_grad=True)
z = x**2+y
torch.autograd.backward(z)

print("z", z)
print("x.grad", x.grad)
print("y.grad", y.grad)
