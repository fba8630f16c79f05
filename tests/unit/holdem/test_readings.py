"""Every **Reading** of TH is a profile field: each one, toggled the other way, changes the
outcome as the docs say (house-v1 values are covered by the other test files).

The game module is called directly with a copy of house-v1 whose ``holdem`` section has
one field changed, so the test shows the field (not a constant in code) decides.
"""

from __future__ import annotations

from typing import Any

import pytest

from services.games.holdem import adjudicate as holdem
from services.games.model import GameOutcome, HandRejected
from services.games.profile import Profiles, RuleProfile
from tests.profiles import HOUSE, PROFILES
from tests.unit.holdem import scenario as s
from tests.unit.holdem.builder import (
    Part,
    acts,
    adjudicate,
    blinds,
    card,
    codes,
    config,
    deal,
    exposed,
    hand_input,
    payout,
    show,
    street,
)
from tests.unit.native.rules_support import both_engines, house_with


def toggled(**fields: Any) -> RuleProfile:
    base = HOUSE
    sections = {name: dict(body) for name, body in base.sections.items()}
    sections["holdem"].update(fields)
    return RuleProfile(name="house-v1-toggled", sections=sections)


def outcome(*parts: Any, prof: RuleProfile, stacks: dict[int, int] | None = None,
            cfg: dict[str, Any] | None = None) -> GameOutcome:
    hand = hand_input(stacks or s.STACKS, s.BUTTON, *parts, cfg=cfg)
    return holdem.adjudicate(hand, prof)


def hole(seat: int) -> list[str]:
    """The reference hole cards of a seat (all read at the deal)."""
    return [c for c in s.CARDS[seat] if c is not None]


def finding_codes(result: GameOutcome) -> list[tuple[str, str]]:
    return [(f.code, f.rule) for f in result.findings]


def played_out(*deal_part: Any) -> list[Any]:
    """The reference hand from the pre-flop betting on (aces win 8)."""
    return [blinds(1, 2), *deal_part, *s.preflop(), street(*s.FLOP), *s.flop_betting(),
            street(s.TURN), *s.checks(), street(s.RIVER), *s.checks(), *s.ending()]


def test_undeclared_misdeal_settled_dead() -> None:
    """undeclared_misdeal_settlement = "dead": the first card (As) was exposed and the hand
    played on; it is settled as the misdeal it should have been: every net 0 (GEN-6),
    where house-v1 ("as_played") gives +4 / -4 / 0."""
    parts = played_out(deal(s.CARDS, s.BUTTON, face_up=["As"]))
    dead = outcome(*parts, prof=toggled(undeclared_misdeal_settlement="dead"))
    assert dead.dead
    assert dead.net == {1: 0, 2: 0, 3: 0}
    assert ("MISDEAL_REQUIRED", "TH-3") in finding_codes(dead)
    played = outcome(*parts, prof=HOUSE)
    assert not played.dead
    assert played.net == {1: 4, 2: -4, 3: 0}


def test_deal_phase_ends_at_the_last_hole_card() -> None:
    """Kc (seat 2) reported exposed by the dealer after the last hole card, before anyone
    acted, and seat 2 kept it. house-v1 (deal until the first action): a TH-3 exposure
    not replaced. deal_phase_ends = "last_hole_card": outside the deal, no TH-3 finding."""
    parts = played_out(deal(s.CARDS, s.BUTTON), exposed(2, "Kc"))
    assert ("EXPOSED_CARD_NOT_REPLACED", "TH-3") in finding_codes(
        outcome(*parts, prof=HOUSE))
    assert finding_codes(outcome(*parts, prof=toggled(deal_phase_ends="last_hole_card"))) == []


def test_irregular_hand_can_win_when_not_dead() -> None:
    """Seat 2 keeps an extra card Ks after the deal (Kc Kd Ks) and the board is Qs Jd 4c
    9h 3s. house-v1 (irregular_hand_dead): three hole cards cannot win, seat 1's aces take
    the 8 (+4 / -4). irregular_hand_dead = false: seat 2's best five is three kings, which
    beats aces: seat 2 +4, seat 1 -4."""
    parts = [blinds(1, 2), deal(s.CARDS, s.BUTTON), card(2, "Ks"), *s.preflop(),
             street(*s.FLOP), *s.flop_betting(), street(s.TURN), *s.checks(),
             street(s.RIVER), *s.checks(), show(1, hole(1)),
             show(2, ["Kc", "Kd", "Ks"]), payout(2, 8)]
    assert outcome(*parts, prof=HOUSE).net == {1: 4, 2: -4, 3: 0}
    assert outcome(*parts, prof=toggled(irregular_hand_dead=False)).net == {1: -4, 2: 4, 3: 0}


def test_unshown_contender_has_no_claim() -> None:
    """Seat 1 (aces) never shows nor mucks; seat 2 shows kings. house-v1 (cards_speak):
    the aces read at the deal win (+4 / -4). unshown_contender = "no_claim": seat 2 wins
    (seat 1 -4, seat 2 +4)."""
    parts = [blinds(1, 2), deal(s.CARDS, s.BUTTON), *s.preflop(), street(*s.FLOP),
             *s.flop_betting(), street(s.TURN), *s.checks(), street(s.RIVER), *s.checks(),
             show(2, hole(2)), payout(2, 8)]
    assert outcome(*parts, prof=HOUSE).net == {1: 4, 2: -4, 3: 0}
    assert outcome(*parts, prof=toggled(unshown_contender="no_claim")).net == {
        1: -4, 2: 4, 3: 0}


def test_unfinished_board_rejected() -> None:
    """Seats 1 and 2 still in after the turn and no river: house-v1 ("split") shows the
    pot of 8 split 4 / 4 (nets 0) with BOARD_CARD_COUNT; "reject" rejects the hand."""
    parts = [blinds(1, 2), deal(s.CARDS, s.BUTTON), *s.preflop(), street(*s.FLOP),
             *s.flop_betting(), street(s.TURN), *s.checks(), show(1, hole(1)),
             show(2, hole(2)), payout(1, 8)]
    split = outcome(*parts, prof=HOUSE)
    assert split.net == {1: 0, 2: 0, 3: 0}
    assert ("BOARD_CARD_COUNT", "TH-1") in finding_codes(split)
    with pytest.raises(HandRejected) as rejected:
        outcome(*parts, prof=toggled(unfinished_board_pot="reject"))
    assert rejected.value.rule == "TH-1"


def test_big_blind_ante_is_dead_money_when_the_big_blind_is_all_in() -> None:
    """Big-blind ante 3, blinds 1/2, button 3. Seat 2 (big blind) has 5: ante 3, blind 2,
    all-in. Seat 3 calls 2, seat 1 completes 1; the flop, turn and river are checked down
    by seats 1 and 3. Live chips 2 + 2 + 2 = 6, plus the dead ante 3: one pot of 9 for
    seats 1, 2, 3; aces (seat 1) win it: seat 1 9 - 2 = +7, seat 2 -5, seat 3 -2. (Were
    the ante a live contribution, seat 2's 3 above the others would come back to it as
    an uncalled bet and seat 2 would lose only 2.)"""
    cfg = config(big_blind_ante=3)
    record = adjudicate({1: 100, 2: 5, 3: 100}, 3, acts((2, "post_ante", 3)), blinds(1, 2),
                        deal(s.CARDS, 3), acts((3, "call", 2), (1, "call", 1)),
                        street(*s.FLOP), acts((1, "check"), (3, "check")), street(s.TURN),
                        acts((1, "check"), (3, "check")), street(s.RIVER),
                        acts((1, "check"), (3, "check")), show(1, hole(1)),
                        show(2, hole(2)), show(3, hole(3)), payout(1, 9), cfg=cfg)
    assert record.status == "ok", record.findings
    assert record.expected is not None
    assert record.expected.net == {"1": 7, "2": -5, "3": -2, "house": 0}
    assert codes(record) == []


def test_rake_from_the_pot_instead_of_the_stacks() -> None:
    """GEN-10 ``[rake] fee_from``, mode ``all``, fee 1. The reference hand: seats 1 and 2
    put in 4 each (seat 3 folds with nothing in, not a participant); the aces win the pot
    of 8. "stack" (house-v1): seat 1 wins all 8 (+4) and pays 1 from its stack: +3; seat
    2 -4 - 1 = -5; house 2; 3 - 5 + 2 = 0. "pot": 8 - 2 = 6 to seat 1: +2, seat 2 -4, the
    rake 1 + 1 booked to them."""
    cfg = config(mode="all", fee=1)
    from_stack = outcome(*played_out(deal(s.CARDS, s.BUTTON)), prof=HOUSE, cfg=cfg)
    assert (from_stack.net, from_stack.rake, from_stack.house) == ({1: 3, 2: -5, 3: 0},
                                                                   {1: 1, 2: 1}, 2)
    pot_rake = {**HOUSE.sections["holdem"]["rake"], "fee_from": "pot"}
    from_pot = outcome(*played_out(deal(s.CARDS, s.BUTTON)), prof=toggled(rake=pot_rake),
                       cfg=cfg)
    assert (from_pot.net, from_pot.rake, from_pot.house) == ({1: 2, 2: -4, 3: 0},
                                                             {1: 1, 2: 1}, 2)


# ------------------------------------------------------------ all-in on the ante alone (QA)

ACES_AT_2 = {1: ["Kc", "Kd"], 2: ["As", "Ad"], 3: ["7h", "2c"]}  # the reference board


def test_a_big_blind_all_in_on_its_big_blind_ante_can_win_the_dead_money() -> None:
    """Big-blind ante 2, blinds 1/2, button 3; the big blind (seat 2) has exactly 2: it
    posts the ante and is all-in, no chip left for the blind (so none is owed: no
    BLIND_MISSING). Seat 3 calls 2, seat 1 completes 1; checked down; seat 2's aces beat
    seat 1's kings and seat 3's 7-2. By hand: the dead 2 is the main pot, every contender
    eligible: seat 2 wins it, 0; the live 2 + 2 = 4 goes to seat 1's kings, +2; seat 3 -2.
    (It was left out of every pot: -2, and the table's right payout was a MISPAY.)
    Both engines."""
    hand = hand_input({1: 100, 2: 2, 3: 100}, 3, acts((1, "post_small_blind", 1),
                                                        (2, "post_ante", 2)),
                      deal(ACES_AT_2, 3), acts((3, "call", 2), (1, "call", 1)),
                      street(*s.FLOP), acts((1, "check"), (3, "check")), street(s.TURN),
                      acts((1, "check"), (3, "check")), street(s.RIVER),
                      acts((1, "check"), (3, "check")), show(1, ACES_AT_2[1]),
                      show(2, ACES_AT_2[2]), show(3, ACES_AT_2[3]), payout(2, 2),
                      payout(1, 4), cfg=config(big_blind_ante=2))
    record = both_engines(hand, PROFILES)
    assert record.status == "ok", record.findings
    assert record.expected is not None
    assert record.expected.net == {"1": 2, "2": 0, "3": -2, "house": 0}


def test_a_short_ante_all_in_is_eligible_for_the_dead_antes() -> None:
    """Ante 2, blinds 1/2, button 3; seat 3 has 1 chip and posts it as its ante (all-in,
    aces); seats 1 (kings) and 2 (7-2) post 2 each, the blinds, and check down after seat
    1 completes. house-v1 (antes live): main pot 1 x 3 = 3 to seat 3, +2; side pot 6 to
    seat 1, +2; seat 2 -4. ``antes_dead_money = true``: the antes, 5, are the main pot,
    every contender eligible: seat 3 +4; the live 4 to seat 1, 0; seat 2 -4. (Seat 3 was
    in no pot: -1.) Both engines."""
    cards = {1: ["Kc", "Kd"], 2: ["7h", "2c"], 3: ["As", "Ad"]}
    parts: list[Part] = [acts((1, "post_ante", 2), (2, "post_ante", 2), (3, "post_ante", 1)),
             blinds(1, 2), deal(cards, 3), acts((1, "call", 1), (2, "check")),
             street(*s.FLOP), acts((1, "check"), (2, "check")), street(s.TURN),
             acts((1, "check"), (2, "check")), street(s.RIVER), acts((1, "check"), (2, "check")),
             show(1, cards[1]), show(2, cards[2]), show(3, cards[3])]
    live = hand_input({1: 100, 2: 100, 3: 1}, 3, *parts, payout(3, 3), payout(1, 6),
                      cfg=config(ante=2))
    record = both_engines(live, PROFILES)
    assert record.status == "ok", record.findings
    assert record.expected is not None
    assert record.expected.net == {"1": 2, "2": -4, "3": 2, "house": 0}
    dead = hand_input({1: 100, 2: 100, 3: 1}, 3, *parts, payout(3, 5), payout(1, 4),
                      cfg=config(ante=2))
    record = both_engines(dead, Profiles({HOUSE.name: house_with(
        "holdem", {"antes_dead_money": True})}))
    assert record.status == "ok", record.findings
    assert record.expected is not None
    assert record.expected.net == {"1": 0, "2": -4, "3": 4, "house": 0}
