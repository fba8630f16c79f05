"""Hold % as an exact fraction rendered with fixed decimals (no float anywhere)."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

from hypothesis import given
from hypothesis import strategies as st

from services.reports.day_figures import percent


def test_hand_computed_values() -> None:
    """1/8 = 12.5 % -> "12.50"; 2/3 = 66.666.. % -> "66.67"; 1/3 -> "33.33";
    384/6924 = 5.5459.. % -> "5.55", negative keeps its sign; 1/16 = 6.25 % exactly."""
    assert percent(1, 8) == "12.50"
    assert percent(2, 3) == "66.67"
    assert percent(1, 3) == "33.33"
    assert percent(-384, 6924) == "-5.55"
    assert percent(1, 16) == "6.25"
    assert percent(0, 5) == "0.00"


def test_half_rounds_away_from_zero() -> None:
    """1/8 = 12.5 % at 0 places -> 13; 1/800 = 0.125 % at 2 places -> 0.13; and -0.13."""
    assert percent(1, 8, places=0) == "13"
    assert percent(1, 800) == "0.13"
    assert percent(-1, 800) == "-0.13"


def test_no_drop_has_no_hold() -> None:
    assert percent(5, 0) == "n/a"


@given(st.integers(-10**12, 10**12), st.integers(1, 10**12))
def test_matches_decimal_arithmetic(win: int, drop: int) -> None:
    """Same digits as Decimal with enough precision, quantized half-up (= away from 0)."""
    from decimal import localcontext

    with localcontext() as ctx:
        ctx.prec = 60
        expected = (Decimal(win) * 100 / Decimal(drop)).quantize(Decimal("0.01"),
                                                                  rounding=ROUND_HALF_UP)
    text = percent(win, drop)
    assert Decimal(text) == expected
    assert text.count(".") == 1 and len(text.split(".")[1]) == 2
