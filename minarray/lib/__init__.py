"""``ma.lib``: NumPy's ``numpy.lib`` sub-modules minarray has, so that
``np.lib.stride_tricks.sliding_window_view(x, 3)`` and ``from
numpy.lib.stride_tricks import as_strided`` run with ``ma`` for ``np``."""

from __future__ import annotations

from minarray.lib import stride_tricks

__all__ = ["stride_tricks"]
