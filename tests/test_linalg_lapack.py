"""minarray.linalg against numpy.linalg: every function of the extension
over random, ill-conditioned, empty and batched stacks in the four LAPACK
types, with stated tolerances.

Tolerances: results agree with NumPy's to ``TOL[dtype]`` times a scale
(the norm of what is compared, and for solves and inverses the condition
number), since both call LAPACK but not necessarily the same build or
blocking.  Where a result is only defined up to a choice (eigenvector and
singular-vector phases, Q's column signs), the tests check the defining
identities -- ``A V = V diag(w)``, ``U diag(S) Vh = A``, ``Q R = A``,
orthonormality -- and compare the unique parts (eigenvalues, singular
values) with NumPy.
"""

from __future__ import annotations

import math
import re
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy_oracle import linalg_cond

import minarray as ma
import minarray.linalg as la
from minarray import _blas

FLOATS = ["float32", "float64", "complex64", "complex128"]
TOL = {"float32": 2e-4, "complex64": 2e-4, "float64": 1e-11, "complex128": 1e-11}
SHAPES = [(1, 1), (4, 4), (9, 9), (3, 5, 5), (2, 3, 4, 4), (0, 0), (2, 0, 0), (0, 3, 3)]


def rand(shape: tuple[int, ...], dtype: str, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape)
    if dtype.startswith("complex"):
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def hermitian_pd(shape: tuple[int, ...], dtype: str, seed: int = 0) -> np.ndarray:
    x = rand(shape, dtype, seed)
    n = shape[-1]
    return (x @ np.conj(np.swapaxes(x, -1, -2)) + n * np.eye(n)).astype(dtype)


def ill_conditioned(n: int, dtype: str, cond: float) -> np.ndarray:
    """U diag(logspace(0, -log10(cond))) V^T: condition number ``cond``."""
    rng = np.random.default_rng(n)
    u, _ = np.linalg.qr(rng.standard_normal((n, n)))
    v, _ = np.linalg.qr(rng.standard_normal((n, n)))
    return ((u * np.logspace(0, -math.log10(cond), n)) @ v.T).astype(dtype)


def close(got: ma.NDArray, expected: np.ndarray, dtype: str, scale: float = 1.0) -> None:
    g = np.asarray(got)
    assert g.shape == expected.shape, (g.shape, expected.shape)
    assert g.dtype == expected.dtype, (g.dtype, expected.dtype)
    if g.size == 0:
        return
    ref = max(float(np.max(np.abs(expected))), 1.0)
    np.testing.assert_allclose(g, expected, rtol=0, atol=TOL[dtype] * scale * ref)


def stack_of(shape: tuple[int, ...]) -> tuple[int, ...]:
    return shape[:-2]


# ---- the namespace -------------------------------------------------------------

STANDARD = ["cholesky", "cross", "det", "diagonal", "eig", "eigh", "eigvals", "eigvalsh", "inv", "matmul",
            "matrix_norm", "matrix_power", "matrix_rank", "matrix_transpose", "outer", "pinv", "qr", "slogdet",
            "solve", "svd", "svdvals", "tensordot", "trace", "vecdot", "vector_norm"]


def test_namespace_lists_public_functions_only() -> None:
    assert set([*STANDARD, "norm", "lstsq", "multi_dot", "cond"]) <= set(la.__all__)
    for name in la.__all__:
        assert not name.startswith("_") and callable(getattr(la, name))
    for internal in ("core", "as_operand", "NDArray", "DType", "broadcast_shapes"):
        assert internal not in la.__all__
    # the products the core namespace also names are the same objects
    for name in ("matmul", "tensordot", "vecdot", "matrix_transpose"):
        assert getattr(ma, name) is getattr(la, name)
    # np.outer flattens, np.linalg.outer takes vectors only: two functions
    assert ma.outer is not la.outer
    assert "inv" not in ma.__all__ and ma.linalg is la


def test_linalg_error_is_a_value_error() -> None:
    assert issubclass(la.LinAlgError, ValueError)


def test_blas_is_loaded_and_follows_the_thread_count() -> None:
    info = _blas.info()
    assert info["loaded"], info["error"]
    before = ma.get_num_threads()
    try:
        ma.set_num_threads(1)
        assert _blas.info()["num_threads"] == 1
        ma.set_num_threads(2)
        assert _blas.info()["num_threads"] == 2
    finally:
        ma.set_num_threads(None)
    assert _blas.info()["num_threads"] == ma.get_num_threads() == before


# ---- det, slogdet, inv, solve ----------------------------------------------------

@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", SHAPES)
def test_det_slogdet_inv(dtype: str, shape: tuple[int, ...]) -> None:
    a = rand(shape, dtype)
    x = ma.asarray(a)
    close(la.det(x), np.linalg.det(a), dtype, scale=10 ** shape[-1])
    s = la.slogdet(x)
    e = np.linalg.slogdet(a)
    close(s.sign, e.sign, dtype)
    close(s.logabsdet, e.logabsdet, dtype, scale=10)
    assert isinstance(s, la.SlogdetResult) and s[0] is s.sign
    cond = float(np.max(np.linalg.cond(a))) if a.size else 1.0
    close(la.inv(x), np.linalg.inv(a), dtype, scale=cond)


@pytest.mark.parametrize("dtype", FLOATS)
def test_solve_batched_and_vector(dtype: str) -> None:
    a = rand((2, 3, 5, 5), dtype)
    b = rand((3, 5, 2), dtype, seed=1)  # batch broadcasts against a's
    cond = float(np.max(np.linalg.cond(a)))
    close(la.solve(ma.asarray(a), ma.asarray(b)), np.linalg.solve(a, b), dtype, scale=cond)
    v = rand((5,), dtype, seed=2)  # a vector solved against every matrix
    close(la.solve(ma.asarray(a), ma.asarray(v)), np.linalg.solve(a, v), dtype, scale=cond)
    # x2 with more batch dims than x1
    b4 = rand((4, 1, 5, 3), dtype, seed=3)
    a2 = a[0, 0]
    close(la.solve(ma.asarray(a2), ma.asarray(b4)), np.linalg.solve(a2, b4), dtype, scale=cond)


@pytest.mark.parametrize("dtype", ["float64", "complex128"])
@pytest.mark.parametrize("cond", [1e4, 1e8, 1e12])
def test_ill_conditioned_solve_and_inverse(dtype: str, cond: float) -> None:
    a = ill_conditioned(12, dtype, cond)
    b = rand((12, 3), dtype, seed=4)
    x = np.asarray(la.solve(ma.asarray(a), ma.asarray(b)))
    # backward error is small whatever the conditioning
    resid = np.linalg.norm(a @ x - b) / (np.linalg.norm(a) * np.linalg.norm(x))
    assert resid < 1e-14
    close(la.solve(ma.asarray(a), ma.asarray(b)), np.linalg.solve(a, b), dtype, scale=cond)
    close(la.inv(ma.asarray(a)), np.linalg.inv(a), dtype, scale=cond)


def test_transposed_and_strided_inputs_are_read_in_place() -> None:
    base = rand((2, 6, 12), "float64")
    a = base[:, :, ::2]  # strided
    x = ma.asarray(base)[:, :, ::2]
    close(la.inv(x), np.linalg.inv(a), "float64", scale=1e4)
    close(la.inv(ma.matrix_transpose(x)), np.linalg.inv(np.swapaxes(a, -1, -2)), "float64", scale=1e4)
    close(la.det(x[::-1]), np.linalg.det(a[::-1]), "float64", scale=100)
    assert np.asarray(ma.asarray(base)).tobytes() == base.tobytes()  # input untouched


@pytest.mark.parametrize("dtype", FLOATS)
def test_singular_matrix_raises_linalg_error(dtype: str) -> None:
    a = np.array([[1.0, 2.0], [2.0, 4.0]], dtype=dtype)
    with pytest.raises(la.LinAlgError, match="singular"):
        la.inv(ma.asarray(a))
    with pytest.raises(la.LinAlgError, match="singular"):
        la.solve(ma.asarray(a), ma.ones(2, dtype=getattr(ma, dtype)))
    stack = np.stack([np.eye(2, dtype=dtype), a, np.eye(2, dtype=dtype)])
    with pytest.raises(ValueError, match=r"matrix \(1,\) of the stack"):
        la.inv(ma.asarray(stack))
    assert float(np.abs(np.asarray(la.det(ma.asarray(a))))) == 0.0
    s = la.slogdet(ma.asarray(a))
    assert complex(s.sign) == 0 and float(s.logabsdet) == -math.inf


def test_non_finite_input_behaves_as_numpy() -> None:
    a = np.array([[1.0, np.nan], [2.0, 3.0]])
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(np.isnan(np.asarray(la.inv(ma.asarray(a)))), np.isnan(np.linalg.inv(a)))
        assert math.isnan(float(la.det(ma.asarray(a))))
    for f in (la.svd, la.svdvals, la.cholesky, la.eig, la.eigvals, la.pinv, la.matrix_rank):
        with pytest.raises(np.linalg.LinAlgError):
            getattr(np.linalg, f.__name__)(a)
        with pytest.raises(la.LinAlgError):
            f(ma.asarray(a))
    inf = np.array([[np.inf, 0.0], [0.0, 1.0]])
    with pytest.raises(la.LinAlgError, match="infinities or NaNs"):
        la.eig(ma.asarray(inf))


# ---- Cholesky ------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(1, 1), (6, 6), (3, 4, 4), (0, 0), (2, 0, 0)])
def test_cholesky(dtype: str, shape: tuple[int, ...]) -> None:
    a = hermitian_pd(shape, dtype)
    close(la.cholesky(ma.asarray(a)), np.linalg.cholesky(a), dtype, scale=10)
    close(la.cholesky(ma.asarray(a), upper=True), np.linalg.cholesky(a, upper=True), dtype, scale=10)


def test_cholesky_not_positive_definite() -> None:
    with pytest.raises(la.LinAlgError, match="not positive definite"):
        la.cholesky(ma.asarray(-np.eye(3)))


# ---- eigenvalues ------------------------------------------------------------------

@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(1, 1), (7, 7), (3, 5, 5), (0, 0), (2, 0, 0)])
def test_eigh(dtype: str, shape: tuple[int, ...]) -> None:
    a = hermitian_pd(shape, dtype)
    w, v = la.eigh(ma.asarray(a))
    close(w, np.linalg.eigvalsh(a), dtype, scale=10)
    close(la.eigvalsh(ma.asarray(a)), np.linalg.eigvalsh(a), dtype, scale=10)
    wn, vn = np.asarray(w), np.asarray(v)
    assert vn.dtype == a.dtype
    n = shape[-1]
    np.testing.assert_allclose(a @ vn, vn * wn[..., None, :], atol=TOL[dtype] * 10 * max(1, n) ** 2)
    np.testing.assert_allclose(np.conj(np.swapaxes(vn, -1, -2)) @ vn, np.broadcast_to(np.eye(n), a.shape),
                               atol=TOL[dtype] * 10)


def test_eigh_reads_the_lower_triangle() -> None:
    a = hermitian_pd((5, 5), "float64")
    junk = np.triu(np.full((5, 5), 99.0), 1) + np.tril(a)
    close(la.eigvalsh(ma.asarray(junk)), np.linalg.eigvalsh(a), "float64", scale=10)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(1, 1), (6, 6), (3, 5, 5), (0, 0), (2, 0, 0)])
def test_eig(dtype: str, shape: tuple[int, ...]) -> None:
    a = rand(shape, dtype)
    w, v = la.eig(ma.asarray(a))
    ct = np.result_type(a.dtype, np.complex64)
    wn, vn = np.asarray(w), np.asarray(v)
    assert wn.dtype == ct and vn.dtype == ct  # complex, as the standard says
    close(la.eigvals(ma.asarray(a)), wn, dtype) if a.size else None
    expected = np.linalg.eigvals(a).astype(ct)
    np.testing.assert_allclose(np.sort_complex(wn.reshape(-1)), np.sort_complex(expected.reshape(-1)),
                               atol=TOL[dtype] * 100)
    np.testing.assert_allclose(a @ vn, vn * wn[..., None, :], atol=TOL[dtype] * 100)
    if a.size:
        np.testing.assert_allclose(np.linalg.norm(vn, axis=-2), 1.0, atol=TOL[dtype] * 10)


def test_eig_real_matrix_with_complex_pair() -> None:
    rot = np.array([[0.0, -1.0], [1.0, 0.0]])
    w, v = la.eig(ma.asarray(rot))
    np.testing.assert_allclose(np.sort_complex(np.asarray(w)), [-1j, 1j], atol=1e-15)
    vn, wn = np.asarray(v), np.asarray(w)
    np.testing.assert_allclose(rot @ vn, vn * wn, atol=1e-15)


# ---- SVD, QR, least squares ---------------------------------------------------------

SVD_SHAPES = [(1, 1), (6, 4), (4, 6), (2, 3, 5, 3), (0, 3), (3, 0), (2, 0, 4)]


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", SVD_SHAPES)
@pytest.mark.parametrize("full", [True, False])
def test_svd(dtype: str, shape: tuple[int, ...], full: bool) -> None:
    a = rand(shape, dtype)
    r = la.svd(ma.asarray(a), full_matrices=full)
    assert isinstance(r, la.SVDResult)
    eu, es, evh = np.linalg.svd(a, full_matrices=full)
    u, s, vh = (np.asarray(x) for x in r)
    assert u.shape == eu.shape and vh.shape == evh.shape and u.dtype == eu.dtype
    close(r.S, es, dtype, scale=10)
    close(la.svdvals(ma.asarray(a)), np.linalg.svdvals(a), dtype, scale=10)
    k = min(shape[-2:])
    np.testing.assert_allclose((u[..., :, :k] * s[..., None, :]) @ vh[..., :k, :], a, atol=TOL[dtype] * 50)
    m, n = shape[-2:]
    np.testing.assert_allclose(np.conj(np.swapaxes(u, -1, -2)) @ u, np.broadcast_to(np.eye(u.shape[-1]),
                               (*shape[:-2], u.shape[-1], u.shape[-1])), atol=TOL[dtype] * 10)
    assert vh.shape[-1] == n and u.shape[-2] == m


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", SVD_SHAPES)
@pytest.mark.parametrize("mode", ["reduced", "complete"])
def test_qr(dtype: str, shape: tuple[int, ...], mode: str) -> None:
    a = rand(shape, dtype)
    q, r = la.qr(ma.asarray(a), mode=mode)
    eq, er = np.linalg.qr(a, mode=mode)
    qn, rn = np.asarray(q), np.asarray(r)
    assert qn.shape == eq.shape and rn.shape == er.shape and qn.dtype == eq.dtype
    np.testing.assert_allclose(qn @ rn, a, atol=TOL[dtype] * 50)
    np.testing.assert_array_equal(np.triu(rn), rn)
    # LAPACK's Householder QR is unique given its sign convention: same as NumPy's
    close(q, eq, dtype, scale=100)
    close(r, er, dtype, scale=100)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", SVD_SHAPES)
def test_qr_mode_r_is_reduced_r(dtype: str, shape: tuple[int, ...]) -> None:
    a = rand(shape, dtype)
    r = la.qr(ma.asarray(a), "r")  # NumPy's positional mode
    er = np.linalg.qr(a, "r")
    assert isinstance(r, ma.NDArray) and r.shape == er.shape and np.asarray(r).dtype == er.dtype
    close(r, er, dtype, scale=100)


def test_qr_bad_mode() -> None:
    with pytest.raises(ValueError, match="Unrecognized mode 'nonsense'"):
        la.qr(ma.ones((2, 2)), mode="nonsense")
    with pytest.raises(ValueError, match="Unrecognized mode 'nonsense'"):
        np.linalg.qr(np.ones((2, 2)), mode="nonsense")
    with pytest.raises(NotImplementedError, match="raw"):
        la.qr(ma.ones((2, 2)), mode="raw")


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize(("m", "n", "k"), [(6, 3, None), (6, 3, 2), (3, 6, 2), (5, 5, 1), (4, 0, 2), (0, 3, None)])
def test_lstsq(dtype: str, m: int, n: int, k: int | None) -> None:
    a = rand((m, n), dtype)
    b = rand((m,) if k is None else (m, k), dtype, seed=5)
    got = la.lstsq(ma.asarray(a), ma.asarray(b))
    ex = np.linalg.lstsq(a, b)
    close(got.x, ex[0], dtype, scale=100)
    close(got.residuals, ex[1], dtype, scale=100)
    assert repr(got.rank) == repr(ex[2])  # NumPy's int32 scalar, LAPACK's integer
    close(got.s, ex[3], dtype, scale=10)


def test_lstsq_rank_deficient() -> None:
    a = np.array([[1.0, 2.0], [2.0, 4.0], [3.0, 6.0]])
    b = np.array([1.0, 2.0, 3.5])
    got = la.lstsq(ma.asarray(a), ma.asarray(b))
    ex = np.linalg.lstsq(a, b)
    assert got.rank == 1 == ex[2] and got.residuals.shape == (0,)
    close(got.x, ex[0], "float64", scale=10)


# ---- built from the factorisations -----------------------------------------------

@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (2, 4, 4), (0, 3), (2, 3, 0)])
def test_pinv_matrix_rank(dtype: str, shape: tuple[int, ...]) -> None:
    a = rand(shape, dtype)
    close(la.pinv(ma.asarray(a)), np.linalg.pinv(a), dtype, scale=100)
    if min(shape[-2:]):
        close(la.matrix_rank(ma.asarray(a)), np.linalg.matrix_rank(a).astype(np.int64), dtype)
    low = a[..., :1] * np.ones(shape[-1], dtype=dtype)  # rank <= 1
    expected = np.linalg.matrix_rank(low) if min(shape[-2:]) else np.zeros(shape[:-2], dtype=np.int64)
    np.testing.assert_array_equal(np.asarray(la.matrix_rank(ma.asarray(low))), expected)


@pytest.mark.parametrize("dtype", ["float64", "complex64", "int64"])
@pytest.mark.parametrize("power", [0, 1, 2, 3, 7, -1, -3])
def test_matrix_power(dtype: str, power: int) -> None:
    a = (rand((2, 4, 4), "float64") + 3 * np.eye(4)).astype(dtype) if dtype != "int64" else \
        np.random.default_rng(0).integers(-2, 3, (2, 4, 4)) + 4 * np.eye(4, dtype=np.int64)
    expected = np.linalg.matrix_power(a, power)
    tol = "float64" if dtype == "int64" else dtype
    close(la.matrix_power(ma.asarray(a), power), expected, tol, scale=1e4)


@pytest.mark.parametrize("p", [None, 2, -2, 1, -1, math.inf, -math.inf, "fro", "nuc"])
def test_cond(p: Any) -> None:
    a = rand((3, 4, 4), "float64")
    close(la.cond(ma.asarray(a), p), np.linalg.cond(a, p), "float64", scale=100)


_INF, _NAN = math.inf, math.nan
# Singular, infinite and NaN matrices, alone and mixed in stacks: NumPy's
# cond gives inf where the result is NaN and the matrix had no NaN.
COND_MATRICES = {
    "zeros": np.zeros((2, 2)),
    "zeros float32": np.zeros((2, 2), np.float32),
    "singular": np.array([[1.0, 2.0], [2.0, 4.0]]),
    "inf entry": np.array([[1.0, _INF], [0.0, 1.0]]),
    "nan entry": np.array([[1.0, _NAN], [0.0, 1.0]]),
    "singular complex": np.array([[1.0, 1j], [0.0, 0.0]]),
    "rectangular zeros": np.zeros((2, 3)),
    "int zeros": np.zeros((2, 2), np.int64),
    "stack": np.array([[[1.0, 2.0], [3.0, 4.0]], [[0.0, 0.0], [0.0, 0.0]], [[1.0, _INF], [0.0, 1.0]]]),
    "stack with nan": np.array([[[1.0, 2.0], [3.0, 4.0]], [[0.0, 0.0], [0.0, 0.0]], [[1.0, _NAN], [0.0, 1.0]],
                                [[1.0, _INF], [0.0, 1.0]]]),
    "empty": np.zeros((0, 0)),
    "empty stack": np.zeros((0, 2, 2)),
}


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # NumPy's own (nan/inf in its norms)
@pytest.mark.parametrize("p", [None, 2, -2, 1, -1, math.inf, -math.inf, "fro", "nuc"])
@pytest.mark.parametrize("name", list(COND_MATRICES))
def test_cond_singular_and_infinite(name: str, p: Any) -> None:
    """NumPy's result, for every norm ('nuc' included): inf for a singular
    matrix or one holding an infinity, NaN only where the matrix had a NaN
    (NumPy 2.5's cond; numpy_oracle builds it before 2.5, whose SVDs raise
    there).  An empty matrix raises NumPy's LinAlgError."""
    a = COND_MATRICES[name]
    try:
        expected = linalg_cond(a, p)
    except np.linalg.LinAlgError:
        with pytest.raises(la.LinAlgError):
            la.cond(ma.asarray(a), p)
        return
    got = np.asarray(la.cond(ma.asarray(a), p))
    np.testing.assert_array_equal(got, expected)
    assert got.dtype == np.asarray(expected).dtype


# ---- norms ----------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("ord", [2, 1, 0, math.inf, -math.inf, 3, 0.5, -1])
@pytest.mark.parametrize("axis", [None, -1, (0, 2)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_vector_norm(dtype: str, ord: float, axis: Any, keepdims: bool) -> None:
    a = rand((3, 4, 5), dtype)
    with np.errstate(divide="ignore"):
        expected = np.linalg.vector_norm(a, ord=ord, axis=axis, keepdims=keepdims)
    close(la.vector_norm(ma.asarray(a), ord=ord, axis=axis, keepdims=keepdims), expected, dtype, scale=10)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("ord", ["fro", "nuc", 1, -1, 2, -2, math.inf, -math.inf])
@pytest.mark.parametrize("keepdims", [False, True])
def test_matrix_norm(dtype: str, ord: Any, keepdims: bool) -> None:
    a = rand((2, 4, 3), dtype)
    expected = np.linalg.matrix_norm(a, ord=ord, keepdims=keepdims)
    close(la.matrix_norm(ma.asarray(a), ord=ord, keepdims=keepdims), expected, dtype, scale=10)


def test_matrix_norm_bad_ord() -> None:
    with pytest.raises(ValueError, match="ord"):
        la.matrix_norm(ma.ones((2, 2)), ord=3)


@pytest.mark.parametrize(("shape", "ord", "axis"), [
    ((5,), None, None), ((5,), 3, None), ((3, 4), None, None), ((3, 4), "nuc", None), ((3, 4), math.inf, None),
    ((2, 3, 4), None, None), ((2, 3, 4), 1, 1), ((2, 3, 4), "fro", (0, 2)), ((2, 3, 4), -2, (2, 1)),
])
@pytest.mark.parametrize("keepdims", [False, True])
def test_norm(shape: tuple[int, ...], ord: Any, axis: Any, keepdims: bool) -> None:
    a = rand(shape, "float64")
    close(la.norm(ma.asarray(a), ord, axis, keepdims), np.linalg.norm(a, ord, axis, keepdims), "float64", scale=10)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("layout", ["vector", "matrix", "transposed", "strided 3-d", "empty"])
def test_norm_of_everything_is_numpys_sqrt_of_dot(dtype: str, layout: str) -> None:
    """norm(x) with no ord or axis, as NumPy computes it for real arrays
    (the square root of the flattened array's dot product with itself): its
    value, its dtype, a scalar."""
    a = {"vector": lambda: rand((7,), dtype), "matrix": lambda: rand((4, 5), dtype),
         "transposed": lambda: rand((4, 5), dtype).T, "strided 3-d": lambda: rand((3, 4, 6), dtype)[:, ::2, 1:],
         "empty": lambda: rand((0, 3), dtype)}[layout]()
    got, want = la.norm(ma.asarray(a)), np.linalg.norm(a)
    close(got, want, dtype, scale=4)
    assert got.dtype == ma.dtype(want.dtype.name) and got.shape == ()


def test_norm_of_integers_is_float64() -> None:
    r = la.vector_norm(ma.asarray([3, 4]))
    assert r.dtype == ma.float64 and float(r) == 5.0


# ---- views and products ---------------------------------------------------------------

@pytest.mark.parametrize("offset", [-3, -1, 0, 1, 2, 5])
def test_diagonal_and_trace(offset: int) -> None:
    a = rand((2, 4, 5), "float64")
    x = ma.asarray(a)
    d = la.diagonal(x, offset=offset)
    close(d, np.linalg.diagonal(a, offset=offset), "float64")
    assert d.base is x and not d.flags.writeable
    close(la.trace(x, offset=offset), np.linalg.trace(a, offset=offset), "float64", scale=10)
    i = np.arange(12).reshape(3, 4).astype(np.int32)
    assert la.trace(ma.asarray(i)).dtype == ma.sum(ma.asarray(i)).dtype


@pytest.mark.parametrize(("s1", "s2", "axis"), [((3,), (3,), -1), ((4, 3), (3,), -1), ((2, 1, 3), (5, 3), -1),
                                                 ((3, 4), (3, 4), 0), ((3, 2), (3, 1), -2)])
def test_cross(s1: tuple[int, ...], s2: tuple[int, ...], axis: int) -> None:
    a, b = rand(s1, "float64"), rand(s2, "float64", seed=1)
    expected = np.cross(a, b, axis=axis) if axis >= 0 else np.linalg.cross(a, b, axis=axis)
    close(la.cross(ma.asarray(a), ma.asarray(b), axis=axis), expected, "float64", scale=10)
    ai = np.arange(6).reshape(2, 3)
    np.testing.assert_array_equal(np.asarray(la.cross(ma.asarray(ai), ma.asarray(ai[::-1]))),
                                  np.linalg.cross(ai, ai[::-1]))


def test_cross_needs_three_elements() -> None:
    with pytest.raises(ValueError, match="size 3"):
        la.cross(ma.ones(2), ma.ones(2))


@pytest.mark.parametrize("shapes", [[(4, 5), (5, 2)], [(10, 2), (2, 30), (30, 3), (3, 8)], [(5,), (5, 6), (6,)],
                                    [(3,), (3, 4), (4, 2)], [(3, 4), (4,)]])
def test_multi_dot(shapes: list[tuple[int, ...]]) -> None:
    arrs = [rand(s, "float64", seed=i) for i, s in enumerate(shapes)]
    close(la.multi_dot([ma.asarray(x) for x in arrs]), np.linalg.multi_dot(arrs), "float64", scale=100)


def test_multi_dot_errors() -> None:
    with pytest.raises(ValueError):
        la.multi_dot([ma.ones((2, 2))])
    with pytest.raises(ValueError, match="chain"):
        la.multi_dot([ma.ones((2, 3)), ma.ones((2, 3))])


# ---- bad input --------------------------------------------------------------------------

@pytest.mark.parametrize("fname", ["det", "slogdet", "inv", "cholesky", "eigh", "eigvalsh", "eig", "eigvals"])
def test_square_functions_reject_bad_shapes(fname: str) -> None:
    f = getattr(la, fname)
    with pytest.raises(la.LinAlgError, match="square"):
        f(ma.ones((2, 3)))
    with pytest.raises(la.LinAlgError, match="ndim >= 2"):
        f(ma.ones(3))
    with pytest.raises(TypeError, match="float16"):
        f(ma.ones((2, 2), dtype=ma.float16))


def test_solve_rejects_mismatched_shapes() -> None:
    with pytest.raises(ValueError, match="rows"):
        la.solve(ma.ones((3, 3)), ma.ones((4, 2)))
    with pytest.raises(ValueError, match="broadcast"):
        la.solve(ma.ones((2, 3, 3)), ma.ones((4, 3, 1)))
    with pytest.raises(la.LinAlgError, match="square"):
        la.solve(ma.ones((3, 2)), ma.ones(3))


def test_integer_input_computes_in_float64() -> None:
    a = ma.asarray([[2, 0], [0, 4]])
    r = la.inv(a)
    assert r.dtype == ma.float64
    np.testing.assert_array_equal(np.asarray(r), [[0.5, 0.0], [0.0, 0.25]])
    # det is sign * exp(log|det|), as NumPy computes it: 7.999999999999998
    assert la.det(a).dtype == ma.float64 and float(la.det(a)) == float(np.linalg.det(np.asarray(a)))


@settings(max_examples=40, deadline=None)
@given(batch=st.lists(st.integers(0, 3), max_size=2), n=st.integers(0, 6), dtype=st.sampled_from(FLOATS),
       seed=st.integers(0, 2**32 - 1))
def test_solve_inverse_roundtrip(batch: list[int], n: int, dtype: str, seed: int) -> None:
    shape = (*batch, n, n)
    a = rand(shape, dtype, seed) + 4 * np.eye(n, dtype=dtype)  # diagonally dominant: well conditioned
    b = rand((*shape[:-1], 2), dtype, seed + 1)
    close(la.solve(ma.asarray(a), ma.asarray(b)), np.linalg.solve(a, b), dtype, scale=10)
    close(la.inv(ma.asarray(a)), np.linalg.inv(a), dtype, scale=10)
    close(la.det(ma.asarray(a)), np.linalg.det(a), dtype, scale=10.0 ** n)


def test_rtol_array_broadcasts_over_the_stack() -> None:
    a = rand((3, 4, 4), "float64")
    a[1] = a[1, :, :1] * np.ones(4)  # rank 1
    rtol = np.array([1e-12, 1e-12, 2.0])  # the last: nothing survives 2 x the largest value
    got = la.matrix_rank(ma.asarray(a), rtol=ma.asarray(rtol))
    np.testing.assert_array_equal(np.asarray(got), np.linalg.matrix_rank(a, rtol=rtol))
    close(la.pinv(ma.asarray(a), rtol=ma.asarray(rtol)), np.linalg.pinv(a, rtol=rtol), "float64", scale=1e3)


def test_missing_library_gives_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_blas, "load_error", "the scipy-openblas64 package is not installed")
    with pytest.raises(RuntimeError, match="inv needs LAPACK: the scipy-openblas64 package"):
        la.inv(ma.eye(2))


# ---- NumPy's keywords: svd(compute_uv, hermitian), eigh(UPLO), pinv(rcond,
# hermitian), matrix_rank(tol, hermitian), tensorinv, tensorsolve ---------------------


def hermitian(shape: tuple[int, ...], dtype: str, seed: int = 0) -> np.ndarray:
    """Hermitian, indefinite (eigenvalues of both signs, distinct magnitudes)."""
    x = rand(shape, dtype, seed)
    return ((x + np.conj(np.swapaxes(x, -1, -2))) / 2).astype(dtype)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(5, 3), (3, 3), (2, 4, 6)])
def test_svd_compute_uv_false(dtype: str, shape: tuple[int, ...]) -> None:
    a = rand(shape, dtype)
    close(la.svd(ma.asarray(a), compute_uv=False), np.linalg.svd(a, compute_uv=False), dtype)
    u, s, vh = la.svd(ma.asarray(a), False)  # full_matrices positionally, as NumPy allows
    eu, es, evh = np.linalg.svd(a, False)
    assert u.shape == eu.shape and vh.shape == evh.shape
    close(s, es, dtype)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(1, 1), (4, 4), (3, 5, 5)])
def test_svd_hermitian(dtype: str, shape: tuple[int, ...]) -> None:
    a = hermitian(shape, dtype)
    close(la.svd(ma.asarray(a), hermitian=True, compute_uv=False),
          np.linalg.svd(a, hermitian=True, compute_uv=False), dtype)
    got, want = la.svd(ma.asarray(a), hermitian=True), np.linalg.svd(a, hermitian=True)
    close(got.S, want.S, dtype)
    # the eigenvectors' phases are LAPACK's in both: compare U and Vh as they come
    close(got.U, want.U, dtype, scale=10)
    close(got.Vh, want.Vh, dtype, scale=10)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("uplo", ["L", "U", "l", "u"])
def test_eigh_uplo(dtype: str, uplo: str) -> None:
    """Only the triangle named is read: the other holds garbage."""
    a = hermitian((3, 4, 4), dtype)
    garbage = a + np.triu(rand((3, 4, 4), dtype, 1), 1) if uplo in "Ll" else a + np.tril(rand((3, 4, 4), dtype, 1), -1)
    w, v = la.eigh(ma.asarray(garbage), UPLO=uplo)
    ew, ev = np.linalg.eigh(garbage, UPLO=uplo)
    close(w, ew, dtype)
    close(la.eigvalsh(ma.asarray(garbage), UPLO=uplo), np.linalg.eigvalsh(garbage, UPLO=uplo), dtype)
    close(ma.asarray(np.abs(np.asarray(v))), np.abs(ev), dtype, scale=10)


def test_eigh_bad_uplo() -> None:
    for f, g in ((la.eigh, np.linalg.eigh), (la.eigvalsh, np.linalg.eigvalsh)):
        with pytest.raises(ValueError) as want:
            g(np.eye(2), UPLO="X")
        with pytest.raises(ValueError) as got:
            f(ma.eye(2), UPLO="X")
        assert str(got.value) == str(want.value)


@pytest.mark.parametrize("dtype", FLOATS)
def test_pinv_keywords(dtype: str) -> None:
    a = rand((2, 5, 3), dtype)
    for kw in ({}, {"rcond": 0.5}, {"rtol": 0.5}, {"rtol": None}, {"rcond": 1e-3}):
        close(la.pinv(ma.asarray(a), **kw), np.linalg.pinv(a, **kw), dtype, scale=100)
    close(la.pinv(ma.asarray(a), 0.5), np.linalg.pinv(a, 0.5), dtype, scale=100)
    close(la.pinv(ma.asarray(a), rcond=ma.asarray([0.5, 1e-3])), np.linalg.pinv(a, rcond=np.array([0.5, 1e-3])),
          dtype, scale=100)
    h = hermitian((4, 4), dtype)
    close(la.pinv(ma.asarray(h), hermitian=True), np.linalg.pinv(h, hermitian=True), dtype, scale=100)
    with pytest.raises(ValueError, match=re.escape("`rtol` and `rcond` can't be both set.")):
        la.pinv(ma.asarray(a), rcond=0.1, rtol=0.1)
    with pytest.raises(ValueError, match=re.escape("`rtol` and `rcond` can't be both set.")):
        np.linalg.pinv(a, rcond=0.1, rtol=0.1)


def test_pinv_default_cutoff_is_numpys() -> None:
    """NumPy's default cutoff is 1e-15 relative, not the Array API's
    max(M, N) * eps (1.8e-15 here): a singular value between the two is
    kept by default (a huge pseudo-inverse) and dropped with rtol=None."""
    rng = np.random.default_rng(3)
    u, _ = np.linalg.qr(rng.standard_normal((8, 8)))
    v, _ = np.linalg.qr(rng.standard_normal((8, 8)))
    a = (u * np.array([1.0, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 1.4e-15])) @ v.T
    for kw, big in (({}, True), ({"rtol": None}, False)):
        got, want = np.linalg.norm(np.asarray(la.pinv(ma.asarray(a), **kw))), np.linalg.norm(np.linalg.pinv(a, **kw))
        assert (got > 1e13) == (want > 1e13) == big, (kw, got, want)


@pytest.mark.parametrize("dtype", FLOATS)
def test_matrix_rank_keywords(dtype: str) -> None:
    a = rand((3, 5, 4), dtype)
    low = a[..., :2] @ rand((3, 2, 4), dtype, 2)  # rank 2
    for kw in ({}, {"tol": 1e-3}, {"tol": 10.0}, {"rtol": 0.5}, {"hermitian": False}):
        np.testing.assert_array_equal(np.asarray(la.matrix_rank(ma.asarray(low), **kw)),
                                      np.linalg.matrix_rank(low, **kw))
    np.testing.assert_array_equal(np.asarray(la.matrix_rank(ma.asarray(low), 1e-3)),
                                  np.linalg.matrix_rank(low, 1e-3))
    tols = np.array([1e-3, 10.0, 1.0])
    np.testing.assert_array_equal(np.asarray(la.matrix_rank(ma.asarray(low), tol=ma.asarray(tols))),
                                  np.linalg.matrix_rank(low, tol=tols))
    h = hermitian((2, 4, 4), dtype)
    np.testing.assert_array_equal(np.asarray(la.matrix_rank(ma.asarray(h), hermitian=True)),
                                  np.linalg.matrix_rank(h, hermitian=True))
    with pytest.raises(ValueError, match=re.escape("`tol` and `rtol` can't be both set.")):
        la.matrix_rank(ma.asarray(a), tol=1.0, rtol=1.0)


@pytest.mark.parametrize("x", [[1.0, 0.0], [0.0, 0.0], 3.0, 0.0], ids=["vector", "zero-vector", "scalar", "zero"])
def test_matrix_rank_of_vectors_is_an_int(x: Any) -> None:
    got, want = la.matrix_rank(x), np.linalg.matrix_rank(np.asarray(x))
    assert type(got) is int and got == want


@pytest.mark.parametrize("shape, ind", [((4, 6, 8, 3), 2), ((24, 4, 6), 1), ((2, 3, 6), 2)])
def test_tensorinv(shape: tuple[int, ...], ind: int) -> None:
    a = rand(shape, "float64")
    close(la.tensorinv(ma.asarray(a), ind), np.linalg.tensorinv(a, ind), "float64", scale=1e3)
    close(la.tensorinv(a.tolist(), ind=ind), np.linalg.tensorinv(a, ind=ind), "float64", scale=1e3)


def test_tensorinv_errors() -> None:
    with pytest.raises(ValueError, match=re.escape("Invalid ind argument.")):
        la.tensorinv(ma.ones((2, 2)), 0)
    with pytest.raises(la.LinAlgError):
        la.tensorinv(ma.ones((2, 3)), 1)


@pytest.mark.parametrize("ashape, bshape, axes", [((6, 2, 3), (6,), None), ((2, 3, 6), (2, 3), None),
                                                  ((3, 2, 6), (6,), (0, 1)), ((2, 3, 2, 3), (2, 3), None)])
def test_tensorsolve(ashape: tuple[int, ...], bshape: tuple[int, ...], axes: Any) -> None:
    a, b = rand(ashape, "float64"), rand(bshape, "float64", 1)
    close(la.tensorsolve(ma.asarray(a), ma.asarray(b), axes), np.linalg.tensorsolve(a, b, axes), "float64",
          scale=1e3)


def test_tensorsolve_errors() -> None:
    with pytest.raises(la.LinAlgError, match="Input arrays must satisfy the requirement"):
        la.tensorsolve(ma.ones((2, 3, 4)), ma.ones((2,)))
