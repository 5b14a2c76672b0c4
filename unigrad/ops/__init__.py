"""All unigrad ops: primitives (declared once in their family module) and composites.

Each family module's public functions are re-exported here (and from there as
``unigrad.<name>``); each op declares its own Tensor methods (:mod:`unigrad.ops.registry`).
"""

from __future__ import annotations

import importlib
import inspect

from . import methods
from ._primitive import PRIMITIVES, Primitive, bind

_FAMILY_NAMES = ("creation", "sampling", "elementwise", "elementwise_math", "integer_math",
                 "special", "numeric", "reduce", "scans", "sorting", "statistics", "shape",
                 "layout", "views_copies", "device", "indexing", "scatter", "linalg",
                 "decompositions", "linalg_solvers", "products", "complex_numbers", "spectral",
                 "nn_functional", "clipping", "control")


def _public_names(module) -> list:
    """``__all__`` if the module declares it, else the functions it defines itself."""
    declared = getattr(module, "__all__", None)
    if declared is not None:
        return list(declared)
    return [name for name, value in vars(module).items()
            if not name.startswith("_") and inspect.isfunction(value)
            and value.__module__ == module.__name__]


def _load_families() -> list:
    exported = []
    for family in _FAMILY_NAMES:
        module = importlib.import_module(f"{__name__}.{family}")
        globals()[family] = module
        for name in _public_names(module):
            globals()[name] = getattr(module, name)
            exported.append(name)
    methods.install()
    return exported


__all__ = _load_families() + ["PRIMITIVES", "Primitive", "bind"]


_TRANSFORM_NAMES = {"GradOperation": "gradop", "stop_gradient": "custom"}


def __getattr__(name: str):
    """MindSpore's ``ops`` namespace also holds some transforms (``ops.GradOperation``,
    ``ops.stop_gradient``); loaded on first use (the transforms import the ops)."""
    module = _TRANSFORM_NAMES.get(name)
    if module is None:
        raise AttributeError(f"module 'unigrad.ops' has no attribute {name!r}")
    return getattr(importlib.import_module(f"unigrad.transforms.{module}"), name)
