"""Floating-point errors, handled as NumPy handles them.

A kernel that divides by zero, overflows, underflows or produces an invalid
value (0/0, log(-1)) raises the processor's floating-point flags; the C
engine reads them once per call (never per element, on every thread that
ran the call) and, when one was raised, hands them here.  What happens then
is the errstate in force for that kind of error:

* ``"ignore"``: nothing;
* ``"warn"``: a ``RuntimeWarning`` ("divide by zero encountered in log");
* ``"raise"``: ``FloatingPointError`` with the same words;
* ``"call"``: the function set with :func:`seterrcall` is called with the
  kind ("divide by zero") and its flag, as NumPy calls it;
* ``"print"``: the message is printed to standard output;
* ``"log"``: the message is written to the object set with
  :func:`seterrcall` (anything with a ``write`` method).

The defaults are NumPy's: ``divide``, ``over`` and ``invalid`` warn,
``under`` is ignored.  The state is thread- and context-local (a
``contextvars.ContextVar``): a thread starts from the defaults, and
:class:`errstate` changes it only inside its ``with`` block or the function
it decorates.
"""

from __future__ import annotations

import contextlib
import contextvars
import operator
import os
import sys
import types
import warnings
from collections.abc import Callable, Mapping
from typing import Any, Literal

from minarray._native import core

__all__ = [
    "errstate", "geterr", "geterrcall", "seterr", "seterrcall", "getbufsize", "setbufsize",
]


Mode = Literal["ignore", "warn", "raise", "call", "print", "log"]


_MODES: frozenset[str] = frozenset(("ignore", "warn", "raise", "call", "print", "log"))


_KINDS = ("divide", "over", "under", "invalid")


# The flags' bits (csrc/core/fpe.h) and NumPy's words for each kind.
_BITS = {"divide": 1, "over": 2, "under": 4, "invalid": 8}


_WORDS = {"divide": "divide by zero", "over": "overflow", "under": "underflow", "invalid": "invalid value"}


_DEFAULT: dict[str, str] = {"divide": "warn", "over": "warn", "under": "ignore", "invalid": "warn"}


_state: contextvars.ContextVar[tuple[dict[str, str], Any]] = contextvars.ContextVar(
    "minarray_errstate", default=(_DEFAULT, None))


def geterr() -> dict[str, str]:
    """How each kind of floating-point error is handled now (NumPy's
    ``geterr``): ``{"divide": ..., "over": ..., "under": ..., "invalid": ...}``."""
    return dict(_state.get()[0])


def _checked(all: str | None, kinds: Mapping[str, str | None]) -> dict[str, str]:
    new = dict(_state.get()[0])
    if all is not None:
        if all not in _MODES:
            raise ValueError(f"invalid floating-point error mode {all!r}: expected one of {sorted(_MODES)}")
        new = dict.fromkeys(_KINDS, all)
    for kind, mode in kinds.items():
        if mode is None:
            continue
        if mode not in _MODES:
            raise ValueError(f"invalid floating-point error mode {mode!r} for {kind}: "
                             f"expected one of {sorted(_MODES)}")
        new[kind] = mode
    return new


def seterr(all: Mode | None = None, divide: Mode | None = None, over: Mode | None = None,
           under: Mode | None = None, invalid: Mode | None = None) -> dict[str, str]:
    """Set how floating-point errors are handled (NumPy's ``seterr``);
    returns the previous settings.  ``all`` sets every kind, then the named
    kinds override it."""
    old, call = _state.get()
    _state.set((_checked(all, {"divide": divide, "over": over, "under": under, "invalid": invalid}), call))
    return dict(old)


def geterrcall() -> Any:
    """The function (or object with ``write``) used by the ``"call"`` and
    ``"log"`` modes, or None."""
    return _state.get()[1]


def seterrcall(func: Any) -> Any:
    """Set the function called in ``"call"`` mode (with the message and the
    flag) or the object written to in ``"log"`` mode; returns the old one."""
    if func is not None and not callable(func) and not callable(getattr(func, "write", None)):
        raise ValueError("seterrcall needs a callable, an object with a write method, or None")
    modes, old = _state.get()
    _state.set((modes, func))
    return old


class errstate(contextlib.ContextDecorator):
    """Floating-point error handling for a ``with`` block or a decorated
    function (NumPy's ``errstate``)::

        with ma.errstate(divide="ignore"):
            ma.log(ma.zeros(3))

    Accepts ``all``, ``divide``, ``over``, ``under``, ``invalid`` and
    ``call`` (the function or log object for ``"call"``/``"log"``)."""

    def __init__(self, *, call: Any = None, all: Mode | None = None, divide: Mode | None = None,
                 over: Mode | None = None, under: Mode | None = None, invalid: Mode | None = None) -> None:
        self._call = call
        self._kinds = {"divide": divide, "over": over, "under": under, "invalid": invalid}
        self._all = all
        self._tokens: list[tuple[contextvars.Token[tuple[dict[str, str], Any]], contextvars.Token[int]]] = []

    def __enter__(self) -> errstate:
        modes = _checked(self._all, self._kinds)
        call = self._call if self._call is not None else _state.get()[1]
        # the buffer size is part of NumPy's error state: restored on exit too
        self._tokens.append((_state.set((modes, call)), _bufsize.set(_bufsize.get())))
        return self

    def __exit__(self, *exc: object) -> None:
        state, bufsize = self._tokens.pop()
        _bufsize.reset(bufsize)
        _state.reset(state)


_PACKAGE = os.path.dirname(os.path.abspath(__file__)) + os.sep


def _user_stacklevel() -> int:
    """The stacklevel that points a warning at the first frame outside
    minarray (the user's line, as NumPy's warnings from C do)."""
    level = 2
    f: types.FrameType | None = sys._getframe(2)
    while f is not None and f.f_code.co_filename.startswith(_PACKAGE):
        f = f.f_back
        level += 1
    return level


def _report(operation: str, flags: int) -> None:
    """Called by the C engine when an operation raised floating-point flags."""
    modes, call = _state.get()
    # The kernels carry the Array API's names ("pow", "acos"); NumPy's
    # messages name its ufuncs ("power", "arccos").
    from minarray._numpy_dispatch import NUMPY_UFUNC_NAME  # cycle: dispatch imports the whole namespace

    operation = NUMPY_UFUNC_NAME.get(operation, operation)
    for kind in _KINDS:
        if not flags & _BITS[kind]:
            continue
        mode = modes[kind]
        if mode == "ignore":
            continue
        message = f"{_WORDS[kind]} encountered in {operation}"
        if mode == "warn":
            warnings.warn(message, RuntimeWarning, stacklevel=_user_stacklevel())
        elif mode == "raise":
            raise FloatingPointError(message)
        elif mode == "print":
            print(f"Warning: {message}")
        elif mode == "call":
            if call is None:
                raise ValueError(f"{message}, and errstate says 'call' with no function set (seterrcall)")
            fn: Callable[[str, int], Any] = call
            fn(_WORDS[kind], _BITS[kind])  # NumPy's: the kind alone ("divide by zero"), and its flag
        else:  # log
            if call is None or not hasattr(call, "write"):
                raise ValueError(f"{message}, and errstate says 'log' with no log object set (seterrcall)")
            call.write(f"Warning: {message}\n")


core.fpe_setup(_report)


# NumPy's ufunc buffer size, in elements.  minarray's loops run on the
# arrays' own memory and have no buffer: the number is kept only so that
# code that sets and restores it runs, with NumPy's checks.
_bufsize: contextvars.ContextVar[int] = contextvars.ContextVar("minarray_bufsize", default=8192)
# NumPy's bounds: one complex double, and a million of them.
_MIN_BUFSIZE = 16
_MAX_BUFSIZE = 16_000_000


def getbufsize() -> int:
    """NumPy's ufunc buffer size (8192 unless :func:`setbufsize` changed
    it); minarray keeps the number but has no such buffer."""
    return _bufsize.get()


def setbufsize(size: int) -> int:
    """Set the number :func:`getbufsize` returns, checked as NumPy checks
    it (a multiple of 16 from 16 to 16,000,000), and return the old one.
    It changes nothing else: minarray's loops have no buffer."""
    if size < 0:
        raise ValueError("buffer size must be non-negative")
    n = operator.index(size)
    if n > _MAX_BUFSIZE:
        raise ValueError(f"Buffer size, {n}, is too big")
    if n % 16:
        raise ValueError(f"Buffer size, {n}, is not a multiple of 16")
    if n < _MIN_BUFSIZE:
        raise ValueError(f"Buffer size, {n}, is too small")
    old = _bufsize.get()
    _bufsize.set(n)
    return old
