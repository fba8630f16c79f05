"""Betting violations as findings, with severities from the game's rule profile.

Each pot game's profile carries a ``BettingSeverities`` table (one severity per kind of
violation) so a casino can post, say, out-of-turn actions as ``info`` without touching
code. ``over_stack`` has no entry: table stakes (GEN-2) are checked once for every game by
``services.adjudicator.integrity`` and reported there, not twice.
"""

from __future__ import annotations

from collections.abc import Iterable

from services.events.contract import Finding
from services.games.betting.actions import Violation
from services.games.model import finding
from services.games.pot_sections import BettingSeverities

# Reported by the common GEN checks already (GEN-2): never repeated by a game.
REPORTED_ELSEWHERE: frozenset[str] = frozenset({"over_stack"})


def violation_code(kind: str) -> str:
    """The finding code of a violation kind: ``under_minimum`` -> ``UNDER_MINIMUM``."""
    return kind.upper()


def violation_findings(
    violations: Iterable[Violation], severities: BettingSeverities
) -> list[Finding]:
    """One finding per violation, citing the violation's rule."""
    return [
        finding(violation_code(v.kind), v.rule, severities.of(v.kind), v.message,
                seat=v.seat, amount=v.amount)
        for v in violations
        if v.kind not in REPORTED_ELSEWHERE
    ]
