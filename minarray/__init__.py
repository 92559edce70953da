"""minarray: a small NumPy-like array library whose memory comes from its own
C allocator and whose arrays speak DLPack natively.

    import minarray as ma
"""

from __future__ import annotations

import builtins as _builtins
from typing import Any

from minarray import dlpack, exceptions, fft, linalg
from minarray import random as random  # ma.random: NumPy's Generator, bit for bit
from minarray._native import core as _core
from minarray.bufferio import *  # noqa: F403
from minarray.bufferio import __all__ as _bufferio_all
from minarray.creation import *  # noqa: F403
from minarray.creation import __all__ as _creation_all
from minarray.dlpack import *  # noqa: F403
from minarray.dlpack import __all__ as _dlpack_all
from minarray.dtypes import (
    DType,
    bfloat16,
    bool,
    can_cast,
    complex32,
    complex64,
    complex128,
    float4_e2m1fn,
    float6_e2m3fn,
    float6_e3m2fn,
    float8_e3m4,
    float8_e4m3,
    float8_e4m3b11fnuz,
    float8_e4m3fn,
    float8_e4m3fnuz,
    float8_e5m2,
    float8_e5m2fnuz,
    float8_e8m0fnu,
    float16,
    float32,
    float64,
    int1,
    int2,
    int4,
    int8,
    int16,
    int32,
    int64,
    isdtype,
    result_type,
    uint1,
    uint2,
    uint4,
    uint8,
    uint16,
    uint32,
    uint64,
)
from minarray.elementwise import *  # noqa: F403
from minarray.elementwise import __all__ as _elementwise_all
from minarray.errstate import *  # noqa: F403
from minarray.errstate import __all__ as _errstate_all
from minarray.exceptions import AxisError
from minarray.indexing import nonzero
from minarray.info import *  # noqa: F403
from minarray.info import __all__ as _info_all
from minarray.manipulation import *  # noqa: F403
from minarray.manipulation import __all__ as _manipulation_all
from minarray.ndarray import NDArray
from minarray.npyio import *  # noqa: F403
from minarray.npyio import __all__ as _npyio_all
from minarray.products import *  # noqa: F403
from minarray.products import __all__ as _products_all
from minarray.reductions import *  # noqa: F403
from minarray.reductions import __all__ as _reductions_all
from minarray.searching import *  # noqa: F403
from minarray.searching import __all__ as _searching_all
from minarray.sets import *  # noqa: F403
from minarray.sets import __all__ as _sets_all
from minarray.sorting import *  # noqa: F403
from minarray.sorting import __all__ as _sorting_all
from minarray.threads import *  # noqa: F403
from minarray.threads import __all__ as _threads_all
from minarray.views import *  # noqa: F403
from minarray.views import __all__ as _views_all

# ---- NumPy's everyday names (issue #16): modules of NumPy's routines by topic,
# and NumPy's spellings of the Array API functions (the same objects).
# isort: split
from minarray.constructors import *  # noqa: F403
from minarray.constructors import __all__ as _constructors_all
from minarray.contraction import *  # noqa: F403
from minarray.contraction import __all__ as _contraction_all
from minarray.histograms import *  # noqa: F403
from minarray.histograms import __all__ as _histograms_all
from minarray.index_routines import *  # noqa: F403
from minarray.index_routines import __all__ as _index_routines_all
from minarray.inspection import *  # noqa: F403
from minarray.inspection import __all__ as _inspection_all
from minarray.logic import *  # noqa: F403
from minarray.logic import __all__ as _logic_all
from minarray.mathematical import *  # noqa: F403
from minarray.mathematical import __all__ as _mathematical_all
from minarray.spellings import *  # noqa: F403
from minarray.spellings import __all__ as _spellings_all
from minarray.stacking import *  # noqa: F403
from minarray.stacking import __all__ as _stacking_all
from minarray.statistics import *  # noqa: F403
from minarray.statistics import __all__ as _statistics_all

_numpy_names_all = [
    *_constructors_all, *_contraction_all, *_histograms_all, *_index_routines_all, *_inspection_all,
    *_logic_all, *_mathematical_all, *_spellings_all, *_stacking_all, *_statistics_all,
]

# NumPy's spelling of the class: isinstance(x, ma.ndarray) (the module
# minarray/ndarray.py stays importable by its full name).
ndarray = NDArray

__version__ = "0.1.0"
__array_api_version__ = "2025.12"


def allocator_stats() -> dict[str, int]:
    """Counters of the C allocator: ``live_buffers`` (owned and foreign
    buffers not yet freed), ``live_bytes`` (bytes of owned buffers not yet
    freed), ``total_allocations``, ``live_foreign``, ``total_foreign``,
    ``failed_allocations`` and ``cached_bytes`` (freed blocks of 32 MiB and
    more kept, with their pages mapped, for the next large array; at most
    ``MINARRAY_BUFFER_CACHE_MB`` MiB, 256 by default, 0 disables)."""
    keys = ("live_buffers", "live_bytes", "total_allocations", "live_foreign",
            "total_foreign", "failed_allocations", "cached_bytes")
    return dict(zip(keys, _core.stats(), strict=True))


def astype(x: NDArray, dtype: Any, /, *, copy: _builtins.bool = True, device: Any = None) -> NDArray:
    """Array API ``astype``."""
    return x.astype(dtype, copy=copy, device=device)


__all__ = [
    "NDArray", "DType", "allocator_stats", "astype", "nonzero", "can_cast", "isdtype", "result_type",
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float16", "bfloat16", "float32", "float64", "complex64", "complex128",
    # the storage types (minarray/dtypes.py)
    "float8_e3m4", "float8_e4m3", "float8_e4m3b11fnuz", "float8_e4m3fn", "float8_e4m3fnuz",
    "float8_e5m2", "float8_e5m2fnuz", "float8_e8m0fnu", "float6_e2m3fn", "float6_e3m2fn",
    "float4_e2m1fn", "complex32", "int1", "int2", "int4", "uint1", "uint2", "uint4",
    *_creation_all, *_views_all, *_elementwise_all, *_reductions_all,
    *_searching_all, *_sorting_all, *_sets_all, *_manipulation_all, *_products_all, *_info_all,
    *_dlpack_all, *_threads_all, *_errstate_all, *_bufferio_all, *_npyio_all, "dlpack", "linalg",
    "random", "fft", "exceptions", "AxisError", "ndarray", "__array_api_version__", "__version__",
    *_numpy_names_all,
]


def __dir__() -> list[str]:
    """The public API only (``dir(ma)``), not the modules it is built from."""
    return sorted(set(__all__))
