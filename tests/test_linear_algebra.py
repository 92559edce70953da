"""Linear algebra functions (minarray/_linear_algebra.py): matmul (@),
tensordot, vecdot, outer and matrix_transpose against NumPy; and NumPy's
products (dot, inner, vdot, kron, cross, convolve, einsum).

Values are small integers, so every dtype's products and sums are exact and
results compare equal, whatever order the blocked kernel adds in; separate
tests use random floats at sizes that cross the kernel's cache blocks and
thread split, compared with a tolerance.
"""

from __future__ import annotations

import ctypes
import mmap
import sys
import threading
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy_errors import raises_as_numpy
from numpy_oracle import both, same
from reduction_helpers import values

import minarray as ma
from minarray._scalar import Scalar

ALL_DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
              "float16", "bfloat16", "float32", "float64", "complex64", "complex128"]
NUMERIC = [d for d in ALL_DTYPES if d != "bool"]


def np_dtype(name: str) -> Any:
    if name == "bfloat16":
        ml_dtypes = pytest.importorskip("ml_dtypes", reason="NumPy has no bfloat16 without ml_dtypes")
        return np.dtype(ml_dtypes.bfloat16)
    return np.dtype(name)


def small_values(rng: np.random.Generator, shape: tuple[int, ...], dtype: str) -> np.ndarray:
    """Values in [-3, 3] (unsigned: [0, 3]; bool: 0/1), exact in every dtype."""
    if dtype == "bool":
        return rng.integers(0, 2, shape).astype(bool)
    lo = 0 if dtype.startswith("u") else -3
    x = rng.integers(lo, 4, shape)
    if dtype.startswith("complex"):
        return (x + 1j * rng.integers(-3, 4, shape)).astype(dtype)
    return x.astype(np_dtype(dtype))


def to_np(x: ma.NDArray) -> np.ndarray:
    """Exact NumPy copy of any minarray result (bfloat16 through float32)."""
    if x.dtype == ma.bfloat16:
        return np.asarray(x.astype(ma.float32))
    return np.asarray(x)


def oracle_matmul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """NumPy's matmul, computing bfloat16 in float32 (NumPy has no loop for it)."""
    if a.dtype.name == "bfloat16" or b.dtype.name == "bfloat16":
        return (a.astype(np.float32) @ b.astype(np.float32)).astype(np.float32)
    return a @ b


# A view of a base array: one of several layouts, applied to NumPy and
# minarray alike so the kernel sees non-contiguous, transposed and
# negative-stride operands.
LAYOUTS = ["c", "transposed", "strided", "reversed", "broadcast"]


def make(rng: np.random.Generator, shape: tuple[int, ...], dtype: str, layout: str
         ) -> tuple[np.ndarray, ma.NDArray]:
    nd = len(shape)
    if layout == "transposed" and nd >= 2:
        base = small_values(rng, (*shape[:-2], shape[-1], shape[-2]), dtype)
        m = ma.asarray(base)
        return np.swapaxes(base, -1, -2), ma.matrix_transpose(m)
    if layout == "strided" and nd >= 1:
        base = small_values(rng, (*shape[:-1], 2 * shape[-1]), dtype)
        return base[..., ::2], ma.asarray(base)[..., ::2]
    if layout == "reversed" and nd >= 1:
        base = small_values(rng, shape, dtype)
        return base[::-1], ma.asarray(base)[::-1]
    if layout == "broadcast" and nd >= 1:
        base = small_values(rng, (1, *shape[1:]), dtype)
        return np.broadcast_to(base, shape), ma.broadcast_to(ma.asarray(base), shape)
    base = small_values(rng, shape, dtype)
    return base, ma.asarray(base)


def check_equal(got: ma.NDArray, expected: np.ndarray, dtype: ma.DType | None = None) -> None:
    assert got.shape == expected.shape
    if dtype is not None:
        assert got.dtype == dtype
    g = to_np(got)
    np.testing.assert_array_equal(g, expected.astype(g.dtype))


# ---- matmul -------------------------------------------------------------------

@st.composite
def matmul_shapes(draw: Any) -> tuple[tuple[int, ...], tuple[int, ...]]:
    m, k, n = (draw(st.integers(0, 9)) for _ in range(3))
    kind = draw(st.sampled_from(["2d", "1d-left", "1d-right", "1d-both", "batched"]))
    if kind == "1d-left":
        return (k,), (k, n)
    if kind == "1d-right":
        return (m, k), (k,)
    if kind == "1d-both":
        return (k,), (k,)
    if kind == "2d":
        return (m, k), (k, n)
    batch = draw(st.lists(st.integers(0, 3), min_size=1, max_size=3))
    b1 = [draw(st.sampled_from([d, 1])) for d in batch]
    b2 = [draw(st.sampled_from([d, 1])) for d in batch]
    b2 = b2[draw(st.integers(0, len(b2))):]  # x2 may have fewer batch dims
    if draw(st.booleans()):
        return (*b1, m, k), (*b2, k, n)
    return (*b1, m, k), (k, n)


@settings(max_examples=120, deadline=None)
@given(shapes=matmul_shapes(), dtype=st.sampled_from(ALL_DTYPES),
       la=st.sampled_from(LAYOUTS), lb=st.sampled_from(LAYOUTS), seed=st.integers(0, 2**32 - 1))
def test_matmul_matches_numpy(shapes: Any, dtype: str, la: str, lb: str, seed: int) -> None:
    rng = np.random.default_rng(seed)
    a_np, a = make(rng, shapes[0], dtype, la)
    b_np, b = make(rng, shapes[1], dtype, lb)
    got = ma.matmul(a, b)
    check_equal(got, oracle_matmul(a_np, b_np), getattr(ma, dtype))
    check_equal(a @ b, oracle_matmul(a_np, b_np))
    assert got.flags.c_contiguous and got.base is None


@settings(max_examples=60, deadline=None)
@given(d1=st.sampled_from(ALL_DTYPES), d2=st.sampled_from(ALL_DTYPES), seed=st.integers(0, 2**32 - 1))
def test_matmul_mixed_dtypes_promote(d1: str, d2: str, seed: int) -> None:
    rng = np.random.default_rng(seed)
    a_np, a = make(rng, (3, 4), d1, "c")
    b_np, b = make(rng, (4, 2), d2, "c")
    got = ma.matmul(a, b)
    assert got.dtype == ma.result_type(a, b)
    expected = oracle_matmul(a_np.astype(np.float64) if "complex" not in d1 else a_np,
                             b_np.astype(np.float64) if "complex" not in d2 else b_np)
    if got.dtype == ma.bool:
        expected = expected != 0
    np.testing.assert_array_equal(to_np(got).astype(expected.dtype), expected)


@settings(max_examples=80, deadline=None)
@given(shapes=matmul_shapes().filter(lambda s: len(s[0]) <= 2 and len(s[1]) <= 2),
       dtype=st.sampled_from(["int64", "float32", "float64", "complex64", "complex128", "int8"]),
       la=st.sampled_from(LAYOUTS), lb=st.sampled_from(LAYOUTS), seed=st.integers(0, 2**32 - 1))
def test_dot_of_vectors_and_matrices_matches_numpy(shapes: Any, dtype: str, la: str, lb: str, seed: int) -> None:
    """dot's direct route (vectors and matrices straight to the kernel,
    which reads a vector as a row or a column): NumPy's values, shape and
    dtype, a scalar for two vectors."""
    rng = np.random.default_rng(seed)
    a_np, a = make(rng, shapes[0], dtype, la)
    b_np, b = make(rng, shapes[1], dtype, lb)
    got, want = ma.dot(a, b), np.dot(a_np, b_np)
    check_equal(got, np.asarray(want), getattr(ma, dtype))
    assert isinstance(got, Scalar) == (np.ndim(want) == 0)  # NumPy gives its scalar for two vectors


def test_matmul_kernel_refuses_an_output_that_misfits_vectors() -> None:
    from minarray._native import core

    x, m = ma.arange(3.0), ma.ones((2, 3))
    for a, b, out in [(x, x, ma.empty(1)), (m, x, ma.empty(3)), (x, m.T, ma.empty(())), (m, x, ma.empty((2, 1)))]:
        with pytest.raises(ValueError, match="does not fit the vector product"):
            core.matmul(a._h, b._h, out._h, False)


def test_matmul_vectors_give_0d() -> None:
    x = ma.asarray([1.0, 2.0, 3.0])
    r = ma.matmul(x, x)
    assert r.shape == () and float(r) == 14.0


def test_matmul_integer_overflow_wraps_like_numpy() -> None:
    a = np.full((2, 40), 100, dtype=np.int8)
    b = np.full((40, 3), 77, dtype=np.int8)
    check_equal(ma.asarray(a) @ ma.asarray(b), a @ b, ma.int8)
    u = np.full((2, 5), 2**63 + 5, dtype=np.uint64)
    check_equal(ma.asarray(u) @ ma.asarray(u.T), u @ u.T, ma.uint64)


def test_matmul_float16_accumulates_in_float32() -> None:
    # 10000 ones: a float16 accumulator would stall at 2048.
    a = np.ones(10000, dtype=np.float16)
    r = ma.matmul(ma.asarray(a), ma.asarray(a))
    assert r.dtype == ma.float16 and float(r) == float(a @ a) == 10000.0


def test_matmul_empty_inner_dimension_gives_zeros() -> None:
    r = ma.matmul(ma.ones((2, 0)), ma.ones((0, 3)))
    check_equal(r, np.zeros((2, 3)))
    r = ma.matmul(ma.ones((4, 0), dtype=ma.complex64), ma.ones((0,), dtype=ma.complex64))
    check_equal(r, np.zeros(4, dtype=np.complex64))


@pytest.mark.parametrize("dtype", ["float64", "float32", "complex128", "complex64", "int64"])
@pytest.mark.parametrize("mkn", [(130, 300, 270), (257, 513, 65), (1, 700, 300), (300, 700, 1), (64, 64, 64)])
def test_matmul_large_random(dtype: str, mkn: tuple[int, int, int]) -> None:
    """Sizes that cross every cache block, ragged micro-tiles, the vector
    paths and the thread split."""
    m, k, n = mkn
    rng = np.random.default_rng(m * 7 + k)
    if dtype == "int64":
        a, b = rng.integers(-1000, 1000, (m, k)), rng.integers(-1000, 1000, (k, n))
    else:
        a, b = rng.standard_normal((m, k)), rng.standard_normal((k, n))
        if dtype.startswith("complex"):
            a = a + 1j * rng.standard_normal((m, k))
            b = b + 1j * rng.standard_normal((k, n))
    a, b = a.astype(dtype), b.astype(dtype)
    for a_np, b_np in [(a, b), (np.asfortranarray(a), b), (a, np.asfortranarray(b))]:
        got = to_np(ma.asarray(a_np) @ ma.asarray(b_np))
        rtol = 1e-4 if dtype in ("float32", "complex64") else 1e-10
        np.testing.assert_allclose(got, a @ b, rtol=rtol, atol=rtol * float(np.abs(a @ b).max()))


def test_matmul_batched_large() -> None:
    rng = np.random.default_rng(5)
    a = rng.standard_normal((3, 1, 70, 90))
    b = rng.standard_normal((4, 90, 50))
    np.testing.assert_allclose(to_np(ma.asarray(a) @ ma.asarray(b)), a @ b, rtol=1e-12, atol=1e-12)


def test_matmul_from_threads() -> None:
    """Concurrent products (each with the GIL released and its own worker
    threads) give the same results as serial ones."""
    rng = np.random.default_rng(11)
    mats = [rng.standard_normal((150, 150)) for _ in range(4)]
    expected = [m @ m.T for m in mats]
    results: list[Any] = [None] * 4

    def work(i: int) -> None:
        x = ma.asarray(mats[i])
        for _ in range(3):
            results[i] = to_np(x @ ma.matrix_transpose(x))

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for r, e in zip(results, expected, strict=True):
        np.testing.assert_allclose(r, e, rtol=1e-12, atol=1e-12)


def test_matmul_accepts_array_likes_and_numpy() -> None:
    a = np.arange(6.0).reshape(2, 3)
    check_equal(ma.matmul(a, [[1.0], [2.0], [3.0]]), a @ np.array([[1.0], [2.0], [3.0]]))


@pytest.mark.parametrize(("s1", "s2"), [((), (3,)), ((3,), ()), ((2, 3), (2, 3)), ((3,), (4,)),
                                         ((2, 2, 3), (3, 3, 4)), ((2, 5), (4,))])
def test_matmul_bad_shapes_raise_value_error(s1: tuple[int, ...], s2: tuple[int, ...]) -> None:
    with pytest.raises(ValueError, match="matmul"):
        ma.matmul(ma.ones(s1), ma.ones(s2))


def test_matmul_rejects_non_arrays() -> None:
    with pytest.raises(TypeError):
        ma.matmul(ma.ones((2, 2)), object())
    with pytest.raises(ValueError):
        ma.ones((2, 2)) @ 2


# ---- tensordot ------------------------------------------------------------------

@st.composite
def tensordot_case(draw: Any) -> tuple[tuple[int, ...], tuple[int, ...], Any]:
    nd1 = draw(st.integers(0, 4))
    s1 = tuple(draw(st.lists(st.integers(0, 4), min_size=nd1, max_size=nd1)))
    if draw(st.booleans()):
        n = draw(st.integers(0, min(nd1, 3)))
        rest = tuple(draw(st.lists(st.integers(0, 4), max_size=4 - n)))
        return s1, s1[nd1 - n:] + rest, n
    k = draw(st.integers(0, nd1))
    ax1 = draw(st.permutations(range(nd1)))[:k]
    extra = tuple(draw(st.lists(st.integers(0, 4), max_size=3)))
    nd2 = k + len(extra)
    ax2 = draw(st.permutations(range(nd2)))[:k]
    s2 = [0] * nd2
    free = iter(extra)
    for j in range(nd2):
        s2[j] = s1[ax1[ax2.index(j)]] if j in ax2 else next(free)
    neg = draw(st.booleans())
    a1 = [a - nd1 if neg else a for a in ax1]
    return s1, tuple(s2), (a1, list(ax2))


@settings(max_examples=100, deadline=None)
@given(case=tensordot_case(), dtype=st.sampled_from(NUMERIC), seed=st.integers(0, 2**32 - 1))
def test_tensordot_matches_numpy(case: Any, dtype: str, seed: int) -> None:
    s1, s2, axes = case
    rng = np.random.default_rng(seed)
    a_np, a = make(rng, s1, dtype, "c")
    b_np, b = make(rng, s2, dtype, "reversed")
    got = ma.tensordot(a, b, axes=axes)
    if dtype == "bfloat16":
        expected = np.tensordot(a_np.astype(np.float32), b_np.astype(np.float32), axes=axes)
    else:
        expected = np.tensordot(a_np, b_np, axes=axes)
    check_equal(got, expected, getattr(ma, dtype))


def test_tensordot_errors() -> None:
    a, b = ma.ones((2, 3)), ma.ones((3, 4))
    with pytest.raises(ValueError, match="differ in size"):
        ma.tensordot(a, b, axes=([0], [0]))
    with pytest.raises(ValueError):
        ma.tensordot(a, b, axes=3)
    with pytest.raises(ValueError):
        ma.tensordot(a, b, axes=-1)
    with pytest.raises(ValueError):
        ma.tensordot(a, b, axes=([0, 1], [0]))
    with pytest.raises(IndexError):
        ma.tensordot(a, b, axes=([2], [0]))
    with pytest.raises(ValueError, match="repeated"):
        ma.tensordot(ma.ones((3, 3)), ma.ones((3, 3)), axes=([0, 0], [0, 1]))
    # the standard forbids broadcasting contracted axes
    with pytest.raises(ValueError):
        ma.tensordot(ma.ones((2, 1)), ma.ones((3, 4)), axes=([1], [0]))


# ---- vecdot -------------------------------------------------------------------

@st.composite
def vecdot_case(draw: Any) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    batch = draw(st.lists(st.integers(0, 3), max_size=3))
    k = draw(st.integers(0, 6))
    nd = len(batch) + 1
    axis = draw(st.integers(-nd, -1))
    s = list(batch)
    s.insert(nd + axis, k)
    s1 = [draw(st.sampled_from([d, 1])) if i != nd + axis else d for i, d in enumerate(s)]
    s2 = [draw(st.sampled_from([d, 1])) if i != nd + axis else d for i, d in enumerate(s)]
    drop = draw(st.integers(0, nd + axis))  # x2 may have fewer leading dims
    return tuple(s1), tuple(s2[drop:]), axis


@settings(max_examples=100, deadline=None)
@given(case=vecdot_case(), dtype=st.sampled_from(ALL_DTYPES), layout=st.sampled_from(LAYOUTS),
       seed=st.integers(0, 2**32 - 1))
def test_vecdot_matches_numpy(case: Any, dtype: str, layout: str, seed: int) -> None:
    s1, s2, axis = case
    rng = np.random.default_rng(seed)
    a_np, a = make(rng, s1, dtype, layout)
    b_np, b = make(rng, s2, dtype, "c")
    got = ma.vecdot(a, b, axis=axis)
    if dtype == "bfloat16":
        expected = np.vecdot(a_np.astype(np.float32), b_np.astype(np.float32), axis=axis)
    elif dtype == "bool":
        expected = np.vecdot(a_np.astype(np.int64), b_np.astype(np.int64), axis=axis) != 0
    else:
        expected = np.vecdot(a_np, b_np, axis=axis)  # conjugates x1, as the standard
    check_equal(got, expected, getattr(ma, dtype))


def test_vecdot_conjugates_first_argument() -> None:
    x = ma.asarray([1 + 2j, 3 - 1j])
    y = ma.asarray([2 - 1j, 1j])
    assert complex(ma.vecdot(x, y)) == complex(np.vdot([1 + 2j, 3 - 1j], [2 - 1j, 1j]))


def test_vecdot_long_vector() -> None:
    rng = np.random.default_rng(3)
    a, b = rng.standard_normal(100_001), rng.standard_normal(100_001)
    np.testing.assert_allclose(float(ma.vecdot(ma.asarray(a), ma.asarray(b))), a @ b, rtol=1e-10)


def test_vecdot_errors() -> None:
    with pytest.raises(ValueError, match="size"):
        ma.vecdot(ma.ones((2, 3)), ma.ones((2, 4)))
    # the contracted axis must not broadcast
    with pytest.raises(ValueError):
        ma.vecdot(ma.ones((2, 1)), ma.ones((2, 4)))
    with pytest.raises(IndexError):
        ma.vecdot(ma.ones((2, 3)), ma.ones((3,)), axis=-2)
    with pytest.raises(IndexError):
        ma.vecdot(ma.ones((2, 3)), ma.ones((3,)), axis=0)  # ambiguous for unequal ndims
    with pytest.raises(ValueError):
        ma.vecdot(ma.ones(()), ma.ones(()))
    r = ma.vecdot(ma.ones((2, 3)), ma.ones((2, 3)), axis=0)  # NumPy's reading of axis >= 0
    check_equal(r, np.full(3, 2.0))


# ---- outer, matrix_transpose ----------------------------------------------------------

@settings(max_examples=60, deadline=None)
@given(n=st.integers(0, 12), m=st.integers(0, 12), d1=st.sampled_from(ALL_DTYPES),
       d2=st.sampled_from(ALL_DTYPES), seed=st.integers(0, 2**32 - 1))
def test_outer_matches_numpy(n: int, m: int, d1: str, d2: str, seed: int) -> None:
    rng = np.random.default_rng(seed)
    a_np, a = make(rng, (n,), d1, "strided")
    b_np, b = make(rng, (m,), d2, "reversed")
    got = ma.outer(a, b)
    assert got.dtype == ma.result_type(a, b)
    expected = np.outer(a_np.astype(np.complex128), b_np.astype(np.complex128))
    if got.dtype == ma.bool:
        expected = expected != 0
    np.testing.assert_array_equal(to_np(got).astype(expected.dtype), expected)


def test_outer_flattens_and_linalg_outer_needs_vectors() -> None:
    # np.outer flattens its inputs; np.linalg.outer (the Array API's) takes 1-d arrays only
    a, b = np.arange(4.0).reshape(2, 2), np.arange(3.0)
    np.testing.assert_array_equal(np.asarray(ma.outer(ma.asarray(a), ma.asarray(b))), np.outer(a, b))
    np.testing.assert_array_equal(np.asarray(ma.outer(2.0, ma.asarray(b))), np.outer(2.0, b))
    for x in (ma.ones((2, 2)), ma.ones(())):
        with pytest.raises(ValueError, match="one-dimensional"):
            ma.linalg.outer(x, ma.ones(3))


@settings(max_examples=40, deadline=None)
@given(shape=st.lists(st.integers(0, 4), min_size=2, max_size=5), seed=st.integers(0, 2**32 - 1))
def test_matrix_transpose_is_a_view(shape: list[int], seed: int) -> None:
    rng = np.random.default_rng(seed)
    a_np = small_values(rng, tuple(shape), "int32")
    a = ma.asarray(a_np, copy=True)
    t = ma.matrix_transpose(a)
    check_equal(t, np.matrix_transpose(a_np))
    assert t.base is a
    check_equal(a.mT, np.matrix_transpose(a_np))


def test_matrix_transpose_needs_two_dims() -> None:
    with pytest.raises(ValueError):
        ma.matrix_transpose(ma.ones(3))


# ---- the BLAS dispatch ----------------------------------------------------------------
# Products above a few thousand multiply-adds go to BLAS gemm when gemm can
# read the operands' layout, and to the own kernel otherwise (sliced or
# reversed operands, integers): both routes must agree with NumPy.

@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128", "float16"])
@pytest.mark.parametrize("la_", ["c", "transposed", "strided", "reversed"])
@pytest.mark.parametrize("lb", ["c", "transposed", "broadcast"])
def test_matmul_blas_and_own_kernel_layouts(dtype: str, la_: str, lb: str) -> None:
    rng = np.random.default_rng(len(la_) * 10 + len(lb))
    a_np, a = make(rng, (2, 40, 33), dtype, la_)
    b_np, b = make(rng, (2, 33, 50), dtype, lb)
    expected = (a_np.astype(np.complex128) @ b_np.astype(np.complex128))
    got = to_np(a @ b).astype(np.complex128)
    assert got.shape == expected.shape
    # small integer values: exact in every type but float16's output rounding
    np.testing.assert_allclose(got, expected, rtol=1e-3 if dtype == "float16" else 0, atol=0)


def test_matmul_row_and_column_vectors_above_the_threshold() -> None:
    rng = np.random.default_rng(2)
    a, b = rng.standard_normal((300, 2)), rng.standard_normal((2, 400))  # k = 2: an outer-like product
    np.testing.assert_allclose(to_np(ma.asarray(a) @ ma.asarray(b)), a @ b, rtol=1e-13, atol=1e-13)
    c = rng.standard_normal((3, 1, 500)) + 1j * rng.standard_normal((3, 1, 500))
    d = rng.standard_normal((3, 500, 40)) + 1j * rng.standard_normal((3, 500, 40))
    np.testing.assert_allclose(to_np(ma.vecdot(ma.asarray(c[:, 0, :, None]), ma.asarray(d), axis=-2)),
                               np.vecdot(c[:, 0, :, None], d, axis=-2), rtol=1e-12, atol=1e-11)


def test_matmul_with_one_thread() -> None:
    rng = np.random.default_rng(3)
    a = rng.standard_normal((120, 130)).astype(np.float32)
    try:
        ma.set_num_threads(1)
        got = to_np(ma.asarray(a) @ ma.matrix_transpose(ma.asarray(a)))
    finally:
        ma.set_num_threads(None)
    np.testing.assert_allclose(got, a @ a.T, rtol=1e-4, atol=1e-3)


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
@pytest.mark.parametrize("lm", ["c", "transposed", "strided"])
@pytest.mark.parametrize("lv", ["c", "strided", "reversed", "broadcast"])
def test_matrix_vector_products_above_the_gemv_threshold(dtype: str, lm: str, lv: str) -> None:
    """Large matrix-vector products go to BLAS gemv when the strides allow
    (positive vector strides), to the own kernel otherwise."""
    rng = np.random.default_rng(len(lm) + 7 * len(lv))
    m_np, m = make(rng, (300, 260), dtype, lm)
    v_np, v = make(rng, (260,), dtype, lv)
    w_np, w = make(rng, (300,), dtype, lv)
    check_equal(m @ v, m_np @ v_np)
    check_equal(w @ m, w_np @ m_np)
    check_equal(ma.matmul(ma.broadcast_to(v, (2, 260)), ma.matrix_transpose(m)),
                np.broadcast_to(v_np, (2, 260)) @ m_np.T)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="guard pages through mprotect (Linux)")
@pytest.mark.parametrize("dtype", ["complex64", "complex128", "float32", "float64"])
def test_strided_matrix_vector_product_reads_only_the_matrix(dtype: str) -> None:
    """A vector times every other column of a matrix that ends at a page
    boundary, with the next page unreadable: any read past the matrix
    faults."""
    page = mmap.PAGESIZE
    item = np.dtype(dtype).itemsize
    nbytes = 300 * 520 * item
    npages = (nbytes + page - 1) // page + 1
    buf = mmap.mmap(-1, npages * page)
    libc = ctypes.CDLL(None, use_errno=True)
    addr = ctypes.addressof(ctypes.c_char.from_buffer(buf))
    assert libc.mprotect(ctypes.c_void_p(addr + (npages - 1) * page), ctypes.c_size_t(page), 0) == 0
    base = np.frombuffer(buf, dtype=dtype, count=300 * 520, offset=(npages - 1) * page - nbytes).reshape(300, 520)
    base[:] = np.arange(520) % 5
    try:
        m = ma.from_dlpack(base)[:, ::2]
        x = ma.ones(300, dtype=getattr(ma, dtype))
        check_equal(x @ m, np.ones(300, dtype=dtype) @ base[:, ::2])
        check_equal(ma.matrix_transpose(m) @ x, base[:, ::2].T @ np.ones(300, dtype=dtype))
        del m, x
    finally:
        del base
        libc.mprotect(ctypes.c_void_p(addr + (npages - 1) * page), ctypes.c_size_t(page), 3)


# ---- result sizes past int64: refused before any allocation, as NumPy ---------------

SIZES_TOO_LARGE = {
    "kron empty but huge": (lambda m: m.kron(m.ones((2**31, 0)), m.ones((2**33, 0))), "too large"),
    "kron empty rows, huge columns": (lambda m: m.kron(m.ones((0, 2**40)), m.ones((0, 2**40))), "too large"),
    "einsum ij,jk->ik": (lambda m: m.einsum("ij,jk->ik", m.ones((2**40, 0)), m.ones((0, 2**40))), "too large"),
    "einsum ij,jk->ijk": (lambda m: m.einsum("ij,jk->ijk", m.ones((2**40, 0)), m.ones((0, 2**40))), "too large"),
    "tensordot": (lambda m: m.tensordot(m.ones((2**40, 0)), m.ones((0, 2**40)), axes=1), "too large"),
    "matmul": (lambda m: m.matmul(m.ones((2**40, 0)), m.ones((0, 2**40))), "too large"),
}


@pytest.mark.parametrize("case", SIZES_TOO_LARGE.values(), ids=SIZES_TOO_LARGE.keys())
def test_product_sizes_past_int64_raise_as_numpy(case: tuple[Any, str]) -> None:
    call, match = case
    raises_as_numpy(call, match)


# ---- NumPy's products --------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["float64", "float32", "int32", "complex128"])
@pytest.mark.parametrize(("sa", "sb"), [((), (3,)), ((3,), (3,)), ((2, 3), (3,)), ((2, 3), (3, 4)),
                                        ((2, 2, 3), (3,)), ((2, 2, 3), (4, 3, 2)), ((3,), (3, 2))])
def test_dot_inner_vdot_kron_match_numpy(dtype: str, sa: tuple[int, ...], sb: tuple[int, ...]) -> None:
    rng = np.random.default_rng(5)
    a, b = values(rng, dtype, sa), values(rng, dtype, sb)
    tol = 64 if dtype.startswith(("float", "complex")) else 0
    got, expected = both("dot", a, b)
    same(got, expected, ulps=tol)
    if sa and sb and sa[-1] == sb[-1]:
        got, expected = both("inner", a, b)
        same(got, expected, ulps=tol)
    if a.size == b.size:
        got, expected = both("vdot", a, b)
        same(got, expected, ulps=tol)
    got, expected = both("kron", a, b)
    same(got, expected, ulps=tol)


EINSUMS = [
    ("ij,jk->ik", [(3, 4), (4, 5)]), ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 2)]), ("ii->i", [(3, 3)]),
    ("ii", [(4, 4)]), ("ij->ji", [(2, 3)]), ("ij->", [(2, 3)]), ("i,i", [(5,), (5,)]), ("i,j->ij", [(2,), (3,)]),
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]), ("...ij,...jk", [(2, 3, 4), (4, 2)]), ("iij->j", [(3, 3, 2)]),
    ("ijk,ikl,lm->jm", [(2, 3, 4), (2, 4, 5), (5, 2)]), ("ab,cd,bd->ac", [(2, 3), (4, 5), (3, 5)]),
    ("i,i,i->", [(4,), (4,), (4,)]), ("bi,bj->bij", [(3, 2), (3, 4)]), ("...i,...i->...", [(2, 1, 3), (4, 3)]),
]


@pytest.mark.parametrize("dtype", ["float64", "float32", "int32", "complex64"])
@pytest.mark.parametrize(("spec", "shapes"), EINSUMS, ids=[e[0] for e in EINSUMS])
def test_einsum_matches_numpy(spec: str, shapes: list[tuple[int, ...]], dtype: str) -> None:
    rng = np.random.default_rng(11)
    ops = [values(rng, dtype, s) for s in shapes]
    tol = 256 if dtype.startswith(("float", "complex")) else 0
    for optimize in (True, False, "optimal"):
        got = ma.einsum(spec, *[ma.asarray(o) for o in ops], optimize=optimize)
        same(got, np.einsum(spec, *ops), ulps=tol)


def test_einsum_path_and_errors() -> None:
    a, b, c = np.ones((2, 30)), np.ones((30, 40)), np.ones((40, 3))
    path, report = ma.einsum_path("ij,jk,kl->il", ma.asarray(a), ma.asarray(b), ma.asarray(c))
    assert path == np.einsum_path("ij,jk,kl->il", a, b, c, optimize="greedy")[0]
    assert "Optimized" in report or "Complete contraction" in report
    with pytest.raises(ValueError):
        ma.einsum("ij,jk->ik", ma.ones((2, 3)), ma.ones((4, 5)))
    with pytest.raises(ValueError):
        np.einsum("ij,jk->ik", np.ones((2, 3)), np.ones((4, 5)))
    same(ma.einsum(ma.ones(3), [0]), np.einsum(np.ones(3), [0]))  # NumPy's sublist form


def test_cross_trace_diagonal_convolve_match_numpy() -> None:
    rng = np.random.default_rng(2)
    a, b = values(rng, "float64", (4, 3)), values(rng, "float64", (3,))
    for kw in ({}, {"axis": -1}, {"axisc": 0}):
        got, expected = both("cross", a, b, **kw)
        same(got, expected, ulps=8)
    got, expected = both("cross", a.T, b[:, None], axisa=0, axisb=0)
    same(got, expected, ulps=8)
    t = np.arange(60).reshape(3, 4, 5)
    for off in (-2, 0, 3):
        for ax in ((0, 1), (2, 0), (-1, 1)):
            same(ma.trace(ma.asarray(t), off, *ax), np.trace(t, off, *ax))
            same(ma.diagonal(ma.asarray(t), off, *ax), np.diagonal(t, off, *ax))
    for mode in ("full", "same", "valid"):
        for sa, sb in ((5, 3), (2, 6), (1, 1), (4, 4)):
            got, expected = both("convolve", np.arange(sa, dtype=np.int32) - 2, np.arange(sb) * 1.5, mode=mode)
            same(got, expected, ulps=8)
            got, expected = both("convolve", np.arange(sa), np.arange(sb), mode=mode)
            same(got, expected)


# ---- correlate -------------------------------------------------------------------------

@pytest.mark.parametrize(("n", "m"), [(5, 3), (3, 5), (4, 4), (4, 2), (2, 4), (2, 5), (1, 1), (1, 3), (6, 1)])
@pytest.mark.parametrize("mode", ["valid", "same", "full"])
@pytest.mark.parametrize("dtype", ["int64", "float64", "complex128", "float32"])
def test_correlate_matches_numpy(n: int, m: int, mode: str, dtype: str) -> None:
    rng = np.random.default_rng(n * 10 + m)
    a = (rng.normal(size=n) * 4 + 1j * rng.normal(size=n)).astype(dtype) if dtype.startswith("c") else \
        (rng.normal(size=n) * 4).astype(dtype)
    v = (rng.normal(size=m) * 4 - 2j * rng.normal(size=m)).astype(dtype) if dtype.startswith("c") else \
        (rng.normal(size=m) * 4).astype(dtype)
    got, expected = both("correlate", a, v, mode=mode)
    same(got, expected, ulps=64)


def test_correlate_defaults_and_array_likes() -> None:
    same(ma.correlate([1, 2, 3], [0, 1, 0.5]), np.correlate([1, 2, 3], [0, 1, 0.5]))
    same(ma.correlate([1, 2, 3], [0, 1, 0.5], "full"), np.correlate([1, 2, 3], [0, 1, 0.5], "full"))


def test_correlate_refuses_as_numpy() -> None:
    raises_as_numpy(lambda m: m.correlate(m.ones((2, 2)), m.ones(2)), "too deep")
    raises_as_numpy(lambda m: m.correlate(m.ones(3), m.ones(2), mode="middle"), "mode")
    raises_as_numpy(lambda m: m.correlate(m.ones(0), m.ones(2)), "empty")


@pytest.mark.parametrize(("a", "b", "kw"), [
    ([1, 2], [4, 5], {}), ([1, 2, 0], [4, 5], {}), ([1.5, 2], [3, 4, 5], {}),
    ([[1, 2], [3, 4]], [[5, 6], [7, 8]], {}), ([[1, 2]], [[3, 4, 5]], {"axisc": 0}),
    ([[1, 3], [2, 4]], [[5, 7], [6, 8]], {"axisa": 0, "axisb": 0}),
], ids=["planar", "mixed", "float", "rows", "axisc", "columns"])
def test_cross_of_2_vectors_as_numpy_2(a: Any, b: Any, kw: dict[str, int]) -> None:
    # deprecated in NumPy 2.0, still computed: the plane z = 0
    with pytest.warns(DeprecationWarning, match="2-dimensional vectors are deprecated"):
        expected = np.cross(a, b, **kw)
    with pytest.warns(DeprecationWarning, match="2-dimensional vectors are deprecated"):
        got = ma.cross(a, b, **kw)
    assert got.shape == expected.shape and str(got.dtype) == str(expected.dtype)
    np.testing.assert_array_equal(np.asarray(got), expected)


@pytest.mark.parametrize(("a", "b"), [([1, 2, 3, 4], [1, 2, 3]), ([1], [1, 2])])
def test_cross_of_other_lengths_raises_as_numpy(a: list[int], b: list[int]) -> None:
    raises_as_numpy(lambda xp: xp.cross(a, b), "dimension must be 2 or 3")


@pytest.mark.parametrize(("a_shape", "b_shape", "axes"), [
    ((2, 3), (3, 2), 0), ((3, 4), (4, 2), 1), ((3, 4, 5), (4, 5), 2), ((3, 4, 5), (4, 3, 2), ([1, 0], [0, 1])),
    ((2, 2, 2), (2, 2), (2, 1)), ((2, 2, 2), (2, 2, 2), ((2, 1), (1, 0))),
], ids=["outer", "one", "two", "pairs", "axis-pair", "reordered"])
def test_tensordot_takes_axes_by_position_as_numpy(a_shape: tuple[int, ...], b_shape: tuple[int, ...],
                                                   axes: Any) -> None:
    a = np.arange(float(np.prod(a_shape))).reshape(a_shape)
    b = np.arange(float(np.prod(b_shape))).reshape(b_shape) - 3
    expected = np.tensordot(a, b, axes)  # NumPy's docstring passes axes by position
    got = ma.tensordot(ma.asarray(a), ma.asarray(b), axes)
    assert got.shape == expected.shape
    np.testing.assert_allclose(np.asarray(got), expected)


EINSUM_SUBLISTS = [
    ("trace", lambda m, a, b, c: m.einsum(a, [0, 0])),
    ("diagonal", lambda m, a, b, c: m.einsum(a, [0, 0], [0])),
    ("row sums", lambda m, a, b, c: m.einsum(a, [0, 1], [0])),
    ("ellipsis", lambda m, a, b, c: m.einsum(a, [Ellipsis, 1], [Ellipsis])),
    ("transpose", lambda m, a, b, c: m.einsum(c, [1, 0])),
    ("inner", lambda m, a, b, c: m.einsum(b, [0], b, [0])),
    ("matvec", lambda m, a, b, c: m.einsum(a, [0, 1], b, [1])),
    ("scalar", lambda m, a, b, c: m.einsum(3, [Ellipsis], c, [Ellipsis])),
    ("outer", lambda m, a, b, c: m.einsum(b[:2] + 1, [0], b, [1])),
    ("letters past z", lambda m, a, b, c: m.einsum(a, [30, 51], b, [51], [30])),
]


@pytest.mark.parametrize("call", [c for _, c in EINSUM_SUBLISTS], ids=[n for n, _ in EINSUM_SUBLISTS])
def test_einsum_sublist_form_matches_numpy(call: Any) -> None:
    # NumPy's interleaved form: operand, sublist of ints (and Ellipsis), ..., output sublist
    a, b, c = np.arange(25).reshape(5, 5), np.arange(5), np.arange(6).reshape(2, 3)
    same(call(ma, ma.asarray(a), ma.asarray(b), ma.asarray(c)), call(np, a, b, c))


def test_einsum_sublist_out_of_range_raises_as_numpy() -> None:
    raises_as_numpy(lambda xp: xp.einsum(xp.ones(2), [52]), "valid range")
    raises_as_numpy(lambda xp: xp.einsum(xp.ones(2), [-1]), "valid range")


@pytest.mark.parametrize("axes", [0, 1, 2, (0, 1), (2, 1), ((0, 1), (0, 1)), ((2, 1), (1, 0))], ids=str)
def test_tensordot_axes_positional(axes: Any) -> None:
    # NumPy's docstring example of tensordot, the axes third by position
    a = np.arange(1.0, 9.0).reshape((2, 2, 2))
    b = np.arange(1.0, 5.0).reshape((2, 2))
    got, expected = both("tensordot", a, b, axes)
    same(got, expected)




def test_einsum_takes_the_path_einsum_path_returns_and_contracts_to_a_scalar() -> None:
    # NumPy's docstring: optimize= the list einsum_path returns, its first
    # entry the marker "einsum_path" (NumPy's own path, or minarray's)
    a = np.arange(64.0).reshape(2, 4, 8) / 64
    spec = "ijk,ilm,njm,nlk,abc->"
    want = np.einsum(spec, a, a, a, a, a)
    for path in (np.einsum_path(spec, a, a, a, a, a, optimize="greedy")[0],
                 ma.einsum_path(spec, *[ma.asarray(a)] * 5, optimize="greedy")[0]):
        got = ma.einsum(spec, *[ma.asarray(a)] * 5, optimize=path)
        assert repr(got).startswith("np.float64(")
        np.testing.assert_allclose(float(got), want, rtol=1e-12)
    assert repr(ma.einsum("ii", ma.eye(3))) == repr(np.einsum("ii", np.eye(3)))


@pytest.mark.parametrize(("a_shape", "b_shape"), [((2, 3), (3,)), ((5, 2, 3), (3,)), ((2, 3), (4, 3)),
                                                  ((1, 2, 3), (4, 1, 3)), ((0, 3), (3,))], ids=str)
@pytest.mark.parametrize("dtype", ["int64", "float32", "float64", "complex128"])
def test_matvec_and_vecmat_as_numpy(a_shape: tuple[int, ...], b_shape: tuple[int, ...], dtype: str) -> None:
    """NumPy 2.2's matvec (m,n),(n)->(m) and vecmat (n),(n,m)->(m), which
    conjugates its vector; batch dimensions broadcast."""
    rng = np.random.default_rng(3)

    def values(shape: tuple[int, ...]) -> np.ndarray:
        v = rng.integers(-3, 4, shape) + (1j * rng.integers(-3, 4, shape) if dtype == "complex128" else 0)
        return np.asarray(v).astype(dtype)

    m, v = values(a_shape), values(b_shape)
    got, want = ma.matvec(ma.asarray(m), ma.asarray(v)), np.matvec(m, v)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-6)
    mt = np.swapaxes(m, -1, -2)
    got, want = ma.vecmat(ma.asarray(v), ma.asarray(mt)), np.vecmat(v, mt)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-6)


def test_matvec_and_vecmat_errors_and_out() -> None:
    with pytest.raises(ValueError, match="does not have enough dimensions"):
        ma.matvec(ma.ones(3), ma.ones(3))
    with pytest.raises(ValueError, match="does not have enough dimensions"):
        ma.vecmat(ma.ones(3), ma.ones(3))
    with pytest.raises(ValueError):
        ma.matvec(ma.ones((2, 3)), ma.ones(4))
    out = ma.zeros(2)
    assert ma.matvec(ma.ones((2, 3)), ma.ones(3), out=out) is out and out.tolist() == [3.0, 3.0]
