"""The guide's C examples, compiled with the system C compiler and run.

docs/examples/c/ holds a DLPack consumer in plain C (``dlpack_sum.c``) and a
consumer of the C exchange API (``exchange_consumer.c``); the pages show
their source as it is (a ``literalinclude``), and the Python around them is
this file's (``consume_capsule`` is shown too).  Here they are built against
csrc/dlpack.h and fed tensors from minarray, NumPy and PyTorch, with the
results checked against NumPy and every deleter call counted.
"""

from __future__ import annotations

import ctypes
import gc
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

import minarray as ma

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "docs" / "examples" / "c"
SOURCES = [EXAMPLES / "dlpack_sum.c", EXAMPLES / "exchange_consumer.c"]
CC = shutil.which("cc")
pytestmark = pytest.mark.skipif(CC is None, reason="needs a C compiler (cc) to build the examples")

# The return codes of docs/examples/c/dlpack_sum.h, as the page explains them.
REFUSALS = {1: "an unknown DLPack major version", 2: "memory the CPU cannot address",
            3: "a dtype other than float64", 4: "too many dimensions"}

_GetName = ctypes.PYFUNCTYPE(ctypes.c_char_p, ctypes.py_object)(("PyCapsule_GetName", ctypes.pythonapi))
_GetPointer = ctypes.PYFUNCTYPE(ctypes.c_void_p, ctypes.py_object, ctypes.c_char_p)(
    ("PyCapsule_GetPointer", ctypes.pythonapi))
_SetName = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.py_object, ctypes.c_char_p)(("PyCapsule_SetName", ctypes.pythonapi))
_USED = b"used_dltensor_versioned"  # PyCapsule keeps the name's pointer: a constant that lives on


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> ctypes.PyDLL:
    """The examples, built as warnings-are-errors C11 into one shared library.

    PyDLL, not CDLL: ctypes then keeps the GIL around each call, which the
    exchange API's functions need (they touch Python objects); the plain
    consumer needs no GIL, and its deleter calls must cope either way."""
    assert CC is not None
    out = tmp_path_factory.mktemp("c_examples") / "libdlpack_examples.so"
    cmd = [CC, "-std=c11", "-O2", "-Wall", "-Wextra", "-Werror", "-pedantic", "-shared", "-fPIC",
           f"-I{ROOT / 'csrc'}", f"-I{EXAMPLES}", "-o", str(out), *map(str, SOURCES)]
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    lib = ctypes.PyDLL(str(out))
    lib.dlpack_sum.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_double)]
    lib.exchange_sum.argtypes = [ctypes.c_void_p, ctypes.py_object, ctypes.POINTER(ctypes.c_double)]
    lib.exchange_arange.argtypes = [ctypes.c_void_p, ctypes.c_int64, ctypes.POINTER(ctypes.c_void_p),
                                    ctypes.c_char_p, ctypes.c_size_t]
    return lib


def consume_capsule(lib: Any, capsule: Any) -> float:
    """Hands a versioned capsule's tensor to the C consumer.

    The consumer's duties that belong to the capsule are done here: check
    the name, take the pointer, then rename the capsule "used_..." so that
    its destructor leaves the tensor alone. From the rename on, the tensor
    is the C code's, and it calls the deleter exactly once whatever it
    decides."""
    if _GetName(capsule) != b"dltensor_versioned":
        raise BufferError("expected a versioned DLPack capsule (max_version=(1, 0) or later)")
    managed = _GetPointer(capsule, b"dltensor_versioned")
    _SetName(capsule, _USED)
    total = ctypes.c_double()
    status = lib.dlpack_sum(managed, ctypes.byref(total))
    if status:
        raise BufferError(f"the C consumer refused {REFUSALS[status]}")
    return total.value


def exchange_api(cls: type) -> int:
    """The address of the DLPackExchangeAPI a type publishes (DLPack 1.3)."""
    return int(_GetPointer(cls.__dlpack_c_exchange_api__, b"dlpack_exchange_api"))  # type: ignore[attr-defined]


def _live() -> tuple[int, int]:
    gc.collect()
    s = ma.allocator_stats()
    return int(s["live_buffers"]), int(s["live_foreign"])


@pytest.mark.parametrize("make", [
    lambda: ma.arange(12.0).reshape(3, 4),
    lambda: ma.arange(12.0).reshape(3, 4)[::-1, ::2],        # negative and stepped strides
    lambda: ma.arange(24.0).reshape(2, 3, 4).T,               # a transpose
    lambda: ma.broadcast_to(ma.arange(4.0), (3, 4)),          # stride 0, read-only
    lambda: ma.zeros((3, 0)),                                 # no element
    lambda: ma.asarray(2.5),                                  # 0-d
], ids=["contiguous", "reversed-stepped", "transposed", "broadcast", "empty", "0-d"])
def test_c_consumer_sums_minarray_exports_and_frees_them(lib: Any, make: Any) -> None:
    np = pytest.importorskip("numpy", reason="NumPy is the oracle of the sums")

    x = make()
    expected = float(np.asarray(x).sum())
    before = _live()
    assert consume_capsule(lib, x.__dlpack__(max_version=(1, 3))) == expected
    assert _live() == before  # the export's deleter ran: its buffer reference is gone


def test_c_consumer_sums_numpy_and_torch_exports(lib: Any) -> None:
    np = pytest.importorskip("numpy", reason="NumPy is a producer here")
    n = np.arange(30.0).reshape(5, 6)[1:, ::-2]
    assert consume_capsule(lib, n.__dlpack__(max_version=(1, 3))) == float(n.sum())
    torch = pytest.importorskip("torch", reason="PyTorch is a producer here")
    t = torch.arange(30, dtype=torch.float64).reshape(5, 6).t()[1:]
    assert consume_capsule(lib, t.__dlpack__(max_version=(1, 3))) == float(t.sum())


def test_c_consumer_refusals_still_call_the_deleter(lib: Any) -> None:
    before = _live()
    with pytest.raises(BufferError, match="a dtype other than float64"):
        consume_capsule(lib, ma.arange(3, dtype=ma.int32).__dlpack__(max_version=(1, 3)))
    assert _live() == before
    with pytest.raises(BufferError, match="expected a versioned"):
        consume_capsule(lib, ma.arange(3.0).__dlpack__())  # a legacy capsule: left to its destructor
    assert _live() == before


def test_c_consumer_refuses_a_future_major_version_and_calls_its_deleter(lib: Any) -> None:
    from minarray._native import ffi

    calls = []

    @ffi.callback("void(DLManagedTensorVersioned *)")
    def deleter(m: Any) -> None:
        calls.append(m.version.major)

    future = ffi.new("DLManagedTensorVersioned *")
    future.version.major = 2
    future.deleter = deleter
    total = ctypes.c_double()
    assert lib.dlpack_sum(int(ffi.cast("uintptr_t", future)), ctypes.byref(total)) == 1
    assert calls == [2]


def test_exchange_consumer_sums_through_the_producers_table(lib: Any) -> None:
    np = pytest.importorskip("numpy", reason="NumPy is the oracle of the sums")

    x = ma.arange(20.0).reshape(4, 5)[:, 1::2]
    total = ctypes.c_double()
    before = _live()
    assert lib.exchange_sum(exchange_api(ma.NDArray), x, ctypes.byref(total)) == 0
    assert total.value == float(np.asarray(x).sum())
    assert _live() == before
    with pytest.raises(TypeError, match="expected a minarray NDArray"):
        lib.exchange_sum(exchange_api(ma.NDArray), [1.0, 2.0], ctypes.byref(total))  # the producer's exception


def test_exchange_consumer_sums_torch_tensors(lib: Any) -> None:
    torch = pytest.importorskip("torch", reason="PyTorch publishes a C exchange table")
    t = torch.arange(12, dtype=torch.float64).reshape(3, 4).t()[:, 1:]
    total = ctypes.c_double()
    assert lib.exchange_sum(exchange_api(torch.Tensor), t, ctypes.byref(total)) == 0
    assert total.value == float(t.sum())


def _arange_through(lib: Any, cls: type, n: int) -> Any:
    out = ctypes.c_void_p()
    why = ctypes.create_string_buffer(256)
    status = lib.exchange_arange(exchange_api(cls), n, ctypes.byref(out), why, len(why))
    if status:
        raise RuntimeError(why.value.decode())
    obj = ctypes.cast(out, ctypes.py_object).value  # takes a second reference
    ctypes.pythonapi.Py_DecRef.argtypes = [ctypes.py_object]
    ctypes.pythonapi.Py_DecRef(obj)  # and drops the one the producer gave us
    return obj


def test_exchange_allocator_and_import_make_the_producers_own_arrays(lib: Any) -> None:
    import sys

    before = _live()
    a = _arange_through(lib, ma.NDArray, 5)
    assert type(a) is ma.NDArray and a.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0]
    assert sys.getrefcount(a) == 2  # ours and getrefcount's: no reference leaked
    del a
    assert _live() == before
    torch = pytest.importorskip("torch", reason="PyTorch publishes a C exchange table")
    t = _arange_through(lib, torch.Tensor, 4)
    assert isinstance(t, torch.Tensor) and t.tolist() == [0.0, 1.0, 2.0, 3.0]
    assert sys.getrefcount(t) == 2


def test_exchange_allocator_errors_come_through_set_error(lib: Any) -> None:
    with pytest.raises(RuntimeError, match="ValueError: invalid or overflowing shape"):
        _arange_through(lib, ma.NDArray, -1)


def test_example_sources_fit_the_page_column() -> None:
    """The pages show these files whole; at 1280 px the article column holds
    74 characters of code, so no line needs scrolling there."""
    long = [f"{p.name}:{n}" for p in EXAMPLES.glob("*.[ch]")
            for n, line in enumerate(p.read_text().splitlines(), 1) if len(line) > 74]
    assert not long, long
