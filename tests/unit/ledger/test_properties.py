"""Property tests: any hand whose movements balance books as balanced double entry, and
batching, repeats and order of delivery never change the book."""

from __future__ import annotations

import itertools
import uuid
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import Engine

from services.events.contract import AdjudicationRecord, Movement
from services.ledger.db import open_ledger
from services.ledger.posting import post_hand, post_many
from tests.unit.ledger.builders import record
from tests.unit.ledger.dbread import account_balances, snapshot

TABLE = "P1"
MOVEMENT_KINDS = (
    "wager",
    "bet",
    "wager_collected",
    "payout",
    "collection",
    "rake",
    "rake_refund",
)
_hand_numbers = itertools.count(1)


@st.composite
def balanced_hands(draw: st.DrawFn) -> AdjudicationRecord:
    """A random hand whose chips all move by the contract's rules: every layout is emptied
    at hand end by a layout return (one shared hand_ended event), the pot is never paid
    more than it holds; a player may sit at two seats."""
    hand_no = next(_hand_numbers)
    events = (str(uuid.UUID(int=hand_no * 10_000 + i)) for i in itertools.count(1))
    seats = draw(st.lists(st.integers(1, 7), min_size=1, max_size=5, unique=True))
    players = {str(s): draw(st.sampled_from(["ann", "ben", "cy", "dee"])) for s in seats}
    seat = st.sampled_from(seats)
    chips = st.integers(1, 10**12)
    layout: Counter[int] = Counter()
    pot = 0
    movements: list[Movement] = []

    def add(source: str, target: str, amount: int, kind: str, event: str | None = None) -> None:
        event_id = event or next(events)
        movements.append(
            Movement(
                event_id=event_id,
                seq=len(movements) + 1,
                from_=source,
                to=target,
                amount=amount,
                kind=kind,
            )
        )

    for kind in draw(st.lists(st.sampled_from(MOVEMENT_KINDS), max_size=20)):
        who, other = draw(seat), draw(seat)
        if kind == "wager":
            amount = draw(chips)
            layout[who] += amount
            add(f"stack:{who}", f"layout:{who}", amount, kind)
        elif kind == "bet":
            amount = draw(chips)
            pot += amount
            add(f"stack:{who}", "pot", amount, kind)
        elif kind == "wager_collected" and layout[who] > 0:
            amount = draw(st.integers(1, layout[who]))
            layout[who] -= amount
            add(f"layout:{who}", draw(st.sampled_from([f"stack:{other}", "house"])), amount, kind)
        elif kind in ("payout", "rake") and pot > 0 and draw(st.booleans()):
            amount = draw(st.integers(1, pot))
            pot -= amount
            add("pot", f"stack:{who}" if kind == "payout" else "house", amount, kind)
        elif kind == "payout":
            add(
                draw(st.sampled_from([f"stack:{other}", "house"])),
                f"stack:{who}",
                draw(chips),
                kind,
            )
        elif kind == "collection":
            add(
                f"stack:{who}",
                draw(st.sampled_from([f"stack:{other}", "house"])),
                draw(chips),
                kind,
            )
        elif kind == "rake":
            add(f"stack:{who}", "house", draw(chips), kind)
        elif kind == "rake_refund":
            add("house", f"stack:{who}", draw(chips), kind)
    hand_ended = next(events)
    for returned_seat, amount in sorted(layout.items()):
        if amount:
            add(
                f"layout:{returned_seat}",
                f"stack:{returned_seat}",
                amount,
                "layout_return",
                hand_ended,
            )
    return record(f"{TABLE}-{hand_no:06d}", movements, table_id=TABLE, players=players)


def expected_change(hand: AdjudicationRecord) -> dict[str, int]:
    """Each account's change, straight from the contract: ``to`` gains, ``from`` loses."""
    players = hand.players or {}

    def account(place: str, kind: str) -> str:
        if place == "house":
            return "house:rake" if kind in ("rake", "rake_refund") else "house:bank"
        if place == "pot":
            return f"pot:{TABLE}"
        role, seat = place.split(":")
        return f"player:{players[seat]}" if role == "stack" else f"layout:{TABLE}:{seat}"

    change: dict[str, int] = defaultdict(int)
    for m in hand.movements or []:
        change[account(m.from_, m.kind)] -= m.amount
        change[account(m.to, m.kind)] += m.amount
    return change


@pytest.fixture(scope="module")
def shared_engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Engine]:
    path: Path = tmp_path_factory.mktemp("ledger-properties")
    engine = open_ledger(f"sqlite:///{path}/ledger.sqlite")
    yield engine
    engine.dispose()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hand=balanced_hands())
def test_any_balanced_hand_posts_and_the_book_sums_to_zero(
    shared_engine: Engine, hand: AdjudicationRecord
) -> None:
    before = account_balances(shared_engine)
    result = post_hand(shared_engine, hand)
    assert (result.status, result.postings) == ("posted", 2 * len(hand.movements or []))
    after = account_balances(shared_engine)
    change = {
        name: after.get(name, 0) - before.get(name, 0) for name in after.keys() | before.keys()
    }
    expected = expected_change(hand)
    assert {n: v for n, v in change.items() if v} == {n: v for n, v in expected.items() if v}
    assert sum(after.values()) == 0
    assert all(v == 0 for name, v in after.items() if name.startswith("layout:"))
    assert post_hand(shared_engine, hand).status == "duplicate"
    assert account_balances(shared_engine) == after


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    hands=st.lists(balanced_hands(), min_size=1, max_size=4),
    repeats=st.lists(st.integers(0, 3), max_size=6),
    batch_size=st.integers(1, 5),
    data=st.data(),
)
def test_batching_repeats_and_order_never_change_the_book(
    hands: list[AdjudicationRecord],
    repeats: list[int],
    batch_size: int,
    data: st.DataObject,
) -> None:
    """Hands re-delivered in any order, in any batch size, book the same rows as each
    hand posted once (compared as whole-table snapshots)."""
    delivered = hands + [hands[i % len(hands)] for i in repeats]
    delivered = data.draw(st.permutations(delivered))
    once, replayed = open_ledger("sqlite://"), open_ledger("sqlite://")
    try:
        for hand in sorted(hands, key=lambda h: h.hand_id):
            post_hand(once, hand)
        results = post_many(replayed, delivered, batch_size=batch_size)
        assert Counter(r.status for r in results) == {
            "posted": len(hands),
            **({"duplicate": len(repeats)} if repeats else {}),
        }
        assert snapshot(replayed) == snapshot(once)
    finally:
        once.dispose()
        replayed.dispose()
