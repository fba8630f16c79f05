"""One-sided binomial tails, from scipy.stats.

Why scipy: the counts surveillance tests run to tens of thousands of hands and its
p-values go far below 1e-12; ``scipy.stats.binom`` computes both tails from the
regularized incomplete beta function (Boost's), accurate to a few ulps there, with
nothing of ours to get wrong. The tests pin these wrappers to exact rational sums on a
grid that includes p-values below 1e-12. Statistics are floats; chips never are.
"""

from __future__ import annotations

from scipy.stats import binom


def binomial_upper_tail(k: int, n: int, p: float) -> float:
    """P(X >= k) for X ~ Binomial(n, p): the p-value of "k or more is too many"."""
    if k <= 0:
        return 1.0
    if k > n:
        return 0.0
    return float(binom.sf(k - 1, n, min(max(p, 0.0), 1.0)))


def binomial_lower_tail(k: int, n: int, p: float) -> float:
    """P(X <= k) for X ~ Binomial(n, p): the p-value of "k or fewer is too few"."""
    if k < 0:
        return 0.0
    if k >= n:
        return 1.0
    return float(binom.cdf(k, n, min(max(p, 0.0), 1.0)))
