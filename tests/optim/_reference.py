"""Pure-NumPy re-implementations of the optimizer formulas (checks that run without torch)."""

from __future__ import annotations

import numpy as np


def sgd(params, grad_steps, lr, momentum=0.0, dampening=0.0, weight_decay=0.0, nesterov=False,
        maximize=False):
    """PyTorch SGD on NumPy arrays; returns the parameters after every step."""
    params = [p.copy() for p in params]
    bufs = [None] * len(params)
    history = []
    for grads in grad_steps:
        for i, g in enumerate(grads):
            if g is None:
                continue
            g = -g if maximize else g
            g = g + weight_decay * params[i]
            if momentum != 0:
                if bufs[i] is None:
                    bufs[i] = g.copy()
                else:
                    bufs[i] = momentum * bufs[i] + (1 - dampening) * g
                g = g + momentum * bufs[i] if nesterov else bufs[i]
            params[i] = params[i] - lr * g
        history.append([p.copy() for p in params])
    return history


def momentum(params, grad_steps, lr, momentum, weight_decay=0.0, loss_scale=1.0,
             use_nesterov=False, decay_mask=None):
    """MindSpore Momentum: accum starts at zero; ``lr`` may be a per-step list."""
    params = [p.copy() for p in params]
    accums = [np.zeros_like(p) for p in params]
    decay_mask = decay_mask or [True] * len(params)
    history = []
    for step, grads in enumerate(grad_steps):
        rate = lr[min(step, len(lr) - 1)] if isinstance(lr, (list, tuple)) else lr
        for i, g in enumerate(grads):
            if g is None:
                continue
            g = g / loss_scale
            if decay_mask[i]:
                g = g + weight_decay * params[i]
            accums[i] = momentum * accums[i] + g
            if use_nesterov:
                params[i] = params[i] - rate * (g + momentum * accums[i])
            else:
                params[i] = params[i] - rate * accums[i]
        history.append([p.copy() for p in params])
    return history


def adam(params, grad_steps, lr, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0, amsgrad=False,
         maximize=False, decoupled=False):
    """PyTorch Adam / AdamW (``decoupled=True``) on NumPy arrays, from the paper's equations."""
    beta1, beta2 = betas
    params = [p.copy() for p in params]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    v_max = [np.zeros_like(p) for p in params]
    steps = [0] * len(params)
    history = []
    for grads in grad_steps:
        for i, g in enumerate(grads):
            if g is None:
                continue
            steps[i] += 1
            t = steps[i]
            g = -g if maximize else g
            if decoupled:
                params[i] = params[i] * (1 - lr * weight_decay)
            else:
                g = g + weight_decay * params[i]
            m[i] = beta1 * m[i] + (1 - beta1) * g
            v[i] = beta2 * v[i] + (1 - beta2) * g * g
            v_max[i] = np.maximum(v_max[i], v[i])
            v_used = v_max[i] if amsgrad else v[i]
            m_hat = m[i] / (1 - beta1 ** t)
            denom = np.sqrt(v_used) / np.sqrt(1 - beta2 ** t) + eps
            params[i] = params[i] - lr * m_hat / denom
        history.append([p.copy() for p in params])
    return history
