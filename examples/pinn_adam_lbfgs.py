"""A physics-informed network in the style of the public PyTorch PINN scripts.

Only the imports differ from the PyTorch original: a float64 tanh network
learns the solution of the 1-D Poisson problem u''(x) = -pi^2 sin(pi x) on
[-1, 1] with u(-1) = u(1) = 0 (exact solution sin(pi x)). Its loss holds the
network's own second derivative, taken with ``torch.autograd.grad(...,
create_graph=True)``; training runs Adam first, then L-BFGS with the strong
Wolfe line search, the usual PINN recipe.

Run: ``python examples/pinn_adam_lbfgs.py``.
"""

import unigrad.compat.torch as torch  # was: import torch
import unigrad.compat.torch.nn as nn  # was: import torch.nn as nn

torch.manual_seed(1234)
torch.set_default_dtype(torch.float64)


class PINN(nn.Module):
    def __init__(self, layers):
        super().__init__()
        self.activation = nn.Tanh()
        self.linears = nn.ModuleList(
            [nn.Linear(layers[i], layers[i + 1]) for i in range(len(layers) - 1)])
        for linear in self.linears:
            nn.init.xavier_normal_(linear.weight.data, gain=1.0)
            nn.init.zeros_(linear.bias.data)

    def forward(self, x):
        for linear in self.linears[:-1]:
            x = self.activation(linear(x))
        return self.linears[-1](x)


def source(x):
    return -(torch.pi ** 2) * torch.sin(torch.pi * x)


model = PINN([1, 16, 16, 1])
x_interior = torch.linspace(-1, 1, 64).reshape(-1, 1).requires_grad_(True)
x_boundary = torch.tensor([[-1.0], [1.0]])
u_boundary = torch.zeros(2, 1)
mse = nn.MSELoss()


def loss_function():
    u = model(x_interior)
    u_x = torch.autograd.grad(u, x_interior, torch.ones_like(u), create_graph=True)[0]
    u_xx = torch.autograd.grad(u_x, x_interior, torch.ones_like(u_x), create_graph=True)[0]
    loss_pde = mse(u_xx, source(x_interior))
    loss_bc = mse(model(x_boundary), u_boundary)
    return loss_pde + loss_bc


optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(300):
    optimizer.zero_grad()
    loss = loss_function()
    loss.backward()
    optimizer.step()
    if epoch % 100 == 0:
        print(f"Adam epoch {epoch:4d}  loss {loss.item():.3e}")
adam_loss = loss.item()

optimizer = torch.optim.LBFGS(model.parameters(), lr=1.0, max_iter=200, max_eval=250,
                              history_size=50, tolerance_grad=1e-9, tolerance_change=1e-12,
                              line_search_fn="strong_wolfe")


def closure():
    optimizer.zero_grad()
    loss = loss_function()
    loss.backward()
    return loss


optimizer.step(closure)
final_loss = loss_function().item()
print(f"after Adam: loss {adam_loss:.3e}; after L-BFGS: loss {final_loss:.3e}")

x_test = torch.linspace(-1, 1, 201).reshape(-1, 1)
with torch.no_grad():
    error = (model(x_test) - torch.sin(torch.pi * x_test)).abs().max().item()
print(f"max |u - sin(pi x)| on [-1, 1]: {error:.2e}")
assert final_loss < adam_loss / 100 and error < 1e-2, (final_loss, error)
