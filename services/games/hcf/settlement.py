"""High Card Flush settlement: DP qualification, comparisons, bonuses, bankroll, rake.

Order of work, as the rules give it:

1. HCF-7: the designated player's best flush (HCF-6) and whether it qualifies.
2. HCF-7/8/9 for every player still in: Ante and Raise against the DP, bonuses by
   paytable on the player's own seven cards.
3. HCF-10: the per-hand bonus cap, shared pro rata over the winning bonus wagers.
4. HCF-5/HCF-11: players settled one by one counter-clockwise from the right of the
   button; a player whose winnings exceed the DP's funds at that moment has a dead hand.
5. HCF-12: the rake, counting every player who placed an Ante in a hand not dead for them.
6. GEN-2 Reading ``stake_counts_fee``: no fee expected beyond what its payer then holds
   (``fees_within_stacks``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from services.events.contract import Finding, RakeConfig
from services.games.hcf.evaluation import (
    describe_flush,
    dp_qualifies,
    flush_length,
    flush_value_of_masks,
    straight_flush_strength_of_masks,
    suit_masks,
)
from services.games.hcf.procedure import ANTE, FLUSH_BONUS, SF_BONUS, SeatPlay
from services.games.hcf.profile import HcfRules
from services.games.model import TraceStep, finding

RAISE_KIND = "raise"
_SEAT_RING = 1000  # larger than any seat number: (dp - seat) % ring orders seats


@dataclass
class SeatSettlement:
    """One player's expected settlement, split like the table records it."""

    seat: int
    rule: str  # the rule that decided the Ante/Raise part (HCF-7, HCF-4, GEN-7, HCF-11)
    delta: int = 0  # stack change before rake
    win_paid: int = 0  # expected payouts kind "win"
    bonus_paid: int = 0  # expected payouts kind "bonus"
    collected: dict[str, int] = field(default_factory=dict)  # wager kind -> to the DP
    flush_win: int = 0
    sf_win: int = 0
    counted: bool = True  # a participant for HCF-12
    dead: bool = False  # HCF-11
    folded: bool = False  # its bonuses were forfeited (HCF-4 / GEN-7), never paid


@dataclass
class Settlement:
    """``funds_at_start``: the DP's funds when the first player is settled (HCF-11);
    ``winnings``: what the players who beat the DP or won a bonus would be paid if the DP
    could cover them all. Settlement order can matter only when the second exceeds the
    first (``hcf.order``)."""

    seats: list[SeatSettlement]  # in the order settled (HCF-5 unless asked otherwise)
    dp_delta: int
    rake: dict[int, int]
    bonus_capped: bool
    trace: list[TraceStep]
    funds_at_start: int = 0
    winnings: int = 0


def settlement_order(seats: list[int], dp: int) -> list[int]:
    """HCF-5: from the player to the right of the button (the DP), counter-clockwise."""
    return sorted((s for s in seats if s != dp), key=lambda s: (dp - s) % _SEAT_RING)


@dataclass
class _Live:
    """A live player's outcome before the cap and the bankroll."""

    play: SeatPlay
    text: str
    ante_raise: int  # signed result of Ante and Raise
    flush_win: int
    sf_win: int
    flush_push: bool = False  # HCF-10 ``against_dp``: tied the DP, the wager stays
    sf_push: bool = False
    sf_run: int = 0  # the longest straight-flush run (HCF-9), when an SF bonus is wagered


def _compare(play: SeatPlay, dp: _DpHand, rules: HcfRules) -> _Live:
    """HCF-7 (Ante/Raise against the DP) and HCF-8/9/10 (bonuses)."""
    assert play.masks is not None
    masks, value = play.masks, play.value
    mine = describe_flush(value)
    ante, raised = play.ante, play.raise_in_action
    if not dp.qualifies:
        ante_raise, verdict = ante, f"{mine}; DP does not qualify: Ante +{ante}, Raise pushes"
    elif value > dp.value:
        ante_raise, verdict = ante + raised, f"{mine} beats the DP: +{ante} Ante, +{raised} Raise"
    elif value < dp.value:
        ante_raise = -(ante + raised)
        verdict = f"{mine} loses to the DP: -{ante} Ante, -{raised} Raise"
    else:
        ante_raise, verdict = 0, f"{mine} ties the DP: Ante and Raise push"
    live = _Live(play, verdict, ante_raise, 0, 0)
    prof = rules.profile
    strength = (straight_flush_strength_of_masks(masks, prof.sf_ace_low, prof.sf_wraparound)
                if play.sf_bonus else 0)  # only a Straight Flush bonus needs the run
    if play.flush_bonus:
        live.flush_win = play.flush_bonus * rules.flush_odds[flush_length(value)]
    if play.sf_bonus:
        live.sf_run = strength >> 4
        live.sf_win = play.sf_bonus * rules.sf_odds[live.sf_run]
    if prof.bonus_settlement == "against_dp":
        _bonuses_against_dp(live, value, strength, dp)
    return live


@dataclass(frozen=True)
class _DpHand:
    """The DP's hand as the comparisons need it: flush value (HCF-6), qualification
    (HCF-7) and straight-flush strength (for the ``against_dp`` reading of HCF-10)."""

    value: int
    qualifies: bool
    sf_strength: int


def _bonuses_against_dp(live: _Live, value: int, sf_strength: int, dp: _DpHand) -> None:
    """HCF-10, reading ``against_dp`` (the source's items 6-7 taken literally): a bonus
    wager that the paytable pays wins only when the player's flush (Flush bonus) or run
    (Straight Flush bonus: longer, then higher top card) beats the DP's; equal pushes
    (the wager stays); worse loses. Qualification of the DP plays no part."""
    words = []
    if live.flush_win:
        live.flush_win, live.flush_push, verdict = _against(live.flush_win, value, dp.value)
        words.append(f"Flush bonus {verdict} the DP's flush")
    if live.sf_win:
        live.sf_win, live.sf_push, verdict = _against(live.sf_win, sf_strength, dp.sf_strength)
        words.append(f"Straight Flush bonus {verdict} the DP's run")
    if words:
        live.text += "; " + ", ".join(words)


def _against(win: int, mine: int, theirs: int) -> tuple[int, bool, str]:
    if mine > theirs:
        return win, False, "beats"
    if mine == theirs:
        return 0, True, "ties (push)"
    return 0, False, "loses to"


def bonus_steps(live: _Live, rules: HcfRules) -> list[TraceStep]:
    """The decision path names the rule of every bonus amount: HCF-8 for the Flush bonus,
    HCF-9 for the Straight Flush bonus, what the paytable gives on the player's own
    cards (the HCF-10 cap and the HCF-11 bankroll, if they apply, come after)."""
    play = live.play
    steps: list[TraceStep] = []
    if play.flush_bonus:
        length = flush_length(play.value)
        steps.append(TraceStep("HCF-8", _bonus_text(
            "Flush bonus", play.flush_bonus, f"{length}-card flush", live.flush_win,
            live.flush_push, rules.flush_odds[length]), play.seat))
    if play.sf_bonus:
        run = f"{live.sf_run}-card straight-flush run" if live.sf_run else "no straight flush"
        steps.append(TraceStep("HCF-9", _bonus_text(
            "Straight Flush bonus", play.sf_bonus, run, live.sf_win, live.sf_push,
            rules.sf_odds[live.sf_run]), play.seat))
    return steps


def _bonus_text(name: str, wager: int, holding: str, win: int, push: bool, odds: int) -> str:
    if win:
        return f"{name} {wager}: {holding} pays {odds} to 1 = {win}"
    if push:
        return f"{name} {wager}: {holding} ties the DP's (HCF-10 against the DP): the wager stays"
    if odds:
        return f"{name} {wager}: {holding} does not beat the DP's (HCF-10 against the DP): lost"
    return f"{name} {wager}: {holding}, not on the paytable: lost"


def apply_bonus_cap(lives: list[_Live], cap: int | None, rounding: str,
                    trace: list[TraceStep]) -> bool:
    """HCF-10: scale winning bonus wagers down pro rata so they total the cap.

    Integer chips: each share is floored; with ``largest_remainder`` the chips left over
    go one each to the largest remainders (earlier in settlement order first, flush bonus
    before straight-flush bonus), so the shares add up to the cap exactly.
    """
    wins = [(i, k, w) for i, live in enumerate(lives)
            for k, w in ((0, live.flush_win), (1, live.sf_win)) if w > 0]
    total = sum(w for _, _, w in wins)
    if cap is None or total <= cap:
        return False
    shares = {(i, k): w * cap // total for i, k, w in wins}
    if rounding == "largest_remainder":
        left = cap - sum(shares.values())
        by_remainder = sorted(wins, key=lambda t: (-(t[2] * cap % total), t[0], t[1]))
        for i, k, _ in by_remainder[:left]:
            shares[(i, k)] += 1
    for (i, k), share in shares.items():
        if k == 0:
            lives[i].flush_win = share
        else:
            lives[i].sf_win = share
    trace.append(TraceStep("HCF-10", f"bonus wins total {total} exceed the cap {cap}: paid "
                                     f"pro rata ({rounding}), "
                                     + ", ".join(f"seat {lives[i].play.seat} "
                                                 f"{'flush' if k == 0 else 'straight flush'} "
                                                 f"{s}" for (i, k), s in shares.items())))
    return True


def _folded(play: SeatPlay) -> SeatSettlement:
    out = SeatSettlement(play.seat, play.fold_rule, folded=True)
    for kind, amount in ((ANTE, play.ante), (FLUSH_BONUS, play.flush_bonus),
                         (SF_BONUS, play.sf_bonus)):
        if amount:
            out.collected[kind] = amount
            out.delta -= amount
    return out


def _live_settlement(live: _Live) -> SeatSettlement:
    play = live.play
    rule = "HCF-4" if play.over_cap else "HCF-7"
    out = SeatSettlement(play.seat, rule, flush_win=live.flush_win, sf_win=live.sf_win)
    if live.ante_raise > 0:
        out.win_paid = live.ante_raise
    elif live.ante_raise < 0:
        out.collected[ANTE] = play.ante
        if play.raise_in_action:
            out.collected[RAISE_KIND] = play.raise_in_action
    out.bonus_paid = live.flush_win + live.sf_win
    if play.flush_bonus and not live.flush_win and not live.flush_push:
        out.collected[FLUSH_BONUS] = play.flush_bonus
    if play.sf_bonus and not live.sf_win and not live.sf_push:
        out.collected[SF_BONUS] = play.sf_bonus
    return out


def settle(plays: list[SeatPlay], dp: int, dp_stack: int, dp_cards: list[str] | None,
           rules: HcfRules, rake: RakeConfig) -> Settlement:
    """Settle the players (already in HCF-5 order) against the designated player."""
    prof = rules.profile
    trace: list[TraceStep] = []
    live_plays = [p for p in plays if not p.folded]
    dp_hand = _DpHand(0, False, 0)
    if live_plays:
        assert dp_cards is not None
        dp_masks = suit_masks(dp_cards)
        dp_value = flush_value_of_masks(dp_masks)
        dp_hand = _DpHand(
            dp_value,
            dp_qualifies(dp_value, prof.dp_qualify_min_cards, rules.dp_min_high_rank,
                         prof.dp_qualify_any_high_cards),
            # the DP's run matters only when bonuses are judged against the DP (HCF-10)
            straight_flush_strength_of_masks(dp_masks, prof.sf_ace_low, prof.sf_wraparound)
            if prof.bonus_settlement == "against_dp" else 0,
        )
        trace.append(TraceStep("HCF-7", f"designated player holds {describe_flush(dp_value)}: "
                                        + ("qualifies" if dp_hand.qualifies
                                           else "does not qualify"), dp))
    lives = [_compare(p, dp_hand, rules) for p in live_plays]
    for live in lives:
        trace += bonus_steps(live, rules)
    capped = apply_bonus_cap(lives, rules.bonus_cap, prof.bonus_cap_rounding, trace)
    by_seat = {live.play.seat: live for live in lives}
    funds = dp_stack
    if prof.dp_funds_reserve_rake:
        reserve = dp_rake_reserve(len(plays), rake, prof.dp_rake_needs_participant)
        funds -= reserve
        if reserve:
            trace.append(TraceStep("HCF-11", f"DP stack {dp_stack} less {reserve} set aside "
                                             "for the rake the DP can owe", dp))
    if prof.folded_wagers_join_funds == "at_fold":
        funds += sum(p.ante + p.bonuses for p in plays if p.folded)
    trace.append(TraceStep("HCF-11", f"DP funds at the start of settlement: {funds}", dp))
    funds_at_start = funds
    winnings = sum(max(live.ante_raise, 0) + live.flush_win + live.sf_win for live in lives)
    seats: list[SeatSettlement] = []
    for play in plays:
        if play.folded:
            result = _folded(play)
            if prof.folded_wagers_join_funds == "in_order":
                funds -= result.delta
            trace.append(TraceStep(play.fold_rule, f"folded: loses {-result.delta}; DP funds "
                                                   f"now {funds}", play.seat))
        else:
            live = by_seat[play.seat]
            result = _live_settlement(live)
            funds = _bankroll(result, live.text, funds, rules, trace)
        seats.append(result)
    rake_due = rake_per_seat(seats, dp, rake, prof.dp_rake_needs_participant, trace)
    dp_delta = -sum(s.delta for s in seats)
    return Settlement(seats, dp_delta, rake_due, capped, trace, funds_at_start, winnings)


def _bankroll(result: SeatSettlement, text: str, funds: int, rules: HcfRules,
              trace: list[TraceStep]) -> int:
    """HCF-11: pay the player from the DP's funds; returns the funds after this player."""
    prof = rules.profile
    wins = result.win_paid + result.bonus_paid
    losses = sum(result.collected.values())
    available = funds if prof.bankroll_check == "gross" else funds + losses
    bonus_text = ""
    if result.flush_win or result.sf_win:
        bonus_text = f"; bonuses +{result.flush_win + result.sf_win}"
    # A player with no winnings (a loss or a push) is never short-funded, even when the
    # rake reserve leaves the DP's funds below zero: there is nothing to pay them.
    if wins > max(available, 0) and prof.dp_short_funds == "dead_hand":
        trace.append(TraceStep("HCF-11", f"{text}{bonus_text}: winnings {wins} exceed the DP's "
                                         f"funds {available}: hand dead, every wager returned, "
                                         f"no rake; DP funds stay {funds}", result.seat))
        result.rule, result.dead, result.counted = "HCF-11", True, False
        result.delta, result.win_paid, result.bonus_paid = 0, 0, 0
        result.flush_win = result.sf_win = 0
        result.collected = {}
        return funds
    paid = max(0, min(wins, available))
    if paid < wins:
        result.rule = "HCF-11"
        # pay_to_extent: the player receives what the DP has; Ante/Raise first.
        result.win_paid = min(result.win_paid, paid)
        result.bonus_paid = paid - result.win_paid
    result.delta = paid - losses
    after = funds - paid + losses
    short = f" (short by {wins - paid})" if paid < wins else ""
    trace.append(TraceStep(result.rule, f"{text}{bonus_text}; paid {paid}{short}, collected "
                                        f"{losses}; DP funds {funds} -> {after}", result.seat))
    return after


def dp_rake_reserve(players: int, rake: RakeConfig, dp_needs_participant: bool) -> int:
    """The most rake the DP can owe in a hand with ``players`` Antes (HCF-12)."""
    if rake.mode == "designated":
        return rake.fee * players
    if rake.mode == "all" and (players or not dp_needs_participant):
        return rake.fee
    return 0


def rake_per_seat(seats: list[SeatSettlement], dp: int, rake: RakeConfig,
                  dp_needs_participant: bool, trace: list[TraceStep]) -> dict[int, int]:
    """HCF-12: participants are players with an Ante in a hand not dead for them."""
    counted = [s.seat for s in seats if s.counted]
    fee = rake.fee
    due: dict[int, int] = {}
    if rake.mode == "all":
        due = {seat: fee for seat in counted}
        if counted or not dp_needs_participant:
            due[dp] = fee
    elif rake.mode == "players":
        due = {seat: fee for seat in counted}
    elif rake.mode == "designated":
        due = {dp: fee * len(counted)}
    due = {seat: amount for seat, amount in due.items() if amount}
    trace.append(TraceStep("HCF-12", f"rake mode {rake.mode!r}, fee {fee}: {len(counted)} "
                                     f"participant(s) {counted}; rake due {due or 'none'}"))
    return due


def player_fee(rake: RakeConfig) -> int:
    """The HCF-12 fee a player with an Ante pays: ``all`` and ``players`` modes."""
    return rake.fee if rake.mode in ("all", "players") else 0


def fees_within_stacks(due: dict[int, int], seats: list[SeatSettlement], dp: int,
                       dp_delta: int, stacks: dict[int, int], rules: HcfRules,
                       found: list[Finding], trace: list[TraceStep]) -> dict[int, int]:
    """GEN-2 Reading ``stake_counts_fee``: the HCF-12 fee expected from a seat is at most
    what that seat holds when the fee falls due; the table's own rake is not touched.

    When: at the end of the hand, once the seat is settled. HCF-12 charges participants,
    and whether a player is one (a hand dead under HCF-11 is not) is known only when it
    is settled in HCF-5 order; the DP's fee is per counted participant (``designated``)
    or due only when someone played (``all``, ``dp_rake_needs_participant``). So what a
    seat holds then is its stack at ``hand_started`` plus its settlement (``delta``,
    winnings and returned wagers in, lost wagers out): a player who won pays its fee out
    of its winnings, and the DP out of the wagers it collected.

    Why no RAKE_UNDER for the chips the fee is short: GEN-2 counts the fee among what the
    hand can require of a seat, so a seat that cannot pay it in full was short of what
    the hand required of it, and that is a GEN-2 finding on the seat, not a collection
    error of the table. The table cannot take chips the seat does not have (a
    ``rake_collected`` beyond them drives the stack below zero: ``WAGER_OVER_STACK``,
    GEN-2, and a RAKE_OVER against this capped fee); taking what there is was right.
    Every capped fee carries an ``INSUFFICIENT_STAKE`` (GEN-2) on its seat: the one of
    ``procedure.table_stakes`` / ``dp_table_stakes`` when the seat started short of its
    wagers to cover and its fee, else one raised here, for a seat whose settlement took
    more than the profile's stake asks it to cover (a raise above
    ``stake_cover_raise_multiple`` Antes or played as placed over the cap, or a DP that
    banked with its fee's chips under ``dp_funds_reserve_rake = false``), its amount the
    chips the fee is short. GEN-8 holds: the seat's net and the house move by the same
    chips.
    """
    holds = {s.seat: stacks.get(s.seat, 0) + s.delta for s in seats}
    holds[dp] = stacks.get(dp, 0) + dp_delta
    flagged = {f.seat for f in found if f.code == "INSUFFICIENT_STAKE"}
    out: dict[int, int] = {}
    for seat, fee in due.items():
        held = max(holds.get(seat, 0), 0)
        paid = min(fee, held)
        if paid < fee:
            trace.append(TraceStep("GEN-2", f"seat {seat} holds {held} when its fee of {fee} "
                                            f"falls due: pays {paid} (HCF-12 fee capped by the "
                                            "stake, GEN-2)", seat))
            if seat not in flagged:
                found.append(finding(
                    "INSUFFICIENT_STAKE", "GEN-2", rules.profile.insufficient_stake_severity,
                    f"seat {seat} started with {stacks.get(seat, 0)} chips and holds {held} "
                    f"once settled: short of its participation fee of {fee} (HCF-12) by "
                    f"{fee - paid}; the hand required more of it than it had", seat=seat,
                    amount=fee - paid))
        if paid:
            out[seat] = paid
    return out
