"""Layers built without ``dtype=`` take the default floating dtype, as PyTorch's do."""

from __future__ import annotations

import pytest

import unigrad as ug


@pytest.fixture
def float64_default():
    ug.set_default_dtype(ug.float64)
    yield
    ug.set_default_dtype(ug.float32)


@pytest.mark.parametrize("build", [
    lambda: ug.nn.Linear(2, 3).weight,
    lambda: ug.nn.Conv2d(1, 2, 3).bias,
    lambda: ug.nn.LSTM(2, 4).weight_hh_l0,
    lambda: ug.nn.LayerNorm(3).weight,
    lambda: ug.nn.BatchNorm1d(3).running_var,
    lambda: ug.nn.Embedding(5, 2).weight,
    lambda: ug.nn.MultiheadAttention(4, 2).in_proj_weight,
], ids=["Linear", "Conv2d", "LSTM", "LayerNorm", "BatchNorm1d", "Embedding",
        "MultiheadAttention"])
def test_layers_follow_the_default_dtype(float64_default, build):
    assert build().dtype == ug.float64


def test_explicit_dtype_wins_and_mindspore_dense_stays_float32(float64_default):
    assert ug.nn.Linear(2, 3, dtype=ug.float32).weight.dtype == ug.float32
    assert ug.nn.Dense(2, 3).weight.dtype == ug.float32  # MindSpore's default is float32
