"""Vector and matrix norms: ``vector_norm``, ``matrix_norm`` (Array API)
and NumPy's ``norm``, which picks one of the two from its arguments.

All are reductions of ``abs(x)``; the spectral and nuclear norms take the
singular values (LAPACK ?gesdd).  Results are real, of the input's
precision; integer inputs are computed in float64.
"""

from __future__ import annotations

import math
from typing import Any

from minarray import _dtypes as _dt
from minarray import _elementwise as _ew
from minarray import _statistical as _stat
from minarray import _subclass
from minarray._array_object import NDArray
from minarray._coerce import as_int, as_operand, normalize_axes
from minarray._linear_algebra import dot
from minarray._manipulation import permute_dims
from minarray.linalg._decompositions import lapack_dtype, svdvals
from minarray.linalg._lapack import REAL


def _floating(x: Any, fname: str) -> NDArray:
    a = as_operand(x, fname)
    if a.dtype in (_dt.float16, _dt.bfloat16):
        return a
    return a.astype(lapack_dtype(a.dtype, fname), copy=False)


def _real(a: NDArray) -> _dt.DType:
    return REAL.get(a.dtype, a.dtype)


def vector_norm(x: Any, /, *, axis: int | tuple[int, ...] | None = None, keepdims: bool = False,
                ord: float = 2) -> NDArray:
    """Vector norm over ``axis`` (all axes when None, the array flattened):
    ``ord`` inf / -inf: max / min of ``|x|``; 0: the number of non-zeros;
    p: ``sum(|x|**p) ** (1/p)``."""
    a = _floating(x, "vector_norm")
    axes = tuple(range(a.ndim)) if axis is None else normalize_axes(axis, a.ndim)
    rt = _real(a)
    ab = _ew.abs(a).astype(rt, copy=False)
    if ord == math.inf:
        return _stat.max(ab, axis=axes, keepdims=keepdims)
    if ord == -math.inf:
        return _stat.min(ab, axis=axes, keepdims=keepdims)
    if ord == 0:
        return _stat.sum(_ew.not_equal(ab, 0), axis=axes, keepdims=keepdims, dtype=rt)
    if ord == 1:
        return _stat.sum(ab, axis=axes, keepdims=keepdims)
    if ord == 2:
        return _ew.sqrt(_stat.sum(_ew.multiply(ab, ab), axis=axes, keepdims=keepdims))
    p = float(ord)
    return _ew.pow(_stat.sum(_ew.pow(ab, p), axis=axes, keepdims=keepdims), 1.0 / p).astype(rt, copy=False)


_MATRIX_ORDS = ("fro", "nuc", 1, -1, 2, -2, math.inf, -math.inf)


def matrix_norm(x: Any, /, *, keepdims: bool = False, ord: Any = "fro") -> NDArray:
    """Norm of each matrix (the last two dimensions): ``ord`` 'fro'
    (Frobenius), 'nuc' (sum of singular values), 2 / -2 (largest / smallest
    singular value), 1 / -1 (max / min column sum of ``|x|``), inf / -inf
    (max / min row sum)."""
    a = _floating(x, "matrix_norm")
    if a.ndim < 2:
        raise ValueError(f"matrix_norm: expected a matrix or a stack of matrices (ndim >= 2), got shape {a.shape}")
    if not any(ord is o or (not isinstance(ord, str) and not isinstance(o, str) and ord == o)
               for o in _MATRIX_ORDS):
        raise ValueError(f"matrix_norm: ord must be one of 'fro', 'nuc', 1, -1, 2, -2, inf, -inf; got {ord!r}")
    out: NDArray
    if ord == "fro":
        ab = _ew.abs(a).astype(_real(a), copy=False)
        out = _ew.sqrt(_stat.sum(_ew.multiply(ab, ab), axis=(-2, -1)))
    elif ord in ("nuc", 2, -2):
        if a.shape[-1] == 0 or a.shape[-2] == 0:
            raise ValueError(f"matrix_norm: ord {ord!r} is undefined for empty matrices (shape {a.shape})")
        s = svdvals(a)
        out = _stat.sum(s, axis=-1) if ord == "nuc" else _stat.max(s, axis=-1) if ord == 2 else _stat.min(s, axis=-1)
    else:
        ab = _ew.abs(a).astype(_real(a), copy=False)
        # 1: columns (sum over rows); inf: rows (sum over columns)
        sums = _stat.sum(ab, axis=-2 if abs(ord) == 1 else -1)
        out = _stat.max(sums, axis=-1) if ord > 0 else _stat.min(sums, axis=-1)
    return out.reshape((*out.shape, 1, 1)) if keepdims else out


def norm(x: Any, ord: Any = None, axis: int | tuple[int, ...] | None = None, keepdims: bool = False) -> NDArray:
    """NumPy's ``norm``: a vector norm over one axis, a matrix norm over two.

    With ``axis`` None: ``ord`` None gives the 2-norm of the flattened
    array; otherwise ``x`` must be 1-d (vector norm) or 2-d (matrix norm).
    An integer axis gives vector norms, a pair of axes matrix norms (``ord``
    None meaning 'fro')."""
    if type(x) is not NDArray:  # NumPy's gives a plain array
        x = _subclass.plain(x)
    a = _floating(x, "norm")
    if axis is None:
        if ord is None:
            if not keepdims and a.dtype in (_dt.float32, _dt.float64):
                # NumPy's computation for a real array: the square root of
                # the flattened array's dot product with itself (one kernel
                # call, where |x|, x*x and the sum took three)
                flat = a.reshape((-1,))
                return _ew.sqrt(dot(flat, flat))
            return vector_norm(a, axis=None, keepdims=keepdims)
        if a.ndim == 1:
            axes: tuple[int, ...] = (0,)
        elif a.ndim == 2:
            axes = (0, 1)
        else:
            raise ValueError(f"norm: ord={ord!r} with axis=None needs a 1-d or 2-d array, got shape {a.shape}")
    elif isinstance(axis, tuple):
        axes = normalize_axes(axis, a.ndim)
        if len(axes) != len(axis):
            raise ValueError(f"norm: repeated axis in {axis}")
    else:
        axes = normalize_axes(as_int(axis, "norm: axis"), a.ndim)
    if len(axes) == 1:
        if isinstance(ord, str):
            raise ValueError(f"norm: ord {ord!r} is a matrix norm; a vector norm needs a number")
        return vector_norm(a, axis=axes, keepdims=keepdims, ord=2 if ord is None else ord)
    if len(axes) != 2:
        raise ValueError(f"norm: axis must name one or two axes, got {axis!r}")
    # Move the two matrix axes last, take the norm, put the kept dims back.
    rest = [i for i in range(a.ndim) if i not in axes]
    moved = permute_dims(a, (*rest, *axes))
    out = matrix_norm(moved, ord="fro" if ord is None else ord)
    if keepdims:
        shape = list(a.shape)
        for i in axes:
            shape[i] = 1
        out = out.reshape(tuple(shape))
    return out
