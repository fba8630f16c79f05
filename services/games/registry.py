"""The games pitwatch adjudicates, by the name ``table_configured.game`` posts.

A typed table instead of a module name in a string: a reader (and mypy) can follow the
dispatch from a game's name to its rules, and a game pitwatch does not have is a plain
missing key (``GAME_NOT_SUPPORTED``), never an import error that could also be a bug.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Protocol

from services.events.contract import GameName
from services.games.chinese.adjudicate import adjudicate as adjudicate_chinese
from services.games.draw7a.adjudicate import adjudicate as adjudicate_draw7a
from services.games.hcf.adjudicate import adjudicate as adjudicate_hcf
from services.games.holdem.adjudicate import adjudicate as adjudicate_holdem
from services.games.model import GameOutcome, HandInput
from services.games.profile import RuleProfile
from services.games.russian.adjudicate import adjudicate as adjudicate_russian


class GameAdjudicator(Protocol):
    """A game's rules: one hand and the profile it was posted under in, the expected
    settlement, its findings and the decision path out (pure: no IO, clock, randomness)."""

    def __call__(self, hand: HandInput, profile: RuleProfile) -> GameOutcome: ...


@dataclass(frozen=True)
class Game:
    """One game: its rules and the rule that governs its rake (cited by RAKE_* findings:
    HCF-12 for High Card Flush, GEN-10 for the others)."""

    name: GameName
    adjudicate: GameAdjudicator
    rake_rule: str


GAMES: Mapping[str, Game] = MappingProxyType({
    "hcf": Game("hcf", adjudicate_hcf, "HCF-12"),
    "chinese": Game("chinese", adjudicate_chinese, "GEN-10"),
    "draw7a": Game("draw7a", adjudicate_draw7a, "GEN-10"),
    "russian": Game("russian", adjudicate_russian, "GEN-10"),
    "holdem": Game("holdem", adjudicate_holdem, "GEN-10"),
})
