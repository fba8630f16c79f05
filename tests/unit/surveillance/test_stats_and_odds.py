"""Binomial tails and the true odds SURV-6 compares with, against hand-computed numbers."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.stats import hypergeom

from services.surveillance.odds import FIVE_CARD_COUNTS, five_card_at_least, longest_suit_at_least
from services.surveillance.stats import binomial_lower_tail, binomial_upper_tail
from services.surveillance.stratified import Stratum, stratified_test


def test_upper_tail_all_of_few() -> None:
    """P(X >= 5), X ~ Bin(5, 1/6) = (1/6)^5 = 1/7776 = 1.28601e-4."""
    assert binomial_upper_tail(5, 5, 1 / 6) == pytest.approx(1 / 7776, rel=1e-12)


def test_upper_tail_below_the_mode_side() -> None:
    """P(X >= 3), X ~ Bin(10, 0.1) = 1 - (0.9^10 + 10*0.1*0.9^9 + 45*0.01*0.9^8)
    = 1 - (0.3486784401 + 0.387420489 + 0.1937102445) = 0.0701908264."""
    assert binomial_upper_tail(3, 10, 0.1) == pytest.approx(0.0701908264, rel=1e-9)


def test_upper_tail_far_in_a_long_series() -> None:
    """P(X >= 50), X ~ Bin(1000, 0.02): mean 20, sd 4.43; 50 is 6.8 sd out. The leading
    term C(1000,50) 0.02^50 0.98^950: log10 C(1000,50) = 85.0, 50 log10 0.02 = -84.95,
    950 log10 0.98 = -8.335, so ~10^-8.3 = 5e-9, and the tail is about 1.6x its first term
    (ratio of successive terms ~ (950/51)(0.02/0.98) = 0.38): ~8e-9."""
    p = binomial_upper_tail(50, 1000, 0.02)
    assert 5e-9 < p < 1.2e-8


def test_lower_tail() -> None:
    """P(X <= 0), X ~ Bin(30, 0.2) = 0.8^30 = 1.2379e-3; P(X <= 30) = 1."""
    assert binomial_lower_tail(0, 30, 0.2) == pytest.approx(0.8**30, rel=1e-12)
    assert binomial_lower_tail(30, 30, 0.2) == pytest.approx(1.0)


def test_edges() -> None:
    """k = 0 is certain; k > n impossible; p = 0 never hits, p = 1 always does."""
    assert binomial_upper_tail(0, 10, 0.3) == 1.0
    assert binomial_upper_tail(11, 10, 0.3) == 0.0
    assert binomial_upper_tail(1, 10, 0.0) == 0.0
    assert binomial_upper_tail(10, 10, 1.0) == 1.0


@given(st.integers(0, 60), st.integers(1, 60), st.fractions(0, 1, max_denominator=50))
def test_tails_match_exact_fractions(k: int, n: int, p: Fraction) -> None:
    """Both tails agree with the exact rational sum of math.comb terms."""
    k = min(k, n)
    exact_upper = sum(comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k, n + 1))
    exact_lower = sum(comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(0, k + 1))
    assert binomial_upper_tail(k, n, float(p)) == pytest.approx(float(exact_upper), rel=1e-9,
                                                                abs=1e-15)
    assert binomial_lower_tail(k, n, float(p)) == pytest.approx(float(exact_lower), rel=1e-9,
                                                                abs=1e-15)


def test_hcf_flush_odds() -> None:
    """Seven cards from 52, C(52,7) = 133,784,560. Five or more of one suit (only one suit
    can): 4 (C(13,5) C(39,2) + C(13,6) C(39,1) + C(13,7)) = 4 (1287*741 + 1716*39 + 1716)
    = 4 (953,667 + 66,924 + 1,716) = 4,089,228 -> 0.030566. Six or more: 4 (66,924 +
    1,716) = 274,560 -> 0.0020523. All seven: 4 * 1716 = 6,864."""
    assert longest_suit_at_least(7, 5) == Fraction(4_089_228, 133_784_560)
    assert longest_suit_at_least(7, 6) == Fraction(274_560, 133_784_560)
    assert longest_suit_at_least(7, 7) == Fraction(6_864, 133_784_560)
    assert longest_suit_at_least(7, 2) == 1  # 7 cards in 4 suits: some suit holds 2


def test_five_card_category_odds() -> None:
    """The textbook counts (of C(52,5) = 2,598,960): straight flush 40, quads 624, full
    house 3,744, flush 5,108, straight 10,200, trips 54,912, two pair 123,552, one pair
    1,098,240; high card is the rest, 1,302,540. Straight or better: 40 + 624 + 3,744 +
    5,108 + 10,200 = 19,716 -> 0.0075861."""
    assert FIVE_CARD_COUNTS == {
        "straight_flush": 40, "four_of_a_kind": 624, "full_house": 3_744, "flush": 5_108,
        "straight": 10_200, "three_of_a_kind": 54_912, "two_pair": 123_552,
        "one_pair": 1_098_240}
    assert comb(52, 5) - sum(FIVE_CARD_COUNTS.values()) == 1_302_540
    assert five_card_at_least("straight") == Fraction(19_716, 2_598_960)
    assert five_card_at_least("straight_flush") == Fraction(40, 2_598_960)
    with pytest.raises(ValueError):
        five_card_at_least("high_card")


# ----------------------------------------------------------------- far tails, exactly


def exact_upper(k: int, n: int, p: Fraction) -> float:
    return float(sum(comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k, n + 1)))


@pytest.mark.parametrize(("k", "n", "p"), [
    (12, 12, Fraction(1, 6)),  # 6^-12 = 4.6e-10
    (20, 20, Fraction(1, 6)),  # 2.7e-16
    (40, 1000, Fraction(1, 100)),  # far right of the mode: 4.7e-13
    (60, 2000, Fraction(1, 200)),  # 3.5e-27
    (200, 400, Fraction(1, 5)),  # 9.1e-41
    (5, 5, Fraction(1, 30)),  # 30^-5 = 4.1e-8 (SURV-2 at a dealer of five tables)
])
def test_upper_tail_below_1e_12_matches_the_exact_sum(k: int, n: int, p: Fraction) -> None:
    """scipy's binomial tail against the exact rational sum, p-values down to 1e-40."""
    assert binomial_upper_tail(k, n, float(p)) == pytest.approx(exact_upper(k, n, p),
                                                                rel=1e-9)


def exact_stratified(cells: list[tuple[int, int, int]], t: int) -> tuple[float, float]:
    """(P(T >= t), P(T <= t)) by exact rational convolution of hypergeometric pmfs."""
    dist = {0: Fraction(1)}
    for n, c, o in cells:
        pmf = {x: Fraction(comb(o, x) * comb(n - o, c - x), comb(n, c))
               for x in range(max(0, c + o - n), min(c, o) + 1)}
        new: dict[int, Fraction] = {}
        for a, pa in dist.items():
            for b, pb in pmf.items():
                new[a + b] = new.get(a + b, Fraction(0)) + pa * pb
        dist = new
    upper = sum(v for x, v in dist.items() if x >= t)
    lower = sum(v for x, v in dist.items() if x <= t)
    return float(upper), float(lower)


@pytest.mark.parametrize(("cells", "t"), [
    ([(42, 13, 12)], 12),  # 13 / C(42,12) = 1.2e-9 (the SURV-3 fold scenario)
    ([(60, 20, 25), (40, 5, 30), (80, 40, 10)], 30),  # three strata: 9.8e-8
    ([(60, 20, 25), (40, 5, 30), (80, 40, 10)], 34),  # one short of the maximum: 1.9e-13
    ([(43, 10, 23), (43, 10, 23)], 0),  # SURV-4's lower tail, 9.3e-9
    ([(100, 50, 50), (100, 50, 50)], 100),  # 1 / C(100,50)^2 = 9.8e-59
])
def test_stratified_test_matches_exact_convolution(cells: list[tuple[int, int, int]],
                                                   t: int) -> None:
    """The stratified test (scipy's hypergeometric pmfs, numpy's convolution) against
    exact rational arithmetic, both tails, p-values far below 1e-12."""
    strata = [Stratum(n, c, o, 0) for n, c, o in cells]
    strata[0].matched = t  # only the total matters
    result = stratified_test(strata)
    upper, lower = exact_stratified(cells, t)
    assert result.upper == pytest.approx(upper, rel=1e-9)
    assert result.lower == pytest.approx(lower, rel=1e-9)


@given(st.integers(2, 40), st.data())
def test_one_stratum_is_scipy_hypergeometric(n: int, data: st.DataObject) -> None:
    """A single stratum is Fisher's one-sided exact test: scipy.stats.hypergeom.sf."""
    c = data.draw(st.integers(0, n))
    o = data.draw(st.integers(0, n))
    t = data.draw(st.integers(max(0, c + o - n), min(c, o)))
    result = stratified_test([Stratum(n, c, o, t)])
    assert result.upper == pytest.approx(float(hypergeom.sf(t - 1, n, o, c)), rel=1e-9,
                                         abs=1e-300)
    assert result.lower == pytest.approx(float(hypergeom.cdf(t, n, o, c)), rel=1e-9,
                                         abs=1e-300)


def _same_bits(ours: float, scipys: object) -> bool:
    return ours.hex() == float(scipys).hex()  # type: ignore[arg-type]


@pytest.mark.parametrize("n", [1, 2, 7, 60, 1_000, 25_000])
def test_tails_are_scipy_binoms_bit_for_bit(n: int) -> None:
    """The tails call the ufuncs ``scipy.stats.binom`` calls (stats.py: its import cost
    half a second of every start), so every result is binom's to the last bit: an alert's
    p-value is in its bytes. Across each n's whole support, from p-values of 1 down to
    about 1e-245 and to underflow (0.0)."""
    from scipy.stats import binom

    ks = sorted({0, 1, 2, n // 3, n // 2, n - 1, n} | set(range(0, n + 1, max(1, n // 40))))
    for p in (0.0, 1e-9, 0.0123, 1 / 6, 0.5, 0.97, 1.0):
        for k in ks:
            if 0 < k <= n:
                assert _same_bits(binomial_upper_tail(k, n, p), binom.sf(k - 1, n, p)), (k, n, p)
            if 0 <= k < n:
                assert _same_bits(binomial_lower_tail(k, n, p), binom.cdf(k, n, p)), (k, n, p)


@given(st.integers(0, 50_000), st.integers(1, 50_000), st.floats(0, 1))
def test_tails_are_scipy_binoms_for_drawn_arguments(k: int, n: int, p: float) -> None:
    """The same for hypothesis-drawn counts and probabilities (any float in [0, 1])."""
    from scipy.stats import binom

    k = min(k, n)
    if k > 0:
        assert _same_bits(binomial_upper_tail(k, n, p), binom.sf(k - 1, n, p))
    if k < n:
        assert _same_bits(binomial_lower_tail(k, n, p), binom.cdf(k, n, p))
