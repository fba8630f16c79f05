"""SURV-5 information sharing on two more Russian Poker decisions, with the same
stratified exact test as play/fold: insurance (RP-4) against the dealer not qualifying,
and buying the dealer's game (RP-6) against "buying won"."""

from __future__ import annotations

import math
import random
from typing import Any

import msgspec
import orjson
import pytest

from services.events.contract import DealerReplacedCardEvent
from services.simulator.run import simulate
from services.surveillance import SurveillanceEngine, surveil_lines
from services.surveillance.profile import surveillance_config
from services.surveillance.russian_decisions import buying_chances, russian_decisions
from services.surveillance.stratified import Stratum, stratified_upper_tail
from tests.profiles import HOUSE, PROFILES
from tests.unit.surveillance.scenario import hand

Spec = list[tuple[str, dict[str, Any]]]

TRIPS_K = ["Kc", "Kd", "Kh", "5c", "8d"]  # three kings: may insure (RP-4)
PAIR = ["Kc", "Kd", "2h", "5c", "8d"]  # one pair: may not
QUALIFIES_9 = ["As", "Ad", "4c", "7h", "9s"]  # a pair of aces, 9s up
NOT_9 = ["2s", "4d", "6c", "Th", "9s"]  # ten-high, 9s up: does not qualify

TRIPS_7 = ["7c", "7d", "7h", "2s", "9d"]  # A at the buying table
AK = ["Ac", "Kc", "9c", "8s", "3d"]  # B: Ace-King, always buys
DEALER_Q = ["2h", "4d", "6c", "Th", "Qs"]  # queen-high, does not qualify; Qs up
PAIRS_4 = "4s"  # replacement for the queen: a pair of fours, qualifies, loses to trips
MISSES = "3c"  # replacement: 2-3-4-6-T, still does not qualify


def dealt(seat: int, cards: list[str]) -> Spec:
    return [("card_dealt", {"to": "seat", "seat": seat, "card": c, "face_up": False})
            for c in cards]


def dealer(cards: list[str]) -> Spec:
    return [("card_dealt", {"to": "dealer", "card": c, "face_up": i == 4})
            for i, c in enumerate(cards)]


def insurance_hand(n: int, box: list[str], dealer_cards: list[str], insures: bool) -> tuple:  # type: ignore[type-arg]
    events = [*dealt(1, box), *dealer(dealer_cards), ("action", {"seat": 1, "action": "play"})]
    if insures:
        events.append(("wager", {"seat": 1, "kind": "insurance", "amount": 10}))
    return hand(n, game="russian", players={1: "A"}, events=events)


def buying_hand(n: int, received: str, a_buys: bool) -> tuple:  # type: ignore[type-arg]
    events = [*dealt(1, TRIPS_7), *dealt(2, AK), *dealer(DEALER_Q),
              ("action", {"seat": 1, "action": "play"}),
              ("action", {"seat": 2, "action": "play"}),
              ("action", {"seat": 1,
                          "action": "buy_dealer_game" if a_buys else "decline_dealer_game"}),
              ("action", {"seat": 2, "action": "buy_dealer_game"}),
              ("dealer_replaced_card", {"removed": "Qs", "received": received, "burned": []})]
    return hand(n, game="russian", players={1: "A", 2: "B"}, events=events)


def surv5(hands: list[tuple], decision: str) -> list:  # type: ignore[type-arg]
    engine = SurveillanceEngine(surveillance_config(HOUSE))
    for hand_input, record in hands:
        engine.observe(hand_input, record)
    return [a for a in engine.review()
            if a.rule == "SURV-5" and a.evidence is not None
            and a.evidence["decision"] == decision]


def upper_tail_by_counting(n: int, chosen: int, outcomes: int, t: int) -> float:
    """One stratum, counted with integers (independent of the lgamma code)."""
    top = min(chosen, outcomes)
    return sum(math.comb(outcomes, x) * math.comb(n - outcomes, chosen - x)
               for x in range(t, top + 1)) / math.comb(n, chosen)


# ---------------------------------------------------------------- insurance (RP-4)


def test_insurance_only_for_playing_boxes_of_trips_or_better() -> None:
    """A pair of kings may not insure (RP-4), so it is no insurance decision; three kings
    that play are one, in stratum (9, three_of_a_kind), outcome "dealer did not qualify";
    a folded box is none."""
    kinds = {d.kind: d for d in russian_decisions(insurance_hand(1, TRIPS_K, NOT_9, True)[0]
                                                  .events)}
    assert kinds["insurance"].chose and kinds["insurance"].outcome
    assert kinds["insurance"].stratum == ("9", "three_of_a_kind")
    pair = russian_decisions(insurance_hand(2, PAIR, NOT_9, True)[0].events)
    assert [d.kind for d in pair] == ["play_fold"]
    folded = hand(3, game="russian", players={1: "A"}, events=[
        *dealt(1, TRIPS_K), *dealer(QUALIFIES_9), ("action", {"seat": 1, "action": "fold"})])
    assert [d.kind for d in russian_decisions(folded[0].events)] == ["play_fold"]


def test_insuring_exactly_when_the_dealer_fails() -> None:
    """30 hands, three kings against a 9 up: one stratum. The dealer fails to qualify in
    hands 1..15 and A insures in exactly those. n = 30, c = o = t = 15:
    P(T >= 15) = 1 / C(30,15) = 1 / 155,117,520 = 6.45e-9 <= 1e-6; E[T] = 15*15/30 = 7.5."""
    hands = [insurance_hand(n, TRIPS_K, NOT_9 if n <= 15 else QUALIFIES_9, insures=n <= 15)
             for n in range(1, 31)]
    alerts = surv5(hands, "insurance")
    assert len(alerts) == 1
    ev = alerts[0].evidence
    assert ev is not None
    assert (ev["player"], ev["decisions"], ev["insured"], ev["dealer_did_not_qualify"],
            ev["insured_when_dealer_did_not_qualify"], ev["not_insured_when_dealer_qualified"],
            ev["strata"], ev["min_decisions"]) == ("A", 30, 15, 15, 15, 15, 1, 30)
    assert ev["expected"] == pytest.approx(7.5)
    assert ev["p_value"] == pytest.approx(1 / 155_117_520, rel=1e-6)
    assert (alerts[0].code, alerts[0].rule, alerts[0].severity) == (
        "INFORMATION_SHARING", "SURV-5", "critical")
    assert len(ev["hands"]) == 30  # every decision matched the hidden cards


def test_below_the_minimum_count_no_alert() -> None:
    """The same perfect pattern over 29 hands (dealer fails in 1..14, A insures in those):
    P = 1 / C(29,14) = 1 / 77,558,760 = 1.3e-8, but 29 < min_decisions 30."""
    hands = [insurance_hand(n, TRIPS_K, NOT_9 if n <= 14 else QUALIFIES_9, insures=n <= 14)
             for n in range(1, 30)]
    assert surv5(hands, "insurance") == []


def test_random_insurance_does_not_alert() -> None:
    """80 hands, seed 2024: the dealer qualifies and A insures each with probability 1/2,
    independently. One stratum; the tail is recounted with integer binomials (not the
    code's lgamma) and is far above 1e-6; no alert."""
    rng = random.Random(2024)
    plan = [(rng.random() < 0.5, rng.random() < 0.5) for _ in range(80)]
    hands = [insurance_hand(n, TRIPS_K, QUALIFIES_9 if q else NOT_9, insures=i)
             for n, (q, i) in enumerate(plan, start=1)]
    chosen = sum(i for _, i in plan)
    fails = sum(not q for q, _ in plan)
    t = sum(i and not q for q, i in plan)
    p = upper_tail_by_counting(80, chosen, fails, t)
    assert p > 1e-3
    cell = Stratum(decisions=80, chosen=chosen, outcomes=fails, matched=t)
    assert stratified_upper_tail([cell], t)[0] == pytest.approx(p)
    assert surv5(hands, "insurance") == []


def test_insuring_by_own_hand_is_not_information_sharing() -> None:
    """A insures every four of a kind and never three of a kind; the dealer fails against
    every four of a kind (the test scenario arranges it). Unstratified that is 15 of 15,
    but the box's own line is visible: within each stratum the decisions are all the same,
    T is fixed, P = 1."""
    quads = ["Kc", "Kd", "Kh", "Ks", "8d"]
    hands = [insurance_hand(n, quads if n <= 15 else TRIPS_K,
                            NOT_9 if n <= 15 else QUALIFIES_9, insures=n <= 15)
             for n in range(1, 31)]
    assert surv5(hands, "insurance") == []


# ---------------------------------------------------------------- buying (RP-6)


def test_buying_chance_counted_by_hand() -> None:
    """A holds 7c 7d 7h 2s 9d; the dealer 2h 4d 6c Th Qs replaces his queen. A has not
    seen 52 - 5 - 5 = 42 cards. Qc Qd Qh are burned (same rank, no combination with
    2 4 6 T): m = 39. The dealer qualifies only by pairing: 2c 2d, 4c 4h 4s, 6d 6h 6s,
    Tc Td Ts = 11 cards (no four to a straight or flush, no king with an ace), and each
    pair loses to three sevens: w = 11."""
    assert buying_chances(TRIPS_7, DEALER_Q, TRIPS_7) == (11, 39)
    decisions = russian_decisions(buying_hand(1, PAIRS_4, True)[0].events)
    buys = {d.seat: d for d in decisions if d.kind == "buy_dealer_game"}
    assert buys[1].stratum == ("three_of_a_kind", "11/39")
    assert buys[1].chose and buys[1].outcome
    assert buys[2].chose and not buys[2].outcome  # A-K high loses to a pair of fours


def test_declining_is_scored_against_the_card_another_box_bought() -> None:
    """A declines, B buys, the dealer draws 3c: no qualification, so buying lost for A
    (outcome False). With no replacement at all (nobody bought) there is no outcome and
    no buying decision is counted."""
    decisions = russian_decisions(buying_hand(1, MISSES, False)[0].events)
    a = next(d for d in decisions if d.kind == "buy_dealer_game" and d.seat == 1)
    assert (a.chose, a.outcome) == (False, False)
    hand_input, _ = buying_hand(2, MISSES, False)
    no_replacement = [e for e in hand_input.events
                      if not isinstance(e, DealerReplacedCardEvent)]
    assert [d for d in russian_decisions(no_replacement) if d.kind == "buy_dealer_game"] == []


def test_buying_exactly_when_the_replacement_wins() -> None:
    """30 hands, same cards: A's stratum (three_of_a_kind, 11/39) every time. The dealer
    draws 4s (buying wins) in hands 1..15 and 3c otherwise; A buys in exactly hands
    1..15, B always buys. A: n = 30, c = o = t = 15, P = 1 / C(30,15) = 6.45e-9 <= 1e-6.
    B: c = 30, T is fixed, P = 1."""
    hands = [buying_hand(n, PAIRS_4 if n <= 15 else MISSES, a_buys=n <= 15)
             for n in range(1, 31)]
    alerts = surv5(hands, "buy_dealer_game")
    assert [a.evidence["player"] for a in alerts if a.evidence] == ["A"]
    ev = alerts[0].evidence
    assert ev is not None
    assert (ev["decisions"], ev["bought"], ev["buying_won"], ev["bought_when_buying_won"],
            ev["declined_when_buying_lost"], ev["strata"]) == (30, 15, 15, 15, 15, 1)
    assert ev["p_value"] == pytest.approx(1 / 155_117_520, rel=1e-6)


def test_random_buying_does_not_alert() -> None:
    """80 hands, seed 7: the replacement wins with probability 1/2 and A buys with
    probability 1/2, independently; the integer-binomial tail is far above 1e-6."""
    rng = random.Random(7)
    plan = [(rng.random() < 0.5, rng.random() < 0.5) for _ in range(80)]
    hands = [buying_hand(n, PAIRS_4 if w else MISSES, a_buys=b)
             for n, (w, b) in enumerate(plan, start=1)]
    t = sum(w and b for w, b in plan)
    p = upper_tail_by_counting(80, sum(b for _, b in plan), sum(w for w, _ in plan), t)
    assert p > 1e-3
    assert surv5(hands, "buy_dealer_game") == []


# ---------------------------------------------------------------- determinism, ids


def test_same_hands_same_alerts_in_any_order() -> None:
    """The test reads counts only: the hands in reverse order give the same p-values and
    counts (the hand the alert is raised on is the latest matching one, so it differs);
    the same order twice gives identical alerts."""
    hands = [buying_hand(n, PAIRS_4 if n <= 15 else MISSES, a_buys=n <= 15)
             for n in range(1, 31)]
    hands += [insurance_hand(100 + n, TRIPS_K, NOT_9 if n <= 15 else QUALIFIES_9,
                             insures=n <= 15) for n in range(1, 31)]

    def alerts(order: list[tuple]) -> list:  # type: ignore[type-arg]
        engine = SurveillanceEngine(surveillance_config(HOUSE))
        for hand_input, record in order:
            engine.observe(hand_input, record)
        return [a for a in engine.review() if a.rule == "SURV-5"]

    first, again, reverse = alerts(hands), alerts(hands), alerts(hands[::-1])
    assert msgspec.json.encode(first) == msgspec.json.encode(again)
    assert [a.evidence["decision"] for a in first if a.evidence] == [
        "insurance", "buy_dealer_game"]

    def counts(found: list) -> list:  # type: ignore[type-arg]
        return [{k: v for k, v in a.evidence.items() if k not in ("hands", "tables")}
                for a in found]

    assert counts(first) == counts(reverse)


# ---------------------------------------------------------------- simulated tables


def test_simulated_russian_tables_raise_no_surv5() -> None:
    """Four clean Russian tables x 500 hands: the simulator's boxes insure some
    trips-or-better hands at random and buy the dealer's game with two pair or better at
    random (services/simulator/russian.py), never looking at hidden cards. Every player
    reaches the minimum count of some decision kind, yet no SURV-5 alert."""
    log = simulate(["russian"], 4, 500, seed=11, profile=HOUSE)
    config = surveillance_config(HOUSE)
    engine = SurveillanceEngine(config)
    run = surveil_lines(((orjson.dumps(e), f"line {i}") for i, e in enumerate(log.events)),
                        config, PROFILES, engine)
    assert run.hands_surveilled == 2000
    assert [a for a in run.alerts if a.rule == "SURV-5"] == []
    tested = {kind: 0 for kind in ("play_fold", "insurance", "buy_dealer_game")}
    for (_, kind), record in engine.collusion.records.items():
        n = sum(cell.decisions for cell in record.strata.values())
        tested[kind] += n >= engine.collusion.thresholds(kind).min_decisions
    assert tested["insurance"] >= 5 and tested["buy_dealer_game"] >= 5  # not vacuous
