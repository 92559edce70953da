"""Load the compiled core.

`core` is the extension module: cffi's `ffi`/`lib` for plain C functions,
plus the CPython functions the core installs into it at import (see
csrc/pyapi.h).  Everything else in minarray reaches C through this module.
"""

from __future__ import annotations

from typing import Any

from minarray import _core

ffi: Any = _core.ffi
lib: Any = _core.lib

if lib.ma_install(b"minarray._core") != 0:  # pragma: no cover - build defect
    raise ImportError("minarray._core could not install its functions")

core: Any = _core
