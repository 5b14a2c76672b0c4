"""Execution mode (MindSpore's ``set_context(mode=...)``): eager PyNative or compiled graphs.

In ``GRAPH_MODE`` every Cell called from outside a trace compiles itself with
:func:`unigrad.jit` (one graph per input signature and training flag) and
replays it; ``PYNATIVE_MODE`` (the default) runs op by op.

Example:
    >>> import unigrad as ug
    >>> ug.set_context(mode=ug.GRAPH_MODE)
    >>> ug.get_context("mode") == ug.GRAPH_MODE
    True
    >>> ug.set_context(mode=ug.PYNATIVE_MODE)
"""

from __future__ import annotations

from . import _state

GRAPH_MODE = 0
PYNATIVE_MODE = 1

_MODES = {GRAPH_MODE: "GRAPH_MODE", PYNATIVE_MODE: "PYNATIVE_MODE"}
_IGNORED = {"device_target", "device_id", "save_graphs", "save_graphs_path", "jit_level",
            "max_call_depth", "jit_config"}


def set_context(mode: int | None = None, **settings) -> None:
    """Set the execution mode (``ug.GRAPH_MODE`` or ``ug.PYNATIVE_MODE``).

    MindSpore's device and graph-dump settings are accepted and ignored;
    anything else is a ``ValueError`` naming the key.

    Example:
        >>> import unigrad as ug
        >>> ug.set_context(mode=ug.PYNATIVE_MODE, device_target="CPU")
    """
    unknown = sorted(set(settings) - _IGNORED)
    if unknown:
        raise ValueError(f"set_context got unknown setting(s) {unknown}; supported: 'mode' and "
                         f"(ignored) {sorted(_IGNORED)}")
    if mode is not None:
        if isinstance(mode, bool) or mode not in _MODES:
            raise ValueError(f"set_context: 'mode' must be ug.GRAPH_MODE (0) or "
                             f"ug.PYNATIVE_MODE (1), got {mode!r}")
        _state.global_state.execution_mode = mode


def get_context(key: str):
    """The value of one setting (only ``"mode"`` is kept).

    Example:
        >>> import unigrad as ug
        >>> ug.get_context("mode") == ug.PYNATIVE_MODE
        True
    """
    if key != "mode":
        raise ValueError(f"get_context: unknown key {key!r}; supported: 'mode'")
    return _state.global_state.execution_mode
