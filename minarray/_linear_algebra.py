"""Linear algebra functions (Array API "Linear Algebra Functions"):
``matmul`` (and ``@``), ``matrix_transpose``, ``tensordot``, ``vecdot``;
and beside them NumPy's products (``outer``, ``dot``, ``vdot``, ``inner``,
``kron``, ``cross``, ``convolve``) and ``einsum``/``einsum_path``.
``minarray.linalg`` re-exports the same objects.

Every product ends in one C call, ``core.matmul`` (csrc/core/gemm.c), the
one dispatch place for matrix products: BLAS ``?gemm`` (``?gemv`` for large
matrix-vector products) for float and complex operands BLAS can read, and
minarray's own kernel for integers, other layouts, dot products and stacks
of small products.  It reads any strides (transposed or sliced operands are
not copied), walks broadcast batches and releases the GIL.
It computes in five types; the others are cast in and out here, which
reproduces NumPy's results: float16 and bfloat16 accumulate in float32,
integer products wrap modulo 2**bits, and bool gives "some pair both true".

``einsum``: the order in which to contract the operands comes from
opt_einsum (a pure Python library that finds good contraction paths);
every step it chooses runs here: repeated subscripts become strided
diagonal views, subscripts no later step needs are summed away, and a
pair of operands becomes one batched matrix product between views
reordered as (batch, free, contracted).
"""

from __future__ import annotations

import math
import operator
import string
import warnings
from collections.abc import Sequence
from typing import Any

from minarray import _dtypes as _dt
from minarray import _subclass
from minarray._array_object import NDArray, c_strides
from minarray._coerce import as_int, as_operand, broadcast_shapes, normalize_axis, write_out
from minarray._creation import zeros
from minarray._dtypes import DType
from minarray._elementwise import conj, multiply
from minarray._joining import concat
from minarray._manipulation import broadcast_to, moveaxis, swapaxes
from minarray._native import core
from minarray._statistical import sum as _sum

__all__ = [
    "matmul", "tensordot", "vecdot", "matvec", "vecmat", "outer", "dot", "vdot", "inner", "kron", "cross",
    "convolve", "einsum", "einsum_path", "matrix_transpose", "correlate",
]


Shape = tuple[int, ...]


# The type the kernel computes in, for each dtype.
_KERNEL: dict[DType, DType] = {
    _dt.float64: _dt.float64, _dt.float32: _dt.float32,
    _dt.complex128: _dt.complex128, _dt.complex64: _dt.complex64,
    _dt.float16: _dt.float32, _dt.bfloat16: _dt.float32,
    _dt.int64: _dt.int64, _dt.uint64: _dt.uint64,
    _dt.int8: _dt.int64, _dt.int16: _dt.int64, _dt.int32: _dt.int64,
    _dt.uint8: _dt.uint64, _dt.uint16: _dt.uint64, _dt.uint32: _dt.uint64,
    _dt.bool: _dt.int64,
}


# a storage type (float8, int4, complex32...) computes as its wide type does
_KERNEL.update({d: _KERNEL[d.wide] for d in _dt.STORAGE if d.wide is not None})


def _operands(fname: str, x1: Any, x2: Any) -> tuple[NDArray, NDArray, DType, DType]:
    """Both inputs as arrays, the result dtype and the kernel's dtype."""
    a, b = as_operand(x1, fname), as_operand(x2, fname)
    dt = _dt.promote(a.dtype, b.dtype)
    return a, b, dt, _KERNEL[dt]


def _cast(a: NDArray, b: NDArray, kt: DType) -> tuple[NDArray, NDArray]:
    """Both in the kernel's dtype: called once the shapes are known to be
    valid, and before views of them are derived."""
    return (a if a.dtype is kt else a.astype(kt)), (b if b.dtype is kt else b.astype(kt))


def _run(a: NDArray, b: NDArray, out_shape: Shape, dt: DType, kt: DType, conj: bool = False,
         name: str = "matmul") -> NDArray:
    """``a`` (..., m, k) times ``b`` (..., k, n), both of dtype ``kt`` and of
    one ndim with broadcastable batch dims, into a new C-contiguous array of
    ``out_shape`` (the broadcast (..., m, n) with size-1 dims dropped or
    dims merged) and dtype ``dt``.  Floating-point errors are reported as
    in NumPy's ``name`` ("overflow encountered in dot")."""
    ash, bsh = a._shape, b._shape
    full = (*broadcast_shapes(ash[:-2], bsh[:-2]), ash[-2], bsh[-1]) if len(ash) > 2 else (ash[0], bsh[1])
    out = NDArray._empty(out_shape, kt)
    core.matmul(a._h, b._h, out._h if full == out_shape else out._view(0, full, c_strides(full))._h, conj, name)
    return out if kt is dt else out.astype(dt)


def _pad(x: NDArray, shape: Shape, strides: Shape, nd: int) -> NDArray:
    """A view of ``x`` with ``shape``/``strides``, left-padded to ``nd`` dims
    (``x`` itself when that is what it already is)."""
    pad = nd - len(shape)
    if not pad and shape == x._shape and strides == x._strides:
        return x
    return x._view(0, (1,) * pad + shape, (0,) * pad + strides)


def matmul(x1: Any, x2: Any, /, *, out: NDArray | None = None) -> NDArray:
    """Matrix product (Array API ``matmul``, the ``@`` operator); ``out=``
    (NumPy's) receives the result, which must have its shape and cast to
    its dtype under "same_kind".

    Arrays of 2 or more dimensions are stacks of matrices whose batch
    dimensions broadcast; a 1-d first argument is a row vector and a 1-d
    second argument a column vector, and the added dimension is removed
    from the result.  0-d arrays raise ValueError (use ``multiply``), as do
    mismatched inner dimensions.
    """
    if (type(x1) is not NDArray or type(x2) is not NDArray) and (_subclass.instance(x1) or _subclass.instance(x2)):
        return _subclass.of_inputs(matmul, x1, x2, out=out, zero_d=True)
    if out is not None:
        return write_out(out, matmul(x1, x2), "matmul", "same_kind")
    # _matmul's direct route, inlined: the extra Python frame of calling it
    # was a tenth of a 16x16 product's time.
    if type(x1) is NDArray and type(x2) is NDArray:
        ash, bsh, dt = x1._shape, x2._shape, x1._dtype
        if 0 < len(ash) < 3 and 0 < len(bsh) < 3 and ash[-1] == bsh[0] and x2._dtype is dt and _KERNEL[dt] is dt:
            made: NDArray = core.ndarray_empty(ash[:-1] + bsh[1:], dt, False)
            core.matmul(x1._h, x2._h, made._h, False)
            return made if made._shape else core.scalar_result(made)
    return _matmul(x1, x2, "matmul")


def _matmul(x1: Any, x2: Any, name: str) -> NDArray:
    """matmul, its floating-point errors reported as NumPy's ``name``'s."""
    if type(x1) is NDArray and type(x2) is NDArray:
        # Matrices or vectors of one dtype the kernel computes in: no casts,
        # views or broadcasting, so straight to the kernel, which reads a
        # vector as a row or a column (small products were dominated by the
        # general route's ~3 us of bookkeeping).  Two vectors make a scalar.
        ash, bsh, dt = x1._shape, x2._shape, x1._dtype
        if 0 < len(ash) < 3 and 0 < len(bsh) < 3 and ash[-1] == bsh[0] and x2._dtype is dt and _KERNEL[dt] is dt:
            made: NDArray = core.ndarray_empty(ash[:-1] + bsh[1:], dt, False)
            core.matmul(x1._h, x2._h, made._h, False, name)
            return made if made._shape else core.scalar_result(made)
    a, b, dt, kt = _operands("matmul", x1, x2)
    if a.ndim == 0 or b.ndim == 0:  # NumPy's words (matmul is its gufunc)
        raise ValueError(f"matmul: Input operand {0 if a.ndim == 0 else 1} does not have enough dimensions "
                         "(has 0, gufunc core with signature (n?,k),(k,m?)->(n?,m?) requires 1)")
    ka, kb = a.shape[-1], b.shape[0] if b.ndim == 1 else b.shape[-2]
    if ka != kb:
        raise ValueError(
            f"matmul: the last dimension of x1 ({ka}, shape {a.shape}) must equal the "
            f"second-to-last dimension of x2 ({kb}, shape {b.shape})"
        )
    try:
        batch = broadcast_shapes(a.shape[:-2], b.shape[:-2])
    except ValueError:
        raise ValueError(
            f"matmul: the batch dimensions of shapes {a.shape} and {b.shape} do not broadcast"
        ) from None
    a, b = _cast(a, b, kt)
    # Array API: a 1-d x1 is (1, k) and a 1-d x2 is (k, 1); both extra
    # dimensions are removed from the result.
    ash, ast = ((1, *a.shape), (0, *a._strides)) if a.ndim == 1 else (a.shape, a._strides)
    bsh, bst = ((*b.shape, 1), (*b._strides, 0)) if b.ndim == 1 else (b.shape, b._strides)
    out_shape = batch + ((ash[-2],) if a.ndim > 1 else ()) + ((bsh[-1],) if b.ndim > 1 else ())
    nd = max(len(ash), len(bsh))
    # (two 1-d operands make NumPy's scalar)
    return core.scalar_result(_run(_pad(a, ash, ast, nd), _pad(b, bsh, bst, nd), out_shape, dt, kt, name=name))


def _axes_list(axes: Any, ndim: int, which: str) -> list[int]:
    seq = [axes] if not isinstance(axes, (tuple, list)) else list(axes)
    out = [normalize_axis(ax, ndim, f"tensordot axis of {which}") for ax in seq]
    if len(set(out)) != len(out):
        raise ValueError(f"tensordot: repeated axis in the axes of {which}: {tuple(seq)}")
    return out


def tensordot(x1: Any, x2: Any, /, axes: int | tuple[Sequence[int], Sequence[int]] = 2) -> NDArray:
    """Sum products over the given axes (Array API ``tensordot``).

    ``axes=N`` contracts the last N axes of x1 with the first N of x2; a
    pair of sequences names the axes of each.  Contracted axes must have
    equal sizes: the standard forbids broadcasting them.  The result has
    x1's free axes, then x2's, in order.
    """
    a, b, dt, kt = _operands("tensordot", x1, x2)
    if isinstance(axes, (tuple, list)):
        if len(axes) != 2:
            raise ValueError(f"tensordot: axes must be an integer or a pair of sequences, got {axes!r}")
        ax1, ax2 = _axes_list(axes[0], a.ndim, "x1"), _axes_list(axes[1], b.ndim, "x2")
        if len(ax1) != len(ax2):
            raise ValueError(f"tensordot: x1 and x2 need as many axes each, got {axes[0]!r} and {axes[1]!r}")
    else:
        n = as_int(axes, "tensordot: axes")
        if n < 0:
            raise ValueError(f"tensordot: axes must be non-negative, got {n}")
        if n > a.ndim or n > b.ndim:
            raise ValueError(f"tensordot: cannot contract {n} axes of arrays with shapes {a.shape} and {b.shape}")
        ax1, ax2 = list(range(a.ndim - n, a.ndim)), list(range(n))
    for i, j in zip(ax1, ax2, strict=True):
        if a.shape[i] != b.shape[j]:
            raise ValueError(
                f"tensordot: contracted axes differ in size: axis {i} of x1 (shape {a.shape}) has "
                f"{a.shape[i]}, axis {j} of x2 (shape {b.shape}) has {b.shape[j]}"
            )
    a, b = _cast(a, b, kt)
    free1 = [i for i in range(a.ndim) if i not in ax1]
    free2 = [j for j in range(b.ndim) if j not in ax2]
    m = _prod(a.shape[i] for i in free1)
    n_ = _prod(b.shape[j] for j in free2)
    k = _prod(a.shape[i] for i in ax1)
    # Group the free axes and the contracted axes; a view when the strides
    # allow it, otherwise reshape copies.
    a2 = a._view(0, tuple(a.shape[i] for i in free1 + ax1), tuple(a._strides[i] for i in free1 + ax1))
    b2 = b._view(0, tuple(b.shape[j] for j in ax2 + free2), tuple(b._strides[j] for j in ax2 + free2))
    a2 = a2.reshape((m, k))
    b2 = b2.reshape((k, n_))
    out_shape = tuple(a.shape[i] for i in free1) + tuple(b.shape[j] for j in free2)
    return _run(a2, b2, out_shape, dt, kt, name="dot")  # NumPy's tensordot calls dot


def matvec(x1: Any, x2: Any, /, *, out: NDArray | None = None) -> NDArray:
    """Matrix-vector products over stacks (NumPy 2.2's ``matvec``, the
    gufunc ``(m,n),(n)->(m)``): each matrix of ``x1`` times the matching
    vector of ``x2``, the batch dimensions broadcast."""
    a, b = as_operand(x1, "matvec"), as_operand(x2, "matvec")
    if a.ndim < 2 or b.ndim < 1:
        raise ValueError(f"matvec: Input operand {0 if a.ndim < 2 else 1} does not have enough dimensions "
                         f"(has {a.ndim if a.ndim < 2 else b.ndim}, gufunc core with signature (m,n),(n)->(m) "
                         f"requires {2 if a.ndim < 2 else 1})")
    r = _matmul(a, b[..., None], "matvec")[..., 0]
    return r if out is None else write_out(out, r, "matvec", "same_kind")


def vecmat(x1: Any, x2: Any, /, *, out: NDArray | None = None) -> NDArray:
    """Vector-matrix products over stacks (NumPy 2.2's ``vecmat``, the
    gufunc ``(n),(n,m)->(m)``): the conjugate of each vector of ``x1``
    times the matching matrix of ``x2``, the batch dimensions broadcast."""
    a, b = as_operand(x1, "vecmat"), as_operand(x2, "vecmat")
    if a.ndim < 1 or b.ndim < 2:
        raise ValueError(f"vecmat: Input operand {0 if a.ndim < 1 else 1} does not have enough dimensions "
                         f"(has {a.ndim if a.ndim < 1 else b.ndim}, gufunc core with signature (n),(n,m)->(m) "
                         f"requires {1 if a.ndim < 1 else 2})")
    if a.dtype.kind == "c":
        a = conj(a)
    r = _matmul(a[..., None, :], b, "vecmat")[..., 0, :]
    return r if out is None else write_out(out, r, "vecmat", "same_kind")


def vecdot(x1: Any, x2: Any, /, *, axis: int = -1) -> NDArray:
    """Dot products of vectors along ``axis``, conjugating x1 when complex
    (Array API ``vecdot``): ``sum(conj(x1) * x2, axis=axis)``.

    The other dimensions broadcast.  ``axis`` counts from the end, in
    [-N, -1] with N the smaller ndim; a non-negative axis is accepted when
    both arrays have the same ndim (NumPy's reading).  The vector axis must
    have one size in both: the standard forbids broadcasting it.
    """
    if (type(x1) is not NDArray or type(x2) is not NDArray) and (_subclass.instance(x1) or _subclass.instance(x2)):
        return _subclass.of_inputs(vecdot, x1, x2, axis=axis, zero_d=True)
    a, b, dt, kt = _operands("vecdot", x1, x2)
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError(f"vecdot: Input operand {0 if a.ndim == 0 else 1} does not have enough dimensions "
                         "(has 0, gufunc core with signature (n),(n)->() requires 1)")
    ax = as_int(axis, "vecdot: axis")
    n_min = min(a.ndim, b.ndim)
    if ax >= 0 and a.ndim == b.ndim and ax < a.ndim:
        ax -= a.ndim
    if not -n_min <= ax <= -1:
        raise IndexError(
            f"vecdot: axis {axis} is out of bounds for shapes {a.shape} and {b.shape} "
            f"(expected a value in [{-n_min}, -1])"
        )
    ia, ib = a.ndim + ax, b.ndim + ax
    if a.shape[ia] != b.shape[ib]:
        raise ValueError(
            f"vecdot: the vector axis {axis} has size {a.shape[ia]} in x1 (shape {a.shape}) and "
            f"{b.shape[ib]} in x2 (shape {b.shape})"
        )
    k = a.shape[ia]
    a, b = _cast(a, b, kt)
    # Move the vector axis last: x1 becomes (..., 1, k) and x2 (..., k, 1).
    ra = [i for i in range(a.ndim) if i != ia]
    rb = [i for i in range(b.ndim) if i != ib]
    batch = broadcast_shapes(tuple(a.shape[i] for i in ra), tuple(b.shape[i] for i in rb))
    nd = len(batch) + 2
    a2 = _pad(a, (*(a.shape[i] for i in ra), 1, k), (*(a._strides[i] for i in ra), 0, a._strides[ia]), nd)
    b2 = _pad(b, (*(b.shape[i] for i in rb), k, 1), (*(b._strides[i] for i in rb), b._strides[ib], 0), nd)
    # (two vectors make NumPy's scalar)
    return core.scalar_result(_run(a2, b2, batch, dt, kt, conj=dt.kind == "c", name="vecdot"))


def outer(x1: Any, x2: Any, /) -> NDArray:
    """Outer product of two 1-d arrays (Array API ``outer``): shape (N, M);
    other arrays are flattened first, as NumPy's ``outer`` does."""
    a, b, dt, kt = _operands("outer", x1, x2)
    a, b = a.reshape((-1,)), b.reshape((-1,))
    a, b = _cast(a, b, kt)
    # (N, 1) @ (1, M): a product with k = 1.
    a2 = a._view(0, (a.shape[0], 1), (a._strides[0], 0))
    b2 = b._view(0, (1, b.shape[0]), (0, b._strides[0]))
    return _run(a2, b2, (a.shape[0], b.shape[0]), dt, kt, name="multiply")  # NumPy's outer multiplies


def _prod(values: Any) -> int:
    out = 1
    for v in values:
        out *= v
    return out


def dot(a: Any, b: Any) -> NDArray:
    """NumPy's ``dot``: the product of scalars (0-d), the inner product of
    vectors, the matrix product of matrices, and for N-d arrays the sum
    over the last axis of ``a`` and the second-to-last of ``b`` (the
    last, when ``b`` is 1-d)."""
    if type(a) is NDArray and type(b) is NDArray and 0 < a.ndim < 3 and 0 < b.ndim < 3 and a._shape[-1] == b._shape[0]:
        return _matmul(a, b, "dot")  # vectors and matrices that fit: matmul's product, without the checks below
    if (type(a) is not NDArray or type(b) is not NDArray) and (_subclass.instance(a) or _subclass.instance(b)):
        return _subclass.of_inputs(dot, a, b)
    x, y = as_operand(a, "dot"), as_operand(b, "dot")
    if x.ndim == 0 or y.ndim == 0:
        return multiply(x, y)
    if (y.ndim <= 2 and x.ndim <= 2) or y.ndim == 1:
        ka, kb = x.shape[-1], y.shape[0] if y.ndim == 1 else y.shape[-2]
        if ka != kb:
            raise ValueError(f"shapes {x.shape} and {y.shape} not aligned: {ka} (dim {x.ndim - 1}) != "
                             f"{kb} (dim {max(y.ndim - 2, 0)})")
        return _matmul(x, y, "dot")
    if x.shape[-1] != y.shape[-2]:
        raise ValueError(f"shapes {x.shape} and {y.shape} not aligned: {x.shape[-1]} (dim {x.ndim - 1}) != "
                         f"{y.shape[-2]} (dim {y.ndim - 2})")
    return tensordot(x, y, axes=([x.ndim - 1], [y.ndim - 2]))


def vdot(a: Any, b: Any, /) -> NDArray:
    """The dot product of the flattened arrays, ``a`` conjugated (NumPy's
    ``vdot``): a 0-d array."""
    if type(a) is not NDArray or type(b) is not NDArray:  # NumPy's gives a plain array
        a, b = _subclass.plain(a), _subclass.plain(b)
    x, y = as_operand(a, "vdot").reshape((-1,)), as_operand(b, "vdot").reshape((-1,))
    if x.shape != y.shape:
        raise ValueError(f"vdot: vectors have different lengths ({x.shape[0]} and {y.shape[0]})")
    return vecdot(x, y)


def inner(a: Any, b: Any, /) -> NDArray:
    """The sum of products over the last axes of ``a`` and ``b`` (NumPy's
    ``inner``: no conjugation; scalars multiply)."""
    if (type(a) is not NDArray or type(b) is not NDArray) and (_subclass.instance(a) or _subclass.instance(b)):
        return _subclass.of_inputs(inner, a, b)
    x, y = as_operand(a, "inner"), as_operand(b, "inner")
    if x.ndim == 0 or y.ndim == 0:
        return multiply(x, y)
    if x.shape[-1] != y.shape[-1]:
        raise ValueError(f"shapes {x.shape} and {y.shape} not aligned: {x.shape[-1]} (dim {x.ndim - 1}) != "
                         f"{y.shape[-1]} (dim {y.ndim - 1})")
    # (two vectors make NumPy's scalar, where tensordot's stays an array)
    return core.scalar_result(tensordot(x, y, axes=([x.ndim - 1], [y.ndim - 1])))


def kron(a: Any, b: Any) -> NDArray:
    """The Kronecker product: blocks ``a[i, j] * b``; the shorter shape is
    padded with leading 1s, the result's shape is the product of both."""
    x, y = as_operand(a, "kron"), as_operand(b, "kron")
    nd = max(x.ndim, y.ndim)
    xs = (1,) * (nd - x.ndim) + x.shape
    ys = (1,) * (nd - y.ndim) + y.shape
    # x as (s0, 1, s1, 1, ...) times y as (1, t0, 1, t1, ...), then merge pairs
    xe = x.reshape(tuple(v for s in xs for v in (s, 1)))
    ye = y.reshape(tuple(v for t in ys for v in (1, t)))
    return multiply(xe, ye).reshape(tuple(s * t for s, t in zip(xs, ys, strict=True)))


def cross(a: Any, b: Any, axisa: int = -1, axisb: int = -1, axisc: int = -1, axis: int | None = None) -> NDArray:
    """NumPy's ``cross``: cross products of 3-element vectors along
    ``axisa`` of ``a`` and ``axisb`` of ``b`` (``axis`` sets all three),
    the other dimensions broadcast, the vectors of the result along
    ``axisc``.  (``minarray.linalg.cross`` is the standard's, with one
    ``axis``.)"""
    from minarray.linalg._matrix import cross as _cross  # cycle: linalg._matrix imports this module

    x, y = as_operand(a, "cross"), as_operand(b, "cross")
    if axis is not None:
        axisa = axisb = axisc = axis
    if x.ndim == 0 or y.ndim == 0:
        raise ValueError("cross: both arrays need at least one dimension")
    x = moveaxis(x, normalize_axis(axisa, x.ndim, "axisa"), -1)
    y = moveaxis(y, normalize_axis(axisb, y.ndim, "axisb"), -1)
    if x.shape[-1] not in (2, 3) or y.shape[-1] not in (2, 3):
        raise ValueError("incompatible dimensions for cross product\n(dimension must be 2 or 3)")
    both_planar = x.shape[-1] == 2 and y.shape[-1] == 2
    if x.shape[-1] == 2 or y.shape[-1] == 2:
        # NumPy 2 still computes these, with a DeprecationWarning: a
        # 2-vector is a 3-vector in the plane z = 0, and two of them give
        # the z component alone (no vector axis)
        warnings.warn("Arrays of 2-dimensional vectors are deprecated. Use arrays of 3-dimensional vectors "
                      "instead. (deprecated in NumPy 2.0)", DeprecationWarning, stacklevel=2)
        x, y = _in_plane(x), _in_plane(y)
    out = _cross(x, y, axis=-1)
    if both_planar:
        return out[..., 2]
    return moveaxis(out, -1, normalize_axis(axisc, out.ndim, "axisc"))


def _in_plane(v: NDArray) -> NDArray:
    """Vectors along the last axis, 2-vectors extended by a zero z."""
    if v.shape[-1] == 3:
        return v
    return concat((v, zeros((*v.shape[:-1], 1), dtype=v.dtype)), axis=-1)


def convolve(a: Any, v: Any, mode: str = "full") -> NDArray:
    """The discrete linear convolution of two 1-d arrays (NumPy's
    ``convolve``): ``mode`` "full" (every overlap, N + M - 1 values),
    "same" (max(N, M), centred) or "valid" (full overlaps only).  The
    overlapping windows of the zero-padded longer array are one strided
    view, times the reversed shorter one: one matrix-vector product."""
    if type(a) is not NDArray or type(v) is not NDArray:  # NumPy's gives a plain array
        a, v = _subclass.plain(a), _subclass.plain(v)
    x, w = as_operand(a, "convolve"), as_operand(v, "convolve")
    # NumPy reads both with ndmin=1: a scalar is a one-element array
    x, w = (x.reshape((1,)) if x.ndim == 0 else x), (w.reshape((1,)) if w.ndim == 0 else w)
    if x.ndim != 1 or w.ndim != 1:
        raise ValueError(f"object too deep for desired array (convolve needs 1-d arrays, got shapes "
                         f"{x.shape} and {w.shape})")
    if x.shape[0] == 0:
        raise ValueError("a cannot be empty")
    if w.shape[0] == 0:
        raise ValueError("v cannot be empty")
    if mode not in ("full", "same", "valid"):
        raise ValueError(f"mode must be one of 'valid', 'same', or 'full' (got {mode!r})")
    if w.shape[0] > x.shape[0]:
        x, w = w, x
    n, m = x.shape[0], w.shape[0]
    dt = _dt.promote(x.dtype, w.dtype)
    padded = NDArray._empty((n + 2 * (m - 1),), dt, zero=True)
    core.copyto(padded._view(m - 1, (n,), (1,))._h, x._h)
    windows = padded._view(0, (n + m - 1, m), (1, 1), readonly=True)
    full = matmul(windows, w[::-1].astype(dt, copy=False))
    if mode == "full":
        return full
    if mode == "same":
        start = (m - 1) // 2
        return full[start:start + n]
    return full[m - 1:n]


def correlate(a: Any, v: Any, mode: str = "valid") -> NDArray:
    """The cross-correlation of two 1-d arrays (NumPy's ``correlate``):
    ``c[k] = sum_n a[n + k] * conj(v[n])``, ``mode`` "valid" (the default),
    "same" or "full" as :func:`convolve`'s.  It is the convolution with the
    conjugated, reversed ``v``; when ``v`` is the longer one NumPy
    correlates the other way round and conjugates and reverses the result,
    which moves the "same" window: so does this."""
    if (type(a) is not NDArray or type(v) is not NDArray) and (_subclass.instance(a) or _subclass.instance(v)):
        return _subclass.of_inputs(correlate, a, v, mode, zero_d=True)
    x, w = as_operand(a, "correlate"), as_operand(v, "correlate")
    if x.ndim != 1 or w.ndim != 1:
        raise ValueError(f"object too deep for desired array (correlate needs 1-d arrays, got shapes "
                         f"{x.shape} and {w.shape})")
    if w.shape[0] > x.shape[0]:
        return conj(convolve(w, conj(x)[::-1], mode))[::-1]
    return convolve(x, conj(w)[::-1], mode)


def _diagonal(x: NDArray, term: str) -> tuple[NDArray, str]:
    """Repeated subscripts of one operand (``"ii"``) as a diagonal view."""
    while len(set(term)) != len(term):
        c = next(ch for ch in term if term.count(ch) > 1)
        i, j = term.index(c), term.index(c, term.index(c) + 1)
        if x.shape[i] != x.shape[j]:
            raise ValueError(f"einsum: dimensions in operand for collapsing index '{c}' don't match "
                             f"({x.shape[i]} != {x.shape[j]})")
        shape = [s for k, s in enumerate(x.shape) if k != j]
        strides = [s for k, s in enumerate(x._strides) if k != j]
        strides[i] = x._strides[i] + x._strides[j]
        x = x._view(0, tuple(shape), tuple(strides))
        term = term[:j] + term[j + 1:]
    return x, term


def _sum_out(x: NDArray, term: str, keep: str) -> tuple[NDArray, str]:
    """Sum over the subscripts of ``term`` not in ``keep`` (in x's dtype, as
    NumPy's einsum accumulates)."""
    gone = tuple(i for i, c in enumerate(term) if c not in keep)
    if not gone:
        return x, term
    out = _sum(x, axis=gone, dtype=x.dtype)
    return out, "".join(c for c in term if c in keep)


def _sizes(ops: list[tuple[NDArray, str]]) -> dict[str, int]:
    sizes: dict[str, int] = {}
    for x, term in ops:
        for c, n in zip(term, x.shape, strict=True):
            m = sizes.get(c, 1)
            if n != 1 and m != 1 and n != m:
                raise ValueError(f"einsum: operands could not be broadcast together: subscript '{c}' has "
                                 f"sizes {m} and {n}")
            sizes[c] = max(m, n) if n != 1 and m != 1 else (n if m == 1 else m)
    return sizes


def _arrange(x: NDArray, term: str, order: str, sizes: dict[str, int]) -> NDArray:
    """``x`` with its axes in ``order`` and broadcast to the common sizes."""
    y = x.transpose(tuple(term.index(c) for c in order)) if term != order else x
    shape = tuple(sizes[c] for c in order)
    return broadcast_to(y, shape) if y.shape != shape else y


def _step(spec: str, operands: list[NDArray]) -> NDArray:
    """One contraction of opt_einsum's path: one or two operands, explicit
    output subscripts."""
    inputs, out = spec.split("->")
    terms = inputs.split(",")
    ops = [_diagonal(x, t) for x, t in zip(operands, terms, strict=True)]
    if len(ops) == 1:
        x, term = _sum_out(*ops[0], out)
        return x.transpose(tuple(term.index(c) for c in out)) if term != out else x
    (a, ta), (b, tb) = ops
    a, ta = _sum_out(a, ta, out + tb)
    b, tb = _sum_out(b, tb, out + ta)
    sizes = _sizes([(a, ta), (b, tb)])
    batch = "".join(c for c in out if c in ta and c in tb)
    a_only = "".join(c for c in ta if c not in tb)
    b_only = "".join(c for c in tb if c not in ta)
    contracted = "".join(c for c in ta if c in tb and c not in out)
    a2 = _arrange(a, ta, batch + a_only + contracted, sizes)
    b2 = _arrange(b, tb, batch + contracted + b_only, sizes)
    bs = tuple(sizes[c] for c in batch)
    m, k, n = (math.prod(sizes[c] for c in s) for s in (a_only, contracted, b_only))
    prod = matmul(a2.reshape((*bs, m, k)), b2.reshape((*bs, k, n)))
    res_term = batch + a_only + b_only
    res = prod.reshape(tuple(sizes[c] for c in res_term))
    return res.transpose(tuple(res_term.index(c) for c in out)) if res_term != out else res


def _sublist_letters(sublist: Any) -> str:
    """One operand's subscripts in NumPy's sublist form (ints in [0, 52),
    ``Ellipsis``) as letters."""
    out = []
    for s in sublist:
        if s is Ellipsis:
            out.append("...")
            continue
        i = operator.index(s)
        if not 0 <= i < 52:
            raise ValueError("subscript is not within the valid range [0, 52)")
        out.append(string.ascii_letters[i])
    return "".join(out)


def _parse(subscripts: Any, operands: tuple[Any, ...]) -> tuple[str, list[NDArray]]:
    if not isinstance(subscripts, str):
        # NumPy's interleaved form: op0, sublist0, op1, sublist1, ...[, output sublist]
        args = (subscripts, *operands)
        pairs = len(args) // 2
        spec = ",".join(_sublist_letters(args[2 * k + 1]) for k in range(pairs))
        if len(args) % 2:
            spec += "->" + _sublist_letters(args[-1])
        subscripts, operands = spec, tuple(args[2 * k] for k in range(pairs))
    arrays = [as_operand(x, "einsum") for x in operands]
    if not arrays:
        raise ValueError("einsum: no operands given")
    return subscripts.replace(" ", ""), arrays


def _path(subscripts: str, arrays: list[NDArray], optimize: Any) -> tuple[list[Any], Any]:
    import opt_einsum  # optional: opt_einsum is not a dependency of minarray

    if optimize is False:  # left to right, as NumPy's default
        optimize = [(0, 1)] * (len(arrays) - 1) if len(arrays) > 1 else [(0,)]
    elif optimize is True:
        optimize = "auto"
    elif isinstance(optimize, (list, tuple)) and optimize and optimize[0] == "einsum_path":
        optimize = list(optimize[1:])  # a path as einsum_path returns it (NumPy's, or minarray's)
    try:
        path, info = opt_einsum.contract_path(subscripts, *(a.shape for a in arrays), shapes=True,
                                              optimize=optimize)
    except ValueError as e:
        raise ValueError(f"einsum: {e}") from None
    return list(path), info


def einsum(subscripts: str, *operands: Any, dtype: Any = None, optimize: Any = True) -> NDArray:
    """Einstein summation (NumPy's ``einsum``, subscripts as a string with
    ``->`` and ``...`` as NumPy reads them).  ``optimize``: True (the
    default; NumPy's is False, which changes only speed and rounding
    order) picks the contraction order with opt_einsum's ``"auto"``;
    False contracts left to right; opt_einsum's strategy names
    (``"greedy"``, ``"optimal"``...) and explicit paths are passed to it.
    ``dtype`` casts the operands first.  Each pairwise step is one batched
    :func:`minarray.matmul`."""
    operands = tuple(_subclass.plain(x) for x in operands)  # NumPy's gives a plain array
    spec, arrays = _parse(subscripts, operands)
    if dtype is not None:
        dt = _dt.as_dtype(dtype)
        arrays = [a.astype(dt) for a in arrays]
    _, info = _path(spec, arrays, optimize)
    work = list(arrays)
    for inds, _removed, step, _remaining, _blas in info.contraction_list:
        picked = [work.pop(i) for i in sorted(inds, reverse=True)]
        # contract_inds come sorted as opt_einsum popped them: its einsum
        # string lists the operands in that same order
        work.append(_step(step, picked))
    (result,) = work
    want = _dt.result_type(*arrays) if len(arrays) > 1 else arrays[0].dtype
    # (a full contraction is NumPy's scalar)
    return core.scalar_result(result if result.dtype is want else result.astype(want))


def einsum_path(subscripts: str, *operands: Any, optimize: Any = "greedy") -> tuple[list[Any], str]:
    """The contraction order :func:`einsum` would take, as NumPy's
    ``einsum_path`` returns it: ``(["einsum_path", (i, j), ...], report)``."""
    spec, arrays = _parse(subscripts, operands)
    path, info = _path(spec, arrays, optimize)
    return ["einsum_path", *path], str(info)


def matrix_transpose(x: NDArray, /) -> NDArray:
    """A view of ``x`` with its last two axes exchanged (needs at least 2 dimensions)."""
    x = as_operand(x, "matrix_transpose")
    if x.ndim < 2:
        raise ValueError(f"matrix_transpose needs at least 2 dimensions, got {x.ndim}")
    return swapaxes(x, -1, -2)
