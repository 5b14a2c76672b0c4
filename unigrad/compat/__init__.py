"""Framework front-ends: the spellings of other frameworks over the one unigrad engine.

Three dialects, each imported on demand (nothing here is imported eagerly):

- :mod:`unigrad.compat.mindspore` -- ``import unigrad.compat.mindspore as ms``
  (``ms.Tensor``, ``ms.Parameter``, ``ms.grad``, ``ms.nn``, ``ms.ops``, ``ms.amp``);
- :mod:`unigrad.compat.torch` -- ``import unigrad.compat.torch as torch``;
- :mod:`unigrad.compat.tensorflow` -- ``import unigrad.compat.tensorflow as tf``.

A front-end only renames: arguments, defaults, return structures and printed
forms are the framework's, the computation is unigrad's.
"""
