# ruff: noqa  (seed code kept verbatim, apart from its import lines)
# Seed 004 (MindSpore gradient guide), verbatim apart from the import lines.
import unigrad.compat.mindspore as mindspore
print("=== mindspore.grad ===")
x = mindspore.Tensor(1.0)
y = mindspore.Tensor(2.0)
def net(x, y):
    return x**2+y
out = mindspore.grad(net, grad_position=0)(x, y)
print("out", out)
out1 = mindspore.grad(net, grad_position=1)(x, y)
print("out1", out1)
