"""minarray arrays as Dask chunks, and the NumPy protocols that makes rest on.

The first part needs only NumPy: ``np.dtype(ma.float32)``, NumPy-style
reduction methods, and ``__array_function__``/``__array_ufunc__`` dispatch
(with NumPy fallbacks).  The second part runs Dask graphs whose chunks are
minarray arrays (skipped when Dask is not installed) and compares every
result with NumPy.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from array_strategies import distinct_values

import minarray as ma


def arr(shape: tuple[int, ...], dtype: ma.DType = ma.float64) -> tuple[np.ndarray, ma.NDArray]:
    a = distinct_values(shape, dtype)
    return a, ma.asarray(a, copy=True)


# ---- what Dask relies on: NumPy's view of minarray arrays -------------------------------

def test_numpy_reads_minarray_dtypes() -> None:
    for d in (ma.bool, ma.int8, ma.uint64, ma.float16, ma.float32, ma.complex128):
        assert np.dtype(d) == np.dtype(d.name)
        assert d.dtype == np.dtype(d.name)
        assert d.type is np.dtype(d.name).type
    assert np.dtype(ma.ones(2, dtype=ma.int16).dtype) == np.int16
    assert np.issubdtype(ma.complex64.dtype, np.complexfloating)


@pytest.mark.parametrize("name", ["sum", "prod", "mean", "max", "min", "any", "all", "argmax", "argmin",
                                  "var", "std", "cumsum", "cumprod"])
def test_numpy_style_methods(name: str) -> None:
    a, x = arr((3, 4))
    for kwargs in ({}, {"axis": 0}, {"axis": 1}, {"axis": -1, "keepdims": True}):
        if name in ("cumsum", "cumprod") and "keepdims" in kwargs:
            continue
        got = getattr(x, name)(**kwargs)
        assert isinstance(got, ma.NDArray)
        np.testing.assert_allclose(np.asarray(got), getattr(a, name)(**kwargs), rtol=1e-12)
    if name in ("var", "std"):
        np.testing.assert_allclose(np.asarray(getattr(x, name)(ddof=1)), getattr(a, name)(ddof=1))
    if name in ("sum", "prod", "mean"):
        got = getattr(x, name)(axis=0, dtype=ma.float32)
        assert got.dtype == ma.float32
    # NumPy's out=: filled and returned (a NumPy array through a zero-copy view)
    o = np.empty(np.shape(getattr(a, name)()))
    assert getattr(x, name)(out=o) is o
    np.testing.assert_allclose(o, getattr(a, name)(), rtol=1e-12)


def test_array_function_dispatches_to_minarray() -> None:
    a, x = arr((4, 6))
    cases: list[tuple[Any, Any]] = [
        (lambda m: np.sum(m, axis=1), lambda n: np.sum(n, axis=1)),
        (lambda m: np.sum(m, axis=(0, 1), keepdims=True, dtype=np.float32),
         lambda n: np.sum(n, axis=(0, 1), keepdims=True, dtype=np.float32)),
        (lambda m: np.mean(m, axis=0), lambda n: np.mean(n, axis=0)),
        (lambda m: np.max(m), lambda n: np.max(n)),
        (lambda m: np.var(m, axis=1, ddof=1), lambda n: np.var(n, axis=1, ddof=1)),
        (lambda m: np.concatenate([m, m], axis=1), lambda n: np.concatenate([n, n], axis=1)),
        (lambda m: np.stack([m, m]), lambda n: np.stack([n, n])),
        (lambda m: np.tensordot(m, m, axes=([0], [0])), lambda n: np.tensordot(n, n, axes=([0], [0]))),
        (lambda m: np.dot(m, m.T), lambda n: np.dot(n, n.T)),
        (lambda m: np.transpose(m), lambda n: np.transpose(n)),
        (lambda m: np.reshape(m, (6, 4)), lambda n: np.reshape(n, (6, 4))),
        (lambda m: np.where(m > 3, m, 0.0), lambda n: np.where(n > 3, n, 0.0)),
        (lambda m: np.take(m, [0, 2], axis=1), lambda n: np.take(n, [0, 2], axis=1)),
        (lambda m: np.full_like(m, 7.0), lambda n: np.full_like(n, 7.0)),
        (lambda m: np.zeros_like(m, shape=(2,)), lambda n: np.zeros_like(n, shape=(2,))),
        (lambda m: np.cumsum(m), lambda n: np.cumsum(n)),
        (lambda m: np.atleast_3d(m), lambda n: np.atleast_3d(n)),
    ]
    for f_ma, f_np in cases:
        got, expected = f_ma(x), f_np(a)
        assert isinstance(got, ma.NDArray)
        assert got.shape == np.shape(expected)
        assert got.dtype == np.asarray(expected).dtype
        np.testing.assert_allclose(np.asarray(got), expected, rtol=1e-12)


def test_array_function_falls_back_to_numpy() -> None:
    a, x = arr((4, 6))
    # an option minarray lacks: NumPy computes, as before the protocol
    weights = np.ones(a.shape)
    got = np.quantile(x, 0.5, axis=0, method="inverted_cdf", weights=weights)
    assert not isinstance(got, ma.NDArray)
    np.testing.assert_allclose(got, np.quantile(a, 0.5, axis=0, method="inverted_cdf", weights=weights))
    # where= minarray has: it computes
    got = np.sum(x, where=np.asarray(x) > 0.5)
    assert isinstance(got, ma.NDArray) and np.isclose(float(got), np.sum(a, where=a > 0.5))
    # functions minarray lacks
    assert np.allclose(x, a) and np.array_equal(x, a)
    np.testing.assert_array_equal(np.median(x, axis=0), np.median(a, axis=0))
    # a NumPy array among the arguments: NumPy's result
    mixed = np.concatenate([x, a])
    assert isinstance(mixed, np.ndarray)
    np.testing.assert_array_equal(mixed, np.concatenate([a, a]))
    # the one-argument where is nonzero's job in minarray: NumPy answers
    np.testing.assert_array_equal(np.where(x > 3)[0], np.where(a > 3)[0])


def test_array_ufunc_dispatches_and_falls_back() -> None:
    a, x = arr((3, 5))
    for uf in (np.exp, np.sqrt, np.negative, np.isnan, np.floor):
        got = uf(np.abs(x))
        assert isinstance(got, ma.NDArray)
        np.testing.assert_allclose(np.asarray(got), uf(np.abs(a)))
    for uf in (np.add, np.multiply, np.maximum, np.less, np.matmul):
        y, yn = (x.T, a.T) if uf is np.matmul else (x, a)
        got = uf(x, y)
        assert isinstance(got, ma.NDArray)
        np.testing.assert_allclose(np.asarray(got), uf(a, yn))
    got = np.add(x, 2, dtype=np.float32)
    assert isinstance(got, ma.NDArray) and got.dtype == ma.float32
    # reductions through the ufunc, out=, NumPy operands: NumPy computes
    np.testing.assert_allclose(np.add.reduce(x, axis=0), np.add.reduce(a, axis=0))
    out = np.empty_like(a)
    np.multiply(x, 2, out=out)
    np.testing.assert_allclose(out, a * 2)
    assert isinstance(np.add(x, a), np.ndarray)


# ---- Dask ------------------------------------------------------------------------------

@pytest.fixture
def da() -> Any:
    dask_array = pytest.importorskip("dask.array", reason="dask is not installed")
    import minarray.dask  # noqa: F401 - registers minarray with Dask

    return dask_array


def chunk_types(d: Any) -> set[type]:
    """The types of a Dask array's chunks, computed."""
    import dask

    return {type(c) for c in dask.compute(*d.to_delayed().ravel())}


def assert_ma_result(got: Any, expected: Any, rtol: float = 1e-12) -> None:
    assert isinstance(got, ma.NDArray), type(got)
    assert got.shape == np.shape(expected)
    np.testing.assert_allclose(np.asarray(got), expected, rtol=rtol, atol=1e-12)


@pytest.mark.parametrize("scheduler", ["synchronous", "threads"])
def test_dask_array_of_minarray_chunks(da: Any, scheduler: str) -> None:
    import dask

    a, x = arr((10, 12))
    with dask.config.set(scheduler=scheduler):
        d = da.from_array(x, chunks=(4, 5))
        assert isinstance(d._meta, ma.NDArray)
        assert d.dtype == np.float64 and d.shape == (10, 12)
        assert chunk_types(d) == {ma.NDArray}
        assert_ma_result(d.compute(), a)
        # elementwise, minarray functions per block, slicing, transposes
        assert_ma_result((d * 2 + 1).compute(), a * 2 + 1)
        assert_ma_result(d.map_blocks(ma.abs).map_blocks(ma.sqrt).compute(), np.sqrt(np.abs(a)))
        assert_ma_result(da.exp(d / 100).compute(), np.exp(a / 100))
        assert_ma_result(d[1:8:2, ::-1].T.compute(), a[1:8:2, ::-1].T)
        # reductions, whole and along axes
        assert_ma_result(d.sum().compute(), a.sum())
        assert_ma_result(d.sum(axis=0).compute(), a.sum(axis=0))
        assert_ma_result(d.mean(axis=1).compute(), a.mean(axis=1))
        assert_ma_result(d.max(axis=0).compute(), a.max(axis=0))
        assert_ma_result(d.min().compute(), a.min())
        assert_ma_result(d.std(axis=0).compute(), a.std(axis=0))
        assert_ma_result(d.var().compute(), a.var())
        assert_ma_result(d.argmax(axis=1).compute(), a.argmax(axis=1))
        assert_ma_result((d > 50).any(axis=0).compute(), (a > 50).any(axis=0))
        assert_ma_result(d.cumsum(axis=0).compute(), a.cumsum(axis=0))
        # linear algebra: minarray's kernel per block pair
        assert_ma_result((d @ d.T).compute(), a @ a.T)
        assert_ma_result(da.tensordot(d, d, axes=([0], [0])).compute(), np.tensordot(a, a, axes=([0], [0])))
        # joining
        assert_ma_result(da.concatenate([d, d[:3]], axis=0).compute(), np.concatenate([a, a[:3]]))
        assert_ma_result(da.stack([d, d], axis=1).compute(), np.stack([a, a], axis=1))


def test_dask_boolean_masking(da: Any) -> None:
    """Dask picks its boolean-mask path by ``mask.dtype == bool``: a
    minarray dtype compares equal to Python's and NumPy's spellings."""
    a, x = arr((12,))
    d = da.from_array(x, chunks=5)
    assert (d > 0).dtype == bool and (d > 0).dtype == np.bool_ and (x > 0).dtype == bool
    assert_ma_result(d[d > a.mean()].compute(), a[a > a.mean()])
    assert_ma_result(d[x > a.mean()].compute(), a[a > a.mean()])
    m, mm = arr((4, 6))
    dm = da.from_array(mm, chunks=(2, 3))
    assert_ma_result(dm[dm > 0].compute(), m[m > 0])


def test_dask_map_blocks_with_minarray_functions(da: Any) -> None:
    a, x = arr((8, 9), ma.float32)
    d = da.from_array(x, chunks=(3, 4))
    seen: list[type] = []

    def block(c: Any) -> Any:
        seen.append(type(c))
        return ma.clip(ma.multiply(c, c), 0.0, 100.0)

    r = d.map_blocks(block, dtype=np.float32).compute()
    assert set(seen) == {ma.NDArray}
    assert isinstance(r, ma.NDArray) and r.dtype == ma.float32
    np.testing.assert_allclose(np.asarray(r), np.clip(a * a, 0, 100))
    # a reduction per block, with the block's (single-chunk) axis dropped
    rows = da.from_array(x, chunks=(3, 9))
    s = rows.map_blocks(lambda c: ma.sum(c, axis=1), drop_axis=1, dtype=np.float32).compute()
    assert isinstance(s, ma.NDArray)
    np.testing.assert_allclose(np.asarray(s), a.sum(axis=1), rtol=1e-6)


def test_dask_mixes_with_minarray_operands(da: Any) -> None:
    a, x = arr((6, 4))
    d = da.from_array(x, chunks=(3, 2))
    y = ma.ones(4)
    r = d + y  # a minarray operand joins the graph (registered chunk type)
    assert isinstance(r, da.Array)
    assert_ma_result(r.compute(), a + 1)


def test_dask_integer_and_complex_chunks(da: Any) -> None:
    for dtype in (ma.int32, ma.complex128, ma.bool):
        a, x = arr((5, 6), dtype)
        d = da.from_array(x, chunks=(2, 3))
        assert d.dtype == np.dtype(dtype.name)
        got = d.sum(axis=0).compute()
        assert isinstance(got, ma.NDArray)
        np.testing.assert_array_equal(np.asarray(got), a.sum(axis=0))
