"""Array manipulation that copies: concat, stack, tile, repeat, roll, take..."""

from __future__ import annotations

__all__: list[str] = []
