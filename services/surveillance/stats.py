"""Exact one-sided binomial tails, summed in log space.

Why log space: the counts surveillance tests run to tens of thousands of hands, where
``comb(n, i) * p**i`` overflows a float long before the tail is small. Each term is
``exp(lgamma-based log C(n, i) + i log p + (n - i) log(1 - p))``; the sum starts at the
tail's edge and stops once a term can no longer change it (terms fall geometrically away
from the mode), so a test costs a few dozen terms, not ``n``. Statistics are floats; chips
never are.
"""

from __future__ import annotations

import math

_NEGLIGIBLE = 1e-17  # a term this much smaller than the running sum cannot change it


def _log_term(n: int, i: int, log_p: float, log_q: float) -> float:
    log_comb = math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1)
    return log_comb + i * log_p + (n - i) * log_q


def _sum_terms(n: int, indices: range, log_p: float, log_q: float) -> float:
    """Sum of the binomial terms over ``indices``, which must run away from the mode."""
    total = 0.0
    for i in indices:
        term = math.exp(_log_term(n, i, log_p, log_q))
        total += term
        if term <= total * _NEGLIGIBLE:
            break
    return total


def binomial_upper_tail(k: int, n: int, p: float) -> float:
    """P(X >= k) for X ~ Binomial(n, p): the p-value of "k or more is too many"."""
    if k <= 0:
        return 1.0
    if k > n:
        return 0.0
    if p <= 0.0:
        return 0.0
    if p >= 1.0:
        return 1.0
    log_p, log_q = math.log(p), math.log1p(-p)
    if k > n * p:  # the tail lies beyond the mode: its terms fall away from k
        return min(1.0, _sum_terms(n, range(k, n + 1), log_p, log_q))
    below = _sum_terms(n, range(k - 1, -1, -1), log_p, log_q)  # P(X <= k - 1)
    return max(0.0, 1.0 - below)


def binomial_lower_tail(k: int, n: int, p: float) -> float:
    """P(X <= k) for X ~ Binomial(n, p): the p-value of "k or fewer is too few"."""
    if k < 0:
        return 0.0
    return binomial_upper_tail(n - k, n, 1.0 - p)  # X <= k  <=>  n - X >= n - k
