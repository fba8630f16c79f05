"""A hand's money by what it means: the one reading of its movements that the daily
report, the console's floor and the Prometheus money metrics share.

Why one function: the daily report and the metrics each read a hand's movements into
drop, payouts, rake and so on in their own loop (``hand_money`` in the report,
``hand_chips`` in the metrics), two copies of the same rules that had to be kept in step
by hand (a review found them; the money QA before it had found the report and Grafana a
few chips apart when one copy counted a dead hand and the other did not). Each rule is
here once:

* **drop** is ``counts_as_drop`` (wagers and bets of a hand that was played out); a dead
  hand's (GEN-6 / HCF-13) wagers went back to their players: ``returned``, not drop;
* **payouts** are payout movements of a hand that was played out; a dead hand's are its
  refunds: ``returned_paid``, not payouts;
* **rake** is the house's fee net of what it gave back (``rake`` minus ``rake_refund``,
  HCF-12); ``pot_rake`` is the part of it taken from a pot;
* **bank** is the house bank's net: chips to ``house`` minus chips from it, rake apart;
* **between** is chips paid from one seat's stack straight to another's (Chinese Poker's
  points, a banking player's collections): play between players, not the house's;
* **collected** is losing wagers and collections taken by the banker (the house, or the
  banking player's stack from a layout): not between players.

Movement kinds and accounts are the event contract's (events.md, "How chips move").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Protocol

from services.ledger.queries import DROP_KINDS, NOT_PLAYED_OUT, counts_as_drop

PAYOUT_KIND: Final = "payout"
COLLECTED_KINDS: Final = frozenset({"wager_collected", "collection"})
RAKE_KIND: Final = "rake"
RAKE_REFUND_KIND: Final = "rake_refund"
HOUSE: Final = "house"
POT: Final = "pot"


class MovementLike(Protocol):
    """A recorded chip movement: the contract's ``Movement``, or a lighter view of one
    decoded from a topic (the pipeline's metrics)."""

    @property
    def amount(self) -> int: ...
    @property
    def kind(self) -> str: ...
    @property
    def from_(self) -> str: ...
    @property
    def to(self) -> str: ...


@dataclass(frozen=True)
class HandMoney:
    """One hand's chips by what they mean (module docstring); ``rake`` may be read net of
    refunds as it stands (a refund is never larger than the rake its seat paid in the same
    hand: services/adjudicator/recorded.py ``_refund_rake``)."""

    drop: int
    payouts: int
    rake: int
    bank: int
    between: int = 0
    returned: int = 0
    returned_paid: int = 0
    pot_rake: int = 0
    collected: int = 0


def _stack(account: str) -> bool:
    return account.startswith("stack:")


def hand_money(status: str, movements: Sequence[MovementLike] | None) -> HandMoney:
    """The money of a hand of ``status`` whose recorded movements are ``movements``."""
    drop = payouts = rake = bank = between = returned = pot_rake = collected = 0
    for m in movements or ():
        kind = m.kind
        if counts_as_drop(kind, status):
            drop += m.amount
        elif kind in DROP_KINDS:  # a dead hand's: returned to its players
            returned += m.amount
        elif kind == PAYOUT_KIND:
            payouts += m.amount
        elif _stack(m.from_) and _stack(m.to):
            between += m.amount
        elif kind in COLLECTED_KINDS:
            collected += m.amount
        if kind == RAKE_KIND:
            rake += m.amount
            if m.from_ == POT:
                pot_rake += m.amount
        elif kind == RAKE_REFUND_KIND:
            rake -= m.amount
        elif m.to == HOUSE:
            bank += m.amount
        elif m.from_ == HOUSE:
            bank -= m.amount
    if status == NOT_PLAYED_OUT:  # its refunds are not payouts, as its wagers are not drop
        return HandMoney(drop, 0, rake, bank, between, returned, payouts, pot_rake, collected)
    return HandMoney(drop, payouts, rake, bank, between, returned, 0, pot_rake, collected)
