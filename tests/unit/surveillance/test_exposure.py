"""SURV-7: cards one dealer exposes at one player's seat, again and again."""

from __future__ import annotations

import pytest

from services.surveillance import SurveillanceEngine
from services.surveillance.profile import surveillance_config
from tests.profiles import HOUSE
from tests.unit.surveillance.scenario import hand


def exposed(seat: int, cards: tuple[str, ...] = ("As",)) -> list:  # type: ignore[type-arg]
    return [("card_exposed", {"seat": seat, "card": c, "cause": "dealer_error"}) for c in cards]


def surv7(hands: list[tuple]) -> list:  # type: ignore[type-arg]
    engine = SurveillanceEngine(surveillance_config(HOUSE))
    return [a for h, r in hands for a in engine.observe(h, r) if a.rule == "SURV-7"]


def test_one_seat_exposed_again_and_again() -> None:
    """Six players; dealer D1 exposes a card of seat 3 (player C) in hands 5, 10, ..., 70,
    two cards at once in hand 10 (one exposure incident: counted once). C holds 1/6 of
    the seat-hands, so k of k incidents has p = 6^-k. Looks at 4, 6, 9, 14 incidents
    (min_count 4, +50%), thresholds 6.079e-7, 1.520e-7, 6.755e-8, 3.800e-8: 6^-4, 6^-6
    = 2.1e-5 and 6^-9 = 9.92e-8 are above theirs; 6^-14 = 1.276e-11 is not: alert on
    hand 70."""
    hands = [hand(n, events=exposed(3, ("As", "Kd") if n == 10 else ("As",))
                  if n % 5 == 0 else []) for n in range(1, 71)]
    alerts = surv7(hands)
    assert [a.hand_id for a in alerts] == ["T1-000070"]
    ev = alerts[0].evidence
    assert ev is not None
    assert (ev["dealer"], ev["player"], ev["count"], ev["dealer_events"]) == (
        "D1", "C", 14, 14)
    assert ev["p_value"] == pytest.approx(6.0**-14, rel=1e-9)
    assert ev["seats"] == [3]
    assert alerts[0].code == "EXPOSURE_CONCENTRATION"


def test_exposures_spread_over_seats_do_not_alert() -> None:
    """The same 8 incidents on seats 1..6 in turn: at most 2 per player, P ~ 0.4."""
    hands = [hand(n, events=exposed(n // 5 % 6 + 1) if n % 5 == 0 else [])
             for n in range(1, 41)]
    assert surv7(hands) == []


def test_player_exposing_own_cards_is_not_the_dealer() -> None:
    """Eight cards exposed by the player himself (cause ``player``): not counted."""
    hands = [hand(n, events=[("card_exposed", {"seat": 3, "card": "As", "cause": "player"})]
                  if n % 5 == 0 else []) for n in range(1, 41)]
    assert surv7(hands) == []


def dealt_face_up(seat: int, card: str = "As") -> list:  # type: ignore[type-arg]
    """A hole card dealt face up to ``seat`` (how the hold'em tables and simulator record
    an exposure, TH-3), with no ``card_exposed`` event."""
    return [("card_dealt", {"to": "seat", "seat": seat, "card": card, "face_up": True})]


def test_a_hole_card_dealt_face_up_is_an_exposure() -> None:
    """The first test's hands at a hold'em table, each exposure recorded as a face-up
    deal to seat 3 (two face-up cards in hand 10, also reported by ``card_exposed`` for
    one of them: one incident). Same counts, same p = 6^-14, alert on hand 70. The review
    counts each of the 14 hands once in SURV-8's ``exposed_card`` kind."""
    def events(n: int) -> list:  # type: ignore[type-arg]
        if n == 10:
            return dealt_face_up(3, "As") + dealt_face_up(3, "Kd") + exposed(3, ("Kd",))
        return dealt_face_up(3) if n % 5 == 0 else []

    engine = SurveillanceEngine(surveillance_config(HOUSE))
    hands = [hand(n, game="holdem", events=events(n), big_blind=10) for n in range(1, 71)]
    alerts = [a for h, r in hands for a in engine.observe(h, r) if a.rule == "SURV-7"]
    assert [a.hand_id for a in alerts] == ["T1-000070"]
    ev = alerts[0].evidence
    assert ev is not None
    assert (ev["player"], ev["count"], ev["dealer_events"]) == ("C", 14, 14)
    assert ev["p_value"] == pytest.approx(6.0**-14, rel=1e-9)
    entity = engine.drift.floors[("holdem", "dealer")]["D1"]
    assert entity.counts == {"exposed_card": {"6": 14}}


def test_a_board_card_face_up_is_no_exposure() -> None:
    """Board cards are dealt face up by rule: 14 hands with a face-up flop card count
    nothing for SURV-7 or SURV-8."""
    board = [("card_dealt", {"to": "board", "card": "As", "face_up": True})]
    engine = SurveillanceEngine(surveillance_config(HOUSE))
    for n in range(1, 71):
        engine.observe(*hand(n, game="holdem", events=board if n % 5 == 0 else [],
                             big_blind=10))
    assert engine.exposure.dealers["D1"].events == {}
    assert engine.drift.floors[("holdem", "dealer")]["D1"].counts == {}
