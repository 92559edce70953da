"""NumPy as the oracle on every NumPy minarray supports (``numpy>=2.0``).

minarray follows current NumPy (its results, dtypes, bits and printing are
checked against NumPy 2.5).  A few of those behaviours arrived after NumPy
2.0.  This module is the one place the tests deal with that: on a NumPy
that has the behaviour, each oracle here *is* NumPy's own, so the tests
assert exactly what they assert on current NumPy; on an older NumPy the
oracle is built from what that NumPy has, and where it cannot be built the
flag below says so and the test skips naming the release.  Behaviours are
probed, not read from the version number:

- NumPy 2.1: ``cumulative_sum`` / ``cumulative_prod`` (with
  ``include_initial``) and ``unstack``; ``ceil``, ``floor``, ``trunc`` and
  ``fix`` keep integer and bool dtypes (NumPy 2.0 casts to a float);
  DLPack 1.0 (versioned capsules: ``__dlpack__(max_version=...)``,
  read-only exports, writable imports, ``from_dlpack(copy=, device=)``).
- NumPy 2.2: the repr of a summarised array adds ``shape=``.
- NumPy 2.3: float16 prints in scientific notation from 1e3 (10 to its
  decimal precision), where NumPy 2.0 waits until 1e8 (until 1e16 for a
  0-d array's str, which is its scalar's).
- A float sum of a run longer than NumPy's buffer (8192 elements) is one
  pairwise tree in NumPy 2.4, which minarray reproduces bit for bit; NumPy
  2.0 sums each 8192-element block pairwise and adds the blocks in order.
- Also after 2.0: an index array that aliases the destination of an
  assignment is read before any write (NumPy 2.0 reads it as it writes,
  past the array's end at worst); ``dot`` reports floating-point errors;
  ``linalg.cond`` of a singular complex matrix is a real inf; ``roll``
  truncates a float shift (2.0 raises TypeError).
- NumPy 2.5: ``fix`` is deprecated for ``trunc`` (the oracle of ``fix``
  is then ``trunc``); ``linalg.cond`` of a matrix holding a NaN is NaN and of a
  singular or infinite one inf for every norm, where 2.4 raised LinAlgError
  (an SVD that does not converge) with None, 2 and -2 for NaNs and with
  'nuc' for all of them (gh-32593); ``SeedSequence`` refuses nested entropy (TypeError) where
  2.4 concatenated it, and crashed on a list holding itself (gh-31775);
  ``Generator.binomial``'s BTPE acceptance test has the
  corrected Stirling terms (gh-31238), which decide a rare draw otherwise
  than before; the oracle before 2.5 draws 2.5's way from NumPy's bit
  generator, for ``binomial`` and for ``multinomial``, which draws it.
  ``RandomState.multinomial`` draws RandomState's own binomial (2.4 drew
  the Generator's, which skips the draw for no trials or a zero
  probability); the oracle before 2.5 draws 2.5's way with NumPy's
  ``RandomState.binomial``.
"""

from __future__ import annotations

import functools
import math
import re
import warnings
from typing import Any

import numpy as np

import minarray as ma

# ---- probes -----------------------------------------------------------------------

HAS_CUMULATIVE = hasattr(np, "cumulative_sum")
HAS_UNSTACK = hasattr(np, "unstack")
ROUNDING_KEEPS_INTEGERS = np.floor(np.ones(1, np.int8)).dtype == np.int8
REPR_SHOWS_SHAPE = "shape=" in repr(np.zeros(np.get_printoptions()["threshold"] + 1))
FLOAT16_SCIENTIFIC_FROM_1E3 = "e+" in repr(np.array([1024.0, 512.0], np.float16))


def _probe_index_overlap() -> bool:
    b = np.array([5, 5, 3, 1])
    b[b[2:]] = 0  # indices 3 and 1, read before any write: [5, 0, 3, 0]
    return bool(b.tolist() == [5, 0, 3, 0])


# An index array that is a view of the destination is read before any
# element is written (NumPy 2.0 reads it while writing, so an index written
# earlier in the same assignment sends a later value elsewhere).
SETITEM_READS_INDEX_FIRST = _probe_index_overlap()


def _exports_versioned() -> bool:
    try:
        np.zeros(1).__dlpack__(max_version=(1, 0))
    except TypeError:
        return False
    return True


# NumPy both produces and consumes versioned capsules (DLPack >= 1.0): it can
# export read-only arrays, imports writable memory writable, and its
# from_dlpack takes copy= and device=.  Without them NumPy asks for a legacy
# capsule, which cannot say whether writing is allowed, and imports it
# read-only; it cannot export a read-only array at all.
DLPACK_VERSIONED = _exports_versioned()
DLPACK_REASON = "NumPy before 2.1 speaks only legacy (unversioned) DLPack capsules"

# NumPy's pairwise summation (loops_utils.h.src, pairwise_sum): a run of at
# most 8 * 16 elements is added with 8 accumulators, a longer one is split
# at half its length rounded down to a multiple of 8.  _BUFSIZE is NumPy's
# default buffer size, the longest run NumPy 2.0 hands the loop at once.
_BUFSIZE = 8192


def _tree_sum(x: np.ndarray) -> Any:
    """The sum of the 1-d contiguous ``x`` in one pairwise tree, from
    NumPy's own sums of runs short enough for every NumPy to add whole."""
    n = x.shape[0]
    if n <= _BUFSIZE:
        return np.add.reduce(x)
    if x.dtype.kind == "c":  # NumPy counts a complex run in reals: 2 * n of them, split as above
        half = (n - n % 8) // 2
    else:
        half = n // 2
        half -= half % 8
    return x.dtype.type(_tree_sum(x[:half]) + _tree_sum(x[half:]))


def _probe_sum_order() -> bool:
    rng = np.random.default_rng(0)
    x = rng.standard_normal(3 * _BUFSIZE + 5) * 2.0 ** rng.uniform(-30, 30, 3 * _BUFSIZE + 5)
    blocks = np.float64(0.0)
    for i in range(0, x.size, _BUFSIZE):
        blocks = blocks + np.add.reduce(x[i:i + _BUFSIZE])
    whole, tree = np.sum(x), _tree_sum(x)
    if whole.tobytes() not in (tree.tobytes(), blocks.tobytes()):
        raise AssertionError("NumPy sums long runs in neither order the tests know: the sum oracle needs updating")
    return bool(whole.tobytes() == tree.tobytes())


SUMS_IN_ONE_TREE = _probe_sum_order()


# ---- oracles ----------------------------------------------------------------------

def _cumulative(op: str, a: Any, axis: int | None, dtype: Any, include_initial: bool) -> np.ndarray:
    """NumPy 2.1's cumulative_sum / cumulative_prod from cumsum / cumprod:
    ``axis`` may be left out only for an array of at most one dimension (a
    0-d array scans as one element), and ``include_initial`` puts the
    operation's identity, in the result dtype, before the first element."""
    arr = np.asarray(a)
    if axis is None:
        if arr.ndim > 1:
            raise ValueError("For arrays which have more than one dimension ``axis`` argument is required.")
        arr, axis = arr.reshape(-1), 0
    out = (np.cumsum if op == "sum" else np.cumprod)(arr, axis=axis, dtype=dtype)
    if include_initial:
        shape = list(out.shape)
        shape[axis] = 1
        out = np.concatenate([np.full(shape, 0 if op == "sum" else 1, dtype=out.dtype), out], axis=axis)
    return out


def cumulative_sum(a: Any, /, *, axis: int | None = None, dtype: Any = None,
                   include_initial: bool = False) -> np.ndarray:
    if HAS_CUMULATIVE:
        return np.cumulative_sum(a, axis=axis, dtype=dtype, include_initial=include_initial)
    return _cumulative("sum", a, axis, dtype, include_initial)


def cumulative_prod(a: Any, /, *, axis: int | None = None, dtype: Any = None,
                    include_initial: bool = False) -> np.ndarray:
    if HAS_CUMULATIVE:
        return np.cumulative_prod(a, axis=axis, dtype=dtype, include_initial=include_initial)
    return _cumulative("prod", a, axis, dtype, include_initial)


def unstack(x: Any, /, *, axis: int = 0) -> tuple[np.ndarray, ...]:
    if HAS_UNSTACK:
        return np.unstack(x, axis=axis)
    return tuple(np.moveaxis(np.asarray(x), axis, 0))


def _rounding(name: str) -> Any:
    """NumPy 2.1's ceil / floor / trunc / fix: the identity, in the same
    dtype, for integers and bools (NumPy 2.0 casts them to a float)."""
    fn = getattr(np, name)
    if ROUNDING_KEEPS_INTEGERS:
        return fn

    def rounded(x: Any, /, *args: Any, **kwargs: Any) -> Any:
        a = np.asarray(x)
        if a.dtype.kind in "biu" and not args and not kwargs:
            return a.copy() if a.ndim else a[()]  # a ufunc gives a 0-d result as a scalar
        return fn(x, *args, **kwargs)

    return rounded


def _probe_fix_deprecated() -> bool:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        np.fix(1.5)
    return any(issubclass(w.category, DeprecationWarning) for w in caught)


# NumPy 2.5 deprecates fix for trunc, which rounds the same way (towards zero).
FIX_DEPRECATED = _probe_fix_deprecated()

_OWN = {"cumulative_sum": cumulative_sum, "cumulative_prod": cumulative_prod, "unstack": unstack,
        **{name: _rounding(name) for name in ("ceil", "floor", "trunc")},
        "fix": _rounding("trunc" if FIX_DEPRECATED else "fix")}


def np_function(name: str) -> Any:
    """``numpy.<name>`` as current NumPy defines it."""
    return _OWN.get(name) or getattr(np, name)


class _CurrentNumPy:
    """``numpy`` with every name ``np_function``'s: for code that is handed
    a module (``np`` or ``ma``) and looks its functions up on it."""

    def __getattr__(self, name: str) -> Any:
        return np_function(name)


NP = _CurrentNumPy()


def _probe_roll_float_shift() -> bool:
    try:
        np.roll(np.arange(3), 1.0)  # type: ignore[call-overload]
    except TypeError:
        return False
    return True


# NumPy 2.0's roll raises TypeError for a float shift; later NumPy truncates it.
ROLL_TAKES_FLOAT_SHIFT = _probe_roll_float_shift()


def _probe_dot_errors() -> bool:
    with np.errstate(over="raise"):
        try:
            np.dot(np.full(2, 1e200), np.full(2, 1e200))
        except FloatingPointError:
            return True
    return False


# dot reports floating-point errors (overflow...) as other operations do;
# NumPy 2.0's dot reports none.
DOT_REPORTS_FP_ERRORS = _probe_dot_errors()


def _probe_cond_of_nan() -> bool:
    try:
        return bool(np.isnan(np.linalg.cond(np.array([[1.0, np.nan], [0.0, 1.0]]))))
    except np.linalg.LinAlgError:
        return False


# cond is NaN for a matrix holding a NaN and inf for a singular or infinite
# one with every norm, 'nuc' included (NumPy 2.5, gh-32593: its SVDs give NaN
# there, where 2.4's raise LinAlgError: the SVD does not converge).
COND_OF_NONFINITE = _probe_cond_of_nan()


def _each_or_nan(x: np.ndarray, fn: Any, shape: tuple[int, ...], dtype: Any) -> np.ndarray:
    """``fn`` of each matrix, NaN (of ``shape``) where it raises LinAlgError."""
    flat = x.reshape(-1, *x.shape[-2:])
    out = np.empty((flat.shape[0], *shape), dtype)
    for i, m in enumerate(flat):
        try:
            out[i] = fn(m)
        except np.linalg.LinAlgError:
            out[i] = np.nan
    return out.reshape(*x.shape[:-2], *shape)


def _cond_svdvals(x: np.ndarray) -> np.ndarray:
    """NumPy 2.5's _cond_svdvals: each matrix's singular values, NaN for a
    matrix that is not all finite or whose SVD fails."""
    real = np.linalg.svd(np.eye(1, dtype=x.dtype), compute_uv=False).dtype
    return _each_or_nan(x, lambda m: np.linalg.svd(m, compute_uv=False) if np.isfinite(m).all() else np.nan,
                        (min(x.shape[-2:]),), real)


def _cond_nonfinite(x: np.ndarray, p: Any) -> Any:
    """NumPy 2.5's cond with ``p`` None, 2, -2 or 'nuc', for a valid stack."""
    with np.errstate(all="ignore"):
        if p == "nuc":
            inv = _each_or_nan(x, np.linalg.inv, x.shape[-2:], np.linalg.inv(np.eye(1, dtype=x.dtype)).dtype)
            r = np.sum(_cond_svdvals(x), axis=-1, initial=0) * np.sum(_cond_svdvals(inv), axis=-1, initial=0)
        else:
            s = _cond_svdvals(x)
            r = s[..., -1] / s[..., 0] if p == -2 else s[..., 0] / s[..., -1]
    nan_mask = np.isnan(r) & ~np.isnan(x).any(axis=(-2, -1))
    if r.ndim:
        r[nan_mask] = np.inf
        return r
    return r.dtype.type(np.inf) if nan_mask else r.dtype.type(r)


def linalg_cond(a: Any, p: Any = None) -> Any:
    """``np.linalg.cond``: a real number, as current NumPy gives it.  NumPy
    2.0 gives the inf of a singular complex matrix as complex128 ``inf+0j``;
    before 2.5, where an SVD of the matrix or of its inverse does not
    converge (a NaN or an infinity; 'nuc' of a singular matrix), cond
    raises LinAlgError where 2.5 gives NaN or inf."""
    try:
        r = np.linalg.cond(a, p)
    except np.linalg.LinAlgError:
        x = np.asarray(a)
        if (COND_OF_NONFINITE or (p is not None and p not in (2, -2, "nuc")) or x.ndim < 2 or x.size == 0
                or (p == "nuc" and x.shape[-1] != x.shape[-2])):
            raise
        r = _cond_nonfinite(x, p)
    if np.iscomplexobj(r):
        assert not np.any(np.imag(r)), r
        return np.real(r)
    return r


def sum_bits(x: np.ndarray, axis: int | None = None) -> Any:
    """``np.sum(x, axis=axis)`` as NumPy 2.4 adds it, which minarray matches
    bit for bit: a float run of any length is one pairwise tree.  For 1-d
    ``x`` or ``axis=-1``."""
    if SUMS_IN_ONE_TREE or x.dtype.kind not in "fc":
        return np.sum(x, axis=axis)
    if axis is None:
        return _tree_sum(np.ascontiguousarray(x).reshape(-1))
    if axis not in (-1, x.ndim - 1):
        raise ValueError("sum_bits sums along the last axis only")
    rows = np.ascontiguousarray(x).reshape(-1, x.shape[-1])
    return np.array([_tree_sum(r) for r in rows], dtype=x.dtype).reshape(x.shape[:-1])


def nansum_bits(x: np.ndarray) -> Any:
    """``np.nansum`` as NumPy 2.4 computes it: NaNs as zeros, then ``sum_bits``."""
    if SUMS_IN_ONE_TREE:
        return np.nansum(x)
    return sum_bits(np.where(np.isnan(x), x.dtype.type(0), x))


def mean_bits(x: np.ndarray, axis: int | None = None) -> Any:
    """``np.mean`` as NumPy 2.4 computes it: ``sum_bits`` divided by the count."""
    if SUMS_IN_ONE_TREE:
        return np.mean(x, axis=axis)
    n = x.size if axis is None else x.shape[axis]
    return np.true_divide(sum_bits(x, axis), n)


def array_repr(arr: np.ndarray) -> str:
    """``repr(arr)`` as NumPy 2.2 writes it: a summarised array (more than
    ``threshold`` elements) shows its shape before its dtype, on a new line
    when the last line would pass the line width."""
    old = repr(arr)
    if REPR_SHOWS_SHAPE or arr.size <= np.get_printoptions()["threshold"]:
        return old
    dtype = re.search(r"(dtype=[^,()\s]+)\)$", old)  # NumPy's own choice of showing it
    opts = np.get_printoptions()
    text = "array(" + np.array2string(arr, separator=", ", prefix="array(", suffix=")") + ","
    tail = ", ".join([f"shape={arr.shape}"] + ([dtype.group(1)] if dtype else [])) + ")"
    last = len(text) - (text.rfind("\n") + 1)
    return text + ("\n      " if last + len(tail) + 1 > opts["linewidth"] else " ") + tail


def dlpack_strides(v: np.ndarray) -> tuple[int, ...]:
    """The byte strides an import of NumPy's capsule of ``v`` has: the
    strides the capsule carries, or where it leaves them out (NumPy 2.0 does
    for C-contiguous arrays, empty ones included; DLPack reads that as
    compact row-major) the C-order strides of ``v``'s shape."""
    from minarray.dlpack import describe

    info = describe(numpy_capsule(v))
    assert info.tensor is not None
    strides = info.tensor.dl_tensor.strides
    if strides is None:  # each the product of the later extents (an empty one counts as 1)
        return tuple(v.itemsize * int(np.prod(np.maximum(v.shape[i + 1:], 1))) for i in range(v.ndim))
    return tuple(s * v.itemsize for s in strides)


# The capsule NumPy makes of a writable array: versioned where it can.
NUMPY_CAPSULE_NAME = "dltensor_versioned" if DLPACK_VERSIONED else "dltensor"


def numpy_capsule(x: np.ndarray) -> Any:
    """NumPy's own capsule of ``x``, named ``NUMPY_CAPSULE_NAME``."""
    return x.__dlpack__(max_version=(1, 0)) if DLPACK_VERSIONED else x.__dlpack__()


PRINT_REASON = ("NumPy before 2.3 prints float16, float32 and complex64 values from 10 to their decimal precision "
                "(1e3, 1e6) up to 1e8 positionally, where minarray prints them in scientific notation as NumPy 2.3 "
                "and later do")


def prints_like_current(arr: np.ndarray) -> bool:
    """Whether this NumPy prints ``arr`` as NumPy 2.3 and later do.  Not so
    before 2.3 only where the largest non-zero finite magnitude of a float
    part reaches 10 to the dtype's decimal precision but not 1e8 (1e16 for a
    0-d array's str), and the other rules (below 1e-4, a spread over 1000)
    do not already pick
    scientific notation (NumPy's FloatingFormat.fillFormat)."""
    if FLOAT16_SCIENTIFIC_FROM_1E3 or arr.dtype.kind not in "fc":
        return True
    cutoff = 10.0 ** min(8, np.finfo(arr.dtype).precision)
    # a 0-d array's str is its scalar's, positional before 2.3 up to 1e16
    upper = 1e16 if arr.ndim == 0 else 1e8
    for part in ((arr.real, arr.imag) if arr.dtype.kind == "c" else (arr,)):
        mags = np.abs(part[np.isfinite(part)].astype(np.float64))
        mags = mags[mags != 0]
        if mags.size:
            top, low = mags.max(), mags.min()
            if cutoff <= top < upper and not (low < 1e-4 or top / low > 1000.0):
                return False
    return True


# ---- random -----------------------------------------------------------------------

def _nested(x: Any) -> bool:
    """Whether NumPy 2.5 calls seed words ``x`` nested: a sequence (not a
    uint32 array, taken whole) with an element that has a length, but a str."""
    if isinstance(x, (str, int, np.integer)) or (isinstance(x, np.ndarray) and x.dtype == np.uint32):
        return False
    return any(hasattr(v, "__len__") and not isinstance(v, str) for v in x)


def _probe_seed_sequence_nested() -> bool:
    try:
        np.random.SeedSequence([[1], 2])
    except TypeError:
        return True
    return False


SEED_SEQUENCE_REFUSES_NESTED = _probe_seed_sequence_nested()


def seed_sequence(entropy: Any = None, **kwargs: Any) -> np.random.SeedSequence:
    """``np.random.SeedSequence`` as current NumPy makes it: before NumPy
    2.5, nested entropy or spawn key raises its TypeError here (that NumPy
    concatenated it, and recursed without end into a list holding itself)."""
    if not SEED_SEQUENCE_REFUSES_NESTED and (_nested(entropy) or _nested(kwargs.get("spawn_key", ()))):
        raise TypeError("SeedSequence does not accept nested sequences.")
    return np.random.SeedSequence(entropy, **kwargs)


# ---- Generator.binomial -----------------------------------------------------------

def _next_double(gen: np.random.Generator) -> float:
    """NumPy's next_double: the top 53 bits of the next 64-bit word."""
    return (int(gen.bit_generator.random_raw()) >> 11) * (1.0 / 9007199254740992.0)


def _stirling(a2: float, a: float, lead: float) -> float:
    return (lead - (462. - (132. - (99. - 140. / a2) / a2) / a2) / a2) / a / 166320.


def _binomial_btpe(gen: np.random.Generator, n: int, p: float, corrected: bool) -> int:
    """NumPy's random_binomial_btpe (distributions.c), step for step in
    doubles; ``corrected``: its Stirling bound since NumPy 2.5 (gh-31238),
    else the one before."""
    r = min(p, 1.0 - p)
    q = 1.0 - r
    fm = n * r + r
    m = math.floor(fm)
    p1 = math.floor(2.195 * math.sqrt(n * r * q) - 4.6 * q) + 0.5
    xm = m + 0.5
    xl, xr = xm - p1, xm + p1
    c = 0.134 + 20.5 / (15.3 + m)
    a = (fm - xl) / (fm - xl * r)
    laml = a * (1.0 + a / 2.0)
    a = (xr - fm) / (xr * q)
    lamr = a * (1.0 + a / 2.0)
    p2 = p1 * (1.0 + 2.0 * c)
    p3 = p2 + c / laml
    p4 = p3 + c / lamr
    while True:
        nrq = n * r * q
        u = _next_double(gen) * p4
        v = _next_double(gen)
        if u <= p1:
            y = math.floor(xm - p1 * v + u)
            break
        if u <= p2:
            x = xl + (u - p1) / c
            v = v * c + 1.0 - abs(m - x + 0.5) / p1
            if v > 1.0:
                continue
            y = math.floor(x)
        elif u <= p3:
            if v == 0.0:  # NumPy rejects it after a floor of -inf
                continue
            y = math.floor(xl + math.log(v) / laml)
            if y < 0:
                continue
            v = v * (u - p2) * laml
        else:
            if v == 0.0:
                continue
            y = math.floor(xr - math.log(v) / lamr)
            if y > n:
                continue
            v = v * (u - p3) * lamr
        k = abs(y - m)
        if not (k > 20 and k < nrq / 2.0 - 1):
            s = r / q
            a = s * (n + 1)
            f = 1.0
            if m < y:
                for i in range(m + 1, y + 1):
                    f *= a / i - s
            elif m > y:
                for i in range(y + 1, m + 1):
                    f /= a / i - s
            if v > f:
                continue
            break
        rho = (k / nrq) * ((k * (k / 3.0 + 0.625) + 0.16666666666666666) / nrq + 0.5)
        t = -k * k / (2 * nrq)
        big_a = math.log(v)
        if big_a < t - rho:
            break
        if big_a > t + rho:
            continue
        x1, f1, z, w = y + 1.0, m + 1.0, n + 1.0 - m, n - y + 1.0
        bound = xm * math.log(f1 / x1) + (n - m + 0.5) * math.log(z / w) + (y - m) * math.log(w * r / (x1 * q))
        if corrected:
            bound = (bound + _stirling(f1 * f1, f1, 13860.) + _stirling(z * z, z, 13860.)
                     - _stirling(x1 * x1, x1, 13860.) - _stirling(w * w, w, 13860.))
        else:
            bound = (bound + _stirling(f1 * f1, f1, 13680.) + _stirling(z * z, z, 13680.)
                     + _stirling(x1 * x1, x1, 13680.) + _stirling(w * w, w, 13680.))
        if big_a > bound:
            continue
        break
    return n - y if p > 0.5 else y


def _binomial_inversion(gen: np.random.Generator, n: int, p: float) -> int:
    """NumPy's random_binomial_inversion."""
    q = 1.0 - p
    qn = math.exp(n * math.log1p(-p))
    mean = n * p
    bound = int(min(float(n), mean + 10.0 * math.sqrt(mean * q + 1)))
    x, px, u = 0, qn, _next_double(gen)
    while u > px:
        x += 1
        if x > bound:
            x, px, u = 0, qn, _next_double(gen)
        else:
            u -= px
            px = ((n - x + 1) * p * px) / (x * q)
    return x


def _binomial_one(gen: np.random.Generator, n: int, p: float, corrected: bool) -> int:
    """NumPy's random_binomial: inversion when the smaller tail's mean is at most 30, else BTPE."""
    if n == 0 or p == 0.0:
        return 0
    if p <= 0.5:
        return _binomial_inversion(gen, n, p) if p * n <= 30.0 else _binomial_btpe(gen, n, p, corrected)
    q = 1.0 - p
    return n - (_binomial_inversion(gen, n, q) if q * n <= 30.0 else _binomial_btpe(gen, n, q, corrected))


def _binomial(gen: np.random.Generator, n: Any, p: Any, size: Any = None, *, corrected: bool = True) -> Any:
    """``gen.binomial(n, p, size)`` for valid arguments, drawn from ``gen``'s
    bit generator as NumPy draws them: element by element in C order of the
    result, whose shape is ``size`` or the broadcast one."""
    n_arr, p_arr = np.asarray(n).astype(np.int64), np.asarray(p, dtype=np.float64)
    if size is None and n_arr.ndim == 0 and p_arr.ndim == 0:
        return _binomial_one(gen, int(n_arr), float(p_arr), corrected)
    shape = np.broadcast_shapes(n_arr.shape, p_arr.shape) if size is None else tuple(np.atleast_1d(size))
    out = np.empty(shape, np.int64)
    nb, pb = np.broadcast_to(n_arr, shape), np.broadcast_to(p_arr, shape)
    for idx in np.ndindex(*shape):
        out[idx] = _binomial_one(gen, int(nb[idx]), float(pb[idx]), corrected)
    return out


@functools.cache
def binomial_corrected() -> bool:
    """Whether NumPy's Generator.binomial has the corrected Stirling bound
    of NumPy 2.5 (gh-31238: 13860 for 13680, the corrections of y + 1 and
    n - y + 1 subtracted).  Asked of NumPy's own draws, which must be those
    of one of the two bounds (it proves the oracle above draws as NumPy)."""
    def draws(corrected: bool | None) -> list[int]:
        # a stream in which the two bounds first part at the 444th draw
        gen = np.random.Generator(np.random.PCG64(1))
        if corrected is None:
            return gen.binomial(1000, 0.4, 1000).tolist()
        return list(_binomial(gen, 1000, 0.4, 1000, corrected=corrected).tolist())

    numpy_own, new, old = draws(None), draws(True), draws(False)
    if numpy_own not in (new, old) or new == old:
        raise AssertionError("NumPy's binomial draws as neither BTPE bound the tests know: the oracle needs updating")
    return numpy_own == new


def _multinomial_rows(out: np.ndarray, n: np.ndarray, rows: np.ndarray, p: np.ndarray, binomial: Any) -> None:
    """random_multinomial into ``out`` (shape + (d,)), row by row in C
    order: trials ``n`` over the pvals row ``rows`` names, each category but
    the last a ``binomial(trials left, p[j] / probability left)``."""
    d = p.shape[-1]
    flat = p.reshape(-1, d)
    for idx in np.ndindex(*n.shape):
        dn, remaining, pr = int(n[idx]), 1.0, flat[rows[idx]]
        for j in range(d - 1):
            out[(*idx, j)] = k = binomial(dn, float(pr[j] / remaining))
            dn -= k
            if dn <= 0:
                break
            remaining -= float(pr[j])
        if dn > 0:
            out[(*idx, d - 1)] = dn


def _multinomial(gen: np.random.Generator, n: Any, pvals: Any, size: Any = None) -> np.ndarray:
    """``gen.multinomial(n, pvals, size)`` for valid arguments, with 2.5's
    binomial drawn from ``gen``'s bit generator."""
    p = np.ascontiguousarray(pvals, dtype=np.float64)
    n_arr = np.asarray(n).astype(np.int64)
    rows = np.arange(p.size // p.shape[-1]).reshape(p.shape[:-1])
    if size is not None:
        shape = tuple(int(s) for s in np.atleast_1d(size))
    else:
        shape = np.broadcast_shapes(n_arr.shape, rows.shape)
    out = np.zeros((*shape, p.shape[-1]), np.int64)
    _multinomial_rows(out, np.broadcast_to(n_arr, shape), np.broadcast_to(rows, shape), p,
                      lambda k, q: _binomial_one(gen, k, q, True))
    return out


def generator_method(gen: np.random.Generator, name: str) -> Any:
    """``gen.<name>`` as current NumPy's Generator defines it: before NumPy
    2.5, ``binomial`` and ``multinomial`` are rebuilt on ``gen``'s bit
    generator with 2.5's bound."""
    if name in ("binomial", "multinomial") and not binomial_corrected():
        return functools.partial(_binomial if name == "binomial" else _multinomial, gen)
    return getattr(gen, name)


def _legacy_multinomial(rs: np.random.RandomState, n: int, pvals: Any, size: Any = None) -> np.ndarray:
    """``rs.multinomial(n, pvals, size)`` for valid arguments as NumPy 2.5
    draws it: RandomState's own binomial for each category."""
    p = np.ascontiguousarray(pvals, dtype=np.float64)
    shape = () if size is None else tuple(int(s) for s in np.atleast_1d(size))
    out = np.zeros((*shape, p.shape[0]), np.int64)
    if p.shape[0]:
        _multinomial_rows(out, np.full(shape, n, np.int64), np.zeros(shape, np.intp), p,
                          lambda k, q: int(rs.binomial(k, q)))
    return out


@functools.cache
def legacy_multinomial_frozen() -> bool:
    """Whether NumPy's RandomState.multinomial draws RandomState's own
    binomial (NumPy 2.5), which draws even for no trials, rather than the
    Generator's (2.4), which does not.  The oracle above must draw as NumPy
    where the two agree (it proves it draws as NumPy)."""
    rs, again = np.random.RandomState(3), np.random.RandomState(3)
    if rs.multinomial(40, [0.2, 0.3, 0.5], 50).tolist() != _legacy_multinomial(again, 40, [0.2, 0.3, 0.5], 50).tolist():
        raise AssertionError("NumPy's RandomState.multinomial draws as no oracle the tests know: update the oracle")
    before = rs.get_state()[2]
    rs.multinomial(0, [0.5, 0.5])
    return bool(rs.get_state()[2] != before)


def randomstate_method(rs: np.random.RandomState, name: str) -> Any:
    """``rs.<name>`` as current NumPy's RandomState defines it: before NumPy
    2.5, ``multinomial`` is rebuilt on ``rs`` with RandomState's binomial."""
    if name == "multinomial" and not legacy_multinomial_frozen():
        return functools.partial(_legacy_multinomial, rs)
    return getattr(rs, name)


# ---- a call and NumPy's, compared ---------------------------------------------------

def same(got: Any, expected: Any, ulps: int = 0) -> None:
    """Values, dtype and shape equal to NumPy's (tuples and lists element by element)."""
    if isinstance(expected, (tuple, list)):
        assert isinstance(got, (tuple, list)) and len(got) == len(expected)
        for g, e in zip(got, expected, strict=True):
            same(g, e, ulps)
        return
    e = np.asarray(expected)
    g = np.asarray(got)
    assert g.dtype == e.dtype, f"dtype {g.dtype}, NumPy {e.dtype}"
    assert g.shape == e.shape, f"shape {g.shape}, NumPy {e.shape}"
    if ulps and e.dtype.kind in "fc":
        np.testing.assert_allclose(g, e, rtol=ulps * np.finfo(e.dtype).eps, atol=0, equal_nan=True)
    else:
        np.testing.assert_array_equal(g, e)


def both(fn: str, *args: Any, **kwargs: Any) -> tuple[Any, Any]:
    """NumPy's and minarray's results of the same call (NumPy arrays in
    the arguments become minarray arrays on minarray's side)."""
    def conv(v: Any) -> Any:
        if isinstance(v, np.ndarray):
            return ma.asarray(v)
        if isinstance(v, list):
            return [conv(x) for x in v]
        if isinstance(v, tuple):
            return tuple(conv(x) for x in v)
        return v

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        expected = np_function(fn)(*args, **kwargs)
        got = getattr(ma, fn)(*conv(args), **{k: conv(v) for k, v in kwargs.items()})
    return got, expected
