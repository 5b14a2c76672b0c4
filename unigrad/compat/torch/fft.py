"""``torch.fft`` spelled on unigrad: ``import unigrad.compat.torch as torch`` then
``torch.fft.rfft(x)``.

The functions are :mod:`unigrad.fft`'s (PyTorch's signatures and semantics, all
differentiable, gradients in PyTorch's conjugate-Wirtinger convention); the
transforms and ``fftfreq``/``rfftfreq`` also take PyTorch's ``out=`` keyword
(see :mod:`unigrad.compat.torch._out`). ``fftshift``/``ifftshift`` take no
``out=``, as in PyTorch.

Example:
    >>> import unigrad.compat.torch as torch
    >>> torch.fft.fft(torch.tensor([1.0, 2.0, 3.0, 4.0]))
    tensor([10.+0.j, -2.+2.j, -2.+0.j, -2.-2.j])
    >>> x = torch.tensor([1.0, 0.0, -1.0, 0.0], requires_grad=True)
    >>> torch.fft.irfft(torch.fft.rfft(x), n=4)
    tensor([ 1.,  0., -1.,  0.], grad_fn=<...>)
    >>> result = torch.zeros(3, dtype=torch.complex64)
    >>> torch.fft.rfft(torch.tensor([1.0, 1.0, 1.0, 1.0]), out=result)
    tensor([4.+0.j, 0.+0.j, 0.+0.j])
"""

from __future__ import annotations

from unigrad import fft as _fft

from ._out import with_out

__all__ = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fft2", "ifft2", "rfft2", "irfft2",
           "hfft2", "ihfft2", "fftn", "ifftn", "rfftn", "irfftn", "hfftn", "ihfftn", "fftfreq",
           "rfftfreq", "fftshift", "ifftshift"]

# the transforms and the frequency grids take ``out=`` in PyTorch; the shifts do not
fft = with_out(_fft.fft)
ifft = with_out(_fft.ifft)
rfft = with_out(_fft.rfft)
irfft = with_out(_fft.irfft)
hfft = with_out(_fft.hfft)
ihfft = with_out(_fft.ihfft)
fft2 = with_out(_fft.fft2)
ifft2 = with_out(_fft.ifft2)
rfft2 = with_out(_fft.rfft2)
irfft2 = with_out(_fft.irfft2)
hfft2 = with_out(_fft.hfft2)
ihfft2 = with_out(_fft.ihfft2)
fftn = with_out(_fft.fftn)
ifftn = with_out(_fft.ifftn)
rfftn = with_out(_fft.rfftn)
irfftn = with_out(_fft.irfftn)
hfftn = with_out(_fft.hfftn)
ihfftn = with_out(_fft.ihfftn)
fftfreq = with_out(_fft.fftfreq)
rfftfreq = with_out(_fft.rfftfreq)
fftshift = _fft.fftshift
ifftshift = _fft.ifftshift
