"""HCF-11 as the rule book fixes it (issue #20), and a table that settles out of HCF-5
order: the findings cite HCF-5 and HCF-11, the rules the table broke.

One hand throughout, computed by hand. DP seat 1 (the button) has 50 chips; rake mode
``all``, fee 2. HCF-5 order (counter-clockwise from the right of the button): 5, 4, 3, 2.
- Seat 2 antes 10 and folds.
- Seat 3 antes 10, raises 10 (a 3-card flush allows 1x), loses to the DP: -20.
- Seat 4 antes 4, raises 4 (a 4-card flush allows 1x), beats the DP: wins 8.
- Seat 5 antes 13, raises 39 (a 6-card flush allows 3x), beats the DP: wins 52.
HCF-11: the funds start at the DP's stack less the most rake it can owe (mode all: one
fee): 50 - 2 = 48; seat 2's folded Ante joins them when it folds: 58. Then in HCF-5 order:
seat 5's 52 <= 58, paid: 6 left; seat 4's 8 > 6: its hand is dead (every wager back,
nothing paid, no rake); seat 3 loses 20: 26.
HCF-12: participants are the Antes not dead: seats 2, 3, 5 pay 2 each, and so does the DP.
Nets: seat 2 -10 - 2 = -12; seat 3 -20 - 2 = -22; seat 4 0; seat 5 +52 - 2 = +50;
DP -52 + 20 + 10 - 2 = -24; house 8 (sum 0).
"""

from __future__ import annotations

from typing import Any

from services.events.contract import AdjudicationRecord
from services.games.hcf import adjudicate as hcf
from services.games.profile import RuleProfile
from tests.profiles import HOUSE
from tests.unit.hcf.scenario import (
    adjudicate,
    collect,
    config,
    deal,
    ended,
    fold,
    hand,
    net,
    pay,
    raise_,
    rake,
    show,
    started,
    wager,
)

DP = "9h 5h 2h 7c 4c 3d 6s"  # hearts 9-5-2: a qualifying three-card flush
FOLDER = "Kd Jd Td 2d 5c 3c 2c"
LOSER = "8s 7s 4s 8h 7h 4h Tc"  # best flush 8-7-4: loses to 9-5-2
FOUR_FLUSH = "Ks Qs Js 3s Kh Qh Jc"  # four spades: beats any three-card flush
SIX_FLUSH = "Ad Qd 9d 8d 6d 5d Ac"  # six diamonds
CARDS = {1: DP, 2: FOLDER, 3: LOSER, 4: FOUR_FLUSH, 5: SIX_FLUSH}


def play(*settlement: Any) -> list[Any]:
    """The hand up to the DP's showdown, then the table's settlement as given."""
    return [started(1, {1: 50, 2: 100, 3: 100, 4: 100, 5: 100}),
            wager(2, "ante", 10), wager(3, "ante", 10), wager(4, "ante", 4),
            wager(5, "ante", 13), deal(CARDS, dp=1),
            fold(2), collect(2, "ante", 10), raise_(3, 10), raise_(4, 4), raise_(5, 39),
            show(1, DP), show(3, LOSER), show(4, FOUR_FLUSH), show(5, SIX_FLUSH),
            *settlement, ended()]


IN_HCF5_ORDER = [pay(5, 52), collect(3, "ante", 10), collect(3, "raise", 10),
                 rake(2, 2), rake(3, 2), rake(5, 2), rake(1, 2)]
# The table settles seat 4 first (8 paid: funds 58 -> 50), then seat 5 (52 > 50: dead),
# then seat 3; it rakes the Antes it did not kill: seats 2, 3, 4 and the DP.
IN_ORDER_4_5_3 = [pay(4, 8), collect(3, "ante", 10), collect(3, "raise", 10),
                  rake(2, 2), rake(3, 2), rake(4, 2), rake(1, 2)]


def record(settlement: list[Any]) -> AdjudicationRecord:
    return adjudicate(config(mode="all", fee=2), *play(*settlement))


def test_dp_bankroll_as_the_rule_book_fixes_it() -> None:
    result = record(IN_HCF5_ORDER)
    assert net(result) == {"1": -24, "2": -12, "3": -22, "4": 0, "5": 50, "house": 8}
    assert result.expected is not None
    assert result.expected.rake == {"1": 2, "2": 2, "3": 2, "5": 2}
    assert result.status == "ok", result.findings


def test_each_part_of_the_funds_decides_seat_4() -> None:
    """Without the rake reserve the funds are 50 + 10 = 60: seat 5 -> 8 left, seat 4's 8
    paid. With the folded Ante joining only in its HCF-5 turn (last), the funds are 48 at
    seat 5: 52 > 48, seat 5's hand is dead, and seat 4's 8 is paid from 48."""
    parts = hand(config(mode="all", fee=2), *play())
    assert hcf.adjudicate(parts, HOUSE).net[4] == 0
    no_reserve = hcf.adjudicate(parts, _variant(dp_funds_reserve_rake=False))
    assert (no_reserve.net[4], no_reserve.net[5]) == (8 - 2, 52 - 2)
    in_order = hcf.adjudicate(parts, _variant(folded_wagers_join_funds="in_order"))
    assert (in_order.net[4], in_order.net[5]) == (8 - 2, 0)


def test_settled_out_of_order_cites_hcf5_and_hcf11() -> None:
    """Settled 4, 5, 3 the DP's funds run out at seat 5, which the table called dead: seat
    5 recorded 0 against +52 (underpaid by 52) and seat 4 +8 against 0. The MISPAYs cite
    HCF-11 (the bankroll decision that went wrong), SETTLEMENT_ORDER cites HCF-5 (the
    order that made it go wrong); seat 5's fee is RAKE_UNDER, seat 4's RAKE_OVER (HCF-12)."""
    result = record(IN_ORDER_4_5_3)
    found = {(f.code, f.seat): f for f in result.findings}
    assert (found[("MISPAY", 5)].rule, found[("MISPAY", 5)].amount) == ("HCF-11", -52)
    assert (found[("MISPAY", 4)].rule, found[("MISPAY", 4)].amount) == ("HCF-11", 8)
    assert found[("MISPAY", 1)].rule == "HCF-11"
    order = found[("SETTLEMENT_ORDER", None)]
    assert order.rule == "HCF-5" and "[4, 5, 3]" in order.message
    assert (found[("RAKE_UNDER", 5)].amount, found[("RAKE_OVER", 4)].amount) == (-2, 2)


def test_an_error_that_no_order_explains_keeps_the_payout_rule() -> None:
    """Seat 5 paid 50 instead of 52, everything else right: no order of settlement gives
    that, so the MISPAY cites HCF-7 (the comparison) and nothing cites HCF-5."""
    result = record([pay(5, 50), *IN_HCF5_ORDER[1:]])
    assert [(f.code, f.rule, f.seat, f.amount) for f in result.findings] == [
        ("MISPAY", "HCF-7", 1, 2), ("MISPAY", "HCF-7", 5, -2)]


def _variant(**fields: Any) -> RuleProfile:
    sections = {name: dict(body) for name, body in HOUSE.sections.items()}
    sections["hcf"].update(fields)
    return RuleProfile("variant", sections)
