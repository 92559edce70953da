"""Run a corpus script with ``np`` bound to NumPy or to minarray.

    python _run.py numpy SCRIPT
    python _run.py minarray SCRIPT

For minarray, the script's imports of NumPy (``import numpy as np``,
``from numpy.linalg import ...``) import minarray instead; nothing else of
the script changes, and minarray's own use of NumPy is left alone."""

from __future__ import annotations

import re
import sys

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
