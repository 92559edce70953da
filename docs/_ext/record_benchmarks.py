"""Record the benchmark results the performance plots are drawn from.

    python docs/_ext/record_benchmarks.py        # writes docs/_data/benchmarks.json

It runs the project's own harness (``python -m benchmarks --json``) on the
cases the plots show, at the sizes they show, with fewer repeats than a full
measurement: the plots show trends over five decades of size, which a
shorter run resolves, and the full run's tables stay on the performance page.
The harness records the machine but not its CPU model, which the plots
name, so this script adds it from the same machine it ran on.
"""

from __future__ import annotations

import json
import platform
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "docs" / "_data" / "benchmarks.json"

# What each plot shows: allocation, contiguous elementwise, whole-array
# reductions, and the DLPack exchanges.
CASES = (
    r"^(allocation (empty|zeros) "
    r"|elementwise (add|exp) float(32|64) contiguous \d"
    r"|reduction (sum|max) float(32|64) all "
    r"|dlpack )"
)


def cpu_model() -> str:
    """The CPU's marketing name, as the kernel reports it."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def main() -> int:
    cmd = [sys.executable, "-m", "benchmarks", "--filter", CASES, "--repeats", "5", "--min-time", "0.01",
           "--json", str(OUT)]
    subprocess.run(cmd, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    doc = json.loads(OUT.read_text())
    doc["meta"].setdefault("cpu_model", cpu_model())
    OUT.write_text(json.dumps(doc, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
