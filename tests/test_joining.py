"""Joining and splitting (minarray/_joining.py) against NumPy: concat,
stack and unstack over every dtype, 0-d and empty inputs and
non-contiguous views, with the Array API's error rules; and NumPy's
stacking and splitting routines (vstack, hstack, block, split...)."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from array_strategies import (
    assert_result,
    dtypes,
    np_dtype,
    shapes,
    values_of,
    viewed,
)
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy_errors import raises_as_numpy
from numpy_oracle import both, same, unstack
from reduction_helpers import array_pairs, values

import minarray as ma

SETTINGS = settings(max_examples=40, deadline=None)


# ---- concat, stack and unstack -----------------------------------------------------------

@settings(max_examples=80, deadline=None)
@given(data=st.data(), n=st.integers(1, 4), d1=dtypes(numpy_only=True), d2=dtypes(numpy_only=True))
def test_concat_matches_numpy(data: st.DataObject, n: int, d1: ma.DType, d2: ma.DType) -> None:
    nd = data.draw(st.integers(1, 4))
    shape = list(data.draw(shapes(min_dims=nd, max_dims=nd)))
    axis = data.draw(st.integers(-nd, nd - 1))
    nps, mas = [], []
    for i in range(n):
        s = list(shape)
        s[axis] = data.draw(st.integers(0, 3))
        a_np, a = data.draw(viewed(st.just(tuple(s)), d1 if i % 2 == 0 else d2))
        nps.append(a_np)
        mas.append(a)
    got = ma.concat(mas, axis=axis)
    assert_result(got, np.concatenate(nps, axis=axis), ma.result_type(*mas))
    assert_result(ma.concatenate(tuple(mas), axis), np.concatenate(nps, axis=axis))


@settings(max_examples=50, deadline=None)
@given(data=st.data())
def test_concat_axis_none_flattens(data: st.DataObject) -> None:
    pairs = [data.draw(viewed()) for _ in range(data.draw(st.integers(1, 3)))]
    mas = [m for _, m in pairs]
    target = np_dtype(ma.result_type(*mas))  # NumPy cannot promote bfloat16 with integers
    assert_result(ma.concat(mas, axis=None), np.concatenate([a.ravel().astype(target) for a, _ in pairs]))


def test_concat_errors() -> None:
    with pytest.raises(ValueError, match="zero-dimensional"):
        ma.concat([ma.ones(()), ma.ones(())])
    with pytest.raises(ValueError, match="same number of dimensions"):
        ma.concat([ma.ones((2, 2)), ma.ones(2)])
    with pytest.raises(ValueError, match="must match"):
        ma.concat([ma.ones((2, 2)), ma.ones((2, 3))], axis=0)
    with pytest.raises(IndexError):
        ma.concat([ma.ones((2, 2)), ma.ones((2, 2))], axis=2)
    with pytest.raises(ValueError, match="at least one"):
        ma.concat([])
    with pytest.raises(TypeError):
        ma.concat(ma.ones(3))  # an array is not a sequence of arrays here


@settings(max_examples=80, deadline=None)
@given(data=st.data(), n=st.integers(1, 4), d1=dtypes(numpy_only=True), d2=dtypes(numpy_only=True))
def test_stack_matches_numpy(data: st.DataObject, n: int, d1: ma.DType, d2: ma.DType) -> None:
    shape = data.draw(shapes(max_dims=3))
    axis = data.draw(st.integers(-len(shape) - 1, len(shape)))
    pairs = [data.draw(viewed(st.just(shape), d1 if i % 2 == 0 else d2)) for i in range(n)]
    mas = [m for _, m in pairs]
    assert_result(ma.stack(mas, axis=axis), np.stack([a for a, _ in pairs], axis=axis), ma.result_type(*mas))


def test_stack_errors() -> None:
    with pytest.raises(ValueError, match="same shape"):
        ma.stack([ma.ones(2), ma.ones(3)])
    with pytest.raises(IndexError):
        ma.stack([ma.ones(2), ma.ones(2)], axis=2)
    with pytest.raises(ValueError):
        ma.stack([])


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_unstack_matches_numpy(data: st.DataObject) -> None:
    a_np, a = data.draw(viewed(shapes(min_dims=1, max_dims=4)))
    axis = data.draw(st.integers(-a.ndim, a.ndim - 1))
    parts = ma.unstack(a, axis=axis)
    expected = unstack(a_np, axis=axis)
    assert isinstance(parts, tuple) and len(parts) == len(expected)
    for p, e in zip(parts, expected, strict=True):
        assert p.shape == e.shape
        np.testing.assert_array_equal(values_of(p).astype(np.complex128), e.astype(np.complex128))
        assert p.base is not None  # views, as NumPy's
    if a.size and all(p.size for p in parts):
        restacked = ma.stack(parts, axis=axis)
        np.testing.assert_array_equal(values_of(restacked).astype(np.complex128), a_np.astype(np.complex128))


def test_unstack_errors() -> None:
    with pytest.raises(ValueError, match="0-dimensional"):
        ma.unstack(ma.ones(()))
    with pytest.raises(IndexError):
        ma.unstack(ma.ones((2, 3)), axis=2)


# ---- NumPy's joining and splitting routines ----------------------------------------------

@SETTINGS
@given(pair=array_pairs(dtypes=["int16", "float64", "bool"], min_dims=1, max_dims=3, max_side=6), data=st.data())
def test_split_family_matches_numpy(pair: tuple[np.ndarray, ma.NDArray], data: Any) -> None:
    a, x = pair
    axis = data.draw(st.integers(0, a.ndim - 1))
    sections = data.draw(st.integers(1, 4))
    got, expected = both("array_split", a, sections, axis=axis)
    same(got, expected)
    idx = sorted(data.draw(st.lists(st.integers(-3, 8), max_size=3)))
    got, expected = both("split", a, idx, axis=axis)
    same(got, expected)
    if a.shape[axis] % sections == 0:
        same(ma.split(x, sections, axis=axis), np.split(a, sections, axis=axis))
    else:
        with pytest.raises(ValueError, match="equal division"):
            ma.split(x, sections, axis=axis)


def test_stacking_matches_numpy() -> None:
    rng = np.random.default_rng(1)
    for sizes in ([(3,), (3,)], [(2, 3), (1, 3)], [(), ()], [(2, 3, 4), (2, 3, 4)]):
        arrs = [values(rng, "float32", s) for s in sizes]
        for fn in ("vstack", "hstack", "dstack", "column_stack", "atleast_1d", "atleast_2d", "atleast_3d"):
            if fn.startswith("atleast"):
                got, expected = both(fn, *arrs)
            else:
                try:
                    expected = getattr(np, fn)(arrs)
                except ValueError:
                    with pytest.raises(ValueError):
                        getattr(ma, fn)([ma.asarray(v) for v in arrs])
                    continue
                got = getattr(ma, fn)([ma.asarray(v) for v in arrs])
            same(got, expected)
    same(ma.vstack([ma.arange(3, dtype=ma.int8), ma.arange(3.0)]), np.vstack([np.arange(3, dtype=np.int8),
                                                                               np.arange(3.0)]))
    a = np.arange(24).reshape(2, 3, 4)
    for fn, args in (("hsplit", (3,)), ("vsplit", (2,)), ("dsplit", ([1, 3],)), ("fliplr", ()), ("flipud", ()),
                     ("rot90", ()), ("rot90", (2, (2, 0))), ("rot90", (-1, (1, 2))), ("ravel", ()),
                     ("transpose", ((2, 0, 1),))):
        got, expected = both(fn, a, *args)
        same(got, expected)
    same(ma.block([[ma.asarray(a[0]), ma.zeros((3, 2), dtype=ma.int64)]]), np.block([[a[0], np.zeros((3, 2), int)]]))


def test_stack_axis_positional() -> None:
    # NumPy's order: the axis second, by position
    a, b = np.arange(6).reshape(2, 3), np.arange(6, 12).reshape(2, 3)
    for axis in (0, 1, 2, -1):
        got, expected = both("stack", [a, b], axis)
        same(got, expected)
    got, expected = both("concatenate", [a, b], 1)
    same(got, expected)


@pytest.mark.parametrize(("fn", "args", "kwargs"), [
    ("concatenate", ([np.arange(3), np.arange(3.0)],), {"dtype": np.int32, "casting": "unsafe"}),
    ("concatenate", ([np.arange(3), np.arange(3.0)],), {"dtype": np.float32}),
    ("concatenate", ([np.arange(4).reshape(2, 2), np.ones((2, 2))], None), {"dtype": np.complex64}),
    ("stack", ([np.arange(3), np.arange(3)], 1), {"dtype": np.float32}),
    ("stack", ([np.arange(3), np.arange(3.0)], -1), {"dtype": np.int8, "casting": "unsafe"}),
], ids=lambda v: v if isinstance(v, str) else None)
def test_join_dtype(fn: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    got, expected = both(fn, *args, **kwargs)
    same(got, expected)


@pytest.mark.parametrize("fn", ["concatenate", "stack"])
def test_join_out(fn: str) -> None:
    a, b = np.arange(6).reshape(2, 3), np.arange(6, 12).reshape(2, 3)
    expected = getattr(np, fn)([a, b], 1)
    out = ma.zeros(expected.shape)
    assert getattr(ma, fn)([ma.asarray(a), ma.asarray(b)], 1, out) is out
    same(out, expected.astype(np.float64))
    # the result is made before out is written: out may be one of the inputs
    x = ma.asarray(np.arange(4.0))
    got = ma.concatenate([x[:2], x[2:]], 0, x)
    assert got is x and x.tolist() == [0.0, 1.0, 2.0, 3.0]


@pytest.mark.parametrize(("call", "match"), [
    (lambda m: m.concatenate([m.arange(3), m.arange(3.0)], dtype=m.int32), "same_kind"),
    (lambda m: m.concatenate([m.arange(3), m.arange(3.0)], out=m.zeros(6, dtype=m.int64)), "same_kind"),
    (lambda m: m.concatenate([m.arange(3)], out=m.zeros(3), dtype=m.float64), "out"),
    (lambda m: m.concatenate([m.arange(3)], dtype=m.float64, casting="bogus"), "casting"),
    (lambda m: m.concatenate([m.arange(3)], 0, m.zeros(4)), "shape"),
    (lambda m: m.stack([m.arange(3), m.arange(2)], dtype=m.int8), "same shape"),
], ids=["dtype-cast", "out-cast", "out-and-dtype", "casting", "out-shape", "stack-shapes"])
def test_join_options_errors(call: Any, match: str) -> None:
    raises_as_numpy(call, match)


@pytest.mark.parametrize("fn", ["vstack", "hstack"])
def test_vstack_hstack_casting(fn: str) -> None:
    arrays = [np.arange(3), np.arange(3.0)]
    got, expected = both(fn, arrays, dtype=np.int32, casting="unsafe")
    same(got, expected)
    raises_as_numpy(lambda m: getattr(m, fn)([m.arange(3), m.arange(3.0)], dtype=m.int32), "same_kind")


# ---- row_stack ----------------------------------------------------------------------------

ROW_STACK: dict[str, tuple[Any, dict[str, Any]]] = {
    "1-d": (lambda m: [m.arange(3), m.arange(3, 6)], {}),
    "2-d-and-1-d": (lambda m: [m.ones((2, 3)), m.arange(3.0)], {}),
    "lists": (lambda m: [[1, 2], [[3, 4], [5, 6]]], {}),
    "dtype": (lambda m: [m.arange(2), m.arange(2)], {"dtype": "float32"}),
}


@pytest.mark.parametrize("case", ROW_STACK)
def test_row_stack_warns_then_stacks_as_numpy(case: str) -> None:
    arrays, kw = ROW_STACK[case]
    with pytest.warns(DeprecationWarning, match="row_stack") as numpy_warned:
        want = np.row_stack(arrays(np), **kw)
    with pytest.warns(DeprecationWarning, match="row_stack.*vstack") as warned:
        got = ma.row_stack(arrays(ma), **kw)
    assert len(warned) == len(numpy_warned) == 1
    assert warned[0].filename == __file__  # the warning points at the caller, as NumPy's
    same(got, want)


def test_row_stack_errors_as_numpy() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        raises_as_numpy(lambda m: m.row_stack([m.ones(2), m.ones(3)]), "[Ss]hape|dimension|size")
