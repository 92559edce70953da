"""NumPy's counting and binning routines (minarray/_histograms.py:
bincount, histogram, digitize) against NumPy, with the sizes past int64
they refuse as NumPy does."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from numpy_errors import raises_as_numpy
from numpy_oracle import both, same

import minarray as ma

# ---- NumPy's counting and binning routines -----------------------------------------------

def test_searching_and_counting_match_numpy() -> None:
    rng = np.random.default_rng(4)
    a = rng.integers(0, 3, (4, 5))
    for fn in ("argwhere", "flatnonzero"):
        got, expected = both(fn, a)
        same(got, expected.astype(np.int64))
    same(ma.argwhere(ma.asarray(0)), np.argwhere(np.array(0)).astype(np.int64))
    same(ma.extract(ma.asarray(a > 0), ma.asarray(a)), np.extract(a > 0, a))
    v = rng.integers(0, 9, 40)
    for kw in ({}, {"minlength": 12}, {"weights": rng.random(40)}):
        got, expected = both("bincount", v, **kw)
        same(got, expected, ulps=8)
    f = rng.standard_normal(50)
    for kw in ({}, {"bins": 7}, {"bins": [-2, -1, 0, 0.5, 3]}, {"range": (-1, 1)}, {"density": True},
               {"weights": rng.random(50)}, {"bins": 3, "range": (0.0, 0.0)}):
        got, expected = both("histogram", f, **kw)
        same(got, expected, ulps=8)
    for bins in ([0.0, 0.5, 1.5], [1.5, 0.5, 0.0]):
        for right in (False, True):
            got, expected = both("digitize", f, bins, right=right)
            same(got, expected.astype(np.int64))
    got, expected = both("lexsort", (v % 3, v % 2))
    same(got, expected)


@pytest.mark.parametrize("case", ["one value", "reversed", "strided", "uint8", "bool", "empty", "largest first"])
def test_bincount_range_pass_matches_numpy(case: str) -> None:
    """bincount's one pass for the least and greatest value: bins, counts
    and the refusal of a negative value as NumPy's, whatever the layout."""
    v = {"one value": np.array([7]), "reversed": np.arange(9)[::-1], "strided": np.arange(20)[::3],
         "uint8": np.array([3, 250, 3], dtype=np.uint8), "bool": np.array([True, False, True]),
         "empty": np.array([], dtype=np.int64), "largest first": np.array([40, 1, 0, 2])}[case]
    same(ma.bincount(ma.asarray(v)), np.bincount(v))
    same(ma.bincount(ma.asarray(v), minlength=45), np.bincount(v, minlength=45))
    if v.dtype == np.int64 and v.size:
        w = v.copy()
        w[-1] = -1
        with pytest.raises(ValueError, match="negative"):
            np.bincount(w)
        with pytest.raises(ValueError, match="'list' argument must have no negative elements"):
            ma.bincount(ma.asarray(w))


# ---- sizes past int64 ------------------------------------------------------------------

SIZES_TOO_LARGE = {
    "histogram bins 2**62": (lambda m: m.histogram(m.asarray([1.0, 2.0]), bins=2**62), "too large"),
    "histogram bins 2**40": (lambda m: m.histogram(m.asarray([1.0, 2.0]), bins=2**40), "unable to allocate"),
    "histogram bins 2**64": (lambda m: m.histogram(m.asarray([1.0, 2.0]), bins=2**64), "does not fit in 64 bits"),
    "bincount minlength 2**62": (lambda m: m.bincount(m.asarray([1]), minlength=2**62), "too large"),
    "bincount minlength past int64": (lambda m: m.bincount(m.asarray([1]), minlength=2**63),
                                      "does not fit in a 64-bit integer"),
}


@pytest.mark.parametrize("case", SIZES_TOO_LARGE.values(), ids=SIZES_TOO_LARGE.keys())
def test_histogram_sizes_past_int64_raise_as_numpy(case: tuple[Any, str]) -> None:
    call, match = case
    raises_as_numpy(call, match)


def test_histogram_bins_2_63_is_value_error() -> None:
    """NumPy's IndexError here comes from an empty linspace (its arange
    misreads 2**63); minarray refuses the shape."""
    with pytest.raises(ValueError, match="does not fit in 64 bits"):
        ma.histogram(ma.asarray([1.0, 2.0]), bins=2**63)


# ---- histogram2d and histogramdd ---------------------------------------------------------

def _same_dd(got: Any, expected: Any) -> None:
    hist, edges = got
    nhist, nedges = expected
    same(hist, nhist, ulps=16)
    assert len(edges) == len(nedges)
    for e, ne in zip(edges, nedges, strict=True):
        same(e, ne, ulps=4)


RNG = np.random.default_rng(32)
POINTS = RNG.normal(size=(200, 3))
WEIGHTS = RNG.random(200)
DD_CASES: dict[str, tuple[Any, dict[str, Any]]] = {
    "default": (POINTS, {}),
    "int-bins": (POINTS, {"bins": 4}),
    "per-axis-bins": (POINTS, {"bins": [2, 3, 5]}),
    "mixed-edges": (POINTS, {"bins": [3, np.array([-1.0, 0.0, 0.5, 2.0]), 2]}),
    "range": (POINTS, {"bins": 3, "range": [(-1, 1), None, (0, 3)]}),
    "density": (POINTS, {"bins": [3, 4, 2], "density": True}),
    "weights": (POINTS, {"bins": 3, "weights": WEIGHTS}),
    "weights-density": (POINTS, {"bins": 3, "weights": WEIGHTS, "density": True}),
    "int-weights": (POINTS[:, :2], {"bins": 2, "weights": np.arange(200)}),
    "float32": (POINTS.astype(np.float32), {"bins": 3}),
    "ints": (RNG.integers(0, 5, (50, 2)), {"bins": 5}),
    "one-axis": (POINTS[:, 0], {"bins": 6}),
    "empty": (np.zeros((0, 2)), {"bins": 2}),
    "constant": (np.ones((5, 2)), {"bins": 2}),
    "outside-and-edges": (np.array([[0.0, 1.0], [1.0, 1.0], [2.0, 0.5], [-1.0, 0.0]]), {"bins": [[0, 0.5, 1]] * 2}),
    "nan-with-range": (np.array([[np.nan, 0.5], [0.2, 0.3]]), {"bins": 2, "range": [(0, 1), (0, 1)]}),
}


@pytest.mark.parametrize("name", sorted(DD_CASES))
def test_histogramdd_matches_numpy(name: str) -> None:
    sample, kwargs = DD_CASES[name]
    expected = np.histogramdd(sample, **kwargs)
    mk = {k: ma.asarray(v) if isinstance(v, np.ndarray) else v for k, v in kwargs.items()}
    if isinstance(mk.get("bins"), list):
        mk["bins"] = [ma.asarray(b) if isinstance(b, np.ndarray) else b for b in mk["bins"]]
    _same_dd(ma.histogramdd(ma.asarray(sample), **mk), expected)
    if sample.ndim == 2:  # the other spelling: D sequences of N coordinates
        _same_dd(ma.histogramdd([ma.asarray(sample[:, i]) for i in range(sample.shape[1])], **mk), expected)


H2_CASES: dict[str, dict[str, Any]] = {
    "default": {}, "count": {"bins": 4}, "pair": {"bins": (3, 5)}, "edges-for-both": {"bins": [-2, -1, 0, 1, 2]},
    "pair-of-edges": {"bins": [np.array([-1.0, 0.0, 1.0]), 4]}, "range": {"bins": 2, "range": [[-1, 1], [-2, 0]]},
    "density-weights": {"bins": 3, "density": True, "weights": WEIGHTS},
}


@pytest.mark.parametrize("name", sorted(H2_CASES))
def test_histogram2d_matches_numpy(name: str) -> None:
    kwargs = H2_CASES[name]
    x, y = POINTS[:, 0], POINTS[:, 1]
    h, xe, ye = np.histogram2d(x, y, **kwargs)
    mk = dict(kwargs)
    if "weights" in mk:
        mk["weights"] = ma.asarray(mk["weights"])
    if isinstance(mk.get("bins"), list):
        mk["bins"] = [ma.asarray(b) if isinstance(b, np.ndarray) else b for b in mk["bins"]]
    got = ma.histogram2d(ma.asarray(x), ma.asarray(y), **mk)
    _same_dd((got[0], got[1:]), (h, (xe, ye)))
    lists = ma.histogram2d([1, 2, 3], [1, 2, 2], bins=2)  # array-likes
    expected = np.histogram2d([1, 2, 3], [1, 2, 2], bins=2)
    _same_dd((lists[0], lists[1:]), (expected[0], expected[1:]))


def test_histogramdd_refuses_as_numpy() -> None:
    pts = np.ones((3, 2))

    def on(m: Any) -> Any:
        return pts if m is np else ma.asarray(pts)

    raises_as_numpy(lambda m: m.histogramdd(on(m), bins=[2, 2, 2]), "dimension of bins")
    raises_as_numpy(lambda m: m.histogramdd(on(m), bins=[0, 2]), "must be positive")
    raises_as_numpy(lambda m: m.histogramdd(on(m), bins=[2.5, 2]), "must be an integer")
    raises_as_numpy(lambda m: m.histogramdd(on(m), bins=[[1, 0], 2]), "monotonically increasing")
    raises_as_numpy(lambda m: m.histogramdd(on(m), bins=[[[1, 0]], 2]), "scalar or 1d array")
    raises_as_numpy(lambda m: m.histogramdd(on(m), range=[(0, 1)]), "one entry per dimension")
    raises_as_numpy(lambda m: m.histogramdd(on(m), weights=m.asarray([1.0, 2.0])), "same length")
    raises_as_numpy(lambda m: m.histogramdd(m.asarray([[np.nan, 1.0]])), "not finite")
    raises_as_numpy(lambda m: m.histogram2d(m.asarray([1.0, 2.0]), m.asarray([1.0, 2.0, 3.0])), "same length")


def test_histogramdd_sample_spellings_promote_as_numpy() -> None:
    x, y = np.array([1, 5, 3]), np.array([0.5, 0.25, 2.0], np.float32)
    _same_dd(ma.histogramdd([ma.asarray(x), ma.asarray(y)], bins=2), np.histogramdd([x, y], bins=2))
    _same_dd(ma.histogramdd([1.0, 2.0, 2.5], bins=3), np.histogramdd([1.0, 2.0, 2.5], bins=3))
    _same_dd(ma.histogramdd([[1, 2], [3, 4], [5, 6]], bins=2), np.histogramdd([[1, 2], [3, 4], [5, 6]], bins=2))
    got, expected = ma.histogram2d(ma.asarray(x), ma.asarray(y), bins=2), np.histogram2d(x, y, bins=2)
    _same_dd((got[0], got[1:]), (expected[0], expected[1:]))


# ---- NumPy's bin-width estimators: bins="auto", "fd", ... -------------------------

ESTIMATORS = ["auto", "fd", "doane", "scott", "stone", "rice", "sturges", "sqrt"]


def _estimator_data() -> dict[str, np.ndarray]:
    rng = np.random.default_rng(11)
    return {
        "normal": rng.normal(size=1000), "ints": rng.integers(0, 50, size=300), "range": np.arange(10),
        "one": np.array([3.0]), "float32": rng.exponential(size=200).astype(np.float32),
        "empty": np.array([], dtype=float), "ties": np.array([1, 1, 1, 2]), "skewed": rng.lognormal(size=400),
    }


ESTIMATOR_DATA = _estimator_data()


@pytest.mark.filterwarnings("ignore:The number of bins estimated may be suboptimal:RuntimeWarning")
@pytest.mark.parametrize("data", sorted(ESTIMATOR_DATA))
@pytest.mark.parametrize("name", ESTIMATORS)
@pytest.mark.parametrize("range_", [None, (0, 1), (2, 2)], ids=["data", "unit", "point"])
def test_string_bins_match_numpy(name: str, data: str, range_: Any) -> None:
    x = ESTIMATOR_DATA[data]
    expected = np.histogram_bin_edges(x, bins=name, range=range_)
    got = ma.histogram_bin_edges(ma.asarray(x), bins=name, range=range_)
    assert str(got.dtype) == str(expected.dtype)
    # the number of bins is exact; float32 edges may differ from NumPy's in
    # their last bit (minarray's linspace steps in float64, NumPy's in float32)
    rtol = 1e-6 if expected.dtype == np.float32 else 1e-12
    np.testing.assert_allclose(np.asarray(got), expected, rtol=rtol)
    counts, edges = np.histogram(x, bins=name, range=range_)
    got_counts, got_edges = ma.histogram(ma.asarray(x), bins=name, range=range_)
    if data != "float32":  # (a value on a float32 edge may then change bins)
        np.testing.assert_array_equal(np.asarray(got_counts), counts)
    np.testing.assert_allclose(np.asarray(got_edges), edges, rtol=rtol)


def test_string_bins_errors_as_numpy() -> None:
    raises_as_numpy(lambda xp: xp.histogram(xp.arange(5), bins="nonsense"), "not a valid estimator")
    raises_as_numpy(lambda xp: xp.histogram(xp.arange(5), bins="auto", weights=xp.ones(5)),
                    "not supported for weighted data")
    raises_as_numpy(lambda xp: xp.histogram_bin_edges(xp.arange(5), bins="fd", range=(3, 1)),
                    "max must be larger than min")


def test_stone_warns_at_its_upper_bound_as_numpy() -> None:
    x = np.linspace(0, 1, 5000) ** 3
    with pytest.warns(RuntimeWarning, match="suboptimal"):
        expected = np.histogram_bin_edges(x, bins="stone")
    with pytest.warns(RuntimeWarning, match="suboptimal"):
        got = ma.histogram_bin_edges(ma.asarray(x), bins="stone")
    np.testing.assert_allclose(np.asarray(got), expected, rtol=1e-12)
