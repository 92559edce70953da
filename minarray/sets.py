"""Set functions: the unique_* family."""

from __future__ import annotations

__all__: list[str] = []
