# Seed 004, "torch.autograd.backward": z.backward() and torch.autograd.backward(z) agree.
# Only the import line is changed. (The seed's "grad_fn=" lost its "<AddBackward0>".)
# 在调用backward函数之前,x.grad和y.grad函数为空
# backward计算过后,x.grad和y.grad分别代表导数计算后的值
import unigrad.compat.torch as torch  # noqa: I001 - the seed has no blank line here
print("=== tensor.backward ===")
x = torch.tensor(1.0, requires_grad=True)
y = torch.tensor(2.0, requires_grad=True)
z = x**2+y
print("x.grad before backward", x.grad)
print("y.grad before backward", y.grad)
z.backward()
print("z", z)
print("x.grad", x.grad)
print("y.grad", y.grad)
print("=== torch.autograd.backward ===")
x = torch.tensor(1.0, requires_grad=True)
y = torch.tensor(2.0, requires_grad=True)
z = x**2+y
torch.autograd.backward(z)
print("z", z)
print("x.grad", x.grad)
print("y.grad", y.grad)
