# Seed 004, "torch.autograd": backward accumulates; only the import lines are changed.
# The seed prints nothing here.
import unigrad.compat.torch as torch
from unigrad.compat.torch.autograd import Variable

x = Variable(torch.ones(2, 2),
             requires_grad=True)
x = x * 2
y = x - 1
y.backward(x)
