"""The queue's filters by a hand's facts (``--game``, ``--dealer``, ``--date``) find a case
whose hand was booked after the case took its evidence.

QA (pipeline): the archive service takes a stream alert with or before the events it
reports, so a chain-break case was often opened before the ledger service booked its
hand; the intake tags a case with the day, game and dealer of booked hands only, and the
case, critical, was missing from those filters for good. The pipeline's order is made
here by the intake finding no hand booked (as at that moment), on a day adjudicated by
the command; what is expected is read from the database (the hands each alert case
names), not from the code under test. SQLite and PostgreSQL.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from sqlalchemy import Connection, Engine, text

from tests.unit.archive.support import simulated_log
from tests.unit.cases.day_cases import adjudicated_day, listed_cases
from tests.unit.cli.helpers import pitwatch

ALERT_CASE_HANDS = ("SELECT DISTINCT e.case_id, h.game, h.dealer_id, h.day "
                    "FROM case_evidence e JOIN case_hands c ON c.case_id = e.case_id "
                    "JOIN hands h ON h.hand_id = c.hand_id WHERE e.kind = 'alert'")


def _nothing_booked_yet(conn: Connection, hand_ids: set[str]
                        ) -> tuple[dict[str, dt.date], dict[str, set[tuple[str, str]]]]:
    return {}, {}


def test_a_case_opened_before_its_hand_was_booked_is_found_by_the_hands_facts(
        engine: Engine, db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    adjudicated_day(tmp_path, db_url, monkeypatch, _nothing_booked_yet)
    with engine.connect() as conn:
        named = conn.execute(text(ALERT_CASE_HANDS)).all()
        tagged = conn.execute(text(
            "SELECT COUNT(*) FROM case_tags WHERE kind IN ('game', 'dealer', 'day') AND "
            "case_id IN (SELECT case_id FROM case_evidence WHERE kind = 'alert')")).scalar()
    assert named and tagged == 0  # the alert cases as the pipeline's order left them
    for case_id, game, dealer, day in named:
        day_text = day if isinstance(day, str) else day.isoformat()
        assert case_id in listed_cases(db_url, "--game", game)
        assert case_id in listed_cases(db_url, "--dealer", dealer)
        assert case_id in listed_cases(db_url, "--date", day_text)
    assert not listed_cases(db_url, "--game", "chinese")  # the day holds no Chinese Poker hand


def test_the_case_of_a_hand_booked_without_a_day_is_on_the_day_of_its_last_events(
        engine: Engine, db_url: str, tmp_path: Path) -> None:
    """A table's log cut inside its last hand: that hand is rejected (INCOMPLETE_HAND,
    critical), booked without a day (its record has no end), and placed on the day of its
    last archived events, where the daily report lists it (QA helper 96). Its case must be
    in that day's queue, and in that day's verify of the cases."""
    lines = list(simulated_log(tables=1, hands=6, faults=False).lines)
    last_start = max(i for i, line in enumerate(lines) if b'"hand_started"' in line)
    log = tmp_path / "cut.jsonl"
    log.write_bytes(b"\n".join(lines[:last_start + 3]) + b"\n")
    assert pitwatch("adjudicate", str(log), "--ledger", db_url).code == 1  # a critical hand
    with engine.connect() as conn:
        cut = conn.execute(text(
            "SELECT c.case_id FROM case_evidence e JOIN case_hands c ON c.case_id = e.case_id "
            "JOIN hands h ON h.hand_id = c.hand_id "
            "WHERE e.code = 'INCOMPLETE_HAND' AND h.day IS NULL")).scalars().all()
    assert len(cut) == 1  # the simulator's day: 2026-01-05
    assert cut[0] in listed_cases(db_url, "--date", "2026-01-05")
    day = pitwatch("verify", "--db", db_url, "--from", "2026-01-05", "--to", "2026-01-05")
    assert day.code == 0, day.stderr
    assert f"checked {len(listed_cases(db_url))} case(s)" in day.stderr
