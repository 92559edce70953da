"""minarray: a small NumPy-like array library whose memory comes from its own
C allocator and whose arrays speak DLPack natively.

    import minarray as ma
"""

from __future__ import annotations

from minarray import dlpack, exceptions, fft, linalg
from minarray import random as random  # ma.random: NumPy's Generator, bit for bit
from minarray._array_object import NDArray
from minarray._coerce import asarray, normalize_axis

# NumPy's C-style names of the dtypes (NumPy 2's: on the platforms minarray
# builds for, long long and intp are 64 bits): the same singletons.
from minarray._dtypes import (
    DType,
    bfloat16,
    bool,
    bool_,
    byte,
    cdouble,
    complex32,
    complex64,
    complex128,
    csingle,
    double,
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
    half,
    int1,
    int2,
    int4,
    int8,
    int16,
    int32,
    int64,
    int_,
    intc,
    intp,
    long,
    longlong,
    short,
    single,
    ubyte,
    uint,
    uint1,
    uint2,
    uint4,
    uint8,
    uint16,
    uint32,
    uint64,
    uintc,
    uintp,
    ulong,
    ulonglong,
    ushort,
)

# isort: split
# NumPy's dtype class (the dtypes are its instances: ma.dtype("f4") is
# ma.float32), its abstract scalar types, and the names of the types
# minarray does not hold, which refuse with the reason when used.
from minarray._dtypes import DType as dtype
from minarray._dtypes import (
    bytes_,
    character,
    clongdouble,
    complex256,
    complexfloating,
    datetime64,
    flexible,
    float128,
    floating,
    generic,
    inexact,
    integer,
    longdouble,
    number,
    object_,
    signedinteger,
    str_,
    timedelta64,
    unsignedinteger,
    void,
)
from minarray._native import core as _core
from minarray.exceptions import AxisError

# One module per chapter of the Array API standard, NumPy's routines of the
# same topic beside the chapter's functions.
# isort: split
from minarray._constants import *  # noqa: F403
from minarray._constants import __all__ as _constants_all
from minarray._creation import *  # noqa: F403
from minarray._creation import __all__ as _creation_all
from minarray._data_type_functions import *  # noqa: F403
from minarray._data_type_functions import __all__ as _data_type_functions_all
from minarray._elementwise import *  # noqa: F403
from minarray._elementwise import __all__ as _elementwise_all
from minarray._histograms import *  # noqa: F403
from minarray._histograms import __all__ as _histograms_all
from minarray._indexing import *  # noqa: F403
from minarray._indexing import __all__ as _indexing_all
from minarray._inspection import *  # noqa: F403
from minarray._inspection import __all__ as _inspection_all
from minarray._joining import *  # noqa: F403
from minarray._joining import __all__ as _joining_all
from minarray._linear_algebra import *  # noqa: F403
from minarray._linear_algebra import __all__ as _linear_algebra_all
from minarray._manipulation import *  # noqa: F403
from minarray._manipulation import __all__ as _manipulation_all
from minarray._searching import *  # noqa: F403
from minarray._searching import __all__ as _searching_all
from minarray._set import *  # noqa: F403
from minarray._set import __all__ as _set_all
from minarray._sorting import *  # noqa: F403
from minarray._sorting import __all__ as _sorting_all
from minarray._statistical import *  # noqa: F403
from minarray._statistical import __all__ as _statistical_all
from minarray._utility import *  # noqa: F403
from minarray._utility import __all__ as _utility_all

# NumPy's routines beside the chapters: polynomials and text files.
# isort: split
from minarray._polynomial import *  # noqa: F403
from minarray._polynomial import __all__ as _polynomial_all
from minarray._text_io import *  # noqa: F403
from minarray._text_io import __all__ as _text_io_all

# NumPy's ufunc interface of the elementwise functions (ma.add.reduce...).
# isort: split
from minarray._ufunc import *  # noqa: F403
from minarray._ufunc import __all__ as _ufunc_all

# Data in and out, errors and threads.
# isort: split
from minarray._errstate import *  # noqa: F403
from minarray._errstate import __all__ as _errstate_all
from minarray._io import *  # noqa: F403
from minarray._io import __all__ as _io_all
from minarray._memmap import *  # noqa: F403
from minarray._memmap import __all__ as _memmap_all
from minarray._npy_format import *  # noqa: F403
from minarray._npy_format import __all__ as _npy_format_all
from minarray._threads import *  # noqa: F403
from minarray._threads import __all__ as _threads_all
from minarray.dlpack import *  # noqa: F403
from minarray.dlpack import __all__ as _dlpack_all

# NumPy's routines that are no chapter's (issue #32): bit packing, functional
# programming, index tricks, iteration (nditer), the matrix class, window
# functions for signal processing, and the
# ma.emath and ma.lib namespaces (ma.lib.stride_tricks).
# isort: split
from minarray import emath, lib
from minarray._bit_packing import *  # noqa: F403
from minarray._bit_packing import __all__ as _bit_packing_all
from minarray._functional import *  # noqa: F403
from minarray._functional import __all__ as _functional_all
from minarray._index_tricks import *  # noqa: F403
from minarray._index_tricks import __all__ as _index_tricks_all
from minarray._iteration import *  # noqa: F403
from minarray._iteration import __all__ as _iteration_all
from minarray._matrix import *  # noqa: F403
from minarray._matrix import __all__ as _matrix_all
from minarray._window import *  # noqa: F403
from minarray._window import __all__ as _window_all

# Printing: arrays as text, as NumPy prints them, and the options.
# isort: split
from minarray._float_format import *  # noqa: F403
from minarray._float_format import __all__ as _float_format_all
from minarray._printing import *  # noqa: F403
from minarray._printing import __all__ as _printing_all
from minarray._printoptions import *  # noqa: F403
from minarray._printoptions import __all__ as _printoptions_all

# NumPy's spelling of the class: isinstance(x, ma.ndarray).
ndarray = NDArray

# The version has one source, pyproject.toml, read back from the installed
# package's metadata (an editable install has it too).  A checkout imported
# without being installed has no metadata: it says so rather than guess.
try:
    from importlib.metadata import version as _dist_version

    __version__: str = _dist_version("minarray")
except ImportError:  # PackageNotFoundError is an ImportError
    __version__ = "0+unknown"
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


__all__ = [
    "NDArray", "DType", "allocator_stats", "asarray", "normalize_axis",
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float16", "bfloat16", "float32", "float64", "complex64", "complex128",
    # the storage types (minarray/_dtypes.py)
    "float8_e3m4", "float8_e4m3", "float8_e4m3b11fnuz", "float8_e4m3fn", "float8_e4m3fnuz",
    "float8_e5m2", "float8_e5m2fnuz", "float8_e8m0fnu", "float6_e2m3fn", "float6_e3m2fn",
    "float4_e2m1fn", "complex32", "int1", "int2", "int4", "uint1", "uint2", "uint4",
    "bool_", "byte", "ubyte", "short", "ushort", "intc", "uintc", "int_", "intp", "uintp", "uint", "long", "ulong",
    "longlong", "ulonglong", "half", "single", "double", "csingle", "cdouble",
    # NumPy's dtype class and scalar type tree (minarray/_dtypes.py)
    "dtype", "generic", "number", "integer", "signedinteger", "unsignedinteger", "inexact", "floating",
    "complexfloating", "flexible", "character", "datetime64", "timedelta64", "str_", "bytes_", "object_", "void",
    "longdouble", "clongdouble", "float128", "complex256",
    *_constants_all, *_creation_all, *_data_type_functions_all, *_elementwise_all, *_histograms_all,
    *_indexing_all, *_inspection_all, *_joining_all, *_linear_algebra_all, *_manipulation_all,
    *_searching_all, *_set_all, *_sorting_all, *_statistical_all, *_utility_all,
    *_errstate_all, *_io_all, *_memmap_all, *_npy_format_all, *_threads_all, *_dlpack_all,
    *_float_format_all, *_printing_all, *_printoptions_all,
    *_polynomial_all, *_text_io_all,
    *_ufunc_all,
    "dlpack", "linalg", "random", "fft", "exceptions", "AxisError", "ndarray",
    "testing", "polynomial", "ctypeslib",  # imported last, below
    *_bit_packing_all, *_functional_all, *_index_tricks_all, *_iteration_all, *_matrix_all,
    *_window_all,
    "emath", "lib",
    "__array_api_version__", "__version__",
]


def __dir__() -> list[str]:
    """The public API only (``dir(ma)``), not the modules it is built from."""
    return sorted(set(__all__))


# Last, as their modules import the chapters above: NumPy's testing
# assertions, numpy.polynomial (the power basis) and numpy.ctypeslib.  Not
# loaded on first use through a module __getattr__, as
# NumPy's np.testing is: CPython 3.11 does not specialise attribute look-ups
# on a module that has one, and every ma.<name> would pay for it (about
# 15 ns a call).
from minarray import ctypeslib, polynomial, testing  # noqa: E402
