"""Keras 3's progress bar (``keras.utils.Progbar``), as ``fit``/``evaluate``/``predict`` print it.

``verbose=1`` redraws one line per update (``2/2 ━━━━━━━━━━━━━━━━━━━━ 0s 3ms/step - loss:
0.4321``, with terminal colour codes), ``verbose=2`` prints one line when finished.
"""

from __future__ import annotations

import math
import sys
import time

import numpy as np

__all__ = ["Progbar", "print_message"]

_BOLD, _RESET, _GREEN, _GREY = "\x1b[1m", "\x1b[0m", "\x1b[32m", "\x1b[37m"


def print_message(message: str, line_break: bool = True) -> None:
    """Write ``message`` to standard output at once (Keras' ``io_utils.print_msg``).

    Example:
        >>> print_message("Epoch 1/2")
        Epoch 1/2
    """
    sys.stdout.write(f"{message}\n" if line_break else message)
    sys.stdout.flush()


def _format_value(value: float, signed: bool = True) -> str:
    """A metric value as Keras prints it: 4 decimals, or scientific below 1e-3."""
    small = abs(value) <= 1e-3 if signed else value <= 1e-3
    return f" {value:.4e}" if small else f" {value:.4f}"


def _format_step_time(seconds: float, unit_name: str) -> str:
    if seconds >= 1 or seconds == 0:
        return f" {seconds:.0f}s/{unit_name}"
    if seconds >= 1e-3:
        return f" {seconds * 1000.0:.0f}ms/{unit_name}"
    return f" {seconds * 1000000.0:.0f}us/{unit_name}"


def _format_eta(seconds: float) -> str:
    """The estimated time left, truncated to seconds (``1:02:03``, ``2:03`` or ``3s``)."""
    whole = int(seconds)
    if seconds > 3600:
        return f"{whole // 3600}:{whole % 3600 // 60:02d}:{whole % 60:02d}"
    if seconds > 60:
        return f"{whole // 60}:{whole % 60:02d}"
    return f"{whole}s"


class Progbar:
    """A progress bar of ``target`` steps; ``update(current, values, finalize)`` redraws it
    with the latest ``(name, value)`` pairs.

    Example:
        >>> from unigrad.compat.tensorflow.keras._progress import Progbar
        >>> bar = Progbar(2, verbose=2)
        >>> bar.update(2, [("loss", 0.5)], finalize=True)  # doctest: +ELLIPSIS
        2/2 - 0s -...step - loss: 0.5000
    """

    def __init__(self, target: int | None, width: int = 20, verbose: int = 1,
                 interval: float = 0.05, unit_name: str = "step"):
        self.target = target
        self.width = width
        self.verbose = verbose
        self.interval = interval
        self.unit_name = unit_name
        self._values: dict = {}
        self._start = time.time()
        self._last_update = 0.0
        self._time_after_first_step: float | None = None
        self._previous_width = 0

    def update(self, current: int, values=None, finalize: bool | None = None) -> None:
        """Show ``current`` steps done and the latest ``values``; ``finalize`` ends the line."""
        if finalize is None:
            finalize = self.target is not None and current >= self.target
        for name, value in values or []:
            self._values[name] = value
        now = time.time()
        step_time = self._step_time(current, now)
        if self.verbose == 1:
            if now - self._last_update < self.interval and not finalize:
                return
            self._draw(current, now, step_time, finalize)
        elif self.verbose == 2 and finalize and self.target:
            digits = int(math.log10(self.target)) + 1
            line = (f"{current:>{digits}}/{self.target} - {now - self._start:.0f}s -"
                    f"{_format_step_time(step_time, self.unit_name)}")
            line += "".join(f" - {name}:{_format_value(float(np.mean(value)), signed=False)}"
                            for name, value in self._values.items())
            print_message(line)
        self._last_update = now

    def _draw(self, current: int, now: float, step_time: float, finalize: bool) -> None:
        if self.target:
            digits = int(math.log10(self.target)) + 1
            done = int(self.width * float(current) / self.target)
            bar = f"{_BOLD}{current:>{digits}}/{self.target}{_RESET} "
            hidden = 8 + (9 if done > 0 else 0) + 9
            if done > 0:
                bar += f"{_GREEN}{'━' * done}{_RESET}"
            bar += f"{_GREY}{'━' * (self.width - done)}{_RESET}"
        else:
            bar, hidden = f"{current:7d}/Unknown", 0
        if self.target and not finalize:
            info = f" {_BOLD}{_format_eta(step_time * (self.target - current))}{_RESET}"
        else:
            info = f" {_BOLD}{now - self._start:.0f}s{_RESET}"
        hidden += 8
        info += _format_step_time(step_time, self.unit_name)
        info += "".join(f" - {name}:{_format_value(float(np.mean(value)))}"
                        for name, value in self._values.items())
        width = len(bar) + len(info) - hidden
        message = "\b" * self._previous_width + "\r" + bar + info
        if self._previous_width > width:
            message += " " * (self._previous_width - width)
        print_message(message + ("\n" if finalize else ""), line_break=False)
        self._previous_width = width

    def _step_time(self, current: int, now: float) -> float:
        if not current:
            return 0.0
        if self._time_after_first_step is not None and current > 1:
            seconds = (now - self._time_after_first_step) / (current - 1)
        else:
            seconds = (now - self._start) / current
        if current == 1:
            self._time_after_first_step = now
        return seconds
