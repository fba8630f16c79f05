"""Property tests: any hand whose movements balance books as balanced double entry, and
batching, repeats and order of delivery never change the book."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import Engine

from services.events.contract import AdjudicationRecord
from services.ledger.db import open_ledger
from services.ledger.posting import post_hand, post_many
from tests.databases import BACKENDS, fresh_schema
from tests.unit.ledger.dbread import account_balances, snapshot
from tests.unit.ledger.strategies import balanced_hands, expected_change


@pytest.fixture(scope="module", params=BACKENDS)
def shared_engine(request: pytest.FixtureRequest,
                  tmp_path_factory: pytest.TempPathFactory) -> Iterator[Engine]:
    """One ledger for all examples of a property, on SQLite and on PostgreSQL."""
    if request.param == "sqlite":
        path: Path = tmp_path_factory.mktemp("ledger-properties")
        engine = open_ledger(f"sqlite:///{path}/ledger.sqlite")
        yield engine
        engine.dispose()
        return
    with fresh_schema(request.getfixturevalue("pg_url")) as url:
        engine = open_ledger(url)
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
