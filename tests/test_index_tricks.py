"""NumPy's index tricks (minarray/_index_tricks.py: r_, c_, s_, index_exp,
ndindex, ndenumerate) against NumPy; and the grids and meshes of the
other chapters a NumPy user reaches for with them (mgrid, ogrid, ix_)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from numpy_errors import raises_as_numpy
from numpy_oracle import same

import minarray as ma

# Keys as NumPy's docs and everyday code write them; each is indexed into
# np.r_/np.c_ and ma.r_/ma.c_ (NumPy arrays in a key become minarray's).
R_KEYS: dict[str, tuple[Any, ...]] = {
    "complex-step": (slice(0, 1, 5j),),
    "range-step": (slice(10, 0, -3),),
    "float-range": (slice(0.0, 1.0, 0.25),),
    "ranges-and-lists": (slice(1, 4), [7, 8], 9),
    "list-and-float": ([1, 2], 3.5),
    "linspace-and-scalars": (slice(-1, 1, 6j), [0, 0, 0], 5, 6),
    "weak-int-scalar": (np.array([1, 2], np.int8), 3),
    "weak-float-scalar": (np.array([1, 2], np.float32), 3.0),
    "promoted-arrays": (np.array([1, 2], np.int8), np.array([3], np.int64)),
    "bool-and-int": (True, 2),
    "numpy-scalar-strong": (np.int8(3), 4),
    "2d-arrays": (np.ones((2, 2)), np.zeros((1, 2))),
    "axis-directive": ("1", np.ones((2, 2)), np.zeros((2, 3))),
    "axis-ndmin": ("0,2", [1, 2, 3], [4, 5, 6]),
    "axis-ndmin-trans": ("0,2,0", [1, 2, 3], [4, 5, 6]),
    "axis-ndmin-trans-1": ("1,2,0", [1, 2, 3], [4, 5, 6]),
    "ndmin-3": ("0,3", [1, 2], [3, 4]),
    "negative-trans": ("-1,3,-2", [1, 2], [3, 4]),
    "slice-ndmin": ("0,2,0", slice(0, 3), [4, 5, 6]),
    "empty-list": ([], [1.0]),
    "complex": ([1j], 2),
}


def _ma_key(key: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple(ma.asarray(k) if isinstance(k, np.ndarray) else k for k in key)


@pytest.mark.parametrize("name", sorted(R_KEYS))
def test_r_matches_numpy(name: str) -> None:
    key = R_KEYS[name]
    same(ma.r_[_ma_key(key)], np.r_[key])


C_KEYS: dict[str, tuple[Any, ...]] = {
    "columns": (np.array([1, 2, 3]), np.array([4, 5, 6])),
    "rows-and-scalars": (np.array([[1, 2, 3]]), 0, 0, np.array([[4, 5, 6]])),
    "slice-and-list": (slice(1, 3), [5, 6]),
    "complex-step": (slice(0, 1, 3j), [7, 8, 9]),
    "matrix-and-column": (np.ones((3, 2)), np.arange(3)),
}


@pytest.mark.parametrize("name", sorted(C_KEYS))
def test_c_matches_numpy(name: str) -> None:
    key = C_KEYS[name]
    same(ma.c_[_ma_key(key)], np.c_[key])


def test_r_and_c_single_entries() -> None:
    same(ma.r_[0:4], np.r_[0:4])
    same(ma.r_[ma.asarray([1.5, 2.5])], np.r_[np.array([1.5, 2.5])])
    same(ma.c_[0:3], np.c_[0:3])


@pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")  # NumPy's np.matrix
@pytest.mark.parametrize(("directive", "shape"), [("r", (1, 6)), ("c", (6, 1))])
def test_matrix_directives_give_2d_arrays(directive: str, shape: tuple[int, int]) -> None:
    # NumPy gives an np.matrix; minarray, which has none, the same values as a 2-d array
    expected = np.asarray(np.r_[directive, [1, 2, 3], [4, 5, 6]])
    got = ma.r_[directive, [1, 2, 3], [4, 5, 6]]
    assert got.shape == shape == expected.shape
    same(got, expected)
    same(ma.r_["r", ma.ones((2, 2))], np.asarray(np.r_["r", np.ones((2, 2))]))


@pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")  # NumPy's np.matrix
def test_r_refuses_as_numpy() -> None:
    raises_as_numpy(lambda m: m.r_[[1], "0,2"], "first entry")
    raises_as_numpy(lambda m: m.r_["x,y", [1]], "directive")
    raises_as_numpy(lambda m: m.r_["0", ], "concatenate|directive")
    raises_as_numpy(lambda m: m.r_[()], "concatenate")
    raises_as_numpy(lambda m: m.r_[m.ones((2, 2)), m.ones(3)], "dimension|shape|match")
    raises_as_numpy(lambda m: m.r_["r", m.ones((2, 2, 2))], "2")


def test_s_and_index_exp() -> None:
    for key in ((slice(1, 2), slice(None, None, 3)), 2, Ellipsis, (None, 1), slice(None)):
        assert ma.s_[key] == np.s_[key]
        assert ma.index_exp[key] == np.index_exp[key]
    x = np.arange(24).reshape(4, 6)
    same(ma.asarray(x)[ma.s_[::2, 1:]], x[np.s_[::2, 1:]])
    same(ma.asarray(x)[ma.index_exp[1]], x[np.index_exp[1]])


@pytest.mark.parametrize("shape", [(2, 3), (3,), (), (2, 0, 3), (1, 1, 2)], ids=str)
def test_ndindex_matches_numpy(shape: tuple[int, ...]) -> None:
    assert list(ma.ndindex(*shape)) == list(np.ndindex(*shape))
    assert list(ma.ndindex(shape)) == list(np.ndindex(shape))
    it = ma.ndindex(*shape)
    assert iter(it) is it


def test_ndindex_refuses_as_numpy() -> None:
    raises_as_numpy(lambda m: m.ndindex(2, -1), "negative")
    raises_as_numpy(lambda m: m.ndindex(2.5), "integer|float")


@pytest.mark.parametrize("a", [np.arange(6).reshape(2, 3), np.array([1.5, -2.0]), np.array(7),
                               np.zeros((2, 0)), np.arange(8).reshape(2, 2, 2)[:, ::-1]],
                         ids=["2d", "1d", "0d", "empty", "strided"])
def test_ndenumerate_matches_numpy(a: np.ndarray) -> None:
    got = [(i, v.item()) for i, v in ma.ndenumerate(ma.asarray(a))]
    assert got == [(i, v.item()) for i, v in np.ndenumerate(a)]
    pairs = list(ma.ndenumerate(a.tolist()))  # an array-like
    assert [i for i, _ in pairs] == [i for i, _ in np.ndenumerate(a)]


# ---- the grids and meshes beside them, checked against NumPy -----------------------------

GRID_KEYS: dict[str, Any] = {
    "ints": (slice(0, 5), slice(0, 3)),
    "steps": (slice(-2, 7, 3), slice(5, 0, -2)),
    "complex-steps": (slice(0, 1, 3j), slice(-1, 1, 5j)),
    "floats": (slice(0.0, 1.0, 0.25), slice(0, 2)),
    "one-slice": slice(0, 5, 2),
    "one-complex": slice(1, 2, 4j),
    "one-point": (slice(3, 4, 1j),),
    "empty-ogrid-only": slice(3, 0),
}


@pytest.mark.parametrize("name", sorted(GRID_KEYS))
def test_mgrid_and_ogrid_match_numpy(name: str) -> None:
    key = GRID_KEYS[name]
    same(ma.mgrid[key], np.mgrid[key])
    got, expected = ma.ogrid[key], np.ogrid[key]
    if isinstance(expected, tuple):
        expected = list(expected)  # NumPy's ogrid gives a list of arrays for several slices
        got = list(got)
    same(got, expected)


def test_mgrid_refuses_as_numpy() -> None:
    raises_as_numpy(lambda m: m.mgrid[3:0, 0:2], "negative")


@pytest.mark.parametrize("args", [([0, 2], [1, 3]), ([True, False, True], [2]), (np.arange(3), [0, 1], [4])],
                         ids=["ints", "bools", "three"])
def test_ix_matches_numpy(args: tuple[Any, ...]) -> None:
    got = ma.ix_(*[ma.asarray(a) for a in args])
    expected = np.ix_(*args)
    same(list(got), list(expected))
    x = np.arange(5 ** len(args)).reshape((5,) * len(args))
    same(ma.asarray(x)[got], x[expected])
