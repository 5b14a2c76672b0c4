"""Random number generators: PyTorch's ``Generator`` over NumPy's PCG64.

Every sampler takes ``generator=`` (a :class:`Generator`, or None for
:data:`default_generator`, the one ``manual_seed`` seeds). All draws hold one
process-wide lock, so threads never interleave inside a draw.

A generator's state is a uint8 tensor (:meth:`Generator.get_state`) of
:data:`STATE_BYTES` bytes: the seed, PCG64's 128-bit state and increment, and
its buffered 32-bit half-word, little-endian; it round-trips exactly.

Seeding, reading and restoring the state are primitives
(:mod:`unigrad.ops.random_draw`), as drawing is: inside ``ug.jit`` they happen
at every call of the compiled function, in program order with the draws, so
``manual_seed(0)`` or ``set_state(saved)`` inside a jitted function replays the
same numbers at each call, as it does eagerly. Tracing never changes a generator.

Example:
    >>> import unigrad as ug
    >>> g = ug.Generator().manual_seed(5)
    >>> a = ug.rand(3, generator=g)
    >>> bool((ug.rand(3, generator=ug.Generator().manual_seed(5)) == a).all())
    True
"""

from __future__ import annotations

import numbers
import os
import threading

import numpy as np

from .. import backend
from ..tensor import Tensor, _make_tensor
from ._primitive import bind

LOCK = threading.Lock()

_SEED_MODULUS = 2 ** 64
STATE_BYTES = 8 + 16 + 16 + 4 + 4
_FIELDS = (("seed", 8), ("state", 16), ("inc", 16), ("has_uint32", 4), ("uinteger", 4))


class Generator:
    """A random number generator (PyTorch ``torch.Generator(device='cpu')``).

    Example:
        >>> import unigrad as ug
        >>> g = ug.Generator()
        >>> g.manual_seed(7) is g
        True
        >>> g.initial_seed()
        7
        >>> state = g.get_state()
        >>> a = ug.randn(2, generator=g)
        >>> _ = g.set_state(state)
        >>> bool((ug.randn(2, generator=g) == a).all())
        True
    """

    def __init__(self, device="cpu") -> None:
        self.device = backend.Device(device)
        if self.device.type != "cpu":
            raise RuntimeError(f"Generator: only device 'cpu' is supported, got {device!r}")
        self._seed = 67280421310721
        self._numpy = np.random.Generator(np.random.PCG64(self._seed))

    def __repr__(self) -> str:
        return f"<unigrad.Generator object at {id(self):#x}>"

    def manual_seed(self, seed: int) -> Generator:
        """Seed the generator (any integer in [-2**63, 2**64)); returns self."""
        if isinstance(seed, Tensor):
            seed = seed.item()
        if not isinstance(seed, numbers.Real):
            raise TypeError(f"manual_seed expected an int seed, got {type(seed).__name__}")
        seed = int(seed)
        if not -2 ** 63 <= seed < _SEED_MODULUS:
            raise ValueError("Overflow when unpacking long long")
        from .random_draw import random_seed_p
        bind(random_seed_p, generator=self, seed=seed % _SEED_MODULUS)
        return self

    def _reseed(self, seed: int) -> None:
        """Seed now (``random_seed``'s kernel; ``seed`` already checked, in [0, 2**64))."""
        with LOCK:
            self._seed = seed
            self._numpy.bit_generator.state = np.random.PCG64(seed).state

    def seed(self) -> int:
        """Seed from the operating system's entropy; returns the new seed."""
        seed = int.from_bytes(os.urandom(8), "little") >> 1
        self.manual_seed(seed)
        return seed

    def initial_seed(self) -> int:
        """The seed last set by :meth:`manual_seed` or :meth:`seed`."""
        return self._seed

    def get_state(self) -> Tensor:
        """The generator's full state as a uint8 tensor (see the module docstring)."""
        from .random_draw import random_state_p
        return _make_tensor(bind(random_state_p, generator=self))

    def set_state(self, new_state: Tensor) -> Generator:
        """Restore a state from :meth:`get_state`; returns self."""
        if not isinstance(new_state, Tensor):
            raise TypeError(f"expected a unigrad.uint8 tensor, but got "
                            f"{type(new_state).__name__}")
        if new_state._data.dtype != np.uint8:
            raise TypeError("RNG state must be a unigrad.uint8 tensor")
        if new_state._data.size != STATE_BYTES:
            raise RuntimeError(f"Expected a generator state of size {STATE_BYTES} but found the "
                               f"input RNG state size to be {new_state._data.size}")
        from .random_draw import random_set_state_p
        bind(random_set_state_p, new_state.detach(), generator=self)
        return self

    def _state_bytes(self) -> np.ndarray:
        """The state now, as :data:`STATE_BYTES` uint8 values (``random_state``'s kernel)."""
        with LOCK:
            state = self._numpy.bit_generator.state
            seed = self._seed
        values = {"seed": seed, "state": state["state"]["state"],
                  "inc": state["state"]["inc"], "has_uint32": state["has_uint32"],
                  "uinteger": state["uinteger"]}
        data = b"".join(int(values[name]).to_bytes(size, "little") for name, size in _FIELDS)
        return np.frombuffer(data, dtype=np.uint8).copy()

    def _restore(self, state_bytes) -> None:
        """Restore a state from :meth:`_state_bytes`' layout now (``random_set_state``'s kernel)."""
        data = backend.to_numpy(state_bytes).reshape(-1).tobytes()
        values, offset = {}, 0
        for name, size in _FIELDS:
            values[name] = int.from_bytes(data[offset:offset + size], "little")
            offset += size
        state = {"bit_generator": "PCG64",
                 "state": {"state": values["state"], "inc": values["inc"]},
                 "has_uint32": values["has_uint32"], "uinteger": values["uinteger"]}
        with LOCK:
            self._numpy.bit_generator.state = state
            self._seed = values["seed"]


default_generator = Generator()
default_generator._reseed(0)


def numpy_generator(generator: Generator | None) -> np.random.Generator:
    """The NumPy generator behind ``generator=`` (the default one for None)."""
    if generator is None:
        return default_generator._numpy
    if not isinstance(generator, Generator):
        raise TypeError(f"generator must be a unigrad.Generator or None, got "
                        f"{type(generator).__name__}")
    return generator._numpy
