"""ma.emath (minarray/emath.py) against numpy.emath: complex results
exactly where NumPy's are (decided by the values), the same dtypes
otherwise, for arrays, array-likes and scalars."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from numpy_oracle import same

import minarray as ma

INPUTS: dict[str, Any] = {
    "negative-float64": np.array([-4.0, 1.0, 4.0]), "positive-float32": np.array([0.5, 0.25], np.float32),
    "negative-float32": np.array([-0.5, 2.0], np.float32), "negative-int8": np.array([-3, 2], np.int8),
    "negative-int64": np.array([-3, 2]), "uint16": np.array([3, 1], np.uint16), "bool": np.array([True, False]),
    "negative-float16": np.array([-2.0, 3.0], np.float16), "beyond-one": np.array([2.0, -0.5]),
    "complex": np.array([1 + 1j, -2 + 0j]), "complex64": np.array([-1 + 0j], np.complex64),
    "2d-strided": np.arange(-6.0, 6.0).reshape(3, 4)[:, ::-2], "empty": np.zeros(0),
    "nan-and-inf": np.array([np.nan, np.inf, -np.inf]), "scalar-negative": -4, "scalar-float": 0.25,
    "list": [-1.0, 0.0, 1.0],
}
UNARY = ["sqrt", "log", "log2", "log10", "arccos", "arcsin", "arctanh"]


def _both(name: str, *args: Any) -> tuple[Any, Any]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # log(0) and friends, on both sides
        expected = getattr(np.emath, name)(*args)
        got = getattr(ma.emath, name)(*(ma.asarray(a) if isinstance(a, np.ndarray) else a for a in args))
    return got, np.asarray(expected)


@pytest.mark.parametrize("name", UNARY)
@pytest.mark.parametrize("case", sorted(INPUTS))
def test_unary_matches_numpy(name: str, case: str) -> None:
    got, expected = _both(name, INPUTS[case])
    assert isinstance(got, ma.NDArray)
    same(got, expected, ulps=8)


@pytest.mark.parametrize(("n", "x"), [(2, np.array([-8.0, 8.0])), (-2, np.array([8.0])), (10, 1000),
                                      (np.array([2, 3]), np.array([4, 9])), (2.0, np.array([4], np.float32))],
                         ids=["neg-x", "neg-base", "scalars", "arrays", "float32"])
def test_logn_matches_numpy(n: Any, x: Any) -> None:
    got, expected = _both("logn", n, x)
    same(got, expected, ulps=8)


@pytest.mark.parametrize(("x", "p"), [(np.array([-4, 4]), 0.5), (np.array([2, 4]), np.array([-1, 2])), (2, -1),
                                      (np.array([2, 3]), 2), (np.array([-8.0], np.float32), 1 / 3),
                                      (np.array([1 + 1j]), 2)],
                         ids=["neg-base", "neg-int-exponent", "scalars", "ints", "float32", "complex"])
def test_power_matches_numpy(x: Any, p: Any) -> None:
    got, expected = _both("power", x, p)
    same(got, expected, ulps=8)


def test_the_namespace() -> None:
    assert ma.emath.__all__ == ["sqrt", "log", "log2", "log10", "logn", "power", "arccos", "arcsin", "arctanh"]
    assert all(hasattr(np.emath, n) for n in ma.emath.__all__)
    with pytest.raises(TypeError, match="emath"):
        ma.emath.sqrt("four")
