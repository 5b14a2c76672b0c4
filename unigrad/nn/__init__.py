"""Neural networks: Cells/Modules with Parameters, layers, losses, initializers, wrappers.

``unigrad.nn.functional`` holds the stateless functions (PyTorch's ``F``),
``unigrad.nn.init`` the initializers, ``unigrad.nn.utils`` gradient clipping.
"""

from . import functional, init, utils
from .accumulator import GradAccumulator
from .cell import Cell, Module
from .containers import *
from .layers import *
from .losses import *
from .parameter import Buffer, Parameter, ParameterTuple
from .wrappers import *
