"""A small Cell with two Parameters used by the grad-structure tables."""

from __future__ import annotations

import pytest

import unigrad as ug


class ProductNet(ug.nn.Cell):
    """``sum(x * y * z * w) + b`` with Parameters ``w`` and ``b``."""

    def __init__(self):
        super().__init__()
        self.w = ug.nn.Parameter([2.0, 2.0], "w")
        self.b = ug.nn.Parameter(1.0, "b")

    def construct(self, x, y, z):
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
