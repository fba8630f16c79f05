"""Real-data acceptance: 10,000 Pluribus hands and the WSOP hold'em hands, imported from
PHH and adjudicated, reproduce the settlements actually made; and altering one payout,
card or action of an imported hand produces the finding that names it.

Data: ``<repo>/../shared/data/phh/pokerkit-d782667-data.tar.gz`` (or under
``$PITWATCH_SHARED``), unpacked into a temporary directory once per module.

Half chips: 8 Pluribus hands record a split of an odd pot as half chips (``10162.5``).
Their tables are imported with the half chip as the unit (every amount of the table x2,
``ImportResult.scales``); the split is then exact, with no odd chip, as the source
settled it. Every other table keeps the source's unit.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from phevaluator import evaluate_cards

from services.events.contract import AdjudicationRecord
from services.importers.phh import ImportResult, import_phh
from services.importers.phh_toml import loads
from tests.e2e.phh_support import (
    adjudicate_one,
    adjudicate_stream,
    hands_by_id,
    unpack,
)

Hand = tuple[dict[str, Any], list[dict[str, Any]]]


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return unpack(tmp_path_factory.mktemp("phh"))


@pytest.fixture(scope="module")
def pluribus(data: Path) -> tuple[ImportResult, list[AdjudicationRecord]]:
    result = import_phh([data / "pluribus"])
    return result, adjudicate_stream(result.events)


# ---------------------------------------------------------------------------- Pluribus


@pytest.mark.slow
def test_every_pluribus_hand_is_imported_and_ok(
        pluribus: tuple[ImportResult, list[AdjudicationRecord]]) -> None:
    result, records = pluribus
    assert result.skipped == []
    assert result.hands == 10_000
    assert len(records) == 10_000
    not_ok = [(r.hand_id, r.status, r.findings) for r in records
              if r.status != "ok" or r.findings]
    assert not_ok == []


@pytest.mark.slow
def test_pluribus_settlement_is_the_source_settlement(
        data: Path, pluribus: tuple[ImportResult, list[AdjudicationRecord]]) -> None:
    """Expected and recorded net of every seat equal finishing - starting stack of the
    file (times the table's chip scale)."""
    result, records = pluribus
    by_hand = {r.hand_id: r for r in records}
    checked = 0
    for path in sorted((data / "pluribus").rglob("*.phh")):
        doc = loads(path.read_text(encoding="utf-8"))
        table = f"phh:{path.parent.relative_to(data).as_posix()}"
        record = by_hand[f"{table}#{path.stem}"]
        scale = result.scales[table]
        assert record.expected is not None and record.recorded is not None
        assert record.expected == record.recorded
        changes = sorted((f - s) * scale for s, f in zip(doc["starting_stacks"],
                                                         doc["finishing_stacks"], strict=True))
        nets = sorted(v for k, v in record.expected.net.items() if k != "house")
        assert nets == changes, path
        checked += 1
    assert checked == 10_000


@pytest.mark.slow
def test_half_chip_hands_are_imported_in_half_chips(
        data: Path, pluribus: tuple[ImportResult, list[AdjudicationRecord]]) -> None:
    result, records = pluribus
    half: list[Path] = []
    for path in sorted((data / "pluribus").rglob("*.phh")):
        doc = loads(path.read_text(encoding="utf-8"))
        if any(Decimal(v) != int(v) for v in doc["finishing_stacks"]):
            half.append(path)
    assert len(half) == 8
    scaled_tables = {f"phh:{p.parent.relative_to(data).as_posix()}" for p in half}
    assert {t for t, s in result.scales.items() if s == 2} == scaled_tables
    assert {s for t, s in result.scales.items() if t not in scaled_tables} == {1}
    ok = {r.hand_id for r in records if r.status == "ok" and not r.findings}
    for path in half:
        table = f"phh:{path.parent.relative_to(data).as_posix()}"
        assert f"{table}#{path.stem}" in ok


# ---------------------------------------------------------------------------- WSOP


def test_wsop_holdem_hands_are_ok(data: Path) -> None:
    """All 18 hold'em hands (11 no-limit with a big-blind ante, 7 fixed limit) reproduce
    the recorded settlement; the other 65 hands are other games, reported as such."""
    result = import_phh([data / "wsop"], big_blind_ante_field=True)
    assert result.hands == 18
    assert len(result.skipped) == 65
    assert all(reason.startswith("variant ") for _, reason in result.skipped)
    records = adjudicate_stream(result.events)
    assert len(records) == 18
    assert [(r.hand_id, r.findings) for r in records if r.status != "ok" or r.findings] == []


def test_wsop_fixed_limit_hands_through_the_whole_pipeline(data: Path) -> None:
    """Without a big-blind ante field in the contract the 11 no-limit hands are reported
    and skipped; the 7 fixed-limit hands go through intake, chain and adjudication."""
    result = import_phh([data / "wsop"], big_blind_ante_field=False)
    reasons = [reason for _, reason in result.skipped if not reason.startswith("variant ")]
    assert len(reasons) == 11
    assert all("big-blind ante" in reason for reason in reasons)
    records = adjudicate_stream(result.events)
    assert len(records) == result.hands == 7
    assert {r.status for r in records} == {"ok"}


def test_historical_hands_without_finishing_stacks_are_reported(data: Path) -> None:
    result = import_phh(sorted(data.glob("*.phh")))
    assert result.hands == 0
    assert len(result.skipped) == 5
    reasons = {Path(path).name: reason for path, reason in result.skipped}
    assert "finishing_stacks" in reasons["dwan-ivey-2009.phh"]
    assert sum(reason.startswith("variant ") for reason in reasons.values()) == 4


# ---------------------------------------------------------------------------- alterations


@pytest.fixture(scope="module")
def sample(data: Path) -> dict[str, Hand]:
    """Every hand of six Pluribus sessions (about 600 hands), one hand per id."""
    sessions = sorted(p for p in (data / "pluribus").iterdir() if p.is_dir())[::15]
    return hands_by_id(import_phh(sessions).events)


def findings_of(record: AdjudicationRecord) -> set[tuple[str, int | None]]:
    return {(f.code, f.seat) for f in record.findings}


def events_of(hand: Hand, type_: str, **match: Any) -> Iterator[dict[str, Any]]:
    for event in hand[1]:
        if event["type"] == type_ and all(event["data"].get(k) == v for k, v in match.items()):
            yield event


def altered(hand: Hand) -> Hand:
    return hand[0], copy.deepcopy(hand[1])


def test_sample_is_clean(sample: dict[str, Hand]) -> None:
    assert len(sample) > 500
    records = [adjudicate_one(*hand) for hand in sample.values()]
    assert {r.status for r in records} == {"ok"}


def test_any_payout_altered_is_a_mispay(sample: dict[str, Hand]) -> None:
    """Every payout of every sampled hand, one at a time, one chip less: MISPAY for that
    seat (-1) and one chip left in the pot."""
    tried = 0
    for hand in sample.values():
        for index, event in enumerate(hand[1]):
            if event["type"] != "payout" or event["data"]["amount"] < 2:
                continue
            config, events = altered(hand)
            events[index]["data"]["amount"] -= 1
            record = adjudicate_one(config, events)
            seat = event["data"]["seat"]
            mispay = [f for f in record.findings if f.code == "MISPAY"]
            assert [(f.seat, f.amount) for f in mispay] == [(seat, -1)], record.findings
            assert ("POT_NOT_EMPTY", None) in findings_of(record)
            tried += 1
    assert tried > 500


def test_a_call_of_the_wrong_amount(sample: dict[str, Hand]) -> None:
    tried = 0
    for hand in sample.values():
        config, events = altered(hand)
        call = next((e for e in events if e["type"] == "action"
                     and e["data"]["action"] == "call"), None)
        if call is None:
            continue
        call["data"]["amount"] += 1
        record = adjudicate_one(config, events)
        assert ("WRONG_CALL_AMOUNT", call["data"]["seat"]) in findings_of(record)
        assert record.status == "discrepancy"
        tried += 1
    assert tried > 300


def test_a_fold_recorded_as_a_check_facing_a_bet(sample: dict[str, Hand]) -> None:
    """The first fold of each hand (pre-flop, facing at least the big blind) turned into
    a check."""
    tried = 0
    for hand in sample.values():
        config, events = altered(hand)
        fold = next((e for e in events if e["type"] == "action"
                     and e["data"]["action"] == "fold"), None)
        if fold is None:
            continue
        fold["data"]["action"] = "check"
        record = adjudicate_one(config, events)
        assert ("CHECK_FACING_BET", fold["data"]["seat"]) in findings_of(record)
        tried += 1
    assert tried > 500


def test_a_raise_below_the_minimum(sample: dict[str, Hand]) -> None:
    """The first pre-flop raise changed to a raise to the big blind + 1 (no limit, the
    minimum is twice the big blind): UNDER_MINIMUM for that seat."""
    tried = 0
    for hand in sample.values():
        config, events = altered(hand)
        big_blind = config["limits"]["big_blind"]
        raised = next((e for e in events if e["type"] == "action"
                       and e["data"]["action"] == "raise"), None)
        if raised is None or raised["data"]["seat"] in _blind_seats(events):
            continue
        raised["data"]["amount"] = big_blind + 1
        record = adjudicate_one(config, events)
        assert ("UNDER_MINIMUM", raised["data"]["seat"]) in findings_of(record)
        tried += 1
    assert tried > 200


def _blind_seats(events: list[dict[str, Any]]) -> set[int]:
    return {e["data"]["seat"] for e in events if e["type"] == "action"
            and e["data"]["action"].startswith("post_")}


def showdown_pairs(sample: dict[str, Hand]) -> Iterator[tuple[Hand, int, int]]:
    """Hands that end with exactly two players showing their cards."""
    for hand in sample.values():
        shown = [e for e in hand[1] if e["type"] == "showdown" and e["data"].get("cards")]
        mucked = [e for e in hand[1] if e["type"] == "showdown" and e["data"].get("mucked")]
        if len(shown) == 2 and not mucked:
            yield hand, shown[0]["data"]["seat"], shown[1]["data"]["seat"]


def winners(hole: dict[int, list[str]], board: list[str]) -> set[int]:
    """The oracle: phevaluator (an independent C evaluator; lower rank is better)."""
    ranks = {seat: evaluate_cards(*cards, *board) for seat, cards in hole.items()}
    best = min(ranks.values())
    return {seat for seat, rank in ranks.items() if rank == best}


def cards_of(events: list[dict[str, Any]]) -> tuple[dict[int, list[str]], list[str]]:
    hole: dict[int, list[str]] = {}
    board: list[str] = []
    for e in events:
        if e["type"] == "card_dealt" and e["data"]["to"] == "seat":
            hole.setdefault(e["data"]["seat"], []).append(e["data"]["card"])
        elif e["type"] == "card_dealt" and e["data"]["to"] == "board":
            board.append(e["data"]["card"])
    return hole, board


def unused_card(events: list[dict[str, Any]], offset: int) -> str:
    used = {e["data"]["card"] for e in events if e["type"] == "card_dealt"}
    free = [r + s for r in "23456789TJQKA" for s in "cdhs" if r + s not in used]
    return free[offset % len(free)]


def test_a_board_card_altered_changes_the_pot_exactly_when_the_winner_changes(
        sample: dict[str, Hand]) -> None:
    """Each two-player showdown: the river replaced by an unused card. MISPAY is reported
    if and only if the independent evaluator says the winner(s) changed."""
    changed = unchanged = 0
    for number, (hand, a, b) in enumerate(showdown_pairs(sample)):
        config, events = altered(hand)
        river = [e for e in events if e["type"] == "card_dealt" and e["data"]["to"] == "board"][-1]
        hole, board = cards_of(events)
        before = winners({a: hole[a], b: hole[b]}, board)
        river["data"]["card"] = unused_card(events, number)
        after = winners({a: hole[a], b: hole[b]}, cards_of(events)[1])
        record = adjudicate_one(config, events)
        has_mispay = any(f.code == "MISPAY" for f in record.findings)
        assert has_mispay == (before != after), (hand[1][0]["hand_id"], record.findings)
        if before != after:
            changed += 1
        else:
            unchanged += 1
    assert changed > 10 and unchanged > 10


def test_a_hole_card_altered_is_a_switched_card(sample: dict[str, Hand]) -> None:
    """The first hole card of a player who showed, replaced by an unused card: the cards
    shown no longer match the cards dealt (TH-9), and MISPAY iff the winner changed."""
    tried = 0
    for number, (hand, a, b) in enumerate(showdown_pairs(sample)):
        config, events = altered(hand)
        first = next(events_of((config, events), "card_dealt", to="seat", seat=a))
        hole, board = cards_of(events)
        before = winners({a: hole[a], b: hole[b]}, board)
        first["data"]["card"] = unused_card(events, number)
        hole, board = cards_of(events)
        after = winners({a: hole[a], b: hole[b]}, board)
        record = adjudicate_one(config, events)
        assert ("SHOWN_CARDS_MISMATCH", a) in findings_of(record)
        assert any(f.code == "MISPAY" for f in record.findings) == (before != after)
        tried += 1
    assert tried > 20


def test_a_board_card_duplicating_a_hole_card(sample: dict[str, Hand]) -> None:
    tried = 0
    for hand, a, _ in showdown_pairs(sample):
        config, events = altered(hand)
        flop = next(events_of((config, events), "card_dealt", to="board"))
        flop["data"]["card"] = cards_of(events)[0][a][0]
        record = adjudicate_one(config, events)
        assert ("DUPLICATE_CARD", None) in findings_of(record)
        tried += 1
    assert tried > 20
