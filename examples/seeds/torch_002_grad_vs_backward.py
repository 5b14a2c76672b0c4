# The PyTorch ">>>" session of seed 002, written as a script: each expression the
# session displays is print()ed. Only the import line is changed. The inputs are
# random, so the printed numbers vary; dL/dx1 == 2 * x1 and dL/dx2 == 5 always, and
# both interfaces give the same gradients.
import unigrad.compat.torch as torch

x1 = torch.rand(1, requires_grad=True)
x2 = torch.rand(1, requires_grad=True)
print((x1, x2))

y = x1**2 + 5*x2
print(y)

# torch.autograd.grad
print(torch.autograd.grad(y, (x1, x2), torch.ones_like(y)))

# torch.autograd.backward: as the seed says, x1, x2 and y are defined again first
# (autograd.grad above freed y's graph).
x1 = torch.rand(1, requires_grad=True)
x2 = torch.rand(1, requires_grad=True)
y = x1**2 + 5*x2
# y.backward(torch.ones_like(y))
print(torch.autograd.backward(y, torch.ones_like(y)))
print((x1.grad, x2.grad))
