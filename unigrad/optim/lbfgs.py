"""L-BFGS (``torch.optim.LBFGS``): a quasi-Newton method driven by a closure.

Each :meth:`LBFGS.step` runs up to ``max_iter`` iterations, re-evaluating the
loss through the closure, optionally with PyTorch's strong-Wolfe line search
(cubic interpolation). All parameters form one flat vector (complex entries
as real pairs), as in PyTorch.

Example:
    >>> import unigrad as ug
    >>> import unigrad.optim as optim
    >>> w = ug.nn.Parameter(ug.tensor([1.0, -2.0]))
    >>> opt = optim.LBFGS([w], line_search_fn="strong_wolfe")
    >>> def closure():
    ...     opt.zero_grad()
    ...     loss = ((w - 3.0) ** 2).sum()
    ...     loss.backward()
    ...     return loss
    >>> _ = opt.step(closure)
    >>> [round(v, 4) for v in w.tolist()]
    [3.0, 3.0]
"""

from __future__ import annotations

import numbers
from collections.abc import Callable

from .. import _state
from ..autograd import enable_grad, no_grad
from ..ops import cat
from ..tensor import Tensor
from .optimizer import Optimizer, check_number, default, lr_at, resolve_alias


def _cubic_interpolate(x1, f1, g1, x2, f2, g2, bounds=None):
    """The minimiser of the cubic through two points with slopes, clipped to ``bounds``."""
    if bounds is not None:
        xmin_bound, xmax_bound = bounds
    else:
        xmin_bound, xmax_bound = (x1, x2) if x1 <= x2 else (x2, x1)
    d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2)
    d2_square = d1 ** 2 - g1 * g2
    if d2_square >= 0:
        d2 = d2_square.sqrt()
        if x1 <= x2:
            min_pos = x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
        else:
            min_pos = x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2))
        return min(max(min_pos, xmin_bound), xmax_bound)
    return (xmin_bound + xmax_bound) / 2.0


class _Bracket:
    """The two ends of a line-search interval: step, loss, gradient, directional slope."""

    def __init__(self, steps: list, losses: list, grads: list, slopes: list) -> None:
        self.steps, self.losses, self.grads, self.slopes = steps, losses, grads, slopes

    def set(self, index: int, step, loss, grad, slope) -> None:
        self.steps[index], self.losses[index] = step, loss
        self.grads[index], self.slopes[index] = grad, slope

    def order(self) -> tuple[int, int]:
        """(index of the lower loss, index of the other end)."""
        return (0, 1) if self.losses[0] <= self.losses[-1] else (1, 0)


def _strong_wolfe(obj_func, x, t, d, f, g, gtd, c1=1e-4, c2=0.9, tolerance_change=1e-9,
                  max_ls=25):
    """PyTorch's strong-Wolfe line search: ``(loss, flat_grad, step, evaluations)``."""
    d_norm = d.abs().max()
    g = g.clone()
    f_new, g_new = obj_func(x, t, d)
    ls_func_evals = 1
    gtd_new = g_new.dot(d)
    t_prev, f_prev, g_prev, gtd_prev = 0, f, g, gtd
    done = False
    ls_iter = 0
    bracket = None
    while ls_iter < max_ls:  # bracketing phase
        if f_new > (f + c1 * t * gtd) or (ls_iter > 1 and f_new >= f_prev):
            bracket = _Bracket([t_prev, t], [f_prev, f_new], [g_prev, g_new.clone()],
                               [gtd_prev, gtd_new])
            break
        if abs(gtd_new) <= -c2 * gtd:
            bracket = _Bracket([t], [f_new], [g_new], [gtd_new])
            done = True
            break
        if gtd_new >= 0:
            bracket = _Bracket([t_prev, t], [f_prev, f_new], [g_prev, g_new.clone()],
                               [gtd_prev, gtd_new])
            break
        min_step = t + 0.01 * (t - t_prev)
        max_step = t * 10
        previous = t
        t = _cubic_interpolate(t_prev, f_prev, gtd_prev, t, f_new, gtd_new,
                               bounds=(min_step, max_step))
        t_prev, f_prev, g_prev, gtd_prev = previous, f_new, g_new.clone(), gtd_new
        f_new, g_new = obj_func(x, t, d)
        ls_func_evals += 1
        gtd_new = g_new.dot(d)
        ls_iter += 1
    if ls_iter == max_ls:
        bracket = _Bracket([0, t], [f, f_new], [g, g_new], [None, None])
    insufficient_progress = False
    low_pos, high_pos = bracket.order()
    while not done and ls_iter < max_ls:  # zoom phase
        steps = bracket.steps
        if abs(steps[1] - steps[0]) * d_norm < tolerance_change:
            break
        t = _cubic_interpolate(steps[0], bracket.losses[0], bracket.slopes[0], steps[1],
                               bracket.losses[1], bracket.slopes[1])
        t, insufficient_progress = _safeguard(t, steps, insufficient_progress)
        f_new, g_new = obj_func(x, t, d)
        ls_func_evals += 1
        gtd_new = g_new.dot(d)
        ls_iter += 1
        if f_new > (f + c1 * t * gtd) or f_new >= bracket.losses[low_pos]:
            bracket.set(high_pos, t, f_new, g_new.clone(), gtd_new)
            low_pos, high_pos = bracket.order()
        else:
            if abs(gtd_new) <= -c2 * gtd:
                done = True
            elif gtd_new * (steps[high_pos] - steps[low_pos]) >= 0:
                bracket.set(high_pos, steps[low_pos], bracket.losses[low_pos],
                            bracket.grads[low_pos], bracket.slopes[low_pos])
            bracket.set(low_pos, t, f_new, g_new.clone(), gtd_new)
    return (bracket.losses[low_pos], bracket.grads[low_pos], bracket.steps[low_pos],
            ls_func_evals)


def _safeguard(t, steps: list, insufficient_progress: bool):
    """Keep a zoom step away from the interval's ends (PyTorch's rule)."""
    high, low = max(steps), min(steps)
    eps = 0.1 * (high - low)
    if min(high - t, t - low) < eps:
        if insufficient_progress or t >= high or t <= low:
            t = high - eps if abs(t - high) < abs(t - low) else low + eps
            return t, False
        return t, True
    return t, False


class LBFGS(Optimizer):
    """L-BFGS (``torch.optim.LBFGS``); ``step(closure)`` needs a closure.

    ``LBFGS(params, lr=1, max_iter=20, max_eval=None, tolerance_grad=1e-7,
    tolerance_change=1e-9, history_size=100, line_search_fn=None)``;
    ``learning_rate`` (also a list of per-step rates) is accepted as a
    keyword. ``max_eval`` defaults to ``max_iter * 5 // 4``;
    ``line_search_fn`` is None (fixed steps of ``lr``; the first one scaled by
    ``min(1, 1 / |grad|_1)``) or ``'strong_wolfe'``. There is one parameter
    group. The state, kept under the first parameter as in PyTorch, holds
    ``func_evals`` and ``n_iter`` (counts over all steps), the search
    direction ``d`` and step ``t``, the curvature history ``old_dirs``,
    ``old_stps``, ``ro``, ``H_diag``, ``al``, and ``prev_flat_grad``,
    ``prev_loss``. Parameters without a gradient count as zero gradients.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.optim as optim
        >>> w = ug.nn.Parameter(ug.tensor([1.5, 0.5]))
        >>> opt = optim.LBFGS([w], lr=0.5, max_iter=4)
        >>> def closure():
        ...     opt.zero_grad()
        ...     loss = ((w * w) * ug.tensor([1.0, 10.0])).sum()
        ...     loss.backward()
        ...     return loss
        >>> opt.step(closure)  # the loss before the step
        tensor(4.7500, grad_fn=<SumBackward0>)
        >>> state = opt.state[w]
        >>> state["func_evals"], state["n_iter"], len(state["old_dirs"])
        (4, 4, 3)
    """

    _supports_graph = False

    def __init__(self, params, lr: float = default(1), max_iter: int = 20,
                 max_eval: int | None = None, tolerance_grad: float = 1e-7,
                 tolerance_change: float = 1e-9, history_size: int = 100,
                 line_search_fn: str | None = None, *, learning_rate=None) -> None:
        lr = resolve_alias("LBFGS", "lr", lr, "learning_rate", learning_rate)
        max_iter = _positive_int("max_iter", max_iter)
        if max_eval is None:
            max_eval = max_iter * 5 // 4
        defaults = {"lr": lr, "max_iter": max_iter, "max_eval": max_eval,
                    "tolerance_grad": tolerance_grad, "tolerance_change": tolerance_change,
                    "history_size": history_size, "line_search_fn": line_search_fn}
        super().__init__(params, defaults)
        if len(self.param_groups) != 1:
            raise ValueError("LBFGS doesn't support per-parameter options (parameter groups)")

    def _check_hyperparameters(self, group: dict) -> None:
        super()._check_hyperparameters(group)
        owner = type(self).__name__
        for name in ("max_iter", "max_eval", "history_size"):
            group[name] = _positive_int(name, group[name])
        for name in ("tolerance_grad", "tolerance_change"):
            group[name] = check_number(owner, name, group[name], low=float("-inf"))
        if group["line_search_fn"] not in (None, "strong_wolfe"):
            raise ValueError("LBFGS: 'line_search_fn' must be None or 'strong_wolfe', got "
                             f"{group['line_search_fn']!r}")

    def _state_shape(self, param: Tensor, name: str) -> tuple | None:
        return None  # flat vectors over all parameters

    @property
    def _params(self) -> list:
        return self.param_groups[0]["params"]

    def _gather_flat_grad(self) -> Tensor:
        views = []
        for param in self._params:
            grad = param.grad
            if grad is None:
                grad = self._new_state(param)
            views.append(self._real_views(param, grad)[1].reshape(-1))
        return cat(views, 0)

    def _add_grad(self, step_size, update: Tensor) -> None:
        offset = 0
        step_size = float(step_size)
        for param in self._params:
            real = self._real_views(param)[0]
            numel = real.numel()
            real.add_(update[offset:offset + numel].reshape(tuple(real.shape)), alpha=step_size)
            self._written(param, real)
            offset += numel

    def _clone_param(self) -> list:
        return [param.detach().clone() for param in self._params]

    def _set_param(self, params_data: list) -> None:
        for param, data in zip(self._params, params_data):
            param.copy_(data)

    def _directional_evaluate(self, closure, x, t, d):
        self._add_grad(t, d)
        loss = float(closure())
        flat_grad = self._gather_flat_grad()
        self._set_param(x)
        return loss, flat_grad

    def construct(self, gradients) -> bool:
        raise TypeError("LBFGS re-evaluates the loss: call opt.step(closure) with a closure "
                        "that computes the loss and its gradients, not opt(gradients)")

    def step(self, closure: Callable[[], Tensor]):
        """Run up to ``max_iter`` L-BFGS iterations; returns the closure's first loss.

        Example:
            >>> import unigrad as ug
            >>> import unigrad.optim as optim
            >>> w = ug.nn.Parameter(ug.tensor([2.0]))
            >>> opt = optim.LBFGS([w])
            >>> def closure():
            ...     opt.zero_grad()
            ...     loss = ((w - 1.0) ** 2).sum()
            ...     loss.backward()
            ...     return loss
            >>> float(opt.step(closure)), round(w.item(), 6)
            (1.0, 1.0)
        """
        if not callable(closure):
            raise TypeError("LBFGS.step(): 'closure' must be a callable that re-evaluates the "
                            f"model and returns the loss, got {type(closure).__name__}")
        if _state.local.trace is not None:
            raise NotImplementedError("LBFGS cannot run inside a traced (ug.jit) step; call it "
                                      "eagerly")
        for index, param in enumerate(self._params):
            self._check_target(param, index)

        def evaluate():
            with enable_grad():
                return closure()

        with no_grad():
            return self._run(evaluate)

    def _run(self, closure):
        group = self.param_groups[0]
        lr = group["lr"]  # kept an int when given as one: PyTorch stores t = lr in the state
        if isinstance(lr, tuple):
            lr = lr_at(lr, self.global_step)
        max_iter = group["max_iter"]
        max_eval = group["max_eval"]
        tolerance_grad = group["tolerance_grad"]
        tolerance_change = group["tolerance_change"]
        history_size = group["history_size"]
        state = self.state[self._params[0]]
        state.setdefault("func_evals", 0)
        state.setdefault("n_iter", 0)
        orig_loss = closure()
        loss = float(orig_loss)
        current_evals = 1
        state["func_evals"] += 1
        self.global_step += 1
        self._opt_called = True
        flat_grad = self._gather_flat_grad()
        if flat_grad.abs().max() <= tolerance_grad:  # already optimal
            return orig_loss
        d, t = state.get("d"), state.get("t")
        old_dirs, old_stps, ro = state.get("old_dirs"), state.get("old_stps"), state.get("ro")
        h_diag = state.get("H_diag")
        prev_flat_grad, prev_loss = state.get("prev_flat_grad"), state.get("prev_loss")
        n_iter = 0
        while n_iter < max_iter:
            n_iter += 1
            state["n_iter"] += 1
            if state["n_iter"] == 1:  # steepest descent
                d = flat_grad.neg()
                old_dirs, old_stps, ro = [], [], []
                h_diag = 1
            else:
                h_diag = self._remember(flat_grad.sub(prev_flat_grad), d.mul(t), old_dirs,
                                        old_stps, ro, h_diag, history_size)
                d = self._direction(state, flat_grad, old_dirs, old_stps, ro, h_diag,
                                    history_size)
            if prev_flat_grad is None:
                prev_flat_grad = flat_grad.clone()
            else:
                prev_flat_grad.copy_(flat_grad)
            prev_loss = loss
            if state["n_iter"] == 1:
                t = min(1.0, 1.0 / flat_grad.abs().sum()) * lr
            else:
                t = lr
            gtd = flat_grad.dot(d)
            if gtd > -tolerance_change:  # not a descent direction
                break
            if group["line_search_fn"] is not None:
                x_init = self._clone_param()

                def obj_func(x, step, direction):
                    return self._directional_evaluate(closure, x, step, direction)

                loss, flat_grad, t, ls_func_evals = _strong_wolfe(
                    obj_func, x_init, t, d, loss, flat_grad, gtd,
                    max_ls=max_eval - current_evals)
                self._add_grad(t, d)
                opt_cond = flat_grad.abs().max() <= tolerance_grad
            else:
                self._add_grad(t, d)
                ls_func_evals = 0
                opt_cond = False
                if n_iter != max_iter:
                    loss = float(closure())
                    flat_grad = self._gather_flat_grad()
                    opt_cond = flat_grad.abs().max() <= tolerance_grad
                    ls_func_evals = 1
            current_evals += ls_func_evals
            state["func_evals"] += ls_func_evals
            if n_iter == max_iter or current_evals >= max_eval or opt_cond:
                break
            if d.mul(t).abs().max() <= tolerance_change or abs(loss - prev_loss) < \
                    tolerance_change:
                break
        state.update({"d": d, "t": t, "old_dirs": old_dirs, "old_stps": old_stps, "ro": ro,
                      "H_diag": h_diag, "prev_flat_grad": prev_flat_grad,
                      "prev_loss": prev_loss})
        return orig_loss

    @staticmethod
    def _remember(y: Tensor, s: Tensor, old_dirs: list, old_stps: list, ro: list, h_diag,
                  history_size: int):
        """Add the curvature pair ``(y, s)`` when ``y . s > 1e-10``; returns ``H_diag``."""
        ys = y.dot(s)
        if ys > 1e-10:
            if len(old_dirs) == history_size:  # forget the oldest pair
                old_dirs.pop(0)
                old_stps.pop(0)
                ro.pop(0)
            old_dirs.append(y)
            old_stps.append(s)
            ro.append(1.0 / ys)
            h_diag = ys / y.dot(y)
        return h_diag

    @staticmethod
    def _direction(state: dict, flat_grad: Tensor, old_dirs: list, old_stps: list, ro: list,
                   h_diag, history_size: int) -> Tensor:
        """The two-loop recursion: ``-H grad`` from the stored curvature pairs."""
        if "al" not in state:
            state["al"] = [None] * history_size
        al = state["al"]
        q = flat_grad.neg()
        for i in range(len(old_dirs) - 1, -1, -1):
            al[i] = old_stps[i].dot(q) * ro[i]
            q.add_(old_dirs[i], alpha=-float(al[i]))
        r = q * h_diag
        for i in range(len(old_dirs)):
            be_i = old_dirs[i].dot(r) * ro[i]
            r.add_(old_stps[i], alpha=float(al[i] - be_i))
        return r


def _positive_int(name: str, value) -> int:
    """``value`` as an int ``>= 1`` (LBFGS's iteration counts and history size)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"LBFGS: '{name}' must be an int, got {type(value).__name__}")
    if value < 1:
        raise ValueError(f"LBFGS: '{name}' must be >= 1, got {value}")
    return int(value)


__all__ = ["LBFGS"]
