"""Repeated looks at one instance: an alpha-spending rule, so that testing a pattern again
each time its count grows does not make a false alert likelier with every hand.

The problem: an instance (a dealer and a player, a pair, a player's decisions) is
re-tested as its count grows. Testing every count at the same threshold ``alpha`` gives
an honest instance a fresh chance to cross at each look, so over a long session its
chance of a false alert is far above ``alpha``.

The rule: an instance is looked at only when its count reaches the next point of a
geometric grid, ``c_0 = min_count`` and ``c_{j+1} = ceil(c_j * (100 + growth_percent) /
100)`` (at least ``c_j + 1``); at look ``j`` it is tested at ``alpha_j = alpha * 6 /
(pi^2 (j + 1)^2)``. The ``alpha_j`` sum to ``alpha`` (sum of 1/k^2 = pi^2/6), so by the
union bound an honest instance alerts, over *all* its looks, with probability at most
``alpha``, however long it is watched. A count that jumps past several grid points is
tested once, at the last of them (the budget of the points skipped is not used, which
only makes the bound looser). The grid is geometric so the number of looks grows with
the logarithm of the count: from ``min_count`` 5, an instance whose count has grown one
by one to 1,000 has had 13 looks at 50% growth (the house profile's), its last threshold
``alpha / 278``, and 23 at 25% growth, ``alpha / 870``.

Why alpha spending, not Benjamini-Hochberg over each review (docs/surveillance.md,
"Multiplicity"): an alert names people, so the error that matters is any false alert
(the family-wise rate), not the share of false alerts among many; and BH decides an
instance by the other instances' p-values, so an alert on one table would appear or
vanish with the data of other tables, which the engine's tables-are-independent property
forbids. Across instances, the profile's ``p_value`` is the per-instance budget: about
``alpha_family / instances`` (Bonferroni), see the profile's comment.
"""

from __future__ import annotations

import math
from collections.abc import Hashable


def grid_point(min_count: int, growth_percent: int, index: int) -> int:
    """``c_index`` of the look grid."""
    point = min_count
    for _ in range(index):
        point = max(point + 1, -(-point * (100 + growth_percent) // 100))
    return point


def spent(alpha: float, look: int) -> float:
    """The threshold of look ``look`` (0-based): ``alpha * 6 / (pi^2 (look + 1)^2)``."""
    return alpha * 6.0 / (math.pi ** 2 * (look + 1) ** 2)


class Looks:
    """Which grid point each instance was last looked at (state of the whole run)."""

    def __init__(self, growth_percent: int) -> None:
        if growth_percent < 1:
            raise ValueError("looks.growth_percent must be at least 1")
        self.growth = growth_percent
        self.last: dict[Hashable, int] = {}

    def look(self, instance: Hashable, min_count: int, count: int) -> int | None:
        """The look index due now for ``instance`` at ``count`` (and record it as taken),
        or None: below ``min_count``, or no new grid point reached since the last look."""
        if count < min_count:
            return None
        index, point = -1, min_count
        while point <= count:
            index += 1
            point = max(point + 1, -(-point * (100 + self.growth) // 100))
        if index <= self.last.get(instance, -1):
            return None
        self.last[instance] = index
        return index
