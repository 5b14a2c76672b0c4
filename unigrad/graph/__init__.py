"""Graph mode: tracing to an IR, graph autodiff, optimization passes and code generation.

Example:
    >>> import unigrad as ug
    >>> f = ug.jit(lambda x: (x * x).sum())
    >>> f(ug.tensor([1.0, 2.0]))
    tensor(5.)
"""

from .ir import Eqn, Graph, GraphError, Literal, Var
from .jit import Compiled, CompileReport, JitFunction, jit
from .kernel_cache import kernel_cache_size, set_kernel_cache_size
from .tracer import ConcretizationError, TracerLeakError

__all__ = ["Eqn", "Graph", "GraphError", "Literal", "Var", "CompileReport", "Compiled",
           "JitFunction", "jit", "ConcretizationError", "TracerLeakError", "kernel_cache_size",
           "set_kernel_cache_size"]
