"""Persistence cases run on SQLite (tests/unit/surveillance/test_store.py) and on
PostgreSQL (tests/integration/test_surveillance_store_pg.py): the same checks on both
databases."""

from __future__ import annotations

import msgspec
from sqlalchemy import Engine, select

from services.events.contract import Alert
from services.ledger.profile_models import DealerPlayerRow, PairRow, PlayerRow
from services.surveillance import SurveillanceEngine
from services.surveillance.profile import surveillance_config
from services.surveillance.store import dealer_holds, load_engine, save_engine
from tests.profiles import HOUSE
from tests.unit.surveillance.scenario import hand

CONFIG = surveillance_config(HOUSE)


def week(first: int, last: int) -> list[tuple]:  # type: ignore[type-arg]
    """Hands ``first..last`` of one HCF table: dealer D1, six players, A (seat 1) overpaid
    25 chips by D1 every 5th hand (the sweethearting scenario of test_sweethearting)."""
    return [hand(n, mispays={1: 25} if n % 5 == 0 else {}) for n in range(first, last + 1)]


def observe(engine: SurveillanceEngine, hands: list[tuple]) -> list[bytes]:  # type: ignore[type-arg]
    return [msgspec.json.encode(a) for h, r in hands for a in engine.observe(h, r)]


def a_pattern_spread_over_two_days_is_seen(db: Engine) -> None:
    """Day one, hands 1..40: 8 overpays to A (share 1/6: 6^-8 = 5.95e-7 is above the
    8th overpay's look threshold 1.52e-7), no alert. Day two, hands 41..60, from the
    stored state: the 12th overpay alerts (6^-12 = 4.6e-10), as a single run over both
    days does, byte for byte."""
    day_one = load_engine(db, CONFIG)
    assert observe(day_one, week(1, 40)) == []
    save_engine(db, day_one)
    day_two = load_engine(db, CONFIG)
    from_store = observe(day_two, week(41, 60))
    save_engine(db, day_two)
    single = SurveillanceEngine(CONFIG)
    assert observe(single, week(1, 60)) == from_store
    alert = msgspec.json.decode(from_store[0], type=Alert)
    assert (alert.hand_id, alert.evidence["count"] if alert.evidence else None) == (
        "T1-000060", 12)


def a_hand_offered_again_is_not_counted_twice(db: Engine) -> None:
    """The same day's hands surveilled again (a replay, the log given twice): nothing is
    counted, no alert; the profiles keep 40 hands for A."""
    engine = load_engine(db, CONFIG)
    observe(engine, week(1, 40))
    save_engine(db, engine)
    again = load_engine(db, CONFIG)
    assert observe(again, week(1, 40)) == []
    assert again.hands_seen == 40
    save_engine(db, again)
    with db.connect() as connection:
        hands = connection.execute(select(PlayerRow.hands).where(
            PlayerRow.player_id == "A")).scalar_one()
    assert hands == 40


def profiles_are_stored_as_rows(db: Engine) -> None:
    """Two hands, A (seat 1) and B (seat 2) alone, dealer D1, wagers of 10 each. Hand 1:
    A wins 10 from B; hand 2: B wins 30 from A (A wagers 30, B 10). Pair (A, B): 2 hands,
    A won 1, B won 1, A to B 30 chips, B to A 10. Dealer D1 with A: 2 seat-hands, 40
    wagered, net -20, so D1 held 20 from A; the floor (D1 alone) lost 0 over 60 wagered
    (A's -20, B's +20): hold rate 0, theoretical 0."""
    def wager(seat: int, amount: int) -> tuple[str, dict[str, object]]:
        return ("wager", {"seat": seat, "kind": "ante", "amount": amount})

    hands = [hand(1, players={1: "A", 2: "B"}, events=[wager(1, 10), wager(2, 10)],
                  net={1: 10, 2: -10}),
             hand(2, players={1: "A", 2: "B"}, events=[wager(1, 30), wager(2, 10)],
                  net={1: -30, 2: 30})]
    engine = load_engine(db, CONFIG)
    observe(engine, hands)
    save_engine(db, engine)
    with db.connect() as connection:
        pair = connection.execute(select(PairRow)).one()
        players = dict(connection.execute(select(PlayerRow.player_id, PlayerRow.net)).all())
        dealer_a = connection.execute(select(DealerPlayerRow).where(
            DealerPlayerRow.player_id == "A")).one()
    assert (pair.player_a, pair.player_b, pair.hands, pair.a_won, pair.b_won, pair.a_to_b,
            pair.b_to_a) == ("A", "B", 2, 1, 1, 30, 10)
    assert players == {"A": -20, "B": 20}
    assert (dealer_a.seat_hands, dealer_a.wagered, dealer_a.net) == (2, 40, -20)
    holds = {(h.dealer_id, h.player_id): (h.held, h.theoretical) for h in dealer_holds(db)}
    assert holds == {("D1", "A"): (20, 0.0), ("D1", "B"): (-20, 0.0)}
