"""Which route answered an indexing call.  NDArray's indexing parses the
key once in C (csrc/py/views.c) and answers it there, or hands the parsed
key to minarray._indexing's general route; core.general_route_calls()
counts the hand-overs, so a test can say which route a key takes."""

from __future__ import annotations

from typing import Any

import minarray as ma

core = ma._native.core


def answered_in_c(x: ma.NDArray, key: Any) -> bool:
    """Does x[key] come from C alone (its answer, or its error)?"""
    before = core.general_route_calls()
    try:
        x[key]
    except (IndexError, ValueError, TypeError):
        pass  # the route is the question here; the error is checked by the caller
    return bool(core.general_route_calls() == before)


def set_in_c(x: ma.NDArray, key: Any, value: Any) -> bool:
    """Does x[key] = value happen in C alone?"""
    before = core.general_route_calls()
    x[key] = value
    return bool(core.general_route_calls() == before)
