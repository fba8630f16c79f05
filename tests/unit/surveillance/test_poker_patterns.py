"""SURV-3 chip dumping and SURV-4 soft play (Hold'em): per-decider, per-situation null
models, against hand-computed hypergeometric tails.

Every hand here deals fixed hole cards, so each player's decisions fall in one stratum
and the stratified test is a single hypergeometric: of a player's ``N`` decisions in the
stratum, ``K`` were "yes" (fold, bet ...) and ``n`` were against the one opponent; the
p-value is a tail of Hyp(N, K, n).
"""

from __future__ import annotations

import math
from typing import Any

import pytest

from services.events.contract import Alert
from services.surveillance import SurveillanceEngine
from services.surveillance.poker_decisions import poker_decisions
from services.surveillance.profile import surveillance_config
from tests.profiles import HOUSE
from tests.unit.surveillance.scenario import hand

THREE = {1: "A", 2: "B", 3: "C"}
Event = tuple[str, dict[str, Any]]


def act(seat: int, action: str, amount: int | None = None) -> Event:
    data: dict[str, Any] = {"seat": seat, "action": action}
    if amount is not None:
        data["amount"] = amount
    return ("action", data)


def hole(cards: dict[int, tuple[str, str]]) -> list[Event]:
    return [("card_dealt", {"to": "seat", "seat": seat, "card": card, "face_up": False})
            for seat, pair in sorted(cards.items()) for card in pair]


def board(*cards: str) -> list[Event]:
    return [("card_dealt", {"to": "board", "card": c, "face_up": True}) for c in cards]


# A holds seven-deuce, B and C a pair of kings: A is behind whoever bets.
HOLES = hole({1: ("7c", "2d"), 2: ("Kh", "Kd"), 3: ("Ks", "Kc")})


def holdem(n: int, actions: list[Event], net: dict[int, int] | None = None,
           cards: list[Event] | None = None) -> tuple:  # type: ignore[type-arg]
    return hand(n, game="holdem", big_blind=10, players=THREE,
                events=[*(HOLES if cards is None else cards), *actions], net=net)


def run(rule: str, hands: list[tuple]) -> list[Alert]:  # type: ignore[type-arg]
    engine = SurveillanceEngine(surveillance_config(HOUSE))
    return [a for h, r in hands for a in engine.observe(h, r) if a.rule == rule]


def heavy_fold(n: int, bettor: int, folds: bool) -> tuple:  # type: ignore[type-arg]
    """A bets 100 (10 big blinds) pre-flop, ``bettor`` raises to 200; A, 100 in and
    behind, folds or calls. The other player folded first."""
    other = 3 if bettor == 2 else 2
    actions = [act(other, "fold"), act(1, "bet", 100), act(bettor, "raise", 200),
               act(1, "fold") if folds else act(1, "call", 100)]
    return holdem(n, actions, net={1: -100, bettor: 100} if folds else None)


def test_the_reader_sees_the_fold_decision() -> None:
    """A's fold: facing B's raise (to call 100 into a pot of 300, a share 1/4 of the pot
    after the call: price class 2), 100 in, behind B's kings."""
    h, _ = heavy_fold(1, 2, folds=True)
    decisions = poker_decisions(h.events, "holdem")
    fold = decisions[-1]
    assert (fold.seat, fold.action, fold.to_call, fold.invested, fold.pot, fold.bettor,
            fold.ahead, fold.price, fold.position) == (1, "fold", 100, 100, 300, 2, False,
                                                       2, "facing")
    assert decisions[1].aggressive and not decisions[1].facing


def test_folds_concentrated_on_one_bettor_against_the_same_spots() -> None:
    """A faces C's raise 30 times and calls 29 (folds once); then B's raise 12 times and
    folds every time, 10 big blinds each. One stratum: N = 42, K = 13 folds, n = 12
    against B, 12 of them folds: P(T >= 12) = C(13,12) C(29,0) / C(42,12)
    = 13 / 11,058,116,888 = 1.1756e-9. Looks (min_count 3, +50%: 3, 5, 8, 12) are taken
    once the folds total 60 big blinds (6 folds): at 8 folds, Hyp(38, 9, 8):
    9 / C(38,8) = 1.84e-7 > 6.755e-8 (look 2); at 12, 1.1756e-9 <= 3.800e-8 (look 3):
    alert on the 12th, fold and flow alike (flow holds the same decisions)."""
    hands = [heavy_fold(n, 3, folds=n == 1) for n in range(1, 31)]
    hands += [heavy_fold(30 + n, 2, folds=True) for n in range(1, 13)]
    alerts = run("SURV-3", hands)
    assert [(a.hand_id, a.evidence["method"]) for a in alerts if a.evidence] == [
        ("T1-000042", "fold"), ("T1-000042", "flow")]
    ev = alerts[0].evidence
    assert ev is not None
    assert (ev["from_player"], ev["to_player"], ev["count"], ev["chips"], ev["big_blinds"],
            ev["decisions"], ev["decisions_against_anyone"], ev["look"]) == (
        "A", "B", 12, 1200, 120, 12, 42, 3)
    assert ev["p_value"] == pytest.approx(13 / 11_058_116_888, rel=1e-9)
    assert ev["threshold"] == pytest.approx(3.7995e-8, rel=1e-4)
    assert ev["net_chip_flow"] == 1200
    assert alerts[0].subject == "pair:A,B"
    assert alerts[0].parties == ["pair:A,B", "player:A", "player:B"]
    assert alerts[1].related_alerts == [alerts[0].alert_id]
    assert alerts[0].alert_id == "SURV-3/from_player=A/to_player=B/method=fold/count=12"


def capped_fold(n: int, bettor: int, folds: bool, structure: str) -> tuple:  # type: ignore[type-arg]
    """As ``heavy_fold`` with 4 big blinds in, not 10: A bets 40, ``bettor`` raises to
    80; A folds or calls (40 to call into 120: a share 1/4 of the pot after the call,
    price class 2)."""
    other = 3 if bettor == 2 else 2
    actions = [act(other, "fold"), act(1, "bet", 40), act(bettor, "raise", 80),
               act(1, "fold") if folds else act(1, "call", 40)]
    return hand(n, game="holdem", big_blind=10, players=THREE, structure=structure,
                events=[*HOLES, *actions], net={1: -40, bettor: 40} if folds else None)


@pytest.mark.parametrize("structure", ["fixed", "no"])
def test_at_fixed_limit_a_capped_round_in_is_heavy(structure: str) -> None:
    """Fixed limit caps a hand (Draw 7-A: 12 big blinds in all), so its heavy fold is 4
    big blinds in (``min_fold_investment_big_blinds_fixed_limit``), not 10. A faces C's
    raise 30 times with 4 big blinds in and folds once, then B's 15 times and folds
    every time. One stratum: N = 45, K = 16, n = 15, all folds. The folds to B reach 60
    big blinds at the 15th (15 x 4); the look due then is grid point 12 (look 3,
    threshold 3.7995e-8): P(T >= 15) = C(16,15) C(29,0) / C(45,15) = 16 /
    344,867,425,584 = 4.6395e-11: alert on hand 45. At a no-limit table 4 big blinds in
    is not heavy: no fold decision, no alert."""
    hands = [capped_fold(n, 3, n == 1, structure) for n in range(1, 31)]
    hands += [capped_fold(30 + n, 2, True, structure) for n in range(1, 16)]
    alerts = run("SURV-3", hands)
    if structure == "no":
        assert alerts == []
        return
    assert [(a.hand_id, a.evidence["method"]) for a in alerts if a.evidence] == [
        ("T1-000045", "fold"), ("T1-000045", "flow")]
    ev = alerts[0].evidence
    assert ev is not None
    assert (ev["count"], ev["chips"], ev["big_blinds"], ev["decisions"],
            ev["decisions_against_anyone"], ev["look"]) == (15, 600, 60, 15, 45, 3)
    assert ev["p_value"] == pytest.approx(16 / math.comb(45, 15), rel=1e-9)
    assert 16 / math.comb(45, 15) == pytest.approx(4.6395e-11, rel=1e-4)
    assert ev["min_fold_investment_big_blinds_fixed_limit"] == 4


def deep_fold_ahead(n: int) -> tuple:  # type: ignore[type-arg]
    """A (seven-deuce) bets 200 (20 big blinds) pre-flop, B (six-trey: A is ahead)
    raises to 400; A folds with 200 in: a call of 200 into 800, price class 2, as in
    ``heavy_fold``. C folded first."""
    actions = [act(3, "fold"), act(1, "bet", 200), act(2, "raise", 400), act(1, "fold")]
    cards = hole({1: ("7c", "2d"), 2: ("6c", "3d"), 3: ("Ks", "Kc")})
    return holdem(n, actions, net={1: -200, 2: 200}, cards=cards)


def test_a_dumper_folding_deeper_and_ahead_is_compared_with_its_own_folds() -> None:
    """As the test above, but A's 12 folds to B come after 20 big blinds in (not 10) and
    while ahead of B (six-trey), which A cannot see. Street, hand class (weak) and price
    (2) are those of its 30 decisions against C, so all 42 are one stratum: the same
    P(T >= 12) = 13 / C(42, 12) = 1.1756e-9 and the alert on the 42nd hand. (Strata by
    chips in and by "ahead" put B's 12 folds in a stratum of their own, N = n = K = 12,
    p = 1: a dumper's own folds hid it.)"""
    hands = [heavy_fold(n, 3, folds=n == 1) for n in range(1, 31)]
    hands += [deep_fold_ahead(30 + n) for n in range(1, 13)]
    alerts = run("SURV-3", hands)
    assert [(a.hand_id, a.evidence["method"]) for a in alerts if a.evidence] == [
        ("T1-000042", "fold"), ("T1-000042", "flow")]
    ev = alerts[0].evidence
    assert ev is not None
    assert (ev["count"], ev["chips"], ev["big_blinds"], ev["strata"]) == (12, 2400, 240, 1)
    assert ev["p_value"] == pytest.approx(13 / 11_058_116_888, rel=1e-9)


def test_folding_to_an_aggressive_player_as_to_anyone_is_no_evidence() -> None:
    """B raises three times as often as C: A faces B 30 times and C 10 times, and folds
    half of each (15 and 5). Counted as transfers, A's folds go to B three times out of
    four; against the same spots, 15 of 20 folds on 30 of 40 decisions is exactly the
    hypergeometric mean: P(T >= 15 | Hyp(40, 20, 30)) = 0.6."""
    hands = [heavy_fold(n, 2, folds=n % 2 == 0) for n in range(1, 31)]
    hands += [heavy_fold(30 + n, 3, folds=n % 2 == 0) for n in range(1, 11)]
    assert run("SURV-3", hands) == []


def river(n: int, bettor: int, calls: bool) -> tuple:  # type: ignore[type-arg]
    """Heads-up on the river (the third player folded), a board of 3s 5h 9d Jc Qs: A's
    seven-deuce is beaten by the bettor's kings; the bettor bets 100 into an empty pot,
    A calls or folds."""
    other = 3 if bettor == 2 else 2
    actions = [act(other, "fold"), *board("3s", "5h", "9d", "Jc", "Qs"),
               act(1, "check"), act(bettor, "bet", 100),
               act(1, "call", 100) if calls else act(1, "fold")]
    return holdem(n, actions)


def test_paying_off_one_player_with_a_beaten_hand() -> None:
    """On the river A, beaten, folds to C's bet 20 times and calls once; it calls B's bet
    8 times of 8 (100 chips, 10 big blinds each). One stratum (river, facing, high card,
    price class 3: 100 of 100): N = 29, K = 9 calls, n = 8, all calls:
    P(T >= 8) = C(9,8) / C(29,8) = 9 / 4,292,145 = 2.097e-6 at look 2 (grid 3, 5, 8):
    above 6.755e-8, no alert. Four more (12 of 12): C(13,12) / C(33,12)
    = 13 / 354,817,320 = 3.664e-8 <= 3.800e-8 (look 3): alert."""
    hands = [river(n, 3, calls=n == 1) for n in range(1, 22)]
    hands += [river(21 + n, 2, calls=True) for n in range(1, 13)]
    alerts = [a for a in run("SURV-3", hands) if a.evidence
              and a.evidence["method"] == "showdown"]
    assert [a.hand_id for a in alerts] == ["T1-000033"]
    ev = alerts[0].evidence
    assert ev is not None
    assert (ev["from_player"], ev["to_player"], ev["count"], ev["chips"]) == ("A", "B", 12,
                                                                             1200)
    assert ev["p_value"] == pytest.approx(13 / 354_817_320, rel=1e-9)
    # The showdown method counts turn calls too: the message says "late", not "last".
    assert alerts[0].message.startswith(
        "player A paid off a beaten hand late in the hand (the turn or river; at Draw 7-A, "
        "after the draw) to B 12 times (1200 chips, 120 big blinds)")


def cheap_river_call(n: int) -> tuple:  # type: ignore[type-arg]
    """A bets 100 pre-flop and B calls (C folds); on the river (the board of ``river``)
    A checks, B bets 10 into 200 and A, beaten by B's kings, calls: 10 of the 220 after
    the call, price class 0."""
    actions = [act(3, "fold"), act(1, "bet", 100), act(2, "call", 100),
               *board("3s", "5h", "9d", "Jc", "Qs"), act(1, "check"), act(2, "bet", 10),
               act(1, "call", 10)]
    return holdem(n, actions)


def test_cheap_calls_with_a_beaten_hand_are_no_showdown_evidence() -> None:
    """30 hands of cheap river calls to B (right for anyone at that price), then the
    hands of the test above: the showdown test counts only dear calls, so it alerts as
    there, on the 12th dear call (hand 63), count 12, p = 13 / C(33, 12). (Counted, the
    cheap calls made the count 42 and the look later.)"""
    hands = [cheap_river_call(n) for n in range(1, 31)]
    hands += [river(30 + n, 3, calls=n == 1) for n in range(1, 22)]
    hands += [river(51 + n, 2, calls=True) for n in range(1, 13)]
    alerts = [a for a in run("SURV-3", hands) if a.evidence
              and a.evidence["method"] == "showdown"]
    assert [a.hand_id for a in alerts] == ["T1-000063"]
    ev = alerts[0].evidence
    assert ev is not None
    assert (ev["count"], ev["chips"], ev["decisions"]) == (12, 1200, 12)
    assert ev["p_value"] == pytest.approx(13 / 354_817_320, rel=1e-9)


# --------------------------------------------------------------- SURV-4 soft play

SEVENS = hole({1: ("7c", "2d"), 2: ("7h", "2s"), 3: ("7d", "2c")})  # all "weak"


def soft_hand(n: int, actions: list[Event]) -> tuple:  # type: ignore[type-arg]
    return holdem(n, actions, cards=SEVENS)


def baseline() -> list[tuple]:  # type: ignore[type-arg]
    """20 hands A vs C (B folds): A, first to act, bets in 10 and checks in 10. 20 hands
    C vs B (A folds): C checks, B (checked to) bets in 10 and checks in 10."""
    out = [soft_hand(n, [act(2, "fold"), act(1, "bet", 10) if n % 2 else act(1, "check"),
                         act(3, "call", 10) if n % 2 else act(3, "check")])
           for n in range(1, 21)]
    out += [soft_hand(n, [act(1, "fold"), act(3, "check"),
                          act(2, "bet", 10) if n % 2 else act(2, "check"),
                          act(3, "call", 10) if n % 2 else act(3, "check")])
            for n in range(21, 41)]
    return out


def test_soft_play_pair_never_bets_at_each_other() -> None:
    """Then A vs B heads-up (C folds): A first checks, B checked to checks, every hand.
    A's stratum (pre-flop, first to act, weak): N = 20 + m decisions, K = 10 bets, m
    against B, none a bet: P = C(10+m, m) / C(20+m, m); B's (checked to) the same. The
    pair has 2m decisions; looks at 30, 45 (min_decisions 30, +50%). m = 15 (30
    decisions): (C(25,15) / C(35,15))^2 = (1.00641e-3)^2 = 1.0129e-6 > 6.079e-7. m = 23
    (46): (C(33,23) / C(43,23))^2 = (9.63608e-5)^2 = 9.2854e-9 <= 1.520e-7: alert on the
    23rd such hand."""
    soft = [soft_hand(40 + m, [act(3, "fold"), act(1, "check"), act(2, "check")])
            for m in range(1, 26)]
    alerts = run("SURV-4", baseline() + soft)
    assert [a.hand_id for a in alerts] == ["T1-000063"]
    ev = alerts[0].evidence
    assert ev is not None
    assert (ev["players"], ev["decisions"], ev["aggressive"], ev["decisions_against_others"],
            ev["aggressive_against_others"], ev["strata"], ev["look"]) == (
        ["A", "B"], 46, 0, 40, 20, 2, 1)
    assert ev["p_value"] == pytest.approx(9.2854e-9, rel=1e-4)
    assert ev["expected"] == pytest.approx(2 * 23 * 10 / 43)
    assert alerts[0].subject == "pair:A,B"


def test_pair_playing_as_they_play_others_does_not_alert() -> None:
    """A and B heads-up bet as often as against C (half the time): no evidence."""
    normal = [soft_hand(40 + m, [act(3, "fold"),
                                 act(1, "bet", 10) if m % 2 else act(1, "check"),
                                 act(2, "call", 10) if m % 2 else act(2, "check")])
              for m in range(1, 41)]
    assert run("SURV-4", baseline() + normal) == []


def test_a_passive_player_facing_an_aggressive_one_is_no_soft_play() -> None:
    """The failure the per-decider null fixes. B is a maniac: heads-up against C it bets
    first every time. A is passive and checks first every time, against B and C alike.
    Pooled (the old test), A and B bet 20 times in 40 decisions against C but 0 times
    in 60 against each other; per decider, A checks first against B as it does against
    C (K = 0 bets in its stratum: T is 0 whatever happens) and B is never first to act
    against A: nothing to compare, no alert."""
    hands = [soft_hand(n, [act(2, "fold"), act(1, "check"), act(3, "check")])
             for n in range(1, 21)]
    hands += [soft_hand(n, [act(1, "fold"), act(2, "bet", 10), act(3, "call", 10)])
              for n in range(21, 41)]
    hands += [soft_hand(n, [act(3, "fold"), act(1, "check"), act(2, "check")])
              for n in range(41, 71)]
    assert run("SURV-4", hands) == []


def test_opening_against_the_blinds_and_defending_against_a_raise_are_apart() -> None:
    """QA: fixed seats. B opens from the small blind against C half the time (raises to
    30 facing C's big blind, else completes), and from the big blind only calls A's
    raises, as honest players open wider than they defend. One stratum "facing" held
    both: 0 raises in 60 decisions against A beside 20 in 40 against C read as soft play
    (an alert before this change, checked). Now B's two spots are two
    strata, each with one opponent: nothing to compare, no alert."""
    hands = [soft_hand(n, [act(1, "fold"), act(2, "post_small_blind", 5),
                           act(3, "post_big_blind", 10),
                           act(2, "raise", 25) if n % 2 else act(2, "call", 5),
                           act(3, "call", 20) if n % 2 else act(3, "check")])
             for n in range(1, 41)]
    hands += [soft_hand(n, [act(1, "post_small_blind", 5), act(2, "post_big_blind", 10),
                            act(3, "fold"), act(1, "raise", 35), act(2, "call", 30)])
              for n in range(41, 101)]
    assert run("SURV-4", hands) == []


def test_calling_an_all_in_is_no_choice_not_to_raise() -> None:
    """QA: B raises C's bet half the time; against A it only ever faces A's all-in of its
    whole stack, where no raise is possible, and calls. Those calls counted as "did not
    raise": 0 in 80 against A beside 20 in 40 against C, soft play (an alert before this
    change, checked). Decisions without a
    possible bet or raise are now left out of SURV-4: no alert."""
    hands = [soft_hand(n, [act(1, "fold"), act(3, "bet", 10),
                           act(2, "raise", 30) if n % 2 else act(2, "call", 10),
                           act(3, "call", 20) if n % 2 else act(3, "check")])
             for n in range(1, 41)]
    hands += [soft_hand(n, [act(3, "fold"), act(1, "all_in", 10_000), act(2, "call", 10_000)])
              for n in range(41, 121)]
    assert run("SURV-4", hands) == []


def test_not_a_poker_game() -> None:
    """The same heavy folds at an HCF table: no betting decisions are read there."""
    hands = [hand(n, game="hcf", big_blind=10, players=THREE,
                  events=[*HOLES, act(1, "bet", 100), act(2, "raise", 200), act(1, "fold")],
                  net={1: -100, 2: 100}) for n in range(1, 20)]
    assert run("SURV-3", hands) == []
