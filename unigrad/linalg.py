"""``unigrad.linalg``: the ``torch.linalg`` spelling of unigrad's linear algebra.

Example:
    >>> import unigrad as ug
    >>> ug.linalg.det(ug.tensor([[2.0, 1.0], [1.0, 3.0]]))
    tensor(5.)
"""

from .ops.decompositions import cond, eigh, eigvalsh, lstsq, matrix_rank, pinv, svdvals
from .ops.decompositions import linalg_qr as qr
from .ops.decompositions import linalg_svd as svd
from .ops.linalg import LinAlgError, cholesky, det, inv, matmul, matrix_norm, slogdet, solve
from .ops.linalg import linalg_norm as norm
from .ops.linalg_solvers import (
    cholesky_ex,
    householder_product,
    inv_ex,
    lu_factor,
    lu_factor_ex,
    matrix_exp,
    matrix_power,
    multi_dot,
    solve_ex,
    solve_triangular,
    tensorinv,
    tensorsolve,
    vecdot,
)
from .ops.linalg_solvers import linalg_diagonal as diagonal
from .ops.linalg_solvers import linalg_lu as lu
from .ops.linalg_solvers import linalg_lu_solve as lu_solve
from .ops.linalg_solvers import linalg_vander as vander
from .ops.reduce import vector_norm
from .ops.statistics import linalg_cross as cross

__all__ = ["LinAlgError", "cholesky", "cross", "det", "inv", "matmul", "matrix_norm", "norm",
           "slogdet", "solve", "vector_norm"]
__all__ += ["cond", "eigh", "eigvalsh", "lstsq", "matrix_rank", "pinv", "qr", "svd", "svdvals"]
__all__ += ["cholesky_ex", "diagonal", "householder_product", "inv_ex", "lu", "lu_factor",
            "lu_factor_ex", "lu_solve", "matrix_exp", "matrix_power", "multi_dot", "solve_ex",
            "solve_triangular", "tensorinv", "tensorsolve", "vander", "vecdot"]
