"""Stand-ins for MindSpore's Parameter and Cell until the nn issue lands them."""

from __future__ import annotations

import pytest

import unigrad as ug


class NamedParameter(ug.Tensor):
    """A leaf tensor that requires grad and has a ``name`` (what transforms read)."""

    __slots__ = ("name",)

    def __init__(self, data, name: str):
        super().__init__(data)
        self.requires_grad_(True)
        self.name = name


class ProductNet:
    """``sum(x * y * z * w) + b`` with Parameters ``w`` and ``b``, called like a Cell."""

    def __init__(self):
        self.w = NamedParameter([2.0, 2.0], "w")
        self.b = NamedParameter(1.0, "b")

    def trainable_params(self) -> list:
        return [self.w, self.b]

    def __call__(self, x, y, z):
        return (x * y * z * self.w).sum() + self.b


@pytest.fixture
def net() -> ProductNet:
    return ProductNet()


@pytest.fixture
def xyz() -> tuple:
    return ug.tensor([1.0, 2.0]), ug.tensor([3.0, 4.0]), ug.tensor([5.0, 6.0])


# closed-form gradients of ProductNet at xyz
GX, GY, GZ = [30.0, 48.0], [10.0, 24.0], [6.0, 16.0]
GW, GB = [15.0, 48.0], 1.0
VALUE = 2 * (15.0 + 48.0) + 1.0
