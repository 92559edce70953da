"""The Array API elementwise functions: resolve dtypes and shapes, allocate, one C call."""

from __future__ import annotations

__all__: list[str] = []
