"""``unigrad.fft``: discrete Fourier transforms with ``torch.fft``'s names and semantics.

Every transform is differentiable (complex gradients by PyTorch's convention);
see :mod:`unigrad.ops.spectral`.

Example:
    >>> import unigrad as ug
    >>> ug.fft.irfft(ug.fft.rfft(ug.tensor([1.0, 2.0, 3.0, 4.0])))
    tensor([1., 2., 3., 4.])
"""

from .ops.spectral import (
    fft,
    fft2,
    fftfreq,
    fftn,
    fftshift,
    hfft,
    hfft2,
    hfftn,
    ifft,
    ifft2,
    ifftn,
    ifftshift,
    ihfft,
    ihfft2,
    ihfftn,
    irfft,
    irfft2,
    irfftn,
    rfft,
    rfft2,
    rfftfreq,
    rfftn,
)

__all__ = ["fft", "fft2", "fftfreq", "fftn", "fftshift", "hfft", "hfft2", "hfftn", "ifft", "ifft2",
           "ifftn", "ifftshift", "ihfft", "ihfft2", "ihfftn", "irfft", "irfft2", "irfftn", "rfft",
           "rfft2", "rfftfreq", "rfftn"]
