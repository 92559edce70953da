"""Factorisations, solves and the spectra: the functions of
``minarray.linalg`` that run on LAPACK (through ``_lapack``), plus those
built from them (pinv, matrix_rank, matrix_power, cond).

Every function takes matrices in the last two dimensions and stacks of
them in the leading ones.  Inputs of integer or boolean dtype are computed
in float64 (NumPy's rule); float16 and bfloat16 are refused, as NumPy
refuses float16.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, NamedTuple

from minarray import _dtypes as _dt
from minarray import _elementwise as _ew
from minarray import _indexing, _manipulation, _sorting, _subclass, _utility
from minarray import _statistical as _stat
from minarray._array_object import NDArray
from minarray._coerce import as_int, as_operand, broadcast_shapes, normalize_axis
from minarray._creation import eye, zeros
from minarray._data_type_functions import finfo
from minarray._dtypes import DType
from minarray._errstate import errstate
from minarray._linear_algebra import matmul, matrix_transpose
from minarray._manipulation import broadcast_to, permute_dims
from minarray._native import core
from minarray.linalg import _lapack
from minarray.linalg._lapack import LA_TYPE, REAL, LinAlgError


class EighResult(NamedTuple):
    eigenvalues: NDArray
    eigenvectors: NDArray


class EigResult(NamedTuple):
    eigenvalues: NDArray
    eigenvectors: NDArray


class QRResult(NamedTuple):
    Q: NDArray
    R: NDArray


class SlogdetResult(NamedTuple):
    sign: NDArray
    logabsdet: NDArray


class SVDResult(NamedTuple):
    U: NDArray
    S: NDArray
    Vh: NDArray


class LstsqResult(NamedTuple):
    x: NDArray
    residuals: NDArray
    rank: NDArray  # an int32 scalar: LAPACK's integer, as NumPy returns it
    s: NDArray


def lapack_dtype(dt: DType, fname: str) -> DType:
    """The type LAPACK computes ``dt`` in."""
    if dt in LA_TYPE:
        return dt
    if dt.kind in "biu":
        return _dt.float64
    raise TypeError(f"{fname}: arrays of dtype {dt} are not supported; "
                    "use float32, float64, complex64 or complex128")


def matrices(x: Any, fname: str, square: bool = False) -> NDArray:
    """``x`` as an array of matrices (ndim >= 2) in its LAPACK type."""
    a = as_operand(x, fname)
    if a.ndim < 2:
        raise LinAlgError(f"{fname}: expected a matrix or a stack of matrices (ndim >= 2), got shape {a.shape}")
    if square and a.shape[-1] != a.shape[-2]:
        raise LinAlgError(f"{fname}: expected square matrices in the last two dimensions, got shape {a.shape}")
    return a.astype(lapack_dtype(a.dtype, fname), copy=False)


def _conj_t(x: NDArray) -> NDArray:
    """The conjugate transpose of each matrix."""
    t = matrix_transpose(x)
    return _ew.conj(t) if x.dtype.kind == "c" else t


def _identity(shape: tuple[int, ...], dt: DType) -> NDArray:
    """Identity matrices of shape (..., n, n)."""
    n = shape[-1]
    return broadcast_to(eye(n, dtype=dt), shape).copy()


# ---- determinants, inverse, solve, Cholesky --------------------------------


def det(x: Any, /) -> NDArray:
    """Determinant of each square matrix (LU factorisation, LAPACK ?getrf);
    0 for a singular matrix."""
    if type(x) is not NDArray:
        x = _subclass.plain(x)
    a = matrices(x, "det", square=True)
    det = _lapack.slogdet(a, True)[2]
    assert det is not None
    return core.scalar_result(det)  # one matrix's is NumPy's scalar


def slogdet(x: Any, /) -> SlogdetResult:
    """Sign and natural log of the absolute value of the determinant
    (``SlogdetResult(sign, logabsdet)``).  For a singular matrix the sign
    is 0 and ``logabsdet`` is -inf; for complex input the sign is a complex
    number of modulus 1."""
    a = matrices(x, "slogdet", square=True)
    sign, logabs, _ = _lapack.slogdet(a, False)
    # (one matrix's are NumPy's scalars)
    return SlogdetResult(core.scalar_result(sign), core.scalar_result(logabs))


def inv(x: Any, /) -> NDArray:
    """Inverse of each square matrix (LAPACK ?gesv against the identity).
    Raises :class:`LinAlgError` for a singular matrix."""
    if type(x) is not NDArray and _subclass.instance(x):  # NumPy wraps the result as the input's type
        return _subclass.through_method(inv, x)
    return _lapack.solve(matrices(x, "inv", square=True), None, "inv")


def solve(x1: Any, x2: Any, /) -> NDArray:
    """Solve ``x1 @ x = x2`` for ``x`` (LAPACK ?gesv).

    ``x1`` is (..., M, M).  ``x2`` is (..., M, K), its batch dimensions
    broadcasting against x1's, or, when 1-d, a vector (M,) solved against
    every matrix of the stack: the result is then (..., M).  Raises
    :class:`LinAlgError` for a singular matrix.
    """
    if _subclass.instance(x1) or _subclass.instance(x2):  # NumPy wraps the result as x2's type
        made = solve(_subclass.plain(x1), _subclass.plain(x2))
        return _subclass.kept(made, x2) if _subclass.instance(x2) else made
    a = matrices(x1, "solve", square=True)
    b = as_operand(x2, "solve")
    dt = lapack_dtype(_dt.promote(a.dtype, b.dtype), "solve")
    n = a.shape[-1]
    if b.ndim == 0:
        raise ValueError("solve: x2 must have at least one dimension, got a 0-d array")
    vector = b.ndim == 1
    rows = b.shape[0] if vector else b.shape[-2]
    if rows != n:
        raise ValueError(f"solve: x2 needs {n} rows to match x1 of shape {a.shape}, got shape {b.shape}")
    b2 = b.reshape((n, 1)) if vector else b
    try:
        batch = broadcast_shapes(a.shape[:-2], b2.shape[:-2])
    except ValueError:
        raise ValueError(f"solve: the batch dimensions of shapes {a.shape} and {b.shape} do not broadcast") from None
    a = broadcast_to(a.astype(dt, copy=False), (*batch, n, n))
    b2 = broadcast_to(b2.astype(dt, copy=False), (*batch, n, b2.shape[-1]))
    out = _lapack.solve(a, b2, "solve")
    return out.reshape(out.shape[:-1]) if vector else out


def cholesky(x: Any, /, *, upper: bool = False) -> NDArray:
    """Cholesky factor of each Hermitian positive-definite matrix (LAPACK
    ?potrf): lower-triangular L with ``x = L @ L^H``, or, with ``upper``,
    ``U = L^H``.  Only the triangle named is read.  Raises
    :class:`LinAlgError` when a matrix is not positive definite."""
    if type(x) is not NDArray and _subclass.instance(x):  # NumPy wraps the result as the input's type
        return _subclass.through_method(cholesky, x, upper=upper)
    return _lapack.cholesky(matrices(x, "cholesky", square=True), bool(upper))


# ---- eigenvalues -----------------------------------------------------------------


def _hermitian(x: Any, uplo: Any, fname: str) -> NDArray:
    """The square matrices ``x`` arranged so LAPACK, which reads the lower
    triangle, reads the triangle ``uplo`` names (NumPy's ``UPLO``, 'L' or
    'U', either case): the upper triangle of A is the lower triangle of its
    conjugate transpose, the same Hermitian matrix."""
    u = uplo.upper() if isinstance(uplo, str) else uplo
    if u not in ("L", "U"):
        raise ValueError("UPLO argument must be 'L' or 'U'")
    a = matrices(x, fname, square=True)
    return _conj_t(a) if u == "U" else a


def eigh(x: Any, /, UPLO: str = "L") -> EighResult:  # NumPy's name
    """Eigenvalues (ascending, real) and orthonormal eigenvectors (the
    columns) of each Hermitian matrix, read from its lower triangle, or
    its upper one with ``UPLO="U"`` (LAPACK ?syevd / ?heevd)."""
    if type(x) is not NDArray and _subclass.instance(x):  # NumPy wraps the eigenvectors as x's type
        values, vectors = eigh(_subclass.plain(x), UPLO)
        return EighResult(values, _subclass.kept(vectors, x))
    w, v = _lapack.eigh(_hermitian(x, UPLO, "eigh"), True, "eigh")
    assert v is not None
    return EighResult(w, v)


def eigvalsh(x: Any, /, UPLO: str = "L") -> NDArray:  # NumPy's name
    """Eigenvalues (ascending, real) of each Hermitian matrix (its lower
    triangle, or its upper one with ``UPLO="U"``)."""
    return _lapack.eigh(_hermitian(x, UPLO, "eigvalsh"), False, "eigvalsh")[0]


def _finite(a: NDArray, fname: str) -> None:
    if a.size and not bool(_utility.all(_ew.isfinite(a))):
        raise LinAlgError(f"{fname}: the matrix must not contain infinities or NaNs")


def eig(x: Any, /) -> EigResult:
    """Eigenvalues and right eigenvectors (columns of unit norm) of each
    general square matrix (LAPACK ?geev).  Both are complex, also for real
    input, as the Array API specifies (NumPy returns real arrays when every
    eigenvalue is real)."""
    a = matrices(x, "eig", square=True)
    _finite(a, "eig")
    w, v = _lapack.eig(a, True, "eig")
    assert v is not None
    return EigResult(w, v)


def eigvals(x: Any, /) -> NDArray:
    """Eigenvalues (complex) of each general square matrix."""
    a = matrices(x, "eigvals", square=True)
    _finite(a, "eigvals")
    return _lapack.eig(a, False, "eigvals")[0]


# ---- SVD, QR, least squares -----------------------------------------------------


def svd(x: Any, /, full_matrices: bool = True, compute_uv: bool = True, hermitian: bool = False) -> Any:
    """Singular value decomposition ``x = U @ diag(S) @ Vh`` of each matrix
    (LAPACK ?gesdd): S descending.  With ``full_matrices`` U is (..., M, M)
    and Vh (..., N, N), else (..., M, K) and (..., K, N), K = min(M, N).
    NumPy's keywords: ``compute_uv=False`` returns S alone; ``hermitian``
    takes each matrix as Hermitian (its lower triangle read) and decomposes
    it by its eigenvalues, as NumPy does."""
    if hermitian:
        return _svd_hermitian(x, bool(compute_uv))
    if not compute_uv:
        return svdvals(x)
    a = matrices(x, "svd")
    *batch, m, n = a.shape
    if min(m, n) == 0:
        rt = REAL[a.dtype]
        s = zeros((*batch, 0), dtype=rt)
        if full_matrices:
            return SVDResult(_identity((*batch, m, m), a.dtype), s, _identity((*batch, n, n), a.dtype))
        return SVDResult(zeros((*batch, m, 0), dtype=a.dtype), s, zeros((*batch, 0, n), dtype=a.dtype))
    u, s, vh = _lapack.svd(a, True, bool(full_matrices), "svd")
    assert u is not None and vh is not None
    return SVDResult(u, s, vh)


def _svd_hermitian(x: Any, compute_uv: bool) -> Any:
    """NumPy's SVD of Hermitian matrices: the singular values are the
    eigenvalues' magnitudes, sorted descending; U the eigenvectors in that
    order, and Vh their conjugate transpose with each eigenvalue's sign
    moved into it."""
    if not compute_uv:
        s = _ew.abs(eigvalsh(x))
        return _manipulation.flip(_sorting.sort(s, axis=-1), axis=-1)
    w, u = eigh(x)
    sgn = _ew.copysign(1.0, w).astype(w.dtype, copy=False)
    s = _ew.abs(w)
    idx = _manipulation.flip(_sorting.argsort(s, axis=-1), axis=-1)
    sgn = _indexing.take_along_axis(sgn, idx, axis=-1)
    s = _indexing.take_along_axis(s, idx, axis=-1)
    u = _indexing.take_along_axis(u, broadcast_to(idx.reshape((*idx.shape[:-1], 1, idx.shape[-1])), u.shape),
                                  axis=-1)
    vh = _conj_t(_ew.multiply(u, sgn.reshape((*sgn.shape[:-1], 1, sgn.shape[-1]))).astype(u.dtype, copy=False))
    return SVDResult(u, s, vh)


def svdvals(x: Any, /) -> NDArray:
    """Singular values of each matrix, descending (real)."""
    a = matrices(x, "svdvals")
    return _lapack.svd(a, False, False, "svdvals")[1]


def qr(x: Any, /, mode: str = "reduced") -> Any:
    """QR factorisation of each matrix (LAPACK ?geqrf, then ?orgqr /
    ?ungqr): Q with orthonormal columns and upper-triangular R.  ``mode``
    "reduced": Q (..., M, K), R (..., K, N), K = min(M, N); "complete":
    Q (..., M, M), R (..., M, N); NumPy's "r": R alone, as "reduced"'s.
    (NumPy's "raw", LAPACK's Householder reflectors, is not offered.)"""
    if mode == "r":
        return qr(x, mode="reduced").R
    if mode == "raw":
        raise NotImplementedError("qr: minarray has no mode 'raw' (LAPACK's Householder reflectors); "
                                  "use mode='reduced' or 'r'")
    if mode not in ("reduced", "complete"):
        raise ValueError(f"Unrecognized mode {mode!r}")
    a = matrices(x, "qr")
    *batch, m, n = a.shape
    complete = mode == "complete"
    if min(m, n) == 0:
        q = _identity((*batch, m, m), a.dtype) if complete else zeros((*batch, m, 0), dtype=a.dtype)
        return QRResult(q, zeros((*batch, m if complete else 0, n), dtype=a.dtype))
    q, r = _lapack.qr(a, complete)
    return QRResult(q, r)


def lstsq(a: Any, b: Any, /, rcond: float | None = None) -> LstsqResult:
    """Least-squares solution of ``a @ x = b`` (NumPy's ``lstsq``; LAPACK
    ?gelsd): ``(x, residuals, rank, s)``.  ``a`` is (M, N), ``b`` (M,) or
    (M, K).  Singular values at most ``rcond`` times the largest count as
    zero (default: machine epsilon times max(M, N)).  ``residuals`` holds
    the squared 2-norms of ``b - a @ x`` per column when ``rank == N < M``,
    and is empty otherwise."""
    x1 = as_operand(a, "lstsq")
    x2 = as_operand(b, "lstsq")
    if x1.ndim != 2:
        raise LinAlgError(f"lstsq: a must be 2-dimensional, got shape {x1.shape}")
    if x2.ndim not in (1, 2):
        raise LinAlgError(f"lstsq: b must be 1- or 2-dimensional, got shape {x2.shape}")
    m, n = x1.shape
    if x2.shape[0] != m:
        raise LinAlgError(f"lstsq: a (shape {x1.shape}) and b (shape {x2.shape}) need the same number of rows")
    dt = lapack_dtype(_dt.promote(x1.dtype, x2.dtype), "lstsq")
    vector = x2.ndim == 1
    bb = x2.reshape((m, 1)) if vector else x2
    rc = finfo(dt).eps * max(m, n) if rcond is None else float(rcond)
    x, resid, rank, s = _lapack.lstsq(x1.astype(dt, copy=False), bb.astype(dt, copy=False), rc)
    residuals = resid if rank == n and m > n else zeros((0,), dtype=REAL[dt])
    return LstsqResult(x.reshape((n,)) if vector else x, residuals, _dt.int32(rank), s)


# ---- built on the above ----------------------------------------------------------


def _cutoff(a: NDArray, s: NDArray, rtol: float | NDArray | None) -> NDArray:
    """``rtol`` times each matrix's largest singular value, shaped to
    compare with ``s`` (..., K).  An array ``rtol`` broadcasts against the
    stack's batch shape; the default is max(M, N) times machine epsilon."""
    tol: float | NDArray = max(a.shape[-2:]) * finfo(REAL[a.dtype]).eps if rtol is None else rtol
    if isinstance(tol, NDArray):
        tol = tol.reshape((*tol.shape, 1))
    return _ew.multiply(_stat.max(s, axis=-1, keepdims=True), tol)


def _tolerance(value: Any) -> float | NDArray:
    """A tolerance argument: a Python number, or an array (one per matrix)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    t = as_operand(value)
    return float(t) if t.ndim == 0 else t


class _NoValue:
    """pinv's ``rtol`` left out, which NumPy tells from ``rtol=None``."""

    def __repr__(self) -> str:
        return "<no value>"


_NOVALUE: Any = _NoValue()


def pinv(x: Any, /, rcond: Any = None, hermitian: bool = False, *, rtol: Any = _NOVALUE) -> NDArray:
    """Moore-Penrose pseudo-inverse of each matrix, from its SVD: singular
    values at most ``rcond`` times the largest are treated as zero.  As
    NumPy 2: the default cutoff is 1e-15; ``rtol`` (the Array API's name)
    is the same cutoff, and ``rtol=None`` max(M, N) times machine epsilon;
    giving both raises ValueError.  ``hermitian`` takes each matrix as
    Hermitian (see :func:`svd`)."""
    if type(x) is not NDArray and _subclass.instance(x):  # NumPy wraps the result as the input's type
        return _subclass.through_method(pinv, x, rcond, hermitian, rtol=rtol)
    if rcond is None:
        rel: Any = 1e-15 if rtol is _NOVALUE else rtol
    elif rtol is not _NOVALUE:
        raise ValueError("`rtol` and `rcond` can't be both set.")
    else:
        rel = rcond
    a = matrices(x, "pinv")
    tol = None if rel is None else _tolerance(rel)
    *batch, m, n = a.shape
    if min(m, n) == 0:
        return zeros((*batch, n, m), dtype=a.dtype)
    u, s, vh = svd(a, full_matrices=False, hermitian=hermitian)
    keep = _ew.greater(s, _cutoff(a, s, tol))
    sinv = _ew.where(keep, _ew.divide(1.0, _ew.where(keep, s, 1.0)), 0.0).astype(s.dtype, copy=False)
    # pinv = V diag(1/s) U^H
    v = _conj_t(vh)
    return matmul(_ew.multiply(v, sinv.reshape((*sinv.shape[:-1], 1, s.shape[-1]))).astype(a.dtype, copy=False),
                  _conj_t(u))


def matrix_rank(x: Any, /, tol: Any = None, hermitian: bool = False, *, rtol: Any = None) -> Any:
    """Rank of each matrix: the number of singular values above ``rtol``
    times the largest (default max(M, N) times machine epsilon), or above
    the absolute ``tol`` (NumPy's; not with ``rtol``).  ``hermitian`` takes
    each matrix as Hermitian.  As NumPy, a 0-d or 1-d input gives the
    Python int 1 unless it is all zeros (0)."""
    if rtol is not None and tol is not None:
        raise ValueError("`tol` and `rtol` can't be both set.")
    a0 = as_operand(x, "matrix_rank")
    if a0.ndim < 2:
        return int(not bool(_utility.all(_ew.equal(a0, 0))))
    a = matrices(a0, "matrix_rank")
    *batch, m, n = a.shape
    if min(m, n) == 0:
        return zeros(tuple(batch), dtype=_dt.int64)
    s = svd(a, compute_uv=False, hermitian=hermitian)
    if tol is None:
        cut = _cutoff(a, s, None if rtol is None else _tolerance(rtol))
    else:
        t = _tolerance(tol)
        cut = t.reshape((*t.shape, 1)) if isinstance(t, NDArray) else as_operand(t)
    return _stat.sum(_ew.greater(s, cut), axis=-1, dtype=_dt.int64)


def tensorinv(a: Any, ind: int = 2) -> NDArray:
    """The inverse of ``a`` as a tensor (NumPy's ``tensorinv``): the first
    ``ind`` axes of ``a`` are the output's, its other axes the input's, so
    that ``tensordot(tensorinv(a, ind), a, ind)`` is the identity; the
    product of the two groups' sizes must match."""
    x = as_operand(a, "tensorinv")
    k = as_int(ind, "tensorinv: ind")
    if k <= 0:
        raise ValueError("Invalid ind argument.")
    shape = x.shape
    rows = math.prod(shape[k:])
    if rows == 0 or x.size % rows:
        raise LinAlgError(f"tensorinv: a of shape {shape} does not reshape to square matrices at ind={k}")
    ia = inv(x.reshape((rows, x.size // rows)))
    return ia.reshape((*shape[k:], *shape[:k]))


def tensorsolve(a: Any, b: Any, axes: Any = None) -> NDArray:
    """Solve ``tensordot(a, x, x.ndim) = b`` for ``x`` (NumPy's
    ``tensorsolve``): x has the shape of a's trailing axes, those after
    ``b.ndim``; ``axes`` names axes of ``a`` moved to the end first."""
    x = as_operand(a, "tensorsolve")
    y = as_operand(b, "tensorsolve")
    an = x.ndim
    if axes is not None:
        order = list(range(an))
        for k in axes:
            order.remove(normalize_axis(k, an))
            order.append(normalize_axis(k, an))
        x = permute_dims(x, tuple(order))
    oldshape = x.shape[y.ndim:]
    prod = math.prod(oldshape)
    if x.size != prod ** 2:
        raise LinAlgError("Input arrays must satisfy the requirement "
                          "prod(a.shape[b.ndim:]) == prod(a.shape[:b.ndim])")
    res = solve(x.reshape((prod, prod)), y.reshape((-1,)))
    return res.reshape(oldshape)


def matrix_power(x: Any, n: int, /) -> NDArray:
    """``x`` multiplied by itself ``n`` times (repeated squaring); ``n = 0``
    gives the identity, negative ``n`` powers of the inverse."""
    if type(x) is not NDArray and _subclass.instance(x):  # NumPy's keeps the subclass (asanyarray)
        return _subclass.through_method(matrix_power, x, n)
    a = as_operand(x, "matrix_power")
    k = as_int(n, "matrix_power: the exponent n")
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise LinAlgError(f"matrix_power: expected square matrices in the last two dimensions, got shape {a.shape}")
    if k == 0:
        return _identity(a.shape, a.dtype)
    if k < 0:
        a = inv(a)
        k = -k
    result: NDArray | None = None
    base = a
    while True:
        if k & 1:
            result = base if result is None else matmul(result, base)
        k >>= 1
        if not k:
            break
        base = matmul(base, base)
    assert result is not None
    return result.copy() if result is a else result


def _each_or_nan(a: NDArray, fn: Callable[[NDArray], NDArray], shape: tuple[int, ...], dtype: DType) -> NDArray:
    """``fn`` of each matrix of the stack ``a``, its result (of ``shape``,
    per matrix) NaN where it raises LinAlgError: NumPy's cond computes with
    the errors ignored, so one failing matrix does not stop the stack."""
    try:
        return fn(a)
    except LinAlgError:
        n, m = a.shape[-2:]
        flat = a.reshape((-1, n, m))
        out = NDArray._empty((flat.shape[0], *shape), dtype)
        for i in range(flat.shape[0]):
            try:
                out[i] = fn(flat[i])
            except LinAlgError:
                out[i] = math.nan
        return out.reshape((*a.shape[:-2], *shape))


def _inv_or_nan(a: NDArray) -> NDArray:
    """Each square matrix's inverse, NaN where it is singular."""
    return _each_or_nan(a, inv, a.shape[-2:], a.dtype)


def _svdvals_or_nan(a: NDArray) -> NDArray:
    """Each matrix's singular values, NaN for a matrix that is not all
    finite or whose SVD does not converge: NumPy's cond since 2.5
    (numpy#32593), whose SVD refuses a non-finite matrix (some LAPACKs
    never return from one holding an infinity)."""
    finite = _utility.all(_ew.isfinite(a), axis=(-2, -1))
    k = min(a.shape[-2:])
    s = _each_or_nan(_ew.where(finite.reshape((*finite.shape, 1, 1)), a, 0).astype(a.dtype, copy=False),
                     svdvals, (k,), REAL[a.dtype])
    return _ew.where(finite.reshape((*finite.shape, 1)), s, math.nan).astype(s.dtype, copy=False)


def cond(x: Any, p: Any = None) -> NDArray:
    """Condition number of each matrix in the norm ``p`` (NumPy's
    ``cond``): None or 2 (ratio of extreme singular values), -2, 'nuc'
    (sums of the singular values of the matrix and of its inverse), 'fro',
    1, -1, inf, -inf (``norm(x) * norm(inv(x))``); all but None, 2 and -2
    for square matrices only.  A singular matrix, or one holding an
    infinity, gives inf; one holding a NaN gives NaN, for every norm (as
    NumPy since 2.5: a NaN result becomes inf unless the matrix had a NaN)."""
    from minarray.linalg._norms import matrix_norm  # cycle: linalg._norms imports this module

    a = matrices(x, "cond")
    if a.size == 0 and a.shape[-1] * a.shape[-2] == 0:
        raise LinAlgError(f"cond is not defined on empty arrays, got shape {a.shape}")
    if p is None or p in (2, -2):
        s = _svdvals_or_nan(a)
        hi, lo = _stat.max(s, axis=-1), _stat.min(s, axis=-1)
        with errstate(all="ignore"):  # 0/0 and inf/inf: NaN, made inf below
            r = _ew.divide(hi, lo) if p != -2 else _ew.divide(lo, hi)
    else:
        if a.shape[-1] != a.shape[-2]:
            raise LinAlgError(f"cond: norm {p!r} needs square matrices, got shape {a.shape}")
        ia = _inv_or_nan(a)
        with errstate(all="ignore"):
            if isinstance(p, str) and p == "nuc":
                # not matrix_norm: the SVD of a NaN inverse is NaN here, not an error
                r = _ew.multiply(_stat.sum(_svdvals_or_nan(a), axis=-1), _stat.sum(_svdvals_or_nan(ia), axis=-1))
            else:
                r = _ew.multiply(matrix_norm(a, ord=p), matrix_norm(ia, ord=p))
    singular = _ew.logical_and(_ew.isnan(r), _ew.logical_not(_utility.any(_ew.isnan(a), axis=(-2, -1))))
    return _ew.where(singular, math.inf, r).astype(r.dtype, copy=False)
