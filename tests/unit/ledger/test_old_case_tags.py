"""A ledger an older pitwatch made still passes ``pitwatch verify`` after the automatic
upgrade, and the queue's filters find its cases (migration 0020).

QA (2026-12-07): a ledger made at revision 0015, whose cases' intake tagged an alert's case
with its table and day only, failed ``verify`` once a current pitwatch had upgraded it
("case 12: its tag dealer=D0-1 is missing"), and ``cases list --game hcf`` left its
critical SURV-9 cases out: the intake has since tagged a case with the game and dealer of
every booked hand its evidence names, and nothing filled them in for older cases.

The old cases are made the real way (a simulated day adjudicated by the command) with the
intake's reading of the booked hands as it was before (their day only), on a ledger then
taken back to 0019, the revision before the migration. What is expected is read from the
database by the test (the hands each alert case names), not from the code under test.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import Connection, Engine, select, text

from services.ledger.db import alembic_config, stamped_revision
from services.ledger.models import Hand
from tests.unit.cases.day_cases import adjudicated_day, listed_cases
from tests.unit.cli.helpers import pitwatch

# The alert cases whose evidence names one hand the intake found booked (filed with a
# day): their hand's game and dealer are what the current intake tags them with.
ALERT_HANDS = ("SELECT DISTINCT e.case_id, h.game, h.dealer_id FROM case_evidence e "
               "JOIN case_hands c ON c.case_id = e.case_id JOIN hands h ON "
               "h.hand_id = c.hand_id WHERE e.kind = 'alert' AND e.day IS NOT NULL "
               "ORDER BY e.case_id")


def _hand_days_only(conn: Connection, hand_ids: set[str]
                    ) -> tuple[dict[str, dt.date], dict[str, set[tuple[str, str]]]]:
    """The intake's reading of the booked hands before commit 20d5512: each one's day,
    and the day as the only tag it gave a case."""
    if not hand_ids:
        return {}, {}
    days: dict[str, dt.date] = {}
    for hand_id, day in conn.execute(select(Hand.hand_id, Hand.day)
                                     .where(Hand.hand_id.in_(sorted(hand_ids)))):
        if day is not None:
            days[hand_id] = day
    return days, {hand: {("day", day.isoformat())} for hand, day in days.items()}


def _game_tagged(engine: Engine) -> set[int]:
    """The cases holding a game tag (the queue also finds a case by its booked hands'
    game, so the listing alone does not tell whether the tags are there)."""
    with engine.connect() as conn:
        return set(conn.execute(text("SELECT case_id FROM case_tags WHERE kind = 'game'"))
                   .scalars())


def test_old_alert_cases_are_tagged_on_upgrade(engine: Engine, db_url: str, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    adjudicated_day(tmp_path, db_url, monkeypatch, _hand_days_only)
    for args in (("assign", "1", "ann"), ("note", "2", "looked at it")):
        worked = pitwatch("cases", *args, "--actor", "ann", "--db", db_url)
        assert worked.code == 0, worked.stderr
    with engine.connect() as conn:
        alert_cases = conn.execute(text(ALERT_HANDS)).all()
    assert alert_cases, "the day holds no SURV-9 case naming a booked hand"
    games = {game for _, game, _ in alert_cases}
    assert games == {"hcf"}
    old = {case_id for case_id, _, _ in alert_cases}
    assert not old & _game_tagged(engine)  # as the old intake left them
    config = alembic_config()
    with engine.begin() as conn:  # the revision an older pitwatch left it at
        config.attributes["connection"] = conn
        command.downgrade(config, "0019_console_login_lockout")
    engine.dispose()

    verified = pitwatch("verify", "--db", db_url)  # upgrades it first, as every command
    assert verified.code == 0, verified.stdout + verified.stderr
    assert stamped_revision(engine) == "0020_case_tags_of_named_hands"
    assert old <= _game_tagged(engine)
    assert old <= listed_cases(db_url, "--game", "hcf")
    for case_id, _, dealer in alert_cases:
        assert case_id in listed_cases(db_url, "--dealer", dealer), (case_id, dealer)
    again = pitwatch("verify", "--db", db_url)
    assert again.code == 0, again.stdout
