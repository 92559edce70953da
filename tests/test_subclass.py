"""Subclasses of minarray's array behave as NumPy's subclasses of ndarray.

Cross-cutting: NumPy's "Subclassing ndarray" guide has code make its own
array class (``class InfoArray(np.ndarray)``, made with
``np.asarray(x).view(InfoArray)``) and rely on views, copies and results of
operations being of that class, with the attributes its
``__array_finalize__`` copies.  The same recipe is written once here for
both libraries; each test runs an operation on a NumPy instance and a
minarray instance and compares the result's class, its attribute, its
values and the calls NumPy documents (``__array_finalize__(obj)``,
``__array_wrap__(arr, context, return_scalar)``), recorded on both.
"""

from __future__ import annotations

import gc
import pickle
import weakref
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import minarray as ma


def info_array(xp: ModuleType, log: list[tuple[Any, ...]]) -> type:
    """NumPy's InfoArray recipe over ``xp`` (numpy or minarray), noting each
    hook call in ``log`` with the classes named in library-neutral words."""

    def kind(obj: Any) -> str:
        if obj is None:
            return "None"
        return "sub" if type(obj) is not xp.ndarray and isinstance(obj, xp.ndarray) else "base"

    class InfoArray(xp.ndarray):  # type: ignore[name-defined,misc]
        def __new__(cls, input_array: Any, info: Any = None) -> Any:
            obj = xp.asarray(input_array).view(cls)
            obj.info = info
            return obj

        def __array_finalize__(self, obj: Any) -> None:
            log.append(("finalize", kind(obj), getattr(obj, "info", None)))
            if obj is None:
                return
            self.info = getattr(obj, "info", None)

        def __array_wrap__(self, arr: Any, context: Any = None, return_scalar: bool = False) -> Any:
            name = None if context is None else context[0].__name__
            log.append(("wrap", kind(arr), name, return_scalar))
            return super().__array_wrap__(arr, context, return_scalar)

    return InfoArray


# Operations whose hook calls NumPy 2 documents and minarray reproduces:
# (name, the operation on an InfoArray `a` of `xp`).
OPERATIONS: dict[str, Callable[[Any, ModuleType], Any]] = {
    "view": lambda a, xp: a.view(type(a)),
    "slice": lambda a, xp: a[1:],
    "column": lambda a, xp: a[:, 1],
    "T": lambda a, xp: a.T,
    "transpose": lambda a, xp: a.transpose(),
    "reshape": lambda a, xp: a.reshape(3, 2),
    "ravel": lambda a, xp: a.ravel(),
    "flatten": lambda a, xp: a.flatten(),
    "copy": lambda a, xp: a.copy(),
    "astype": lambda a, xp: a.astype(xp.float32),
    "view as int64": lambda a, xp: a.view(xp.int64),
    "a + 1": lambda a, xp: a + 1,
    "1 + a": lambda a, xp: 1 + a,
    "a * a": lambda a, xp: a * a,
    "-a": lambda a, xp: -a,
    "a == 1": lambda a, xp: a == 1,
    "add(a, 1)": lambda a, xp: xp.add(a, 1),
    "sqrt(a)": lambda a, xp: xp.sqrt(a),
    "maximum(a, 2)": lambda a, xp: xp.maximum(a, 2),
    "a.sum(axis=0)": lambda a, xp: a.sum(axis=0),
    "a.sum()": lambda a, xp: a.sum(),
    "a.max(axis=1)": lambda a, xp: a.max(axis=1),
    "a[a > 2]": lambda a, xp: a[a > 2],
    "asanyarray(a)": lambda a, xp: xp.asanyarray(a),
    "asarray(a)": lambda a, xp: xp.asarray(a),
}


def _run(xp: ModuleType, op: Callable[[Any, ModuleType], Any]) -> tuple[Any, list[tuple[Any, ...]]]:
    log: list[tuple[Any, ...]] = []
    cls = info_array(xp, log)
    a = cls(xp.asarray(np.arange(6.0).reshape(2, 3)), info="meta")
    log.clear()
    return op(a, xp), log


# Module-level functions: NumPy's reductions call the subclass's method
# (np.sum(sub) is sub.sum()), so they keep the class; counting and the
# trace, concatenate and stack give plain arrays.  The order of the hooks'
# calls inside them is NumPy's own business, so only the result is compared.
FUNCTIONS: dict[str, Callable[[Any, ModuleType], Any]] = {
    "sum(a)": lambda a, xp: xp.sum(a),
    "sum(a, axis=0)": lambda a, xp: xp.sum(a, axis=0),
    "mean(a)": lambda a, xp: xp.mean(a),
    "max(a, axis=1)": lambda a, xp: xp.max(a, axis=1),
    "std(a)": lambda a, xp: xp.std(a),
    "prod(a, keepdims)": lambda a, xp: xp.prod(a, keepdims=True),
    "all(a)": lambda a, xp: xp.all(a),
    "count_nonzero(a)": lambda a, xp: xp.count_nonzero(a),
    "count_nonzero(a, axis=0)": lambda a, xp: xp.count_nonzero(a, axis=0),
    "trace(a)": lambda a, xp: xp.trace(a),
    "concatenate": lambda a, xp: xp.concatenate([a, a]),
    "stack": lambda a, xp: xp.stack([a, a]),
    "copy(a)": lambda a, xp: xp.copy(a),
    "copy(a, subok=True)": lambda a, xp: xp.copy(a, subok=True),
}


@pytest.mark.parametrize("name", list(FUNCTIONS))
def test_module_functions_keep_the_subclass_as_numpy(name: str) -> None:
    want, _ = _run(np, FUNCTIONS[name])
    got, _ = _run(ma, FUNCTIONS[name])
    assert (type(got).__name__ == "InfoArray") == (type(want).__name__ == "InfoArray"), (type(got), type(want))
    assert getattr(got, "info", "absent") == getattr(want, "info", "absent")
    np.testing.assert_allclose(np.asarray(ma.asarray(got)), np.asarray(want))


@pytest.mark.parametrize("name", list(OPERATIONS))
def test_operations_keep_the_subclass_as_numpy(name: str) -> None:
    want, want_log = _run(np, OPERATIONS[name])
    got, got_log = _run(ma, OPERATIONS[name])
    assert (type(got).__name__ == "InfoArray") == (type(want).__name__ == "InfoArray")
    assert getattr(got, "info", "absent") == getattr(want, "info", "absent")
    np.testing.assert_array_equal(np.asarray(ma.asarray(got)), np.asarray(want))
    assert got_log == want_log


def test_info_array_recipe() -> None:
    # the guide's example, step by step
    log: list[tuple[Any, ...]] = []
    InfoArray = info_array(ma, log)
    obj = InfoArray(ma.arange(5), info="information")
    assert type(obj) is InfoArray and obj.info == "information"
    v = obj[1:]
    assert type(v) is InfoArray and v.info == "information"
    np.testing.assert_array_equal(np.asarray(ma.asarray(v)), np.arange(1, 5))
    # a view made from a plain array is finalized from it: no info to copy
    plain = ma.arange(3).view(InfoArray)
    assert type(plain) is InfoArray and plain.info is None


def test_asarray_drops_the_subclass_and_asanyarray_keeps_it() -> None:
    InfoArray = info_array(ma, [])
    a = InfoArray(ma.arange(4.0), info="x")
    base = ma.asarray(a)
    assert type(base) is ma.ndarray and not hasattr(base, "info")
    assert ma.asanyarray(a) is a
    cast = ma.asanyarray(a, dtype=ma.float32)
    assert type(cast) is InfoArray and cast.dtype == ma.float32 and cast.info == "x"
    # the same memory either way
    base[0] = 7.0
    assert float(a[0]) == 7.0


def test_ndarray_is_the_array_class() -> None:
    assert ma.ndarray is ma.NDArray
    assert isinstance(ma.ones(2), ma.ndarray)
    # NumPy's low-level constructor: an uninitialised array of the shape
    made = ma.ndarray((2, 3))
    assert type(made) is ma.NDArray and made.shape == (2, 3) and made.dtype is ma.float64

    class Bare(ma.ndarray):  # type: ignore[misc]
        pass

    bare = Bare((2,), dtype=ma.int8)
    assert type(bare) is Bare and bare.shape == (2,) and bare.dtype is ma.int8
    with pytest.raises(TypeError, match="shape"):
        Bare()


def test_view_type_and_dtype() -> None:
    InfoArray = info_array(ma, [])
    x = ma.arange(4, dtype=ma.int32)
    both = x.view(dtype=ma.float32, type=InfoArray)
    want = np.arange(4, dtype=np.int32).view(dtype=np.float32)
    assert type(both) is InfoArray and both.dtype == ma.float32
    np.testing.assert_array_equal(np.asarray(ma.asarray(both)), want)
    # and back to the base class, as NumPy's view(np.ndarray)
    a = InfoArray(x, info="i")
    assert type(a.view(ma.ndarray)) is ma.ndarray
    assert type(a.view(type=ma.ndarray)) is ma.ndarray
    with pytest.raises(TypeError, match="not a subclass"):
        x.view(type=int)


def test_slots_subclass_and_plain_results_stay_plain() -> None:
    class Tagged(ma.ndarray):  # type: ignore[misc]
        __slots__ = ()

    t = ma.arange(3.0).view(Tagged)
    assert type(t + t) is Tagged and type(t[1:]) is Tagged
    # operations on plain arrays are untouched
    x = ma.arange(3.0)
    assert type(x + x) is ma.ndarray and type(x[1:]) is ma.ndarray and type(x.T) is ma.ndarray


def test_array_wrap_gets_numpys_context() -> None:
    seen: list[Any] = []

    class Ctx(ma.ndarray):  # type: ignore[misc]
        def __array_wrap__(self, arr: Any, context: Any = None, return_scalar: bool = False) -> Any:
            seen.append(context)
            return super().__array_wrap__(arr, context, return_scalar)

    a = ma.arange(3.0).view(Ctx)
    r = ma.multiply(a, 2.0)
    assert type(r) is Ctx
    (func, inputs, index), = seen
    assert func is ma.multiply and inputs[0] is a and inputs[1] == 2.0 and index == 0


def test_the_highest_priority_input_wraps() -> None:
    # NumPy: the input with the highest __array_priority__ decides; the first on ties
    made: list[tuple[Any, ...]] = []

    def subclass(name: str, priority: float) -> type:
        def wrap(self: Any, arr: Any, context: Any = None, return_scalar: bool = False) -> Any:
            made.append((name,))
            return ma.ndarray.__array_wrap__(self, arr, context, return_scalar)
        return type(name, (ma.ndarray,), {"__array_priority__": priority, "__array_wrap__": wrap})

    for xp in (np, ma):
        low = type("Low", (xp.ndarray,), {"__array_priority__": 1.0})
        high = type("High", (xp.ndarray,), {"__array_priority__": 5.0})
        a, b = xp.arange(3.0).view(low), xp.arange(3.0).view(high)
        assert type(a + b).__name__ == type(b + a).__name__ == "High"
        assert type(a + a.view(type("Other", (xp.ndarray,), {"__array_priority__": 1.0}))).__name__ == "Low"
    first, second = subclass("First", 2.0), subclass("Second", 2.0)
    ma.arange(2.0).view(first) - ma.arange(2.0).view(second)
    assert made == [("First",)]


def test_a_cycle_through_an_attribute_is_collected() -> None:
    InfoArray = info_array(ma, [])
    a = InfoArray(ma.arange(3.0))
    a.info = a  # the instance holds itself: only the collector frees it
    ref = weakref.ref(a)
    del a
    gc.collect()
    assert ref() is None


class Pickled(ma.ndarray):  # type: ignore[misc]
    """A subclass at module level, where pickle finds classes."""

    def __array_finalize__(self, obj: Any) -> None:
        self.info = getattr(obj, "info", "unset")


@pytest.mark.parametrize("protocol", [2, 5])
def test_pickling_keeps_the_class(protocol: int) -> None:
    # as NumPy: the class comes back, its attributes do not (finalized from None)
    a = ma.arange(4.0).view(Pickled)
    a.info = "kept?"
    b = pickle.loads(pickle.dumps(a, protocol=protocol))
    assert type(b) is Pickled and b.info == "unset"
    np.testing.assert_array_equal(np.asarray(ma.asarray(b)), np.arange(4.0))
    plain = pickle.loads(pickle.dumps(ma.arange(2.0), protocol=protocol))
    assert type(plain) is ma.ndarray
