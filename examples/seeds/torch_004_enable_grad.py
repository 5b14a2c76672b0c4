# Seed 004, "torch.enable_grad"; only the import line is changed.
import unigrad.compat.torch as torch  # noqa: I001 - the seed has no blank line here
print("=== torch.enable_grad ===")
x = torch.tensor(1.0, requires_grad=True)
y = torch.tensor(2.0, requires_grad=True)
with torch.no_grad():
    z = x**2+y
print("z.requires_grad", z.requires_grad)
with torch.enable_grad():
    z = x**2+y
print("z.requires_grad", z.requires_grad)
