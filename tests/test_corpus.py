"""Everyday NumPy scripts (tests/corpus/) run unchanged with minarray.

Each script is run twice in a child process: with NumPy, and with its
imports of NumPy importing minarray (tests/corpus/_run.py).  The two must
print exactly the same and both exit cleanly.  A script that fails today
because a feature is missing is an expected failure, strictly: once the
feature lands it passes, the suite fails, and its marker must go.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("numpy", reason="the corpus compares minarray's output with NumPy's")

ROOT = Path(__file__).parent.parent
CORPUS = ROOT / "tests" / "corpus"
RUNNER = CORPUS / "_run.py"
SCRIPTS = sorted(p.name for p in CORPUS.glob("*.py") if not p.name.startswith("_"))

# script -> what minarray lacks that the script needs
NEEDS = {
    "dtype_checks.py": "needs np.dtype and NumPy's dtype equality",
    "linear_algebra.py": "needs linalg.eig to return real eigenvalues when all are real, as NumPy",
    "loadtxt_table.py": "needs np.loadtxt",
    "polynomial_fit.py": "needs np.polyfit, np.polyval and np.poly1d",
    "printing.py": "needs np.set_printoptions and np.printoptions",
    "random_simulation.py": "np.random.choice of strings with size=: a string array, which minarray does not hold",
    "temperatures.py": "needs NumPy scalars from unravel_index (np.int64, not 0-d arrays)",
    "ufunc_methods.py": "needs ufunc objects (np.add.reduce, np.multiply.outer, np.add.at)",
}


def run(library: str, script: Path) -> subprocess.CompletedProcess[str]:
    """Run a script in a child process that imports this checkout's minarray."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    return subprocess.run([sys.executable, str(RUNNER), library, str(script)], capture_output=True,
                          text=True, timeout=300, cwd=ROOT, env=env)


@pytest.mark.parametrize("script", [
    pytest.param(s, marks=pytest.mark.xfail(strict=True, reason=NEEDS[s])) if s in NEEDS else s for s in SCRIPTS])
def test_script_prints_as_with_numpy(script: str) -> None:
    want = run("numpy", CORPUS / script)
    assert want.returncode == 0, f"the script fails with NumPy itself:\n{want.stderr}"
    got = run("minarray", CORPUS / script)
    assert got.returncode == 0, f"fails with minarray:\n{got.stderr}"
    assert got.stdout == want.stdout


def test_corpus_is_everyday_numpy() -> None:
    """Every script starts as NumPy users' do, and every expected failure
    names a script that exists."""
    assert len(SCRIPTS) >= 15
    for script in SCRIPTS:
        assert (CORPUS / script).read_text().startswith("import numpy as np\n"), script
    assert set(NEEDS) <= set(SCRIPTS)


def test_scripts_run_this_checkout(tmp_path: Path) -> None:
    """The child imports the minarray under test, not another installed one."""
    import minarray

    probe = tmp_path / "probe.py"
    probe.write_text("import numpy as np\nprint(np.__file__)\n")
    out = run("minarray", probe)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == minarray.__file__
