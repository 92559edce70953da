"""Every public callable, handed a device array, refuses it or reads no memory.

docs/dlpack/devices.md promises that whatever would read or write a device
array's elements raises RuntimeError naming the device, through one guard.
This sweep holds minarray to it without a list to keep up: it enumerates
the public functions of ``minarray``, ``minarray.linalg``, ``minarray.fft``
and ``minarray.random`` (module functions, ``Generator``, bit-generator and
``SeedSequence`` methods) and ``NDArray``'s methods and properties by
introspection, so a new function is swept the day it is added.

For each one a sample call is built from its signature (plus the small
OVERRIDES table) and must first work on the CPU, so nothing is skipped
silently.  Then a device array (same shape and dtype, on CUDA:0, over host
pages nobody may read: stand-in device memory, where any read kills the
process) replaces each array argument in turn, ``out=`` and every operand
included; the call must raise RuntimeError naming ``cuda:0`` or succeed
(which, on such memory, proves it read nothing).

The calls run in one child process that notes each call in a progress file
before making it; a child killed by a signal fails the call it was making,
and a new child goes on from the next one, so one crash names its culprit
and does not hide the others.  Run as a script, this file is that child.
"""

from __future__ import annotations

import ast
import ctypes
import inspect
import io
import json
import math
import os
import signal
import subprocess
import sys
import tempfile
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dlpack_producer import no_access_memory

import minarray as ma
from minarray.dlpack import DLDeviceType, from_pointer

ROOT = Path(__file__).resolve().parent.parent
DEVICE = "cuda:0"
# A child that takes longer than this (a hang, not a crash) fails the call it was making.
CHILD_TIMEOUT_S = 120
# Test hook: a JSON list of step labels the child makes crash (SIGSEGV) instead.
_CRASH_ENV = "MINARRAY_SWEEP_CRASH"

# ---- the sample calls --------------------------------------------------------------------


@dataclass(frozen=True)
class S:
    """A placeholder for a fresh sample array.  Kind 'f' (float64), 'i'
    (int64), 'b' (bool) or 'c' (complex128); without a shape, a 4 x 4
    symmetric positive-definite matrix (every entry in (0, 1], so that the
    decompositions, the probabilities and the domains of the elementwise
    functions all accept it); with one, ascending values (floats in (0, 1),
    integers 0 to 3: valid indices); kind 'z': int64 zeros; kind 'p': equal
    probabilities; kind 'out': zeros of ``dtype`` (an out= array)."""

    kind: str = "f"
    shape: tuple[int, ...] | None = None
    dtype: str = ""


@dataclass(frozen=True)
class D:
    """A placeholder for the minarray dtype of this name."""

    name: str


F, I, B, C = S("f"), S("i"), S("b"), S("c")
F1, I1, B1 = S("f", (4,)), S("i", (4,)), S("b", (4,))
F0, I0 = S("f", ()), S("i", ())


@dataclass(frozen=True)
class Call:
    """A sample call: positional and keyword arguments, with placeholders
    (alone or in a list or tuple) standing for arrays and dtypes."""

    args: tuple[Any, ...] = ()
    kwargs: dict[str, Any] = field(default_factory=dict)


def call(*args: Any, **kwargs: Any) -> Call:
    return Call(args, kwargs)


def _numpy_hooks(name: str) -> Callable[[], Call]:
    """A sample call of NumPy's dispatch hook ``name`` (NumPy is imported when needed)."""
    def make() -> Call:
        import numpy as np

        if name == "__array_ufunc__":
            return call(F, np.add, "__call__", F, F)
        return call(F, np.sum, (ma.NDArray,), (F,), {})
    return make


# Sample calls the signature alone cannot give: its required arguments are
# not all arrays, or need values a generic array does not have.  For an
# NDArray method the first argument is the array itself.  A function makes
# the call when the sweep runs.  The files are the ones the child writes
# first (_child).
OVERRIDES: dict[str, Call | Callable[[], Call]] = {
    "ma.array_split": call(F, 2), "ma.split": call(F, 2), "ma.hsplit": call(F, 2), "ma.vsplit": call(F, 2),
    "ma.dsplit": call(S("f", (2, 2, 4)), 2),
    "ma.bincount": call(I1), "ma.broadcast_shapes": call((4, 4), (4,)),
    "ma.format_float_positional": call(F0), "ma.format_float_scientific": call(F0),
    "ma.base_repr": call(5), "ma.binary_repr": call(5),
    "ma.can_cast": call(F, D("float64")), "ma.promote_types": call(D("float64"), D("int64")),
    "ma.isdtype": call(D("float64"), "real floating"), "ma.issubdtype": call(D("float64"), D("float64")),
    "ma.choose": call(S("z"), [F, F]),
    "ma.column_stack": call([F, F]), "ma.concat": call([F, F]), "ma.concatenate": call([F, F]),
    "ma.dstack": call([F, F]), "ma.hstack": call([F, F]), "ma.stack": call([F, F]), "ma.vstack": call([F, F]),
    "ma.compress": call(B1, F, axis=0), "NDArray.compress": call(F, B1, 0),
    "ma.convolve": call(F1, F1), "ma.correlate": call(F1, F1), "ma.histogram2d": call(F1, F1),
    "ma.apply_along_axis": call(lambda r: r.sum(), 0, F),
    "ma.apply_over_axes": call(lambda a, axis: a.sum(axis=axis, keepdims=True), F, [0]),
    "ma.unpackbits": call(S("out", (4,), "uint8")), "ma.cross": call(S("f", (4, 3)), S("f", (4, 3))),
    "ma.linalg.cross": call(S("f", (4, 3)), S("f", (4, 3))), "ma.linalg.multi_dot": call([F, F, F]),
    "ma.cumulative_prod": call(F, axis=0), "ma.cumulative_sum": call(F, axis=0),
    "ma.digitize": call(F, F1), "ma.searchsorted": call(F1, F), "NDArray.searchsorted": call(F1, F),
    "ma.einsum": call("ij,jk->ik", F, F), "ma.einsum_path": call("ij,jk->ik", F, F),
    "ma.eye": call(4), "ma.geomspace": call(1, 4), "ma.indices": call((4, 4)), "ma.gradient": call(F),
    "ma.fromfunction": call(lambda i, j: i + j, (4, 4)),
    "ma.insert": call(F, 1, F1, axis=0), "ma.interp": call(F1, F1, F1), "ma.ix_": call(I1, I1),
    "ma.meshgrid": call(F1, F1), "ma.outer": call(F1, F1), "ma.linalg.outer": call(F1, F1),
    "ma.fromiter": call(F1, D("float64")), "ma.normalize_axis": call(0, 2), "ma.pad": call(F, 1),
    "ma.put_along_axis": call(F, S("i", (4, 1)), 1.0, axis=1),
    "ma.take_along_axis": call(F, S("i", (4, 1)), axis=1),
    "ma.ravel_multi_index": call((I1, I1), (4, 4)), "ma.resize": call(F, (2, 8)), "ma.roll": call(F, 1),
    "ma.seterrcall": call(None), "ma.tile": call(F, (2,)), "ma.trim_zeros": call(F1), "ma.vander": call(F1),
    "ma.load": call("sample.npy"), "ma.fromfile": call("sample.bin"), "ma.save": call("saved.npy", F),
    "ma.savez": call("saved.npz", F), "ma.savez_compressed": call("saved_c.npz", F),
    "NDArray.tofile": call(F, "saved.bin"),
    "ma.loadtxt": call(["1 2", "3 4"]), "ma.genfromtxt": call(["1 2", "3 4"]), "ma.savetxt": call("saved.txt", F),
    "ma.polyfit": call(F1, F1, 2), "ma.roots": call(F1), "ma.polymul": call(F1, F1), "ma.polydiv": call(F1, F1),
    "ma.polyder": call(F1), "ma.polyint": call(F1), "ma.linalg.tensorinv": call(F, 1),
    "ma.linalg.tensorsolve": call(F, F1),
    "Generator.bytes": call(8), "Generator.spawn": call(2), "Generator.multivariate_normal": call(F1, F),
    "RandomState.choice": call(F1, 4, p=S("p", (4,))), "RandomState.multivariate_normal": call(F1, F),
    "RandomState.rand": call(2, 3), "RandomState.randn": call(2, 3),
    # the key array of NumPy's state tuple is read into the generator
    "RandomState.set_state": call(("MT19937", S("i", (624,)), 0, 0, 0.0)),
    "Generator.shuffle": call(F1),  # a 1-d array: shuffled in place by C
    "Generator.choice": call(F1, 4, p=S("p", (4,))), "Generator.integers": call(S("z"), I),
    "Generator.dirichlet": call(F1), "RandomState.dirichlet": call(F1),
    "RandomState.multinomial": call(5, S("p", (4,))),
    "RandomState.triangular": call(0.0, F1, 2.0),  # left < mode < right
    "Generator.triangular": call(0.0, F1, 2.0),
    "Generator.multivariate_hypergeometric": call(I1, 2),  # colors must be integers
    "RandomState.random_integers": call(1, 6, 4),  # scalar bounds only (NumPy's int(high))
    "NDArray.__array_function__": _numpy_hooks("__array_function__"),
    "NDArray.__array_ufunc__": _numpy_hooks("__array_ufunc__"),
    "NDArray.__bool__": call(F0), "NDArray.__complex__": call(F0), "NDArray.__float__": call(F0),
    "NDArray.__int__": call(F0), "NDArray.__index__": call(I0), "NDArray.__format__": call(F0, ".2f"),
    "NDArray.item": call(F, 0), "NDArray.__reduce_ex__": call(F, 2), "NDArray.__setitem__": call(F, 0, F1),
    "ma.fromstring": call("1 2 3 4", sep=" "), "ma.kaiser": call(4, 2.5), "ma.mask_indices": call(4, ma.triu),
    "ma.row_stack": call([F, F]), "ma.setbufsize": call(8192), "ma.typename": call("d"),
    "ma.piecewise": call(F1, [B1], [lambda x: x * 2.0, -1.0]), "ma.putmask": call(F, B, F1),
    "NDArray.fill": call(F, 1.0), "NDArray.reshape": call(F, (2, 8)), "NDArray.transpose": call(F, 1, 0),
    "NDArray.resize": call(F, (2, 8)), "NDArray.choose": call(S("z"), [F, F]),
    "NDArray.dump": lambda: call(F, io.BytesIO()),
}

# Callables not swept, each with the reason; the sweep checks that every
# name here still exists.
EXCLUDED: dict[str, str] = {
    "ma.mgrid": "indexed with slices, never called: takes no array",
    "ma.ogrid": "indexed with slices, never called: takes no array",
    "ma.from_pointer": "takes an address, not an array (the sweep makes its device arrays with it)",
    "ma.frompyfunc": "always refuses (it would make object arrays): takes a function, not an array",
}

# Callables whose signature has out= but which refuse any out array on the
# CPU too (TypeError): nothing to sweep there.  Checked: each still refuses it.
NO_OUT: dict[str, str] = {}

# The documented errors other than RuntimeError, per callable: (exception
# type name, what its message says).
EXPECTED: dict[str, tuple[str, str]] = {
    # docs/dlpack/devices.md, "Raw device pointers": no producer to copy it
    "NDArray.to_device": ("BufferError", "has no DLPack producer to copy it to the CPU"),
    # frombuffer asks the buffer protocol for the memory, whose error is
    # BufferError: the guard's words in it (nd_getbuffer, csrc/py/ndarray.c).
    "ma.frombuffer": ("BufferError", f"this array lives on {DEVICE}"),
}

# Python 3.12 shows the buffer protocol (PEP 688) as NDArray.__buffer__: the
# memoryview export, which takes the buffer flags and refuses a device array
# as frombuffer's request does.
if sys.version_info >= (3, 12):
    OVERRIDES["NDArray.__buffer__"] = call(F, inspect.BufferFlags.SIMPLE)
    EXPECTED["NDArray.__buffer__"] = EXPECTED["ma.frombuffer"]


def _sample(s: S) -> Any:
    """A fresh CPU array for placeholder ``s``."""
    if s.kind == "out":
        return ma.zeros(s.shape, dtype=getattr(ma, s.dtype))
    if s.shape is not None:
        n = math.prod(s.shape)
        if s.kind == "z":
            return ma.zeros(s.shape, dtype=ma.int64)
        if s.kind == "p":
            return ma.full(s.shape, 1 / n)
        if s.kind == "i":
            return (ma.arange(n, dtype=ma.int64) % 4).reshape(s.shape)
        if s.kind == "b":
            return (ma.arange(n, dtype=ma.int64) % 2 == 0).reshape(s.shape)
        x = (ma.arange(n, dtype=ma.float64) + 1) / (n + 1)
        return (x + 0.05j if s.kind == "c" else x).reshape(s.shape)
    base = [[0.6 if i == j else 0.1 for j in range(4)] for i in range(4)]
    ints = [[1 + abs(i - j) + (i == j) * 3 for j in range(4)] for i in range(4)]
    values: Any = {"f": base, "i": ints, "z": [[0] * 4] * 4,
                   "b": [[(i + j) % 2 == 0 for j in range(4)] for i in range(4)],
                   "c": [[complex(v, 0.05) for v in row] for row in base]}[s.kind]
    dtype = {"f": ma.float64, "i": ma.int64, "z": ma.int64, "b": ma.bool, "c": ma.complex128}[s.kind]
    return ma.asarray(values, dtype=dtype)


def _fill(x: Any) -> Any:
    """``x`` with every placeholder replaced by what it stands for."""
    if isinstance(x, S):
        return _sample(x)
    if isinstance(x, D):
        return getattr(ma, x.name)
    if isinstance(x, list):
        return [_fill(v) for v in x]
    if isinstance(x, tuple):
        return tuple(_fill(v) for v in x)
    return x


# ---- what is swept ------------------------------------------------------------------------


@dataclass
class Entry:
    """One public callable: its label, how to call it (the array ``self``
    of a method is its first argument) and the sample calls to try, in
    order, until one works on the CPU."""

    label: str
    fn: Callable[..., Any]
    samples: list[Call]
    out: bool = False  # takes out=: also swept with an out array of the result's shape
    # parameters with a default that may be arrays (clip's min, where=...):
    # each one that takes a sample array on the CPU is swept too
    optional: list[str] = field(default_factory=list)


def _is_public(name: str) -> bool:
    return not name.startswith("_")


# Parameters given a value by name when the signature has no default.
_BY_NAME: dict[str, Any] = {
    "shape": (4, 4), "newshape": (4, 4), "axis": 0, "axes": (1, 0), "source": 0, "destination": 1,
    "axis1": 0, "axis2": 1, "repeats": 2, "indices": I1, "n": 4, "N": 4, "M": 4, "k": 1, "num": 4,
    "start": 0, "stop": 4, "q": 0.5, "kth": 1, "fill_value": 1.0, "dtype": D("float64"), "decimals": 1,
    "length": 4, "order": "C", "copy": True, "device": "cpu", "n_children": 2, "delta": 1, "n_words": 4,
}

# NDArray's dunders that are Python's plumbing, not its array protocol.
_PLUMBING = frozenset({"__class__", "__doc__", "__init_subclass__", "__subclasshook__", "__annotations__",
                       "__slots__", "__module__", "__array_priority__", "__new__", "__init__", "__dict__",
                       "__weakref__", "__getattribute__", "__setattr__", "__delattr__", "__dir__", "__sizeof__",
                       # Python 3.12's release slot (PEP 688): it only takes back a memoryview of
                       # this very array, which a device array never hands out (its __buffer__ refuses)
                       "__release_buffer__"})


def _params(fn: Callable[..., Any], skip_self: bool) -> list[inspect.Parameter] | None:
    try:
        ps = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return None
    return ps[1:] if skip_self and ps else ps


def _entry(label: str, fn: Callable[..., Any], sig_of: Callable[..., Any], method: bool, generator: bool) -> Entry:
    """The entry of ``fn``, whose signature is ``sig_of``'s: its sample
    calls (from the signature, or OVERRIDES), whether it takes ``out=``,
    and its optional parameters.  ``method``: ``sig_of`` is a function of a
    class whose first parameter (self) is not passed; an NDArray method's
    self comes first in its sample calls, as an array of the sample's kind.
    ``generator``: a Generator method, whose parameters are distributions'."""
    ps = _params(sig_of, skip_self=method)
    entry = Entry(label, fn, [], out=ps is not None and any(p.name == "out" for p in ps))
    named = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    entry.optional = [p.name for p in ps or () if p.name != "out" and p.kind in named
                      and (p.default is None or (type(p.default) is float and not generator))]
    if label in OVERRIDES:
        o = OVERRIDES[label]
        entry.samples = [o if isinstance(o, Call) else o()]
        return entry
    array_self = label.startswith("NDArray.")
    calls = []
    for kind in "fibc":
        sample = S(kind)
        lead = [sample] if array_self else []
        if ps is None:  # a C slot (an operator, a conversion): unary or binary
            calls += [Call(tuple(lead)), Call((*lead, sample))]
            continue
        args, kwargs = list(lead), {}
        for p in ps:
            if p.kind is p.VAR_POSITIONAL:
                args += [sample, sample]
            elif p.kind is p.VAR_KEYWORD or p.name == "out":
                continue
            elif generator and p.name == "size":
                kwargs["size"] = (4, 4)
            elif generator and type(p.default) is float:
                kwargs[p.name] = sample  # a distribution's parameter: an array of them
            elif p.default is not p.empty:
                continue
            else:
                # a distribution's parameters are arrays whatever their names
                v = sample if generator else _BY_NAME.get(p.name, sample)
                if p.kind is p.KEYWORD_ONLY or kwargs:
                    kwargs[p.name] = v
                else:
                    args.append(v)
        calls.append(Call(tuple(args), kwargs))
    entry.samples = calls
    return entry


def _method(name: str) -> Callable[..., Any]:
    def fn(self: Any, *args: Any, **kwargs: Any) -> Any:
        return getattr(self, name)(*args, **kwargs)
    return fn


def _property(name: str) -> Callable[..., Any]:
    def fn(self: Any) -> Any:
        return getattr(self, name)
    return fn


def _bound(obj: Any, name: str) -> Callable[..., Any]:
    def fn(*args: Any, **kwargs: Any) -> Any:
        return getattr(obj(), name)(*args, **kwargs)
    return fn


def entries() -> list[Entry]:
    """Every public callable, in a fixed order."""
    out: list[Entry] = []

    def add(label: str, fn: Callable[..., Any], sig_of: Callable[..., Any], method: bool = False,
            generator: bool = False) -> None:
        if label in EXCLUDED:
            return
        out.append(_entry(label, fn, sig_of, method, generator))

    namespaces = [("ma", ma, list(ma.__all__)), ("ma.linalg", ma.linalg, dir(ma.linalg)),
                  ("ma.fft", ma.fft, list(ma.fft.__all__))]
    for prefix, mod, names in namespaces:
        for name in sorted(set(names)):
            obj = getattr(mod, name)
            if not _is_public(name) or inspect.isclass(obj) or inspect.ismodule(obj) or not callable(obj):
                continue
            if prefix != "ma" and getattr(obj, "__module__", "").split(".")[:2] != mod.__name__.split(".")[:2]:
                continue  # the core namespace's functions, re-exported (ma.linalg.matmul): swept there
            add(f"{prefix}.{name}", obj, obj)
    add("ma.random.default_rng", ma.random.default_rng, ma.random.default_rng)
    classes: list[tuple[str, Any, Callable[[], Any]]] = [
        ("Generator", ma.random.Generator, lambda: ma.random.default_rng(0)),
        ("PCG64", ma.random.PCG64, lambda: ma.random.PCG64(0)),
        ("PCG64DXSM", ma.random.PCG64DXSM, lambda: ma.random.PCG64DXSM(0)),
        ("SeedSequence", ma.random.SeedSequence, lambda: ma.random.SeedSequence(0)),
        # NumPy's legacy API: the module functions (np.random.rand...) are
        # this class's methods, on one global instance
        ("RandomState", ma.random.RandomState, lambda: ma.random.RandomState(0)),
        ("MT19937", ma.random.MT19937, lambda: ma.random.MT19937(0)),
    ]
    for cname, cls, make in classes:
        for name in sorted(n for n in dir(cls) if _is_public(n)):
            attr = inspect.getattr_static(cls, name)
            if isinstance(attr, property) or not callable(getattr(cls, name)):
                continue
            add(f"{cname}.{name}", _bound(make, name), getattr(cls, name), method=True,
                generator=cname == "Generator")
    nd = ma.NDArray
    for name in sorted(dir(nd)):
        dunder = name.startswith("__") and name.endswith("__")
        if (name.startswith("_") and not dunder) or name in _PLUMBING or getattr(nd, name) is getattr(object, name, 0):
            continue  # private, plumbing, or object's own (NDArray does not define it)
        attr = inspect.getattr_static(nd, name)
        label = f"NDArray.{name}"
        if label in EXCLUDED:
            continue
        if callable(attr) or isinstance(attr, (staticmethod, classmethod)):
            add(label, _method(name), getattr(nd, name), method=True)
        else:  # a property or a C member: reading it
            out.append(Entry(label, _property(name), [call(F)]))
    return out


# ---- one call, on the CPU and on a device -------------------------------------------------


def _slots(c: Call) -> Iterator[tuple[Any, ...]]:
    """Where the arrays of sample call ``c`` are: ("a", i), ("a", i, k) for
    the k-th of a list argument, and the same with "k" and a name."""
    for where, items in (("a", list(enumerate(c.args))), ("k", list(c.kwargs.items()))):
        for key, v in items:
            if isinstance(v, S):
                yield (where, key)
            elif isinstance(v, (list, tuple)):
                for k, e in enumerate(v):
                    if isinstance(e, S):
                        yield (where, key, k)


def _slot_name(slot: tuple[Any, ...]) -> str:
    name = f"arg{slot[1]}" if slot[0] == "a" else f"{slot[1]}="
    return name + (f"[{slot[2]}]" if len(slot) == 3 else "")


def _device_twin(x: Any) -> Any:
    """An array like ``x`` on CUDA:0, over memory the process may not read."""
    return from_pointer(no_access_memory(max(x.nbytes, 1)), x.shape, x.dtype, device=(DLDeviceType.CUDA, 0))


def _materialise(c: Call, slot: tuple[Any, ...] | None) -> tuple[list[Any], dict[str, Any]]:
    """Fresh arguments for ``c``, the one at ``slot`` a device array."""
    args, kwargs = list(_fill(c.args)), {k: _fill(v) for k, v in c.kwargs.items()}
    if slot is not None:
        holder: Any = args if slot[0] == "a" else kwargs
        if len(slot) == 2:
            holder[slot[1]] = _device_twin(holder[slot[1]])
        else:
            seq = list(holder[slot[1]])
            seq[slot[2]] = _device_twin(seq[slot[2]])
            holder[slot[1]] = type(holder[slot[1]])(seq)
    return args, kwargs


def _run(e: Entry, c: Call, slot: tuple[Any, ...] | None) -> Any:
    args, kwargs = _materialise(c, slot)
    return e.fn(*args, **kwargs)


def _out_call(c: Call, result: Any) -> Call | None:
    """``c`` with out= arrays of ``result``'s shapes and dtypes."""
    if isinstance(result, ma.NDArray):
        return Call(c.args, {**c.kwargs, "out": S("out", result.shape, result.dtype.name)})
    if isinstance(result, tuple) and result and all(isinstance(r, ma.NDArray) for r in result):
        return Call(c.args, {**c.kwargs, "out": tuple(S("out", r.shape, r.dtype.name) for r in result)})
    return None


def _optional_calls(e: Entry, c: Call) -> list[tuple[Call, list[tuple[Any, ...]]]]:
    """``c`` with each optional parameter of ``e`` that takes an array on
    the CPU (the kind of c's first array, or bool: a where= mask) given one,
    to sweep that parameter."""
    kind = next((v.kind for v in (*c.args, *c.kwargs.values()) if isinstance(v, S) and v.shape is None), "f")
    found = []
    for name in e.optional:
        if name in c.kwargs:
            continue
        for sample in (S(kind), B):
            oc = Call(c.args, {**c.kwargs, name: sample})
            try:
                _run(e, oc, None)
            except Exception:  # not an array parameter, or not this kind: nothing to sweep
                continue
            found.append((oc, [("k", name)]))
            break
    return found


def _verdict(label: str, exc: BaseException) -> str:
    """"" when the device call raised the documented error: RuntimeError
    naming the device (or EXPECTED's); else what went wrong.  (A call that
    returns, on memory nobody may read, read nothing: that is fine too.)"""
    name, words = EXPECTED.get(label, ("RuntimeError", DEVICE))
    if type(exc).__name__ == name and words in str(exc):
        return ""
    return f"raised {_brief(exc)}"


def _brief(exc: BaseException) -> str:
    """An exception in one line, without the array reprs its message may hold."""
    text = str(exc).split("\n")[0]
    return f"{type(exc).__name__}: {text[:160]}"


# ---- the child ----------------------------------------------------------------------------


def _child(progress: Path, start: int, crashed: set[int]) -> None:
    """Make every call from step ``start`` on, in the working directory,
    noting each in ``progress`` before it runs ("B step label") and its
    verdict after ("R step failure-or-empty"); "E" at the end.  ``crashed``:
    the steps that killed earlier children (a CPU call among them has no
    device calls to number)."""
    warnings.simplefilter("ignore")
    sample = _sample(F)
    ma.save("sample.npy", sample)
    sample.tofile("sample.bin")
    log = open(progress, "a", buffering=1)  # line-buffered: each line is in the file before the call
    crash = set(json.loads(os.environ.get(_CRASH_ENV, "[]")))
    step = 0

    def check(label: str, run: Callable[[], str]) -> None:
        """One step: ``run`` returns what went wrong, or ""."""
        nonlocal step
        this, step = step, step + 1
        if this < start:
            return
        log.write(f"B {this} {json.dumps(label)}\n")
        if label in crash:
            ctypes.string_at(no_access_memory(8), 8)  # a read of device memory, as a missing guard makes
        verdict = run()
        log.write(f"R {this} {json.dumps(verdict)}\n")

    found = entries()
    labels = {e.label for e in found}
    # every name in the tables is one that exists (a stale one says what is not true)
    check("the exclusions", lambda: _stale("EXCLUDED", set(EXCLUDED) - _all_labels()))
    check("the tables", lambda: _stale("OVERRIDES/NO_OUT/EXPECTED", (set(OVERRIDES) | set(NO_OUT) | set(EXPECTED))
                                       - labels))
    for e in found:
        calls: list[tuple[Call, list[tuple[Any, ...]]]] = []

        def on_cpu(e: Entry = e, calls: list[tuple[Call, list[tuple[Any, ...]]]] = calls) -> str:
            # the sample calls, in order, until one works; then the same with out=
            errors = []
            for c in e.samples:
                try:
                    result = _run(e, c, None)
                except Exception as exc:  # any error: reported as what went wrong
                    errors.append(_brief(exc))
                    continue
                calls.append((c, list(_slots(c))))
                calls += _optional_calls(e, c)
                oc = _out_call(c, result) if e.out else None
                del result
                if oc is None:
                    return ""
                try:
                    _run(e, oc, None)
                except Exception as exc:  # any error: reported as what went wrong
                    return "" if e.label in NO_OUT else f"the call with out= fails on the CPU: {_brief(exc)}"
                if e.label in NO_OUT:
                    return "works with out= on the CPU: remove it from NO_OUT"
                calls.append((oc, [s for s in _slots(oc) if s[0] == "k" and s[1] == "out"]))
                return ""
            return "no sample call works on the CPU (add one to OVERRIDES): " + " | ".join(errors)

        # the CPU call re-runs (unrecorded) in a child that starts after it: the device calls need it
        if step < start and step not in crashed:
            on_cpu()
        check(f"{e.label} (on the CPU)", on_cpu)
        for c, slots in calls:
            for slot in slots:
                label = f"{e.label} with a device array as {_slot_name(slot)}"

                def on_device(e: Entry = e, c: Call = c, slot: tuple[Any, ...] = slot) -> str:
                    try:
                        _run(e, c, slot)
                    except Exception as exc:  # any error: reported as what went wrong
                        return _verdict(e.label, exc)
                    return ""
                check(label, on_device)
    log.write(f"E {step} {json.dumps('')}\n")
    log.close()


def _stale(table: str, names: set[str]) -> str:
    return f"{table} names callables that do not exist: {sorted(names)}" if names else ""


def _all_labels() -> set[str]:
    labels = {f"ma.{n}" for n in ma.__all__} | {f"ma.linalg.{n}" for n in dir(ma.linalg)}
    labels |= {f"ma.fft.{n}" for n in ma.fft.__all__} | {f"NDArray.{n}" for n in dir(ma.NDArray)}
    for cname in ("Generator", "PCG64", "PCG64DXSM", "SeedSequence"):
        labels |= {f"{cname}.{n}" for n in dir(getattr(ma.random, cname))}
    return labels


# ---- the parent ---------------------------------------------------------------------------


@dataclass
class Sweep:
    failures: list[str] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)  # every step made, in order
    children: int = 0


def sweep(extra_env: dict[str, str] | None = None) -> Sweep:
    """Run the child until it has made every call; each crash fails the
    call it was making and a new child starts after it."""
    res = Sweep()
    start, crashed = 0, []
    with tempfile.TemporaryDirectory() as tmp:
        while True:
            progress = Path(tmp) / f"progress-{res.children}.txt"
            progress.touch()
            env = {**os.environ, **(extra_env or {}),
                   "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "tests")])}
            res.children += 1
            try:
                proc = subprocess.run([sys.executable, __file__, str(progress), str(start), json.dumps(crashed)],
                                      env=env, cwd=tmp, capture_output=True, text=True, timeout=CHILD_TIMEOUT_S)
                rc, tail = proc.returncode, proc.stderr[-2000:]
            except subprocess.TimeoutExpired:
                rc, tail = None, "timed out"
            begun: tuple[int, str] | None = None
            ended = False
            for line in progress.read_text().splitlines():
                kind, step_s, text = line.split(" ", 2)
                step, text = int(step_s), json.loads(text)
                if kind == "B":
                    begun = (step, text)
                elif kind == "R" and begun is not None:
                    res.labels.append(begun[1])
                    if text:
                        res.failures.append(f"{begun[1]}: {text}")
                    begun = None
                else:
                    ended = True
            if ended and rc == 0:
                return res
            if begun is None:  # died outside a call: nothing to blame, nothing to resume
                res.failures.append(f"the sweep's child failed outside any call (exit {rc}): {tail}")
                return res
            how = "hung" if rc is None else (f"crashed ({signal.Signals(-rc).name})" if rc < 0 else f"exited {rc}")
            res.failures.append(f"{begun[1]}: the process {how}")
            res.labels.append(begun[1])
            crashed.append(begun[0])
            start = begun[0] + 1


def test_every_public_callable_refuses_device_arrays() -> None:
    res = sweep()
    assert len(res.labels) > 1000, f"only {len(res.labels)} calls were swept"
    assert not res.failures, f"{len(res.failures)} of {len(res.labels)} calls failed:\n" + "\n".join(res.failures)


def test_a_crash_fails_its_call_and_the_sweep_goes_on() -> None:
    # Calls made to read memory nobody may read, as a missing guard would:
    # each is named, and every call after each is still made (but those of
    # a function whose CPU call crashed: they cannot be built).
    culprits = ["ma.add with a device array as arg1", "ma.linalg.det (on the CPU)",
                "NDArray.sum with a device array as arg0"]
    res, clean = sweep({_CRASH_ENV: json.dumps(culprits)}), sweep()
    assert res.children == 4
    # (under AddressSanitizer the segfault is reported, then aborts)
    crash = "SIGABRT" if "libasan" in os.environ.get("LD_PRELOAD", "") else "SIGSEGV"
    assert res.failures == [f"{c}: the process crashed ({crash})" for c in culprits]
    assert res.labels == [x for x in clean.labels if not x.startswith("ma.linalg.det with ")]
    assert len(res.labels) < len(clean.labels)


# The modules that may read an array's address as a number (NDArray.data_ptr,
# core.data_ptr), and why: none of them hands it to C to read or write.
ADDRESS_READERS = {
    "_array_object.py": "defines NDArray.data_ptr",
    "_array_interface.py": "the address of a buffer it wraps, for the alignment check",
    "_io.py": "the alignment check of the bytes it wraps",
    "_inspection.py": "shares_memory: the elements' addresses compared, never read",
    "dlpack.py": "DLPack exports and imports: an address in a tensor is metadata",
    "__main__.py": "prints addresses, to show that memory is shared",
    "lib/stride_tricks.py": "as_strided's bounds check: the view's offset in its buffer, compared, never read",
    "testing/": "compares addresses between libraries (zero-copy checks)",
}
# The modules that may cast a number into a C pointer (ffi.cast): the one
# helper that turns an array into a pointer through the device guard, and
# the DLPack structs minarray reads by address.
POINTER_MAKERS = {
    "_native.py": "host_pointer: an array's data through the device guard",
    "dlpack.py": "DLPack structs (a capsule's or the exchange API's), not array data",
    "testing/dlpack_protocol.py": "the exchange API's table, not array data",
    "random/_legacy.py": "RandomState's C state (the capsule csrc/py/random_draw.c makes), not array data",
}


def _allowed(rel: str, table: dict[str, str]) -> bool:
    return any(rel == k or (k.endswith("/") and rel.startswith(k)) for k in table)


def test_array_memory_reaches_c_only_through_the_device_guard() -> None:
    # A raw address cast into a pointer skips the device guard: a device
    # array's memory then reaches C, which crashes reading it.  Only
    # minarray._native.host_pointer may turn an array into a pointer.
    pkg = ROOT / "minarray"
    readers, makers = set(), set()
    for path in sorted(pkg.rglob("*.py")):
        rel = path.relative_to(pkg).as_posix()
        for node in ast.walk(ast.parse(path.read_text(), rel)):
            if isinstance(node, ast.Attribute) and node.attr == "data_ptr":
                readers.add(rel)
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "cast"
                    and isinstance(node.func.value, ast.Name) and node.func.value.id == "ffi"):
                makers.add(rel)
    assert not {r for r in readers if not _allowed(r, ADDRESS_READERS)}, \
        "read an array's address (data_ptr): use minarray._native.host_pointer to hand memory to C"
    assert not {m for m in makers if not _allowed(m, POINTER_MAKERS)}, \
        "cast a number into a C pointer: use minarray._native.host_pointer for an array's memory"
    # and the tables name modules that still do what they excuse
    assert {k for k in ADDRESS_READERS if not any(_allowed(r, {k: ""}) for r in readers)} == set()
    assert {k for k in POINTER_MAKERS if not any(_allowed(m, {k: ""}) for m in makers)} == set()


if __name__ == "__main__":
    _child(Path(sys.argv[1]), int(sys.argv[2]), set(json.loads(sys.argv[3])))
