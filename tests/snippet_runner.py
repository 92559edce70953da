"""Run a small piece of NumPy code with ``np`` bound to NumPy or to
minarray and record everything a user would see: what it prints, the repr
of its last expression, the warnings it raises and the exception it stops
on.  tests/test_numpy_snippets.py compares the two records."""

from __future__ import annotations

import ast
import contextlib
import copy
import io
import math
import operator
import pickle
import re
import warnings
from types import ModuleType
from typing import Any

import numpy

import minarray

LIBRARIES: dict[str, ModuleType] = {"numpy": numpy, "minarray": minarray}


def _namespace(lib: ModuleType) -> dict[str, Any]:
    return {"np": lib, "io": io, "math": math, "operator": operator, "pickle": pickle, "copy": copy,
            "warnings": warnings, "__name__": "__snippet__"}


def run(code: str, library: str) -> list[str]:
    """What running ``code`` with ``np`` bound to ``library`` shows, as lines:
    the printed text, ``-> repr`` of a trailing expression, ``warning:`` and
    ``raises:`` lines."""
    lib = LIBRARIES[library]
    tree = ast.parse(code)
    last: ast.expr | None = None
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        last = tree.body.pop().value
    ns = _namespace(lib)
    out = io.StringIO()
    record: list[str] = []
    saved = lib.get_printoptions()
    lib.random.seed(12345)
    try:
        with warnings.catch_warnings(record=True) as caught, contextlib.redirect_stdout(out):
            warnings.simplefilter("always")
            try:
                exec(compile(tree, "<snippet>", "exec"), ns)
                if last is not None:
                    value = eval(compile(ast.Expression(last), "<snippet>", "eval"), ns)
                    record.append("-> " + repr(value))
            except Exception as exc:
                # Error messages are minarray's own words (they name the
                # function and the shapes); the class is what code catches.
                # np.testing's messages are what a failing test shows, so
                # those are compared whole.
                detail = f": {exc}" if isinstance(exc, AssertionError) else ""
                record.append(f"raises: {type(exc).__name__}{detail}")
    finally:
        lib.set_printoptions(**saved)
    shown = [f"warning: {w.category.__name__}: {w.message}" for w in caught]
    # an object's address ("<_io.StringIO object at 0x7f...>") is not NumPy's
    return [_ADDRESS.sub(" at 0x...", line) for line in out.getvalue().splitlines() + shown + record]


_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")
