"""Namespace inspection: __array_namespace_info__, finfo, iinfo, constants."""

from __future__ import annotations

__all__: list[str] = []
