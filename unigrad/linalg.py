"""``unigrad.linalg``: the ``torch.linalg`` spelling of unigrad's linear algebra.

Example:
    >>> import unigrad as ug
    >>> ug.linalg.det(ug.tensor([[2.0, 1.0], [1.0, 3.0]]))
    tensor(5.)
"""

from .ops.linalg import LinAlgError, cholesky, det, inv, matmul, matrix_norm, slogdet, solve
from .ops.linalg import linalg_norm as norm
from .ops.reduce import vector_norm
from .ops.statistics import linalg_cross as cross

__all__ = ["LinAlgError", "cholesky", "cross", "det", "inv", "matmul", "matrix_norm", "norm",
           "slogdet", "solve", "vector_norm"]
