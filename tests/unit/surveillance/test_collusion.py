"""SURV-5 information sharing (Russian Poker): play/fold following the dealer's hidden
cards, with the stratified exact test."""

from __future__ import annotations

from typing import Any

import pytest

from services.surveillance import SurveillanceEngine
from services.surveillance.profile import surveillance_config
from services.surveillance.russian_decisions import russian_decisions
from services.surveillance.stratified import Stratum, stratified_upper_tail
from tests.profiles import HOUSE
from tests.unit.surveillance.scenario import hand

BOX = ["2c", "5d", "8h", "Js", "3h"]  # "nothing" (no pair, not Ace-King)
QUALIFIES_9 = ["As", "Ad", "4c", "7h", "9s"]  # a pair of aces, 9s up
NOT_9 = ["2s", "4d", "6c", "Th", "9s"]  # ten-high: does not qualify, 9s up
QUALIFIES_A = ["Ac", "Kd", "4s", "7d", "Ah"]  # ace up
NOT_2 = ["3s", "4h", "6d", "Tc", "2h"]  # 2 up


def rp_hand(n: int, dealer: list[str], fold: bool) -> tuple:  # type: ignore[type-arg]
    events: list[tuple[str, dict[str, Any]]] = [
        ("card_dealt", {"to": "seat", "seat": 1, "card": c, "face_up": False}) for c in BOX]
    events += [("card_dealt", {"to": "dealer", "card": c, "face_up": i == 4})
               for i, c in enumerate(dealer)]
    events.append(("action", {"seat": 1, "action": "fold" if fold else "play"}))
    return hand(n, game="russian", players={1: "A"}, events=events)


def review(hands: list[tuple]) -> list:  # type: ignore[type-arg]
    engine = SurveillanceEngine(surveillance_config(HOUSE))
    for hand_input, record in hands:
        engine.observe(hand_input, record)
    return [a for a in engine.review() if a.rule == "SURV-5"]


def test_stratified_tail_by_hand() -> None:
    """One stratum of 4 decisions, 2 folds, 2 qualifications: T is hypergeometric, pmf
    (1/6, 4/6, 1/6) on 0..2, so P(T >= 2) = 1/C(4,2) = 1/6 and E[T] = 2*2/4 = 1. Two
    such strata: P(T >= 4) = 1/36; P(T >= 3) = 2 (1/6)(4/6) + 1/36 = 9/36 = 0.25."""
    cell = Stratum(decisions=4, chosen=2, outcomes=2)
    assert stratified_upper_tail([cell], 2) == pytest.approx((1 / 6, 1.0))
    assert stratified_upper_tail([cell, cell], 4)[0] == pytest.approx(1 / 36)
    assert stratified_upper_tail([cell, cell], 3)[0] == pytest.approx(0.25)


def test_folding_exactly_when_the_dealer_qualifies() -> None:
    """50 hands, the same visible situation (9s up, a "nothing" box): one stratum. The
    dealer qualifies in hands 1..25; A folds in exactly those. n = 50, f = q = 25, t = 25:
    P(T >= 25) = 1 / C(50,25) = 1 / 126,410,606,437,752 = 7.91e-15 <= 1e-6."""
    hands = [rp_hand(n, QUALIFIES_9 if n <= 25 else NOT_9, fold=n <= 25) for n in range(1, 51)]
    alerts = review(hands)
    assert len(alerts) == 1
    ev = alerts[0].evidence
    assert ev is not None
    assert (ev["player"], ev["decisions"], ev["folds"], ev["dealer_qualified"],
            ev["folds_when_dealer_qualified"], ev["strata"]) == ("A", 50, 25, 25, 25, 1)
    assert ev["decision"] == "play_fold"
    assert ev["expected"] == pytest.approx(12.5)
    assert ev["p_value"] == pytest.approx(1 / 126_410_606_437_752, rel=1e-6)
    assert (alerts[0].code, alerts[0].severity) == ("INFORMATION_SHARING", "critical")


def test_decisions_unrelated_to_the_dealer_do_not_alert() -> None:
    """A folds the odd hands, the dealer qualifies in hands 1..25: 13 folds among the
    qualified, 12.5 expected; P(T >= 13) = 0.5 exactly (the hypergeometric with
    N = 50, K = n = 25 is symmetric about 12.5)."""
    hands = [rp_hand(n, QUALIFIES_9 if n <= 25 else NOT_9, fold=n % 2 == 1)
             for n in range(1, 51)]
    assert review(hands) == []


def test_following_the_up_card_is_not_information_sharing() -> None:
    """A folds whenever the dealer shows an ace and plays when it shows a 2; the ace-up
    dealers qualify, the 2-up ones do not. Unstratified that is 25 of 25 folds on
    qualified dealers, but the up card is visible: within each stratum every decision is
    the same, T is fixed, P = 1."""
    hands = [rp_hand(n, QUALIFIES_A if n <= 25 else NOT_2, fold=n <= 25) for n in range(1, 51)]
    assert review(hands) == []


def test_decision_reads_the_hand_after_a_draw() -> None:
    """A box exchanges three cards into a pair of jacks before deciding: its stratum is
    (dealer's up rank, "one_pair")."""
    hand_input, _ = rp_hand(1, QUALIFIES_9, fold=False)
    events = list(hand_input.events)
    seen = russian_decisions(events)
    assert [(d.kind, d.outcome, d.stratum) for d in seen] == [
        ("play_fold", True, ("9", "nothing"))]
    draw = hand(2, game="russian", players={1: "A"}, events=[
        *[("card_dealt", {"to": "seat", "seat": 1, "card": c, "face_up": False}) for c in BOX],
        *[("card_dealt", {"to": "dealer", "card": c, "face_up": i == 4})
          for i, c in enumerate(NOT_9)],
        ("draw", {"seat": 1, "discarded": ["2c", "5d", "8h"], "received": ["Jd", "Kc", "7c"]}),
        ("action", {"seat": 1, "action": "play"})])[0]
    seen = russian_decisions(draw.events)
    assert [(d.kind, d.outcome, d.stratum) for d in seen] == [
        ("play_fold", False, ("9", "one_pair"))]
