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
import warnings
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


# One sweep over NumPy's module functions (the fromnumeric family and its
# neighbours): whether NumPy's result on an instance of a subclass is of the
# subclass (its function calls the method, or takes asanyarray, or a ufunc
# wraps) or a plain array (np.where, np.broadcast_to, np.tril...) is read
# from NumPy at test time; minarray's must be of the same kind, with the
# attribute its __array_finalize__ copies, and the same values.
SWEEP: dict[str, Callable[[Any, Any], Any]] = {
    "take": lambda xp, a: xp.take(a, [0, 2]),
    "take axis": lambda xp, a: xp.take(a, [0, 1], axis=1),
    "take scalar": lambda xp, a: xp.take(a, 1),
    "reshape": lambda xp, a: xp.reshape(a, (3,4)),
    "choose": lambda xp, a: xp.choose(xp.asarray([0,1,0]), [a[0,:3], a[1,:3]]),
    "repeat": lambda xp, a: xp.repeat(a, 2),
    "swapaxes": lambda xp, a: xp.swapaxes(a, 0, 1),
    "transpose": lambda xp, a: xp.transpose(a),
    "partition": lambda xp, a: xp.partition(a, 1),
    "argpartition": lambda xp, a: xp.argpartition(a, 1),
    "sort": lambda xp, a: xp.sort(a),
    "sort None": lambda xp, a: xp.sort(a, axis=None),
    "argsort": lambda xp, a: xp.argsort(a),
    "argmax": lambda xp, a: xp.argmax(a),
    "argmax axis": lambda xp, a: xp.argmax(a, axis=0),
    "argmin axis": lambda xp, a: xp.argmin(a, axis=1),
    "searchsorted": lambda xp, a: xp.searchsorted(a[0], [1.5, 2.5]),
    "resize": lambda xp, a: xp.resize(a, (2,2)),
    "squeeze": lambda xp, a: xp.squeeze(a[:1]),
    "diagonal": lambda xp, a: xp.diagonal(a),
    "trace": lambda xp, a: xp.trace(a),
    "ravel": lambda xp, a: xp.ravel(a),
    "nonzero": lambda xp, a: xp.nonzero(a)[0],
    "shape": lambda xp, a: xp.asarray(xp.shape(a)),
    "compress": lambda xp, a: xp.compress([True, False, True], a, axis=1),
    "clip": lambda xp, a: xp.clip(a, 1, 5),
    "sum": lambda xp, a: xp.sum(a, axis=0),
    "sum all": lambda xp, a: xp.sum(a),
    "any": lambda xp, a: xp.any(a, axis=0),
    "all": lambda xp, a: xp.all(a, axis=1),
    "cumsum": lambda xp, a: xp.cumsum(a),
    "cumsum axis": lambda xp, a: xp.cumsum(a, axis=1),
    "cumprod": lambda xp, a: xp.cumprod(a, axis=0),
    "ptp": lambda xp, a: xp.ptp(a, axis=0),
    "ptp all": lambda xp, a: xp.ptp(a),
    "max": lambda xp, a: xp.max(a, axis=0),
    "min": lambda xp, a: xp.min(a),
    "prod": lambda xp, a: xp.prod(a, axis=1),
    "round": lambda xp, a: xp.round(a / 3, 2),
    "around": lambda xp, a: xp.around(a / 3),
    "mean": lambda xp, a: xp.mean(a, axis=0),
    "std": lambda xp, a: xp.std(a, axis=0),
    "var": lambda xp, a: xp.var(a, axis=1),
    "diff": lambda xp, a: xp.diff(a),
    "median": lambda xp, a: xp.median(a, axis=0),
    "median all": lambda xp, a: xp.median(a),
    "percentile": lambda xp, a: xp.percentile(a, 30, axis=0),
    "percentile all": lambda xp, a: xp.percentile(a, 30),
    "quantile": lambda xp, a: xp.quantile(a, 0.3, axis=1),
    "dot": lambda xp, a: xp.dot(a, a.T),
    "dot vec": lambda xp, a: xp.dot(a[0], a[1]),
    "matmul": lambda xp, a: xp.matmul(a, a.T),
    "matmul vec": lambda xp, a: xp.matmul(a[0], a[1]),
    "a @ b": lambda xp, a: a @ a.T,
    "tile": lambda xp, a: xp.tile(a, 2),
    "tile2": lambda xp, a: xp.tile(a, (2, 1)),
    "where": lambda xp, a: xp.where(a > 2, a, 0),
    "where1": lambda xp, a: xp.where(a > 2)[0],
    "concatenate": lambda xp, a: xp.concatenate([a, a]),
    "stack": lambda xp, a: xp.stack([a, a]),
    "vstack": lambda xp, a: xp.vstack([a, a]),
    "hstack": lambda xp, a: xp.hstack([a, a]),
    "expand_dims": lambda xp, a: xp.expand_dims(a, 0),
    "moveaxis": lambda xp, a: xp.moveaxis(a, 0, 1),
    "atleast_1d": lambda xp, a: xp.atleast_1d(a),
    "atleast_2d": lambda xp, a: xp.atleast_2d(a[0]),
    "atleast_3d": lambda xp, a: xp.atleast_3d(a),
    "broadcast_to": lambda xp, a: xp.broadcast_to(a, (2,3,4)),
    "broadcast_arrays": lambda xp, a: xp.broadcast_arrays(a, a[0])[0],
    "flip": lambda xp, a: xp.flip(a),
    "fliplr": lambda xp, a: xp.fliplr(a),
    "roll": lambda xp, a: xp.roll(a, 1),
    "roll axis": lambda xp, a: xp.roll(a, 1, axis=0),
    "rot90": lambda xp, a: xp.rot90(a),
    "copy": lambda xp, a: xp.copy(a),
    "append": lambda xp, a: xp.append(a, a),
    "insert": lambda xp, a: xp.insert(a, 1, 9),
    "delete": lambda xp, a: xp.delete(a, 1, axis=1),
    "unique": lambda xp, a: xp.unique(a),
    "unique counts": lambda xp, a: xp.unique(a, return_counts=True)[1],
    "unique values": lambda xp, a: xp.unique(a, return_counts=True)[0],
    "unique_values": lambda xp, a: xp.unique_values(a),
    "outer": lambda xp, a: xp.outer(a, a),
    "cross": lambda xp, a: xp.cross(a[:, :3], a[:, 1:]),
    "kron": lambda xp, a: xp.kron(a, a),
    "meshgrid": lambda xp, a: xp.meshgrid(a[0], a[1])[0],
    "tril": lambda xp, a: xp.tril(a),
    "triu": lambda xp, a: xp.triu(a),
    "inner": lambda xp, a: xp.inner(a, a),
    "tensordot": lambda xp, a: xp.tensordot(a, a.T, 1),
    "vdot": lambda xp, a: xp.vdot(a, a),
    "vecdot": lambda xp, a: xp.vecdot(a, a),
    "einsum": lambda xp, a: xp.einsum("ij->j", a),
    "cumulative_sum": lambda xp, a: xp.cumulative_sum(a, axis=0),
    "cumulative_prod": lambda xp, a: xp.cumulative_prod(a, axis=1),
    "nan_to_num": lambda xp, a: xp.nan_to_num(a),
    "real": lambda xp, a: xp.real(a),
    "imag": lambda xp, a: xp.imag(a),
    "conj": lambda xp, a: xp.conj(a),
    "isclose": lambda xp, a: xp.isclose(a, a),
    "allclose": lambda xp, a: xp.allclose(a, a),
    "sort_complex": lambda xp, a: xp.sort_complex(a[0]),
    "trim_zeros": lambda xp, a: xp.trim_zeros(a[0]),
    "histogram": lambda xp, a: xp.histogram(a)[0],
    "bincount": lambda xp, a: xp.bincount(a[0].astype(int)),
    "count_nonzero": lambda xp, a: xp.count_nonzero(a, axis=0),
    "average": lambda xp, a: xp.average(a, axis=0),
    "nansum": lambda xp, a: xp.nansum(a, axis=0),
    "nanmean": lambda xp, a: xp.nanmean(a, axis=0),
    "nanmax": lambda xp, a: xp.nanmax(a, axis=0),
    "nanmedian": lambda xp, a: xp.nanmedian(a, axis=0),
    "nanargmax": lambda xp, a: xp.nanargmax(a, axis=0),
    "cov": lambda xp, a: xp.cov(a),
    "corrcoef": lambda xp, a: xp.corrcoef(a),
    "split": lambda xp, a: xp.split(a, 2, axis=1)[0],
    "array_split": lambda xp, a: xp.array_split(a, 3)[0],
    "column_stack": lambda xp, a: xp.column_stack([a[0], a[1]]),
    "pad": lambda xp, a: xp.pad(a, 1),
    "full_like": lambda xp, a: xp.full_like(a, 2),
    "zeros_like": lambda xp, a: xp.zeros_like(a),
    "ones_like": lambda xp, a: xp.ones_like(a),
    "empty_like": lambda xp, a: xp.empty_like(a) * 0,
    "asanyarray": lambda xp, a: xp.asanyarray(a),
    "array": lambda xp, a: xp.array(a),
    "asarray": lambda xp, a: xp.asarray(a),
    "ascontiguousarray": lambda xp, a: xp.ascontiguousarray(a),
    "interp": lambda xp, a: xp.interp(a, [0, 10], [0, 1]),
    "linalg.norm": lambda xp, a: xp.linalg.norm(a, axis=0),
    "sign": lambda xp, a: xp.sign(a),
    "abs": lambda xp, a: xp.abs(a),
    "argwhere": lambda xp, a: xp.argwhere(a),
    "flatnonzero": lambda xp, a: xp.flatnonzero(a),
    "extract": lambda xp, a: xp.extract(a > 2, a),
    "select": lambda xp, a: xp.select([a > 2], [a]),
    "diag": lambda xp, a: xp.diag(a),
    "diagflat": lambda xp, a: xp.diagflat(a[0]),
    "trapezoid": lambda xp, a: xp.trapezoid(a, axis=1),
    "gradient": lambda xp, a: xp.gradient(a[0]),
    "ediff1d": lambda xp, a: xp.ediff1d(a),
    "convolve": lambda xp, a: xp.convolve(a[0], a[1]),
    "correlate": lambda xp, a: xp.correlate(a[0], a[1]),
    "matrix_transpose": lambda xp, a: xp.matrix_transpose(a),
    "permute_dims": lambda xp, a: xp.permute_dims(a, (1, 0)),
    "unstack": lambda xp, a: xp.unstack(a)[0],
    "logical_not": lambda xp, a: xp.logical_not(a),
    "fmax": lambda xp, a: xp.fmax(a, 1),
    "take_along_axis": lambda xp, a: xp.take_along_axis(a, xp.argsort(a, axis=1), axis=1),
    "isin": lambda xp, a: xp.isin(a, [1,2]),
    "setdiff1d": lambda xp, a: xp.setdiff1d(a, [1,2]),
    "union1d": lambda xp, a: xp.union1d(a, [1,2]),
    "intersect1d": lambda xp, a: xp.intersect1d(a, [1,2]),
    "digitize": lambda xp, a: xp.digitize(a, [1, 5]),
    "searchsorted2": lambda xp, a: xp.searchsorted(a[0], a[1]),
    "fix": lambda xp, a: xp.fix(a / 3),
    "angle": lambda xp, a: xp.angle(a),
    "heaviside": lambda xp, a: xp.heaviside(a, 0.5),
    "logaddexp": lambda xp, a: xp.logaddexp(a, a),
    "sinc": lambda xp, a: xp.sinc(a),
    "vander": lambda xp, a: xp.vander(a[0]),
    "polyval": lambda xp, a: xp.polyval([1, 2], a),
    "linalg.inv": lambda xp, a: xp.linalg.inv(_spd(xp, a)),
    "linalg.cholesky": lambda xp, a: xp.linalg.cholesky(_spd(xp, a)),
    "linalg.eigh values": lambda xp, a: xp.linalg.eigh(_spd(xp, a))[0],
    "linalg.eigh vectors": lambda xp, a: abs(xp.linalg.eigh(_spd(xp, a))[1]),
    "linalg.solve": lambda xp, a: xp.linalg.solve(_spd(xp, a), a[:, :2]),
    "linalg.solve plain b": lambda xp, a: xp.linalg.solve(_spd(xp, a), xp.ones(3)),
    "linalg.pinv": lambda xp, a: xp.linalg.pinv(a),
    "linalg.det": lambda xp, a: xp.linalg.det(_spd(xp, a)),
    "linalg.matrix_power": lambda xp, a: xp.linalg.matrix_power(_spd(xp, a), 0),
}


def _spd(xp: Any, a: Any) -> Any:
    """A symmetric positive-definite 3x3 matrix made from ``a`` (of its class)."""
    return a[:, :3] @ a[:, :3].T + 10 * xp.eye(3)


def _named(xp: ModuleType) -> Any:
    class Named(xp.ndarray):  # type: ignore[name-defined,misc]
        def __array_finalize__(self, obj: Any) -> None:
            self.name = getattr(obj, "name", None)

    a = xp.asarray(np.arange(12.0).reshape(3, 4) % 7).view(Named)
    a.name = "n"
    return a


@pytest.mark.parametrize("name", list(SWEEP))
def test_function_sweep_keeps_the_subclass_where_numpy_does(name: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want = SWEEP[name](np, _named(np))
        got = SWEEP[name](ma, _named(ma))
    want_sub = type(want).__name__ == "Named"
    assert (type(got).__name__ == "Named") == want_sub, (type(got), type(want))
    assert getattr(got, "name", "absent") == getattr(want, "name", "absent")
    got_values = got if isinstance(got, (bool, int, float)) else np.asarray(ma.asarray(got))
    np.testing.assert_allclose(got_values, np.asarray(want))
