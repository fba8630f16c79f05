"""HCF-5 as the table applied it: a settlement made in another order than HCF-5's.

HCF-5 settles the players one by one counter-clockwise from the right of the button, and
"this order matters for HCF-11": the DP's funds change after every player, so a table
that settles in another order can make the wrong player's hand dead (or pay the one the
DP could no longer cover). The MISPAY of such a seat would otherwise cite only the payout
rule of that seat (HCF-7), which is not the rule the table broke.

So when the recorded results differ from the rules' and the DP could not have covered
every winner (the order can matter), the players are settled again in the other orders
(at most ``MAX_PLAYERS`` players, 5,040 orders); if one reproduces exactly what the table
recorded, the table settled in that order: ``SETTLEMENT_ORDER`` cites HCF-5, and the
seats whose bankroll decision the order changed cite HCF-11 in their MISPAY.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from itertools import permutations

from services.events.contract import Finding, Severity
from services.games.hcf.procedure import SeatPlay
from services.games.hcf.reading import RecordedSeat
from services.games.hcf.settlement import Settlement
from services.games.model import finding

MAX_PLAYERS = 7  # 7! = 5,040 settlements at most, and only for a hand in dispute


@dataclass(frozen=True)
class TableOrder:
    """The order the table's results correspond to, and the seats it settled wrongly."""

    order: tuple[int, ...]
    seats: tuple[int, ...]


def recorded_delta(rec: RecordedSeat) -> int:
    """The seat's recorded result before rake, as the settlement's ``delta`` counts it."""
    return rec.win_paid + rec.bonus_paid + rec.other_paid - sum(rec.collected.values())


def table_order(plays: list[SeatPlay], expected: Settlement,
                recorded: Mapping[int, RecordedSeat],
                settle_in: Callable[[list[SeatPlay]], Settlement]) -> TableOrder | None:
    """The other order whose settlement is exactly what the table recorded, or None.

    ``plays``: in HCF-5 order; ``settle_in``: the settlement of the plays in a given order
    (everything else as posted)."""
    empty = RecordedSeat()
    got = {p.seat: recorded_delta(recorded.get(p.seat, empty)) for p in plays}
    wrong = tuple(s.seat for s in expected.seats if got[s.seat] != s.delta)
    live = [i for i, p in enumerate(plays) if not p.folded]
    if (not wrong or expected.winnings <= expected.funds_at_start
            or len(live) > MAX_PLAYERS):
        return None
    for candidate in permutations(plays[i] for i in live):
        if [p.seat for p in candidate] == [plays[i].seat for i in live]:
            continue
        ordered = list(plays)  # folded players keep their places (their wagers are swept)
        for place, play in zip(live, candidate, strict=True):
            ordered[place] = play
        alt = settle_in(ordered)
        if all(s.delta == got[s.seat] for s in alt.seats):
            return TableOrder(tuple(p.seat for p in candidate), wrong)
    return None


def order_finding(found: TableOrder, plays: list[SeatPlay], severity: Severity) -> Finding:
    """SETTLEMENT_ORDER (HCF-5): the order the table's results correspond to."""
    seats = ", ".join(map(str, found.seats))
    hcf5 = [p.seat for p in plays if not p.folded]
    return finding(
        "SETTLEMENT_ORDER", "HCF-5", severity,
        f"the table's results are the settlement of the players in the order "
        f"{list(found.order)}, not HCF-5's {hcf5} (counter-clockwise from the right of "
        f"the button); in that order the DP's funds (HCF-11) gave seat(s) {seats} the "
        "wrong result")
