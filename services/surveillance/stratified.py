"""The stratified exact test SURV-5 runs for every kind of decision.

A player makes yes/no decisions (fold, insure, buy the dealer's game); each one later
meets a hidden yes/no outcome (the dealer qualifies, the dealer does not qualify, buying
wins). Every decision is put in a *stratum* of what the box could see when it decided.
Within a stratum an honest decision is independent of the hidden outcome, so given the
stratum's margins (``n`` decisions, ``c`` of them "yes", ``o`` outcomes "yes") the number
of "yes and yes" is hypergeometric. Summed over the strata, its exact distribution is the
convolution of the strata's (the stratified exact test); the p-value is ``P(T >= t)``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass
class Stratum:
    """One player's decisions of one kind in one visible situation, and how the hidden
    outcome fell."""

    decisions: int = 0
    chosen: int = 0  # decisions answered "yes" (folded, insured, bought)
    outcomes: int = 0  # decisions whose hidden outcome favoured "yes"
    matched: int = 0  # "yes" and the outcome favoured it

    def add(self, chose: bool, outcome: bool) -> None:
        self.decisions += 1
        self.chosen += chose
        self.outcomes += outcome
        self.matched += chose and outcome


def _log_comb(n: int, k: int) -> float:
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)


def _hypergeometric(cell: Stratum) -> tuple[int, list[float]]:
    """Support start and pmf of "chosen among the favourable outcomes" in one stratum."""
    n, c, o = cell.decisions, cell.chosen, cell.outcomes
    low, high = max(0, c + o - n), min(c, o)
    log_total = _log_comb(n, c)
    pmf = [math.exp(_log_comb(o, x) + _log_comb(n - o, c - x) - log_total)
           for x in range(low, high + 1)]
    return low, pmf


def stratified_upper_tail(cells: Iterable[Stratum], observed: int) -> tuple[float, float]:
    """(P(T >= observed), E[T]) for T the sum over strata of independent hypergeometrics."""
    offset, dist, expected = 0, [1.0], 0.0
    for cell in cells:
        if cell.decisions:
            expected += cell.chosen * cell.outcomes / cell.decisions
        low, pmf = _hypergeometric(cell)
        offset += low
        if len(pmf) == 1:
            continue
        out = [0.0] * (len(dist) + len(pmf) - 1)
        for i, a in enumerate(dist):
            if a:
                for j, b in enumerate(pmf):
                    out[i + j] += a * b
        dist = out
    start = max(observed - offset, 0)
    return min(1.0, sum(dist[start:])), expected
