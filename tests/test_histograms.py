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
