"""Constants (Array API "Constants"): ``e``, ``inf``, ``nan``, ``newaxis``
and ``pi``; and NumPy's ``euler_gamma``.
"""

from __future__ import annotations

import math

__all__ = [
    "e", "inf", "nan", "newaxis", "pi", "euler_gamma",
]


e: float = math.e


inf: float = math.inf


nan: float = math.nan


pi: float = math.pi


newaxis: None = None


# The constant NumPy has beyond the standard's e, pi, inf and nan.
euler_gamma: float = 0.5772156649015329
