"""A PHH source's amounts as chips, exactly.

PHH writes amounts as decimal numbers (``0.5``, ``1.25``), and the importer multiplies
each by its table's scale to count whole chips. Decimal arithmetic rounds every result
to its context's precision (28 significant digits by default), so ``value * scale`` is
not always the product: a stack written ``100.00000000000000000000000000001`` came out
a whole 100 chips, the source's last digit dropped without a word, where no scale makes
it whole and the hand must be skipped with that reason. Every product here is taken in
a context that cannot round (the largest precision and exponent range the decimal module
has: the product of two exact values is exact there), and a number that is not one
(``inf``, ``NaN``) is never whole.
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import MAX_EMAX, MAX_PREC, MIN_EMIN, Context, Decimal

_EXACT = Context(prec=MAX_PREC, Emax=MAX_EMAX, Emin=MIN_EMIN)


def scaled(value: Decimal, scale: int) -> Decimal:
    """``value`` times ``scale``, exactly."""
    return _EXACT.multiply(value, scale)


def is_whole(value: Decimal) -> bool:
    return value.is_finite() and value == value.to_integral_value()


def whole_at(amounts: Iterable[Decimal], scale: int) -> bool:
    """Whether every amount times ``scale`` is a whole number of chips."""
    return all(is_whole(scaled(a, scale)) for a in amounts)


def total(amounts: Iterable[Decimal]) -> Decimal:
    """The sum, exactly (``sum`` rounds each step to 28 digits)."""
    result = Decimal(0)
    for amount in amounts:
        result = _EXACT.add(result, amount)
    return result
