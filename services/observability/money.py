"""A hand's money as the daily report and the ledger count it, for the metrics.

Why here and not summed movement by movement in the metrics: Grafana's money panels must
show, for the same hands, the figures of the daily report, ``pitwatch ledger totals`` and
the console's floor (QA: HCF rake 1,232 in Grafana against 1,226 in the report; the drop
of HCF and hold'em a hundred-odd chips apart). What a movement means (a dead hand's
wagers are not drop nor its refunds payouts, rake is net of refunds, chips between
players apart) is decided once, in ``services.ledger.money.hand_money``, which the daily
report reads too; this module only counts its figures.

Which hands count is the other half: the ledger books no chips of a hand it refuses
(``LEDGER_REFUSED``), the report leaves them out of its money, and so do the booked-money
metrics (``LedgerMetrics``); the adjudicator's metrics count every adjudicated hand, as
they are produced, before any booking (docs/pipeline.md, "Metrics").

Also apart, as in the report: chips one seat's stack paid another's directly
(``collection`` from seat to seat: Chinese Poker's points, a banking player's
collections), "between players", are not chips collected by the house or a banker.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from prometheus_client import CollectorRegistry, Counter

from services.ledger.money import MovementLike, hand_money


@dataclass(frozen=True)
class HandChips:
    """One hand's chips as the money metrics count them (each >= 0): the fields of
    ``services.ledger.money.HandMoney`` that have a counter, rake net of refunds."""

    drop: int = 0
    payouts: int = 0
    rake: int = 0
    collected: int = 0
    between: int = 0


def hand_chips(status: str, movements: Sequence[MovementLike] | None) -> HandChips:
    """The chips of a hand of ``status`` whose recorded movements are ``movements``."""
    money = hand_money(status, movements)
    return HandChips(money.drop, money.payouts, max(money.rake, 0), money.collected,
                     money.between)


class MoneyCounters:
    """Counters of ``HandChips`` by game and posted rake mode, one per field named in
    ``helps`` (field -> (metric name, help text)); a hand's series exist from its first
    observation on, at zero for what it did not move."""

    def __init__(self, helps: dict[str, tuple[str, str]], registry: CollectorRegistry) -> None:
        self.counters = {field: Counter(name, text, ["game", "rake_mode"], registry=registry)
                         for field, (name, text) in helps.items()}
        self._children: dict[tuple[str, str, str], Counter] = {}

    def observe(self, game: str, mode: str, chips: HandChips) -> None:
        self._add(game, mode, {field: getattr(chips, field) for field in self.counters})

    def observe_many(self, hands: Iterable[tuple[str, str, HandChips]]) -> None:
        """Many hands (game, mode, chips), summed first: one increment per series, not
        per hand (the ledger service observes every batch it posts)."""
        sums: dict[tuple[str, str], dict[str, int]] = {}
        for game, mode, chips in hands:
            total = sums.get((game, mode))
            if total is None:
                total = sums[(game, mode)] = dict.fromkeys(self.counters, 0)
            for field in total:
                total[field] += getattr(chips, field)
        for (game, mode), total in sums.items():
            self._add(game, mode, total)

    def _add(self, game: str, mode: str, amounts: dict[str, int]) -> None:
        for field, amount in amounts.items():
            key = (field, game, mode)
            child = self._children.get(key)
            if child is None:
                child = self._children[key] = self.counters[field].labels(game, mode)
            if amount:
                child.inc(amount)
