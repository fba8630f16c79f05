"""What a record books, computed without a database (services.ledger.entries)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

import msgspec
import pytest

from services.events.contract import AdjudicationRecord, decode_record, encode_record
from services.ledger.accounts import LedgerAccount, MovementRejected
from services.ledger.entries import (
    REFUSED_CODE,
    REFUSED_RULE,
    HandEntry,
    PostingLine,
    book,
    build_entry,
    check_balanced,
    identify,
    utc_day,
)
from tests.unit.ledger.builders import (
    event_id,
    hcf_dp_collects,
    hcf_seat1_wins,
    holdem_pot_hand,
    move,
    record,
    russian_house_hand,
)


def legs(entry: HandEntry) -> list[tuple[str, int, str, int, str]]:
    return [(p.event_id[-2:], p.leg, p.account, p.amount, p.kind) for p in entry.postings]


def test_hcf_hand_books_ten_legs_worked_out_in_the_builder() -> None:
    """See ``hcf_seat1_wins``: alice -5 -5 +10 -1 +10, bob -10, house:rake +1."""
    entry = build_entry(hcf_seat1_wins())
    assert entry.refusal is None
    assert legs(entry) == [
        ("01", 0, "player:alice", -5, "wager"),
        ("01", 1, "layout:T1:1", 5, "wager"),
        ("02", 0, "player:alice", -5, "wager"),
        ("02", 1, "layout:T1:1", 5, "wager"),
        ("03", 0, "player:bob", -10, "payout"),
        ("03", 1, "player:alice", 10, "payout"),
        ("04", 0, "player:alice", -1, "rake"),
        ("04", 1, "house:rake", 1, "rake"),
        ("05", 0, "layout:T1:1", -10, "layout_return"),
        ("05", 1, "player:alice", 10, "layout_return"),
    ]
    assert [(r.seat, r.player_id, r.amount) for r in entry.rake] == [(1, "alice", 1)]
    assert entry.day == dt.date(2024, 5, 1)


def test_accounts_are_described_for_queries() -> None:
    entry = build_entry(hcf_seat1_wins())
    assert entry.accounts == {
        "player:alice": LedgerAccount("player:alice", "player", player_id="alice"),
        "player:bob": LedgerAccount("player:bob", "player", player_id="bob"),
        "layout:T1:1": LedgerAccount("layout:T1:1", "layout", table_id="T1", seat=1),
        "house:rake": LedgerAccount("house:rake", "house_rake"),
    }


def test_house_wins_and_losses_go_to_the_bank_not_the_rake() -> None:
    """``russian_house_hand``: house:bank +10 (collected) -20 (paid) = -10; no rake."""
    entry = build_entry(russian_house_hand())
    house = [(p.account, p.amount) for p in entry.postings if p.account.startswith("house")]
    assert house == [("house:bank", 10), ("house:bank", -20)]
    assert entry.rake == []


def test_rake_from_the_pot_has_no_seat() -> None:
    entry = build_entry(holdem_pot_hand())
    assert [(r.seat, r.player_id, r.amount) for r in entry.rake] == [(None, None, 1)]


def test_several_movements_of_one_event_get_distinct_legs() -> None:
    """Two layout returns share the hand_ended event 9: legs 0,1 then 2,3."""
    entry = build_entry(
        record(
            "T1-9",
            [
                move(1, "stack:1", "layout:1", 5, "wager"),
                move(2, "stack:2", "layout:2", 7, "wager"),
                move(9, "layout:1", "stack:1", 5, "layout_return"),
                move(9, "layout:2", "stack:2", 7, "layout_return"),
            ],
        )
    )
    assert [(p.event_id[-2:], p.leg) for p in entry.postings][4:] == [
        ("09", 0),
        ("09", 1),
        ("09", 2),
        ("09", 3),
    ]


def test_rake_refund_comes_out_of_the_rake_account_as_negative_rake() -> None:
    """HCF-12: seat 2 paid 1 rake, its hand was dead, the 1 is refunded.
    Postings: carol -1 / house:rake +1, then house:rake -1 / carol +1; rake rows +1, -1."""
    entry = build_entry(
        record(
            "T1-10",
            [
                move(1, "stack:2", "house", 1, "rake"),
                move(2, "house", "stack:2", 1, "rake_refund"),
            ],
        )
    )
    assert [(p.account, p.amount) for p in entry.postings] == [
        ("player:carol", -1),
        ("house:rake", 1),
        ("house:rake", -1),
        ("player:carol", 1),
    ]
    assert [(r.seat, r.amount) for r in entry.rake] == [(2, 1), (2, -1)]


def test_rejected_record_books_nothing_and_is_not_refused() -> None:
    entry = build_entry(record("T1-11", None, status="rejected"))
    assert entry.refusal is None
    assert entry.postings == [] and entry.rake == []


def test_record_hash_is_of_the_deterministic_encoding() -> None:
    entry = build_entry(hcf_seat1_wins())
    assert msgspec.json.decode(entry.record_json)["hand_id"] == "T1-000001"
    assert entry.sha256 == build_entry(hcf_seat1_wins()).sha256
    assert entry.sha256 != build_entry(hcf_dp_collects()).sha256


@pytest.mark.parametrize(
    ("movements", "reason"),
    [
        (
            [move(1, "stack:1", "layout:1", 5, "wager")],
            "layouts not empty at hand end: layout:T1:1 nets 5",
        ),
        # QA 2026-12-06: pots were not checked, so these were booked and the table's pot
        # account carried the chips into its next hands.
        # 10 in, 9 out: a chip left in the pot (POT_NOT_EMPTY).
        (
            [move(1, "stack:1", "pot", 10, "bet"), move(2, "pot", "stack:2", 9, "payout")],
            "pots not empty at hand end: pot:T1 nets 1",
        ),
        # 10 in, 11 out: a chip paid out of nowhere (POT_OVERDRAWN).
        (
            [move(1, "stack:1", "pot", 10, "bet"), move(2, "pot", "stack:2", 11, "payout")],
            "pots not empty at hand end: pot:T1 nets -1",
        ),
        ([move(1, "stack:9", "house", 1, "rake")], "seat 9 has no player"),
        ([move(1, "stack:1", "bank", 1, "rake")], "unknown account name 'bank'"),
        ([move(1, "stack:01", "house", 1, "rake")], "unknown account name 'stack:01'"),
        # a superscript one: once a ValueError out of int() instead of a refusal
        ([move(1, "stack:\u00b9", "house", 1, "rake")], "unknown account name 'stack:\u00b9'"),
        ([move(1, "stack:1", "house", 1, "tip")], "unknown movement kind 'tip'"),
        ([move(1, "stack:1", "stack:2", 1, "rake")], "cannot go from stack to stack"),
        ([move(1, "house", "stack:1", 1, "wager")], "cannot go from house to stack"),
        ([move(1, "stack:1", "layout:2", 5, "wager")], "must stay with one seat"),
        ([move(1, "stack:1", "house", 0, "rake")], "Expected `int` >= 1 - at `$.movements[0]"),
        ([move(1, "stack:1", "house", -3, "rake")], "Expected `int` >= 1"),
        ([move(1, "stack:1", "house", 2**53, "rake")], "Expected `int` <= 9007199254740991"),
    ],
)
def test_refusals_say_why_and_book_nothing(movements: list[object], reason: str) -> None:
    entry = build_entry(record("T1-12", movements))  # type: ignore[arg-type]
    assert entry.refusal is not None
    assert (entry.refusal.code, entry.refusal.rule, entry.refusal.severity) == (
        REFUSED_CODE,
        REFUSED_RULE,
        "critical",
    )
    assert reason in entry.refusal.message
    assert entry.postings == [] and entry.rake == [] and entry.accounts == {}


def test_balance_check_rejects_postings_not_summing_to_zero() -> None:
    """A builder bug that dropped a leg: +5 alone sums to 5, refused (GEN-8)."""
    entry = build_entry(hcf_seat1_wins())
    entry.postings = [PostingLine(event_id(1), 1, 1, "layout:T1:1", 5, "wager")]
    with pytest.raises(MovementRejected, match="postings sum to 5, not zero"):
        check_balanced(entry)


@pytest.mark.parametrize(
    ("stamp", "day"),
    [
        ("2024-05-01T23:59:59.999Z", dt.date(2024, 5, 1)),
        ("2024-05-02T00:00:00+00:00", dt.date(2024, 5, 2)),
        (None, None),
    ],
)
def test_day_is_the_utc_date_of_hand_end(stamp: str | None, day: dt.date | None) -> None:
    assert utc_day(stamp) == day


@pytest.mark.parametrize(
    ("stamp", "why"),
    [
        ("2026-02-30T18:00:00.000Z", "February 2026 has 28 days"),
        ("2023-02-29T12:00:00Z", "February 2023 has 28 days"),
        ("2026-04-31T00:00:00Z", "April 2026 has 30 days"),
        ("0000-01-01T00:00:00Z", "there is no year 0000"),
    ],
)
def test_an_impossible_hand_end_date_is_refused_not_a_crash(stamp: str, why: str) -> None:
    """Issue #19 item 3: ``date.fromisoformat`` raised on these and stopped the booking of
    every hand; now the record is refused with the reason and books nothing."""
    entry = build_entry(hcf_seat1_wins(ended_at=stamp))
    assert entry.invalid is not None and why in entry.invalid
    assert entry.refusal is not None and why in entry.refusal.message
    assert entry.postings == [] and entry.day is None


def test_a_leap_day_is_a_real_day() -> None:
    assert build_entry(hcf_seat1_wins(ended_at="2024-02-29T23:59:59Z")).day == dt.date(
        2024, 2, 29)


@pytest.mark.parametrize("built", [hcf_seat1_wins, hcf_dp_collects, russian_house_hand,
                                   holdem_pot_hand])
def test_a_record_decoded_from_its_bytes_books_as_the_same_record_built_in_code(
        built: Callable[[], AdjudicationRecord]) -> None:
    """``identify(record, decoded=True)`` (the ledger service's records, which
    ``decode_record`` checked) skips the second decode, and books exactly what the checked
    path books: the same bytes, hash, day and legs."""
    in_code = built()
    from_wire = decode_record(encode_record(in_code))
    checked, trusted = identify(in_code), identify(from_wire, decoded=True)
    assert (trusted.record_json, trusted.sha256, trusted.day, trusted.invalid) == (
        checked.record_json, checked.sha256, checked.day, None)
    assert legs(book(trusted)) == legs(book(checked)) and trusted.postings


def test_a_record_built_in_code_that_breaks_the_contract_is_still_refused() -> None:
    """The second decode stays for records built in code (``decoded`` False): an amount
    the wire contract refuses is refused, not booked."""
    entry = identify(record("T1-13", [move(1, "stack:1", "house", 0, "rake")]))
    assert entry.invalid is not None and "Expected `int` >= 1" in entry.invalid
