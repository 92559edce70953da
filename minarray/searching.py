"""Searching: argmax, argmin, where, searchsorted, count_nonzero."""

from __future__ import annotations

__all__: list[str] = []
