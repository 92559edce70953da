"""Matrix and tensor products of the core namespace (Array API): ``matmul``
(and ``@``), ``tensordot``, ``vecdot`` and ``outer``.  ``minarray.linalg``
re-exports the same objects.

Every product ends in one C call, ``core.matmul`` (csrc/core/gemm.c), the
one dispatch place for matrix products: BLAS ``?gemm`` (``?gemv`` for large
matrix-vector products) for float and complex operands BLAS can read, and
minarray's own kernel for integers, other layouts, dot products and stacks
of small products.  It reads any strides (transposed or sliced operands are
not copied), walks broadcast batches and releases the GIL.
It computes in five types; the others are cast in and out here, which
reproduces NumPy's results: float16 and bfloat16 accumulate in float32,
integer products wrap modulo 2**bits, and bool gives "some pair both true".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from minarray import dtypes as _dt
from minarray._args import as_int
from minarray._native import core
from minarray.creation import as_operand
from minarray.dtypes import DType
from minarray.ndarray import NDArray, c_strides
from minarray.views import broadcast_shapes, normalize_axis

__all__ = [
    "matmul", "tensordot", "vecdot", "outer",
    # NumPy's products
    "dot", "vdot", "inner", "kron", "cross", "convolve",
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


def _into(out: Any, result: NDArray, name: str) -> NDArray:
    """``out[...] = result`` for ``out=``: the same shape, a "same_kind" cast."""
    if not isinstance(out, NDArray):
        raise TypeError(f"out must be a minarray NDArray, got {type(out).__name__}")
    if out.shape != result.shape:
        raise ValueError(f"{name}: output of shape {out.shape} cannot hold the result of shape {result.shape}")
    if not _dt.same_kind(result.dtype, out.dtype):
        raise TypeError(f"Cannot cast {name} output from {result.dtype} to {out.dtype} with casting rule "
                        f"'same_kind'")
    core.copyto(out._h, result._h)
    return out


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
    if out is not None:
        return _into(out, matmul(x1, x2), "matmul")
    return _matmul(x1, x2, "matmul")


def _matmul(x1: Any, x2: Any, name: str) -> NDArray:
    """matmul, its floating-point errors reported as NumPy's ``name``'s."""
    if type(x1) is NDArray and type(x2) is NDArray:
        # Two matrices of one dtype the kernel computes in: no casts, views or
        # broadcasting, so straight to the kernel (small products were
        # dominated by the general route's ~3 us of bookkeeping).
        ash, bsh, dt = x1._shape, x2._shape, x1._dtype
        if len(ash) == 2 and len(bsh) == 2 and ash[1] == bsh[0] and x2._dtype is dt and _KERNEL[dt] is dt:
            made: NDArray | None = core.ndarray_empty((ash[0], bsh[1]), dt, False)
            if made is not None:
                core.matmul(x1._h, x2._h, made._h, False, name)
                return made
    a, b, dt, kt = _operands("matmul", x1, x2)
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError(
            f"matmul: operands must have at least one dimension, got shapes {a.shape} and {b.shape} "
            "(use multiply for products with scalars)"
        )
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
    return _run(_pad(a, ash, ast, nd), _pad(b, bsh, bst, nd), out_shape, dt, kt, name=name)


def _axes_list(axes: Any, ndim: int, which: str) -> list[int]:
    seq = [axes] if not isinstance(axes, (tuple, list)) else list(axes)
    out = [normalize_axis(ax, ndim, f"tensordot axis of {which}") for ax in seq]
    if len(set(out)) != len(out):
        raise ValueError(f"tensordot: repeated axis in the axes of {which}: {tuple(seq)}")
    return out


def tensordot(x1: Any, x2: Any, /, *, axes: int | tuple[Sequence[int], Sequence[int]] = 2) -> NDArray:
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


def vecdot(x1: Any, x2: Any, /, *, axis: int = -1) -> NDArray:
    """Dot products of vectors along ``axis``, conjugating x1 when complex
    (Array API ``vecdot``): ``sum(conj(x1) * x2, axis=axis)``.

    The other dimensions broadcast.  ``axis`` counts from the end, in
    [-N, -1] with N the smaller ndim; a non-negative axis is accepted when
    both arrays have the same ndim (NumPy's reading).  The vector axis must
    have one size in both: the standard forbids broadcasting it.
    """
    a, b, dt, kt = _operands("vecdot", x1, x2)
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError(f"vecdot: operands must have at least one dimension, got shapes {a.shape} and {b.shape}")
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
    return _run(a2, b2, batch, dt, kt, conj=dt.kind == "c", name="vecdot")


def outer(x1: Any, x2: Any, /) -> NDArray:
    """Outer product of two 1-d arrays (Array API ``outer``): shape (N, M)."""
    a, b, dt, kt = _operands("outer", x1, x2)
    if a.ndim != 1 or b.ndim != 1:
        raise ValueError(f"outer: expected two 1-d arrays, got shapes {a.shape} and {b.shape}")
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


# ---- NumPy's products: dot, vdot, inner, kron, cross ---------------------------------
# Each reduces to tensordot/matmul (the one C dispatch above) or, for kron
# and cross, to broadcast elementwise products.

def dot(a: Any, b: Any) -> NDArray:
    """NumPy's ``dot``: the product of scalars (0-d), the inner product of
    vectors, the matrix product of matrices, and for N-d arrays the sum
    over the last axis of ``a`` and the second-to-last of ``b`` (the
    last, when ``b`` is 1-d)."""
    x, y = as_operand(a, "dot"), as_operand(b, "dot")
    if x.ndim == 0 or y.ndim == 0:
        from minarray.elementwise import multiply

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
    x, y = as_operand(a, "vdot").reshape((-1,)), as_operand(b, "vdot").reshape((-1,))
    if x.shape != y.shape:
        raise ValueError(f"vdot: vectors have different lengths ({x.shape[0]} and {y.shape[0]})")
    return vecdot(x, y)


def inner(a: Any, b: Any, /) -> NDArray:
    """The sum of products over the last axes of ``a`` and ``b`` (NumPy's
    ``inner``: no conjugation; scalars multiply)."""
    x, y = as_operand(a, "inner"), as_operand(b, "inner")
    if x.ndim == 0 or y.ndim == 0:
        from minarray.elementwise import multiply

        return multiply(x, y)
    if x.shape[-1] != y.shape[-1]:
        raise ValueError(f"shapes {x.shape} and {y.shape} not aligned: {x.shape[-1]} (dim {x.ndim - 1}) != "
                         f"{y.shape[-1]} (dim {y.ndim - 1})")
    return tensordot(x, y, axes=([x.ndim - 1], [y.ndim - 1]))


def kron(a: Any, b: Any) -> NDArray:
    """The Kronecker product: blocks ``a[i, j] * b``; the shorter shape is
    padded with leading 1s, the result's shape is the product of both."""
    from minarray.elementwise import multiply

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
    from minarray.linalg._matrix import cross as _cross
    from minarray.views import moveaxis

    x, y = as_operand(a, "cross"), as_operand(b, "cross")
    if axis is not None:
        axisa = axisb = axisc = axis
    if x.ndim == 0 or y.ndim == 0:
        raise ValueError("cross: both arrays need at least one dimension")
    x = moveaxis(x, normalize_axis(axisa, x.ndim, "axisa"), -1)
    y = moveaxis(y, normalize_axis(axisb, y.ndim, "axisb"), -1)
    if x.shape[-1] != 3 or y.shape[-1] != 3:
        raise ValueError("incompatible dimensions for cross product (dimension must be 3; "
                         f"got {x.shape[-1]} and {y.shape[-1]})")
    out = _cross(x, y, axis=-1)
    return moveaxis(out, -1, normalize_axis(axisc, out.ndim, "axisc"))


def convolve(a: Any, v: Any, mode: str = "full") -> NDArray:
    """The discrete linear convolution of two 1-d arrays (NumPy's
    ``convolve``): ``mode`` "full" (every overlap, N + M - 1 values),
    "same" (max(N, M), centred) or "valid" (full overlaps only).  The
    overlapping windows of the zero-padded longer array are one strided
    view, times the reversed shorter one: one matrix-vector product."""
    x, w = as_operand(a, "convolve"), as_operand(v, "convolve")
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
