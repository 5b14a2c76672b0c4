"""Stochastic weight averaging: AveragedModel, SWALR, update_bn, get_ema_multi_avg_fn
(``torch.optim.swa_utils``).
"""

from __future__ import annotations

__all__: list[str] = []
