"""``minarray.linalg``: the Array API linear-algebra extension, and NumPy's
``norm``, ``lstsq``, ``multi_dot``, ``cond``, ``tensorinv`` and
``tensorsolve``.

Factorisations, solves and spectra run on LAPACK (OpenBLAS from the
``scipy-openblas64`` wheel, batched by csrc/core/lapack.c); matrix products
are the core namespace's (``minarray.matmul`` is ``minarray.linalg.matmul``).
Every function accepts stacks of matrices in the leading dimensions and
float32, float64, complex64 and complex128 arrays (integers are computed
in float64).  A numerical failure raises :class:`LinAlgError`, a
``ValueError``.
"""

from __future__ import annotations

from minarray._linear_algebra import matmul, matrix_transpose, tensordot, vecdot
from minarray.linalg._decompositions import (
    EighResult,
    EigResult,
    LstsqResult,
    QRResult,
    SlogdetResult,
    SVDResult,
    cholesky,
    cond,
    det,
    eig,
    eigh,
    eigvals,
    eigvalsh,
    inv,
    lstsq,
    matrix_power,
    matrix_rank,
    pinv,
    qr,
    slogdet,
    solve,
    svd,
    svdvals,
    tensorinv,
    tensorsolve,
)
from minarray.linalg._lapack import LinAlgError
from minarray.linalg._matrix import cross, diagonal, multi_dot, outer, trace
from minarray.linalg._norms import matrix_norm, norm, vector_norm

__all__ = [
    # Array API 2025.12 linalg extension
    "cholesky", "cross", "det", "diagonal", "eig", "eigh", "eigvals", "eigvalsh", "inv", "matmul",
    "matrix_norm", "matrix_power", "matrix_rank", "matrix_transpose", "outer", "pinv", "qr", "slogdet",
    "solve", "svd", "svdvals", "tensordot", "trace", "vecdot", "vector_norm",
    # NumPy's additions
    "norm", "lstsq", "multi_dot", "cond", "tensorinv", "tensorsolve",
    # errors and results
    "LinAlgError", "EigResult", "EighResult", "LstsqResult", "QRResult", "SlogdetResult", "SVDResult",
]
