"""The benchmark harness runs and reports what it measured.

No timing is asserted here: only that ``python -m benchmarks --quick`` runs,
that its table and JSON have the documented structure, and that a case
whose minarray side does not exist is reported as missing, not dropped.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("numpy", reason="the benchmarks compare against NumPy")

ROOT = Path(__file__).resolve().parent.parent

from benchmarks import report  # noqa: E402
from benchmarks.cases import Case, Missing, Unavailable, all_cases  # noqa: E402


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    return subprocess.run([sys.executable, "-m", "benchmarks", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)


def test_quick_run_prints_table_and_writes_json(tmp_path: Path) -> None:
    out = tmp_path / "run.json"
    proc = _run("--quick", "--repeats", "2", "--filter", "allocation (empty|zeros) uint8", "--max-size", "1000",
                "--json", str(out))
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].split() == ["case", "size", "minarray", "reference", "ratio", "pytorch", "vs-pytorch", "spread",
                                "vs"]
    body = [ln for ln in lines[2:] if ln.startswith("allocation:")]
    assert len(body) == 4  # empty and zeros at 10 B and 1 kB

    doc = json.loads(out.read_text())
    assert doc["meta"]["format"] == report.FORMAT_VERSION
    assert doc["meta"]["options"]["quick"] is True
    rows = doc["results"]
    assert [r["id"] for r in rows] == [
        "allocation/empty uint8/10", "allocation/empty uint8/1000",
        "allocation/zeros uint8/10", "allocation/zeros uint8/1000",
    ]
    for r in rows:
        assert r["status"] == report.OK
        for side in ("minarray", "reference"):
            s = r[side]
            assert len(s["samples"]) == 2 and s["loops"] >= 1
            assert s["median"] > 0 and s["spread"] >= 0
        assert r["ratio"] == pytest.approx(r["minarray"]["median"] / r["reference"]["median"])


def test_compare_two_files(tmp_path: Path) -> None:
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    for path in (a, b):
        proc = _run("--quick", "--repeats", "1", "--filter", "allocation empty uint8 10$", "--json", str(path))
        assert proc.returncode == 0, proc.stderr
    proc = _run("--compare", str(a), str(b))
    assert proc.returncode == 0, proc.stderr
    assert "old ratio" in proc.stdout and "allocation: empty uint8" in proc.stdout


def test_filter_without_match_is_an_error() -> None:
    proc = _run("--quick", "--filter", "no such case at all")
    assert proc.returncode != 0
    assert "no case matches" in proc.stderr


def _case(mk: Any, rf: Any) -> Case:
    return Case("test", "synthetic", 10, "elements", "numpy", dict, mk, rf)


def _missing(inputs: Any) -> Any:
    raise Missing("minarray.not_there")


def _unavailable(inputs: Any) -> Any:
    raise Unavailable("somelib is not installed")


def _broken(inputs: Any) -> Any:
    return lambda: 1 / 0


def _fine(inputs: Any) -> Any:
    return lambda: None


def test_missing_minarray_side_is_reported_and_reference_still_timed() -> None:
    r = report.run_case(_case(_missing, _fine), repeats=2, min_time=0.0)
    assert r.status == report.MISSING and "minarray.not_there" in r.note
    assert r.minarray is None and r.reference is not None and r.ratio is None
    row = report.table([r]).splitlines()[2]
    assert "missing" in row


def test_unavailable_reference_and_errors_are_reported() -> None:
    r = report.run_case(_case(_fine, _unavailable), repeats=2, min_time=0.0)
    assert r.status == report.NO_REFERENCE and r.minarray is not None and r.reference is None
    r = report.run_case(_case(_broken, _fine), repeats=2, min_time=0.0)
    assert r.status == report.ERROR and "ZeroDivisionError" in r.note
    assert "ZeroDivisionError" in report.table([r])


def test_results_round_trip_through_json(tmp_path: Path) -> None:
    r = report.run_case(_case(_fine, _fine), repeats=3, min_time=0.0)
    path = tmp_path / "r.json"
    report.save(path, {"format": report.FORMAT_VERSION}, [r])
    _, back = report.load(path)
    assert back == [r]


def test_case_ids_are_unique() -> None:
    ids = [c.id for c in all_cases()]
    assert len(ids) == len(set(ids))


def test_update_doc_fills_the_marked_section(tmp_path: Path) -> None:
    run = tmp_path / "run.json"
    proc = _run("--quick", "--repeats", "1", "--filter", "allocation ones uint8 10$", "--json", str(run))
    assert proc.returncode == 0, proc.stderr
    page = tmp_path / "page.md"
    page.write_text(f"# Title\n\nprose\n\n{report.BEGIN}\nold table\n{report.END}\n\nmore prose\n")
    proc = _run("--load", str(run), "--update-doc", str(page))
    assert proc.returncode == 0, proc.stderr
    text = page.read_text()
    assert "old table" not in text and text.startswith("# Title\n\nprose\n")
    assert text.endswith(f"{report.END}\n\nmore prose\n")
    assert "| allocation: ones uint8 | 10 B |" in text and "### allocation" in text


def test_avx2_run_records_every_librarys_code_path(tmp_path: Path) -> None:
    """``--isa avx2`` reruns the harness with each library told to keep to
    AVX2, and the JSON says what each one ran (not only the CPU's flags)."""
    out = tmp_path / "avx2.json"
    proc = _run("--isa", "avx2", "--quick", "--repeats", "1", "--filter", "add float64 contiguous 100$",
                "--json", str(out))
    assert proc.returncode == 0, proc.stderr
    meta = json.loads(out.read_text())["meta"]
    assert meta["isa_limit"] == "avx2"
    assert meta["minarray_vector_isa"] in ("AVX2", "scalar")
    assert not any("512" in t or t == "X86_V4" for t in meta["numpy_dispatch"])
    if meta.get("torch_isa") is not None:
        assert "512" not in meta["torch_isa"]
    assert "kept to AVX2" in proc.stdout
