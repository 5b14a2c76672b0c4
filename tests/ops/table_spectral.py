"""Op-table specs for ``unigrad/ops/spectral.py``: the ``ug.fft`` transforms (values vs
``numpy.fft``; complex gradients by PyTorch's convention), frequencies and shifts."""

from __future__ import annotations

import numpy as np

import unigrad as ug

from .spec import OpSpec, Sample, normal
from .table_complex_numbers import complex_normal


def signals(rng, sampler) -> list[Sample]:
    return [Sample((sampler(rng, 6),), label="vector"),
            Sample((sampler(rng, 3, 5),), label="batch"),
            Sample((sampler(rng, 4),), {"n": 7}, label="padded"),
            Sample((sampler(rng, 2, 6),), {"n": 3, "dim": 0, "norm": "ortho"}, label="trimmed"),
            Sample((sampler(rng, 5),), {"norm": "forward"}, label="forward")]


def planes(rng, sampler) -> list[Sample]:
    return [Sample((sampler(rng, 3, 4),), label="matrix"),
            Sample((sampler(rng, 2, 3, 4),), {"s": (4, 6)}, label="resized"),
            Sample((sampler(rng, 3, 4, 2),), {"dim": (0, 2), "norm": "ortho"}, label="dims")]


def _numpy(name: str):
    function = getattr(np.fft, name)

    def reference(x, n=None, dim=-1, norm=None, s=None):
        if name.endswith("n") or name.endswith("2"):
            axes = dim if dim != -1 else None
            if name.endswith("2") and axes is None:
                axes = (-2, -1)
            return function(x, s=s, axes=axes, norm=norm)
        return function(x, n=n, axis=dim, norm=norm)
    return reference


def _half_spectrum(rng, *shape) -> np.ndarray:
    return complex_normal(rng, *shape)


OPS = [
    OpSpec("fft.fft", ug.fft.fft, _numpy("fft"), lambda rng: signals(rng, complex_normal),
           primitives=("fft_c2c",)),
    OpSpec("fft.fft (real)", ug.fft.fft, _numpy("fft"), lambda rng: signals(rng, normal)),
    OpSpec("fft.ifft", ug.fft.ifft, _numpy("ifft"), lambda rng: signals(rng, complex_normal)),
    OpSpec("fft.rfft", ug.fft.rfft, _numpy("rfft"), lambda rng: signals(rng, normal),
           primitives=("fft_r2c",)),
    OpSpec("fft.irfft", ug.fft.irfft, _numpy("irfft"), lambda rng: signals(rng, _half_spectrum),
           primitives=("fft_c2r",)),
    OpSpec("fft.hfft", ug.fft.hfft, _numpy("hfft"), lambda rng: signals(rng, _half_spectrum)),
    OpSpec("fft.ihfft", ug.fft.ihfft, _numpy("ihfft"), lambda rng: signals(rng, normal)),
    OpSpec("fft.fft2", ug.fft.fft2, _numpy("fft2"), lambda rng: planes(rng, complex_normal)),
    OpSpec("fft.ifftn", ug.fft.ifftn, _numpy("ifftn"), lambda rng: planes(rng, complex_normal)),
    OpSpec("fft.rfftn", ug.fft.rfftn, _numpy("rfftn"), lambda rng: planes(rng, normal)),
    OpSpec("fft.irfftn", ug.fft.irfftn, _numpy("irfftn"), lambda rng: planes(rng, complex_normal)),
    OpSpec("fft.fftshift", ug.fft.fftshift, lambda x, dim=None: np.fft.fftshift(x, axes=dim),
           lambda rng: [Sample((complex_normal(rng, 3, 5),)),
                        Sample((normal(rng, 4, 3),), {"dim": 0}, label="dim")]),
    OpSpec("fft.ifftshift", ug.fft.ifftshift, lambda x, dim=None: np.fft.ifftshift(x, axes=dim),
           lambda rng: [Sample((complex_normal(rng, 3, 5),)),
                        Sample((normal(rng, 5),), {"dim": 0}, label="dim")]),
]
