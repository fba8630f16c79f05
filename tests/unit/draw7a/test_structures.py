"""A whole hand in each structure, numbers computed by hand (FCD-2, FCD-5..9, FCD-11)."""

from services.games.draw7a import adjudicate as draw7a
from services.games.model import TraceStep
from services.simulator.handbuilder import build_hand
from tests.profiles import HOUSE
from tests.unit.draw7a.builder import adjudicated, codes, config, narrate, stand_pat

FLUSH = ["Ah", "Kh", "9h", "8h", "7h"]
FULL_HOUSE = ["Ac", "Ad", "As", "Kc", "Kd"]
TWO_PAIR = ["7c", "7d", "8c", "8d", "Tc"]


def test_fixed_limit_hand_with_cap_after_the_draw() -> None:
    """2-4 fixed limit, button 1, SB 2, BB 3, stacks 100.
    Before the draw: 1 raises to 4 (adds 4), 2 calls 3, 3 calls 2: 4 each, pot 12.
    Draw from the button's left: 2 pat, 3 swaps Tc for Td, 1 pat.
    After the draw (big bet 4): 2 bets 4, 3 raises to 8 (adds 8), 1 re-raises to 12 (adds
    12), 2 caps at 16 (adds 12; the fourth bet), 3 calls (adds 8), 1 calls (adds 4).
    Each put in 4 + 16 = 20: pot 60. Seat 1's flush beats seat 2's full house (FCD-10).
    Net: 1 = 60 - 20 = +40; 2 and 3 = -20. Seat 2 made the last raise: it shows first."""
    events = narrate(
        {1: 100, 2: 100, 3: 100}, 1, {1: FLUSH, 2: FULL_HOUSE, 3: TWO_PAIR},
        before=[(1, "raise", 4), (2, "call", 3), (3, "call", 2)],
        draws=[(2, [], []), (3, ["Tc"], ["Td"]), (1, [], [])],
        after=[(2, "bet", 4), (3, "raise", 8), (1, "raise", 12), (2, "raise", 12),
               (3, "call", 8), (1, "call", 4)],
        showdown=[(2, FULL_HOUSE), (3, ["7c", "7d", "8c", "8d", "Td"]), (1, FLUSH)],
        payouts=[(1, 60, "pot")])
    record = adjudicated(config("fixed", small_bet=2, big_bet=4), events)
    assert record.findings == []
    assert record.status == "ok"
    assert record.expected is not None
    assert record.expected.net == {"1": 40, "2": -20, "3": -20, "house": 0}


def test_pot_limit_hand_with_maximum_raises_and_players_rake() -> None:
    """Pot limit 1/2, button 1, SB 2, BB 3, seat 4 first; stacks 200; rake 'players' 1.
    FCD-8: the largest raise is the pot after the call. Seat 4: pot 3, call 2, pot after
    the call 5, so to 2 + 5 = 7. Seat 1: pot 1 + 2 + 7 = 10, call 7, pot after the call
    17, so to 7 + 17 = 24. 2 and 3 fold, 4 calls 17. Pot 1 + 2 + 24 + 24 = 51.
    After the draw 4 checks, 1 bets the pot 51, 4 calls. Put in: 1 and 4 -> 75, 2 -> 1,
    3 -> 2; pot 153, all to seat 1's flush. Rake 'players': every participant but the
    button (1) pays 1 from its own stack (GEN-10): seats 2, 3, 4. Net: 1 = 153 - 75 =
    +78, 4 = -75 - 1 = -76, 2 = -1 - 1 = -2, 3 = -2 - 1 = -3, house 3."""
    cards = {1: FLUSH, 4: FULL_HOUSE, 2: TWO_PAIR, 3: ["9c", "9d", "Tc", "Js", "Qd"]}
    cards[2] = ["7c", "7d", "8c", "8d", "Th"]
    events = narrate(
        {1: 200, 2: 200, 3: 200, 4: 200}, 1, cards,
        before=[(4, "raise", 7), (1, "raise", 24), (2, "fold", None), (3, "fold", None),
                (4, "call", 17)],
        draws=stand_pat(4, 1),
        after=[(4, "check", None), (1, "bet", 51), (4, "call", 51)],
        showdown=[(1, FLUSH), (4, FULL_HOUSE)],
        rake=[(2, 1), (3, 1), (4, 1)],
        payouts=[(1, 153, "pot")])
    record = adjudicated(config("pot", mode="players", fee=1), events)
    assert record.findings == []
    assert record.expected is not None
    assert record.expected.net == {"1": 78, "2": -2, "3": -3, "4": -76, "house": 3}
    assert record.expected.rake == {"2": 1, "3": 1, "4": 1}


def test_pot_limit_first_raise_to_seven_is_legal_eight_is_over() -> None:
    """FCD-8's example: blinds 1/2 with nothing else in, the first raise goes to at most
    2 + (1 + 2 + 2) = 7. The same hand with seat 4 raising to 8 instead (seat 1 then
    raising the pot to 8 + (1 + 2 + 8 + 8) = 27, seat 4 calling 19): OVER_POT, FCD-8, by 1,
    and nothing else."""
    cards = {1: FLUSH, 4: FULL_HOUSE, 2: ["7c", "7d", "8c", "8d", "Th"],
             3: ["9c", "9d", "Tc", "Js", "Qd"]}
    events = narrate(
        {1: 200, 2: 200, 3: 200, 4: 200}, 1, cards,
        before=[(4, "raise", 8), (1, "raise", 27), (2, "fold", None), (3, "fold", None),
                (4, "call", 19)],
        draws=stand_pat(4, 1),
        after=[(4, "check", None), (1, "check", None)],
        showdown=[(4, FULL_HOUSE), (1, FLUSH)],
        payouts=[(1, 57, "pot")])
    record = adjudicated(config("pot"), events)
    assert [(f.code, f.rule, f.amount) for f in record.findings] == [("OVER_POT", "FCD-8", 1)]


def test_no_limit_three_way_all_in_with_two_side_pots() -> None:
    """No limit 1/2, stacks 1: 20, 2: 50, 3: 80, 4: 200, button 4 (SB 1, BB 2, seat 3
    first). 3 all-in 80, 4 calls 80, 1 all-in 19 more, 2 all-in 48 more.
    Main pot 4 x 20 = 80 (all); side pot 1: 3 x 30 = 90 (2, 3, 4); side pot 2: 2 x 30 =
    60 (3, 4). Everybody draws pat; no betting is possible after the draw, so nobody bet
    in the final round: seat 1 (left of the button) shows first.
    Seat 1 four nines wins the main pot, seat 2 flush side pot 1, seat 4 full house beats
    seat 3's queen high for side pot 2. Net: 1 = +60, 2 = +40, 3 = -80, 4 = 60 - 80 = -20."""
    quads = ["9c", "9d", "9h", "9s", "7c"]
    flush = ["Ah", "Kh", "Qh", "Jh", "8h"]
    queen_high = ["7d", "8d", "Tc", "Js", "Qd"]
    events = narrate(
        {1: 20, 2: 50, 3: 80, 4: 200}, 4, {1: quads, 2: flush, 3: queen_high, 4: FULL_HOUSE},
        before=[(3, "all_in", 80), (4, "call", 80), (1, "all_in", 19), (2, "all_in", 48)],
        draws=stand_pat(1, 2, 3, 4),
        showdown=[(1, quads), (2, flush), (3, queen_high), (4, FULL_HOUSE)],
        payouts=[(1, 80, "pot"), (2, 90, "pot"), (4, 60, "pot")])
    record = adjudicated(config("no"), events)
    assert record.findings == []
    assert record.expected is not None
    assert record.expected.net == {"1": 60, "2": 40, "3": -80, "4": -20, "house": 0}


def test_wrong_side_pot_is_a_mispay() -> None:
    """Same hand, but the table gives the all-in seat 1 both side pots too (230) and
    nothing to 2 and 4: seat 1 overpaid by 150, seat 2 underpaid by 90, seat 4 by 60."""
    quads = ["9c", "9d", "9h", "9s", "7c"]
    flush = ["Ah", "Kh", "Qh", "Jh", "8h"]
    queen_high = ["7d", "8d", "Tc", "Js", "Qd"]
    events = narrate(
        {1: 20, 2: 50, 3: 80, 4: 200}, 4, {1: quads, 2: flush, 3: queen_high, 4: FULL_HOUSE},
        before=[(3, "all_in", 80), (4, "call", 80), (1, "all_in", 19), (2, "all_in", 48)],
        draws=stand_pat(1, 2, 3, 4),
        showdown=[(1, quads), (2, flush), (3, queen_high), (4, FULL_HOUSE)],
        payouts=[(1, 230, "pot")])
    record = adjudicated(config("no"), events)
    mispays = {f.seat: f.amount for f in record.findings if f.code == "MISPAY"}
    assert mispays == {1: 150, 2: -90, 4: -60}
    assert {f.rule for f in record.findings if f.code == "MISPAY"} == {"FCD-11"}


def test_split_pot_odd_chip_goes_left_of_button() -> None:
    """No limit 1/2, button 3 (SB 1, BB 2, seat 3 first), stacks 100, rake 'all' 1.
    3 calls 2, 1 folds its small blind, 2 raises to 6 (adds 4), 3 calls 4. Pot 1+6+6=13.
    Draw pat; after it 2 and 3 check. Seats 2 and 3 both hold A-K-Q-J-9 high: a split.
    13 = 2 x 6 + 1, the odd chip to the first winner left of the button (3): seat 2 gets
    7, seat 3 gets 6. Rake: participants 1, 2, 3 pay 1 each from their own stacks.
    Net: 2 = 7 - 6 - 1 = 0, 3 = 6 - 6 - 1 = -1, 1 = -1 - 1 = -2, house 3."""
    ace_high_2 = ["Ac", "Kd", "Qh", "Jc", "9s"]
    ace_high_3 = ["Ad", "Kc", "Qs", "Jd", "9h"]
    events = narrate(
        {1: 100, 2: 100, 3: 100}, 3, {1: TWO_PAIR, 2: ace_high_2, 3: ace_high_3},
        before=[(3, "call", 2), (1, "fold", None), (2, "raise", 4), (3, "call", 4)],
        draws=stand_pat(2, 3),
        after=[(2, "check", None), (3, "check", None)],
        showdown=[(2, ace_high_2), (3, ace_high_3)],
        rake=[(1, 1), (2, 1), (3, 1)],
        payouts=[(2, 7, "pot"), (3, 6, "pot")])
    record = adjudicated(config("no", mode="all", fee=1), events)
    assert record.findings == []
    assert record.expected is not None
    assert record.expected.net == {"1": -2, "2": 0, "3": -1, "house": 3}
    # The odd chip to the wrong winner is a mispay of one chip each way.
    wrong = [e for e in events if e[0] != "payout" or e[1]["seat"] != 2]
    wrong = [(t, ({**d, "amount": 7} if t == "payout" and d["seat"] == 3 else d))
             for t, d in wrong]
    wrong.insert(-1, ("payout", {"seat": 2, "amount": 6, "source": "pot", "kind": "pot"}))
    record = adjudicated(config("no", mode="all", fee=1), wrong)
    assert {(f.seat, f.amount) for f in record.findings if f.code == "MISPAY"} == {
        (2, -1), (3, 1)}


def test_uncalled_bet_returned_and_won_without_showing() -> None:
    """Heads-up, button 1 posts the small blind (FCD-3). 1 completes (1), 2 checks: 2
    each. After the draw 2 bets 10, 1 folds: the 10 is uncalled and returned (refund),
    seat 2 wins the pot of 4 without showing (FCD-9). Net: 2 = +2, 1 = -2."""
    events = narrate(
        {1: 100, 2: 100}, 1, {1: TWO_PAIR, 2: FLUSH},
        before=[(1, "call", 1), (2, "check", None)],
        draws=[(2, [], []), (1, ["Tc"], ["Td"])],
        after=[(2, "bet", 10), (1, "fold", None)],
        payouts=[(2, 10, "refund"), (2, 4, "pot")])
    record = adjudicated(config("no"), events)
    assert record.findings == []
    assert record.expected is not None
    assert record.expected.net == {"1": -2, "2": 2, "house": 0}
    outcome = draw7a.adjudicate(build_hand(config("no"), events), HOUSE)
    assert TraceStep("FCD-9", "seat 2's uncalled 10 returned", 2) in outcome.trace


def test_limit_cap_fifth_bet_is_a_finding() -> None:
    """2-4 fixed limit, button 1. The big blind is bet 1; 1 raises to 4 (bet 2), 2 to 6
    (bet 3, adds 5), 3 caps at 8 (bet 4, adds 6), 1 raises again to 10 (adds 6): a fifth
    bet (FCD-8). Taken as the table accepted it: 2 calls 4, 3 calls 2, 10 each, pot 30;
    checked down; the flush wins 30. The only finding is the cap."""
    events = narrate(
        {1: 100, 2: 100, 3: 100}, 1, {1: FLUSH, 2: FULL_HOUSE, 3: TWO_PAIR},
        before=[(1, "raise", 4), (2, "raise", 5), (3, "raise", 6), (1, "raise", 6),
                (2, "call", 4), (3, "call", 2)],
        draws=stand_pat(2, 3, 1),
        after=[(2, "check", None), (3, "check", None), (1, "check", None)],
        showdown=[(2, FULL_HOUSE), (3, TWO_PAIR), (1, FLUSH)],
        payouts=[(1, 30, "pot")])
    record = adjudicated(config("fixed", small_bet=2, big_bet=4), events)
    assert codes(record) == ["CAP_EXCEEDED"]
    assert record.findings[0].rule == "FCD-8" and record.findings[0].seat == 1
    assert record.expected is not None and record.expected.net["1"] == 20


def test_pot_limit_over_the_pot_is_a_finding() -> None:
    """Pot limit 1/2, button 1, seat 4 first: the maximum is to 2 + (1 + 2 + 2) = 7;
    seat 4 raises to 9: over the pot by 2 (FCD-8). Everyone folds: 7 of its 9 come back
    uncalled and it takes the pot of 5."""
    cards = {1: FLUSH, 2: FULL_HOUSE, 3: TWO_PAIR, 4: ["9c", "9d", "Ts", "Js", "Qd"]}
    events = narrate(
        {1: 200, 2: 200, 3: 200, 4: 200}, 1, cards,
        before=[(4, "raise", 9), (1, "fold", None), (2, "fold", None), (3, "fold", None)],
        payouts=[(4, 2, "pot"), (4, 7, "refund"), (4, 3, "pot")])
    record = adjudicated(config("pot"), events)
    assert codes(record) == ["OVER_POT"]
    assert (record.findings[0].rule, record.findings[0].amount) == ("FCD-8", 2)


def test_no_limit_short_all_in_does_not_reopen() -> None:
    """No limit 1/2, button 1, stacks 100, 100, 14; 2 each before the draw. After it: 2
    bets 10; 3 is all-in for 12 (a raise of 2, short of 10); 1 calls 12; seat 2, who acted
    before the short all-in, re-raises to 30 (adds 20): not allowed (FCD-8). The table
    took it: 1 folds, seat 3's 12 is called. Put in: 2 -> 2 + 30 = 32, 1 -> 14, 3 -> 14.
    Main pot 3 x 14 = 42 (1 folded: 2, 3 eligible); seat 2's 18 above 14 uncalled.
    Seat 3's flush wins 42: net 3 = +28, 2 = -14, 1 = -14."""
    events = narrate(
        {1: 100, 2: 100, 3: 14}, 1, {1: TWO_PAIR, 2: FULL_HOUSE, 3: FLUSH},
        before=[(1, "call", 2), (2, "call", 1), (3, "check", None)],
        draws=stand_pat(2, 3, 1),
        after=[(2, "bet", 10), (3, "all_in", 12), (1, "call", 12), (2, "raise", 20),
               (1, "fold", None)],
        showdown=[(2, FULL_HOUSE), (3, FLUSH)],
        payouts=[(2, 18, "refund"), (3, 42, "pot")])
    record = adjudicated(config("no"), events)
    assert codes(record) == ["NOT_REOPENED"]
    assert record.findings[0].rule == "FCD-8"
    assert record.expected is not None
    assert record.expected.net == {"1": -14, "2": -14, "3": 28, "house": 0}


def test_three_all_ins_split_side_pot_odd_chip_and_rake() -> None:
    """No limit 1/2, rake 'all' 1; button 1, SB 2, BB 3, seat 4 first. Stacks 1: 200,
    2: 15, 3: 40, 4: 41. Seat 4 all-in 41, seat 1 calls 41, seat 2 all-in 14 more (15),
    seat 3 all-in 38 more (40). Put in: 1 -> 41, 2 -> 15, 3 -> 40, 4 -> 41 = 137.
    Pots: main 4 x 15 = 60 (1, 2, 3, 4); side 1: 3 x 25 = 75 (1, 3, 4); side 2: 2 x 1 = 2
    (1, 4). Nobody uncalled. Only seat 1 has chips left: no betting after the draw; all
    stand pat. Hands: seat 2 flush (best: main pot 60); seats 3 and 4 the same king-high
    straight (tie for side pot 1 over seat 1's three aces: 75 = 37 + 38, the odd chip to
    the first winner left of button 1, seat 3: 3 gets 38, 4 gets 37); side pot 2 (1 and
    4): the straight beats three aces, 2 to seat 4. Rake: the four participants pay 1
    each from what they hold after the pots (seat 1 159, seat 2 60, seat 3 38, seat 4 39).
    Net: 1 = -41 - 1 = -42; 2 = 60 - 15 - 1 = +44; 3 = 38 - 40 - 1 = -3;
    4 = 37 + 2 - 41 - 1 = -3; house 4."""
    flush = ["Ah", "Kh", "9h", "8h", "7h"]
    straight_3 = ["Kc", "Qd", "Js", "Tc", "9d"]
    straight_4 = ["Kd", "Qc", "Jh", "Ts", "9c"]
    trips = ["Ac", "Ad", "As", "7c", "8d"]
    events = narrate(
        {1: 200, 2: 15, 3: 40, 4: 41}, 1, {1: trips, 2: flush, 3: straight_3, 4: straight_4},
        before=[(4, "all_in", 41), (1, "call", 41), (2, "all_in", 14), (3, "all_in", 38)],
        draws=stand_pat(2, 3, 4, 1),
        showdown=[(2, flush), (3, straight_3), (4, straight_4), (1, trips)],
        rake=[(1, 1), (2, 1), (3, 1), (4, 1)],
        payouts=[(2, 60, "pot"), (3, 38, "pot"), (4, 37, "pot"), (4, 2, "pot")])
    record = adjudicated(config("no", mode="all", fee=1), events)
    assert record.findings == []
    assert record.expected is not None
    assert record.expected.net == {"1": -42, "2": 44, "3": -3, "4": -3, "house": 4}
    assert record.expected.rake == {"1": 1, "2": 1, "3": 1, "4": 1}
