"""PyTorch spelled on unigrad: ``import unigrad.compat.torch as torch``.

unigrad's own :class:`~unigrad.Tensor` already follows PyTorch (its repr,
``.grad``, ``backward``, hooks), so ``torch.tensor``, ``torch.Tensor`` and the
math functions here *are* the unigrad objects; this package only gathers them
under PyTorch's names, together with ``torch.autograd``, ``torch.nn``
(``torch.nn.functional``, ``torch.nn.init``), ``torch.optim`` and
``torch.func``. Names PyTorch does not have are not exported, so a typo fails
with the usual ``AttributeError`` naming it.

Importing this package makes unigrad's text forms use PyTorch's names, for
every tensor in the process: dtypes print as ``torch.float32`` and shapes are
``torch.Size`` objects (``unigrad.float32`` and plain tuples before).

Example:
    >>> import unigrad.compat.torch as torch
    >>> x = torch.tensor(2., requires_grad=True)
    >>> y = torch.tensor(3., requires_grad=True)
    >>> z = x * x * y
    >>> z.backward()
    >>> print(x.grad, y.grad)
    tensor(12.) tensor(4.)
    >>> torch.autograd.grad(torch.sin(x) * y, x)
    (tensor(-1.2484),)
"""

from __future__ import annotations

import builtins
from collections.abc import Callable
from typing import Any

import numpy as np

import unigrad as _ug
from unigrad import _state, linalg
from unigrad._format import set_printoptions
from unigrad.autograd import (
    enable_grad,
    inference_mode,
    is_grad_enabled,
    is_inference_mode_enabled,
    no_grad,
    set_grad_enabled,
)
from unigrad.backend import Device as device
from unigrad.backend import DType as dtype
from unigrad.dtype_info import finfo, iinfo
from unigrad.nn.functional import (  # torch.<name> spellings with F's leading arguments
    adaptive_avg_pool1d,
    adaptive_max_pool1d,
    avg_pool1d,
    bilinear,
    celu,
    celu_,
    channel_shuffle,
    conv3d,
    conv_transpose1d,
    conv_transpose2d,
    conv_transpose3d,
    cosine_similarity,
    group_norm,
    hardshrink,
    layer_norm,
    max_pool1d,
    max_pool2d,
    max_pool3d,
    native_channel_shuffle,
    pairwise_distance,
    pdist,
    pixel_shuffle,
    pixel_unshuffle,
    prelu,
    relu_,
    rms_norm,
    rrelu,
    rrelu_,
    selu,
    selu_,
    threshold,
    threshold_,
)
from unigrad.ops import (
    Generator,
    abs,
    absolute,
    acos,
    acosh,
    add,
    addbmm,
    addcdiv,
    addcmul,
    addmm,
    addmv,
    addr,
    alias_copy,
    all,
    amax,
    amin,
    aminmax,
    angle,
    any,
    arange,
    arccos,
    arccosh,
    arcsin,
    arcsinh,
    arctan,
    arctan2,
    arctanh,
    argmax,
    argmin,
    argsort,
    argwhere,
    as_tensor,
    asin,
    asinh,
    atan,
    atan2,
    atanh,
    atleast_1d,
    atleast_2d,
    atleast_3d,
    baddbmm,
    bernoulli,
    bincount,
    bitwise_and,
    bitwise_left_shift,
    bitwise_not,
    bitwise_or,
    bitwise_right_shift,
    bitwise_xor,
    block_diag,
    bmm,
    broadcast_shapes,
    broadcast_tensors,
    broadcast_to,
    bucketize,
    cartesian_prod,
    cat,
    cdist,
    ceil,
    chain_matmul,
    cholesky_inverse,
    cholesky_solve,
    chunk,
    clamp,
    clamp_max,
    clamp_min,
    clip,
    clone,
    column_stack,
    combinations,
    complex,
    concat,
    concatenate,
    conj,
    conj_physical,
    conv1d,
    conv2d,
    copysign,
    corrcoef,
    cos,
    cosh,
    count_nonzero,
    cov,
    cross,
    cummax,
    cummin,
    cumprod,
    cumsum,
    cumulative_trapezoid,
    default_generator,
    deg2rad,
    det,
    detach_copy,
    diag,
    diag_embed,
    diagflat,
    diagonal,
    diagonal_copy,
    diagonal_scatter,
    diff,
    digamma,
    dist,
    div,
    divide,
    dot,
    dsplit,
    dstack,
    einsum,
    empty,
    empty_like,
    empty_strided,
    eq,
    erf,
    erfc,
    erfinv,
    exp,
    exp2,
    expand_copy,
    expm1,
    eye,
    fill,
    fix,
    flatten,
    flip,
    fliplr,
    flipud,
    float_power,
    floor,
    floor_divide,
    fmax,
    fmin,
    fmod,
    frac,
    frexp,
    from_dlpack,
    from_numpy,
    full,
    full_like,
    gather,
    gcd,
    ge,
    get_default_device,
    get_rng_state,
    gradient,
    greater,
    greater_equal,
    gt,
    heaviside,
    histc,
    histogram,
    hsplit,
    hstack,
    hypot,
    i0,
    igamma,
    igammac,
    imag,
    index_add,
    index_copy,
    index_fill,
    index_put,
    index_reduce,
    index_select,
    initial_seed,
    inner,
    inverse,
    is_complex,
    is_conj,
    isfinite,
    isin,
    isinf,
    isnan,
    isneginf,
    isposinf,
    isreal,
    kron,
    kthvalue,
    lcm,
    ldexp,
    le,
    lerp,
    less,
    less_equal,
    lgamma,
    linspace,
    log,
    log1p,
    log2,
    log10,
    log_softmax,
    logaddexp,
    logaddexp2,
    logcumsumexp,
    logdet,
    logical_and,
    logical_not,
    logical_or,
    logical_xor,
    logit,
    logspace,
    logsumexp,
    lt,
    lu,
    lu_solve,
    lu_unpack,
    manual_seed,
    masked_fill,
    masked_scatter,
    masked_select,
    matmul,
    matrix_exp,
    matrix_power,
    max,
    maximum,
    mean,
    median,
    meshgrid,
    min,
    minimum,
    mm,
    moveaxis,
    movedim,
    msort,
    mul,
    multinomial,
    multiply,
    mv,
    mvlgamma,
    nan_to_num,
    nanmean,
    nanmedian,
    nanquantile,
    nansum,
    narrow,
    narrow_copy,
    ne,
    neg,
    negative,
    nextafter,
    nonzero,
    norm,
    normal,
    not_equal,
    ones,
    ones_like,
    orgqr,
    outer,
    permute,
    permute_copy,
    pinverse,
    poisson,
    polar,
    polygamma,
    positive,
    pow,
    prod,
    put,
    qr,
    quantile,
    rad2deg,
    rand,
    rand_like,
    randint,
    randint_like,
    randn,
    randn_like,
    randperm,
    ravel,
    real,
    reciprocal,
    relu,
    remainder,
    renorm,
    repeat_interleave,
    reshape,
    resolve_conj,
    resolve_neg,
    roll,
    rot90,
    round,
    row_stack,
    rsqrt,
    rsub,
    scalar_tensor,
    scatter,
    scatter_add,
    scatter_reduce,
    searchsorted,
    seed,
    select,
    select_copy,
    select_scatter,
    set_default_device,
    set_default_dtype,
    set_rng_state,
    sgn,
    sigmoid,
    sign,
    signbit,
    sin,
    sinc,
    sinh,
    slice_scatter,
    slogdet,
    softmax,
    sort,
    split,
    split_copy,
    split_with_sizes,
    split_with_sizes_copy,
    sqrt,
    square,
    squeeze,
    squeeze_copy,
    stack,
    std,
    std_mean,
    sub,
    subtract,
    sum,
    svd,
    swapaxes,
    swapdims,
    t,
    t_copy,
    take,
    take_along_dim,
    tan,
    tanh,
    tensor,
    tensor_split,
    tensordot,
    tile,
    topk,
    trace,
    transpose,
    transpose_copy,
    trapezoid,
    trapz,
    triangular_solve,
    tril,
    tril_indices,
    triu,
    triu_indices,
    true_divide,
    trunc,
    unbind,
    unbind_copy,
    unflatten,
    unfold_copy,
    unique,
    unique_consecutive,
    unravel_index,
    unsafe_chunk,
    unsafe_split,
    unsqueeze,
    unsqueeze_copy,
    vander,
    var,
    var_mean,
    vdot,
    view_as_complex,
    view_as_real,
    view_copy,
    vsplit,
    vstack,
    where,
    xlogy,
    zeros,
    zeros_like,
)
from unigrad.size import Size
from unigrad.tensor import Tensor

from . import _out, accelerator, autograd, cuda, fft, func, nn, optim, special, testing, utils
from .func import vmap
from .serialization import load, save

_state.global_state.text_names = "torch"  # dtypes and shapes print with PyTorch's names

float16 = half = _ug.float16
float32 = float = _ug.float32  # noqa: A001 - PyTorch's spelling
float64 = double = _ug.float64
int8 = _ug.int8
int16 = short = _ug.int16
int32 = int = _ug.int32  # noqa: A001
int64 = long = _ug.int64
uint8 = _ug.uint8
bool = _ug.bool_  # noqa: A001
complex64 = cfloat = _ug.complex64
complex128 = cdouble = _ug.complex128

# torch's mathematical constants (Python floats, as in PyTorch)
pi = np.pi
e = np.e
inf = np.inf
nan = np.nan


def is_tensor(obj: object) -> builtins.bool:
    """True when ``obj`` is a Tensor (``torch.is_tensor``).

    Example:
        >>> import unigrad.compat.torch as torch
        >>> torch.is_tensor(torch.ones(2)), torch.is_tensor([1.0])
        (True, False)
    """
    return isinstance(obj, Tensor)


def is_floating_point(input: Tensor) -> builtins.bool:
    """True when ``input`` has a floating-point dtype (``torch.is_floating_point``)."""
    _check_tensor(input, "input", "is_floating_point")
    return input.is_floating_point()


def numel(input: Tensor) -> builtins.int:
    """The number of elements of ``input`` (``torch.numel``).

    Example:
        >>> import unigrad.compat.torch as torch
        >>> torch.numel(torch.zeros(2, 3))
        6
    """
    _check_tensor(input, "input", "numel")
    return input.numel()


def zero_(input: Tensor) -> Tensor:
    """Fill ``input`` with zeros in place and return it (``torch.zero_``).

    Example:
        >>> import unigrad.compat.torch as torch
        >>> torch.zero_(torch.ones(2))
        tensor([0., 0.])
    """
    _check_tensor(input, "input", "zero_")
    return input.zero_()


def get_default_dtype() -> dtype:
    """The dtype of floating-point tensors made from Python floats (``torch.float32`` unless
    ``torch.set_default_dtype`` changed it)."""
    return _ug.get_default_dtype()


def equal(input: Tensor, other: Tensor) -> builtins.bool:
    """True when both tensors have the same shape and elements (``torch.equal``).

    Example:
        >>> import unigrad.compat.torch as torch
        >>> torch.equal(torch.tensor([1., 2.]), torch.tensor([1., 2.]))
        True
        >>> torch.equal(torch.tensor([1., 2.]), torch.tensor([1., 3.]))
        False
    """
    _check_tensor(input, "input", "equal")
    return input.equal(other)


def isclose(input: Tensor, other, rtol: builtins.float = 1e-05,
            atol: builtins.float = 1e-08, equal_nan: builtins.bool = False) -> Tensor:
    """Elementwise ``|input - other| <= atol + rtol * |other|`` (``torch.isclose``), a bool tensor.

    Example:
        >>> import unigrad.compat.torch as torch
        >>> torch.isclose(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.1]))
        tensor([ True, False])
    """
    _check_tensor(input, "input", "isclose")
    with no_grad():
        a = input.detach()
        b = other.detach() if isinstance(other, Tensor) else as_tensor(other, dtype=a.dtype)
        close = le(abs(a - b), atol + rtol * abs(b)) | eq(a, b)
        if equal_nan:
            close = close | (isnan(a) & isnan(b))
    return close


def allclose(input: Tensor, other, rtol: builtins.float = 1e-05,
             atol: builtins.float = 1e-08, equal_nan: builtins.bool = False) -> builtins.bool:
    """True when every element of ``input`` is close to ``other`` (``torch.allclose``).

    Example:
        >>> import unigrad.compat.torch as torch
        >>> torch.allclose(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.0 + 1e-7]))
        True
    """
    return builtins.bool(isclose(input, other, rtol, atol, equal_nan).all())


def compile(model: Callable | None = None, *, fullgraph: builtins.bool = False,  # noqa: A001
            dynamic: builtins.bool | None = None, backend: str | Callable = "inductor",
            mode: str | None = None, options: dict | None = None,
            disable: builtins.bool = False) -> Any:
    """``torch.compile``: compile ``model`` (a function or Module) with :func:`unigrad.jit`.

    ``backend``, ``mode``, ``options``, ``fullgraph`` and ``dynamic`` are
    accepted and ignored (unigrad has one compiler); ``disable=True`` returns
    ``model`` unchanged. Without ``model`` it returns a decorator.

    Example:
        >>> import unigrad.compat.torch as torch
        >>> @torch.compile(mode="reduce-overhead")
        ... def f(x):
        ...     return torch.relu(x) * 2 + 1
        >>> f(torch.tensor([-0.5, 1.0]))
        tensor([1., 3.])
    """
    if mode is not None and not isinstance(mode, str):
        raise TypeError(f"torch.compile: mode must be a str or None, got {type(mode).__name__}")
    if model is None:
        return lambda m: compile(m, fullgraph=fullgraph, dynamic=dynamic, backend=backend,
                                 mode=mode, options=options, disable=disable)
    if not callable(model):
        raise TypeError(f"torch.compile: model must be a callable (a function or Module), got "
                        f"{type(model).__name__}")
    if disable:
        return model
    return _ug.jit(model)


def adjoint(input: Tensor) -> Tensor:
    """The conjugate transpose of the last two dimensions, ``input.mH`` (``torch.adjoint``).

    Example:
        >>> import unigrad.compat.torch as torch
        >>> torch.adjoint(torch.tensor([[1 + 2j, 3 - 1j]]))
        tensor([[1.-2.j],
                [3.+1.j]])
    """
    _check_tensor(input, "input", "adjoint")
    if input.ndim < 2:
        raise RuntimeError(f"tensor.adjoint() is only supported on matrices or batches of "
                           f"matrices. Got {input.ndim}-D tensor.")
    return input.mH


def _check_tensor(value: object, name: str, function: str) -> None:
    if not isinstance(value, Tensor):
        raise TypeError(f"{function}(): argument '{name}' must be Tensor, not "
                        f"{type(value).__name__}")


# torch.mode: assigned, not imported (torch.compile's ``mode`` argument would shadow an import)
mode = _ug.mode

# torch.sin_(x) and the other in-place functions: the Tensor's in-place methods
_INPLACE_FUNCTIONS = (
    "abs_", "acos_", "acosh_", "addmv_", "arccos_", "arccosh_", "arcsin_", "arcsinh_",
    "arctan_", "arctanh_", "asin_", "asinh_", "atan_", "atanh_", "ceil_", "clamp_",
    "clamp_max_", "clamp_min_", "clip_", "conj_physical_", "cos_", "cosh_", "deg2rad_",
    "detach_", "erf_", "erfc_", "exp2_", "exp_", "expm1_", "fill_", "fix_", "floor_", "frac_",
    "gcd_", "i0_", "index_put_", "lcm_", "ldexp_", "log10_", "log1p_", "log2_", "log_",
    "logit_", "nan_to_num_", "neg_", "negative_", "rad2deg_", "reciprocal_", "round_",
    "rsqrt_", "sigmoid_", "sin_", "sinc_", "sinh_", "sqrt_", "square_", "tan_", "tanh_",
    "trunc_", "xlogy_", "zero_")


def _inplace_function(name: str) -> Callable:
    def inplace(input: Tensor, *args, **kwargs) -> Tensor:
        _check_tensor(input, "input", name)
        return getattr(input, name)(*args, **kwargs)
    inplace.__name__ = inplace.__qualname__ = name
    inplace.__doc__ = f"``torch.{name}(input, ...)``: ``input.{name}(...)``, in place."
    return inplace


for _name in _INPLACE_FUNCTIONS:
    if _name not in globals() and hasattr(Tensor, _name):
        globals()[_name] = _inplace_function(_name)

# PyTorch's functions that take no ``out=``: views, splits, conversions, *_like, predicates
_WITHOUT_OUT = frozenset({
    "broadcast_shapes", "broadcast_tensors", "diagonal_scatter", "put", "select_scatter",
    "split_with_sizes", "unravel_index", "unsafe_chunk", "unsafe_split",
    "as_tensor", "atleast_1d", "atleast_2d", "atleast_3d", "broadcast_to", "chunk", "diagonal",
    "dsplit", "empty_like", "expand", "flatten", "from_dlpack", "from_numpy", "full_like",
    "hsplit", "manual_seed", "meshgrid", "movedim", "moveaxis", "narrow", "ones_like", "permute",
    "rand_like", "randint_like", "randn_like", "ravel", "reshape", "select", "split", "squeeze",
    "swapaxes", "swapdims", "t", "tensor", "tensor_split", "transpose", "unbind", "unflatten",
    "unsqueeze", "view", "vsplit", "zeros_like", "get_rng_state", "set_rng_state", "seed",
    "initial_seed", "set_default_dtype", "get_default_dtype", "set_default_device",
    "get_default_device",
    "empty_strided", "fill", "gradient", "isreal", "positive", "rsub", "scalar_tensor", "trapz",
    "pinverse",
    # complex numbers: views, conversions and predicates (angle, complex, polar, sgn and
    # conj_physical do take out=)
    "real", "imag", "conj", "resolve_conj", "resolve_neg", "is_conj", "is_complex",
    "view_as_real", "view_as_complex",
})
_out.install(globals(), [name for name, value in list(globals().items())
                         if not name.startswith("_") and name not in _WITHOUT_OUT
                         and callable(value) and not isinstance(value, type)
                         and str(getattr(value, "__module__", "")).startswith("unigrad.ops")])

__all__ = sorted(name for name in dir() if not name.startswith("_") and name not in {
    "annotations", "Any", "Callable", "np", "builtins"})
