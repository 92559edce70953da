"""The linalg functions built from views and products alone: ``diagonal``,
``trace``, ``cross``, ``outer`` and NumPy's ``multi_dot``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from minarray import _dtypes as _dt
from minarray import _elementwise as _ew
from minarray import _statistical as _stat
from minarray._array_object import NDArray
from minarray._coerce import as_int, as_intp, as_operand, broadcast_shapes
from minarray._joining import stack
from minarray._linear_algebra import matmul
from minarray._linear_algebra import outer as _outer
from minarray._manipulation import broadcast_to, moveaxis


def diagonal(x: Any, /, *, offset: int = 0) -> NDArray:
    """The diagonal of each matrix as a read-only view of ``x`` (shape
    (..., K)); ``offset`` > 0 above the main diagonal, < 0 below."""
    a = as_operand(x, "diagonal")
    if a.ndim < 2:
        raise ValueError(f"diagonal: expected a matrix or a stack of matrices (ndim >= 2), got shape {a.shape}")
    k = as_intp(offset, "diagonal: offset")
    *batch, m, n = a.shape
    rs, cs = a._strides[-2:]
    if k >= 0:
        length, start = max(0, min(m, n - k)), k * cs
    else:
        length, start = max(0, min(m + k, n)), -k * rs
    if length == 0:
        start = 0
    return a._view(start, (*batch, length), (*a._strides[:-2], rs + cs), readonly=True)


def trace(x: Any, /, *, offset: int = 0, dtype: Any = None) -> NDArray:
    """Sum of the diagonal ``offset`` of each matrix (``sum``'s dtype rules)."""
    return _stat.sum(diagonal(x, offset=offset), axis=-1, dtype=dtype)


def cross(x1: Any, x2: Any, /, *, axis: int = -1) -> NDArray:
    """Cross product of 3-element vectors along ``axis`` (the other
    dimensions broadcast)."""
    a, b = as_operand(x1, "cross"), as_operand(x2, "cross")
    if a.dtype == _dt.bool or b.dtype == _dt.bool:
        raise TypeError("cross: boolean arrays are not supported")
    ax = as_int(axis, "cross: axis")
    if a.ndim == 0 or b.ndim == 0 or not (-min(a.ndim, b.ndim) <= ax < 0 or 0 <= ax < min(a.ndim, b.ndim)):
        raise IndexError(f"cross: axis {axis} is out of bounds for shapes {a.shape} and {b.shape}")
    if a.shape[ax] != 3 or b.shape[ax] != 3:
        raise ValueError(f"cross: axis {axis} must have size 3 in both arrays, got shapes {a.shape} and {b.shape}")
    # Align on the right (the standard's broadcasting), vectors last.
    am, bm = moveaxis(a, ax, -1), moveaxis(b, ax, -1)
    try:
        batch = broadcast_shapes(am.shape[:-1], bm.shape[:-1])
    except ValueError:
        raise ValueError(f"cross: shapes {a.shape} and {b.shape} do not broadcast") from None
    am, bm = broadcast_to(am, (*batch, 3)), broadcast_to(bm, (*batch, 3))
    a0, a1, a2 = (am[..., i] for i in range(3))
    b0, b1, b2 = (bm[..., i] for i in range(3))
    parts = [_ew.subtract(_ew.multiply(a1, b2), _ew.multiply(a2, b1)),
             _ew.subtract(_ew.multiply(a2, b0), _ew.multiply(a0, b2)),
             _ew.subtract(_ew.multiply(a0, b1), _ew.multiply(a1, b0))]
    out_axis = ax if ax < 0 else ax - min(a.ndim, b.ndim) + len(batch) + 1
    return stack(parts, axis=out_axis)


def outer(x1: Any, x2: Any, /) -> NDArray:
    """Outer product of two 1-d arrays: shape (N, M).  The Array API's and
    ``np.linalg.outer`` take 1-d arrays only, where ``np.outer`` flattens."""
    a, b = as_operand(x1, "outer"), as_operand(x2, "outer")
    if a.ndim != 1 or b.ndim != 1:
        raise ValueError(f"Input arrays must be one-dimensional, but they are x1.ndim={a.ndim} and x2.ndim={b.ndim}.")
    return _outer(a, b)


def multi_dot(arrays: Sequence[Any], /) -> NDArray:
    """The product of a chain of matrices, multiplied in the order that
    costs fewest operations (NumPy's ``multi_dot``).  The first array may
    be 1-d (a row vector) and the last 1-d (a column vector); the others
    must be 2-d."""
    mats = [as_operand(x, "multi_dot") for x in arrays]
    if len(mats) < 2:
        raise ValueError(f"multi_dot: expected at least two arrays, got {len(mats)}")
    first_vec, last_vec = mats[0].ndim == 1, mats[-1].ndim == 1
    if first_vec:
        mats[0] = mats[0].reshape((1, mats[0].shape[0]))
    if last_vec:
        mats[-1] = mats[-1].reshape((mats[-1].shape[0], 1))
    for i, m in enumerate(mats):
        if m.ndim != 2:
            raise ValueError(f"multi_dot: array {i} must be 2-d (the ends may be 1-d), got shape {m.shape}")
    n = len(mats)
    dims = [mats[0].shape[0]] + [m.shape[1] for m in mats]
    for i in range(n - 1):
        if mats[i].shape[1] != mats[i + 1].shape[0]:
            raise ValueError(f"multi_dot: arrays {i} (shape {mats[i].shape}) and {i + 1} "
                             f"(shape {mats[i + 1].shape}) do not chain")
    # Matrix-chain order (dynamic programming over split points).
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = -1
            for k in range(i, j):
                c = cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1]
                if cost[i][j] < 0 or c < cost[i][j]:
                    cost[i][j], split[i][j] = c, k

    def chain(i: int, j: int) -> NDArray:
        if i == j:
            return mats[i]
        k = split[i][j]
        return matmul(chain(i, k), chain(k + 1, j))

    out = chain(0, n - 1)
    if first_vec and last_vec:
        return out.reshape(())
    if first_vec:
        return out.reshape((out.shape[1],))
    if last_vec:
        return out.reshape((out.shape[0],))
    return out
