"""The thread sweep (``python -m benchmarks --threads 1,2``) runs and reports.

No timing is asserted: only that one process times every selected case at
every count, that the table, the JSON and the page section have the
documented structure, that a saved sweep renders the same section again,
and that NumPy's BLAS is given each count.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("numpy", reason="the benchmarks compare against NumPy")

ROOT = Path(__file__).resolve().parent.parent

from benchmarks import scaling  # noqa: E402

FILTER = r"elementwise add float64 contiguous 10000$|reduction sum float64 all 10000$"
PAGE = f"# Page\n\n## Scaling with threads\n\n{scaling.BEGIN}\nold\n{scaling.END}\n\n## After\n"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    return subprocess.run([sys.executable, "-m", "benchmarks", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)


def _section(page: Path) -> str:
    text = page.read_text()
    assert text.startswith("# Page\n\n## Scaling with threads\n\n") and text.endswith("\n\n## After\n")
    return text.split(scaling.BEGIN, 1)[1].split(scaling.END, 1)[0]


@pytest.mark.parametrize("bad", ["0", "two", "1,,2", ""])
def test_bad_counts_are_refused(bad: str) -> None:
    with pytest.raises(ValueError, match="--threads"):
        scaling.parse_counts(bad)


def test_counts_keep_their_order_without_repeats() -> None:
    assert scaling.parse_counts("1, 2,4,2,16") == [1, 2, 4, 16]


def test_sweep_runs_each_case_at_each_count_and_fills_the_page(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib", reason="the sweep draws its plot with matplotlib")
    page, saved = tmp_path / "performance.md", tmp_path / "sweep.json"
    page.write_text(PAGE)
    proc = _run("--threads", "1,2", "--quick", "--repeats", "2", "--filter", FILTER, "--json", str(saved),
                "--update-doc", str(page))
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == "| case | size | 1 thr. | 2 thr. |"
    assert [ln.split(" | ")[0] for ln in lines[2:4]] == ["| elementwise: add float64 contiguous",
                                                         "| reduction: sum float64 all"]

    doc = json.loads(saved.read_text())
    assert doc["meta"]["options"]["threads"] == [1, 2]
    assert doc["meta"]["cpu_model"]
    assert [(s["group"], s["name"], s["size"]) for s in doc["sweeps"]] == [
        ("elementwise", "add float64 contiguous", 10000), ("reduction", "sum float64 all", 10000)]
    torch = doc["meta"].get("torch") is not None
    for s in doc["sweeps"]:
        assert [p["threads"] for p in s["points"]] == [1, 2]
        for p in s["points"]:
            assert p["minarray"] > 0 and p["numpy"] > 0, p
            assert (p["pytorch"] is not None and p["pytorch"] > 0) == torch, p
            assert p["note"] == ""

    # the cores behind the CPUs, where the system says (Linux's /sys)
    if Path("/sys/devices/system/cpu/cpu0/topology/core_id").exists() and hasattr(os, "sched_getaffinity"):
        assert sorted(map(int, doc["meta"]["cpu_cores"])) == sorted(os.sched_getaffinity(0))
    # a traced job: seven fields per thread, its CPUs among the process's
    for s in doc["sweeps"]:
        for p in s["points"]:
            for thread in p["pool"]:
                assert len(thread) == 7 and thread[0] >= 0 and thread[6] >= 0, thread

    section = _section(page)
    assert doc["meta"]["cpu_model"] in section  # the CPU is named
    assert "| elementwise: add float64 contiguous | 10k |" in section
    assert "```{figure} /_static/scaling-threads.png" in section
    assert (tmp_path / "_static" / "scaling-threads.png").stat().st_size > 0

    # a saved sweep writes the same section again, on any machine
    again = tmp_path / "again.md"
    again.write_text(PAGE)
    proc = _run("--load", str(saved), "--update-doc", str(again))
    assert proc.returncode == 0, proc.stderr
    assert _section(again) == section


def test_numpy_blas_is_given_each_count() -> None:
    import minarray as ma

    blas = scaling.numpy_blas()
    if not blas:
        pytest.skip("this NumPy does not load an OpenBLAS of its own")
    before = [b.get() for b in blas]
    threads = ma.get_num_threads()
    torch = sys.modules.get("torch")
    torch_threads = torch.get_num_threads() if torch else None
    try:
        for n in (1, 3, 2):
            scaling.set_threads(n, blas)
            assert [b.get() for b in blas] == [n] * len(blas)
            assert ma.get_num_threads() == n
    finally:
        for b, n in zip(blas, before, strict=True):
            b.set(n)
        ma.set_num_threads(threads)
        torch = sys.modules.get("torch")
        if torch is not None and torch_threads is not None:
            torch.set_num_threads(torch_threads)


def test_pool_summary_names_the_cpus_and_the_cores_they_share() -> None:
    # four threads on two hyperthreaded cores: CPUs 0 and 8 are one core
    cores = {"0": "0:0", "8": "0:0", "1": "0:1", "9": "0:1"}
    pool = [[4.0, 1.0, 900.0, 1000.0, 0.0, 0.0, 0.0], [4.0, 20.0, 880.0, 990.0, 8.0, 8.0, 2.0],
            [4.0, 25.0, 870.0, 995.0, 1.0, 9.0, 0.0], [4.0, 30.0, 860.0, 1000.0, 9.0, 9.0, 1.0]]
    text = scaling.pool_summary(pool, cores)
    assert text == ("4 thr., chunks 4/4/4/4, last joined at 30 µs, busy 0.86-0.90 ms of 1.00 ms, idle 12%, "
                    "CPUs 0,8,1,9 (ended on 0,8,9,9) on 2 cores, preempted 3 times")
    # a trace saved before the CPUs were recorded prints as it did
    assert scaling.pool_summary([t[:4] for t in pool]) == text.split(", CPUs")[0]
