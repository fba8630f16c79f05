"""The stratified exact test SURV-3, SURV-4 and SURV-5 run.

A player makes yes/no decisions (fold, insure, bet ...). Every decision is put in a
*stratum* of what the player could see when it decided (and, for the per-decider tests,
of the situation it was in); within a stratum each decision also carries a yes/no
*mark* the null hypothesis says is unrelated to the choice: the hidden outcome (SURV-5:
the dealer qualifies), or the opponent (SURV-3, SURV-4: the decision faced this one
opponent, not another). Given a stratum's margins (``n`` decisions, ``c`` answered
"yes", ``o`` marked) the number of "yes and marked" is hypergeometric; summed over the
strata its exact distribution is the convolution of the strata's. The p-value is the
upper tail ``P(T >= t)`` (too many: SURV-3, SURV-5) or the lower tail ``P(T <= t)``
(too few: SURV-4's aggression against one opponent).

The per-stratum pmfs are the hypergeometric's, from ``scipy.special.gammaln`` (the
log-binomials ``scipy.stats.hypergeom`` uses, without its per-call overhead: a test
convolves dozens of strata at every look; tests pin them to ``scipy.stats.hypergeom``
and to exact rational sums); the convolution is ``numpy.convolve`` (all terms are
non-negative, so a tail summed from it loses nothing to cancellation, far below 1e-12).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
from scipy.special import gammaln


@dataclass
class Stratum:
    """One player's decisions of one kind in one situation, and how the mark fell."""

    decisions: int = 0
    chosen: int = 0  # decisions answered "yes" (folded, insured, bet ...)
    outcomes: int = 0  # decisions marked (favourable outcome, faced this opponent)
    matched: int = 0  # "yes" and marked

    def add(self, chose: bool, outcome: bool) -> None:
        self.decisions += 1
        self.chosen += chose
        self.outcomes += outcome
        self.matched += chose and outcome


@dataclass(frozen=True)
class StratifiedTest:
    observed: int  # "yes and marked", summed over the strata
    expected: float
    upper: float  # P(T >= observed)
    lower: float  # P(T <= observed)


def _log_comb(n: int | np.ndarray, k: int | np.ndarray) -> np.ndarray:
    return np.asarray(gammaln(np.add(n, 1)) - gammaln(np.add(k, 1))
                      - gammaln(np.subtract(n, k) + 1))


def _pmf(n: int, c: int, o: int, low: int, high: int) -> np.ndarray:
    """P(x of the ``c`` "yes" decisions are marked), x = low..high: C(o, x) C(n-o, c-x)
    / C(n, c)."""
    x = np.arange(low, high + 1)
    log = _log_comb(o, x) + _log_comb(n - o, c - x) - _log_comb(n, c)
    return np.asarray(np.exp(log))


def _distribution(cells: Iterable[Stratum]) -> tuple[int, np.ndarray, float]:
    """(lowest possible T, pmf of T from there, E[T]) for the strata given."""
    offset, dist, expected = 0, np.ones(1), 0.0
    for cell in cells:
        n, c, o = cell.decisions, cell.chosen, cell.outcomes
        if not n:
            continue
        expected += c * o / n
        low, high = max(0, c + o - n), min(c, o)
        offset += low
        if high > low:
            dist = np.convolve(dist, _pmf(n, c, o, low, high))
    return offset, dist, expected


def stratified_test(cells: Iterable[Stratum]) -> StratifiedTest:
    """Both tails of the stratified exact test at the strata's observed total."""
    cells = list(cells)
    observed = sum(c.matched for c in cells)
    offset, dist, expected = _distribution(cells)
    i = observed - offset
    upper = float(dist[max(i, 0):].sum()) if i < len(dist) else 0.0
    lower = float(dist[: i + 1].sum()) if i >= 0 else 0.0
    return StratifiedTest(observed, expected, min(upper, 1.0), min(lower, 1.0))


def stratified_upper_tail(cells: Iterable[Stratum], observed: int) -> tuple[float, float]:
    """(P(T >= observed), E[T]) for T the sum over strata of independent hypergeometrics."""
    offset, dist, expected = _distribution(list(cells))
    start = max(observed - offset, 0)
    return min(1.0, float(dist[start:].sum())), expected
