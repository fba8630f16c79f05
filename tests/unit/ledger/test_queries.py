"""Reading the ledger back (services.ledger.queries) over a small, hand-computed book.

The book: T1-000001 (``hcf_seat1_wins``, day 1), T1-000002 (``hcf_dp_collects``, day 1),
T1-000003 (``hcf_seat1_wins``, day 2), T1-000004 (rejected, day 1, no movements),
R1-000001 (``russian_house_hand``, day 1), H1-000001 (``holdem_pot_hand``, day 1).

Player balances by hand (from each builder's docstring):
  alice  +9 (T1-1) +9 (T1-3) -10 (R1) -10 (H1)        = -2
  bob   -10 (T1-1) +3 (T1-2) -10 (T1-3)                = -17
  carol  -5 (T1-2) +20 (R1) +9 (H1)                    = +24
House: rake 1 + 2 + 1 + 1 = 5; bank -10. Total -2 - 17 + 24 + 5 - 10 = 0.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import msgspec
import pytest
from sqlalchemy import Engine

from services.ledger.posting import post_hand, post_many
from services.ledger.queries import (
    RakeTotal,
    TableDayTotal,
    balances,
    player_balances,
    rake_totals,
    stored_hand,
    stored_record,
    table_day_totals,
)
from tests.unit.ledger.builders import (
    DAY_TWO,
    hcf_dp_collects,
    hcf_seat1_wins,
    holdem_pot_hand,
    record,
    russian_house_hand,
)

DAY1, DAY2 = dt.date(2024, 5, 1), dt.date(2024, 5, 2)


@pytest.fixture
def book(engine: Engine) -> Engine:
    results = post_many(
        engine,
        [
            hcf_seat1_wins("T1-000001"),
            hcf_dp_collects("T1-000002"),
            hcf_seat1_wins("T1-000003", ended_at=DAY_TWO),
            record("T1-000004", None, status="rejected"),
            russian_house_hand(),
            holdem_pot_hand(),
        ],
    )
    assert {r.status for r in results} == {"posted"}
    return engine


def test_balances_per_account(book: Engine) -> None:
    assert [(a.name, a.kind, a.balance) for a in balances(book)] == [
        ("house:bank", "house_bank", -10),
        ("house:rake", "house_rake", 5),
        ("layout:R1:1", "layout", 0),
        ("layout:R1:2", "layout", 0),
        ("layout:T1:1", "layout", 0),
        ("layout:T1:2", "layout", 0),
        ("player:alice", "player", -2),
        ("player:bob", "player", -17),
        ("player:carol", "player", 24),
        ("pot:H1", "pot", 0),
    ]
    assert sum(a.balance for a in balances(book)) == 0


def test_account_descriptions_and_posting_counts(book: Engine) -> None:
    """layout:T1:1 got 3 legs in each of T1-000001 and T1-000003 (two wagers, a return)."""
    (layout,) = [a for a in balances(book) if a.name == "layout:T1:1"]
    assert (layout.table_id, layout.seat, layout.player_id, layout.postings) == ("T1", 1, None, 6)
    assert [a.name for a in balances(book, kind="house_rake")] == ["house:rake"]


def test_player_balances(book: Engine) -> None:
    assert [(p.player_id, p.balance) for p in player_balances(book)] == [
        ("alice", -2),
        ("bob", -17),
        ("carol", 24),
    ]


def test_rake_per_table_mode_and_day(book: Engine) -> None:
    """H1 day 1 mode all: 1 (from the pot). T1 day 1: designated 2 (T1-2), players 1
    (T1-1); T1 day 2: players 1 (T1-3). R1 (Russian Poker) takes no rake."""
    assert rake_totals(book) == [
        RakeTotal("H1", "all", DAY1, 1, 1),
        RakeTotal("T1", "designated", DAY1, 2, 1),
        RakeTotal("T1", "players", DAY1, 1, 1),
        RakeTotal("T1", "players", DAY2, 1, 1),
    ]


def test_totals_per_table_and_day(book: Engine) -> None:
    """H1: drop 10+10, payout 19, rake 1. R1: drop 10+10, payout 20, house bank +10-20.
    T1 day 1: 3 hands (incl. the rejected one), drop 5+5 (T1-1) + 5 (T1-2) = 15, payout
    10, rake 1 + 2 = 3. T1 day 2: drop 10, payout 10, rake 1."""
    assert table_day_totals(book) == [
        TableDayTotal("H1", DAY1, hands=1, drop=20, payouts=19, rake=1, house_win=0),
        TableDayTotal("R1", DAY1, hands=1, drop=20, payouts=20, rake=0, house_win=-10),
        TableDayTotal("T1", DAY1, hands=3, drop=15, payouts=10, rake=3, house_win=0),
        TableDayTotal("T1", DAY2, hands=1, drop=10, payouts=10, rake=1, house_win=0),
    ]


def test_stored_record_is_the_record_as_posted(book: Engine) -> None:
    assert stored_record(book, "R1-000001") == russian_house_hand()
    assert stored_record(book, "nope") is None


def test_stored_hand_shows_postings_findings_and_refused_reposts(book: Engine) -> None:
    post_hand(book, msgspec.structs.replace(holdem_pot_hand(), dealer_id="D9"))
    hand = stored_hand(book, "H1-000001")
    assert hand is not None
    assert hand.ledger_status == "posted"
    assert [(p.account, p.amount) for p in hand.postings] == [
        ("player:alice", -10),
        ("pot:H1", 10),
        ("player:carol", -10),
        ("pot:H1", 10),
        ("pot:H1", -1),
        ("house:rake", 1),
        ("pot:H1", -19),
        ("player:carol", 19),
    ]
    assert hand.findings == []
    assert len(hand.conflicts) == 1 and hand.conflicts[0].endswith("fields differ: dealer_id")
    assert stored_hand(book, "nope") is None


def test_empty_ledger_reads_as_empty(engine: Engine) -> None:
    assert balances(engine) == [] and rake_totals(engine) == []
    assert table_day_totals(engine) == [] and player_balances(engine) == []


def test_chips_come_back_as_int(book: Engine) -> None:
    """PostgreSQL sums BIGINT into NUMERIC; the queries cast back: chips are int."""
    figures = [b.balance for b in balances(book)] + [r.amount for r in rake_totals(book)]
    figures += [t.drop + t.payouts + t.rake + t.house_win for t in table_day_totals(book)]
    assert {type(figure) for figure in figures} == {int}


def test_balances_read_each_posting_once(tmp_path: Path) -> None:
    """Joined before they were summed, SQLite read every posting once per account
    (postings have no index by account): 93 s for a 20,000-hand ledger. Counted in
    SQLite's virtual-machine steps, not seconds: within a small constant of one pass over
    the postings and the accounts (the join-first query took 20 times this bound)."""
    from sqlalchemy import func, select

    from services.ledger.db import open_ledger
    from services.ledger.models import Account, Posting
    from tests.unit.archive.support import keep, simulated_log

    engine = open_ledger(f"sqlite:///{tmp_path / 'ledger.sqlite'}")
    keep(engine, simulated_log(tables=6, hands=20).lines)
    with engine.connect() as conn:
        accounts = conn.execute(select(func.count()).select_from(Account)).scalar_one()
        postings = conn.execute(select(func.count()).select_from(Posting)).scalar_one()
    assert accounts > 50 and postings > 5_000
    hundreds = [0]

    def tick() -> int:
        hundreds[0] += 1
        return 0  # go on

    raw = engine.raw_connection()
    raw.driver_connection.set_progress_handler(tick, 100)  # type: ignore[union-attr]
    raw.close()  # back to the pool, which gives it to the query
    assert sum(a.postings for a in balances(engine)) == postings
    assert 0 < hundreds[0] * 100 <= 40 * (postings + accounts), hundreds[0]
