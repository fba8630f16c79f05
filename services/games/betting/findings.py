"""Betting violations as findings, with severities from the game's rule profile.

Each pot game's profile carries a ``BettingSeverities`` table (one severity per kind of
violation) so a casino can post, say, out-of-turn actions as ``info`` without touching
code. ``over_stack`` has no entry: table stakes (GEN-2) are checked once for every game by
``services.adjudicator.integrity`` and reported there, not twice.
"""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from services.events.contract import Finding, Severity
from services.games.betting.actions import Violation
from services.games.model import finding

# Reported by the common GEN checks already (GEN-2): never repeated by a game.
REPORTED_ELSEWHERE: frozenset[str] = frozenset({"over_stack"})


class BettingSeverities(msgspec.Struct, forbid_unknown_fields=True):
    """Severity of each betting violation kind (see ``actions.ViolationKind``)."""

    out_of_turn: Severity
    not_in_hand: Severity
    check_facing_bet: Severity
    wrong_call_amount: Severity
    chips_with_fold: Severity
    not_a_raise: Severity
    all_in_not_whole_stack: Severity
    under_minimum: Severity
    over_pot: Severity
    wrong_limit_amount: Severity
    cap_exceeded: Severity
    not_reopened: Severity
    no_opponent_to_raise: Severity
    blind_wrong_seat: Severity
    blind_wrong_amount: Severity
    blind_missing: Severity
    blind_late: Severity
    last_player_folded: Severity
    round_incomplete: Severity

    def of(self, kind: str) -> Severity:
        severity: Severity = getattr(self, kind)
        return severity


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
