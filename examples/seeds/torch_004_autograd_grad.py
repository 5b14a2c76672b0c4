# Seed 004, "torch.autograd.grad"; only the import line is changed.
import unigrad.compat.torch as torch  # noqa: I001 - the seed has no blank line here
print("=== torch.autograd.grad ===")
x = torch.tensor(1.0, requires_grad=True)
y = torch.tensor(2.0, requires_grad=True)
z = x**2+y
out = torch.autograd.grad(z, x)
out1 = torch.autograd.grad(z, y)
print("out", out)
print("out1", out1)
