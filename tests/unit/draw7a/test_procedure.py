"""Blinds (FCD-3), deal (FCD-4), order of action (FCD-5/7), showdown (FCD-9), dead hands
(GEN-6) and rake (GEN-10) through whole hands."""

from typing import Any

import pytest

from services.adjudicator.adjudicate import adjudicate_hand
from services.games.profile import Profiles, RuleProfile
from services.simulator.handbuilder import build_hand
from tests.profiles import HOUSE, PROFILES
from tests.unit.draw7a.builder import adjudicated, codes, config, narrate, stand_pat

FLUSH = ["Ah", "Kh", "9h", "8h", "7h"]
FULL_HOUSE = ["Ac", "Ad", "As", "Kc", "Kd"]
TWO_PAIR = ["7c", "7d", "8c", "8d", "Tc"]
CARDS = {1: FLUSH, 2: FULL_HOUSE, 3: TWO_PAIR}
STACKS = {1: 100, 2: 100, 3: 100}


def three_handed(**overrides: Any) -> list[tuple[str, dict[str, Any]]]:
    """Button 1, SB 2, BB 3, no limit 1/2. Before the draw 1 calls 2, 2 completes 1, 3
    checks (pot 6); all pat; after the draw 2 bets 6, 3 folds, 1 calls 6. Put in: 1 and
    2 -> 8, 3 -> 2; pot 18; seat 2 (the bettor) shows first; seat 1's flush wins 18.
    Net: 1 = +10, 2 = -8, 3 = -2."""
    spec: dict[str, Any] = dict(
        before=[(1, "call", 2), (2, "call", 1), (3, "check", None)],
        draws=stand_pat(2, 3, 1),
        after=[(2, "bet", 6), (3, "fold", None), (1, "call", 6)],
        showdown=[(2, FULL_HOUSE), (1, FLUSH)],
        payouts=[(1, 18, "pot")])
    spec.update(overrides)
    return narrate(STACKS, 1, CARDS, **spec)


def test_clean_hand_is_ok() -> None:
    record = adjudicated(config("no"), three_handed())
    assert record.status == "ok" and record.findings == []
    assert record.expected is not None
    assert record.expected.net == {"1": 10, "2": -8, "3": -2, "house": 0}


def test_wrong_winner_paid_is_a_mispay_citing_fcd11() -> None:
    record = adjudicated(config("no"), three_handed(payouts=[(2, 18, "pot")]))
    assert {(f.code, f.rule, f.seat, f.amount) for f in record.findings} == {
        ("MISPAY", "FCD-11", 1, -18), ("MISPAY", "FCD-11", 2, 18)}


def test_showdown_order_is_info_only() -> None:
    """Seat 1 shows before the bettor (2): FCD-9, severity info; the hand stays ok."""
    record = adjudicated(config("no"), three_handed(
        showdown=[(1, FLUSH), (2, FULL_HOUSE)]))
    assert codes(record) == ["SHOWDOWN_ORDER"] and record.status == "ok"


def test_mucked_loser_and_shown_cards_that_were_not_dealt() -> None:
    """Seat 2 mucks: no finding. Seat 1 'shows' a hand it was not dealt: critical, and the
    cards dealt speak (the flush still wins)."""
    record = adjudicated(config("no"), three_handed(showdown=[(2, None), (1, FLUSH)]))
    assert record.findings == []
    shown = ["Qh", "Jh", "9h", "8h", "7h"]
    record = adjudicated(config("no"), three_handed(showdown=[(2, FULL_HOUSE), (1, shown)]))
    assert codes(record) == ["SHOWN_CARDS_MISMATCH"]


def test_muck_by_the_best_hand_gives_up_the_pot() -> None:
    """Seat 1 (flush) mucks after calling: seat 2's full house takes 18. Net 2 = +10."""
    record = adjudicated(config("no"), three_handed(
        showdown=[(2, FULL_HOUSE), (1, None)], payouts=[(2, 18, "pot")]))
    assert record.findings == []
    assert record.expected is not None and record.expected.net["2"] == 10


def test_out_of_turn_and_check_facing_bet() -> None:
    """Before the draw seat 2 acts before seat 1 (out of turn, FCD-5); after the draw seat
    3 checks facing seat 2's bet of 6 (FCD-7), then folds when it comes back."""
    record = adjudicated(config("no"), three_handed(
        before=[(2, "call", 1), (1, "call", 2), (3, "check", None)],
        after=[(2, "bet", 6), (3, "check", None), (1, "call", 6)],
        showdown=[(2, FULL_HOUSE), (1, FLUSH)]))
    assert [(f.code, f.rule) for f in record.findings] == [
        ("OUT_OF_TURN", "FCD-5"), ("CHECK_FACING_BET", "FCD-7")]


def test_blinds_wrong_amount_and_posted_after_the_deal() -> None:
    """Seat 3 posts a big blind of 4 (FCD-3: 2 is owed). The table played it as the bet to
    call: 1 calls 4, 2 adds 3; after the draw 2 bets 6, 3 folds, 1 calls: pot 3 x 4 + 12
    = 24 to seat 1; only the blind is a finding. Then a correct big blind recorded after
    the first card was dealt (FCD-3: before the deal)."""
    record = adjudicated(config("no"), three_handed(
        blinds=[(2, "post_small_blind", 1), (3, "post_big_blind", 4)],
        before=[(1, "call", 4), (2, "call", 3), (3, "check", None)],
        payouts=[(1, 24, "pot")]))
    assert codes(record) == ["BLIND_WRONG_AMOUNT"]
    late = three_handed()
    blind = late.pop(2)  # the big blind, after the deal
    late.insert(10, blind)
    record = adjudicated(config("no"), late)
    assert codes(record) == ["BLIND_AFTER_DEAL"]


def test_deal_not_clockwise_from_button() -> None:
    """The first two cards go to seats 3 and 2 instead of 2 and 3 (FCD-4)."""
    events = three_handed()
    events[3], events[4] = events[4], events[3]
    record = adjudicated(config("no"), events)
    assert codes(record) == ["DEAL_ORDER"]


def test_misdeal_returns_everything() -> None:
    """GEN-6: a misdeal after the blinds; both blinds refunded: status dead, no finding."""
    events = [
        *narrate(STACKS, 1, CARDS)[:3],
        ("misdeal", {"reason": "card exposed in the deal"}),
        ("payout", {"seat": 2, "amount": 1, "source": "pot", "kind": "refund"}),
        ("payout", {"seat": 3, "amount": 2, "source": "pot", "kind": "refund"}),
        ("hand_ended", {})]
    record = adjudicated(config("no", mode="all", fee=1), events)
    assert record.status == "dead" and record.findings == []
    assert record.expected is not None
    assert record.expected.net == {"1": 0, "2": 0, "3": 0, "house": 0}


def test_rake_designated_mode_button_pays_for_every_participant() -> None:
    """GEN-10 designated = the player on the button (seat 1) pays 1 for each of the three
    participants, from its own stack (house-v1): seat 1 wins the whole pot of 18, then pays
    3. Net: 1 = 18 - 8 - 3 = +7, 2 = -8, 3 = -2, house 3."""
    record = adjudicated(config("no", mode="designated", fee=1), three_handed(
        rake=[(1, 3)], payouts=[(1, 18, "pot")]))
    assert record.findings == []
    assert record.expected is not None
    assert record.expected.net == {"1": 7, "2": -8, "3": -2, "house": 3}
    assert record.expected.rake == {"1": 3}


def test_over_collected_rake_is_a_finding() -> None:
    """Mode all, fee 1 (3 due, 1 each, from the stacks); the table takes 2 from seat 2."""
    record = adjudicated(config("no", mode="all", fee=1), three_handed(
        rake=[(1, 1), (2, 2), (3, 1)], payouts=[(1, 18, "pot")]))
    assert ("RAKE_OVER", "GEN-10", 2, 1) in {
        (f.code, f.rule, f.seat, f.amount) for f in record.findings}


def test_player_walking_away_has_folded() -> None:
    """GEN-7: after seat 2's bet seat 3 leaves the table instead of acting: its hand is
    folded (no finding); seat 1 calls and wins as in the clean hand."""
    events = three_handed(after=[(2, "bet", 6), (1, "call", 6)])
    where = next(i for i, e in enumerate(events)
                 if e[0] == "action" and e[1] == {"seat": 1, "action": "call", "amount": 6})
    events.insert(where, ("player_left", {"seat": 3, "player_id": "p3", "stack": 98}))
    record = adjudicated(config("no"), events)
    assert record.findings == []
    assert record.expected is not None
    assert record.expected.net == {"1": 10, "2": -8, "3": -2, "house": 0}


def test_chips_moved_by_an_action_foreign_to_the_game_stay_in_the_pot() -> None:
    """A 'play' action with 2 chips (an RP action): UNEXPECTED_ACTION (FCD-2); the chips
    are in the pot and go to the winner (pot 20), so there is no mispay."""
    events = three_handed(payouts=[(1, 20, "pot")])
    where = next(i for i, e in enumerate(events) if e[0] == "draw")
    events.insert(where, ("action", {"seat": 3, "action": "play", "amount": 2}))
    record = adjudicated(config("no"), events)
    assert codes(record) == ["UNEXPECTED_ACTION"]


def test_bet_larger_than_the_stack_is_reported_once_as_gen2() -> None:
    """Seat 2 has 98 behind after the draw and bets 120: table stakes (GEN-2), reported by
    the common checks as WAGER_OVER_STACK (amount 22) and not again by the game. Both
    others fold: the 120 is uncalled and returned, seat 2 wins the 6 (net +4)."""
    record = adjudicated(config("no"), three_handed(
        after=[(2, "bet", 120), (3, "fold", None), (1, "fold", None)],
        showdown=[], payouts=[(2, 120, "refund"), (2, 6, "pot")]))
    assert [(f.code, f.rule, f.amount) for f in record.findings] == [
        ("WAGER_OVER_STACK", "GEN-2", 22)]
    assert record.expected is not None
    assert record.expected.net == {"1": -2, "2": 4, "3": -2, "house": 0}


def test_player_walking_away_during_the_draw_owes_no_draw() -> None:
    """GEN-7 with FCD-6: button 1, everyone in for 2 (pot 6). Seat 2 stands pat, then
    seat 3 leaves the table before its turn to draw: its hand is folded, so no draw was
    due from it (no DRAW_NOT_RECORDED). Seat 1 stands pat; after the draw 2 and 1 check;
    seat 2 (first active left of the button, nobody bet) shows first. Seat 1's flush wins
    6: net 1 = +4, 2 = -2, 3 = -2."""
    events = three_handed(
        draws=stand_pat(2, 1), after=[(2, "check", None), (1, "check", None)],
        showdown=[(2, FULL_HOUSE), (1, FLUSH)], payouts=[(1, 6, "pot")])
    where = next(i for i, e in enumerate(events) if e[0] == "draw" and e[1]["seat"] == 1)
    events.insert(where, ("player_left", {"seat": 3, "player_id": "p3", "stack": 98}))
    record = adjudicated(config("no"), events)
    assert record.findings == []
    assert record.expected is not None
    assert record.expected.net == {"1": 4, "2": -2, "3": -2, "house": 0}


def test_action_by_a_seat_not_dealt_in_does_not_end_the_first_round() -> None:
    """Between the first betting round and the draw, seat 7 (not dealt in) records a bet
    of 5: NOT_IN_HAND, citing the round it came in (FCD-5). It is not the first bet after
    the draw, so it does not open the second round: the draws that follow are in phase
    (no DRAW_OUT_OF_PHASE). The recorded side books seat 7's 5 chips into the pot, which
    the adjudicator reports (GEN-8); the expected settlement is the clean hand's."""
    events = three_handed()
    where = next(i for i, e in enumerate(events) if e[0] == "draw")
    events.insert(where, ("action", {"seat": 7, "action": "bet", "amount": 5}))
    record = adjudicated(config("no"), events)
    game = [(f.code, f.rule, f.seat) for f in record.findings if f.rule != "GEN-8"]
    assert game == [("NOT_IN_HAND", "FCD-5", 7)]
    assert record.expected is not None
    assert record.expected.net == {"1": 10, "2": -8, "3": -2, "house": 0}


def test_cards_shown_by_a_seat_dealt_none_are_not_a_mismatch() -> None:
    """Seat 1's five card_dealt events are missing (WRONG_CARD_COUNT, and the deal is out
    of order: DEAL_ORDER, FCD-4); it shows its flush at the showdown. Nothing was dealt to
    compare with, so there is no SHOWN_CARDS_MISMATCH: the shown cards value the hand and
    the flush wins as in the clean hand (net 1 = +10)."""
    events = [e for e in three_handed() if not (e[0] == "card_dealt" and e[1]["seat"] == 1)]
    record = adjudicated(config("no"), events)
    assert [(f.code, f.seat) for f in record.findings] == [
        ("DEAL_ORDER", None), ("WRONG_CARD_COUNT", 1)]
    assert record.expected is not None
    assert record.expected.net == {"1": 10, "2": -8, "3": -2, "house": 0}


def test_misdeal_with_blinds_kept_or_raked_is_a_finding() -> None:
    """GEN-6, rake 'all' 1: a misdeal after the blinds (seat 2 SB 1, seat 3 BB 2).
    Every wager is returned and nothing is raked, so every expected net is 0.
    - The table pays the whole pot of 3 to the big blind: seat 3 recorded +1, seat 2 -1:
      MISPAY citing GEN-6, +1 for seat 3 and -1 for seat 2.
    - The table takes 1 rake from seat 2's blind in the pot and refunds only seat 3's 2:
      RAKE_OVER of 1 for seat 2 (GEN-10)."""
    start = narrate(STACKS, 1, CARDS)[:3]
    kept = [*start, ("misdeal", {"reason": "card exposed in the deal"}),
            ("payout", {"seat": 3, "amount": 3, "source": "pot", "kind": "pot"}),
            ("hand_ended", {})]
    record = adjudicated(config("no", mode="all", fee=1), kept)
    assert record.expected is not None
    assert record.expected.net == {"1": 0, "2": 0, "3": 0, "house": 0}
    assert {(f.code, f.rule, f.seat, f.amount) for f in record.findings} == {
        ("MISPAY", "GEN-6", 2, -1), ("MISPAY", "GEN-6", 3, 1)}
    raked = [*start, ("misdeal", {"reason": "card exposed in the deal"}),
             ("rake_collected", {"seat": 2, "amount": 1, "from": "pot"}),
             ("payout", {"seat": 3, "amount": 2, "source": "pot", "kind": "refund"}),
             ("hand_ended", {})]
    record = adjudicated(config("no", mode="all", fee=1), raked)
    assert [(f.code, f.rule, f.seat, f.amount) for f in record.findings] == [
        ("RAKE_OVER", "GEN-10", 2, 1)]


def _pot_raking_room() -> Profiles:
    """house-v1 with a pot rake schedule in the Draw section: 10% in whole chips, at most
    1 heads-up and 2 with three or more players, nothing when the hand ends before the
    draw (the Draw form of no flop, no drop)."""
    sections = {name: dict(body) for name, body in HOUSE.sections.items()}
    rake = dict(sections["draw7a"]["rake"])
    rake["pot"] = {"rate_numerator": 10, "rate_denominator": 100, "unit": 1,
                   "rounding": "down", "minimum_pot": 0, "no_flop_no_drop": True,
                   "caps": [{"min_players": 3, "cap": 2}, {"min_players": 2, "cap": 1}]}
    sections["draw7a"] = {**sections["draw7a"], "rake": rake}
    return Profiles({**PROFILES.by_name, "pot-room": RuleProfile("pot-room", sections)})


def test_pot_rake_schedule_at_a_draw_table() -> None:
    """GEN-10 pot rake (issue #21) in the three-handed hand: pot 18 after the draw, 10% =
    1.8, down to 1 chip, under the cap of 2: seat 1 is paid 17 (+9), house 1. A hand
    that ends before the draw (seat 1 raises, both blinds fold) is not raked: seat 1
    gets its uncalled 4 back and the blinds 3 (+3)."""
    cfg = {**config("no"), "rule_profile": "pot-room"}
    raked = [*three_handed(payouts=[(1, 17, "pot")])]
    raked.insert(-1, ("rake_collected", {"seat": None, "amount": 1, "from": "pot"}))
    record = adjudicate_hand(build_hand(cfg, raked), _pot_raking_room())
    assert record.status == "ok", record.findings
    assert record.expected is not None and record.expected.rake == {"pot": 1}
    assert record.expected.net == {"1": 9, "2": -8, "3": -2, "house": 1}
    unraked = narrate(STACKS, 1, CARDS, before=[(1, "raise", 6), (2, "fold", None),
                                                (3, "fold", None)],
                      payouts=[(1, 4, "refund"), (1, 5, "pot")])
    record = adjudicate_hand(build_hand(cfg, unraked), _pot_raking_room())
    assert record.status == "ok", record.findings
    assert record.expected is not None and record.expected.rake == {}


def _unread(seat: int, read: list[str | None], shown: list[str]) -> Any:
    """The three-handed hand with ``seat``'s deal read as ``read`` (None: not read) and
    ``shown`` at its showdown, adjudicated by both engines (the same bytes)."""
    from tests.unit.native.rules_support import both_engines

    cards: dict[int, Any] = {**CARDS, seat: read}
    showdown = [(2, FULL_HOUSE), (1, shown)] if seat == 1 else [(2, shown), (1, FLUSH)]
    events = narrate(STACKS, 1, cards, before=[(1, "call", 2), (2, "call", 1),
                                               (3, "check", None)],
                     draws=stand_pat(2, 3, 1),
                     after=[(2, "bet", 6), (3, "fold", None), (1, "call", 6)],
                     showdown=showdown, payouts=[(1, 18, "pot")])
    return both_engines(build_hand(config("no"), events), PROFILES)


UNFITTING: dict[str, tuple[list[str | None], list[str], str]] = {  # seat 1's deal as read, the cards it shows, why they cannot stand for it
    "a switched card": (["Ah", "Kh", "9h", "8h", None], ["Qc", "Qd", "Qs", "Jc", "Jd"],
                        "they lack the card(s) read: Ah Kh 9h 8h"),
    "a card added": (["Ah", "Kh", "9h", "8h", None], ["Ah", "Kh", "9h", "8h", "7h", "Th"],
                     "they are 6 cards for the 5 it held"),
    "a card shown twice": ([None] * 5, ["Ah", "Ah", "9h", "8h", "7h"], "they hold Ah twice"),
    "another seat's card": ([None] * 5, ["Jh", "Ac", "9h", "8h", "7h"],
                            "Ac was read at seat 2"),
    "a card of no short deck": ([None] * 5, ["6h", "6d", "6c", "6s", "Ah"],
                                "the 32-card deck holds no 6h"),
}


@pytest.mark.parametrize("case", sorted(UNFITTING))
def test_cards_shown_for_a_deal_not_read_whole_must_fit_it(case: str) -> None:
    """FCD-9 (cards speak) and GEN-1: cards shown in place of cards the shoe did not read
    stand for the hand only if they hold every card it read, as many as it held, no card
    twice, none read at another seat, none foreign to the deck. Else the hand cannot be
    valued: rejected (critical), saying why. QA: they replaced the hand unchecked, and a
    switched card hidden by one unread card won the pot, ``ok``."""
    read, shown, why = UNFITTING[case]
    record = _unread(1, read, shown)
    assert record.status == "rejected"
    assert [(f.code, f.rule, f.severity, f.message) for f in record.findings] == [
        ("HAND_REJECTED", "FCD-9", "critical",
         "seat 1 reached the showdown but its cards are unknown (not read at the deal, the "
         f"cards it showed cannot stand for them: {why})")]


def test_cards_shown_that_fit_a_deal_not_read_whole_value_the_hand() -> None:
    """Seat 1's fifth card was not read; it shows the four read and a fifth: the flush
    (its dealt hand) wins 18 as in the clean hand, no finding."""
    record = _unread(1, ["Ah", "Kh", "9h", "8h", None], FLUSH)
    assert record.status == "ok" and record.findings == []
    assert record.expected is not None
    assert record.expected.net == {"1": 10, "2": -8, "3": -2, "house": 0}
