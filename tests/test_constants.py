"""The constants (minarray/_constants.py) against Python's math module."""

from __future__ import annotations

import math

import minarray as ma


def test_constants() -> None:
    assert ma.e == math.e and ma.pi == math.pi
    assert ma.inf == math.inf and math.isnan(ma.nan)
    assert ma.newaxis is None
    assert ma.ones((2, 3))[:, ma.newaxis].shape == (2, 1, 3)
    for c in (ma.e, ma.pi, ma.inf, ma.nan):
        assert type(c) is float
