"""NumPy's counting and binning routines: ``bincount``, ``histogram``,
``histogram_bin_edges``, ``histogram2d``, ``histogramdd`` and ``digitize``.

Values find their bins by binary search (:func:`minarray.searchsorted`, in
C), and one C pass counts them (``core.bincount``, a scatter-add in the
input's order, so weighted sums round as NumPy's do).  A D-dimensional
histogram bins each coordinate as the 1-d one does (the same edges and
the same rule) and counts the flat index of each point's bin.  No per-element
Python work.
"""

from __future__ import annotations

import builtins
import math
import warnings
from collections.abc import Callable
from typing import Any

from minarray import _dtypes as _dt
from minarray import _elementwise as _ew
from minarray import _statistical as _stat
from minarray import _utility
from minarray._array_object import NDArray
from minarray._coerce import as_int, as_intp, as_operand, asarray
from minarray._creation import linspace, zeros
from minarray._native import core
from minarray._sorting import _searchsorted

__all__ = [
    "bincount", "histogram", "histogram_bin_edges", "digitize", "histogram2d", "histogramdd",
]


def bincount(x: Any, weights: Any = None, minlength: int = 0) -> NDArray:
    """How often each value 0, 1, ..., max(x) occurs in the 1-d array of
    non-negative integers ``x`` (at least ``minlength`` bins): int64, or
    the sum of ``weights`` per value (float64) when given."""
    a = as_operand(x, "bincount")
    if a.ndim != 1:
        raise ValueError(f"object too deep for desired array (bincount needs a 1-d array, got shape {a.shape})")
    if a.size and a.dtype.kind not in "iub":
        raise TypeError(f"Cannot cast array data from dtype('{a.dtype}') to dtype('int64') "
                        "according to the rule 'safe'")
    minlength = as_intp(minlength, "bincount: minlength")
    if minlength < 0:
        raise ValueError("'minlength' must not be negative")
    a = a.astype(_dt.int64, copy=False)
    lo, hi = core.bincount_range(a._h) if a.size else (0, -1)  # one pass for both
    if lo < 0:
        raise ValueError("'list' argument must have no negative elements")
    n = max(hi + 1, minlength)
    w = None
    if weights is not None:
        w = as_operand(weights, "bincount").astype(_dt.float64, copy=False)
        if w.shape != a.shape:
            raise ValueError("The weights and list don't have the same length.")
    out = zeros((n,), dtype=_dt.int64 if w is None else _dt.float64)
    core.bincount(a._h, None if w is None else w._h, out._h)  # one pass in C, in x's order (NumPy's sums)
    return out


def _edges(x: NDArray, bins: Any, range: Any, weighted: bool = False) -> NDArray:
    if isinstance(bins, str):
        bins = _estimated_bins(x, bins, range, weighted)
    if not isinstance(bins, (list, tuple)) and getattr(bins, "ndim", 0) == 0:
        # a scalar is a count of bins: an integer, never a float (NumPy's TypeError)
        nb = as_int(bins, "histogram: bins")
        if nb < 1:
            raise ValueError("`bins` must be positive, when an integer")
        if range is not None:
            first, last = float(range[0]), float(range[1])
            if first > last:
                raise ValueError("max must be larger than min in range parameter.")
        elif x.size:
            first, last = float(_stat.min(x)), float(_stat.max(x))
        else:
            first, last = 0.0, 1.0
        if not (_finite(first) and _finite(last)):
            raise ValueError(f"autodetected range of [{first}, {last}] is not finite")
        if first == last:
            first, last = first - 0.5, last + 0.5
        dt = x.dtype if x.dtype.kind == "f" else _dt.float64
        return linspace(first, last, nb + 1, dtype=dt)
    e = as_operand(bins, "histogram")
    if e.ndim != 1:
        raise ValueError("`bins` must be 1d, when an array")
    if e.shape[0] > 1 and bool(_utility.any(_ew.less(_utility.diff(e), 0))):
        raise ValueError("`bins` must increase monotonically, when an array")
    return e


def _finite(v: float) -> bool:
    return v == v and v not in (float("inf"), float("-inf"))


# ---- NumPy's estimators of the bin width, for bins="auto", "fd"... --------------
#
# Each takes the (non-empty) data and returns a bin width, 0 when it cannot
# tell; the number of bins is then the range over that width, rounded up
# (NumPy's _get_bin_edges and its _hist_bin_* functions, formula for formula).


def _ptp(x: NDArray) -> float:
    """max - min, in the data's type as NumPy subtracts (integers exactly)."""
    hi, lo = _stat.max(x), _stat.min(x)
    if x.dtype.kind in "iub":
        return float(int(hi) - int(lo))
    return float(_ew.subtract(hi, lo))


def _width_sqrt(x: NDArray, range: Any) -> float:
    return _ptp(x) / math.sqrt(x.size)


def _width_sturges(x: NDArray, range: Any) -> float:
    return _ptp(x) / (math.log2(x.size) + 1.0)


def _width_rice(x: NDArray, range: Any) -> float:
    return _ptp(x) / (2.0 * math.pow(x.size, 1.0 / 3))


def _width_scott(x: NDArray, range: Any) -> float:
    return float((24.0 * math.pi ** 0.5 / x.size) ** (1.0 / 3.0) * float(_stat.std(x)))


def _width_stone(x: NDArray, range: Any) -> float:
    """The width minimising the estimated L2 risk of the histogram (Stone's
    leave-one-out rule), over 1 to max(100, sqrt(n)) bins."""
    n = x.size
    ptp = _ptp(x)
    if n <= 1 or ptp == 0:
        return 0.0

    def risk(nbins: int) -> float:
        p = _ew.divide(histogram(x, bins=nbins, range=range)[0], n)
        return (2 - (n + 1) * float(_stat.sum(_ew.multiply(p, p)))) / (ptp / nbins)

    upper = builtins.max(100, int(math.sqrt(n)))
    nbins = builtins.min(builtins.range(1, upper + 1), key=risk)
    if nbins == upper:
        warnings.warn("The number of bins estimated may be suboptimal.", RuntimeWarning, stacklevel=4)
    return ptp / nbins


def _width_doane(x: NDArray, range: Any) -> float:
    """Sturges' rule corrected for the data's skewness."""
    n = x.size
    if n > 2:
        sg1 = math.sqrt(6.0 * (n - 2) / ((n + 1.0) * (n + 3)))
        sigma = float(_stat.std(x))
        if sigma > 0.0:
            z = _ew.divide(_ew.subtract(x, _stat.mean(x)), sigma)
            g1 = float(_stat.mean(_ew.pow(z, 3)))
            return _ptp(x) / (1.0 + math.log2(n) + math.log2(1.0 + abs(g1) / sg1))
    return 0.0


def _width_fd(x: NDArray, range: Any) -> float:
    """Freedman and Diaconis: twice the interquartile range over n^(1/3)."""
    q75, q25 = (float(v) for v in _stat.percentile(x, [75, 25]))
    return 2.0 * (q75 - q25) * math.pow(x.size, -1.0 / 3.0)


def _width_auto(x: NDArray, range: Any) -> float:
    """The smaller of Sturges' and the Freedman-Diaconis width, the latter
    kept at least half the sqrt rule's (NumPy 2's "auto")."""
    fd = builtins.max(_width_fd(x, range), _width_sqrt(x, range) / 2)
    return builtins.min(fd, _width_sturges(x, range))


_ESTIMATORS: dict[str, Callable[[NDArray, Any], float]] = {
    "stone": _width_stone, "auto": _width_auto, "doane": _width_doane, "fd": _width_fd, "rice": _width_rice,
    "scott": _width_scott, "sqrt": _width_sqrt, "sturges": _width_sturges,
}


def _estimated_bins(x: NDArray, name: str, range: Any, weighted: bool) -> int:
    """The number of equal bins NumPy's estimator ``name`` gives: over
    ``range`` when given (the data outside it left out of the estimate)."""
    if name not in _ESTIMATORS:
        raise ValueError(f"{name!r} is not a valid estimator for `bins`")
    if weighted:
        raise TypeError("Automated estimation of the number of bins is not supported for weighted data")
    if range is not None:
        first, last = range
        if first > last:
            raise ValueError("max must be larger than min in range parameter.")
        if first == last:
            first, last = first - 0.5, last + 0.5
        x = x[_ew.logical_and(_ew.greater_equal(x, first), _ew.less_equal(x, last))]
        delta = float(last - first)
    elif x.size:
        delta = _ptp(x) or 1.0  # one value: NumPy's range widened by a half each side
    if x.size == 0:
        return 1
    width = _ESTIMATORS[name](x, range)
    if not width:  # e.g. "fd" when the interquartile range is 0
        return 1
    if x.dtype.kind in "iu" and width < 1:
        width = 1
    return math.ceil(delta / width)


def histogram_bin_edges(a: Any, bins: Any = 10, range: Any = None, weights: Any = None) -> NDArray:
    """The bin edges :func:`histogram` uses: ``bins`` equal bins over
    ``range`` (default: the data's min to max), the given edges, or the
    number of bins NumPy's estimator names (``"auto"``, ``"fd"``,
    ``"doane"``, ``"scott"``, ``"stone"``, ``"rice"``, ``"sturges"``,
    ``"sqrt"``; not for weighted data)."""
    x = as_operand(a, "histogram_bin_edges").reshape((-1,))
    if weights is not None and as_operand(weights, "histogram_bin_edges").shape != as_operand(a).shape:
        raise ValueError("weights should have the same shape as a.")
    return _edges(x, bins, range, weights is not None)


def _bin_index(x: NDArray, edges: NDArray) -> tuple[NDArray, NDArray]:
    """The bin of each value of the 1-d ``x`` among increasing ``edges``,
    and whether it falls in one at all: bin i holds [edge i, edge i+1),
    the last bin its right edge too (NumPy's rule for every histogram)."""
    common = _dt.promote(x.dtype, edges.dtype)
    xc, ec = x.astype(common, copy=False), edges.astype(common, copy=False)
    inside = _ew.logical_and(_ew.greater_equal(xc, ec[0]), _ew.less_equal(xc, ec[-1]))
    idx = _ew.subtract(_searchsorted(ec, xc, "right", None), 1)
    return _ew.minimum(idx, edges.shape[0] - 2), inside


def histogram(a: Any, bins: Any = 10, range: Any = None, density: bool | None = None,
              weights: Any = None) -> tuple[NDArray, NDArray]:
    """The histogram of the flattened ``a``: counts per bin (int64, or the
    summed ``weights``) and the bin edges.  Every bin holds its left edge,
    the last one its right edge too; values outside are not counted.
    ``density`` divides by the total and the bin widths."""
    x = as_operand(a, "histogram").reshape((-1,))
    edges = _edges(x, bins, range, weights is not None)
    nb = edges.shape[0] - 1
    idx, inside = _bin_index(x, edges)
    w = None
    if weights is not None:
        w = as_operand(weights, "histogram").reshape((-1,))
        if w.shape != x.shape:
            raise ValueError("weights should have the same shape as a.")
        w = w[inside]
    counts = bincount(idx[inside], weights=w, minlength=nb)[:nb]
    if w is not None and w.dtype.kind in "iub":
        counts = counts.astype(_dt.int64)
    if density:
        widths = _utility.diff(edges.astype(_dt.float64))
        return _ew.divide(_ew.divide(counts, widths), _stat.sum(counts)), edges
    return counts, edges


def digitize(x: Any, bins: Any, right: bool = False) -> NDArray:
    """The index of the bin each value falls in: ``bins[i-1] <= x <
    bins[i]`` for increasing ``bins`` (``<`` and ``<=`` swapped with
    ``right``), mirrored for decreasing ones; 0 and ``len(bins)`` outside."""
    v = as_operand(x, "digitize")
    b = as_operand(bins, "digitize")
    if b.ndim != 1:
        raise ValueError("bins must be one-dimensional")
    if v.dtype.kind == "c" or b.dtype.kind == "c":
        raise TypeError("x may not be complex")
    n = b.shape[0]
    d = _utility.diff(b) if n > 1 else asarray([0])
    increasing = bool(_utility.all(_ew.greater_equal(d, 0)))
    if not increasing and not bool(_utility.all(_ew.less_equal(d, 0))):
        raise ValueError("bins must be monotonically increasing or decreasing")
    common = _dt.promote(v.dtype, b.dtype)
    vc, bc = v.astype(common, copy=False), b.astype(common, copy=False)
    side = "left" if right else "right"
    if increasing:
        return _searchsorted(bc, vc, side, None)
    flipped = bc[::-1]
    return _ew.subtract(n, _searchsorted(flipped, vc, side, None))


def _sample_columns(sample: Any) -> list[NDArray]:
    """NumPy's two spellings of a D-dimensional sample: an (N, D) array
    (a 1-d one: D = 1), or a sequence of D sequences of N coordinates (a
    sequence of numbers: D = 1), promoted to one dtype as NumPy stacks them."""
    x = as_operand(sample, "histogramdd")
    if isinstance(sample, (list, tuple)) and x.ndim == 2:
        return [x[i] for i in builtins.range(x.shape[0])]
    if x.ndim == 2:
        return [x[:, i] for i in builtins.range(x.shape[1])]
    if x.ndim == 1:
        return [x]
    raise ValueError(f"sample must be an (N, D) array or D sequences of N values, got shape {x.shape}")


def histogramdd(sample: Any, bins: Any = 10, range: Any = None, density: bool | None = None,
                weights: Any = None) -> tuple[NDArray, list[NDArray]]:
    """The D-dimensional histogram of ``sample`` (an (N, D) array, or D
    sequences of N coordinates): float64 counts (or summed ``weights``) of
    shape (nbins_0, ..., nbins_D-1) and the D arrays of bin edges.  ``bins``:
    one count for every axis, or per axis a count or an array of edges;
    ``range``: per axis (min, max) or None; ``density`` divides by the
    total and the bins' volumes.  Each axis is binned as :func:`histogram`
    bins (the last bin holds its right edge; points outside any bin are
    not counted)."""
    cols = _sample_columns(sample)
    d = len(cols)
    per_axis = [bins] * d if _scalar_bins(bins) else list(bins)
    if len(per_axis) != d:
        raise ValueError("The dimension of bins must be equal to the dimension of the sample x.")
    if range is None:
        range = [None] * d
    elif len(range) != d:
        raise ValueError("range argument must have one entry per dimension")
    edges = []
    for i, (col, b, r) in enumerate(zip(cols, per_axis, range, strict=True)):
        if _scalar_bins(b):  # NumPy's order: positive first, then an integer
            try:
                count: int | None = as_int(b, "histogramdd: bins")
            except TypeError:
                count = None
            if (float(b) if count is None else count) < 1:
                raise ValueError(f"`bins[{i}]` must be positive, when an integer")
            if count is None:
                raise TypeError(f"`bins[{i}]` must be an integer, when a scalar")
        else:
            e = as_operand(b, "histogramdd")
            if e.ndim != 1:
                raise ValueError(f"`bins[{i}]` must be a scalar or 1d array")
            if e.shape[0] > 1 and bool(_utility.any(_ew.less(_utility.diff(e), 0))):
                raise ValueError(f"`bins[{i}]` must be monotonically increasing, when an array")
        edges.append(_edges(col, b, r))
    nbins = [e.shape[0] - 1 for e in edges]
    n = cols[0].shape[0] if cols else 0
    flat = zeros((n,), dtype=_dt.int64)
    inside = None
    for col, e, nb in zip(cols, edges, nbins, strict=True):
        idx, ok = _bin_index(col, e)
        flat = _ew.add(_ew.multiply(flat, nb), idx)  # the C-order index of the point's bin
        inside = ok if inside is None else _ew.logical_and(inside, ok)
    w = None
    if weights is not None:
        w = as_operand(weights, "histogramdd").reshape((-1,))
        if w.shape[0] != n:
            raise ValueError("The weights and list don't have the same length.")
    total = 1
    for nb in nbins:
        total *= nb
    if inside is not None and total:
        counts = bincount(flat[inside], weights=None if w is None else w[inside], minlength=total)[:total]
    else:
        counts = zeros((total,), dtype=_dt.float64)
    hist = counts.astype(_dt.float64).reshape(tuple(nbins))
    if density:
        s = _stat.sum(hist)
        for i, e in enumerate(edges):
            shape = [1] * d
            shape[i] = nbins[i]
            hist = _ew.divide(hist, _utility.diff(e.astype(_dt.float64)).reshape(tuple(shape)))
        hist = _ew.divide(hist, s)
    return hist, edges


def _scalar_bins(bins: Any) -> bool:
    return not isinstance(bins, (list, tuple)) and getattr(bins, "ndim", 0) == 0


def histogram2d(x: Any, y: Any, bins: Any = 10, range: Any = None, density: bool | None = None,
                weights: Any = None) -> tuple[NDArray, NDArray, NDArray]:
    """The 2-d histogram of the points (``x[i]``, ``y[i]``): float64 counts
    of shape (nx, ny) and the x and y bin edges (:func:`histogramdd` with
    two axes).  ``bins``: a count or edges for both, or ``[bx, by]``."""
    xs, ys = as_operand(x, "histogram2d"), as_operand(y, "histogram2d")
    if xs.shape[0:1] != ys.shape[0:1] or xs.ndim != 1 or ys.ndim != 1:
        raise ValueError("x and y must have the same length.")
    try:
        nb = len(bins)
    except TypeError:
        nb = 1
    if nb not in (1, 2):  # one array of edges for both axes
        bins = [bins, bins]
    hist, edges = histogramdd([xs, ys], bins, range, density, weights)
    return hist, edges[0], edges[1]
