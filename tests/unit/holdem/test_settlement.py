"""TH-9 settlement: side pots, split pots and the odd chip, uncalled bets, rake (GEN-10),
antes and blinds (TH-1), structures, and the comparison with what the table paid."""

from __future__ import annotations

from services.events.contract import AdjudicationRecord
from services.games.betting import OwedPost
from services.games.holdem.betting import HoldemBetting, betting_config
from services.games.holdem.profile import SECTION, HoldemProfile
from services.simulator.handbuilder import build_hand
from tests.profiles import HOUSE
from tests.unit.holdem import scenario as s
from tests.unit.holdem.builder import (
    Part,
    acts,
    adjudicate,
    blinds,
    codes,
    config,
    deal,
    payout,
    rake,
    show,
    street,
)

BOARD = ("Qs", "Jd", "4c", "9h", "3s")
STRAIGHT = ("5c", "6d", "7h", "8s", "9c")


def runout(board: tuple[str, ...] = BOARD) -> list[Part]:
    return [street(*board[:3]), street(board[3]), street(board[4])]


def test_side_pot() -> None:
    """Stacks 20 / 50 / 100, button 3 (blinds 1 and 2 by seats 1 and 2). Seat 3 raises to
    50; seat 1 all-in for 19 more (20); seat 2 all-in for 48 more (50).
    Main pot 3 x 20 = 60 (seats 1, 2, 3): aces (seat 1). Side pot 2 x 30 = 60 (seats 2,
    3): kings (seat 2). Nets: seat 1 60 - 20 = +40, seat 2 60 - 50 = +10, seat 3 -50."""
    stacks = {1: 20, 2: 50, 3: 100}
    record = adjudicate(stacks, 3, blinds(1, 2), deal(s.CARDS, 3),
                        acts((3, "raise", 50), (1, "all_in", 19), (2, "all_in", 48)), *runout(),
                        show(1, s.CARDS[1]), show(2, s.CARDS[2]), show(3, s.CARDS[3]),
                        payout(1, 60), payout(2, 60))
    assert record.status == "ok", record.findings
    assert record.expected is not None
    assert record.expected.net == {"1": 40, "2": 10, "3": -50, "house": 0}


def test_side_pot_paid_all_to_the_best_hand_is_a_mispay() -> None:
    """Same hand, the table gave all 120 to seat 1: seat 1 +60 over, seat 2 -60 under."""
    stacks = {1: 20, 2: 50, 3: 100}
    record = adjudicate(stacks, 3, blinds(1, 2), deal(s.CARDS, 3),
                        acts((3, "raise", 50), (1, "all_in", 19), (2, "all_in", 48)), *runout(),
                        show(1, s.CARDS[1]), show(2, s.CARDS[2]), show(3, s.CARDS[3]),
                        payout(1, 120))
    mispays = sorted((f.seat, f.amount, f.rule) for f in record.findings if f.code == "MISPAY")
    assert mispays == [(1, 60, "TH-9"), (2, -60, "TH-9")]


def odd_pot(*payouts: Part) -> list[Part]:
    """Seat 3 raises to 5, seat 1 folds its small blind (1), seat 2 calls 3 more: pot
    5 + 5 + 1 = 11. Board 5c 6d 7h 8s 9c: seat 2 (Kc Kd) and seat 3 (Kh Ks) both play the
    straight. 11 / 2 = 5 each and one odd chip, to the first winner left of the button
    (button 3: seat 1 folded, so seat 2): seat 2 gets 6 (+1), seat 3 5 (0), seat 1 -1."""
    cards = {1: ["As", "Ad"], 2: ["Kc", "Kd"], 3: ["Kh", "Ks"]}
    return [blinds(1, 2), deal(cards, 3), acts((3, "raise", 5), (1, "fold"), (2, "call", 3)),
            street(*STRAIGHT[:3]), acts((2, "check"), (3, "check")), street(STRAIGHT[3]),
            acts((2, "check"), (3, "check")), street(STRAIGHT[4]),
            acts((2, "check"), (3, "check")), show(3, cards[3]), show(2, cards[2]), *payouts]


def test_split_pot_odd_chip_to_the_first_winner_left_of_the_button() -> None:
    record = adjudicate(s.STACKS, 3, *odd_pot(payout(2, 6), payout(3, 5)))
    assert record.status == "ok", record.findings
    assert record.expected is not None
    assert record.expected.net == {"1": -1, "2": 1, "3": 0, "house": 0}


def test_odd_chip_to_the_wrong_player() -> None:
    record = adjudicate(s.STACKS, 3, *odd_pot(payout(2, 5), payout(3, 6)))
    mispays = sorted((f.seat, f.amount, f.rule) for f in record.findings if f.code == "MISPAY")
    assert mispays == [(2, -1, "TH-9"), (3, 1, "TH-9")]


def test_uncalled_bet_is_returned() -> None:
    """Reference hand to the river; seat 2 bets 6, seat 1 folds. Seat 2 gets its 6 back
    and wins the pot of 8: +4, seat 1 -4."""
    record = adjudicate(s.STACKS, s.BUTTON, blinds(1, 2), deal(s.CARDS, s.BUTTON),
                        *s.preflop(), street(*s.FLOP), *s.flop_betting(), street(s.TURN),
                        *s.checks(), street(s.RIVER), acts((1, "check"), (2, "bet", 6),
                                                           (1, "fold")),
                        payout(2, 6, "refund"), payout(2, 8))
    assert record.status == "ok", record.findings
    assert record.expected is not None
    assert record.expected.net == {"1": -4, "2": 4, "3": 0, "house": 0}


def test_rake_from_every_participant() -> None:
    """GEN-10 mode all, fee 1: seats 1 and 2 put chips in (seat 3 folded without any).
    Seat 1 wins the whole pot of 8 (the fees do not touch it), then each participant pays
    1 from its own stack: seat 1 8 - 4 - 1 = +3, seat 2 -4 - 1 = -5, house +2."""
    cfg = config(mode="all", fee=1)
    record = adjudicate(s.STACKS, s.BUTTON, blinds(1, 2), deal(s.CARDS, s.BUTTON),
                        *s.preflop(), street(*s.FLOP), *s.flop_betting(), street(s.TURN),
                        *s.checks(), street(s.RIVER), *s.checks(), show(1, s.CARDS[1]),
                        show(2, s.CARDS[2]), payout(1, 8), rake(1, 1), rake(2, 1), cfg=cfg)
    assert record.status == "ok", record.findings
    assert record.expected is not None
    assert record.expected.net == {"1": 3, "2": -5, "3": 0, "house": 2}
    assert record.expected.rake == {"1": 1, "2": 1}


def test_rake_players_mode_spares_the_button() -> None:
    """Mode players, fee 1: seat 3 (the button) calls 2 and folds on the flop, so all
    three are participants; only seats 1 and 2 pay, from their own stacks. Pot 2 + 2 + 2
    (pre-flop) + 2 + 2 (flop) = 10, all to seat 1: seat 1 10 - 4 - 1 = +5, seat 2
    -4 - 1 = -5, seat 3 (the button, no fee) -2, house 2."""
    cfg = config(mode="players", fee=1)
    record = adjudicate(s.STACKS, s.BUTTON, blinds(1, 2), deal(s.CARDS, s.BUTTON),
                        acts((3, "call", 2), (1, "call", 1), (2, "check")), street(*s.FLOP),
                        acts((1, "check"), (2, "bet", 2), (3, "fold"), (1, "call", 2)),
                        street(s.TURN), *s.checks(), street(s.RIVER), *s.checks(),
                        show(1, s.CARDS[1]), show(2, s.CARDS[2]), payout(1, 10),
                        rake(1, 1), rake(2, 1), cfg=cfg)
    assert record.status == "ok", record.findings
    assert record.expected is not None
    assert record.expected.net == {"1": 5, "2": -5, "3": -2, "house": 2}


def test_rake_not_taken_is_reported() -> None:
    cfg = config(mode="all", fee=1)
    record = adjudicate(s.STACKS, s.BUTTON, *s.reference_hand(), cfg=cfg)
    assert ("RAKE_UNDER", "GEN-10") in codes(record)


def test_antes_from_every_player() -> None:
    """Ante 1 from each of the three, then the reference hand: pot 3 + 8 = 11 to seat 1.
    Seat 1 put in 5: +6; seat 2 -5; seat 3 -1."""
    cfg = config(ante=1)
    antes = acts((1, "post_ante", 1), (2, "post_ante", 1), (3, "post_ante", 1))
    record = adjudicate(s.STACKS, s.BUTTON, antes, blinds(1, 2), deal(s.CARDS, s.BUTTON),
                        *s.preflop(), street(*s.FLOP), *s.flop_betting(), street(s.TURN),
                        *s.checks(), street(s.RIVER), *s.checks(), show(1, s.CARDS[1]),
                        show(2, s.CARDS[2]), payout(1, 11), cfg=cfg)
    assert record.status == "ok", record.findings
    assert record.expected is not None
    assert record.expected.net == {"1": 6, "2": -5, "3": -1, "house": 0}


def test_antes_without_blinds() -> None:
    """Antes only (1 each, minimum bet 2): the first player left of the button (seat 1)
    acts first. Seat 1 bets 2, seats 2 and 3 fold: seat 1 gets its 2 back and the 3
    antes: +2; seats 2 and 3 -1."""
    cfg = config(ante=1)
    cfg["limits"] = {"min_wager": 2, "max_wager": 100, "ante": 1}
    antes = acts((1, "post_ante", 1), (2, "post_ante", 1), (3, "post_ante", 1))
    record = adjudicate(s.STACKS, s.BUTTON, antes, deal(s.CARDS, s.BUTTON),
                        acts((1, "bet", 2), (2, "fold"), (3, "fold")), payout(1, 2, "refund"),
                        payout(1, 3), cfg=cfg)
    assert record.status == "ok", record.findings
    assert record.expected is not None
    assert record.expected.net == {"1": 2, "2": -1, "3": -1, "house": 0}


def test_missing_big_blind() -> None:
    record = adjudicate(s.STACKS, s.BUTTON, acts((1, "post_small_blind", 1)),
                        deal(s.CARDS, s.BUTTON), acts((3, "fold"), (1, "fold")),
                        payout(2, 1))
    assert ("BLIND_MISSING", "TH-1") in codes(record)


def test_no_limit_raise_below_the_minimum() -> None:
    """No limit, big blind 2: seat 3 raises to 3 (adds 3 from nothing; minimum is 4)."""
    record = adjudicate(s.STACKS, s.BUTTON, blinds(1, 2), deal(s.CARDS, s.BUTTON),
                        acts((3, "raise", 3), (1, "fold"), (2, "fold")),
                        payout(3, 1, "refund"), payout(3, 5))
    assert ("UNDER_MINIMUM", "TH-1") in codes(record)


def test_pot_limit_raise_above_the_pot() -> None:
    """Pot limit, blinds 1/2 (pot 3). FCD-8 (via TH-1): seat 3 calls 2 (pot 5) and may
    raise by the pot after the call, to at most 2 + 5 = 7; it raises to 10: OVER_POT
    (TH-1), by 3."""
    cfg = config("pot")
    record = adjudicate(s.STACKS, s.BUTTON, blinds(1, 2), deal(s.CARDS, s.BUTTON),
                        acts((3, "raise", 10), (1, "fold"), (2, "fold")),
                        payout(3, 8, "refund"), payout(3, 5), cfg=cfg)
    assert [(f.code, f.rule, f.amount) for f in record.findings
            if f.code == "OVER_POT"] == [("OVER_POT", "TH-1", 3)]


def test_pot_limit_raise_to_seven_is_within_the_limit() -> None:
    """The issue's example (#20): blinds 1/2 with nothing else in, the first raise goes to
    at most 2 + (1 + 2 + 2) = 7. Seat 3 raises to 7, both blinds fold: 5 of its 7 come
    back uncalled, it wins the pot of 1 + 2 + 2 = 5: +3, seat 1 -1, seat 2 -2, ok."""
    record = adjudicate(s.STACKS, s.BUTTON, blinds(1, 2), deal(s.CARDS, s.BUTTON),
                        acts((3, "raise", 7), (1, "fold"), (2, "fold")),
                        payout(3, 5, "refund"), payout(3, 5), cfg=config("pot"))
    assert record.status == "ok", record.findings
    assert record.expected is not None
    assert record.expected.net == {"1": -1, "2": -2, "3": 3, "house": 0}


def test_shown_cards_are_not_the_cards_dealt() -> None:
    record = adjudicate(s.STACKS, s.BUTTON, blinds(1, 2), deal(s.CARDS, s.BUTTON),
                        *s.preflop(), street(*s.FLOP), *s.flop_betting(), street(s.TURN),
                        *s.checks(), street(s.RIVER), *s.checks(), show(1, ["As", "Ah"]),
                        show(2, s.CARDS[2]), payout(1, 8))
    assert codes(record) == [("SHOWN_CARDS_MISMATCH", "TH-9")]


def test_pot_paid_to_the_loser() -> None:
    record = adjudicate(s.STACKS, s.BUTTON, blinds(1, 2), deal(s.CARDS, s.BUTTON),
                        *s.preflop(), street(*s.FLOP), *s.flop_betting(), street(s.TURN),
                        *s.checks(), street(s.RIVER), *s.checks(), show(1, s.CARDS[1]),
                        show(2, s.CARDS[2]), payout(2, 8))
    mispays = sorted((f.seat, f.amount, f.rule) for f in record.findings if f.code == "MISPAY")
    assert mispays == [(1, -8, "TH-9"), (2, 8, "TH-9")]


def test_unread_cards_shown_at_the_showdown_are_used() -> None:
    """Hole cards not read at the deal (card null): the cards shown are the hand."""
    unread = {1: [None, None], 2: [None, None], 3: [None, None]}
    record = adjudicate(s.STACKS, s.BUTTON, blinds(1, 2), deal(unread, s.BUTTON),
                        *s.preflop(), street(*s.FLOP), *s.flop_betting(), street(s.TURN),
                        *s.checks(), street(s.RIVER), *s.checks(), *s.ending())
    assert record.status == "ok", record.findings


def unknown_showdown(*ending: Part, cfg: dict[str, object] | None = None) -> AdjudicationRecord:
    """The reference hand with no card read at the deal and none shown: seats 1 and 2
    (4 chips each in the pot of 8) reach the showdown, nobody can say who won."""
    unread = {1: [None, None], 2: [None, None], 3: [None, None]}
    return adjudicate(s.STACKS, s.BUTTON, blinds(1, 2), deal(unread, s.BUTTON),
                      *s.preflop(), street(*s.FLOP), *s.flop_betting(), street(s.TURN),
                      *s.checks(), street(s.RIVER), *s.checks(), *ending, cfg=cfg)


def test_showdown_with_unknown_cards_cannot_be_verified() -> None:
    """Issue #21: not rejected, not a critical finding: its own non-critical status. The
    actions were legal and the 8 chips all went back out: ``unverified``, one info finding
    (TH-9), no expected side, the recorded side as the table moved it."""
    record = unknown_showdown(payout(1, 8))
    assert record.status == "unverified"
    assert [(f.code, f.rule, f.severity) for f in record.findings] == [
        ("SHOWDOWN_UNKNOWN", "TH-9", "info")]
    assert "cannot verify who won" in record.findings[0].message
    assert record.expected is None
    assert record.recorded is not None
    assert record.recorded.net == {"1": 4, "2": -4, "3": 0, "house": 0}


def test_unknown_showdown_still_checks_the_chips_and_the_rake() -> None:
    """The same hand, but only 7 of the 8 chips paid: POT_NOT_EMPTY (GEN-8) makes it a
    discrepancy. Under mode ``all`` fee 1, seats 1 and 2 each owe 1 whoever won; a table
    that took no rake is RAKE_UNDER for both."""
    assert unknown_showdown(payout(1, 7)).status == "discrepancy"
    assert "POT_NOT_EMPTY" in [f.code for f in unknown_showdown(payout(1, 7)).findings]
    record = unknown_showdown(payout(1, 8), cfg=config(mode="all", fee=1))
    assert record.status == "discrepancy"
    rake_findings = sorted((f.code, f.seat, f.amount) for f in record.findings
                           if f.code != "SHOWDOWN_UNKNOWN")
    assert rake_findings == [("RAKE_UNDER", 1, -1), ("RAKE_UNDER", 2, -1)]
    raked = unknown_showdown(payout(1, 8), rake(1, 1), rake(2, 1),
                             cfg=config(mode="all", fee=1))
    assert raked.status == "unverified", raked.findings


def profile() -> HoldemProfile:
    return HOUSE.section(SECTION, HoldemProfile)


def test_big_blind_ante_is_owed_by_the_big_blind() -> None:
    """A big-blind ante of 3 at blinds 1/2 (seats 1, 2, 3, button 3): the big blind
    (seat 2) owes the ante 3 and its blind 2; the small blind (seat 1) owes 1."""
    hand = build_hand(config(), [])
    assert hand.table.config is not None
    engine = HoldemBetting(betting_config(hand.table.config, profile()),
                           {1: 100, 2: 100, 3: 100}, 3, big_blind_ante=3)
    assert engine.owed_posts() == [OwedPost("post_ante", 2, 3),
                                   OwedPost("post_small_blind", 1, 1),
                                   OwedPost("post_big_blind", 2, 2)]


def test_big_blind_ante_comes_before_a_short_big_blind() -> None:
    """The big blind has 4 chips: ante 3 first, then only 1 left for the blind."""
    hand = build_hand(config(), [])
    assert hand.table.config is not None
    engine = HoldemBetting(betting_config(hand.table.config, profile()),
                           {1: 100, 2: 4, 3: 100}, 3, big_blind_ante=3)
    assert engine.owed_posts()[0] == OwedPost("post_ante", 2, 3)
    assert engine.owed_posts()[-1] == OwedPost("post_big_blind", 2, 1)


def test_three_way_split_with_two_odd_chips_and_rake_from_the_stacks() -> None:
    """Four players, 100 each, button 4 (small blind seat 1, big blind seat 2), rake mode
    all, fee 2. Pre-flop seat 3 raises to 5, seat 4 calls 5, seat 1 calls 4 more, seat 2
    calls 3 more: 20. Flop: 1, 2, 3 check, 4 bets 2, 1 folds, 2 and 3 call: pot 26.
    Board 5c 6d 7h 8s 9c: seats 2 (Kc Kd), 3 (Qh Qs) and 4 (Jh Js) all play the
    nine-high straight: 26 / 3 = 8 each, 2 odd chips, one each clockwise from the
    button's left among the winners: seat 2 then seat 3. Shares 9 / 9 / 8. Then every
    participant (1, 2, 3, 4) pays 2 from its own stack (GEN-10).
    Nets: seat 1 -5 - 2 = -7, seat 2 9 - 7 - 2 = 0, seat 3 0, seat 4 8 - 7 - 2 = -1,
    house +8."""
    stacks = {1: 100, 2: 100, 3: 100, 4: 100}
    cards = {1: ["As", "Ad"], 2: ["Kc", "Kd"], 3: ["Qh", "Qs"], 4: ["Jh", "Js"]}
    checks3 = acts((2, "check"), (3, "check"), (4, "check"))
    record = adjudicate(stacks, 4, blinds(1, 2), deal(cards, 4),
                        acts((3, "raise", 5), (4, "call", 5), (1, "call", 4), (2, "call", 3)),
                        street(*STRAIGHT[:3]),
                        acts((1, "check"), (2, "check"), (3, "check"), (4, "bet", 2),
                             (1, "fold"), (2, "call", 2), (3, "call", 2)),
                        street(STRAIGHT[3]), checks3,
                        street(STRAIGHT[4]), checks3, show(2, cards[2]), show(3, cards[3]),
                        show(4, cards[4]), payout(2, 9), payout(3, 9), payout(4, 8),
                        rake(1, 2), rake(2, 2), rake(3, 2), rake(4, 2),
                        cfg=config(mode="all", fee=2))
    assert record.status == "ok", record.findings
    assert record.expected is not None
    assert record.expected.net == {"1": -7, "2": 0, "3": 0, "4": -1, "house": 8}


def test_side_pot_split_between_tied_hands() -> None:
    """Stacks 20 / 51 / 100, button 3. Seat 3 raises to 51, seat 1 all-in 19 more (20),
    seat 2 all-in 49 more (51). Main pot 3 x 20 = 60 (seats 1, 2, 3): seat 1's aces. Side
    pot 2 x 31 = 62 (seats 2, 3): Kc Kd and Kh Ks tie, 31 each, no odd chip.
    Board Qs Jd 4c 9h 3s. Nets: seat 1 +40, seat 2 31 - 51 = -20, seat 3 -20.
    Paying the side pot 32 / 30 instead is a MISPAY of +1 / -1."""
    stacks = {1: 20, 2: 51, 3: 100}
    cards = {1: ["As", "Ad"], 2: ["Kc", "Kd"], 3: ["Kh", "Ks"]}
    parts = [blinds(1, 2), deal(cards, 3),
             acts((3, "raise", 51), (1, "all_in", 19), (2, "all_in", 49)), *runout(),
             show(1, cards[1]), show(2, cards[2]), show(3, cards[3]), payout(1, 60)]
    record = adjudicate(stacks, 3, *parts, payout(2, 31), payout(3, 31))
    assert record.status == "ok", record.findings
    assert record.expected is not None
    assert record.expected.net == {"1": 40, "2": -20, "3": -20, "house": 0}
    wrong = adjudicate(stacks, 3, *parts, payout(2, 32), payout(3, 30))
    mispays = sorted((f.seat, f.amount, f.rule) for f in wrong.findings if f.code == "MISPAY")
    assert mispays == [(2, 1, "TH-9"), (3, -1, "TH-9")]


def heads_up_players_mode(*ending: Part) -> AdjudicationRecord:
    """Heads-up no limit 1/2, rake mode players fee 1, stacks 100. Button seat 1 posts
    the small blind (TH-1), seat 2 the big blind. Pre-flop seat 1 raises to 6 (adds 5),
    seat 2 calls 4. Flop: seat 2 checks, seat 1 bets 6, seat 2 folds: seat 1's 6 is
    uncalled and comes back; the pot of 12 is seat 1's."""
    cards = {1: ["As", "Ad"], 2: ["Kc", "Kd"]}
    return adjudicate({1: 100, 2: 100}, 1, blinds(1, 2), deal(cards, 1),
                      acts((1, "raise", 5), (2, "call", 4)), street(*BOARD[:3]),
                      acts((2, "check"), (1, "bet", 6), (2, "fold")), *ending,
                      cfg=config(mode="players", fee=1))


def test_heads_up_players_mode_the_button_pays_no_fee_and_the_pot_is_not_touched() -> None:
    """GEN-10 (issue #20): "the DP" is the player on the button, so in ``players`` mode
    the button (seat 1) pays nothing; seat 2 pays its fee of 1 from its own stack and the
    winner never bears it. Seat 1: 6 back, the pot of 12 won: 18 - 12 = +6. Seat 2: -6
    in the pot, -1 fee = -7. House 1; 6 - 7 + 1 = 0."""
    record = heads_up_players_mode(payout(1, 6, "refund"), payout(1, 12), rake(2, 1))
    assert record.status == "ok", record.findings
    assert record.expected is not None
    assert record.expected.net == {"1": 6, "2": -7, "house": 1}
    assert record.expected.rake == {"2": 1}


def test_heads_up_fee_taken_out_of_the_pot_charges_the_winner() -> None:
    """The same hand as a table that takes seat 2's fee out of the pot: seat 1 is paid 11
    instead of 12 (recorded +5 before rake, GEN-10 gives +6: underpaid by 1), and seat 2
    keeps the chip its fee should have cost it (recorded -6 + 1 booked rake = -5 before
    rake against -6: overpaid by 1). Seat 2's rake itself is right (1 due, 1 booked)."""
    record = heads_up_players_mode(payout(1, 6, "refund"), rake(2, 1, "pot"), payout(1, 11))
    mispays = sorted((f.seat, f.amount) for f in record.findings if f.code == "MISPAY")
    assert mispays == [(1, -1), (2, 1)]
    assert not [f for f in record.findings if f.code.startswith("RAKE_")]
