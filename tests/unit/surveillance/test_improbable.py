"""SURV-6: a player's bonus hits against the game's true odds (exact counting)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from services.events.contract import AdjudicationRecord
from services.games.model import HandInput
from services.surveillance import SurveillanceEngine
from services.surveillance.profile import surveillance_config
from tests.profiles import HOUSE
from tests.unit.surveillance.scenario import hand

FLUSH5 = ["2h", "5h", "8h", "Jh", "Ah", "3c", "4d"]  # five hearts
NO_FLUSH = ["2h", "5h", "8h", "3c", "4c", "6d", "7s"]  # three hearts at most
STRAIGHT = ["2c", "3d", "4h", "5s", "6c"]
PAIR = ["2c", "2d", "9h", "Js", "Kc"]


def dealt(seat: int, cards: Sequence[str | None]) -> list[tuple[str, dict[str, Any]]]:
    return [("card_dealt", {"to": "seat", "card": c, "face_up": False, "seat": seat})
            for c in cards]


def hcf_hand(n: int, cards: Sequence[str | None],
             bonus: bool = True) -> tuple[HandInput, AdjudicationRecord]:
    wager = [("wager", {"seat": 1, "kind": "flush_bonus", "amount": 5})] if bonus else []
    return hand(n, players={1: "A", 2: "B"}, events=[*wager, *dealt(1, cards)])


def improbable(hands: list[tuple]) -> list:  # type: ignore[type-arg]
    engine = SurveillanceEngine(surveillance_config(HOUSE))
    return [a for h, r in hands for a in engine.observe(h, r) if a.rule == "SURV-6"]


def test_hcf_flush_hits_alert_when_the_tail_crosses() -> None:
    """A wagers the flush bonus in 22 hands and is dealt a 5-card flush in hands 13..22.
    True odds p0 = 4,089,228 / 133,784,560 = 0.030566 (test_stats_and_odds). Looks at 4,
    6, 9, 14 hits (min_count 4, +50%), thresholds 1e-6 * 6 / (pi^2 (j+1)^2) = 6.079e-7,
    1.520e-7, 6.755e-8. Hand 16, 4 hits in 16: P(X >= 4) = 1.18e-3. Hand 18, 6 in 18:
    C(18,6) p0^6 (1-p0)^12 + ... = 1.10e-5 > 1.52e-7. Hand 21, 9 in 21: C(21,9) p0^9
    (1-p0)^12 + C(21,10) p0^10 (1-p0)^11 + ... = 293,930 * 2.3287e-14 * 0.68900
    + 352,716 * 5.06e-16 = 4.716e-9 + 1.78e-10 + ... = 4.900e-9 <= 6.755e-8: alert on
    hand 21; hand 22 (10 hits) is no new look."""
    hands = [hcf_hand(n, FLUSH5 if n >= 13 else NO_FLUSH) for n in range(1, 23)]
    alerts = improbable(hands)
    assert [a.hand_id for a in alerts] == ["T1-000021"]
    ev = alerts[0].evidence
    assert ev is not None
    assert (ev["player"], ev["kind"], ev["count"], ev["trials"], ev["look"]) == (
        "A", "hcf_flush", 9, 21, 2)
    assert ev["true_probability"] == pytest.approx(4_089_228 / 133_784_560)
    assert ev["p_value"] == pytest.approx(4.900e-9, rel=1e-3)
    assert ev["threshold"] == pytest.approx(6.755e-8, rel=1e-3)
    assert (alerts[0].code, alerts[0].rule) == ("IMPROBABLE_RESULTS", "SURV-6")
    assert (alerts[0].subject, alerts[0].parties) == ("player:A", ["player:A"])


def test_hcf_hits_at_the_true_rate_or_without_the_wager_do_not_alert() -> None:
    """Two flushes in 19 hands (0.58 expected, P(X >= 2) = 0.11); seven flushes with no
    flush-bonus wager are not trials; a hand with an unread card is not a trial."""
    hands = [hcf_hand(n, FLUSH5 if n in (4, 17) else NO_FLUSH) for n in range(1, 20)]
    hands += [hcf_hand(n, FLUSH5, bonus=False) for n in range(20, 27)]
    hands += [hcf_hand(n, [*FLUSH5[:6], None]) for n in range(27, 40)]
    assert improbable(hands) == []


def test_russian_top_hands() -> None:
    """A box dealt a straight in hands 7..12 of 12. p0 = 19,716 / 2,598,960 = 0.0075861.
    After hand 9: 3 hits < min_count 4. After hand 10 (look 0, threshold 6.079e-7):
    P(X >= 4 | 10, p0) = C(10,4) p0^4 (1-p0)^6 + ... = 210 * 3.312e-9 * 0.9554 + ...
    = 6.706e-7 > 6.079e-7: no alert (at one threshold of 1e-6 it would have been). After
    hand 12 (6 hits, look 1, threshold 1.520e-7): C(12,6) p0^6 (1-p0)^6 + C(12,7) p0^7
    (1-p0)^5 = 924 * 1.90597e-13 * 0.95534 + 1.10e-12 = 1.6935e-10: alert."""
    hands = [hand(n, game="russian", players={1: "A"},
                  events=dealt(1, STRAIGHT if n >= 7 else PAIR)) for n in range(1, 13)]
    alerts = improbable(hands)
    assert [a.hand_id for a in alerts] == ["T1-000012"]
    assert alerts[0].evidence is not None
    assert alerts[0].evidence["p_value"] == pytest.approx(1.6935e-10, rel=1e-3)


def test_russian_first_five_cards_only() -> None:
    """A sixth (bought) card making the straight does not count: the deal is judged, the
    draw is the player's choice. Four such hands: no hit, no alert."""
    hands = [hand(n, game="russian", players={1: "A"},
                  events=dealt(1, ["2c", "3d", "4h", "5s", "Kc", "6c"])) for n in range(1, 5)]
    assert improbable(hands) == []
