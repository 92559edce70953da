"""The C fast paths of indexing against the general Python route and NumPy.

``x[key] = value`` with a basic key (ints, slices, None, ...) and a Python
scalar or NDArray value is assigned in C (core.ndarray_setitem).  So are
``x[key]`` and ``x[key] = value`` for a key that alone is advanced: a 1-d
NDArray of any integer dtype, a list of ints, or a bool NDArray over x's
leading axes, or a tuple of such integer keys of one length, as in
``x[rows, cols]`` (core.ndarray_getitem / ndarray_setitem), and ``x[key]``
for a tuple of slices, None and ... around one 1-d index, as in
``x[:, cols]``.
Every other case falls back to minarray._indexing.  Both routes must give the same values, layouts and
errors (type and wording), on every layout: owned, strided, reversed,
transposed, imported and read-only imported.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from array_strategies import assert_equal_values, assert_like_numpy, np_dtype, to_ma, values_of
from index_routes import answered_in_c, set_in_c

import minarray as ma
from minarray import _indexing

core = ma._native.core

# The same view taken of a NumPy array and of a minarray array.
VIEWS: dict[str, Callable[[Any], Any]] = {
    "whole": lambda a: a,
    "strided": lambda a: a[1::2, ::3],
    "reversed": lambda a: a[::-1, ::-2],
    "transposed": lambda a: a.T,
    "transposed-strided": lambda a: a[::-2, 1:].T,
}
# how the minarray array is made: an owned copy then the view in minarray,
# or an import of the NumPy view (writeable or read-only)
SOURCES = ("owned", "import", "readonly")
DTYPES = ("bool", "int8", "uint8", "int32", "int64", "uint64", "float16", "float32", "float64", "complex128")


def _base(dtype: str) -> np.ndarray:
    return (np.arange(48).reshape(6, 8) % 5).astype(dtype)


def _make(dtype: str, view: str, source: str) -> tuple[ma.NDArray, np.ndarray]:
    """A fresh minarray array and the NumPy array with the same values."""
    base = _base(dtype)
    nv = VIEWS[view](base)
    if source == "owned":
        return VIEWS[view](to_ma(base)), nv.copy()
    if source == "readonly":
        nv.flags.writeable = False
    return ma.asarray(nv), nv.copy()


def _outcome(f: Callable[[], Any]) -> tuple[Any, BaseException | None]:
    try:
        return f(), None
    except Exception as exc:  # compared below: type and wording
        return None, exc


def _same_error(a: BaseException | None, b: BaseException | None) -> None:
    assert type(a) is type(b), (a, b)
    assert str(a) == str(b)


def _set_both_routes(fast: ma.NDArray, slow: ma.NDArray, key: Any, value: Any) -> BaseException | None:
    """``fast[key] = value`` (the C fast path) and the general route on
    ``slow``: the same error, and the same warnings (a value out of the
    dtype's range warns, as NumPy's cast does); the fast route's error."""
    with warnings.catch_warnings(record=True) as fast_warned:
        warnings.simplefilter("always")
        _, fast_exc = _outcome(lambda: fast.__setitem__(key, value))
    with warnings.catch_warnings(record=True) as slow_warned:
        warnings.simplefilter("always")
        _, slow_exc = _outcome(lambda: _indexing.setitem(slow, core.parse_index(slow, key), value))
    _same_error(fast_exc, slow_exc)
    assert [str(w.message) for w in fast_warned] == [str(w.message) for w in slow_warned]
    return fast_exc


# ---- setitem ------------------------------------------------------------

SET_KEYS: list[Any] = [
    0, -1, 2, 5, -6, 9, slice(None), slice(1, None, 2), slice(None, None, -1), slice(4, 0, -3), slice(2, 2),
    (0, 1), (-1, -1), (1, slice(None)), (slice(None), 0), (slice(None), -2), Ellipsis, (Ellipsis, 1), (0, Ellipsis),
    None, (None, 0), (0, None, 1), (), (0, 0, 0), (Ellipsis, Ellipsis), (0, 99), (slice(None), -9), True,
    np.int64(1), [0, 1], (slice(None), slice(None, None, 0)),
]


class _Int(int):
    """An int subclass: a Python scalar to setitem, as int itself."""


def _set_values(dtype: str) -> list[Any]:
    """Scalars of each kind, NumPy scalars, lists, and NDArrays that
    broadcast, do not, or carry extra leading axes of length 1."""
    return [
        3, -1, 2**70, 1.5, math.nan, -math.inf, 1 + 2j, True, False, np.float64(2.5), np.complex128(1j), _Int(-2),
        np.int64(4), [1], "7", None,
        ma.asarray(7), ma.asarray(2.5, dtype=ma.float32), ma.asarray([1.0, 2.0, 3.0]), ma.asarray([4]),
        ma.asarray([[1], [2], [3]], dtype=ma.int8), ma.ones((1, 1, 1), dtype=ma.uint8),
        ma.asarray([1 + 1j, 2j, 3.0]), ma.zeros((2, 7), dtype=ma.bool), ma.asarray(_base(dtype)[:1, :3]),
    ]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("view", list(VIEWS))
@pytest.mark.parametrize("source", SOURCES)
def test_setitem_fast_path_is_the_general_route(dtype: str, view: str, source: str) -> None:
    for key in SET_KEYS:
        for value in _set_values(dtype):
            fast, fast_np = _make(dtype, view, source)
            slow, _ = _make(dtype, view, source)
            fast_exc = _set_both_routes(fast, slow, key, value)
            assert_equal_values(values_of(fast), values_of(slow))
            if fast_exc is None and isinstance(value, (int, float)) and not isinstance(value, bool) \
                    and source != "readonly" and dtype != "bool" and math.isfinite(value) \
                    and not isinstance(key, list) and abs(value) < 2**31 and value >= 0:
                fast_np[key] = value  # NumPy agrees where it takes the value without complaint
                assert_equal_values(values_of(fast), fast_np)


def test_setitem_which_cases_c_answers() -> None:
    x = ma.zeros((3, 4))
    for key in (0, -1, slice(None), (slice(None), 1), Ellipsis, None, (None, 0), (), (0, Ellipsis), (1, 2),
                np.int64(0)):
        for value in (1, 2.5, True, ma.asarray(3), ma.asarray(2, dtype=ma.complex64), np.float64(1.5), _Int(4)):
            assert set_in_c(x, key, value), (key, value)
    for key, value in ((0, ma.ones(4)), (slice(None), ma.ones((1, 4), dtype=ma.int8)), ((slice(None), 1), ma.ones(3)),
                       (None, ma.ones((3, 1))), ((), ma.ones((1, 4))), (Ellipsis, ma.ones((3, 4)).T.T)):
        assert set_in_c(x, key, value), (key, value)
    # keys and values the general route writes, handed the parsed key
    for key, value in ((True, 1), (0, np.float32(1)), (0, np.int32(1)), (0, [1, 2, 3, 4]), (0, ma.ones((1, 4))),
                       ((0, 0), ma.ones(1))):
        assert not set_in_c(ma.zeros((3, 4)), key, value), (key, value)
    # bad keys (C's parse raises) and bad values (the general route's error): nothing is written
    y = ma.zeros((3, 4))
    for key, value in (((0, 0, 0), 1), ((..., ...), 1), (slice(None, None, 0), 1), (0, "1"), (0, object()),
                       (0, ma.ones(3)), (slice(None), ma.ones((2, 4)))):
        with pytest.raises((IndexError, ValueError, TypeError)):
            y[key] = value
    assert y.tolist() == ma.zeros((3, 4)).tolist()
    for key, row in (([0], 4), (ma.asarray([0]), 4), (ma.asarray([2], dtype=ma.uint8), 4),
                     (ma.asarray([True, False, True]), 4), (ma.ones((3, 4), dtype=ma.bool), 12)):
        for value in (1, ma.asarray(2.0), ma.ones(row, dtype=ma.int8)):
            assert set_in_c(x, key, value), (key, value)
    # errors C raises itself (the general route words them the same, below)
    for key, value, exc in ((3, 1.0, IndexError), ((0, -5), 1.0, IndexError), (0, 1j, TypeError)):
        with pytest.raises(exc):
            y[key] = value
    assert y.tolist() == ma.zeros((3, 4)).tolist()


def test_setitem_errors_keep_their_wording() -> None:
    i = ma.zeros((3, 4), dtype=ma.int32)
    for key, value, exc, match in (
        (3, 1, IndexError, r"^index 3 is out of bounds for axis 0 with size 3$"),
        ((0, -5), 1, IndexError, r"^index -5 is out of bounds for axis 1 with size 4$"),
        ((slice(None), 4), ma.ones(3), IndexError, r"^index 4 is out of bounds for axis 1 with size 4$"),
        (0, 2**31, OverflowError, "out of bounds for int32"),
        (slice(None), math.nan, ValueError, "NaN"),
        (0, -math.inf, OverflowError, "infinity"),
        (0, 1j, TypeError, "complex"),
        (0, ma.ones(3), ValueError, r"^could not broadcast input array from shape \(3,\) into shape \(4,\)$"),
        (0, ma.ones((2, 1, 4)), ValueError, r"from shape \(2, 1, 4\) into shape \(4,\)$"),
        ((0, 0, 0), 1, IndexError, "too many indices"),
    ):
        with pytest.raises(exc, match=match):
            i[key] = value
        with pytest.raises(exc, match=match):
            _indexing.setitem(i, core.parse_index(i, key), value)
    assert i.tolist() == ma.zeros((3, 4), dtype=ma.int32).tolist()
    n = np.zeros((3, 4))
    n.flags.writeable = False
    r = ma.asarray(n)
    for key, value in ((0, 1), ((1, 1), 2.5), (slice(None), True), (Ellipsis, ma.ones(4)), ((), ma.asarray(1))):
        with pytest.raises(ValueError, match=r"^assignment destination is read-only$"):
            r[key] = value
    # an index error comes before the read-only one, a broadcast error too
    with pytest.raises(IndexError, match="out of bounds"):
        r[7] = 1
    with pytest.raises(ValueError, match="could not broadcast"):
        r[0] = ma.ones(3)
    # a scalar's own error comes after the read-only one
    with pytest.raises(ValueError, match="read-only"):
        r[0] = 1j
    with pytest.raises(ValueError, match="read-only"):
        ma.broadcast_to(ma.zeros(4), (3, 4))[0, 0] = 1


def test_setitem_overlapping_and_self_values() -> None:
    x = ma.arange(10.0)
    n = np.arange(10.0)
    x[1:] = x[:-1]
    n[1:] = n[:-1]
    assert x.tolist() == n.tolist()
    x[::-1] = x
    n[::-1] = n.copy()
    assert x.tolist() == n.tolist()
    m = ma.arange(12).reshape(3, 4)
    nm = np.arange(12).reshape(3, 4)
    m[1, :] = m[0]
    nm[1, :] = nm[0]
    m[:, 0] = m.T[1, :3]
    nm[:, 0] = nm.T[1, :3]
    assert m.tolist() == nm.tolist()


def test_setitem_on_zero_d_and_empty() -> None:
    z = ma.asarray(1.5)
    z[()] = 2
    z[...] = z + 1.0
    assert z.item() == 3.0
    with pytest.raises(IndexError, match="too many indices"):
        z[0] = 1
    e = ma.zeros((0, 3))
    e[:] = 5
    e[...] = ma.ones(3)
    with pytest.raises(IndexError, match="out of bounds for axis 0 with size 0"):
        e[0] = 1


# ---- x[idx] and x[mask] ---------------------------------------------------

def _check_copy(r: ma.NDArray, n: np.ndarray) -> None:
    assert_like_numpy(r, n)
    assert r.base is None and r.flags.owndata and r.flags.writeable and r.flags.c_contiguous


@pytest.mark.parametrize("dtype", [*DTYPES, "bfloat16"])
@pytest.mark.parametrize("view", list(VIEWS))
@pytest.mark.parametrize("source", SOURCES)
def test_index_array_and_mask_fast_paths(dtype: str, view: str, source: str) -> None:
    md = getattr(ma, dtype)
    base = to_ma((np.arange(48).reshape(6, 8) % 5).astype(np_dtype(md)))
    nbase = values_of(base)
    nv = VIEWS[view](nbase)
    if source == "owned":
        x = VIEWS[view](base)
    else:
        imp = nv.copy() if dtype != "bfloat16" else nv
        if source == "readonly":
            imp.flags.writeable = False
        x = ma.asarray(imp) if dtype != "bfloat16" else VIEWS[view](base)
    n0 = nv.shape[0]
    keys = [np.array([0, n0 - 1, -1, -n0, 1, 1], np.int64), np.array([], np.int64), np.arange(n0)[::-1],
            np.arange(2 * n0)[::2] % n0, np.array([n0 - 1])]
    for nk in keys:
        k = ma.asarray(nk.copy())
        for kk, nkk in ((k, nk), (ma.asarray(np.repeat(nk, 2))[::2], nk), (k[::-1], nk[::-1])):
            assert answered_in_c(x, kk)
            r = x[kk]
            _check_copy(r, nv[nkk])
            _check_copy(_indexing.getitem(x, core.parse_index(x, kk)), nv[nkk])  # the general route agrees
    for nmask in ((np.arange(nv.size).reshape(nv.shape) % 2) == 1, np.zeros(nv.shape, bool), np.ones(nv.shape, bool),
                  ((np.arange(nv.size).reshape(nv.shape) % 3) == 0)):
        for mk, nmk in ((ma.asarray(nmask.copy()), nmask),
                        (ma.asarray(nmask.T.copy()).T, nmask),  # a transposed mask
                        (ma.asarray(nmask[::-1].copy())[::-1], nmask)):  # a reversed one
            assert answered_in_c(x, mk)
            _check_copy(x[mk], nv[nmk])
            _check_copy(_indexing.getitem(x, core.parse_index(x, mk)), nv[nmk])


def test_index_array_fast_path_on_more_dims() -> None:
    n = np.arange(60, dtype=np.float32).reshape(3, 4, 5)
    for nv in (n, n[:, ::-1, 1::2], n.transpose(2, 0, 1)):
        x = ma.asarray(nv)
        for nk in (np.array([0, -1, 1]), np.array([], np.int64)):
            k = ma.asarray(nk)
            assert answered_in_c(x, k)
            _check_copy(x[k], nv[nk])
        nmask = (nv % 3) == 0
        _check_copy(x[ma.asarray(nmask)], nv[nmask])
        assert answered_in_c(x, ma.asarray(nmask))
        # masks over the leading axes too
        for lead in (nmask.any(axis=-1), nmask.any(axis=(1, 2)), np.zeros(nv.shape[0], bool)):
            assert answered_in_c(x, ma.asarray(lead))
            _check_copy(x[ma.asarray(lead)], nv[lead])
            _check_copy(_indexing.getitem(x, core.parse_index(x, ma.asarray(lead))), nv[lead])
    big = np.arange(10000.0)  # big enough to run without the GIL
    xb = ma.asarray(big)
    _check_copy(xb[xb > 5000.5], big[big > 5000.5])
    _check_copy(xb[ma.asarray(np.arange(9999, -1, -3))], big[np.arange(9999, -1, -3)])


@pytest.mark.parametrize("key", [
    np.array([[1.0], [0.0]]), np.array(1), np.zeros((3, 4, 1), bool), np.zeros(2, bool), np.array(True),
    np.array([1.0]), np.zeros(0), np.zeros((4, 3), bool),
])
def test_index_arrays_left_to_the_general_route(key: np.ndarray) -> None:
    """Index arrays C does not gather (and keys that are no index): NumPy's
    answer or error type, and the general route, handed the parsed key,
    agrees with x[key]."""
    x = ma.arange(12.0).reshape(3, 4)
    nx = np.arange(12.0).reshape(3, 4)
    k = ma.asarray(key)
    r, exc = _outcome(lambda: x[k])
    want, np_exc = _outcome(lambda: nx[key])
    assert type(exc) is type(np_exc), (exc, np_exc)
    if exc is None:
        assert_equal_values(values_of(r), want)
    parsed, parse_exc = _outcome(lambda: core.parse_index(x, k))
    if parse_exc is None:
        _, slow_exc = _outcome(lambda: _indexing.getitem(x, parsed))
        _same_error(exc, slow_exc)
    else:
        _same_error(exc, parse_exc)
    # 0-d arrays take no index array on the fast path
    z = ma.asarray(1.0)
    with pytest.raises(IndexError, match="too many indices"):
        z[ma.asarray([0])]
    assert not answered_in_c(z, ma.asarray(True))


def test_index_array_errors_keep_their_wording() -> None:
    x = ma.arange(12.0).reshape(3, 4)
    for key, match in ((ma.asarray([0, 3]), r"^index 3 is out of bounds for axis 0 with size 3$"),
                       (ma.asarray([-4]), r"^index -4 is out of bounds for axis 0 with size 3$"),
                       (ma.asarray([2**62]), r"out of bounds for axis 0 with size 3$")):
        with pytest.raises(IndexError, match=match):
            x[key]
        with pytest.raises(IndexError, match=match):
            _indexing.getitem(x, core.parse_index(x, key))
    e = ma.zeros((0, 2))
    with pytest.raises(IndexError, match=r"^index 0 is out of bounds for axis 0 with size 0$"):
        e[ma.asarray([0])]
    _check_copy(e[ma.asarray(np.zeros(0, np.int64))], np.zeros((0, 2)))
    for mask in (ma.asarray([True, False]), ma.ones((3, 5), dtype=ma.bool), ma.ones((4, 4), dtype=ma.bool)):
        with pytest.raises(IndexError) as fast:
            x[mask]
        with pytest.raises(IndexError) as slow:
            _indexing.getitem(x, core.parse_index(x, mask))
        assert str(fast.value) == str(slow.value)
        assert "boolean index did not match" in str(fast.value)


# ---- one advanced key: x[key] and x[key] = value in C -------------------------

def _advanced_keys(shape: tuple[int, ...]) -> list[Any]:
    """Keys C answers: 1-d integer arrays of several dtypes and layouts (with
    duplicates: the last write wins), lists of ints, and masks of x's shape
    and over its leading axis."""
    n0 = shape[0]
    idx = np.array([0, n0 - 1, -1, 1, 1], np.int64)
    lead = np.arange(n0) % 2 == 0
    full = (np.arange(math.prod(shape)).reshape(shape) % 3) == 0
    return [
        ma.asarray(idx), ma.asarray(idx.astype(np.int8)), ma.asarray(idx.astype(np.int32)),
        ma.asarray(np.abs(idx).astype(np.uint16)), ma.asarray(np.repeat(idx, 2))[::2], ma.asarray(idx)[::-1],
        idx.tolist(), [n0 - 1], ma.asarray(np.array([], np.int64)), ma.asarray(lead), ma.asarray(full),
        ma.asarray(full.T.copy()).T,
    ]


def _np_key(key: Any) -> Any:
    return key if isinstance(key, list) else values_of(key)


def _advanced_values(dtype: str, target: tuple[int, ...]) -> list[Any]:
    """Values for x[key] = value where x[key] has shape `target`: scalars,
    arrays that broadcast (0-d, one row, the full shape, another dtype) and
    arrays that do not (the general route words that error)."""
    md = getattr(ma, dtype)
    size = math.prod(target)
    full = ma.asarray((np.arange(size).reshape(target) % 4).astype(np_dtype(md)))
    return [
        3, 1.5, True, 1 + 2j, 2**70, math.nan, np.float64(2.5), _Int(2),
        ma.asarray(7), ma.asarray(1.5, dtype=ma.float32), full, full[:1], full[:, ::-1] if len(target) > 1 else full,
        ma.ones(target[1:] or (1,), dtype=ma.int8), ma.ones((1, *target)), ma.ones(target[0] + 2), "1",
    ]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("view", list(VIEWS))
@pytest.mark.parametrize("source", SOURCES)
def test_advanced_setitem_fast_path_is_the_general_route(dtype: str, view: str, source: str) -> None:
    _, probe = _make(dtype, view, source)
    for key in _advanced_keys(probe.shape):
        target = probe[_np_key(key)].shape
        for value in _advanced_values(dtype, target):
            fast, fast_np = _make(dtype, view, source)
            slow, _ = _make(dtype, view, source)
            fast_exc = _set_both_routes(fast, slow, key, value)
            assert_equal_values(values_of(fast), values_of(slow))
            # NumPy agrees, duplicates and all (but it takes only 0-d and 1-d
            # values for a mask of x's own shape, where minarray also takes
            # leading axes of length 1, as for every other key)
            full_mask = isinstance(key, ma.NDArray) and key.dtype == ma.bool and key.ndim == fast.ndim
            if fast_exc is None and isinstance(value, ma.NDArray) and value.dtype == fast.dtype \
                    and not (full_mask and value.ndim > 1):
                fast_np[_np_key(key)] = values_of(value)
                assert_equal_values(values_of(fast), fast_np)


@pytest.mark.parametrize("view", list(VIEWS))
@pytest.mark.parametrize("source", ("owned", "import"))
def test_advanced_getitem_keysanswered_in_c(view: str, source: str) -> None:
    x, nv = _make("float64", view, source)
    for key in _advanced_keys(nv.shape):
        assert answered_in_c(x, key)
        _check_copy(x[key], nv[_np_key(key)])
        _check_copy(_indexing.getitem(x, core.parse_index(x, key)), nv[_np_key(key)])
        target = nv[_np_key(key)].shape
        for value in (5, ma.ones(target)):
            y, _ = _make("float64", view, source)
            assert set_in_c(y, key, value)


def test_advanced_keys_on_more_dims_and_large_arrays() -> None:
    n = np.arange(60, dtype=np.float32).reshape(3, 4, 5)
    for nv in (n, n[:, ::-1, 1::2], n.transpose(2, 0, 1)):
        for nkey in ((nv % 3) == 0, ((nv % 3) == 0).any(axis=-1), [2, 0], np.array([1, -1], np.int16)):
            x = ma.asarray(nv.copy())
            key = nkey if isinstance(nkey, list) else ma.asarray(nkey)
            ref = nv.copy()
            _check_copy(x[key], ref[nkey])
            value = np.arange(math.prod(ref[nkey].shape), dtype=np.float32).reshape(ref[nkey].shape)
            x[key] = ma.asarray(value)
            ref[nkey] = value
            assert_equal_values(values_of(x), ref)
            x[key] = ma.asarray(value[:1])  # broadcast along the indexed axis
            ref[nkey] = value[:1]
            assert_equal_values(values_of(x), ref)
    # big enough to run without the GIL
    big = np.arange(20000.0)
    xb = ma.asarray(big.copy())
    mask = big % 3 == 0
    xb[ma.asarray(mask)] = -1.0
    ref = big.copy()
    ref[mask] = -1.0
    assert_equal_values(values_of(xb), ref)
    order = np.arange(19999, -1, -7, dtype=np.int32)
    xb[ma.asarray(order)] = ma.asarray(big[: order.size])
    ref[order] = big[: order.size]
    assert_equal_values(values_of(xb), ref)
    _check_copy(xb[ma.asarray(order)], ref[order])


def test_advanced_setitem_overlapping_values() -> None:
    x = ma.arange(10.0)
    n = np.arange(10.0)
    x[[0, 1, 2, 3]] = x[1:5]
    n[[0, 1, 2, 3]] = n[1:5]
    x[x > 4] = x[::-1][x > 4]  # the mask and the value both read x
    n[n > 4] = n[::-1][n > 4]
    assert x.tolist() == n.tolist()
    # a mask that is x itself, or a view of it in another order
    for nb in (np.array([[True, False, True], [True, True, False], [False, True, True]]),):
        b, ref = ma.asarray(nb.copy()), nb.copy()
        b[b] = False
        ref[ref] = False
        assert b.tolist() == ref.tolist()
        b, ref = ma.asarray(nb.copy()), nb.copy()
        b[b.T] = False
        ref[ref.T.copy()] = False  # the mask as it was before the assignment
        assert b.tolist() == ref.tolist()


def test_an_out_of_bounds_index_writes_nothing() -> None:
    """NumPy checks every index before it writes; so does minarray, on the C
    path and on the general one (a tuple key, an index on a later axis)."""
    n = np.arange(12.0).reshape(3, 4)
    for key, value in (
        (ma.asarray([0, 1, 3]), 7.0), ([0, 1, -4], ma.ones(4)), (ma.asarray([2, 9], dtype=ma.int8), 1),
        ((ma.asarray([0, 1, 5]), slice(None)), 7.0), ((slice(None), ma.asarray([0, 3, 4])), 7.0),
        ((ma.asarray([0, 2]), ma.asarray([1, 4])), ma.asarray([5.0, 6.0])),
    ):
        x = ma.asarray(n.copy())
        with pytest.raises(IndexError, match="out of bounds"):
            x[key] = value
        assert_equal_values(values_of(x), n)


def test_advanced_setitem_errors_keep_their_wording() -> None:
    x = ma.zeros((3, 4), dtype=ma.int16)
    for key, value, exc, match in (
        (ma.asarray([0, 3]), 1, IndexError, r"^index 3 is out of bounds for axis 0 with size 3$"),
        ([-4], 1, IndexError, r"^index -4 is out of bounds for axis 0 with size 3$"),
        (ma.asarray([0]), 2**15, OverflowError, "out of bounds for int16"),
        (ma.asarray([True, False, True]), math.nan, ValueError, "NaN"),
        ([0, 1], 1j, TypeError, "complex"),
        ([0, 1], ma.ones(3), ValueError, r"^could not broadcast input array from shape \(3,\) into shape \(2, 4\)$"),
        (ma.ones((3, 4), dtype=ma.bool), ma.ones(5), ValueError, r"into shape \(12,\)$"),
    ):
        with pytest.raises(exc, match=match):
            x[key] = value
        with pytest.raises(exc, match=match):
            _indexing.setitem(x, core.parse_index(x, key), value)
    assert x.tolist() == ma.zeros((3, 4), dtype=ma.int16).tolist()
    n = np.zeros((3, 4))
    n.flags.writeable = False
    r = ma.asarray(n)
    for key in ([0], ma.asarray([1]), ma.asarray([True, False, True]), [9]):
        with pytest.raises(ValueError, match=r"^assignment destination is read-only$"):
            r[key] = 1.0


ONE_INDEX_KEYS: list[Any] = [
    (slice(None), "i"), (Ellipsis, "i"), ("i", Ellipsis), ("i",), (None, slice(1, None), "i"),
    (slice(None, None, -1), "i", slice(None, None, 2)), (Ellipsis, None, "i"), (slice(None), "i", None),
    (slice(1, 3), Ellipsis, "i"),
]


@pytest.mark.parametrize("source", ["owned", "import", "readonly"])
@pytest.mark.parametrize("index", ["int64", "int8", "uint8", "reversed", "list", "mask", "empty"])
def test_one_index_in_a_tuple_is_gathered_in_c(source: str, index: str) -> None:
    """x[:, cols] and its kin: C gathers them with the general path's values
    and layout (strides, owned blocks seen through a view), on every source
    layout."""
    base = np.arange(120, dtype=np.float32).reshape(4, 5, 6)
    for nv in (base, base[::-1, 1:, ::2], base.transpose(2, 0, 1)):
        if source == "owned":
            x = to_ma(nv)
        else:
            imp = nv.copy()
            imp.flags.writeable = source != "readonly"
            x = ma.asarray(imp)
        for template in ONE_INDEX_KEYS:
            at = template.index("i")
            # the axis of x the index stands for
            ax = sum(1 for k in template[:at] if k is not None) if Ellipsis not in template[:at] \
                else nv.ndim - 1 - sum(1 for k in template[at + 1:] if k is not None)
            n = nv.shape[ax]
            nidx: Any = {"int64": np.array([0, n - 1, -1, 1, 1]), "int8": np.array([n - 1, 0], np.int8),
                         "uint8": np.array([1, 0, 1], np.uint8), "reversed": np.arange(n)[::-1],
                         "list": [n - 1, 0, -n], "mask": np.arange(n) % 2 == 0,
                         "empty": np.zeros(0, np.int64)}[index]
            idx = nidx if isinstance(nidx, list) else ma.asarray(nidx)
            key = tuple(idx if k == "i" else k for k in template)
            nkey = tuple(nidx if k == "i" else k for k in template)
            assert answered_in_c(x, key), key
            fast, slow = x[key], _indexing.getitem(x, core.parse_index(x, key))
            assert_like_numpy(fast, nv[nkey], check_strides=False)
            assert fast.shape == slow.shape and fast._strides == slow._strides
            assert (fast.base is None) == (slow.base is None)
            assert fast.flags.writeable and fast.flags.c_contiguous == slow.flags.c_contiguous


def test_one_index_in_a_tuple_errors_keep_their_wording() -> None:
    x = ma.zeros((3, 4, 5))
    for key, match in (
        ((slice(None), ma.asarray([0, 4])), r"^index 4 is out of bounds for axis 1 with size 4$"),
        ((None, slice(None), [-5]), r"^index -5 is out of bounds for axis 1 with size 4$"),
        ((Ellipsis, ma.asarray([5], dtype=ma.int16)), r"^index 5 is out of bounds for axis 2 with size 5$"),
        ((slice(None), Ellipsis, None, [9]), r"^index 9 is out of bounds for axis 2 with size 5$"),
    ):
        with pytest.raises(IndexError, match=match):
            x[key]  # C raises these itself
        with pytest.raises(IndexError, match=match):
            x[key]
        with pytest.raises(IndexError, match=match):
            _indexing.getitem(x, core.parse_index(x, key))
    # shapes that do not fit go the general way, which words them
    for key in ((slice(None), ma.asarray([True, False])), (slice(None), [0], [9])):
        assert not answered_in_c(x, key)
        with pytest.raises(IndexError):
            x[key]
    with pytest.raises(IndexError, match="too many indices"):  # the parse's own error
        x[slice(None), slice(None), slice(None), [0]]


def _pairs(shape: tuple[int, ...]) -> list[tuple[Any, Any]]:
    """x[rows, cols]-style keys C answers, each with its NumPy key: integer
    entries of one length, arrays of several dtypes and lists mixed."""
    r = np.array([0, shape[0] - 1, -1, 1, 1])
    c = np.array([shape[1] - 1, 0, 1, -shape[1], 1])
    keys: list[tuple[Any, Any]] = [
        ((ma.asarray(r), ma.asarray(c)), (r, c)),
        ((r.tolist(), ma.asarray(c.astype(np.int16))), (r, c)),
        ((ma.asarray(np.abs(r).astype(np.uint8)), c.tolist()), (np.abs(r), c)),
        ((ma.asarray(r)[::-1], ma.asarray(np.repeat(c, 2))[::2]), (r[::-1], c)),
        ((ma.asarray(np.zeros(0, np.int64)), ma.asarray(np.zeros(0, np.int32))), (np.zeros(0, int),) * 2),
    ]
    if len(shape) == 3:
        z = np.array([0, 1, 0, 1, -1]) % shape[2]
        keys.append(((ma.asarray(r), ma.asarray(c), z.tolist()), (r, c, z)))
    return keys


@pytest.mark.parametrize("view", list(VIEWS))
@pytest.mark.parametrize("source", SOURCES)
def test_several_index_arrays_in_c(view: str, source: str) -> None:
    for dtype in ("float64", "int8", "bool", "complex128"):
        probe, nprobe = _make(dtype, view, source)
        for key, nkey in _pairs(nprobe.shape):
            assert answered_in_c(probe, key)
            _check_copy(probe[key], nprobe[nkey])
            _check_copy(_indexing.getitem(probe, core.parse_index(probe, key)), nprobe[nkey])
            target = nprobe[nkey].shape
            full = ma.asarray((np.arange(math.prod(target)).reshape(target) % 3).astype(nprobe.dtype))
            for value in (2, full, full[:1], ma.asarray(1.5), ma.ones(4)):
                fast, fast_np = _make(dtype, view, source)
                slow, _ = _make(dtype, view, source)
                _, fast_exc = _outcome(lambda: fast.__setitem__(key, value))  # noqa: B023
                _, slow_exc = _outcome(lambda: _indexing.setitem(slow, core.parse_index(slow, key), value))  # noqa: B023
                _same_error(fast_exc, slow_exc)
                assert_equal_values(values_of(fast), values_of(slow))
                if fast_exc is None and value is full:
                    fast_np[nkey] = values_of(full)  # duplicates: the last write wins in both
                    assert_equal_values(values_of(fast), fast_np)


def test_several_index_arrays_on_more_dims_and_errors() -> None:
    n = np.arange(60.0).reshape(3, 4, 5)
    x = ma.asarray(n.copy())
    r, c = [2, 0, 2], ma.asarray([3, -1, 0])
    _check_copy(x[r, c], n[r, [3, -1, 0]])  # (3, 5): the last axis whole
    x[r, c] = ma.arange(5.0)
    ref = n.copy()
    ref[r, [3, -1, 0]] = np.arange(5.0)
    assert_equal_values(values_of(x), ref)
    for key, match in (
        (([0, 3], [0, 0]), r"^index 3 is out of bounds for axis 0 with size 3$"),
        ((ma.asarray([0, 1]), [4, 0]), r"^index 4 is out of bounds for axis 1 with size 4$"),
        (([0], [0], ma.asarray([-6], dtype=ma.int8)), r"^index -6 is out of bounds for axis 2 with size 5$"),
    ):
        for f in (lambda k: x[k], lambda k: _indexing.getitem(x, core.parse_index(x, k)),
                  lambda k: x.__setitem__(k, 0.0), lambda k: _indexing.setitem(x, core.parse_index(x, k), 0.0)):
            with pytest.raises(IndexError, match=match):
                f(key)
        assert_equal_values(values_of(x), ref)  # nothing written
    # entries that broadcast, or with slices or masks beside them, go the general way
    for key in (([0, 1], [2]), ([0, 1], slice(None), [0, 1]), (ma.asarray([True, False, True]), [0, 1]),
                ([0, 1], ma.asarray([[0], [1]]))):
        assert not answered_in_c(x, key)
    with pytest.raises(IndexError, match="too many indices"):
        x[[0], [0], [0], [0]]
    ro = np.zeros((3, 4))
    ro.flags.writeable = False
    with pytest.raises(ValueError, match=r"^assignment destination is read-only$"):
        ma.asarray(ro)[[0, 1], [1, 2]] = 1.0


@pytest.mark.parametrize("dtype", ["bool", "int8", "float16", "float32", "float64", "complex128"])
def test_masks_and_index_arrays_on_single_runs(dtype: str) -> None:
    """The one-run loops (1-d with any step, or C-contiguous) against NumPy,
    with mask bytes other than 0 and 1 (memory imported as bool can hold
    them: any non-zero byte is true)."""
    rng = np.random.default_rng(7)
    base = (rng.random(4000) * 10).astype(np_dtype(getattr(ma, dtype)))
    raw = rng.integers(0, 4, 4000).astype(np.uint8) * np.uint8(85)  # 0, 85, 170, 255
    nmask = raw.view(np.bool_)
    for nv, nm in ((base, nmask), (base[::-3], nmask[::3]), (base[::-1], nmask[::-1]),
                   (base.reshape(40, 100), nmask.reshape(40, 100)), (base[:0], nmask[:0])):
        x, m = ma.asarray(nv.copy()), ma.asarray(nm)  # the mask imported with its raw bytes
        want = nv[nm.astype(bool)]
        _check_copy(x[m], want)
        x[m] = 1
        ref = nv.copy()
        ref[nm.astype(bool)] = 1
        assert_equal_values(values_of(x), ref)
        idx = rng.integers(-nv.shape[0], nv.shape[0], 500) if nv.shape[0] else np.zeros(0, np.int64)
        _check_copy(x[ma.asarray(idx)], ref[idx])
        x[ma.asarray(idx)] = ma.asarray(np.arange(idx.size).astype(nv.dtype).reshape(-1, *([1] * (nv.ndim - 1))))
        ref[idx] = np.arange(idx.size).astype(nv.dtype).reshape(-1, *([1] * (nv.ndim - 1)))
        assert_equal_values(values_of(x), ref)



@pytest.mark.parametrize("source", ["owned", "import", "readonly"])
def test_nd_index_arrays_are_gathered_in_c(source: str) -> None:
    """emb[ids]: an integer key of two or more dimensions, alone, gives the
    key's shape followed by x's remaining axes, owning its data as NumPy's
    result does (the general path now allocates it so too)."""
    n = np.arange(60, dtype=np.float32).reshape(10, 3, 2)
    for nv in (n, n[::-1, :, ::-1], n.transpose(1, 0, 2)):
        x, _ = (to_ma(nv), None) if source == "owned" else (ma.asarray(nv.copy()), None)
        if source == "readonly":
            ro = nv.copy()
            ro.flags.writeable = False
            x = ma.asarray(ro)
        m = nv.shape[0]
        for nk in (np.array([[1, 2], [0, -1]]), np.array([[[m - 1]]], np.int8), np.zeros((0, 3), np.int64),
                   (np.arange(12).reshape(3, 4) % m).astype(np.uint16)[:, ::-1],
                   np.arange(24).reshape(2, 3, 4).transpose(2, 0, 1) % m):
            k = ma.asarray(nk)
            assert answered_in_c(x, k)
            _check_copy(x[k], nv[nk])
            _check_copy(_indexing.getitem(x, core.parse_index(x, k)), nv[nk])
    x = ma.asarray(n.copy())
    with pytest.raises(IndexError, match=r"^index 10 is out of bounds for axis 0 with size 10$"):
        x[ma.asarray([[1], [10]])]
    # assignment through such a key is the general path's, with the same result
    ref = n.copy()
    key = np.array([[1, 2], [2, 9]])
    x[ma.asarray(key)] = ma.asarray(np.arange(6, dtype=np.float32).reshape(3, 2))
    ref[key] = np.arange(6, dtype=np.float32).reshape(3, 2)
    assert_equal_values(values_of(x), ref)
    # a result beyond the dimension limit goes the general way, which words it
    deep = ma.zeros((1,) * 64)
    k = ma.asarray(np.zeros((1, 1), np.int64))
    assert not answered_in_c(deep, k)
    with pytest.raises(ValueError):
        deep[k]


# ---- x[key] is a C slot ---------------------------------------------------------

def test_getitem_is_the_inherited_c_slot() -> None:
    """NDArray defines no __getitem__: it inherits NDArrayBase's mp_subscript,
    which x[key] calls without a method lookup.  The method stays visible,
    with a docstring, and NDArrays stay sequences to CPython."""
    import ctypes

    assert "__getitem__" not in ma.NDArray.__dict__
    assert ma.NDArray.__getitem__ is core.NDArrayBase.__dict__["__getitem__"]
    assert ma.NDArray.__getitem__.__doc__
    x = ma.arange(12.0).reshape(3, 4)
    assert_equal_values(values_of(ma.NDArray.__getitem__(x, (1, slice(None, None, 2)))), np.array([4.0, 6.0]))
    assert_equal_values(values_of(x[[2, 0]]), np.arange(12.0).reshape(3, 4)[[2, 0]])  # advanced: C
    assert_equal_values(values_of(x[np.int64(1)]), np.arange(4.0, 8.0))  # a NumPy int: the general path
    # prototypes of the test's own: ctypes.pythonapi's are shared by the process
    check = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.py_object)(("PySequence_Check", ctypes.pythonapi))
    assert check(x) == 1
    get = ctypes.PYFUNCTYPE(ctypes.py_object, ctypes.py_object, ctypes.c_ssize_t)(
        ("PySequence_GetItem", ctypes.pythonapi))
    assert_equal_values(values_of(get(x, -1)), np.arange(8.0, 12.0))
    with pytest.raises(TypeError, match="not subscriptable"):
        core.NDArrayBase()[0]  # a bare base instance has no array


def test_getitem_in_subclasses() -> None:
    """A subclass inherits the slot, and one that overrides __getitem__ gets
    its own method called, with super() reaching the C slot; the results
    are of the subclass, with NumPy's base (the array owning the memory)."""

    class Plain(ma.NDArray):
        __slots__ = ()

    seen: list[Any] = []

    class Logged(ma.NDArray):
        __slots__ = ()

        def __getitem__(self, key: Any) -> Any:
            seen.append(key)
            return super().__getitem__(key)

    x = ma.arange(10.0)
    for cls in (Plain, Logged):
        s = x.view(cls)
        v = s[2:5]
        assert type(v) is cls and v.base is x
        assert_equal_values(values_of(v), np.arange(2.0, 5.0))
        picked = s[[1, 3]]
        assert type(picked) is cls
        assert_equal_values(values_of(picked), np.array([1.0, 3.0]))
    assert seen == [slice(2, 5), [1, 3]]
