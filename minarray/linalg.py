"""Linear algebra core: matmul, tensordot, vecdot, outer."""

from __future__ import annotations

__all__: list[str] = []
