"""A hand that drives the adjudicator into an error is rejected, named, and the stream goes on."""

from __future__ import annotations

import logging

import pytest

from services.adjudicator import adjudicate
from services.adjudicator.embedded import adjudicate_lines
from services.events.contract import encode_record
from services.games.model import GameOutcome, HandInput
from services.games.profile import RuleProfile
from services.games.registry import GAMES, Game, GameAdjudicator
from tests.profiles import PROFILES
from tests.unit.core.streams import hcf_stream, lines

BROKEN_HAND = "T1-000002"


def _game_failing_on_one_hand(real: GameAdjudicator) -> GameAdjudicator:
    def game(hand: HandInput, profile: RuleProfile) -> GameOutcome:
        if hand.hand_id == BROKEN_HAND:
            raise ZeroDivisionError("division by zero")
        return real(hand, profile)

    return game


def test_an_error_in_one_hand_rejects_that_hand_only(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """T1 has 3 hands, T2 has 3; hand T1-000002 raises inside the game module. Expected:
    6 records (nothing lost); the 5 others byte-identical to a run without the error;
    T1-000002 ``rejected`` with exactly one finding, ADJUDICATION_ERROR (SURV-9,
    critical) naming the exception; the traceback is logged."""
    raw = lines(hcf_stream("T1", hands=3)) + lines(hcf_stream("T2", hands=3, seed=5))
    baseline = {r.hand_id: encode_record(r)
                for step in adjudicate_lines(raw, PROFILES) for r in step.records}
    hcf = GAMES["hcf"]
    monkeypatch.setattr(adjudicate, "GAMES", {
        **GAMES, "hcf": Game("hcf", _game_failing_on_one_hand(hcf.adjudicate), hcf.rake_rule)})
    with caplog.at_level(logging.ERROR, logger="services.adjudicator.adjudicate"):
        records = [r for step in adjudicate_lines(raw, PROFILES) for r in step.records]

    by_hand = {r.hand_id: r for r in records}
    assert len(records) == 6
    assert sorted(by_hand) == sorted(baseline)
    for hand_id, record in by_hand.items():
        if hand_id != BROKEN_HAND:
            assert encode_record(record) == baseline[hand_id]
    broken = by_hand[BROKEN_HAND]
    assert broken.status == "rejected"
    assert broken.game == "hcf"
    assert [(f.code, f.rule, f.severity) for f in broken.findings] == [
        ("ADJUDICATION_ERROR", "SURV-9", "critical")]
    assert "ZeroDivisionError: division by zero" in broken.findings[0].message
    assert "T1-000002" in caplog.text and "ZeroDivisionError" in caplog.text
