"""DLPack conformance: minarray against every DLPack library installed.

    python -m minarray.testing.dlpack            # the matrix, then the protocol rules
    python -m minarray.testing.dlpack --matrix   # only the exchange matrix
    python -m minarray.testing.dlpack --protocol # only the protocol rules
    python -m minarray.testing.dlpack --cuda     # only the checks on a CUDA device

The matrix exchanges arrays both ways between minarray and NumPy, PyTorch,
JAX and pydlpack (whichever are installed), for every minarray dtype and
for the layouts that broke other libraries (0-d, 0-size, size-1 dimensions
with odd strides, negative strides, transposes, offsets, 32 dimensions),
through both the versioned and the legacy capsule, and prints a table.
Every exchange checks shape, dtype and values against NumPy, and checks
that the exchange did not copy where the consumer promises a view.

The protocol rules (minarray/testing/dlpack_protocol.py) check each library
as a producer and as a consumer, rule by rule: version negotiation, legacy
capsules, READ_ONLY and IS_COPIED both ways, copy=True/False/None,
dl_device, stream, capsule renaming and deleters, the C exchange API; then
minarray's own doors (asdlpack of every source kind, from_numpy,
from_pointer, device arrays).  The table says which library fails which
rule.  When a CUDA device is present, the CUDA checks
(minarray/testing/dlpack_cuda.py) run too; ``--cuda`` runs only them, and
skips with a message (exit status 0) when there is no CUDA device.

The same checks run in minarray's test suite (tests/dlpack/test_dlpack_interop.py,
tests/dlpack/test_dlpack_protocol.py).  NumPy is required (it is the oracle).
"""

from __future__ import annotations

import importlib.util
import math
import sys
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import minarray as ma
from minarray import _dtypes as _dt
from minarray.testing import dlpack_cuda, dlpack_protocol

__all__ = ["Case", "CASES", "DTYPES", "Library", "libraries", "Result", "check", "run", "main", "LegacyOnly"]

DTYPES: tuple[str, ...] = (
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float16", "bfloat16", "float32", "float64", "complex64", "complex128",
    # storage types beyond NumPy's (minarray/_dtypes.py): PyTorch's float8
    # family and complex32, and a sub-byte integer, float6 and float4
    "float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz", "float8_e8m0fnu", "complex32",
    "int4", "float6_e2m3fn", "float4_e2m1fn",
)
# the dtypes NumPy itself has (NumPy, pydlpack and JAX exchange only these)
_NUMPY_DTYPES: frozenset[str] = frozenset(d for d in DTYPES if _dt.as_dtype(d).wide is None) - {"bfloat16"}


@dataclass(frozen=True)
class Case:
    """A layout: a C-contiguous base of ``shape``, then views (``ops``: basic
    indexing keys and permutations) taken in the producer's own library."""

    name: str
    shape: tuple[int, ...]
    ops: tuple[tuple[str, Any], ...] = ()
    negative_strides: bool = False
    compact: bool = True  # every element of the underlying span is used


_DIMS32 = tuple(2 if i % 6 == 0 else 1 for i in range(32))
CASES: tuple[Case, ...] = (
    Case("contiguous", (3, 4)),
    Case("0-d", (5,), (("index", (2, Ellipsis)),)),
    Case("0-size", (3, 4), (("index", (slice(None), slice(2, 2))),)),
    Case("size-1 dims, odd strides", (4, 6), (("index", (slice(1, 2), slice(None, None, 5))),), compact=False),
    Case("negative strides", (3, 4), (("index", (slice(None, None, -1), slice(None, None, -2))),), True,
         compact=False),
    Case("transpose", (2, 3, 4), (("permute", (2, 0, 1)),)),
    Case("offset", (4, 5), (("index", (slice(1, 3), slice(2, None))),), compact=False),
    Case("step", (7,), (("index", (slice(1, None, 3),)),), compact=False),
    Case("32 dims", _DIMS32, (("permute", tuple(range(31, -1, -1))),)),
)


class Unsupported(Exception):
    """The library itself lacks this dtype or layout: not a DLPack failure."""


class LegacyOnly:
    """A producer that only knows the pre-2023 protocol
    (``__dlpack__(stream=None)``), so consumers get a legacy capsule."""

    def __init__(self, x: Any) -> None:
        self._x = x

    def __dlpack__(self, stream: Any = None) -> Any:
        return self._x.__dlpack__()

    def __dlpack_device__(self) -> Any:
        return self._x.__dlpack_device__()


@dataclass
class Library:
    """How to make, view, consume and read arrays of one library."""

    name: str
    make: Callable[[Any, str], Any]  # (NumPy reference, dtype name) -> array
    index: Callable[[Any, Any], Any]
    permute: Callable[[Any, tuple[int, ...]], Any]
    from_dlpack: Callable[[Any], Any] | None  # None: producer only
    to_numpy: Callable[[Any], Any]  # values as NumPy (bfloat16 as float32)
    data_ptr: Callable[[Any], int] | None  # None: the consumer always copies
    negative_strides: bool = True
    strided_import: bool = True  # False: imports only compact (maybe permuted) layouts
    dtypes: frozenset[str] = frozenset(DTYPES)
    views_in_numpy: bool = False  # build the layout in NumPy, then convert
    notes: list[str] = field(default_factory=list)


def _np() -> Any:
    import numpy as np  # optional: NumPy is not a dependency of minarray

    return np


def _ref_base(shape: tuple[int, ...], dtype: str) -> Any:
    """Small exact values in every dtype (bfloat16 kept as float32, a
    storage type in its wide type: float32, complex64 or int8)."""
    np = _np()
    n = math.prod(shape)
    v = np.arange(n, dtype=np.int64) % 7
    if dtype == "float8_e8m0fnu":  # powers of two only: no zero, no sign
        return (2.0 ** (v - 3)).astype("float32").reshape(shape)
    if dtype == "float4_e2m1fn":  # 0, 1, 2, 3, 4 (it has no 5)
        return (v % 5).astype("float32").reshape(shape)
    wide = _dt.as_dtype(dtype).wide
    if wide is not None:
        return _ref_base(shape, wide.name)  # small integers: exact in every narrow type
    if dtype == "bool":
        return (v % 2 == 1).reshape(shape)
    if dtype.startswith("int"):
        v = v - 3
    if dtype.startswith("complex"):
        return (v + 1j * (v - 2)).astype(dtype).reshape(shape)
    return v.astype("float32" if dtype == "bfloat16" else dtype).reshape(shape)


def _minarray_lib() -> Library:
    def make(ref: Any, dtype: str) -> Any:
        if dtype == "bfloat16" or _dt.as_dtype(dtype).wide is not None:
            return ma.asarray(ref).astype(dtype)
        return ma.from_numpy(ref, copy=True)

    def to_numpy(a: Any) -> Any:
        if a.dtype == _dt.bfloat16:
            a = a.astype(_dt.float32)
        return _np().asarray(a._widened())

    return Library("minarray", make, lambda a, k: a[k], lambda a, p: ma.permute_dims(a, p),
                   ma.from_dlpack, to_numpy, lambda a: a.data_ptr)


def _numpy_lib() -> Library:
    np = _np()

    def make(ref: Any, dtype: str) -> Any:
        if dtype == "bfloat16":
            raise Unsupported("NumPy has no DLPack bfloat16")
        return np.array(ref, dtype=dtype)

    return Library("numpy", make, lambda a, k: a[k], lambda a, p: a.transpose(p), np.from_dlpack,
                   lambda a: a, lambda a: a.__array_interface__["data"][0], dtypes=_NUMPY_DTYPES)


def _torch_lib() -> Library:
    import torch  # optional: PyTorch is not a dependency of minarray
    from torch.utils.dlpack import from_dlpack as torch_from_dlpack  # optional: PyTorch is not a dependency of minarray

    # PyTorch's DLPack dtypes: NumPy's, bfloat16, its float8 family and
    # complex32 (its int4 exports as int8 and its float4 as a vector type)
    dtypes = frozenset(d for d in DTYPES if _dt.as_dtype(d).wide is None or isinstance(getattr(torch, d, None),
                                                                                       torch.dtype))
    dtypes -= {"int4"}

    def make(ref: Any, dtype: str) -> Any:
        t = torch.from_numpy(_np().array(ref, copy=True))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # "ComplexHalf support is experimental"
            return t.to(getattr(torch, dtype))

    def to_numpy(t: Any) -> Any:
        if t.dtype == torch.bfloat16 or (t.dtype.is_floating_point and t.element_size() == 1):
            t = t.float()  # bfloat16, float8: their values are exact in float32
        elif t.dtype == torch.complex32:
            t = t.to(torch.complex64)
        return t.resolve_conj().numpy()

    return Library("torch", make, lambda t, k: t[k], lambda t, p: t.permute(p), torch_from_dlpack,
                   to_numpy, lambda t: t.data_ptr(), negative_strides=False, dtypes=dtypes)


def _jax_lib() -> Library:
    import jax  # optional: JAX is not a dependency of minarray
    import jax.numpy as jnp  # optional: JAX is not a dependency of minarray

    x64 = bool(jax.config.read("jax_enable_x64"))  # type: ignore[no-untyped-call]
    wide = {"int64", "uint64", "float64", "complex128"}
    # NumPy's, bfloat16 and the float8 family (XLA's int4 has no DLPack code)
    dtypes = _NUMPY_DTYPES | {"bfloat16"} | {d for d in DTYPES if d.startswith("float8") and hasattr(jnp, d)}
    dtypes = dtypes if x64 else dtypes - wide

    def make(ref: Any, dtype: str) -> Any:
        if dtype not in dtypes:
            raise Unsupported("jax_enable_x64 is off")
        # on the CPU: the matrix compares values, which minarray reads only
        # there (JAX puts arrays on a GPU when it has one)
        return jax.device_put(jnp.asarray(ref, dtype=dtype), jax.devices("cpu")[0])

    def to_numpy(x: Any) -> Any:
        if x.dtype == jnp.bfloat16 or (x.dtype.itemsize == 1 and jnp.issubdtype(x.dtype, jnp.floating)):
            x = x.astype(jnp.float32)  # bfloat16, float8: exact in float32
        return _np().asarray(x)

    lib = Library("jax", make, lambda x, k: x[k], lambda x, p: jnp.transpose(x, p), jnp.from_dlpack,
                  to_numpy, None, dtypes=dtypes, strided_import=False, views_in_numpy=True)
    # JAX copies on import, so a view is never expected; its own "views" are
    # copies too (each compiled once per shape: slow), so the layout is made
    # in NumPy and JAX holds whatever compact copy it makes of it.
    lib.notes.append("JAX copies on import, imports only compact layouts"
                     + ("" if x64 else ", and has 64-bit types only with jax_enable_x64"))
    return lib


def _pydlpack_lib() -> Library:
    np = _np()

    def make(ref: Any, dtype: str) -> Any:
        if dtype == "bfloat16":
            raise Unsupported("pydlpack wraps NumPy, which has no bfloat16")
        return np.array(ref, dtype=dtype)

    # pydlpack is a producer: views are taken in NumPy, then wrapped.
    return Library("pydlpack", make, lambda a, k: a[k], lambda a, p: a.transpose(p), None,
                   lambda a: a, lambda a: a.__array_interface__["data"][0], dtypes=_NUMPY_DTYPES)


_FACTORIES: dict[str, tuple[str, Callable[[], Library]]] = {
    "numpy": ("numpy", _numpy_lib),
    "torch": ("torch", _torch_lib),
    "jax": ("jax", _jax_lib),
    "pydlpack": ("dlpack", _pydlpack_lib),
}


def libraries() -> list[Library]:
    """minarray first, then every other DLPack library that is installed."""
    out = [_minarray_lib()]
    for module, factory in _FACTORIES.values():
        if importlib.util.find_spec(module) is not None:
            try:
                out.append(factory())
            except Exception as exc:  # a broken install is reported, not fatal
                print(f"skipping {module}: {exc}", file=sys.stderr)
    return out


@dataclass(frozen=True)
class Result:
    producer: str
    consumer: str
    case: str
    dtype: str
    protocol: str  # "versioned" or "legacy"
    status: str  # "ok", "n/a" or "FAIL"
    detail: str = ""


def _build(lib: Library, case: Case, dtype: str) -> tuple[Any, Any]:
    """(array in lib, NumPy reference of its values)."""
    if case.negative_strides and not lib.negative_strides:
        raise Unsupported(f"{lib.name} has no negative strides")
    if dtype not in lib.dtypes:
        raise Unsupported(f"{lib.name} has no DLPack {dtype}")
    ref = _ref_base(case.shape, dtype)
    np = _np()
    if lib.views_in_numpy:
        for op, arg in case.ops:
            ref = ref[arg] if op == "index" else np.transpose(ref, arg)
        return lib.make(ref, dtype), ref
    x = lib.make(ref, dtype)
    for op, arg in case.ops:
        if op == "index":
            x, ref = lib.index(x, arg), ref[arg]
        else:
            x, ref = lib.permute(x, arg), np.transpose(ref, arg)
    return x, ref


def check(producer: Library, consumer: Library, case: Case, dtype: str, legacy: bool = False) -> Result:
    """One exchange producer -> consumer, checked against NumPy."""
    proto = "legacy" if legacy else "versioned"

    def result(status: str, detail: str = "") -> Result:
        return Result(producer.name, consumer.name, case.name, dtype, proto, status, detail)

    if consumer.from_dlpack is None:
        return result("n/a", f"{consumer.name} is not a consumer")
    if dtype not in consumer.dtypes:
        return result("n/a", f"{consumer.name} has no DLPack {dtype}")
    if case.negative_strides and not consumer.negative_strides:
        # PyTorch 2.x aborts the whole process on such an import (C++
        # exception through its DLPack converter, pytorch#188023).
        return result("n/a", f"{consumer.name} cannot import negative strides")
    if not case.compact and not consumer.strided_import:
        return result("n/a", f"{consumer.name} imports only compact layouts")
    if legacy and _dt.as_dtype(dtype).bits < 8:
        return result("n/a", "a legacy capsule cannot say IS_SUBBYTE_TYPE_PADDED")
    try:
        x, ref = _build(producer, case, dtype)
    except Unsupported as exc:
        return result("n/a", str(exc))
    src: Any = x
    if producer.name == "pydlpack":
        if not legacy:
            return result("n/a", "pydlpack exports legacy capsules only")
        import dlpack  # optional: pydlpack is not a dependency of minarray

        src = dlpack.asdlpack(x)
    elif legacy:
        src = LegacyOnly(x)
    try:
        y = consumer.from_dlpack(src)
    except Exception as exc:
        return result("FAIL", f"{type(exc).__name__}: {exc}")
    try:
        got = consumer.to_numpy(y)
        np = _np()
        want = ref.astype("float32") if dtype == "bfloat16" else ref  # (storage types: ref is wide)
        if tuple(got.shape) != tuple(want.shape):
            return result("FAIL", f"shape {tuple(got.shape)} != {tuple(want.shape)}")
        if got.dtype != want.dtype:
            return result("FAIL", f"dtype {got.dtype} != {want.dtype}")
        if not np.array_equal(got, want):
            return result("FAIL", f"values differ: {got!r} != {want!r}")
        if consumer.data_ptr is not None and producer.data_ptr is not None and ref.size:
            if consumer.data_ptr(y) != producer.data_ptr(x):
                return result("FAIL", "the consumer copied where it should share memory")
    finally:
        del y
    return result("ok")


def run(libs: Sequence[Library] | None = None) -> Iterator[Result]:
    """Every exchange minarray -> X and X -> minarray (and minarray -> minarray)."""
    libs = list(libs) if libs is not None else libraries()
    mine = libs[0]
    pairs = [(mine, mine)] + [(mine, o) for o in libs[1:]] + [(o, mine) for o in libs[1:]]
    for producer, consumer in pairs:
        if consumer.from_dlpack is None:
            continue
        for case in CASES:
            for dtype in DTYPES:
                for legacy in (False, True):
                    yield check(producer, consumer, case, dtype, legacy)


def _table(results: Sequence[Result]) -> str:
    pairs: dict[str, dict[str, list[Result]]] = {}
    for r in results:
        pairs.setdefault(f"{r.producer} -> {r.consumer}", {}).setdefault(r.case, []).append(r)
    names = [c.name for c in CASES]
    width = max(len(p) for p in pairs) if pairs else 10
    cols = [max(len(n), 9) for n in names]
    lines = [" " * width + " | " + " | ".join(n.ljust(w) for n, w in zip(names, cols, strict=True))]
    lines.append("-" * len(lines[0]))
    for pair, by_case in pairs.items():
        cells = []
        for n, w in zip(names, cols, strict=True):
            rs = by_case.get(n, [])
            ok = sum(r.status == "ok" for r in rs)
            bad = sum(r.status == "FAIL" for r in rs)
            cell = f"FAIL {bad}" if bad else (f"ok {ok}" if ok else "n/a")
            cells.append(cell.ljust(w))
        lines.append(pair.ljust(width) + " | " + " | ".join(cells))
    return "\n".join(lines)


def _matrix_main() -> int:
    libs = libraries()
    print("DLPack conformance: minarray", ma.__version__, "against",
          ", ".join(lib.name for lib in libs[1:]) or "(no other library installed)")
    results = list(run(libs))
    print(_table(results))
    print("cells: exchanges that passed (each dtype, versioned and legacy); n/a: the library lacks it")
    for lib in libs:
        for note in lib.notes:
            print(f"note: {lib.name}: {note}")
    fails = [r for r in results if r.status == "FAIL"]
    for r in fails[:40]:
        print(f"FAIL {r.producer} -> {r.consumer} [{r.case}, {r.dtype}, {r.protocol}]: {r.detail}")
    ok = sum(r.status == "ok" for r in results)
    print(f"{ok} passed, {len(fails)} failed, {len(results) - ok - len(fails)} not applicable")
    return 1 if fails else 0


def _protocol_main() -> int:
    """The protocol table.  Only minarray's own failures make the exit
    status 1: the other columns report the peers (the installed NumPy,
    PyTorch... break some rules; that is what the table is for)."""
    outcomes = dlpack_protocol.run()
    print()
    print("DLPack protocol rules (each library in its role, minarray on the other side):")
    print(dlpack_protocol.table(outcomes))
    print("ok: the library keeps the rule; FAIL: it breaks it (below); n/a: it lacks the feature")
    fails = [o for o in outcomes if o.status == "FAIL"]
    for o in fails:
        print(f"FAIL {o.library}: {o.rule}: {o.detail}")
    mine = [o for o in fails if o.library == "minarray"]
    print(f"{sum(o.status == 'ok' for o in outcomes)} kept, {len(fails)} broken ({len(mine)} by minarray)")
    return 1 if mine else 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the matrix and the protocol rules (and the CUDA checks when a
    CUDA device is present), print the tables and every failure; exit
    status 1 when minarray fails anything.  ``--matrix``, ``--protocol``
    and ``--cuda`` run one part alone."""
    args = list(sys.argv[1:] if argv is None else argv)
    unknown = [a for a in args if a not in ("--matrix", "--protocol", "--cuda")]
    if unknown:
        print(f"usage: python -m minarray.testing.dlpack [--matrix] [--protocol] [--cuda]; got {unknown}",
              file=sys.stderr)
        return 2
    if args == ["--cuda"]:
        return dlpack_cuda.main()
    rc = 0
    if not args or "--matrix" in args:
        rc |= _matrix_main()
    if not args or "--protocol" in args:
        rc |= _protocol_main()
    if "--cuda" in args or (not args and (dlpack_cuda.torch_cuda() is not None or dlpack_cuda.driver_device())):
        print()
        rc |= dlpack_cuda.main()
    return rc


if __name__ == "__main__":
    sys.exit(main())
