"""DLPack: export, import, from_pointer, describe, asdlpack, typing protocols."""

from __future__ import annotations

__all__: list[str] = []
