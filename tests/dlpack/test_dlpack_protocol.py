"""The conformance checker's protocol rules and its CUDA part: minarray
keeps every rule, the table names each library's failures, and the CUDA
checks skip cleanly without a GPU (they run on one as
``python -m minarray.testing.dlpack --cuda``)."""

from __future__ import annotations

import pytest

from minarray.testing import dlpack as checker
from minarray.testing import dlpack_cuda, dlpack_protocol


def test_minarray_keeps_every_protocol_rule() -> None:
    outcomes = dlpack_protocol.run()
    mine = [o for o in outcomes if o.library == "minarray"]
    assert len(mine) >= 30
    bad = [o for o in mine if o.status == "FAIL"]
    assert not bad, bad
    # the rules minarray itself can be asked about are all applicable to it
    assert all(o.status == "ok" for o in mine if o.rule.startswith(("producer:", "consumer:", "asdlpack:")))
    table = dlpack_protocol.table(outcomes)
    assert table.splitlines()[0].startswith("rule") and "minarray" in table.splitlines()[0]


def test_pydlpack_peer_leaves_its_ledger_empty() -> None:
    """pydlpack counts a wrapper that was never exported as leaked at exit
    (it frees only through an export's deleter): the rules' peer forgets
    such wrappers when they die, so a test run ends without that report."""
    dlpack = pytest.importorskip("dlpack")
    peer = next(p for p in dlpack_protocol.peers() if p.name == "pydlpack")
    ledger = dlpack.MemoryManager.cache
    before = set(ledger)
    unexported, exported = peer.make(), peer.make()
    assert len(set(ledger) - before) == 2
    capsule = exported.__dlpack__()
    del unexported, exported
    assert len(set(ledger) - before) == 1  # the live export keeps its entry
    del capsule  # its destructor releases the last one, as pydlpack intends
    assert set(ledger) == before


def test_peers_are_reported_rule_by_rule() -> None:
    np_peer = [p for p in dlpack_protocol.peers() if p.name == "numpy"]
    outcomes = dlpack_protocol.run(np_peer)
    rules = {o.rule for o in outcomes if o.library == "numpy"}
    assert rules == set(dlpack_protocol.PRODUCER_RULES) | set(dlpack_protocol.CONSUMER_RULES)
    by_rule = {o.rule: o for o in outcomes if o.library == "numpy"}
    # NumPy refuses a legacy export of a read-only array: the table says so
    legacy = by_rule["producer: read-only, legacy, copy=None: a copy"]
    assert legacy.status == "FAIL" and "refused" in legacy.detail
    assert by_rule["consumer: imports a versioned export, shares memory"].status == "ok"


def test_main_prints_both_tables(capsys: pytest.CaptureFixture[str]) -> None:
    assert checker.main(["--protocol"]) == 0
    out = capsys.readouterr().out
    assert "DLPack protocol rules" in out and "by minarray)" in out
    assert checker.main(["--bogus"]) == 2


def test_cuda_checks_skip_without_a_device(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(dlpack_cuda, "torch_cuda", lambda: None)
    monkeypatch.setattr(dlpack_cuda, "driver_device", lambda: False)
    assert checker.main(["--cuda"]) == 0
    assert "skipped, no CUDA device" in capsys.readouterr().out
    results = dlpack_cuda.run()
    assert [r.status for r in results] == ["skip", "skip"]


def test_cuda_table_reports_failures(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def broken() -> None:
        raise AssertionError("boom")

    monkeypatch.setattr(dlpack_cuda, "torch_cuda", lambda: None)
    monkeypatch.setattr(dlpack_cuda, "driver_device", lambda: True)
    monkeypatch.setattr(dlpack_cuda, "_driver_checks", lambda: iter([("a check", broken), ("fine", lambda: None)]))
    assert dlpack_cuda.main() == 1
    out = capsys.readouterr().out
    assert "a check" in out and "FAIL" in out and "boom" in out and "1 passed, 1 failed" in out
