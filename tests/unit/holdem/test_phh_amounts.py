"""Exact chip arithmetic on a PHH source's decimal amounts (``phh_amounts``)."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from services.importers.phh import unsafe_chips
from services.importers.phh_amounts import scaled, total, whole_at
from services.importers.phh_hand import PhhHand


def test_the_last_of_many_digits_counts() -> None:
    """Decimal's own ``*`` and ``sum`` round to 28 significant digits."""
    stack = Decimal("100.00000000000000000000000000001")
    assert stack * 1 == 100  # what the importer once took for a whole stack
    assert not whole_at([stack], 1) and not whole_at([stack], 100)
    assert scaled(stack, 100) == Decimal("10000.000000000000000000000000001")
    parts = [Decimal("1E+30"), Decimal("1"), Decimal("-1E+30")]
    assert sum(parts) == 0 and total(parts) == 1


def test_halves_and_cents() -> None:
    assert whole_at([Decimal("0.5"), Decimal("3")], 2) and not whole_at([Decimal("0.5")], 1)
    assert whole_at([Decimal("0.01"), Decimal("12.34")], 100)
    assert not whole_at([Decimal("0.001")], 100)
    assert not whole_at([Decimal("inf")], 1) and not whole_at([Decimal("NaN")], 1)


def test_extreme_exponents_are_decided_without_building_them() -> None:
    """``1e999999999`` is whole at any scale and ``1e-999999999`` at none; the products
    are Decimal's (a digit string and an exponent), never a billion-digit integer."""
    assert whole_at([Decimal("1e999999999")], 100)
    assert not whole_at([Decimal("1e-999999999")], 100)


@given(st.integers(-10**40, 10**40), st.integers(0, 45), st.integers(1, 100))
def test_whole_exactly_when_the_integers_say_so(mantissa: int, places: int, scale: int) -> None:
    """``mantissa / 10^places`` times ``scale`` is whole iff ``mantissa x scale`` is a
    multiple of ``10^places``: integer arithmetic, which never rounds."""
    value = Decimal(f"{mantissa}e-{places}")  # exact (scaleb would round to 28 digits)
    assert whole_at([value], scale) == ((mantissa * scale) % 10**places == 0)


def test_chips_beyond_exact_json_integers_are_named_not_rounded() -> None:
    base = dict(variant="NT", players=("a", "b"), finishing=None, winnings=None,
                antes=(Decimal(0), Decimal(0)), blinds=(Decimal(1), Decimal(2)), min_bet=None,
                small_bet=None, big_bet=None, actions=(), seats=None, number=None,
                label=None, table=None, venue=None)
    over = PhhHand(starting=(Decimal("9007199254740991"), Decimal("1e-40")), **base)  # type: ignore[arg-type]
    assert unsafe_chips(over, 1) is not None
