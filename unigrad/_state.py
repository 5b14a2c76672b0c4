"""Thread-local execution state: grad mode, inference mode, autocast, anomaly detection."""

from __future__ import annotations

import threading


class _LocalState(threading.local):
    """Per-thread flags read on every op; defaults apply to each new thread."""

    def __init__(self):
        self.grad_enabled = True
        self.inference_mode = False
        self.forward_levels = []
        self.transform_depth = 0  # functional transforms / recording GradientTapes now running
        self.autocast_dtype = None  # the NumPy dtype of an active ``amp.autocast``, else None
        self.trace = None  # the graph-mode Trace recording this thread's ops, else None
        self.interpreter = None  # the innermost active interpreter (None: plain eager)
        self.staged_control_flow = False  # ``ug.ops.control.compiled_loops()`` is active
        self.autograph = False  # a ``ug.jit`` trace converts control flow (Cells convert theirs)


local = _LocalState()


class _GlobalState:
    """Process-wide flags (PyTorch keeps anomaly mode global too)."""

    anomaly_enabled = False
    execution_mode = 1  # PYNATIVE_MODE; GRAPH_MODE (0) makes Cells compile themselves
    anomaly_check_nan = True
    # Whose names the text forms use: "unigrad" (``unigrad.float32``, shapes as tuples) or
    # "torch" (``torch.float32``, shapes as ``torch.Size``), set by importing the torch
    # front-end.
    text_names = "unigrad"
    saved_hooks_active = 0  # saved_tensors_hooks blocks open in any thread
    # Bumped whenever an in-place op (or detach_, or a custom Function's dirty output) gives
    # a tensor a new history: a view checked against its base since the last bump is fresh.
    history_generation = 0


global_state = _GlobalState()
