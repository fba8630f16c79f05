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

from tests.unit.cases.day_cases import adjudicated_day, listed_cases

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
