"""All unigrad ops: primitives (declared once in their family module) and composites."""

from __future__ import annotations

from . import creation, elementwise, inplace, methods, reduce, shape
from ._primitive import PRIMITIVES, Primitive, bind
from .creation import *  # noqa: F401,F403
from .elementwise import *  # noqa: F401,F403
from .reduce import *  # noqa: F401,F403
from .shape import *  # noqa: F401,F403
from .device import clone, to_device  # noqa: F401

_FAMILIES = []


def _load_families():
    """Import optional families (added module by module) and collect their method tables."""
    import importlib
    tables = []
    for name in ("indexing", "linalg", "nn_functional"):
        try:
            module = importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as error:
            if error.name != f"{__name__}.{name}":
                raise
            continue
        _FAMILIES.append(module)
        for public in getattr(module, "__all__", ()):
            globals()[public] = getattr(module, public)
        tables.append(getattr(module, "TENSOR_METHODS", {}))
    for module in (reduce, shape):
        tables.append(getattr(module, "TENSOR_METHODS", {}))
    methods.install(*tables)


_load_families()
