"""The control-flow primitives: ``cond``, ``scan``, ``while_loop`` and ``while_loop``'s vjp.

Each holds its branches or loop body as :class:`~unigrad.ops._control_graphs.Branch`
params and is declared like any primitive: a kernel that runs the branch's
generated code (in a Python loop for the loops), a shape rule (one packed
vector, see :class:`~unigrad.ops._control_graphs.Layout`), a vjp, a jvp and a
batching rule. The rules build the branches they need (the vjp, jvp or batched
form of a branch, traced from its graph and cached on it) and bind the same
primitives again, so the rules of a rule exist too (second order through
``scan``; ``while_loop``'s reverse mode saves the iterates inside its vjp
primitive, as TensorFlow does, and is differentiated once).

Operands, in order:
- ``cond``: the branch index, the operands, then each branch's constants;
- ``scan``: the body's constants, the initial carries, the scanned arrays;
- ``while_loop``: the condition's constants, the body's constants, the initial carries.

Example:
    >>> import unigrad as ug
    >>> f = ug.jit(lambda x: ug.while_loop(lambda v: v.sum() < 10, lambda v: v * 2, x))
    >>> f(ug.tensor([1.0, 2.0]))
    tensor([4., 8.])
    >>> [eqn.prim.name for eqn in f.graph.eqns][:1]
    ['while_loop']
"""

from __future__ import annotations

import numpy as np

from .. import _state
from ..abstract import ShapedArray
from ..tensor import Tensor
from ._control_graphs import Branch, Layout, trace_branch
from ._primitive import Primitive, bind

_local = _state.local


# ============================================================================= helpers

def aval_of(value) -> ShapedArray:
    """The shape and dtype of a Tensor, array, tracer or abstract value."""
    if isinstance(value, Tensor):
        value = value._data
    return ShapedArray(tuple(value.shape), np.dtype(value.dtype))


def is_float(aval) -> bool:
    return np.dtype(aval.dtype).kind in "fc"


def _recording(values) -> bool:
    """Whether the tape records an op on these values now (its rules then need residuals)."""
    return _local.grad_enabled and any(isinstance(v, Tensor) and v._requires_grad
                                       for v in values)


def _zeros(aval):
    """Zeros as a constant array (rules return arrays when the tape records nothing)."""
    return np.zeros(aval.shape, aval.dtype)


def _pack_tensors(layout: Layout, values: list):
    """``layout.pack`` with differentiable ops (Tensors or tracers in, one flat vector out)."""
    from .elementwise import cast
    from .shape import cat, reshape
    if not values:
        return _zeros(ShapedArray((0,), layout.dtype))
    return cat([reshape(cast(v, layout.dtype), (-1,)) for v in values])


def _pullback_values(branch: Branch, primals: list, wanted: list, cotangents: list) -> list:
    """Inside a trace: the cotangents of ``primals[i]`` for ``i`` in ``wanted`` of ``branch``'s
    outputs weighted by ``cotangents`` (None: that output gets none)."""
    from ..autograd import grad as autograd_grad
    from ..autograd.grad_mode import enable_grad
    from .creation import zeros_like
    with enable_grad():
        lifted = [p.detach().requires_grad_() if i in wanted else p.detach()
                  for i, p in enumerate(primals)]
        outputs = branch.interpret(*lifted)
        pairs = [(o, c) for o, c in zip(outputs, cotangents)
                 if c is not None and isinstance(o, Tensor) and o.requires_grad]
        targets = [lifted[i] for i in wanted]
        if not pairs:
            return [zeros_like(t) for t in targets]
        return list(autograd_grad([o for o, _ in pairs], targets, [c for _, c in pairs],
                                  allow_unused=True, materialize_grads=True))


def _pushforward_values(branch: Branch, primals: list, tangents: list) -> tuple[list, list]:
    """Inside a trace: ``branch``'s outputs and their tangents (zeros for non-float outputs)."""
    from ..autograd import forward_ad
    from .creation import zeros_like
    with forward_ad.dual_level():
        duals = [p if t is None else forward_ad.make_dual(p, t)
                 for p, t in zip(primals, tangents)]
        outputs = branch.interpret(*duals)
        values, out_tangents = [], []
        for output in outputs:
            primal, tangent = forward_ad.unpack_dual(output)
            values.append(primal)
            out_tangents.append(zeros_like(primal) if tangent is None else tangent)
    return values, out_tangents


def _batched_value(value, dim, size: int):
    """``value`` with its batch at dim 0 (an unbatched value is broadcast to the batch)."""
    from .shape import broadcast_to, movedim
    if dim is None:
        shape = tuple(value.shape)
        return broadcast_to(value[None], (size, *shape))
    return value if dim == 0 else movedim(value, dim, 0)


def _per_example_rows(batched_layout: Layout, packed, layout: Layout, size: int,
                      stacked: list):
    """A batched primitive's packed output as the per-example packed rows ``(size, N)``.

    ``stacked[i]``: whether leaf ``i`` is stacked over iterations (``(steps, size, ...)``,
    its batch at dim 1) rather than batched at dim 0."""
    from .elementwise import cast
    from .shape import cat, movedim, reshape
    rows = []
    for piece, is_stacked in zip(batched_layout.unpack(packed), stacked):
        if is_stacked:
            piece = movedim(piece, 1, 0)
        rows.append(reshape(cast(piece, layout.dtype), (size, -1)))
    if not rows:
        return _zeros(ShapedArray((size, 0), layout.dtype))
    return cat(rows, 1)


def _batch_size(values, dims) -> int:
    for value, dim in zip(values, dims):
        if dim is not None:
            return tuple(value.shape)[dim]
    raise ValueError("no batched operand")


def _trace_vmapped(fn, values, dims, name: str, num_constants: int = 0) -> Branch:
    """A branch computing ``vmap(fn)`` on the batch (batched operands at ``dims``)."""
    from ..transforms.vectorize import vmap
    avals = [aval_of(v) for v in values]
    return derived_branch(lambda *args: vmap(fn, in_axes=tuple(dims))(*args), avals, name,
                          num_constants)


def derived_branch(fn, avals: list, name: str, num_constants: int = 0) -> Branch:
    """A branch a rule builds from other branches' graphs: every input is explicit (it
    reads nothing from outside), the first ``num_constants`` are its constants."""
    traced = trace_branch(fn, avals, name=name, num_constants=num_constants)
    if traced.constants:  # concrete arrays a transform made (vmap's broadcast zeros)
        traced.branch.graph = _inlined(traced.branch.graph, traced.branch.num_constants
                                       - num_constants, traced.constants, name)
        traced.branch.num_constants = num_constants
    return traced.branch


def _inlined(graph, count: int, constants: list, name: str):
    """``graph`` with its first ``count`` inputs replaced by the concrete ``constants``."""
    from ..graph.ir import Literal, redirected, substitute
    from ..graph.tracer import Tracer
    mapping = {}
    for var, value in zip(graph.inputs[:count], constants):
        data = value._data if isinstance(value, Tensor) else value
        if isinstance(data, Tracer) or not hasattr(data, "dtype") or \
                hasattr(data, "__unigrad_abstract__"):
            raise RuntimeError(f"{name}: a derived branch read a traced value from outside "
                               f"its inputs")
        mapping[var] = Literal(data)
    return graph.replace(inputs=graph.inputs[count:],
                         eqns=[redirected(eqn, mapping) for eqn in graph.eqns],
                         outputs=substitute(graph.outputs, mapping))


def _shape_rule(*avals, layout: Layout, **params):
    return (layout.size,), layout.dtype


def _text_body(eqn, name) -> list[str]:
    lines = []
    for value in eqn.params.values():
        branches = value if isinstance(value, tuple) else (value,)
        for branch in branches:
            if isinstance(branch, Branch):
                lines.extend(branch.text_lines())
    return lines


def _cached(branch: Branch, key, build):
    found = branch.derived.get(key)
    if found is None:
        found = branch.derived[key] = build()
    return found


# ============================================================================= cond

def _cond_index(index, count: int) -> int:
    return min(max(int(index), 0), count - 1)


def _constants_of(branches, index: int, constants: tuple) -> tuple:
    start = sum(b.num_constants for b in branches[:index])
    return constants[start:start + branches[index].num_constants]


def _cond_impl(index, *arrays, branches, num_operands, layout):
    chosen = _cond_index(index, len(branches))
    operands = arrays[:num_operands]
    constants = _constants_of(branches, chosen, arrays[num_operands:])
    return layout.pack(branches[chosen].call(*constants, *operands))


def _branch_arguments(branches, chosen: int, num_operands: int, arrays) -> list:
    """Branch ``chosen``'s inputs (its constants, then the operands) from all the arrays."""
    return [*_constants_of(branches, chosen, tuple(arrays[num_operands:])),
            *arrays[:num_operands]]


def _branch_positions(branches, chosen: int, num_operands: int) -> list[int]:
    """Per input of branch ``chosen``, its position among the cond's arrays."""
    start = num_operands + sum(b.num_constants for b in branches[:chosen])
    return [*range(start, start + branches[chosen].num_constants), *range(num_operands)]


def _cond_vjp(g, out, needs, index, *arrays, branches, num_operands, layout):
    avals = [aval_of(a) for a in arrays]
    wanted = [i for i, a in enumerate(avals) if needs[i + 1] and is_float(a)]
    if not wanted:
        return (None,) * len(needs)
    g_aval = aval_of(g)

    def derive(chosen):
        positions = _branch_positions(branches, chosen, num_operands)

        def pullback(*values):
            *primals, cotangent = values
            cotangents = [c if is_float(a) else None
                          for c, a in zip(layout.unpack(cotangent), layout.avals)]
            inputs = [primals[p] for p in positions]
            local_wanted = [k for k, p in enumerate(positions) if p in wanted]
            grads = dict(zip([positions[k] for k in local_wanted],
                             _pullback_values(branches[chosen], inputs, local_wanted,
                                              cotangents)))
            return [grads[p] if p in grads else _zeros(avals[p]) for p in wanted]
        return derived_branch(pullback, [*avals, g_aval], f"vjp_{branches[chosen].name}")

    key = ("vjp", tuple(wanted))
    vjp_branches = tuple(_cached(b, key, lambda i=i: derive(i)) for i, b in enumerate(branches))
    grads_layout = Layout([avals[i] for i in wanted])
    packed = bind(cond_p, index, *arrays, g, branches=vjp_branches,
                  num_operands=len(arrays) + 1, layout=grads_layout)
    by_position = dict(zip(wanted, grads_layout.unpack(packed)))
    return (None, *[by_position.get(i) for i in range(len(arrays))])


def _cond_jvp(tangents, out, index, *arrays, branches, num_operands, layout):
    avals = [aval_of(a) for a in arrays]
    moving = tuple(i for i, t in enumerate(tangents[1:]) if t is not None and is_float(avals[i]))

    def derive(chosen):
        positions = _branch_positions(branches, chosen, num_operands)

        def pushforward(*values):
            primals, given = values[:len(arrays)], dict(zip(moving, values[len(arrays):]))
            _, out_tangents = _pushforward_values(
                branches[chosen], [primals[p] for p in positions],
                [given.get(p) for p in positions])
            return out_tangents
        return derived_branch(pushforward, [*avals, *[avals[i] for i in moving]],
                              f"jvp_{branches[chosen].name}")

    key = ("jvp", moving)
    jvp_branches = tuple(_cached(b, key, lambda i=i: derive(i)) for i, b in enumerate(branches))
    tangent_layout = Layout([_float_aval(a, layout.dtype) for a in layout.avals])
    packed = bind(cond_p, index, *arrays, *[tangents[i + 1] for i in moving],
                  branches=jvp_branches, num_operands=len(arrays) + len(moving),
                  layout=tangent_layout)
    return _repacked(tangent_layout, packed, layout)


def _float_aval(aval, dtype) -> ShapedArray:
    """The aval of a tangent: non-float leaves get zero tangents in the packed dtype."""
    return aval if is_float(aval) else ShapedArray(aval.shape, np.dtype(dtype))


def _repacked(from_layout: Layout, packed, to_layout: Layout):
    if from_layout.dtype == to_layout.dtype:
        return packed
    from .elementwise import cast
    return cast(packed, to_layout.dtype)


def _cond_batch(values, dims, branches, num_operands, layout):
    from .elementwise import where
    from .shape import reshape
    index, arrays = values[0], values[1:]
    array_dims = dims[1:]
    size = _batch_size(values, dims)

    def per_example(chosen):
        positions = _branch_positions(branches, chosen, num_operands)
        branch = branches[chosen]
        return _trace_vmapped(lambda *args: _pack_tensors(layout, branch.interpret(
            *[args[p] for p in positions])), arrays, array_dims, f"vmap_{branch.name}")

    batched = tuple(per_example(i) for i in range(len(branches)))
    if dims[0] is None:  # one branch for the whole batch
        rows_layout = Layout([ShapedArray((size, layout.size), layout.dtype)])
        packed = bind(cond_p, index, *arrays, branches=batched, num_operands=len(arrays),
                      layout=rows_layout)
        return reshape(packed, (size, layout.size)), 0
    # a branch per example: every branch runs on the whole batch, each example takes its own
    from .elementwise import clamp
    chosen = reshape(clamp(_batched_value(index, dims[0], size), 0, len(branches) - 1),
                     (size, 1))
    result = None
    for position, branch in enumerate(batched):
        rows = branch.interpret(*arrays)[0]
        result = rows if result is None else where(chosen == position, rows, result)
    return result, 0


cond_p = Primitive("cond", _cond_impl, _shape_rule, vjp=_cond_vjp, jvp=_cond_jvp,
                   batch=_cond_batch, saves="inputs", complex_gradient="own",
                   text_body=_text_body)


# ============================================================================= scan

def _scan_impl(*arrays, body, num_carry, length, reverse, save, layout):
    constants = arrays[:body.num_constants]
    carry = arrays[body.num_constants:body.num_constants + num_carry]
    xs = arrays[body.num_constants + num_carry:]
    num_ys = len(body.graph.outputs) - num_carry
    ys_avals = layout.avals[num_carry:num_carry + num_ys]
    stacked = [np.empty(a.shape, a.dtype) for a in ys_avals]
    saved = [np.empty((length, *a.shape), a.dtype) for a in layout.avals[:num_carry]] \
        if save else []
    call = body.call
    for step in (range(length - 1, -1, -1) if reverse else range(length)):
        for buffer, value in zip(saved, carry):
            buffer[step] = value
        out = call(*constants, *carry, *[x[step, ...] for x in xs])
        carry = out[:num_carry]
        for buffer, value in zip(stacked, out[num_carry:]):
            buffer[step] = value
    return layout.pack([*carry, *stacked, *saved])


def scan_layout(body: Branch, num_carry: int, length: int, save: bool) -> Layout:
    """The packed output of a scan: final carries, stacked outputs, [stacked carries]."""
    outs = body.out_avals
    carries, ys = outs[:num_carry], outs[num_carry:]
    stacked = [ShapedArray((length, *a.shape), a.dtype) for a in ys]
    saved = [ShapedArray((length, *a.shape), a.dtype) for a in carries] if save else []
    return Layout([*carries, *stacked, *saved])


def bind_scan(body: Branch, constants, init, xs, *, length: int, reverse: bool):
    """Bind ``scan`` (saving the carries when the tape will need them); returns the final
    carries and the stacked outputs (a flat list of Tensors)."""
    save = _recording([*constants, *init, *xs])
    layout = scan_layout(body, len(init), length, save)
    packed = bind(scan_p, *constants, *init, *xs, body=body, num_carry=len(init), length=length,
                  reverse=reverse, save=save, layout=layout)
    pieces = layout.unpack(packed)
    return pieces[:len(body.graph.outputs)]


def _scan_vjp(g, out, needs, *arrays, body, num_carry, length, reverse, save, layout):
    nc = body.num_constants
    num_ys = len(body.graph.outputs) - num_carry
    avals = [aval_of(a) for a in arrays]
    constants, xs = arrays[:nc], arrays[nc + num_carry:]
    if save:
        pieces = layout.unpack(out)
    else:  # run it again, saving the carries
        saved_layout = scan_layout(body, num_carry, length, True)
        pieces = saved_layout.unpack(bind(scan_p, *arrays, body=body, num_carry=num_carry,
                                          length=length, reverse=reverse, save=True,
                                          layout=saved_layout))
    saved = pieces[num_carry + num_ys:]
    g_pieces = layout.unpack(g)
    g_carry, g_ys = g_pieces[:num_carry], g_pieces[num_carry:num_carry + num_ys]
    g_saved = g_pieces[num_carry + num_ys:] if save else []
    out_avals = body.out_avals
    float_carry = [k for k in range(num_carry) if is_float(avals[nc + k])]
    float_constants = [k for k in range(nc) if is_float(avals[k])]
    float_xs = [k for k in range(len(xs)) if is_float(avals[nc + num_carry + k])]
    float_ys = [k for k in range(num_ys) if is_float(out_avals[num_carry + k])]
    vjp_body = _cached(body, ("vjp", save), lambda: _loop_vjp_body(
        body, num_carry, len(xs), float_carry, float_constants, float_xs, float_ys, save))
    init_b = [g_carry[k] for k in float_carry] + [_zeros(avals[k]) for k in float_constants]
    xs_b = [*saved, *xs, *[g_ys[k] for k in float_ys],
            *([g_saved[k] for k in float_carry] if save else [])]
    results = bind_scan(vjp_body, list(constants), init_b, xs_b, length=length,
                        reverse=not reverse)
    g_init = dict(zip(float_carry, results[:len(float_carry)]))
    g_constants = dict(zip(float_constants, results[len(float_carry):len(init_b)]))
    g_xs = dict(zip(float_xs, results[len(init_b):]))
    grads = [g_constants.get(k) for k in range(nc)] + [g_init.get(k) for k in range(num_carry)] \
        + [g_xs.get(k) for k in range(len(xs))]
    return tuple(grad if need else None for grad, need in zip(grads, needs))


def _loop_vjp_body(body: Branch, num_carry: int, num_xs: int, float_carry, float_constants,
                   float_xs, float_ys, with_saved_cotangents: bool) -> Branch:
    """The body of the reverse loop: one step of ``body``'s vjp.

    Inputs: the body's constants; carries: the carries' cotangents and the
    constants' accumulated cotangents; per step: the carries entering the step,
    the step's scanned slices, the outputs' cotangents [and the saved carries'
    cotangents]. Outputs: the cotangents of the carries entering the step, the
    accumulated constants' cotangents, and the slices' cotangents.
    """
    avals = body.in_avals
    nc = body.num_constants
    carry_avals = avals[nc:nc + num_carry]
    x_avals = avals[nc + num_carry:]
    out_avals = body.out_avals
    inputs = [*avals[:nc], *[carry_avals[k] for k in float_carry],
              *[avals[k] for k in float_constants], *carry_avals, *x_avals,
              *[out_avals[num_carry + k] for k in float_ys]]
    if with_saved_cotangents:
        inputs += [carry_avals[k] for k in float_carry]

    def step(*values):
        values = list(values)
        constants = values[:nc]
        position = nc
        g_carry = values[position:position + len(float_carry)]
        position += len(float_carry)
        accumulated = values[position:position + len(float_constants)]
        position += len(float_constants)
        carry = values[position:position + num_carry]
        position += num_carry
        x = values[position:position + num_xs]
        position += num_xs
        g_ys = values[position:position + len(float_ys)]
        position += len(float_ys)
        g_saved = values[position:]
        cotangents = [None] * len(out_avals)
        for k, c in zip(float_carry, g_carry):
            cotangents[k] = c
        for k, c in zip(float_ys, g_ys):
            cotangents[num_carry + k] = c
        wanted = [*float_constants, *[nc + k for k in float_carry],
                  *[nc + num_carry + k for k in float_xs]]
        grads = _pullback_values(body, [*constants, *carry, *x], wanted, cotangents)
        g_constants = grads[:len(float_constants)]
        g_prev = grads[len(float_constants):len(float_constants) + len(float_carry)]
        g_x = grads[len(float_constants) + len(float_carry):]
        if g_saved:
            g_prev = [a + b for a, b in zip(g_prev, g_saved)]
        return [*g_prev, *[a + b for a, b in zip(accumulated, g_constants)], *g_x]
    return derived_branch(step, inputs, f"vjp_{body.name}", nc)


def _scan_jvp(tangents, out, *arrays, body, num_carry, length, reverse, save, layout):
    nc = body.num_constants
    avals = [aval_of(a) for a in arrays]
    moving = [i for i, t in enumerate(tangents) if t is not None and is_float(avals[i])]
    groups = [range(nc), range(nc, nc + num_carry), range(nc + num_carry, len(arrays))]
    moving_in = [[i for i in group if i in moving] for group in groups]
    jvp_body = _cached(body, ("jvp", tuple(moving)), lambda: _loop_jvp_body(
        body, num_carry, moving_in, avals))
    constants = [*arrays[:nc], *[tangents[i] for i in moving_in[0]]]
    init = [*arrays[nc:nc + num_carry], *[_tangent_or_zeros(tangents[i], avals[i])
                                          for i in range(nc, nc + num_carry)]]
    xs = [*arrays[nc + num_carry:], *[tangents[i] for i in moving_in[2]]]
    jvp_layout = scan_layout(jvp_body, len(init), length, save)
    pieces = jvp_layout.unpack(bind(scan_p, *constants, *init, *xs, body=jvp_body,
                                    num_carry=len(init), length=length, reverse=reverse,
                                    save=save, layout=jvp_layout))
    num_ys = len(body.graph.outputs) - num_carry
    t_carry = pieces[num_carry:2 * num_carry]
    t_ys = pieces[2 * num_carry + num_ys:2 * num_carry + 2 * num_ys]
    t_saved = pieces[2 * num_carry + 2 * num_ys + num_carry:] if save else []
    return _pack_tensors(layout, [*t_carry, *t_ys, *t_saved])


def _tangent_or_zeros(tangent, aval):
    """A carry's tangent: zeros when it has none (every carry gets a tangent carry)."""
    if tangent is not None and is_float(aval):
        return tangent
    return _zeros(_float_aval(aval, np.float32) if not is_float(aval) else aval)


def _loop_jvp_body(body: Branch, num_carry: int, moving_in: list, avals: list) -> Branch:
    """The body of the loop over (primals, tangents): every carry gets a tangent carry."""
    nc = body.num_constants
    in_avals = body.in_avals
    carry_avals = in_avals[nc:nc + num_carry]
    tangent_carry_avals = [a if is_float(a) else _float_aval(a, np.float32) for a in carry_avals]
    inputs = [*in_avals[:nc], *[avals[i] for i in moving_in[0]], *carry_avals,
              *tangent_carry_avals, *in_avals[nc + num_carry:],
              *[ShapedArray(avals[i].shape[1:], avals[i].dtype) for i in moving_in[2]]]
    num_xs = len(in_avals) - nc - num_carry

    def step(*values):
        values = list(values)
        constants = values[:nc]
        position = nc
        t_constants = dict(zip(moving_in[0], values[position:position + len(moving_in[0])]))
        position += len(moving_in[0])
        carry = values[position:position + num_carry]
        position += num_carry
        t_carry = values[position:position + num_carry]
        position += num_carry
        x = values[position:position + num_xs]
        position += num_xs
        t_x = dict(zip(moving_in[2], values[position:]))
        tangents = [t_constants.get(i) for i in range(nc)]
        tangents += [t if is_float(a) else None for t, a in zip(t_carry, carry_avals)]
        tangents += [t_x.get(nc + num_carry + k) for k in range(num_xs)]
        outs, out_tangents = _pushforward_values(body, [*constants, *carry, *x], tangents)
        new_t_carry = [t if is_float(a) else _zeros(ta) for t, a, ta in
                       zip(out_tangents[:num_carry], carry_avals, tangent_carry_avals)]
        return [*outs[:num_carry], *new_t_carry, *outs[num_carry:], *out_tangents[num_carry:]]
    return derived_branch(step, inputs, f"jvp_{body.name}", nc + len(moving_in[0]))


def _scan_batch(values, dims, body, num_carry, length, reverse, save, layout):
    from .shape import movedim
    nc = body.num_constants
    size = _batch_size(values, dims)
    constants = list(values[:nc])
    carries = [_batched_value(v, d, size) for v, d in
               zip(values[nc:nc + num_carry], dims[nc:nc + num_carry])]
    xs = [v if d is None else movedim(v, d, 1) for v, d in
          zip(values[nc + num_carry:], dims[nc + num_carry:])]
    x_dims = [None if d is None else 0 for d in dims[nc + num_carry:]]
    slices = [v[0] for v in xs]  # per-step values: their avals
    batched_body = _trace_vmapped(lambda *args: body.interpret(*args),
                                  [*constants, *carries, *slices],
                                  [*dims[:nc], *[0] * num_carry, *x_dims], f"vmap_{body.name}",
                                  nc)
    batched_layout = scan_layout(batched_body, num_carry, length, save)
    packed = bind(scan_p, *constants, *carries, *xs, body=batched_body, num_carry=num_carry,
                  length=length, reverse=reverse, save=save, layout=batched_layout)
    num_ys = len(body.graph.outputs) - num_carry
    stacked = [False] * num_carry + [True] * num_ys + ([True] * num_carry if save else [])
    return _per_example_rows(batched_layout, packed, layout, size, stacked), 0


scan_p = Primitive("scan", _scan_impl, _shape_rule, vjp=_scan_vjp, jvp=_scan_jvp,
                   batch=_scan_batch, saves="inputs and output",
                   complex_gradient="own", text_body=_text_body)


# ============================================================================= while_loop

def _while_impl(*arrays, cond, body, layout):
    cond_constants = arrays[:cond.num_constants]
    body_constants = arrays[cond.num_constants:cond.num_constants + body.num_constants]
    carry = arrays[cond.num_constants + body.num_constants:]
    test, step = cond.call, body.call
    while test(*cond_constants, *carry)[0]:
        carry = step(*body_constants, *carry)
    return layout.pack(carry)


def _while_vjp(g, out, needs, *arrays, cond, body, layout):
    ncc, nbc = cond.num_constants, body.num_constants
    avals = [aval_of(a) for a in arrays]
    num_carry = len(arrays) - ncc - nbc
    float_carry = [k for k in range(num_carry) if is_float(avals[ncc + nbc + k])]
    float_constants = [k for k in range(nbc) if is_float(avals[ncc + k])]
    vjp_body = _cached(body, ("vjp", False), lambda: _loop_vjp_body(
        body, num_carry, 0, float_carry, float_constants, [], [], False))
    grads_layout = Layout([avals[ncc + k] for k in float_constants]
                          + [avals[ncc + nbc + k] for k in float_carry])
    packed = bind(while_vjp_p, *arrays, g, cond=cond, body=body, vjp_body=vjp_body,
                  float_carry=tuple(float_carry), layout=grads_layout)
    pieces = grads_layout.unpack(packed)
    by_position = dict(zip([ncc + k for k in float_constants]
                           + [ncc + nbc + k for k in float_carry], pieces))
    return tuple(by_position.get(i) if need else None for i, need in enumerate(needs))


def _while_vjp_impl(*arrays, cond, body, vjp_body, float_carry, layout):
    """Run the loop saving the carries entering each step, then the steps' vjps backwards."""
    *arrays, g = arrays
    ncc, nbc = cond.num_constants, body.num_constants
    cond_constants, body_constants = arrays[:ncc], arrays[ncc:ncc + nbc]
    carry = tuple(arrays[ncc + nbc:])
    carry_layout = Layout([aval_of(c) for c in carry])
    saved = []
    while cond.call(*cond_constants, *carry)[0]:
        saved.append(carry)
        carry = body.call(*body_constants, *carry)
    g_carry = carry_layout.unpack(np.asarray(g))
    state = [*[g_carry[k] for k in float_carry],
             *[np.zeros(a.shape, a.dtype) for a in layout.avals[:len(layout.avals)
                                                                - len(float_carry)]]]
    step = vjp_body.call
    for entering in reversed(saved):
        state = step(*body_constants, *state, *entering)
    num_float_carry = len(float_carry)
    return layout.pack([*state[num_float_carry:], *state[:num_float_carry]])


def _while_vjp_vjp(*args, **params):
    raise NotImplementedError(
        "the reverse-mode derivative of while_loop's gradient is not implemented (its "
        "iterations are counted at run time); for higher-order derivatives use fori_loop or "
        "scan with a fixed trip count, or forward mode (ug.jvp) over the gradient")


def _while_jvp(tangents, out, *arrays, cond, body, layout):
    ncc, nbc = cond.num_constants, body.num_constants
    avals = [aval_of(a) for a in arrays]
    num_carry = len(arrays) - ncc - nbc
    moving = [i for i in range(ncc, len(arrays)) if tangents[i] is not None
              and is_float(avals[i])]
    body_moving = [i - ncc for i in moving if i < ncc + nbc]
    jvp_body = _cached(body, ("jvp", tuple(moving)), lambda: _loop_jvp_body(
        body, num_carry, [body_moving, [], []], avals[ncc:]))
    carry_avals = avals[ncc + nbc:]
    tangent_avals = [a if is_float(a) else _float_aval(a, np.float32) for a in carry_avals]
    jvp_cond = _cached(cond, ("jvp cond", num_carry), lambda: derived_branch(
        lambda *values: cond.interpret(*values[:ncc + num_carry]),
        [*avals[:ncc], *carry_avals, *tangent_avals], f"jvp_{cond.name}", ncc))
    init = [*arrays[ncc + nbc:], *[_tangent_or_zeros(tangents[ncc + nbc + k], carry_avals[k])
                                   for k in range(num_carry)]]
    jvp_layout = Layout([*carry_avals, *tangent_avals])
    packed = bind(while_p, *arrays[:ncc], *arrays[ncc:ncc + nbc],
                  *[tangents[ncc + k] for k in body_moving], *init, cond=jvp_cond,
                  body=jvp_body, layout=jvp_layout)
    return _pack_tensors(layout, jvp_layout.unpack(packed)[num_carry:])


def _while_batch(values, dims, cond, body, layout):
    """Every carry is batched; the loop runs while any example's condition holds, and an
    example whose condition fails keeps its carries."""
    from ..transforms.vectorize import vmap
    from .elementwise import where
    from .reduce import any as any_
    from .shape import reshape
    ncc, nbc = cond.num_constants, body.num_constants
    size = _batch_size(values, dims)
    cond_constants, body_constants = list(values[:ncc]), list(values[ncc:ncc + nbc])
    carries = [_batched_value(v, d, size) for v, d in zip(values[ncc + nbc:], dims[ncc + nbc:])]
    cond_dims, body_dims = list(dims[:ncc]), list(dims[ncc:ncc + nbc])
    carry_dims = [0] * len(carries)

    def per_example_test(*args):
        return vmap(lambda *a: cond.interpret(*a)[0], in_axes=(*cond_dims, *carry_dims))(*args)

    def batched_test(*args):
        return any_(per_example_test(*args))

    def batched_step(*args):
        test_args = [*args[:ncc], *args[ncc + nbc:]]
        running = per_example_test(*test_args)
        new = vmap(lambda *a: body.interpret(*a), in_axes=(*body_dims, *carry_dims))(
            *args[ncc:])
        return [where(reshape(running, (size,) + (1,) * (len(tuple(n.shape)) - 1)), n, old)
                for n, old in zip(new, args[ncc + nbc:])]

    carry_avals = [aval_of(c) for c in carries]
    test_branch = derived_branch(batched_test, [*map(aval_of, cond_constants), *carry_avals],
                                 f"vmap_{cond.name}", ncc)
    step_branch = derived_branch(batched_step, [*map(aval_of, cond_constants),
                                                *map(aval_of, body_constants), *carry_avals],
                                 f"vmap_{body.name}", ncc + nbc)
    batched_layout = Layout(carry_avals)
    packed = bind(while_p, *cond_constants, *cond_constants, *body_constants, *carries,
                  cond=test_branch, body=step_branch, layout=batched_layout)
    return _per_example_rows(batched_layout, packed, layout, size, [False] * len(carries)), 0


while_p = Primitive("while_loop", _while_impl, _shape_rule, vjp=_while_vjp, jvp=_while_jvp,
                    batch=_while_batch, saves="inputs", complex_gradient="own",
                   text_body=_text_body)

while_vjp_p = Primitive("while_loop_vjp", _while_vjp_impl, _shape_rule, vjp=_while_vjp_vjp,
                        saves="nothing", complex_gradient="own",
                        text_body=_text_body)


def bind_while(cond: Branch, cond_constants, body: Branch, body_constants, init) -> list:
    """Bind ``while_loop``; returns the final carries (a flat list)."""
    layout = Layout([aval_of(v) for v in init])
    packed = bind(while_p, *cond_constants, *body_constants, *init, cond=cond, body=body,
                  layout=layout)
    return layout.unpack(packed)

