"""Thin typed wrappers over the batched LAPACK drivers of csrc/core/lapack.h.

Each takes a stack of matrices (an array of ndim >= 2 in a LAPACK type),
allocates the outputs, makes one C call and turns its status into an
exception.  Shape and dtype checks belong to the callers in
``minarray.linalg``; here only the layout is handled: the batch dimensions
are merged into one (a view when the strides allow it, else a copy), and
the C side reads any row and column strides.
"""

from __future__ import annotations

import math
from typing import Any

from minarray import _blas
from minarray import _dtypes as _dt
from minarray._array_object import NDArray
from minarray._dtypes import DType
from minarray._native import ffi, host_pointer, lib

Shape = tuple[int, ...]

# LAPACK's four types (MA_LA_* in csrc/core/blas.h) and the real type of each.
LA_TYPE: dict[DType, int] = {_dt.float32: 0, _dt.float64: 1, _dt.complex64: 2, _dt.complex128: 3}
REAL: dict[DType, DType] = {_dt.float32: _dt.float32, _dt.float64: _dt.float64,
                            _dt.complex64: _dt.float32, _dt.complex128: _dt.float64}
COMPLEX: dict[DType, DType] = {_dt.float32: _dt.complex64, _dt.float64: _dt.complex128,
                               _dt.complex64: _dt.complex64, _dt.complex128: _dt.complex128}


class LinAlgError(ValueError):
    """A linear-algebra routine could not compute its result: a singular
    matrix, a matrix that is not positive definite, an iteration that did
    not converge.  A ``ValueError``, as NumPy's ``LinAlgError`` is."""


def _stack(a: NDArray) -> tuple[NDArray, int]:
    """``a`` as (batch, m, n) and the batch size."""
    *batch, m, n = a.shape
    nb = math.prod(batch)
    return (a if a.ndim == 3 else a.reshape((nb, m, n))), nb


def _st(a: NDArray) -> tuple[int, int, int]:
    """The batch, row and column strides (elements) of a (batch, m, n) stack."""
    bs, rs, cs = a._strides
    return bs, rs, cs


def _st2(a: NDArray) -> tuple[int, int]:
    rs, cs = a._strides
    return rs, cs


def _ptr(a: NDArray | None) -> Any:
    return ffi.NULL if a is None else host_pointer(a)


def _check(rc: int, info: Any, fname: str, batch: Shape, what: str) -> None:
    """Raise for a driver's status; ``what(index, info)`` describes a
    numerical failure."""
    if rc == 0:
        return
    if rc == lib.MA_LA_NOMEM:
        raise MemoryError(f"{fname}: cannot allocate LAPACK workspace")
    if rc == lib.MA_LA_NOLIB:
        _blas.require(fname)
    where = ""
    if batch:
        idx, rest = [], int(info[0])
        for d in reversed(batch):
            idx.append(rest % d)
            rest //= d
        where = f" (matrix {tuple(reversed(idx))} of the stack)"
    raise LinAlgError(f"{fname}: {what}{where}")


def _begin(fname: str) -> Any:
    _blas.require(fname)
    return ffi.new("int64_t[2]")


def slogdet(a: NDArray, want_det: bool) -> tuple[NDArray, NDArray, NDArray | None]:
    """(sign, log|det|, det or None), each of shape a.shape[:-2] (?getrf)."""
    _blas.require("slogdet")
    s, nb = _stack(a)
    batch, dt = a.shape[:-2], a.dtype
    sign, logabs = NDArray._empty(batch, dt), NDArray._empty(batch, REAL[dt])
    det = NDArray._empty(batch, dt) if want_det else None
    rc = lib.ma_la_slogdet(LA_TYPE[dt], nb, a.shape[-1], _ptr(s), *_st(s), _ptr(sign), _ptr(logabs), _ptr(det))
    _check(rc, None, "slogdet", batch, "")
    return sign, logabs, det


def solve(a: NDArray, b: NDArray | None, fname: str) -> NDArray:
    """a^-1 b for stacks of one batch shape (?gesv); b None: the inverse."""
    info = _begin(fname)
    sa, nb = _stack(a)
    n = a.shape[-1]
    if b is None:
        out = NDArray._empty(a.shape, a.dtype)
        rc = lib.ma_la_solve(LA_TYPE[a.dtype], nb, n, n, _ptr(sa), *_st(sa), ffi.NULL, 0, 0, 0, _ptr(out), info)
    else:
        sb, _ = _stack(b)
        out = NDArray._empty(b.shape, a.dtype)
        rc = lib.ma_la_solve(LA_TYPE[a.dtype], nb, n, b.shape[-1], _ptr(sa), *_st(sa), _ptr(sb), *_st(sb),
                             _ptr(out), info)
    _check(rc, info, fname, a.shape[:-2], "the matrix is singular (an exactly zero pivot in its LU factorization)")
    return out


def cholesky(a: NDArray, upper: bool) -> NDArray:
    info = _begin("cholesky")
    s, nb = _stack(a)
    out = NDArray._empty(a.shape, a.dtype)
    rc = lib.ma_la_cholesky(LA_TYPE[a.dtype], nb, a.shape[-1], _ptr(s), *_st(s), int(upper), _ptr(out), info)
    _check(rc, info, "cholesky", a.shape[:-2], "the matrix is not positive definite")
    return out


def eigh(a: NDArray, vectors: bool, fname: str) -> tuple[NDArray, NDArray | None]:
    info = _begin(fname)
    s, nb = _stack(a)
    w = NDArray._empty(a.shape[:-1], REAL[a.dtype])
    v = NDArray._empty(a.shape, a.dtype) if vectors else None
    rc = lib.ma_la_eigh(LA_TYPE[a.dtype], nb, a.shape[-1], _ptr(s), *_st(s), _ptr(w), _ptr(v), info)
    _check(rc, info, fname, a.shape[:-2], "the eigenvalue iteration did not converge")
    return w, v


def eig(a: NDArray, vectors: bool, fname: str) -> tuple[NDArray, NDArray | None]:
    info = _begin(fname)
    s, nb = _stack(a)
    ct = COMPLEX[a.dtype]
    w = NDArray._empty(a.shape[:-1], ct)
    v = NDArray._empty(a.shape, ct) if vectors else None
    rc = lib.ma_la_eig(LA_TYPE[a.dtype], nb, a.shape[-1], _ptr(s), *_st(s), _ptr(w), _ptr(v), info)
    _check(rc, info, fname, a.shape[:-2], "the eigenvalue iteration did not converge")
    return w, v


def svd(a: NDArray, vectors: bool, full: bool, fname: str) -> tuple[NDArray | None, NDArray, NDArray | None]:
    """(U, S, Vh) with U and Vh None when not ``vectors`` (?gesdd)."""
    info = _begin(fname)
    s_, nb = _stack(a)
    *batch, m, n = a.shape
    k = min(m, n)
    s = NDArray._empty((*batch, k), REAL[a.dtype])
    u = vt = None
    if vectors:
        u = NDArray._empty((*batch, m, m if full else k), a.dtype)
        vt = NDArray._empty((*batch, n if full else k, n), a.dtype)
    rc = lib.ma_la_svd(LA_TYPE[a.dtype], nb, m, n, _ptr(s_), *_st(s_), int(full), _ptr(s), _ptr(u), _ptr(vt),
                       info)
    _check(rc, info, fname, tuple(batch), "the SVD did not converge")
    return u, s, vt


def qr(a: NDArray, complete: bool) -> tuple[NDArray, NDArray]:
    info = _begin("qr")
    s, nb = _stack(a)
    *batch, m, n = a.shape
    k = min(m, n)
    q = NDArray._empty((*batch, m, m if complete else k), a.dtype)
    r = NDArray._empty((*batch, m if complete else k, n), a.dtype)
    rc = lib.ma_la_qr(LA_TYPE[a.dtype], nb, m, n, _ptr(s), *_st(s), int(complete), _ptr(q), _ptr(r), info)
    _check(rc, info, "qr", tuple(batch), "the factorization failed")
    return q, r


def lstsq(a: NDArray, b: NDArray, rcond: float) -> tuple[NDArray, NDArray, int, NDArray]:
    """(x, residuals (nrhs,), rank, s) for 2-d a and b (?gelsd); residuals
    hold meaningful values only when rank == n < m."""
    info = _begin("lstsq")
    m, n = a.shape
    nrhs = b.shape[1]
    x = NDArray._empty((n, nrhs), a.dtype)
    resid = NDArray._empty((nrhs,), REAL[a.dtype], zero=True)
    s = NDArray._empty((min(m, n),), REAL[a.dtype])
    rank = ffi.new("int64_t *")
    rc = lib.ma_la_lstsq(LA_TYPE[a.dtype], m, n, nrhs, _ptr(a), *_st2(a), _ptr(b), *_st2(b), rcond,
                         _ptr(x), _ptr(resid), _ptr(s), rank, info)
    _check(rc, info, "lstsq", (), "the SVD did not converge")
    return x, resid, int(rank[0]), s
