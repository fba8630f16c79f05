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

import orjson
import pytest
from sqlalchemy import Connection, Engine, text

from services.cases import intake
from tests.unit.archive.support import simulated_log
from tests.unit.cli.helpers import pitwatch

ALERT_CASE_HANDS = ("SELECT DISTINCT e.case_id, h.game, h.dealer_id, h.day "
                    "FROM case_evidence e JOIN case_hands c ON c.case_id = e.case_id "
                    "JOIN hands h ON h.hand_id = c.hand_id WHERE e.kind = 'alert'")


def _nothing_booked_yet(conn: Connection, hand_ids: set[str]
                        ) -> tuple[dict[str, dt.date], dict[str, set[tuple[str, str]]]]:
    return {}, {}


def _listed(url: str, *filters: str) -> set[int]:
    ran = pitwatch("cases", "list", *filters, "--state", "any", "--db", url,
                   "--format", "json")
    assert ran.code == 0, ran.stderr
    return {int(case["case"]) for case in orjson.loads(ran.stdout)}


def test_a_case_opened_before_its_hand_was_booked_is_found_by_the_hands_facts(
        engine: Engine, db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    log = tmp_path / "day.jsonl"
    log.write_bytes(b"\n".join(simulated_log(tables=2, hands=60).lines) + b"\n")
    monkeypatch.setattr(intake, "hand_facts", _nothing_booked_yet)
    ran = pitwatch("adjudicate", str(log), "--ledger", db_url)
    assert ran.code == 0, ran.stderr
    monkeypatch.undo()
    with engine.connect() as conn:
        named = conn.execute(text(ALERT_CASE_HANDS)).all()
        tagged = conn.execute(text(
            "SELECT COUNT(*) FROM case_tags WHERE kind IN ('game', 'dealer', 'day') AND "
            "case_id IN (SELECT case_id FROM case_evidence WHERE kind = 'alert')")).scalar()
    assert named and tagged == 0  # the alert cases as the pipeline's order left them
    for case_id, game, dealer, day in named:
        day_text = day if isinstance(day, str) else day.isoformat()
        assert case_id in _listed(db_url, "--game", game)
        assert case_id in _listed(db_url, "--dealer", dealer)
        assert case_id in _listed(db_url, "--date", day_text)
    assert not _listed(db_url, "--game", "chinese")  # the day holds no Chinese Poker hand
