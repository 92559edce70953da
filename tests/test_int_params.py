"""Integer parameters refuse floats as NumPy does: every public function and
method with an integer parameter (a count, an offset, an axis, a shape
entry, ``k``, ``n``...) gets ``2.0``, ``2.5`` and ``np.float64(2.0)`` and
must do what NumPy's counterpart does with them.  NumPy applies
``operator.index`` (a TypeError, never a silent truncation) almost
everywhere, as minarray's one helper (minarray/_coerce.py) does; NumPy's
real-valued parameters (``ddof``, ``correction``: ``REAL_VALUED``) take
floats in both; and where NumPy takes a float only by accident of its
implementation (``STRICTER``, each with NumPy's result) minarray keeps the
TypeError.

``SWEEP`` lists every such parameter explicitly; ``test_sweep_is_complete``
finds the integer parameters of the public signatures (by annotation and
by name) and fails when one is neither in ``SWEEP`` nor in ``NOT_INT`` (a
parameter with an integer-like name that takes something else), so a new
integer parameter cannot be left out silently.
"""

from __future__ import annotations

import inspect
import io
import re
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest
from numpy_oracle import NP, ROLL_TAKES_FLOAT_SHIFT

import minarray as ma

Call = Callable[[Any, Any], Any]


def A(m: Any) -> Any:
    """A 2x3x4 float64 array of 0..23."""
    return m.asarray(np.arange(24.0).reshape(2, 3, 4))


def _resized(m: Any, v: Any) -> Any:
    """A fresh array of 0..23 resized in place to (v, 12)."""
    a = m.arange(24.0)
    a.resize(v, 12)
    return a


def M(m: Any) -> Any:
    """A 3x3 invertible float64 matrix."""
    return m.asarray(np.array([[2.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 4.0]]))


def V(m: Any) -> Any:
    """A 1-d float64 array of 8 values."""
    return m.asarray(np.array([3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0]))


def rng(m: Any) -> Any:
    return m.random.default_rng(1)


def fn(m: Any, qual: str) -> Any:
    """The function named ``qual`` (``"sum"``, ``"linalg.norm"``) in module ``m``."""
    obj = m
    for part in qual.split("."):
        obj = getattr(obj, part)
    return obj


def axis_of(qual: str, make: Callable[[Any], Any] = A, good: int = 1, **kw: Any) -> tuple[Call, int]:
    """``qual(make(m), axis=v, **kw)``."""
    return (lambda m, v: fn(m, qual)(make(m), axis=v, **kw)), good


def method_axis(name: str, good: int = 1, **kw: Any) -> tuple[Call, int]:
    """``A(m).name(axis=v, **kw)``."""
    return (lambda m, v: getattr(A(m), name)(axis=v, **kw)), good


def fft_n(name: str) -> tuple[Call, int]:
    return (lambda m, v: fn(m, "fft." + name)(V(m), n=v)), 4


def fft_axis(name: str) -> tuple[Call, int]:
    return (lambda m, v: fn(m, "fft." + name)(A(m), axis=v)), 1


def fft_s(name: str) -> tuple[Call, int]:
    return (lambda m, v: fn(m, "fft." + name)(A(m), s=(v, 4), axes=(1, 2))), 2


def fft_axes(name: str) -> tuple[Call, int]:
    return (lambda m, v: fn(m, "fft." + name)(A(m), axes=(v, 2))), 1


# "function.parameter" -> (call(module, value), a valid integer for it).
# The call is run with NumPy and with minarray; where minarray has no
# NumPy counterpart it is listed in NO_NUMPY and must raise TypeError.
SWEEP: dict[str, tuple[Call, int]] = {
    # ---- creation and construction ---------------------------------------------
    "empty.shape": ((lambda m, v: m.empty((v, 3))), 2),
    "zeros.shape": ((lambda m, v: m.zeros((v, 3))), 2),
    "ones.shape": ((lambda m, v: m.ones(v)), 2),
    "full.shape": ((lambda m, v: m.full((3, v), 7.0)), 2),
    "empty_like.shape": ((lambda m, v: m.empty_like(V(m), shape=(v, 3))), 2),
    "zeros_like.shape": ((lambda m, v: m.zeros_like(V(m), shape=(v, 3))), 2),
    "ones_like.shape": ((lambda m, v: m.ones_like(V(m), shape=v)), 2),
    "full_like.shape": ((lambda m, v: m.full_like(V(m), 7.0, shape=(3, v))), 2),
    "logspace.axis": ((lambda m, v: m.logspace(0.0, 1.0, 3, axis=v)), 0),
    "linspace.axis": ((lambda m, v: m.linspace([0.0, 1.0], 2.0, 3, axis=v)), 1),
    "geomspace.axis": ((lambda m, v: m.geomspace(1.0, 10.0, 3, axis=v)), 0),
    "eye.N": ((lambda m, v: m.eye(v)), 2),
    "eye.M": ((lambda m, v: m.eye(3, v)), 2),
    "eye.k": ((lambda m, v: m.eye(3, 3, k=v)), 1),
    "identity.n": ((lambda m, v: m.identity(v)), 2),
    "tri.N": ((lambda m, v: m.tri(v)), 2),
    "tri.M": ((lambda m, v: m.tri(3, v)), 2),
    "tri.k": ((lambda m, v: m.tri(3, 3, v)), 1),
    "tril.k": ((lambda m, v: m.tril(M(m), k=v)), 1),
    "triu.k": ((lambda m, v: m.triu(M(m), k=v)), 1),
    "diag.k": ((lambda m, v: m.diag(M(m), v)), 1),
    "diagflat.k": ((lambda m, v: m.diagflat(V(m), v)), 1),
    "vander.N": ((lambda m, v: m.vander(V(m), v)), 2),
    "linspace.num": ((lambda m, v: m.linspace(0.0, 1.0, v)), 2),
    "logspace.num": ((lambda m, v: m.logspace(0.0, 1.0, v)), 2),
    "geomspace.num": ((lambda m, v: m.geomspace(1.0, 2.0, v)), 2),
    "array.ndmin": ((lambda m, v: m.array([1.0, 2.0], ndmin=v)), 2),
    "indices.dimensions": ((lambda m, v: m.indices((v, 3))), 2),
    "fromfunction.shape": ((lambda m, v: m.fromfunction(lambda i, j: i + j, (v, 3))), 2),
    "fromiter.count": ((lambda m, v: m.fromiter(iter([1.0, 2.0, 3.0]), m.float64, count=v)), 2),
    "frombuffer.count": ((lambda m, v: m.frombuffer(b"abcdefgh", dtype=m.uint8, count=v)), 2),
    "frombuffer.offset": ((lambda m, v: m.frombuffer(b"abcdefgh", dtype=m.uint8, offset=v)), 2),
    "fromfile.count": ((lambda m, v: m.fromfile(io.BytesIO(b"abcdefgh"), dtype=m.uint8, count=v)), 2),
    "fromfile.offset": ((lambda m, v: m.fromfile(io.BytesIO(b"abcdefgh"), dtype=m.uint8, offset=v)), 2),
    "from_pointer.shape": ((lambda m, v: m.from_pointer(0, (v, 0), m.float64)), 2),
    "load.max_header_size": ((lambda m, v: m.load(_npy_file(), max_header_size=v)), 10000),
    "broadcast_to.shape": ((lambda m, v: m.broadcast_to(V(m), (v, 8))), 2),
    "broadcast_shapes.shapes": ((lambda m, v: m.broadcast_shapes((v, 1), (1, 3))), 2),
    "reshape.shape": ((lambda m, v: m.reshape(A(m), (v, 12))), 2),
    "resize.new_shape": ((lambda m, v: m.resize(V(m), (v, 3))), 2),
    # ---- index routines -----------------------------------------------------------
    "fromstring.count": ((lambda m, v: m.fromstring("1 2 3", sep=" ", count=v)), 2),
    "mask_indices.n": ((lambda m, v: m.mask_indices(v, m.triu)), 2),
    "mask_indices.k": ((lambda m, v: m.mask_indices(3, m.triu, v)), 1),
    "rollaxis.axis": ((lambda m, v: m.rollaxis(A(m), v)), 2),
    "rollaxis.start": ((lambda m, v: m.rollaxis(A(m), 0, v)), 2),
    "setbufsize.size": ((lambda m, v: (m.setbufsize(v * 8), m.setbufsize(8192))), 16),
    "hanning.M": ((lambda m, v: m.hanning(v)), 2),
    "hamming.M": ((lambda m, v: m.hamming(v)), 2),
    "blackman.M": ((lambda m, v: m.blackman(v)), 2),
    "bartlett.M": ((lambda m, v: m.bartlett(v)), 2),
    "kaiser.M": ((lambda m, v: m.kaiser(v, 3.0)), 2),
    "diag_indices.n": ((lambda m, v: m.diag_indices(v)), 2),
    "diag_indices.ndim": ((lambda m, v: m.diag_indices(3, v)), 2),
    "tril_indices.n": ((lambda m, v: m.tril_indices(v)), 2),
    "tril_indices.k": ((lambda m, v: m.tril_indices(3, v)), 1),
    "tril_indices.m": ((lambda m, v: m.tril_indices(3, 0, v)), 2),
    "triu_indices.n": ((lambda m, v: m.triu_indices(v)), 2),
    "triu_indices.k": ((lambda m, v: m.triu_indices(3, v)), 1),
    "triu_indices.m": ((lambda m, v: m.triu_indices(3, 0, v)), 2),
    "tril_indices_from.k": ((lambda m, v: m.tril_indices_from(M(m), v)), 1),
    "triu_indices_from.k": ((lambda m, v: m.triu_indices_from(M(m), v)), 1),
    "unravel_index.shape": ((lambda m, v: m.unravel_index(m.asarray([1, 4]), (v, 3))), 2),
    "ravel_multi_index.dims": ((lambda m, v: m.ravel_multi_index((m.asarray([1]), m.asarray([2])), (v, 3))), 2),
    # ---- manipulation ---------------------------------------------------------------
    "tile.repetitions": ((lambda m, v: m.tile(V(m), (v, 2))), 2),
    "repeat.repeats": ((lambda m, v: m.repeat(V(m), v)), 2),
    "repeat.axis": ((lambda m, v: m.repeat(A(m), 2, axis=v)), 1),
    "roll.shift": ((lambda m, v: m.roll(V(m), v)), 2),
    "roll.axis": ((lambda m, v: m.roll(A(m), 1, axis=v)), 1),
    "rot90.k": ((lambda m, v: m.rot90(M(m), v)), 1),
    "rot90.axes": ((lambda m, v: m.rot90(A(m), 1, (v, 2))), 1),
    "flip.axis": axis_of("flip"),
    "squeeze.axis": ((lambda m, v: m.squeeze(m.reshape(V(m), (1, 8, 1)), axis=v)), 2),
    "expand_dims.axis": axis_of("expand_dims"),
    "moveaxis.source": ((lambda m, v: m.moveaxis(A(m), v, 0)), 1),
    "moveaxis.destination": ((lambda m, v: m.moveaxis(A(m), 0, v)), 1),
    "swapaxes.axis1": ((lambda m, v: m.swapaxes(A(m), v, 0)), 1),
    "swapaxes.axis2": ((lambda m, v: m.swapaxes(A(m), 0, v)), 1),
    "permute_dims.axes": ((lambda m, v: m.permute_dims(A(m), (v, 0, 2))), 1),
    "transpose.axes": ((lambda m, v: m.transpose(A(m), (v, 0, 2))), 1),
    "concat.axis": ((lambda m, v: m.concat([A(m), A(m)], axis=v)), 1),
    "concatenate.axis": ((lambda m, v: m.concatenate([A(m), A(m)], axis=v)), 1),
    "stack.axis": ((lambda m, v: m.stack([A(m), A(m)], axis=v)), 1),
    "unstack.axis": axis_of("unstack"),
    "append.axis": ((lambda m, v: m.append(A(m), A(m), axis=v)), 1),
    "insert.axis": ((lambda m, v: m.insert(A(m), 1, 5.0, axis=v)), 1),
    "delete.axis": ((lambda m, v: m.delete(A(m), 1, axis=v)), 1),
    "split.indices_or_sections": ((lambda m, v: m.split(V(m), v)), 2),
    "split.axis": ((lambda m, v: m.split(A(m), 3, axis=v)), 1),
    "array_split.indices_or_sections": ((lambda m, v: m.array_split(V(m), v)), 3),
    "array_split.axis": ((lambda m, v: m.array_split(A(m), 2, axis=v)), 1),
    "hsplit.indices_or_sections": ((lambda m, v: m.hsplit(A(m), v)), 3),
    "vsplit.indices_or_sections": ((lambda m, v: m.vsplit(A(m), v)), 2),
    "dsplit.indices_or_sections": ((lambda m, v: m.dsplit(A(m), v)), 2),
    "take.axis": ((lambda m, v: m.take(A(m), m.asarray([0, 1]), axis=v)), 1),
    "take_along_axis.axis": ((lambda m, v: m.take_along_axis(A(m), m.zeros((2, 1, 4), dtype=m.int64), axis=v)), 1),
    "put_along_axis.axis": ((lambda m, v: m.put_along_axis(A(m), m.zeros((2, 1, 4), dtype=m.int64), 1.0, axis=v)),
                            1),
    "compress.axis": ((lambda m, v: m.compress(m.asarray([True, False, True]), A(m), axis=v)), 1),
    "diagonal.offset": ((lambda m, v: m.diagonal(M(m), v)), 1),
    "diagonal.axis1": ((lambda m, v: m.diagonal(A(m), 0, v, 2)), 1),
    "diagonal.axis2": ((lambda m, v: m.diagonal(A(m), 0, 0, v)), 1),
    "trace.offset": ((lambda m, v: m.trace(M(m), v)), 1),
    "trace.axis1": ((lambda m, v: m.trace(A(m), 0, v, 2)), 1),
    "trace.axis2": ((lambda m, v: m.trace(A(m), 0, 0, v)), 1),
    "size.axis": axis_of("size"),
    # ---- reductions, statistics, sorting, searching --------------------------------
    **{f"{name}.axis": axis_of(name) for name in (
        "all", "any", "amax", "amin", "max", "min", "sum", "prod", "mean", "std", "var", "ptp", "average",
        "median", "count_nonzero", "argmax", "argmin", "cumsum", "cumprod", "cumulative_sum", "cumulative_prod",
        "nanargmax", "nanargmin", "nancumprod", "nancumsum", "nanmax", "nanmean", "nanmedian", "nanmin", "nanprod",
        "nanstd", "nansum", "nanvar", "sort", "argsort", "trapezoid", "unwrap", "gradient")},
    "diff.axis": axis_of("diff"),
    "diff.n": ((lambda m, v: m.diff(V(m), n=v)), 2),
    "percentile.axis": axis_of("percentile", q=50.0),
    "quantile.axis": axis_of("quantile", q=0.5),
    "nanpercentile.axis": axis_of("nanpercentile", q=50.0),
    "nanquantile.axis": axis_of("nanquantile", q=0.5),
    "std.ddof": ((lambda m, v: m.std(V(m), ddof=v)), 1),
    "var.ddof": ((lambda m, v: m.var(V(m), ddof=v)), 1),
    "nanstd.ddof": ((lambda m, v: m.nanstd(V(m), ddof=v)), 1),
    "nanvar.ddof": ((lambda m, v: m.nanvar(V(m), ddof=v)), 1),
    "std.correction": ((lambda m, v: m.std(V(m), correction=v)), 1),
    "var.correction": ((lambda m, v: m.var(V(m), correction=v)), 1),
    "nanstd.correction": ((lambda m, v: m.nanstd(V(m), correction=v)), 1),
    "nanvar.correction": ((lambda m, v: m.nanvar(V(m), correction=v)), 1),
    "cov.ddof": ((lambda m, v: m.cov(A(m)[0], ddof=v)), 1),
    "gradient.edge_order": ((lambda m, v: m.gradient(V(m), edge_order=v)), 2),
    "partition.kth": ((lambda m, v: m.partition(V(m), v)), 2),
    "partition.axis": ((lambda m, v: m.partition(A(m), 1, axis=v)), 1),
    "argpartition.kth": ((lambda m, v: m.argpartition(V(m), v)), 2),
    "argpartition.axis": ((lambda m, v: m.argpartition(A(m), 1, axis=v)), 1),
    "lexsort.axis": ((lambda m, v: m.lexsort((A(m),), axis=v)), 1),
    "bincount.minlength": ((lambda m, v: m.bincount(m.asarray([0, 1, 1]), minlength=v)), 2),
    "packbits.axis": ((lambda m, v: m.packbits(m.asarray([[1, 0], [0, 1]]), axis=v)), 1),
    "unpackbits.axis": ((lambda m, v: m.unpackbits(m.asarray([[1, 0]], dtype=m.uint8), axis=v)), 1),
    "unpackbits.count": ((lambda m, v: m.unpackbits(m.asarray([5], dtype=m.uint8), count=v)), 2),
    "apply_along_axis.axis": ((lambda m, v: m.apply_along_axis(lambda r: r.sum(), v, A(m))), 1),
    "apply_over_axes.axes": ((lambda m, v: m.apply_over_axes(lambda a, axis: a.sum(axis=axis, keepdims=True), A(m),
                                                             [v])), 1),
    "histogram.bins": ((lambda m, v: m.histogram(V(m), bins=v)), 2),
    "histogram_bin_edges.bins": ((lambda m, v: m.histogram_bin_edges(V(m), bins=v)), 2),
    "histogram2d.bins": ((lambda m, v: m.histogram2d(V(m), V(m), bins=v)), 2),
    "histogramdd.bins": ((lambda m, v: m.histogramdd(A(m)[0], bins=v)), 2),
    "around.decimals": ((lambda m, v: m.around(V(m) / 7, v)), 2),
    "round.decimals": ((lambda m, v: m.round(V(m) / 7, v)), 2),
    # ---- products ----------------------------------------------------------------
    "tensordot.axes": ((lambda m, v: m.tensordot(M(m), M(m), axes=v)), 1),
    "vecdot.axis": ((lambda m, v: m.vecdot(A(m), A(m), axis=v)), 1),
    "cross.axis": ((lambda m, v: m.cross(M(m), M(m), axis=v)), 0),
    "cross.axisa": ((lambda m, v: m.cross(M(m), M(m), axisa=v)), 0),
    "cross.axisb": ((lambda m, v: m.cross(M(m), M(m), axisb=v)), 0),
    "cross.axisc": ((lambda m, v: m.cross(M(m), M(m), axisc=v)), 0),
    # ---- linalg ----------------------------------------------------------------------
    "linalg.cross.axis": ((lambda m, v: m.linalg.cross(M(m), M(m), axis=v)), 0),
    "linalg.diagonal.offset": ((lambda m, v: m.linalg.diagonal(M(m), offset=v)), 1),
    "linalg.trace.offset": ((lambda m, v: m.linalg.trace(M(m), offset=v)), 1),
    "linalg.matrix_power.n": ((lambda m, v: m.linalg.matrix_power(M(m), v)), 2),
    "linalg.norm.axis": axis_of("linalg.norm"),
    "linalg.vector_norm.axis": axis_of("linalg.vector_norm"),
    "linalg.vecdot.axis": ((lambda m, v: m.linalg.vecdot(A(m), A(m), axis=v)), 1),
    "linalg.tensordot.axes": ((lambda m, v: m.linalg.tensordot(M(m), M(m), axes=v)), 1),
    # ---- fft ---------------------------------------------------------------------------
    **{f"fft.{name}.n": fft_n(name) for name in ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft")},
    **{f"fft.{name}.axis": fft_axis(name) for name in ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft")},
    **{f"fft.{name}.s": fft_s(name) for name in ("fftn", "ifftn", "rfftn", "irfftn", "fft2", "ifft2", "rfft2",
                                                  "irfft2")},
    **{f"fft.{name}.axes": fft_axes(name) for name in ("fftn", "ifftn", "rfftn", "irfftn", "fft2", "ifft2", "rfft2",
                                                        "irfft2", "fftshift", "ifftshift")},
    "fft.fftfreq.n": ((lambda m, v: m.fft.fftfreq(v)), 4),
    "fft.rfftfreq.n": ((lambda m, v: m.fft.rfftfreq(v)), 4),
    # ---- minarray's own ------------------------------------------------------------------
    "normalize_axis.axis": ((lambda m, v: m.normalize_axis(v, 3)), 1),
    "normalize_axis.ndim": ((lambda m, v: m.normalize_axis(1, v)), 3),
    "set_num_threads.n": ((lambda m, v: _threads(m, v)), 1),
    # ---- printing (the text as bytes: compared as a whole) ------------------------------
    "array2string.precision": ((lambda m, v: m.array2string(V(m) / 7, precision=v).encode()), 2),
    "array2string.threshold": ((lambda m, v: m.array2string(m.arange(20.0), threshold=v).encode()), 2),
    "array2string.edgeitems": ((lambda m, v: m.array2string(m.arange(20.0), threshold=5, edgeitems=v).encode()), 2),
    "array2string.max_line_width": ((lambda m, v: m.array2string(V(m), max_line_width=10 * v).encode()), 2),
    "array_repr.precision": ((lambda m, v: m.array_repr(V(m) / 7, precision=v).encode()), 2),
    "array_repr.max_line_width": ((lambda m, v: m.array_repr(V(m), max_line_width=10 * v).encode()), 2),
    "array_str.precision": ((lambda m, v: m.array_str(V(m) / 7, precision=v).encode()), 2),
    "array_str.max_line_width": ((lambda m, v: m.array_str(V(m), max_line_width=10 * v).encode()), 2),
    **{f"format_float_positional.{p}": ((lambda m, v, p=p: m.format_float_positional(1 / 3, **{p: v}).encode()), 2)
       for p in ("precision", "min_digits", "pad_left", "pad_right")},
    **{f"format_float_scientific.{p}": ((lambda m, v, p=p: m.format_float_scientific(1 / 3, **{p: v}).encode()), 2)
       for p in ("precision", "min_digits", "pad_left", "exp_digits")},
    "binary_repr.num": ((lambda m, v: m.binary_repr(v).encode()), 5),
    "binary_repr.width": ((lambda m, v: m.binary_repr(-3, width=v).encode()), 4),
    "base_repr.base": ((lambda m, v: m.base_repr(100, v).encode()), 7),
    "base_repr.padding": ((lambda m, v: m.base_repr(100, 7, v).encode()), 2),
    # ---- NDArray methods -----------------------------------------------------------------
    **{f"NDArray.{name}.axis": method_axis(name) for name in (
        "all", "any", "argmax", "argmin", "cumprod", "cumsum", "max", "mean", "min", "prod", "sort", "argsort",
        "std", "sum", "var")},
    "NDArray.argpartition.kth": ((lambda m, v: V(m).argpartition(v)), 2),
    "NDArray.argpartition.axis": ((lambda m, v: A(m).argpartition(1, axis=v)), 1),
    "NDArray.partition.kth": ((lambda m, v: V(m).partition(v)), 2),
    "NDArray.partition.axis": ((lambda m, v: A(m).partition(1, axis=v)), 1),
    "NDArray.compress.axis": ((lambda m, v: A(m).compress([True, False, True], axis=v)), 1),
    "NDArray.diagonal.offset": ((lambda m, v: M(m).diagonal(v)), 1),
    "NDArray.diagonal.axis1": ((lambda m, v: A(m).diagonal(0, v, 2)), 1),
    "NDArray.diagonal.axis2": ((lambda m, v: A(m).diagonal(0, 0, v)), 1),
    "NDArray.trace.offset": ((lambda m, v: M(m).trace(v)), 1),
    "NDArray.trace.axis1": ((lambda m, v: A(m).trace(0, v, 2)), 1),
    "NDArray.trace.axis2": ((lambda m, v: A(m).trace(0, 0, v)), 1),
    "NDArray.repeat.repeats": ((lambda m, v: V(m).repeat(v)), 2),
    "NDArray.repeat.axis": ((lambda m, v: A(m).repeat(2, axis=v)), 1),
    "NDArray.reshape.shape": ((lambda m, v: A(m).reshape(v, 12)), 2),
    "NDArray.resize.new_shape": ((lambda m, v: _resized(m, v)), 2),
    "NDArray.round.decimals": ((lambda m, v: (V(m) / 7).round(v)), 2),
    "NDArray.squeeze.axis": ((lambda m, v: V(m).reshape(1, 8, 1).squeeze(axis=v)), 2),
    "NDArray.swapaxes.axis1": ((lambda m, v: A(m).swapaxes(v, 0)), 1),
    "NDArray.swapaxes.axis2": ((lambda m, v: A(m).swapaxes(0, v)), 1),
    "NDArray.take.axis": ((lambda m, v: A(m).take(m.asarray([0, 1]), axis=v)), 1),
    "NDArray.transpose.axes": ((lambda m, v: A(m).transpose(v, 0, 2)), 1),
    "NDArray.std.ddof": ((lambda m, v: V(m).std(ddof=v)), 1),
    "NDArray.var.ddof": ((lambda m, v: V(m).var(ddof=v)), 1),
    "NDArray.std.correction": ((lambda m, v: V(m).std(correction=v)), 1),
    "NDArray.var.correction": ((lambda m, v: V(m).var(correction=v)), 1),
    # ---- polynomials and text files ----------------------------------------------------------
    "polyfit.deg": ((lambda m, v: m.polyfit(V(m), V(m), v)), 2),
    "polyder.m": ((lambda m, v: m.polyder(V(m), v)), 2),
    "polyint.m": ((lambda m, v: m.polyint(V(m), v)), 2),
    "linalg.tensorinv.ind": ((lambda m, v: m.linalg.tensorinv(M(m), v)), 1),
    "loadtxt.skiprows": ((lambda m, v: m.loadtxt(["1 2", "3 4", "5 6"], skiprows=v)), 1),
    "loadtxt.max_rows": ((lambda m, v: m.loadtxt(["1 2", "3 4", "5 6"], max_rows=v)), 2),
    "loadtxt.ndmin": ((lambda m, v: m.loadtxt(["1"], ndmin=v)), 2),
    "genfromtxt.skip_header": ((lambda m, v: m.genfromtxt(["1 2", "3 4", "5 6"], skip_header=v)), 1),
    "genfromtxt.skip_footer": ((lambda m, v: m.genfromtxt(["1 2", "3 4", "5 6"], skip_footer=v)), 1),
    "genfromtxt.max_rows": ((lambda m, v: m.genfromtxt(["1 2", "3 4", "5 6"], max_rows=v)), 2),
    "genfromtxt.ndmin": ((lambda m, v: m.genfromtxt(["1"], ndmin=v)), 2),
    # ---- random ------------------------------------------------------------------------------
    **{f"random.Generator.{name}.size": ((lambda m, v, name=name: getattr(rng(m), name)(size=(v, 3))), 2)
       for name in ("random", "standard_normal", "standard_exponential", "normal", "uniform", "exponential",
                    "integers", "poisson", "lognormal")},
    "random.Generator.integers.size": ((lambda m, v: rng(m).integers(0, 10, size=(v, 3))), 2),
    "random.Generator.beta.size": ((lambda m, v: rng(m).beta(1.0, 2.0, size=(v, 3))), 2),
    "random.Generator.gamma.size": ((lambda m, v: rng(m).gamma(2.0, size=(v, 3))), 2),
    "random.Generator.standard_gamma.size": ((lambda m, v: rng(m).standard_gamma(2.0, size=(v, 3))), 2),
    "random.Generator.binomial.size": ((lambda m, v: rng(m).binomial(5, 0.5, size=(v, 3))), 2),
    "random.Generator.multinomial.size": ((lambda m, v: rng(m).multinomial(5, [0.5, 0.5], size=(v, 3))), 2),
    "random.Generator.dirichlet.size": ((lambda m, v: rng(m).dirichlet([1.0, 2.0], size=(v, 3))), 2),
    "random.Generator.choice.size": ((lambda m, v: rng(m).choice(5, size=(v, 3))), 2),
    "random.Generator.choice.axis": ((lambda m, v: rng(m).choice(A(m), 2, axis=v)), 1),
    "random.Generator.multivariate_normal.size": (
        (lambda m, v: rng(m).multivariate_normal([0.0, 0.0], [[1.0, 0.0], [0.0, 1.0]], size=(v, 3))), 2),
    **{f"random.Generator.{name}.size": ((lambda m, v, name=name, args=args: getattr(rng(m), name)(*args, size=(v, 3))),
                                          2)
       for name, args in (("standard_cauchy", ()), ("standard_t", (2.0,)), ("chisquare", (2.0,)),
                          ("f", (2.0, 3.0)), ("noncentral_chisquare", (2.0, 1.0)), ("noncentral_f", (2.0, 3.0, 1.0)),
                          ("laplace", ()), ("logistic", ()), ("gumbel", ()), ("rayleigh", ()), ("pareto", (2.0,)),
                          ("power", (2.0,)), ("weibull", (2.0,)), ("vonmises", (0.0, 1.0)), ("wald", (1.0, 1.0)),
                          ("triangular", (0.0, 1.0, 2.0)), ("geometric", (0.3,)), ("negative_binomial", (3.0, 0.5)),
                          ("zipf", (2.0,)), ("logseries", (0.5,)), ("hypergeometric", (5, 5, 3)))},
    "random.Generator.multivariate_hypergeometric.size": (
        (lambda m, v: rng(m).multivariate_hypergeometric([3, 2, 5], 4, size=(v, 3))), 2),
    "random.Generator.bytes.length": ((lambda m, v: rng(m).bytes(v)), 2),
    "random.Generator.permutation.axis": ((lambda m, v: rng(m).permutation(A(m), axis=v)), 1),
    "random.Generator.permuted.axis": ((lambda m, v: rng(m).permuted(A(m), axis=v)), 1),
    "random.Generator.shuffle.axis": ((lambda m, v: rng(m).shuffle(A(m), axis=v)), 1),
    "random.Generator.spawn.n_children": ((lambda m, v: rng(m).spawn(v)), 2),
    "unique.axis": ((lambda m, v: m.unique(m.asarray([[1, 2], [1, 2], [0, 1]]), axis=v)), 1),
    "trim_zeros.axis": ((lambda m, v: m.trim_zeros(m.asarray([[0, 1], [0, 0]]), axis=v)), 1),
    # ---- inspection --------------------------------------------------------------
    "shares_memory.max_work": ((lambda m, v: m.shares_memory(m.arange(4)[::2], m.arange(4)[1::2], max_work=v)), 2),
    "may_share_memory.max_work": ((lambda m, v: m.may_share_memory(m.arange(4), m.arange(4), max_work=v)), 2),
}

# Parameters the discovery below picks up (by annotation or name) that do
# not take an integer.
NOT_INT: dict[str, str] = {
    "angle.deg": "a bool",
    "frompyfunc.nin": "never read: frompyfunc refuses before (it makes object arrays)",
    "frompyfunc.nout": "never read: frompyfunc refuses before (it makes object arrays)",
    "fliplr.m": "the array",
    "flipud.m": "the array",
    "rot90.m": "the array",
    "cov.m": "the array",
    "digitize.bins": "an array of bin edges",
    "from_pointer.device": "a (device type, device id) pair, checked as DLPack's",
    "random.Generator.binomial.n": "an array-like of trial counts: NumPy truncates floats there",
    "random.Generator.multinomial.n": "an array-like of trial counts: NumPy truncates floats there",
    "random.Generator.gamma.shape": "the distribution's shape parameter, a float",
    "random.Generator.negative_binomial.n": "the distribution's (real) number of successes, a float",
    "random.Generator.standard_gamma.shape": "the distribution's shape parameter, a float",
    "polyint.k": "the integration constants, any numbers",
    "linalg.tensorsolve.axes": "a sequence of a's axes (each normalised as an axis; NumPy's list.remove "
                               "raises ValueError for one a does not have)",
}

# minarray functions NumPy does not have: they follow operator.index.
NO_NUMPY = {"normalize_axis.axis", "normalize_axis.ndim", "set_num_threads.n", "from_pointer.shape",
            # NumPy's fromfile reads only real files, not file-like objects
            "fromfile.count", "fromfile.offset"}

# Real-valued parameters (NumPy's ddof, the Array API's correction): floats
# are accepted, with NumPy's result.
REAL_VALUED = {f"{f}.{p}" for f in ("std", "var", "nanstd", "nanvar", "NDArray.std", "NDArray.var")
               for p in ("ddof", "correction")}
# printing's threshold and line width are only compared with counts and lengths
# a window's length goes through a float64 array, in NumPy as here
REAL_VALUED |= {f"{w}.M" for w in ("hanning", "hamming", "blackman", "bartlett", "kaiser")}
REAL_VALUED |= {"array2string.threshold", "array2string.max_line_width", "array_repr.max_line_width",
                "array_str.max_line_width"}

# Where NumPy takes a float by accident of its implementation (a float
# flows into arange, a comparison, int(), an unsafe cast or a list index)
# minarray keeps operator.index's TypeError for every float: NumPy's result
# is then the truncated integer's (a silent truncation, as frombuffer's
# count was), one no integer gives (tri(2.5) has 3 rows, rot90(k=1.5) turns
# three times), or a later, unrelated error (split(x, 2.5): "does not
# result in an equal division"; rot90's axes: IndexError).
STRICTER: dict[str, str] = {
    "polyfit.deg": "NumPy calls int(): a degree of 2.5 fits a parabola",
    "polyder.m": "NumPy calls int(): 2.5 derivatives are 2",
    "polyint.m": "NumPy calls int(): 2.5 antiderivatives are 2",
    "repeat.repeats": "NumPy casts repeats to intp unsafely: 2.5 repeats twice",
    "NDArray.repeat.repeats": "NumPy casts repeats to intp unsafely: 2.5 repeats twice",
    "array_split.indices_or_sections": "NumPy calls int(): 2.5 sections are 2",
    "split.indices_or_sections": "NumPy calls int() once 2.0 divides the length",
    "hsplit.indices_or_sections": "NumPy calls int() once 2.0 divides the length",
    "vsplit.indices_or_sections": "NumPy calls int() once 2.0 divides the length",
    "dsplit.indices_or_sections": "NumPy calls int() once 2.0 divides the length",
    "linalg.norm.axis": "NumPy calls int(axis): axis=1.5 is axis 1",
    "linalg.vector_norm.axis": "NumPy calls int(axis): axis=1.5 is axis 1",
    "roll.shift": "NumPy truncates the shift",
    "rot90.k": "NumPy's k % 4 of 1.5 is neither 1 nor 2: three turns",
    "rot90.axes": "NumPy indexes a list with the axes: IndexError",
    "tri.N": "NumPy's arange(2.5) has 3 rows",
    "tri.M": "NumPy's arange(2.5) has 3 columns",
    "tri.k": "NumPy compares with a float diagonal offset",
    "tril.k": "NumPy compares with a float diagonal offset",
    "triu.k": "NumPy compares with k - 1 as a float",
    "mask_indices.k": "k goes to mask_func: NumPy's triu takes the float (above), minarray's refuses it",
    "tril_indices.n": "NumPy's tri(2.5) has 3 rows",
    "tril_indices.m": "NumPy's tri(.., 2.5) has 3 columns",
    "tril_indices.k": "NumPy compares with a float diagonal offset",
    "tril_indices_from.k": "NumPy compares with a float diagonal offset",
    "triu_indices.n": "NumPy's tri(2.5) has 3 rows",
    "triu_indices.m": "NumPy's tri(.., 2.5) has 3 columns",
    "triu_indices.k": "NumPy compares with k - 1 as a float",
    "triu_indices_from.k": "NumPy compares with k - 1 as a float",
    "diag_indices.n": "NumPy's arange(2.5) gives 3 indices",
    "gradient.edge_order": "NumPy only compares edge_order with 1 and 2",
    "load.max_header_size": "NumPy only compares the header's length with it",
    "random.Generator.bytes.length": "NumPy truncates the length",
    "random.Generator.spawn.n_children": "NumPy truncates the count",
}

INT_NAMES = {
    "axis", "axes", "axis1", "axis2", "axisa", "axisb", "axisc", "source", "destination", "k", "n", "N", "M", "m",
    "num", "count", "offset", "ndmin", "ndim", "repeats", "repetitions", "shift", "decimals", "ddof", "correction",
    "bins", "minlength", "size", "shape", "shapes", "new_shape", "kth", "indices_or_sections", "s", "edge_order",
    "n_rows", "n_cols", "dimensions", "dims", "max_header_size", "length", "n_children", "deg",
}
INT_ANNOTATION = re.compile(r"\bint\b|SupportsIndex|\bShape\b|\bAxis\b")


def _npy_file() -> io.BytesIO:
    f = io.BytesIO()
    np.save(f, np.arange(3.0))
    f.seek(0)
    return f


def _threads(m: Any, v: Any) -> Any:
    before = m.get_num_threads()
    try:
        return m.set_num_threads(v)
    finally:
        m.set_num_threads(before)


def _public() -> Iterator[tuple[str, Any]]:
    for prefix, mod in (("", ma), ("linalg.", ma.linalg), ("fft.", ma.fft)):
        for name in sorted(set(mod.__all__)):
            f = getattr(mod, name)
            if inspect.isfunction(f) or inspect.isbuiltin(f):
                yield prefix + name, f
    for cls, prefix in ((ma.NDArray, "NDArray."), (ma.random.Generator, "random.Generator.")):
        for name, f in sorted(vars(cls).items()):
            if inspect.isfunction(f) and not name.startswith("_"):
                yield prefix + name, f


def _int_params() -> set[str]:
    found = set()
    for qual, f in _public():
        for p in inspect.signature(f).parameters.values():
            if p.name in INT_NAMES or INT_ANNOTATION.search(str(p.annotation)):
                found.add(f"{qual}.{p.name}")
    return found


def test_sweep_is_complete() -> None:
    """Every integer-like parameter of the public signatures is swept (or
    stated not to be an integer), and every swept one exists."""
    found = _int_params()
    missing = sorted(found - SWEEP.keys() - NOT_INT.keys())
    assert not missing, f"integer parameters missing from SWEEP (or NOT_INT): {missing}"
    stale = sorted((SWEEP.keys() | NOT_INT.keys()) - found)
    assert not stale, f"SWEEP or NOT_INT names parameters the signatures do not have: {stale}"


def _outcome(call: Call, m: Any, v: Any) -> tuple[str, Any]:
    """"ok" and the result, or the name of the exception and the exception.
    A DeprecationWarning is an outcome of its own: NumPy 2.5 deprecates
    floats for tri's, tril's, triu's and rot90's integers (STRICTER ones),
    still computing with them."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        try:
            return "ok", call(m, v)
        except Exception as e:  # the outcome is what is compared
            return type(e).__name__, e


FLOATS = {"2.0": lambda g: float(g), "2.5": lambda g: g + 0.5, "np.float64": lambda g: np.float64(g)}


def _same(got: Any, expected: Any) -> bool:
    if isinstance(expected, (tuple, list)):
        return len(got) == len(expected) and all(_same(g, e) for g, e in zip(got, expected, strict=True))
    if expected is None or isinstance(expected, bytes):
        return bool(got == expected)
    g, e = np.asarray(got), np.asarray(expected)
    return g.shape == e.shape and bool(np.allclose(g, e, equal_nan=True))


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("kind", list(FLOATS))
@pytest.mark.parametrize("key", sorted(SWEEP))
def test_float_for_int_param(key: str, kind: str) -> None:
    call, good = SWEEP[key]
    status, res = _outcome(call, ma, good)
    assert status == "ok", f"{key}: the valid call with {good} fails: {res!r}"
    del res
    value = FLOATS[kind](good)
    has_numpy = key not in NO_NUMPY and not (key in REAL_VALUED and _outcome(call, NP, good)[0] != "ok")
    if has_numpy:
        assert _outcome(call, NP, good)[0] == "ok", f"{key}: NumPy's valid call fails"
        expected, want = _outcome(call, NP, value)
    else:
        expected, want = ("ok", None) if key in REAL_VALUED else ("TypeError", None)
    if key in STRICTER:
        expected = "TypeError"
    got, res = _outcome(call, ma, value)
    assert got == expected, f"{key}={value!r}: expected {expected} (as NumPy), minarray gives {got}: {res!r}"
    if got == "ok" and has_numpy:
        assert _same(res, want), f"{key}={value!r}: {res!r} differs from NumPy's {want!r}"


@pytest.mark.parametrize("key", sorted(STRICTER))
def test_stricter_than_numpy_is_still_needed(key: str) -> None:
    """Each STRICTER entry is a parameter where NumPy does not raise
    TypeError for a float (so the list shrinks when NumPy tightens one;
    one it deprecates, as NumPy 2.5 does tri's, still computes)."""
    if key == "roll.shift" and not ROLL_TAKES_FLOAT_SHIFT:
        pytest.skip("NumPy 2.0's roll raises TypeError for a float shift itself; later NumPy truncates it")
    call, good = SWEEP[key]
    outcome = _outcome(call, NP, float(good))[0]
    assert outcome != "TypeError", f"{key}: NumPy now raises TypeError: drop it from STRICTER"
