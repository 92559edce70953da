"""Smoke tests of tools/numpy_doc_examples.py: it runs NumPy's docstring
examples against minarray, and nothing an example does (hang, crash)
stops it."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("numpy", reason="the tool runs NumPy's docstrings with NumPy as the oracle")
pytest.importorskip("matplotlib", reason="the tool's child process sets matplotlib's backend")


def _tool() -> ModuleType:
    path = Path(__file__).parent.parent / "tools" / "numpy_doc_examples.py"
    spec = importlib.util.spec_from_file_location("numpy_doc_examples", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


tool = _tool()


def test_runs_numpy_docstrings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    names = ["numpy.nonzero", "numpy.linalg.solve", "numpy.testing.assert_array_equal"]
    out = tmp_path / "summary.json"
    table = tmp_path / "table.md"
    assert tool.main(["--names", *names, "--json", str(out), "--markdown", str(table)]) == 0
    summary = json.loads(out.read_text())
    assert set(summary["examples"]) == set(names)
    overall = summary["modules"]["overall"]
    assert overall["examples"] == 3
    assert overall["examples"] >= overall["runs"] >= overall["matches"]
    assert overall["statements"] >= overall["statements_run"] >= overall["statements_match"] > 10
    assert {"numpy", "linalg", "testing", "overall"} <= set(summary["modules"])
    # two that minarray prints exactly as NumPy does
    assert summary["examples"]["numpy.nonzero"]["matches"]
    assert summary["examples"]["numpy.linalg.solve"]["matches"]
    printed = capsys.readouterr().out
    assert "| **overall** | 3 |" in printed and table.read_text() in printed


def _job(name: str, statements: str) -> dict[str, str]:
    return {"name": name, "module": "numpy", "doc": statements}


def test_hangs_and_crashes_are_contained() -> None:
    """A statement that loops (the alarm breaks it), one that blocks the
    alarm (the parent kills the child) and one that kills its process cost
    their own example only, and one that writes to the file descriptor of
    stdout garbles nothing; the next one still runs."""
    jobs = [
        _job("ok", ">>> print(int(np.arange(3).sum()))\n3\n"),
        _job("loops", ">>> while np.__name__ == 'minarray': pass\n"),
        _job("after_loop", ">>> print(1 + 1)\n2\n"),
        _job("crashes", ">>> import os\n>>> if np.__name__ == 'minarray': os._exit(3)\n"),
        _job("after_crash", ">>> print(np.__name__ in ('numpy', 'minarray'))\nTrue\n"),
        _job("blocks", ">>> import signal, time\n"
                       ">>> if np.__name__ == 'minarray': _ = signal.pthread_sigmask(signal.SIG_BLOCK, "
                       "[signal.SIGALRM]); time.sleep(600)\n"),
        _job("after_block", ">>> x = np.asarray([1, 2])\n>>> x.shape\n(2,)\n"),
        _job("writes_fd", ">>> import os\n>>> _ = os.write(1, b'not json\\n')\n"),
        _job("differs", ">>> np.__name__\n'numpy'\n"),
        _job("raises", ">>> if np.__name__ == 'minarray': raise KeyError('k')\n"),
    ]
    results = {r["name"]: r for r in tool.run_jobs(jobs, timeout=1.0)}
    assert list(results) == [j["name"] for j in jobs]
    status = {name: r["minarray"]["status"] for name, r in results.items()}
    assert status == {"ok": "done", "loops": "timeout", "after_loop": "done", "crashes": "crash",
                      "after_crash": "done", "blocks": "timeout", "after_block": "done",
                      "writes_fd": "done", "differs": "done",
                      "raises": "done"}
    assert tool._matches(results["ok"]["minarray"]) and tool._matches(results["after_block"]["minarray"])
    differs = results["differs"]["minarray"]
    assert tool._runs(differs) and not tool._matches(differs)
    assert differs["outcomes"][0]["want"] == "'numpy'\n" and differs["outcomes"][0]["got"] == "'minarray'\n"
    raises = results["raises"]["minarray"]
    assert not tool._runs(raises) and raises["outcomes"][0]["error"].startswith("KeyError: 'k'")
    summary = tool.summarise(list(results.values()), 0)
    assert summary["modules"]["overall"]["timeouts_or_crashes"] == 3
    assert [c for c, _n, _s in summary["top_errors"]][:1] == ["<timeout>"]


def test_settings_do_not_leak() -> None:
    """An example's seterr is undone before the next example."""
    jobs = [_job("sets", ">>> _ = np.seterr(all='raise')\n"),
            _job("reads", ">>> print(np.geterr()['divide'])\nwarn\n")]
    results = tool.run_jobs(jobs, timeout=30.0)
    assert results[1]["numpy"] == "done"
    assert tool._matches(results[1]["minarray"]), results[1]


def test_examples_section_and_rebinding() -> None:
    doc = """Sum things.

    Parameters
    ----------
    a : array_like

    Examples
    --------
    >>> import numpy as np
    >>> np.sum([1, 2])
    np.int64(3)

    Notes
    -----
    >>> not_an_example()
    """
    section = tool.examples_section(doc)
    statements = tool.parse(section)
    assert [s.source for s in statements] == ["import numpy as np\n", "np.sum([1, 2])\n"]
    assert tool.to_minarray("import numpy as np\nfrom numpy.linalg import norm\nimport numpyish\n") == \
        "import minarray as np\nfrom minarray.linalg import norm\nimport numpyish\n"


@pytest.mark.parametrize(("want", "got", "kind"), [
    ("np.float64(2.0)\n", "array(2.)\n", "0-d array where NumPy returns a scalar (np.float64(...))"),
    ("array([1, 2])\n", "array([1., 2.])\n", "numbers differ (digits, rounding or values)"),
    ("array([1, 2], dtype=int32)\n", "array([1, 2])\n", "dtype differs"),
    ("3\n", "", "prints nothing where NumPy prints"),
])
def test_difference_classes(want: str, got: str, kind: str) -> None:
    assert tool.difference_class({"want": want, "got": got}) == kind


def test_error_classes() -> None:
    assert tool.error_class("AttributeError: module 'minarray' has no attribute 'dtype'") == \
        "AttributeError: module '*' has no attribute '*'"
    assert tool.error_class("TypeError: cos() takes 1 positional argument but 2 were given") == \
        "TypeError: *() takes N positional argument but N were given"
