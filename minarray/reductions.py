"""Reductions and statistics over axes."""

from __future__ import annotations

__all__: list[str] = []
