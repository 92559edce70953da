"""NumPy's print options: ``set_printoptions``, ``get_printoptions`` and the
``printoptions`` context manager.

The options live in a :class:`contextvars.ContextVar`, as NumPy 2 keeps
them: a ``with printoptions(...)`` block in one thread (or asyncio task)
changes what that thread prints and nothing else.  The stored dict is never
mutated, only replaced, so a printing call that reads it once sees one
consistent set of options however other threads change theirs.

``legacy`` is stored as an int, as NumPy stores it, so that the printing
code compares it with a version (``legacy <= 202``); ``get_printoptions``
turns it back into the string (or ``False``) it was given.
"""

from __future__ import annotations

import contextlib
import math
import numbers
import operator
import sys
import warnings
from collections.abc import Callable, Iterator, Mapping
from contextvars import ContextVar, Token
from typing import Any

__all__ = ["set_printoptions", "get_printoptions", "printoptions"]


_DEFAULTS: dict[str, Any] = {
    "edgeitems": 3,
    "threshold": 1000,
    "floatmode": "maxprec",
    "precision": 8,
    "suppress": False,
    "linewidth": 75,
    "nanstr": "nan",
    "infstr": "inf",
    "sign": "-",
    "formatter": None,
    "legacy": sys.maxsize,
    "override_repr": None,
}

# what each accepted ``legacy`` string is stored as, and back
_LEGACY = {"1.13": 113, "1.21": 121, "1.25": 125, "2.1": 201, "2.2": 202}
_LEGACY_NAME: dict[int, str | bool] = {v: k for k, v in _LEGACY.items()} | {sys.maxsize: False}

FLOATMODES = ("fixed", "unique", "maxprec", "maxprec_equal")

_options: ContextVar[dict[str, Any]] = ContextVar("minarray_print_options", default=_DEFAULTS)


def current() -> dict[str, Any]:
    """The options in force in this context (internal form: ``legacy`` an
    int).  Callers must not mutate it."""
    return _options.get()


def checked(precision: Any = None, threshold: Any = None, edgeitems: Any = None, linewidth: Any = None,
            suppress: Any = None, nanstr: Any = None, infstr: Any = None, sign: Any = None,
            formatter: Any = None, floatmode: Any = None, legacy: Any = None) -> dict[str, Any]:
    """The options given (those not None), checked and converted as NumPy's
    ``_make_options_dict`` does: the same errors for the same bad values
    (an unknown ``legacy`` only warns, as in NumPy)."""
    given = {"precision": precision, "threshold": threshold, "edgeitems": edgeitems, "linewidth": linewidth,
             "suppress": suppress, "nanstr": nanstr, "infstr": infstr, "sign": sign, "formatter": formatter,
             "floatmode": floatmode, "legacy": legacy}
    options = {k: v for k, v in given.items() if v is not None}
    if suppress is not None:
        options["suppress"] = bool(suppress)
    if floatmode is not None and floatmode not in FLOATMODES:
        raise ValueError("floatmode option must be one of " + ", ".join(f'"{m}"' for m in FLOATMODES))
    if sign is not None and sign not in ("-", "+", " "):
        raise ValueError("sign option must be one of ' ', '+', or '-'")
    if legacy is not None:
        if legacy is False:
            options["legacy"] = sys.maxsize
        elif isinstance(legacy, str) and legacy in _LEGACY:
            options["legacy"] = _LEGACY[legacy]
        elif legacy == False:  # noqa: E712  (0, 0.0: NumPy accepts them with a deprecation)
            warnings.warn(f"Passing `legacy={legacy!r}` is deprecated.", FutureWarning, stacklevel=3)
            options["legacy"] = sys.maxsize
        else:
            del options["legacy"]
            warnings.warn("legacy printing option can currently only be '1.13', '1.21', '1.25', '2.1', "
                          "'2.2' or `False`", stacklevel=3)
    if threshold is not None:
        # a string threshold ("nan", as once suggested for "print everything") is refused
        if not isinstance(threshold, numbers.Number):
            raise TypeError("threshold must be numeric")
        if isinstance(threshold, numbers.Real) and math.isnan(threshold):
            raise ValueError("threshold must be non-NAN, try sys.maxsize for untruncated representation")
    if precision is not None:
        try:
            options["precision"] = operator.index(precision)
        except TypeError as e:
            raise TypeError("precision must be an integer") from e
    if formatter is not None and not isinstance(formatter, Mapping):
        raise TypeError(f"formatter must be a dict of callables keyed by type kind, not {type(formatter).__name__}")
    if "edgeitems" in options:
        # (NumPy fails on a float only once an array is summarised: a slice's TypeError)
        try:
            options["edgeitems"] = operator.index(edgeitems)
        except TypeError as e:
            raise TypeError("edgeitems must be an integer") from e
    if linewidth is not None and not isinstance(linewidth, numbers.Real):
        raise TypeError("linewidth must be a number")  # (NumPy only compares it with lengths)
    return options


def _set(precision: Any = None, threshold: Any = None, edgeitems: Any = None, linewidth: Any = None,
         suppress: Any = None, nanstr: Any = None, infstr: Any = None, formatter: Any = None, sign: Any = None,
         floatmode: Any = None, *, legacy: Any = None,
         override_repr: Callable[[Any], str] | None = None) -> Token[dict[str, Any]]:
    new = checked(precision, threshold, edgeitems, linewidth, suppress, nanstr, infstr, sign, formatter,
                  floatmode, legacy)
    if override_repr is not None and not callable(override_repr):
        raise TypeError(f"override_repr must be callable, not {type(override_repr).__name__}")
    # as in NumPy, every call resets these two
    new["formatter"] = formatter
    new["override_repr"] = override_repr
    merged = _options.get() | new
    if merged["legacy"] == 113:
        merged["sign"] = "-"
    return _options.set(merged)


def set_printoptions(precision: Any = None, threshold: Any = None, edgeitems: Any = None,
                     linewidth: Any = None, suppress: Any = None, nanstr: Any = None, infstr: Any = None,
                     formatter: Any = None, sign: Any = None, floatmode: Any = None, *, legacy: Any = None,
                     override_repr: Callable[[Any], str] | None = None) -> None:
    """Set how arrays print, in this thread or task (NumPy's
    ``set_printoptions``; options left as None keep their value, except
    ``formatter`` and ``override_repr``, which every call resets)."""
    _set(precision, threshold, edgeitems, linewidth, suppress, nanstr, infstr, formatter, sign, floatmode,
         legacy=legacy, override_repr=override_repr)


def get_printoptions() -> dict[str, Any]:
    """The print options in force, as NumPy's ``get_printoptions`` returns
    them (a new dict; ``legacy`` is ``False`` or the version string)."""
    opts = dict(_options.get())
    opts["legacy"] = _LEGACY_NAME[opts["legacy"]]
    return opts


@contextlib.contextmanager
def printoptions(*args: Any, **kwargs: Any) -> Iterator[dict[str, Any]]:
    """``with printoptions(precision=2): ...``: the options for the block
    only, restored on the way out, exception or not; ``as`` gives the
    options in force inside."""
    token = _set(*args, **kwargs)
    try:
        yield get_printoptions()
    finally:
        _options.reset(token)
