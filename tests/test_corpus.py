"""Everyday NumPy scripts (tests/corpus/) run unchanged with minarray.

Each script is run twice in a child process: with NumPy, and with its
imports of NumPy importing minarray (tests/corpus/_run.py).  The two must
print exactly the same and both exit cleanly.  Scripts that do not print
as with NumPy yet wait in tests/corpus/pending/, each naming what it
needs; they are not part of the suite, and tools/numpy_corpus.py reports
them beside the others.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from corpus._run import run

pytest.importorskip("numpy", reason="the corpus compares minarray's output with NumPy's")

CORPUS = Path(__file__).parent / "corpus"
SCRIPTS = sorted(p.name for p in CORPUS.glob("*.py") if not p.name.startswith("_"))
PENDING = sorted((CORPUS / "pending").glob("*.py"))


@pytest.mark.parametrize("script", SCRIPTS)
def test_script_prints_as_with_numpy(script: str) -> None:
    want = run("numpy", CORPUS / script)
    assert want.returncode == 0, f"the script fails with NumPy itself:\n{want.stderr}"
    got = run("minarray", CORPUS / script)
    assert got.returncode == 0, f"fails with minarray:\n{got.stderr}"
    assert got.stdout == want.stdout


def test_corpus_is_everyday_numpy() -> None:
    """Every script starts as NumPy users' do; a pending one says after
    that line what it needs (the line tools/numpy_corpus.py reports)."""
    assert len(SCRIPTS) + len(PENDING) >= 15
    for script in SCRIPTS:
        assert (CORPUS / script).read_text().startswith("import numpy as np\n"), script
    for path in PENDING:
        lines = path.read_text().splitlines()
        assert lines[:2] == ["import numpy as np", ""] and lines[2].startswith("# pending: "), path.name


def test_scripts_run_this_checkout(tmp_path: Path) -> None:
    """The child imports the minarray under test, not another installed one."""
    import minarray

    probe = tmp_path / "probe.py"
    probe.write_text("import numpy as np\nprint(np.__file__)\n")
    out = run("minarray", probe)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == minarray.__file__
