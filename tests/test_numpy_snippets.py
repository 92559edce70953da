"""NumPy code in the wild runs unchanged: each snippet of
tests/numpy_snippets.py runs with ``np`` bound to NumPy and to minarray
(tests/snippet_runner.py), and must print the same, give the same repr,
warn the same and stop on the same exception class (np.testing's failure
messages compared whole).

A few snippets show a difference that is minarray's by design, each listed
in DIFFERS with the reason (and in docs/cheatsheet.md's "What differs");
those in PENDING are differences not mended yet, listed with what they
need (and in the cheat sheet's figures of this sweep).  The listed ones
are not counted as matching: a test of their own checks that each still
differs from NumPy as the lists say, so a snippet that comes to match
fails there until it is taken off its list.
"""

from __future__ import annotations

import os
import platform

import pytest
from numpy_snippets import SNIPPETS
from snippet_runner import run

pytest.importorskip("numpy", reason="the snippets compare minarray's output with NumPy's")

DIFFERS = {
    "sorting/where-three": "strings: minarray holds numbers and booleans only (TypeError)",
    "protocols/array-from-generator": "NumPy makes an object array of the generator; objects raise TypeError",
    "linalg/linalg-error-class": "the exception is NumPy's class; its message is minarray's own words",
    "random/rng-seedsequence": "Generator draws with size=None return Python numbers",
    "protocols/inplace-int-float": "minarray raises TypeError, of which NumPy's UFuncTypeError is a subclass",
    "protocols/inplace-int-true-div": "minarray raises TypeError, of which NumPy's UFuncTypeError is a subclass",
    "testing/assert-warns": "NumPy 2.4 deprecates assert_warns; minarray keeps it without the warning",
    "scalar-mix/scalar-sum-keepdims-type": "minarray's array class is NDArray, NumPy's ndarray",
    "more-arrays/array-from-set-error": "NumPy makes an object array of the set; objects raise TypeError",
    "more-arrays/array-too-big-int": "integers past 64 bits raise OverflowError; NumPy makes an object array",
}

PENDING = {
}


def _own_exp_kernel() -> bool:
    """Whether float64 exp runs minarray's AVX-512 kernel (rounded as
    NumPy's for exp(1)) rather than libmvec's AVX2 one (an ulp off there):
    the CPU's choice, made at run time (csrc/core/vecmath.c)."""
    if platform.machine() != "x86_64" or os.environ.get("MINARRAY_NO_AVX512", "") not in ("", "0"):
        return False
    try:
        with open("/proc/cpuinfo") as f:
            return " avx512f" in f.read()
    except OSError:
        return False


if not _own_exp_kernel():
    PENDING["exercises/np-exp-python-int"] = "exp of float64 by libmvec (no AVX-512 here) is an ulp off NumPy's"


def _outcomes(sid: str) -> tuple[list[str], list[str]]:
    code = SNIPPETS[sid]
    return run(code, "numpy"), run(code, "minarray")


@pytest.mark.parametrize("sid", [sid for sid in SNIPPETS if sid not in DIFFERS and sid not in PENDING])
def test_snippet_runs_as_with_numpy(sid: str) -> None:
    want, got = _outcomes(sid)
    assert got == want, f"\n{SNIPPETS[sid]}\n--- NumPy:\n" + "\n".join(want) + "\n--- minarray:\n" + "\n".join(got)


@pytest.mark.parametrize("sid", sorted({**DIFFERS, **PENDING}))
def test_listed_differences_are_real(sid: str) -> None:
    # what the lists (and the cheat sheet) say differs does differ
    want, got = _outcomes(sid)
    assert got != want, f"{sid} now matches NumPy: take it off its list ({DIFFERS.get(sid) or PENDING.get(sid)})"


def test_the_sweep_is_wide_and_its_lists_are_current() -> None:
    assert len(SNIPPETS) >= 300
    assert set(DIFFERS) <= set(SNIPPETS) and set(PENDING) <= set(SNIPPETS)
    assert not set(DIFFERS) & set(PENDING)
    groups = {sid.split("/")[0] for sid in SNIPPETS}
    assert len(groups) >= 15


def test_the_runner_records_what_a_user_sees() -> None:
    """Printed lines, the last expression's repr, warnings and the error."""
    shown = run("print('a')\nimport warnings\nwarnings.warn('w', RuntimeWarning)\nnp.arange(2)", "numpy")
    assert shown == ["a", "warning: RuntimeWarning: w", "-> array([0, 1])"]
    assert run("np.arange(3).reshape(2, 2)", "minarray") == ["raises: ValueError"]
    assert run("np.testing.assert_equal(1, 2)", "numpy")[0].startswith("raises: AssertionError: \nItems")
