"""HCF-11 DP bankroll (settled counter-clockwise; a player the DP cannot cover has a dead
hand) and HCF-12 rake modes."""

from __future__ import annotations

from typing import Any

from services.games.hcf import adjudicate as hcf
from services.games.profile import RuleProfile
from tests.profiles import HOUSE
from tests.unit.hcf.scenario import (
    adjudicate,
    codes,
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

DP_9_HIGH = "9h 5h 2h 7c 4c 3d 6s"  # hearts 9-5-2: qualifies
P4_LOSES = "8s 7s 2s Kd Qc Jd Tc"  # spades 8-7-2 < 9-5-2
P3_SIX = "Ad Qd 9d 8d 6d 5d Ac"  # 6 diamonds: raise cap 30
P2_FIVE = "Kc Jc 9c 8c 6c Ah Kh"  # 5 clubs: raise cap 20
CARDS = {1: DP_9_HIGH, 2: P2_FIVE, 3: P3_SIX, 4: P4_LOSES}


def short_dp_parts(p2_settlement: list[Any], fee_p2: int = 0) -> list[Any]:
    parts = [
        started(1, {1: 40, 2: 100, 3: 100, 4: 100}),
        wager(2, "ante", 10), wager(3, "ante", 10), wager(4, "ante", 10),
        deal(CARDS, dp=1),
        raise_(2, 20), raise_(3, 30), raise_(4, 10),
        show(1, DP_9_HIGH),
        show(4, P4_LOSES), collect(4, "ante", 10), collect(4, "raise", 10),
        show(3, P3_SIX), pay(3, 40),
        show(2, P2_FIVE), p2_settlement,
        rake(4, 1), rake(3, 1)]
    if fee_p2:
        parts.append(rake(2, fee_p2))
    parts.append(ended())
    return parts


def test_dp_funds_run_out_mid_settlement() -> None:
    """HCF-5/HCF-11, rake mode players, fee 1. DP seat 1 has 40 chips. Order: 4, 3, 2.
    Seat 4 (8-7-2) loses Ante 10 + Raise 10: DP funds 40 -> 60.
    Seat 3 (6 diamonds) wins Ante 10 + Raise 30 = 40 <= 60: paid, funds 60 -> 20.
    Seat 2 (5 clubs) would win Ante 10 + Raise 20 = 30 > 20: dead hand, every wager back,
    nothing paid, no rake.
    Rake: seats 4 and 3 pay 1 each; seat 2 none. Nets: seat 4 -20 -1 = -21, seat 3
    +40 -1 = +39, seat 2 0, DP +20 -40 = -20, house +2 (sum 0)."""
    record = adjudicate(config(mode="players", fee=1), *short_dp_parts([]))
    assert net(record) == {"1": -20, "2": 0, "3": 39, "4": -21, "house": 2}
    assert record.expected is not None and record.expected.rake == {"3": 1, "4": 1}
    assert record.status == "ok", record.findings


def test_dead_seat_paid_anyway_is_a_mispay_citing_hcf_11() -> None:
    """HCF-11. The table paid seat 2 its 30 (and raked it 1) although the DP had only 20
    left: seat 2 recorded +30 before rake, expected 0 -> MISPAY +30 citing HCF-11; the
    rake of 1 on a dead seat is RAKE_OVER (HCF-12)."""
    record = adjudicate(config(mode="players", fee=1), *short_dp_parts(pay(2, 30), fee_p2=1))
    findings = {(f.code, f.seat): f for f in record.findings}
    assert findings[("MISPAY", 2)].rule == "HCF-11"
    assert findings[("MISPAY", 2)].amount == 30
    assert findings[("RAKE_OVER", 2)].rule == "HCF-12"


def test_dead_seat_trace_shows_funds_before_and_after() -> None:
    """The trace walks HCF-11 in order: funds 40 -> 60 -> 20, then seat 2's 30 > 20."""
    outcome = hcf.adjudicate(hand(config(mode="players", fee=1), *short_dp_parts([])),
                             HOUSE)
    steps = [s for s in outcome.trace if s.seat in (2, 3, 4)]
    assert [s.seat for s in steps] == [4, 3, 2]
    assert "40 -> 60" in steps[0].message and "60 -> 20" in steps[1].message
    assert steps[2].rule == "HCF-11" and "exceed" in steps[2].message
    assert outcome.seat_rules[2] == "HCF-11"
    assert outcome.rake == {3: 1, 4: 1}


def test_pay_to_extent_reading() -> None:
    """HCF-11 with ``dp_short_funds = "pay_to_extent"``: seat 2 is paid the 20 the DP has
    left instead of 30 (and is counted for rake). Seat 2 +20 -1 = 19, DP +20 -40 -20 = -40."""
    base = HOUSE
    profile = RuleProfile("variant", {**base.sections, "hcf": {
        **base.sections["hcf"], "dp_short_funds": "pay_to_extent"}})
    outcome = hcf.adjudicate(hand(config(mode="players", fee=1), *short_dp_parts([])), profile)
    assert outcome.net == {1: -40, 2: 19, 3: 39, 4: -21}
    assert outcome.house == 3


# ---------------------------------------------------------------- HCF-12 rake modes

P2_FOLDS = "8s 7s 2s Kd Qc Jd Tc"
P3_WINS = "As Ks 9s 5d 4d 3c 2c"


def rake_hand(mode: str, rakes: list[tuple[int, int]]) -> Any:
    """Seat 2 folds (Ante 10 to the DP); seat 3 wins Ante 10 + Raise 10 = 20 against the
    qualifying DP. Before rake: seat 2 -10, seat 3 +20, DP -10."""
    parts = [
        started(1, {1: 500, 2: 100, 3: 100}),
        wager(2, "ante", 10), wager(3, "ante", 10),
        deal({1: DP_9_HIGH, 2: P2_FOLDS, 3: P3_WINS}, dp=1),
        fold(2), collect(2, "ante", 10), raise_(3, 10),
        show(1, DP_9_HIGH), show(3, P3_WINS), pay(3, 20)]
    parts += [rake(seat, amount) for seat, amount in rakes]
    parts.append(ended())
    return adjudicate(config(mode=mode, fee=2), *parts)


def test_rake_mode_all() -> None:
    """HCF-12 `all`, fee 2: both participants (the folded seat 2 counts) and the DP pay 2.
    Nets: seat 2 -12, seat 3 +18, DP -12, house +6."""
    record = rake_hand("all", [(2, 2), (3, 2), (1, 2)])
    assert net(record) == {"1": -12, "2": -12, "3": 18, "house": 6}
    assert record.status == "ok", record.findings


def test_rake_mode_players() -> None:
    """HCF-12 `players`, fee 2: seats 2 and 3 pay 2, the DP nothing.
    Nets: seat 2 -12, seat 3 +18, DP -10, house +4."""
    record = rake_hand("players", [(2, 2), (3, 2)])
    assert net(record) == {"1": -10, "2": -12, "3": 18, "house": 4}
    assert record.status == "ok", record.findings


def test_rake_mode_designated() -> None:
    """HCF-12 `designated`, fee 2: only the DP pays, 2 per participant = 4.
    Nets: seat 2 -10, seat 3 +20, DP -14, house +4."""
    record = rake_hand("designated", [(1, 4)])
    assert net(record) == {"1": -14, "2": -10, "3": 20, "house": 4}
    assert record.status == "ok", record.findings


def test_wrong_rake_is_reported_per_seat() -> None:
    """HCF-12 `players`, fee 2, but seat 2 was raked 3 and the DP 2: RAKE_OVER seat 2
    (+1) and RAKE_OVER seat 1 (+2), no MISPAY (settlement itself was right)."""
    record = rake_hand("players", [(2, 3), (3, 2), (1, 2)])
    over = {f.seat: f.amount for f in record.findings if f.code == "RAKE_OVER"}
    assert over == {2: 1, 1: 2}
    assert all(f.rule == "HCF-12" for f in record.findings if f.code.startswith("RAKE"))
    assert "MISPAY" not in codes(record)


def test_dp_reserve_makes_a_seat_dead() -> None:
    """HCF-11 + reserve, mode `designated`, fee 2, one player (seat 3, no fold): the DP
    may owe 2 x 1 = 2, so a DP stack of 21 gives funds 19; seat 3's winnings 20 > 19: dead
    hand for seat 3, not counted, so the DP owes no rake. All nets 0, house 0."""
    parts = [
        started(1, {1: 21, 3: 100}),
        wager(3, "ante", 10), deal({1: DP_9_HIGH, 3: P3_WINS}, dp=1), raise_(3, 10),
        show(1, DP_9_HIGH), show(3, P3_WINS), ended()]
    record = adjudicate(config(mode="designated", fee=2), *parts)
    assert net(record) == {"1": 0, "3": 0, "house": 0}
    assert record.status == "ok", record.findings


def test_rake_taken_and_refunded_in_a_dead_hand_is_not_settling_it() -> None:
    """GEN-6/HCF-12: the table took seat 2's fee 1 with the Ante, then the shuffler alarmed
    and the fee was refunded (payout from the house, kind refund). The hand is dead and
    nothing was kept: no DEAD_HAND_SETTLED; without the refund there is one."""
    def parts(refund: bool) -> list[Any]:
        out = [started(1, {1: 500, 2: 100}), wager(2, "ante", 10), rake(2, 1),
               deal({1: "9h 5h", 2: "As Ks"}, dp=1),
               [("shuffler_alarm", {"detail": "red light"})]]
        if refund:
            out.append(pay(2, 1, kind="refund", source="house"))
        return [*out, ended()]
    profile = HOUSE
    refunded = hcf.adjudicate(hand(config(mode="players", fee=1), *parts(True)), profile)
    kept = hcf.adjudicate(hand(config(mode="players", fee=1), *parts(False)), profile)
    assert refunded.dead and refunded.rake == {} and refunded.net == {1: 0, 2: 0}
    assert [f.code for f in refunded.findings] == ["DEAD_HAND"]
    assert "DEAD_HAND_SETTLED" in [f.code for f in kept.findings]


def test_losing_player_is_never_dead_even_when_the_reserve_exceeds_the_dp_stack() -> None:
    """HCF-11 (audit). Mode `designated`, fee 2, DP stack 1: with the rake reserve the DP's
    funds start at 1 - 2 = -1. Seat 2 (8-7-2 of spades) loses to the DP's 9-5-2: its
    winnings are 0, which exceed nothing, so its hand is NOT dead; it loses Ante 10 and
    Raise 10 to the DP (funds -1 -> 19) and counts for the rake: the DP pays 2 x 1 = 2.
    Nets: seat 2 -20, DP +20 - 2 = +18, house +2. The DP started with 1 chip, short of
    the fee of 2 it can owe (GEN-2 counts the fee, house-v1 ``stake_counts_fee``): one
    INSUFFICIENT_STAKE of 1, and nothing else; the fee is due once the DP is settled,
    when it holds 1 + 20 = 21, so it is expected in full."""
    parts = [
        started(1, {1: 1, 2: 100}),
        wager(2, "ante", 10), deal({1: DP_9_HIGH, 2: P4_LOSES}, dp=1), raise_(2, 10),
        show(1, DP_9_HIGH), show(2, P4_LOSES), collect(2, "ante", 10), collect(2, "raise", 10),
        rake(1, 2), ended()]
    record = adjudicate(config(mode="designated", fee=2), *parts)
    assert net(record) == {"1": 18, "2": -20, "house": 2}
    assert [(f.code, f.seat, f.amount) for f in record.findings] == [
        ("INSUFFICIENT_STAKE", 1, 1)]


# ---------------------------------------------------------------- readings toggled (audit)

P_AK9 = "As Ks 9s 5d 4d 3c 2c"  # spades A-K-9: beats DP_9_HIGH, 3 cards (Flush bonus loses)


def _variant(**fields: Any) -> RuleProfile:
    base = HOUSE
    return RuleProfile("variant", {**base.sections, "hcf": {**base.sections["hcf"], **fields}})


def test_bankroll_check_gross_and_net() -> None:
    """HCF-11 ``bankroll_check``. DP stack 15, no rake. Seat 2: Ante 10, Flush bonus 5,
    Raise 10, A-K-9 beats 9-5-2: winnings Ante 10 + Raise 10 = 20; the Flush bonus loses
    (3 cards). "gross": 20 > funds 15 -> dead hand, all 0. "net": 20 <= 15 + 5 = 20 ->
    paid 20, bonus 5 collected: seat 2 +15, DP -15."""
    parts = hand(config(), started(1, {1: 15, 2: 100}), wager(2, "ante", 10),
                 wager(2, "flush_bonus", 5), deal({1: DP_9_HIGH, 2: P_AK9}, dp=1),
                 raise_(2, 10), show(1, DP_9_HIGH), show(2, P_AK9), ended())
    assert hcf.adjudicate(parts, HOUSE).net == {1: 0, 2: 0}
    assert hcf.adjudicate(parts, _variant(bankroll_check="net")).net == {1: -15, 2: 15}


def test_folded_wagers_join_funds_at_fold_or_in_order() -> None:
    """HCF-11 ``folded_wagers_join_funds``. DP seat 1 stack 10, no rake; order 3 then 2.
    Seat 3 wins Ante 10 + Raise 10 = 20; seat 2 folds its Ante 10.
    "at_fold": funds 10 + 10 = 20 before seat 3: paid. Seat 3 +20, seat 2 -10, DP -10.
    "in_order": funds 10 at seat 3: 20 > 10, dead (0); then seat 2's 10 comes in:
    seat 3 0, seat 2 -10, DP +10."""
    p3 = "Ad Kd Td 8c Tc Jh Qh"  # diamonds A-K-T beats 9-5-2
    parts = hand(config(), started(1, {1: 10, 2: 100, 3: 100}), wager(2, "ante", 10),
                 wager(3, "ante", 10), deal({1: DP_9_HIGH, 2: P4_LOSES, 3: p3}, dp=1),
                 fold(2), raise_(3, 10), show(1, DP_9_HIGH), show(3, p3), ended())
    at_fold = hcf.adjudicate(parts, HOUSE)
    in_order = hcf.adjudicate(parts, _variant(folded_wagers_join_funds="in_order"))
    assert at_fold.net == {1: -10, 2: -10, 3: 20}
    assert in_order.net == {1: 10, 2: -10, 3: 0}


def test_no_rake_reserve_reading() -> None:
    """HCF-11 ``dp_funds_reserve_rake = false``: the funds are the DP's stack, 21, as
    rules.md words it. Mode `designated`, fee 2; seat 3 wins 20 <= 21: paid, and the DP
    owes 2 for one participant (house-v1, with the reserve, makes seat 3 dead:
    test_dp_reserve_makes_a_seat_dead). ``stake_counts_fee = false``: the fee is expected
    in full, seat 3 +20, DP -20 - 2 = -22 (a stack of 21 - 22 = -1), house 2. true (GEN-2
    counts the fee): the DP holds 21 - 20 = 1 when the fee falls due and pays 1: DP -21,
    house 1, and INSUFFICIENT_STAKE on the DP for the chip short (it covered its fee at
    the start, 21 >= 2, but banked with it)."""
    parts = hand(config(mode="designated", fee=2), started(1, {1: 21, 3: 100}),
                 wager(3, "ante", 10), deal({1: DP_9_HIGH, 3: P3_WINS}, dp=1), raise_(3, 10),
                 show(1, DP_9_HIGH), show(3, P3_WINS), ended())
    outcome = hcf.adjudicate(parts, _variant(dp_funds_reserve_rake=False,
                                             stake_counts_fee=False))
    assert outcome.net == {1: -22, 3: 20} and outcome.rake == {1: 2}
    outcome = hcf.adjudicate(parts, _variant(dp_funds_reserve_rake=False))
    assert outcome.net == {1: -21, 3: 20} and outcome.rake == {1: 1} and outcome.house == 1
    assert [(f.code, f.seat, f.amount) for f in outcome.findings] == [
        ("INSUFFICIENT_STAKE", 1, 1)]


def test_dp_rake_without_participants() -> None:
    """HCF-12 mode `all`, fee 1, nobody antes. house-v1 (``dp_rake_needs_participant``):
    a hand nobody played is not a game, no rake. Toggled: the DP pays its fee 1 anyway."""
    parts = hand(config(mode="all", fee=1), started(1, {1: 100, 2: 100}),
                 deal({1: DP_9_HIGH}, dp=1), ended())
    assert hcf.adjudicate(parts, HOUSE).rake == {}
    toggled = hcf.adjudicate(parts, _variant(dp_rake_needs_participant=False))
    assert toggled.rake == {1: 1} and toggled.net == {1: -1, 2: 0} and toggled.house == 1
