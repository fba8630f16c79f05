"""A pytest plugin that checks the core's rules (High Card Flush, Chinese Poker, Five Card
Draw 7-A, Russian Poker, Texas Hold'em) against the Python reference on every hand a test
suite adjudicates (``tests/unit/hcf``, ``tests/unit/chinese``, ``tests/unit/draw7a``, the
betting engine's ``tests/unit/betting``, ``tests/unit/russian`` or ``tests/unit/holdem``
with it: every unit scenario of the game).

Loaded with ``-p tests.unit.native.native_rules_plugin`` before the test modules are
imported, it wraps ``adjudicate_hand`` (the record) and each native game's ``adjudicate``
(its outcome, checked through the record the same hand and profile give): each call runs
unchanged and returns what it returned, and the native record of the same hand is
compared with the reference's, byte for byte. At the end of the session the counts (per
game) and any difference go to the JSON file ``$PITWATCH_NATIVE_CHECK`` names.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import Any

import pytest

import services.adjudicator.adjudicate as adjudicate_module
import services.games.chinese.adjudicate as chinese_module
import services.games.draw7a.adjudicate as draw7a_module
import services.games.hcf.adjudicate as hcf_module
import services.games.holdem.adjudicate as holdem_module
import services.games.russian.adjudicate as russian_module
from services.adjudicator.native_runner import NATIVE_GAMES, NativeRunner
from services.events.contract import encode_record
from services.games.model import GameOutcome, HandInput
from services.games.profile import Profiles, RuleProfile

_reference_hand = adjudicate_module.adjudicate_hand
_runners: dict[int, tuple[Profiles, NativeRunner]] = {}
_seen: dict[str, Any] = {"compared": 0, "native": 0, "not_native": {}, "differences": [],
                         "games": {}}


def _runner(profiles: Profiles) -> NativeRunner:
    hit = _runners.get(id(profiles))
    if hit is None or hit[0] is not profiles:
        hit = _runners[id(profiles)] = (profiles, NativeRunner(profiles))
    return hit[1]


def _check(hand: HandInput, profiles: Profiles, chain: Any = None,
           extra: list[Any] | None = None) -> None:
    config = hand.table.config
    if config is None or config.game not in NATIVE_GAMES:
        return
    reference = encode_record(_reference_hand(hand, profiles, chain, extra))
    native, why = _runner(profiles).adjudicate_hand(hand, chain, extra)
    _seen["compared"] += 1
    game = _seen["games"].setdefault(config.game, {"compared": 0, "native": 0})
    game["compared"] += 1
    if native is None:
        _seen["not_native"][why or "?"] = _seen["not_native"].get(why or "?", 0) + 1
        return
    _seen["native"] += 1
    game["native"] += 1
    if encode_record(native) != reference:
        _seen["differences"].append({"reference": reference.decode(),
                                     "native": encode_record(native).decode()})


def checked_hand(hand: HandInput, profiles: Profiles, chain: Any = None,
                 extra_findings: list[Any] | None = None) -> Any:
    _check(hand, profiles, chain, extra_findings)
    return _reference_hand(hand, profiles, chain, extra_findings)


_reference_hcf = hcf_module.adjudicate
_reference_chinese = chinese_module.adjudicate
_reference_draw7a = draw7a_module.adjudicate
_reference_russian = russian_module.adjudicate
_reference_holdem = holdem_module.adjudicate


def _checked_game(rules: Callable[[HandInput, RuleProfile], GameOutcome], hand: HandInput,
                  profile: RuleProfile) -> GameOutcome:
    config = hand.table.config
    if config is not None:
        _check(hand, Profiles({config.rule_profile: profile}))
    return rules(hand, profile)


def checked_hcf(hand: HandInput, profile: RuleProfile) -> GameOutcome:
    return _checked_game(_reference_hcf, hand, profile)


def checked_chinese(hand: HandInput, profile: RuleProfile) -> GameOutcome:
    return _checked_game(_reference_chinese, hand, profile)


def checked_draw7a(hand: HandInput, profile: RuleProfile) -> GameOutcome:
    return _checked_game(_reference_draw7a, hand, profile)


def checked_russian(hand: HandInput, profile: RuleProfile) -> GameOutcome:
    return _checked_game(_reference_russian, hand, profile)


def checked_holdem(hand: HandInput, profile: RuleProfile) -> GameOutcome:
    return _checked_game(_reference_holdem, hand, profile)


adjudicate_module.adjudicate_hand = checked_hand
hcf_module.adjudicate = checked_hcf
chinese_module.adjudicate = checked_chinese
draw7a_module.adjudicate = checked_draw7a
russian_module.adjudicate = checked_russian
holdem_module.adjudicate = checked_holdem


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    path = os.environ.get("PITWATCH_NATIVE_CHECK")
    if path:
        with open(path, "w") as fh:
            json.dump(_seen, fh, indent=1)
