"""Alert once per pattern instance; again only when its evidence has grown materially.

An instance is what a pattern is about (a dealer and a player for SURV-2, a dealer and a
kind for SURV-8 ...). Re-alerting every hand after the threshold would bury the floor in
copies; never re-alerting would hide a pattern that keeps going. The rule: alert again
when the instance's count reaches ``(100 + realert_growth_percent)`` percent of the count
at its last alert (100: the evidence doubled since the floor was last told).
"""

from __future__ import annotations

from collections.abc import Hashable


class AlertGate:
    def __init__(self, realert_growth_percent: int) -> None:
        self.growth = realert_growth_percent
        self.alerted_at: dict[Hashable, int] = {}

    def due(self, instance: Hashable, count: int) -> bool:
        """Whether an instance that now crosses its threshold with ``count`` is news."""
        last = self.alerted_at.get(instance)
        return last is None or count * 100 >= last * (100 + self.growth)

    def fired(self, instance: Hashable, count: int) -> None:
        self.alerted_at[instance] = count

    def previous(self, instance: Hashable) -> int | None:
        return self.alerted_at.get(instance)
