"""A record that breaks the record contract is refused AND kept on file (GEN-8
``LEDGER_REFUSED``), as every other refusal is.

QA (helper 68): the adjudicator's own record of a hand with an Ante of 2^52 carried an
INSUFFICIENT_STAKE amount beyond 2^53 - 1; the ledger refused it and the run's summary
said it was "on file with its reason and listed for review", but no ``hands`` row was
stored: the daily report did not list it and ``pitwatch verify`` called the hand removed
from the ledger. Now its ``entries.stand_in`` is stored: the hand's identity and span,
no chips, the refusal's reason. Every test on SQLite and PostgreSQL (``engine``).
"""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest
from sqlalchemy import Engine

from services.events.contract import AdjudicationRecord, Finding
from services.ledger.posting import post_hand, post_many
from services.ledger.queries import stored_record
from services.ledger.recheck import recheck_ledger
from tests.unit.cli.helpers import pitwatch
from tests.unit.ledger.builders import DAY_ONE, hcf_dp_collects, hcf_seat1_wins
from tests.unit.ledger.dbread import count, rows
from tests.unit.native.test_record_bound import huge_ante_lines

BEYOND = 2**53 + 7  # beyond 2^53 - 1, the record contract's bound


def beyond_the_bound(hand_id: str = "T1-9") -> AdjudicationRecord:
    """A booked-looking record whose one finding's amount is beyond the contract."""
    short = Finding(code="INSUFFICIENT_STAKE", rule="GEN-2", severity="warning", seat=1,
                    amount=BEYOND, message="seat 1 started short")
    return msgspec.structs.replace(hcf_seat1_wins(hand_id), findings=[short])


def test_a_record_beyond_the_contract_is_stored_refused_with_its_reason(
        engine: Engine) -> None:
    """Between two good hands: refused with the contract's reason, stored as refused with
    the hand's table, day and span and no chips; the ledger's own check of its hands
    finds nothing amiss (the stored record meets the contract and holds its refusal)."""
    offered = beyond_the_bound()
    results = post_many(engine, [hcf_seat1_wins(), offered, hcf_dp_collects()])
    assert [r.status for r in results] == ["posted", "refused", "posted"]
    reason = results[1].findings[0].message
    assert "record breaks the adjudication record contract" in reason
    assert "$.findings[0].amount" in reason
    (stored,) = rows(engine, "SELECT table_id, status, ledger_status, day, first_seq, "
                             "last_seq, last_hash FROM hands WHERE hand_id = 'T1-9'")
    assert stored[:3] == (offered.table_id, offered.status, "refused")
    assert str(stored[3]) == DAY_ONE[:10]
    assert stored[4:] == (offered.first_seq, offered.last_seq, offered.last_hash)
    assert rows(engine, "SELECT origin, code, message FROM findings WHERE hand_id = 'T1-9'"
                ) == [("ledger", "LEDGER_REFUSED", reason)]
    assert count(engine, "postings") == len(hcf_seat1_wins().movements or []) * 2 + len(
        hcf_dp_collects().movements or []) * 2
    kept = stored_record(engine, "T1-9")
    assert kept is not None and kept.findings == [] and kept.movements is None
    assert (kept.ended_at, kept.players) == (offered.ended_at, offered.players)
    assert recheck_ledger(engine).breaks == []


def test_a_repeat_writes_nothing_and_another_record_is_a_conflict(engine: Engine) -> None:
    """The same record again (alone, or twice in one batch): refused, nothing more stored.
    A record of the hand that meets the contract, afterwards, is a changed re-post of a
    refused hand (LEDGER_CONFLICT), as for any refused hand: the stored hand is unchanged."""
    offered = beyond_the_bound()
    assert [r.status for r in post_many(engine, [offered, offered])] == ["refused"] * 2
    stored = rows(engine, "SELECT * FROM hands")
    assert len(stored) == 1
    assert post_hand(engine, offered).status == "refused"
    assert rows(engine, "SELECT * FROM hands") == stored
    assert post_hand(engine, hcf_seat1_wins("T1-9")).status == "conflict"
    assert rows(engine, "SELECT * FROM hands") == stored


def test_a_booked_hand_is_not_changed_by_a_re_post_beyond_the_contract(
        engine: Engine) -> None:
    assert post_hand(engine, hcf_seat1_wins("T1-9")).status == "posted"
    stored = rows(engine, "SELECT * FROM hands")
    assert post_hand(engine, beyond_the_bound()).status == "refused"
    assert rows(engine, "SELECT * FROM hands") == stored


# ---------------------------------------------------------------- the QA run, end to end

def huge_ante_log(path: Path) -> Path:
    path.write_bytes(b"".join(line + b"\n" for line in huge_ante_lines()))
    return path


def test_a_record_refused_for_the_contract_is_listed_and_verify_finds_the_hand(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The adjudicator made to state the amount as it did (beyond the bound): the run
    refuses the hand and says it is on file; it is (a refused hands row), the daily report
    lists it for review, and ``verify`` finds no break (it said the hand was removed)."""
    import services.adjudicator.adjudicate as adjudicate

    # the record as it was made (raising=False: before the fix there was nothing to undo)
    monkeypatch.setattr(adjudicate, "stated_findings", list, raising=False)
    log = huge_ante_log(tmp_path / "large.jsonl")
    url = f"sqlite:///{tmp_path}/large.sqlite"
    ran = pitwatch("adjudicate", str(log), "--engine", "python", "--ledger", url,
                   columns=1000)
    assert ran.code == 1
    assert "hand T001-000003 not booked: record breaks the adjudication record contract" \
        in ran.stderr, ran.stderr
    assert "on file with its reason" in ran.stderr
    report = pitwatch("report", "daily", "--date", "2026-01-05", "--ledger", url,
                      columns=1000)
    assert report.code == 0, report.stderr
    assert "T001-000003" in report.stdout
    verified = pitwatch("verify", "--db", url, columns=1000)
    assert "removed from the ledger" not in verified.stderr
    assert verified.code == 0, verified.stderr
