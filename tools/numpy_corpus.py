"""Run the everyday-script corpus and report which scripts print exactly
what they print with NumPy.

The corpus is tests/corpus/: the scripts there are the suite's
(tests/test_corpus.py) and must match; those in tests/corpus/pending/ do
not yet, and each says after its import line what it needs.  This runs both
groups the way the suite does (tests/corpus/_run.py: a child process per
script and library) and prints one line per script: whether it matches,
and for one that does not, its first differing line or its error::

    python tools/numpy_corpus.py
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "corpus"


def _runner() -> ModuleType:
    spec = importlib.util.spec_from_file_location("corpus_run", CORPUS / "_run.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


Run = Callable[[str, Path], "subprocess.CompletedProcess[str]"]


def _verdict(script: Path, run: Run) -> str:
    want = run("numpy", script)
    if want.returncode != 0:
        return "fails with NumPy itself: " + want.stderr.strip().splitlines()[-1]
    got = run("minarray", script)
    if got.returncode != 0:
        return "error: " + got.stderr.strip().splitlines()[-1]
    if got.stdout == want.stdout:
        return "matches"
    for i, (g, w) in enumerate(zip(got.stdout.splitlines(), want.stdout.splitlines(), strict=False)):
        if g != w:
            return f"differs at output line {i + 1}: {g!r} where NumPy prints {w!r}"
    return "differs in length of output"


def main() -> int:
    run: Run = _runner().run
    groups = {"suite": sorted(p for p in CORPUS.glob("*.py") if not p.name.startswith("_")),
              "pending": sorted((CORPUS / "pending").glob("*.py"))}
    matched = total = 0
    for group, scripts in groups.items():
        for script in scripts:
            verdict = _verdict(script, run)
            total += 1
            matched += verdict == "matches"
            need = script.read_text().splitlines()[2] if group == "pending" else ""
            print(f"{group:8s} {script.name:24s} {verdict}" + (f"\n{'':34s}{need}" if need else ""))
    print(f"{matched} of {total} scripts print what they print with NumPy")
    return 0


if __name__ == "__main__":
    sys.exit(main())
