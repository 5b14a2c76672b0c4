"""unigrad: one autodiff engine that speaks PyTorch, TensorFlow and MindSpore.

Example:
    >>> import unigrad as ug
    >>> x = ug.tensor(2.0, requires_grad=True)
    >>> y = ug.tensor(3.0, requires_grad=True)
    >>> (x * x * y).backward()
    >>> x.grad, y.grad
    (tensor(12.), tensor(4.))
"""

from . import (
    _numpy_warnings,  # first: NumPy's floating-point warnings in unigrad's code are silenced
    amp,
    autograd,
    backend,
    data,
    fft,
    func,
    graph,
    io,
    linalg,
    nn,
    ops,
    optim,
    transforms,
    viz,
)
from ._format import get_printoptions, printoptions, set_printoptions
from .autograd import (
    enable_grad,
    inference_mode,
    is_grad_enabled,
    is_inference_mode_enabled,
    no_grad,
    set_grad_enabled,
)
from .backend import (
    Device,
    DType,
    bool_,
    complex64,
    complex128,
    float16,
    float32,
    float64,
    int8,
    int16,
    int32,
    int64,
    uint8,
)
from .context import GRAPH_MODE, PYNATIVE_MODE, get_context, set_context
from .dtype_info import finfo, iinfo
from .graph import jit
from .io import load, save
from .nn.accumulator import GradAccumulator
from .ops import *  # noqa: F403
from .size import Size
from .tensor import Tensor
from .transforms import (
    GradientTape,
    UnconnectedGradients,
    checkpoint,
    custom_gradient,
    custom_jvp,
    custom_vjp,
    get_grad,
    grad,
    gradients,
    hessian,
    hvp,
    jacfwd,
    jacobian,
    jacrev,
    jvp,
    linearize,
    stop_gradient,
    value_and_grad,
    vjp,
    vmap,
)

device = Device
bool = bool_  # noqa: A001 - PyTorch spells the dtype ug.bool
float = float32  # noqa: A001
double = float64
cfloat = complex64
cdouble = complex128
half = float16
long = int64
int = int32  # noqa: A001

__version__ = "0.1.0"
