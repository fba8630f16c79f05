"""One-sided binomial tails: the functions ``scipy.stats.binom`` computes them with.

Why scipy: the counts surveillance tests run to tens of thousands of hands and its
p-values go far below 1e-12; scipy computes both tails from the regularized incomplete
beta function (Boost's), accurate to a few ulps there, with nothing of ours to get wrong.
The tests pin these wrappers to exact rational sums on a grid that includes p-values
below 1e-12. Statistics are floats; chips never are.

Why not ``scipy.stats.binom`` itself: importing ``scipy.stats`` took about half a second
of every ``pitwatch surveil`` and surveillance service start (it loads every
distribution and the optimizers), and ``binom.sf``/``binom.cdf`` only check their
arguments and call two ufuncs of ``scipy.special`` (``_binom_sf``, ``_binom_cdf``, Boost's
binomial), which ``stratified.py`` loads anyway. The wrappers below call those ufuncs on
the arguments ``binom`` would pass them; a test holds every result to ``binom``'s, bit for
bit, over a grid and hypothesis-drawn arguments, since an alert's p-value is in its
bytes. A scipy without those names falls back to ``scipy.stats.binom`` (same numbers,
slower start).
"""

from __future__ import annotations

from collections.abc import Callable

_Tail = Callable[[float, float, float], float]


def _binomial_ufuncs() -> tuple[_Tail, _Tail]:
    """``(sf, cdf)`` of the binomial, each taking ``(k, n, p)``."""
    try:
        from scipy.special._ufuncs import _binom_cdf, _binom_sf  # what binom's _sf/_cdf call
    except ImportError:  # a scipy that renamed them: the public route, same numbers
        from scipy.stats import binom
        return binom.sf, binom.cdf
    return _binom_sf, _binom_cdf


_sf, _cdf = _binomial_ufuncs()


def binomial_upper_tail(k: int, n: int, p: float) -> float:
    """P(X >= k) for X ~ Binomial(n, p): the p-value of "k or more is too many"."""
    if k <= 0:
        return 1.0
    if k > n:
        return 0.0
    return float(_sf(k - 1, n, min(max(p, 0.0), 1.0)))


def binomial_lower_tail(k: int, n: int, p: float) -> float:
    """P(X <= k) for X ~ Binomial(n, p): the p-value of "k or fewer is too few"."""
    if k < 0:
        return 0.0
    if k >= n:
        return 1.0
    return float(_cdf(k, n, min(max(p, 0.0), 1.0)))


def binomial_sum_upper_tail(k: int, terms: list[tuple[int, float]]) -> float:
    """P(X >= k) for X the sum of independent Binomial(n_i, p_i), ``terms`` the
    ``(n_i, p_i)``: one stratum's test summed over strata (``concentration``).

    One term is ``binomial_upper_tail`` itself (the same bits). Several: the exact
    distribution of the sum by convolving the terms' probability masses (every value
    positive, so the upper tail is summed without cancellation, however small)."""
    terms = [(n, p) for n, p in terms if n > 0]
    total = sum(n for n, _ in terms)
    if k <= 0:
        return 1.0
    if k > total:
        return 0.0
    if len(terms) == 1:
        return binomial_upper_tail(k, *terms[0])
    import numpy as np
    from scipy.special._ufuncs import _binom_pmf

    mass = np.ones(1)
    for n, p in terms:
        mass = np.convolve(mass, _binom_pmf(np.arange(n + 1), n, min(max(p, 0.0), 1.0)))
    return float(min(1.0, mass[k:].sum()))
