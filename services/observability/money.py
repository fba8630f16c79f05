"""A hand's money as the daily report and the ledger count it, for the metrics.

Why here and not summed movement by movement in the metrics: Grafana's money panels must
show, for the same hands, the figures of the daily report, ``pitwatch ledger totals`` and
the console's floor (QA: HCF rake 1,232 in Grafana against 1,226 in the report; the drop
of HCF and hold'em a hundred-odd chips apart). They differed in two ways, both settled
here for the adjudicator's metrics and for the ledger's booked-money metrics alike:

* a dead hand (GEN-6 / HCF-13) has no drop and no payouts: its wagers all went back
  (``services.ledger.queries.counts_as_drop``, the ledger's one definition of drop, which
  the report, the floor and ``ledger totals`` share); the refunds are not payouts;
* rake is the house's fee net of what it gave back (``rake`` minus ``rake_refund``,
  HCF-12): a dead hand whose rake was refunded paid none. A refund is never larger than
  the rake its seat paid in the same hand (services/adjudicator/recorded.py
  ``_refund_rake``), so a hand's net rake is never negative and a counter can hold it.

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
from typing import Final

from prometheus_client import CollectorRegistry, Counter

from services.ledger.queries import NOT_PLAYED_OUT, counts_as_drop
from services.observability.views import MovementLike

# Movement kinds (services/adjudicator/recorded.py, events.md "How chips move").
PAYOUT_KIND: Final = "payout"
COLLECTED_KINDS: Final = frozenset({"wager_collected", "collection"})
RAKE_KIND: Final = "rake"
RAKE_REFUND_KIND: Final = "rake_refund"


@dataclass(frozen=True)
class HandChips:
    """One hand's chips by what they mean (each >= 0).

    ``drop``: wagers and bets, not in a dead hand. ``payouts``: payouts, not in a dead
    hand. ``rake``: rake minus rake refunds. ``collected``: losing wagers and collections
    taken by the banker (the house, or the banking player's stack from a layout).
    ``between``: collections from one seat's stack to another's (Chinese Poker).
    """

    drop: int = 0
    payouts: int = 0
    rake: int = 0
    collected: int = 0
    between: int = 0


def _stack(account: str) -> bool:
    return account.startswith("stack:")


def hand_chips(status: str, movements: Sequence[MovementLike] | None) -> HandChips:
    """The chips of a hand of ``status`` whose recorded movements are ``movements``."""
    drop = payouts = rake = collected = between = 0
    played_out = status != NOT_PLAYED_OUT
    for m in movements or ():
        kind = m.kind
        if counts_as_drop(kind, status):
            drop += m.amount
        elif kind == PAYOUT_KIND:
            if played_out:
                payouts += m.amount
        elif kind in COLLECTED_KINDS:
            if _stack(m.from_) and _stack(m.to):
                between += m.amount
            else:
                collected += m.amount
        elif kind == RAKE_KIND:
            rake += m.amount
        elif kind == RAKE_REFUND_KIND:
            rake -= m.amount
    return HandChips(drop, payouts, max(rake, 0), collected, between)


class MoneyCounters:
    """Counters of ``HandChips`` by game and posted rake mode, one per field named in
    ``helps`` (field -> (metric name, help text)); a hand's series exist from its first
    observation on, at zero for what it did not move."""

    def __init__(self, helps: dict[str, tuple[str, str]], registry: CollectorRegistry) -> None:
        self.counters = {field: Counter(name, text, ["game", "rake_mode"], registry=registry)
                         for field, (name, text) in helps.items()}
        self._children: dict[tuple[str, str, str], Counter] = {}

    def observe(self, game: str, mode: str, chips: HandChips) -> None:
        for field, counter in self.counters.items():
            key = (field, game, mode)
            child = self._children.get(key)
            if child is None:
                child = self._children[key] = counter.labels(game, mode)
            amount: int = getattr(chips, field)
            if amount:
                child.inc(amount)

    def observe_many(self, hands: Iterable[tuple[str, str, HandChips]]) -> None:
        """Many hands (game, mode, chips), summed first: one increment per series, not
        per hand (the ledger service observes every batch it posts)."""
        sums: dict[tuple[str, str], list[int]] = {}
        for game, mode, chips in hands:
            total = sums.get((game, mode))
            if total is None:
                total = sums[(game, mode)] = [0, 0, 0, 0, 0]
            total[0] += chips.drop
            total[1] += chips.payouts
            total[2] += chips.rake
            total[3] += chips.collected
            total[4] += chips.between
        for (game, mode), total in sums.items():
            self.observe(game, mode, HandChips(*total))
