"""The source tree keeps its promise: csrc/core is plain C (no Python.h,
directly or through a binding header), so a C programmer can reuse it and
its code runs on any thread without the GIL."""

from __future__ import annotations

import re
from pathlib import Path

CSRC = Path(__file__).resolve().parent.parent / "csrc"
INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', re.M)


def test_core_includes_no_python() -> None:
    bindings = {p.name for p in (CSRC / "py").glob("*.h")}
    offenders = {}
    for path in sorted((CSRC / "core").rglob("*.[ch]")):
        bad = [h for h in INCLUDE.findall(path.read_text()) if h == "Python.h" or h in bindings]
        if bad:
            offenders[str(path.relative_to(CSRC))] = bad
    assert not offenders, offenders
    assert any((CSRC / "core").glob("*.c")), "csrc/core holds no C file: the test would check nothing"


DEFINED = re.compile(r"^(?!static\b)[A-Za-z_][\w \t*]*?\b(ma_\w+)\s*\(", re.M)


def test_pyapi_calls_no_other_binding() -> None:
    """csrc/py/pyapi.c is the bindings' floor: every other binding file calls
    it, and it calls none of them (a call upward would make a circle)."""
    pyapi = (CSRC / "py" / "pyapi.c").read_text()
    others = {}
    for path in sorted((CSRC / "py").glob("*.c")):
        if path.name != "pyapi.c":
            for name in DEFINED.findall(path.read_text()):
                others[name] = path.name
    assert len(others) > 20, "found too few binding functions: the pattern is stale"
    calls = {name: where for name, where in others.items() if re.search(rf"\b{name}\s*\(", pyapi)}
    assert not calls, f"pyapi.c calls up into other bindings: {calls}"
