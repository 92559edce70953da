"""Run a corpus script with ``np`` bound to NumPy or to minarray.

    python _run.py numpy SCRIPT
    python _run.py minarray SCRIPT

For minarray, the script's imports of NumPy (``import numpy as np``,
``from numpy.linalg import ...``) import minarray instead; nothing else of
the script changes, and minarray's own use of NumPy is left alone.

:func:`run` starts that child process from the suite
(tests/test_corpus.py) and from tools/numpy_corpus.py, which also runs the
scripts in ``pending/``: those that do not print as with NumPy yet.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent


def run(library: str, script: Path) -> subprocess.CompletedProcess[str]:
    """Run ``script`` with ``library`` ("numpy" or "minarray") in a child
    process that imports this checkout's minarray."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    return subprocess.run([sys.executable, __file__, library, str(script)], capture_output=True, text=True,
                          timeout=300, cwd=ROOT, env=env)

_NUMPY_IMPORT = re.compile(r"^(\s*(?:import|from)\s+)numpy\b", re.MULTILINE)


def main() -> None:
    library, path = sys.argv[1], sys.argv[2]
    with open(path, encoding="utf-8") as f:
        source = f.read()
    if library == "minarray":
        source = _NUMPY_IMPORT.sub(r"\1minarray", source)
    sys.argv = [path]
    exec(compile(source, path, "exec"), {"__name__": "__main__", "__file__": path})


if __name__ == "__main__":
    main()
