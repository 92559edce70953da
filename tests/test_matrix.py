"""``ma.matrix`` against ``numpy.matrix``: the same expression on both, the
same kind of result (a matrix or not), shape, values and text.

NumPy's matrix warns PendingDeprecationWarning on construction; both
libraries' warnings are silenced here, except in the test that checks
minarray warns as NumPy does.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

import minarray as ma

pytestmark = pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")


def _pair(data: Any, dtype: Any = None) -> tuple[Any, Any]:
    return ma.matrix(data, dtype=dtype), np.matrix(data, dtype=dtype)


def _same(got: Any, want: Any) -> None:
    """The same kind of result (a matrix, another array, a scalar), shape and values."""
    assert isinstance(got, ma.matrix) == isinstance(want, np.matrix), (type(got), type(want))
    assert ma.isscalar(got) == np.isscalar(want), (type(got), type(want))
    assert np.shape(got) == np.shape(want)
    got_values = np.asarray(ma.asarray(got)) if isinstance(got, ma.ndarray) else got
    np.testing.assert_allclose(got_values, np.asarray(want), rtol=1e-12, atol=1e-12)


# (name, expression over `m` (a 2x2 integer matrix), `f` (a 2x3 float one)
# and `xp` (minarray or numpy))
EXPRESSIONS = [
    "m * m", "m * 2", "2 * m", "m * [[1], [2]]", "xp.asarray([[1, 2]]) * m", "f.T * m", "m ** 2", "m ** 0",
    "m + 1", "m - m", "m / 2", "-m", "m == m", "m @ m", "xp.dot(m, f)", "abs(m)",
    "m.T", "m.H", "(m * 1j).H", "f.I", "m.I", "m.A", "m.A1", "m.getA()", "m.getA1()", "m.getT()", "m.getH()",
    "m.getI()",
    "m[0]", "m[1, :]", "m[:, 0]", "m[0, 1]", "m[:, [0, 1]]", "m[[1, 0]]", "m[m > 1]", "m[0:1]", "f[:, 1:]",
    "f[..., 0]", "list(m)[1]", "m[None]",
    "m.sum()", "m.sum(0)", "m.sum(1)", "m.sum(axis=1)", "f.mean()", "f.mean(0)", "f.mean(1)", "f.std(0)",
    "f.var(1, ddof=1)", "m.prod(1)", "m.max()", "m.max(0)", "m.min(1)", "m.ptp(0)", "m.ptp()", "m.any(1)",
    "m.all()", "m.argmax()", "m.argmax(0)", "m.argmin(1)",
    "xp.sum(m)", "xp.sum(m, axis=1)", "xp.mean(f, axis=0)", "xp.max(m, axis=1)", "xp.all(m > 0, axis=1)",
    "m.ravel()", "m.flatten()", "m.reshape(-1)", "m.reshape(4, 1)", "m.squeeze()", "f.transpose()",
    "m.astype(float)", "m.copy()", "m.diagonal()", "m.tolist()", "m.conj()", "xp.sort(f)", "xp.cumsum(m)",
    "xp.take(m, [0, 3])", "xp.where(m > 1, m, 0)", "xp.sqrt(abs(f))",
    "xp.linalg.inv(f[:, :2])", "xp.linalg.det(f[:, :2])", "xp.linalg.pinv(f)", "xp.linalg.solve(m, m)",
    "xp.linalg.solve(m, xp.asarray([1.0, 2.0]))", "xp.linalg.eigh(m + m.T)[0]", "xp.linalg.eigh(m + m.T)[1]",
    "xp.linalg.cholesky(m * m.T)",
    "xp.matrix('1 2; 3 4')", "xp.matrix('[1, 2.5; 3, 4]')", "xp.matrix([1, 2, 3])", "xp.matrix(5)",
    "xp.matrix([[1, 2]], dtype=float)", "xp.matrix(xp.arange(6))", "xp.matrix(xp.arange(6).reshape(1, 2, 3))",
    "xp.asmatrix([[1.0, 2.0]])", "xp.bmat([[m, m], [m, m]])", "xp.bmat([m, m])", "xp.bmat('m, m; m, m')",
    "xp.bmat('m f', ldict={'m': f})",
    "xp.r_['r', [1, 2, 3], [4, 5, 6]]", "xp.r_['c', [1, 2, 3], [4, 5, 6]]", "xp.r_['r', m, m]",
]


def _eval(expr: str, xp: Any) -> Any:
    m = xp.matrix([[1, 2], [3, 4]])
    f = xp.matrix([[1.0, 2.5, -1.0], [0.5, 3.0, 2.0]])
    return eval(expr, {"xp": xp, "m": m, "f": f})


@pytest.mark.parametrize("expr", EXPRESSIONS)
def test_expression_as_numpy(expr: str) -> None:
    _same(_eval(expr, ma), _eval(expr, np))


def test_errors_as_numpy() -> None:
    for xp in (ma, np):
        with pytest.raises(ValueError, match="matrix must be 2-dimensional"):
            xp.matrix([[[1, 2], [3, 4]]] * 2)
        with pytest.raises(ValueError, match="Rows not the same size"):
            xp.matrix("1 2; 3")
        with pytest.raises(ValueError, match="shape too large to be a matrix"):
            xp.matrix(xp.ones((2, 2, 2)))
        with pytest.raises(ValueError, match=r"shapes|mismatch|not aligned"):
            xp.matrix([[1, 2, 3]]) * xp.matrix([[1, 2]])


@pytest.mark.parametrize("data", [[[1, 2], [3, 4]], [[1.5, -2.0, 3.25]], [[1 + 2j], [3 - 1j]], [[True, False]],
                                  [[1e10, 1.0], [2.0, 3.0]], [[100, 2000, 3]]])
def test_repr_and_str_as_numpy(data: Any) -> None:
    m, n = _pair(data)
    assert repr(m) == repr(n)
    assert str(m) == str(n)


def test_construction_warns_as_numpy() -> None:
    for xp in (ma, np):
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            xp.matrix([[1, 2]])
        assert [w.category for w in seen] == [PendingDeprecationWarning]
        assert "the matrix subclass is not the recommended way" in str(seen[0].message)


def test_copy_and_views_share_memory_as_numpy() -> None:
    base = ma.arange(4.0).reshape(2, 2)
    view = ma.asmatrix(base)
    view[0, 0] = 9.0
    assert float(base[0, 0]) == 9.0  # asmatrix: no copy
    copied = ma.matrix(base)
    copied[0, 0] = -1.0
    assert float(base[0, 0]) == 9.0  # matrix(): a copy by default
    m = ma.matrix([[1, 2], [3, 4]])
    assert ma.asmatrix(m) is m
    m *= m  # in place: the matrix product written back
    np.testing.assert_array_equal(np.asarray(m.A), [[7, 10], [15, 22]])


def test_iteration_gives_rows() -> None:
    rows = list(ma.matrix([[1, 2], [3, 4]]))
    assert all(type(r) is ma.matrix and r.shape == (1, 2) for r in rows)


@pytest.mark.parametrize("shape", [(1, 4), (4, 1), (4,), (4, 1, 1), (2, 2, 1), (1, 1, 4), ()], ids=str)
def test_assigning_a_shape_keeps_a_matrix_2d(shape: tuple[int, ...]) -> None:
    """NumPy finalizes the view a shape assignment makes: a 1-d shape
    becomes a row, longer ones lose their axes of length 1."""
    got, want = _pair([[1, 2], [3, 4]])
    outcomes = []
    for m in (got, want):
        try:
            m.shape = shape
            outcomes.append(("ok", m.shape, np.asarray(m).tolist()))
        except ValueError:
            outcomes.append(("ValueError", None, None))
    assert outcomes[0] == outcomes[1]
