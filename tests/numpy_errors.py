"""Comparing minarray's errors with NumPy's: the same call on both modules."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import minarray as ma


def raises_as_numpy(call: Callable[[Any], Any], match: str) -> None:
    """``call(np)`` raises; ``call(ma)`` raises the same exception type,
    with a message matching ``match`` (it says what was wrong)."""
    with pytest.raises(Exception) as expected:  # NumPy's type is what is compared
        call(np)
    # NumPy's own subclasses (its _ArrayMemoryError) compare as the builtin type they extend
    builtin = next(t for t in type(expected.value).__mro__ if t.__module__ == "builtins")
    with pytest.raises(builtin, match=match):
        call(ma)
