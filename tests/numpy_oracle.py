"""NumPy as the oracle on every NumPy minarray supports (``numpy>=2.0``).

minarray follows current NumPy (its results, dtypes, bits and printing are
checked against NumPy 2.4).  A few of those behaviours arrived after NumPy
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
  decimal precision), where NumPy 2.0 waits until 1e8.
- A float sum of a run longer than NumPy's buffer (8192 elements) is one
  pairwise tree in NumPy 2.4, which minarray reproduces bit for bit; NumPy
  2.0 sums each 8192-element block pairwise and adds the blocks in order.
- Also after 2.0: an index array that aliases the destination of an
  assignment is read before any write (NumPy 2.0 reads it as it writes,
  past the array's end at worst); ``dot`` reports floating-point errors;
  ``linalg.cond`` of a singular complex matrix is a real inf; ``roll``
  truncates a float shift (2.0 raises TypeError).
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

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


_OWN = {"cumulative_sum": cumulative_sum, "cumulative_prod": cumulative_prod, "unstack": unstack,
        **{name: _rounding(name) for name in ("ceil", "floor", "trunc", "fix")}}


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


def linalg_cond(a: Any, p: Any = None) -> Any:
    """``np.linalg.cond``: a real number, as current NumPy gives it.  NumPy
    2.0 gives the inf of a singular complex matrix as complex128 ``inf+0j``."""
    r = np.linalg.cond(a, p)
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
