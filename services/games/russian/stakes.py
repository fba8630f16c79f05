"""Which of a box's chips are in action, and which are void (RP-3, RP-4, SURV-1).

A chip put down at the wrong moment does not play: an Ante after the first card is dealt,
a second Bet or a Bet after the dealer's cards are turned (SURV-1, past-posting), or an
insurance after "insurance closed" (RP-4). Insurance on a hand weaker than three of a kind
is returned as a wrong bet (RP-4); insurance outside its limits is returned (below 1x
Ante) or cut to the maximum (above half the royal payout). This module decides those
amounts once, with the finding for each, so the settlement only ever sees valid stakes.
"""

from __future__ import annotations

from dataclasses import dataclass

from services.events.contract import Finding
from services.games.evaluation.standard import best_five
from services.games.model import TraceStep, finding
from services.games.russian.evaluation import paytable_category
from services.games.russian.profile import RussianProfile, at_least
from services.games.russian.reading import Box, Placed, RussianHand, rankable


@dataclass(frozen=True)
class BoxStakes:
    """A box's chips in action; the ``late_*`` amounts are void (SURV-1 / RP-4).

    ``fold_rule`` is None for a box that plays; otherwise the rule its fold falls under
    (RP-2 fold at the draw decision, RP-3 fold instead of the Bet, GEN-7 walked away).
    """

    seat: int
    ante: int
    bet: int
    insurance: int
    late_ante: int
    late_bet: int
    late_insurance: int
    fold_rule: str | None

    @property
    def plays(self) -> bool:
        return self.fold_rule is None


@dataclass
class StakesReport:
    stakes: BoxStakes
    findings: list[Finding]
    trace: list[TraceStep]


def box_stakes(
    hand: RussianHand,
    box: Box,
    cards: tuple[str, ...] | None,
    royal_odds: int,
    profile: RussianProfile,
    late_counts: bool = False,
) -> StakesReport:
    """The valid Ante, Bet and insurance of ``box`` and the findings about the rest.

    ``late_counts``: the stakes as if every chip SURV-1 finds late (an Ante after the deal
    began, a Bet or an insurance after the dealer's cards were turned) had been placed in
    time: what the box would have played had the late chips played, which the reading
    ``late_wager_settlement = "kept_if_losing"`` settles the box on when it loses more."""
    report = StakesReport(BoxStakes(box.seat, 0, 0, 0, 0, 0, 0, "RP-2"), [], [])
    ante, late_ante = _ante(hand, box, report, profile, late_counts)
    bet, late_bet, fold_rule = _bet(hand, box, ante, report, profile, late_counts)
    insurance, late_insurance = _insurance(
        hand, box, ante, bet, fold_rule is None, cards, royal_odds, report, profile,
        late_counts)
    _foreign_wagers(box, report, profile)
    # The decision path says what became of each late chip (QA: a void late Bet was in
    # the findings, and the box's settlement showed its Ante and Bet with no word of it).
    report.trace += [TraceStep(f.rule, f.message, box.seat) for f in report.findings
                     if f.code in _LATE_CODES]
    report.stakes = BoxStakes(
        seat=box.seat,
        ante=ante,
        bet=bet,
        insurance=insurance,
        late_ante=late_ante,
        late_bet=late_bet,
        late_insurance=late_insurance,
        fold_rule=fold_rule,
    )
    return report


def _late(
    placed: Placed, seat: int, what: str, when: str, profile: RussianProfile, code: str,
    rule: str,
) -> Finding:
    return finding(code, rule, profile.late_wager_severity,
                   f"seat {seat}: {what} of {placed.amount} placed at seq {placed.seq}, {when}; "
                   f"{LATE_CHIPS[profile.late_wager_settlement]}", seat=seat,
                   amount=placed.amount)


_LATE_CODES = frozenset({"LATE_WAGER", "WAGER_CHANGED_AFTER_BET", "LATE_INSURANCE"})

# What late chips do, by the reading ``late_wager_settlement`` (SURV-1), as a finding says.
LATE_CHIPS = {"void": "it does not play",
              "kept_if_losing": "the house keeps it if it loses and pays nothing on it"}


def _ante(
    hand: RussianHand, box: Box, report: StakesReport, profile: RussianProfile,
    late_counts: bool,
) -> tuple[int, int]:
    """SURV-1: the Ante plays only if it was down before the first card was dealt and
    before the dealer's cards were turned (the latter still holds when the table records
    no ``card_dealt``, its cards known only from the showdowns)."""
    valid = late = 0
    for placed in box.antes:
        when = None if late_counts else _ante_too_late(hand, placed)
        if when is not None:
            late += placed.amount
            report.findings.append(
                _late(placed, box.seat, "an Ante", when, profile, "LATE_WAGER", "SURV-1")
            )
        else:
            valid += placed.amount
    return valid, late


def _ante_too_late(hand: RussianHand, placed: Placed) -> str | None:
    """Why an Ante came too late (SURV-1), or None when it was down in time."""
    if hand.first_card_at is not None and placed.index > hand.first_card_at:
        return "after the first card was dealt"
    if hand.dealer_turned_at is not None and placed.index > hand.dealer_turned_at:
        return "after the dealer's cards were turned"
    return None


def _bet(
    hand: RussianHand, box: Box, ante: int, report: StakesReport, profile: RussianProfile,
    late_counts: bool,
) -> tuple[int, int, str | None]:
    """RP-3: the first Bet placed in time is the Bet; any other Bet chips are void."""
    valid = late = 0
    first: Placed | None = None
    for placed in box.bets:
        problem = _bet_problem(hand, box, placed, first, ante, profile, late_counts)
        if problem is None:
            first = placed
            valid = placed.amount
            continue
        late += placed.amount
        report.findings.append(problem)
    if first is None:
        play = box.first_step("play")
        if play is not None and not box.bets:
            report.findings.append(
                finding("BET_MISSING", "RP-3", profile.bet_error_severity,
                        f"seat {box.seat} played at seq {play.seq} but placed no Bet; a box "
                        "without a Bet has folded and loses its Ante", seat=box.seat))
        return 0, late, _fold_rule(hand, box)
    valid = _bet_checks(box, first, ante, report, profile)
    return valid, late, None


def _bet_problem(
    hand: RussianHand,
    box: Box,
    placed: Placed,
    first: Placed | None,
    ante: int,
    profile: RussianProfile,
    late_counts: bool,
) -> Finding | None:
    seat = box.seat
    if (not late_counts and hand.dealer_turned_at is not None
            and placed.index > hand.dealer_turned_at):
        return _late(placed, seat, "a Bet", "after the dealer's cards were turned", profile,
                     "LATE_WAGER", "SURV-1")
    if first is not None:
        return _late(placed, seat, "another Bet", f"after the Bet at seq {first.seq}",
                     profile, "WAGER_CHANGED_AFTER_BET", "SURV-1")
    fold_step = box.first_step("fold")
    if fold_step is not None and fold_step.index < placed.index:
        return finding("BET_AFTER_FOLD", "RP-3", profile.bet_error_severity,
                       f"seat {seat}: Bet of {placed.amount} at seq {placed.seq} after the box "
                       f"folded at seq {fold_step.seq}; the folded box does not play",
                       seat=seat, amount=placed.amount)
    if ante == 0:
        return finding("BET_WITHOUT_ANTE", "RP-3", profile.bet_error_severity,
                       f"seat {seat}: Bet of {placed.amount} at seq {placed.seq} with no Ante "
                       "in action; the box was not in the hand", seat=seat,
                       amount=placed.amount)
    return None


def _bet_checks(
    box: Box, first: Placed, ante: int, report: StakesReport, profile: RussianProfile
) -> int:
    """RP-3: Bet = 2x Ante; a fold after the Bet changes nothing (the cards are down).
    Returns the Bet in action: as placed, or (reading ``wrong_bet_settlement =
    "excess_returned"``) an over-bet cut to 2x Ante, the excess going back to the box."""
    due = ante * profile.bet_antes
    in_action = first.amount
    if first.amount != due:
        cut = profile.wrong_bet_settlement == "excess_returned" and first.amount > due
        in_action = due if cut else first.amount
        how = (f"{first.amount - due} returned, {due} in action" if cut
               else "settled on the Bet as placed")
        report.findings.append(
            finding("WRONG_BET", "RP-3", profile.bet_error_severity,
                    f"seat {box.seat}: Bet of {first.amount} at seq {first.seq}; the Bet is "
                    f"{profile.bet_antes}x the Ante of {ante} = {due}; {how}",
                    seat=box.seat, amount=first.amount - due)
        )
    late_fold = next(
        (s for s in box.steps if s.action == "fold" and s.index > first.index), None
    )
    if late_fold is not None:
        report.findings.append(
            finding("FOLD_AFTER_BET", "RP-3", profile.bet_error_severity,
                    f"seat {box.seat}: fold at seq {late_fold.seq} after the Bet at seq "
                    f"{first.seq}; a box that has bet plays its hand", seat=box.seat)
        )
    return in_action


def _fold_rule(hand: RussianHand, box: Box) -> str:
    """Why a box without a Bet lost its Ante: which rule the fold falls under."""
    fold = box.first_step("fold")
    if fold is None:
        if box.left_at is not None:
            return "GEN-7"
        return "RP-3"
    # RP-2's moment ends with the first card served to any box, or failing a draw, the
    # first play: a fold after that is the play decision of RP-3 (it cited RP-2 when
    # another box had drawn first, QA).
    decision_ended = min(
        (moment for b in hand.boxes.values()
         for moment in [*(s.index for s in b.steps if s.action == "play"),
                        *(d.index for d in b.draws)]),
        default=None,
    )
    if not box.draws and (decision_ended is None or fold.index < decision_ended):
        return "RP-2"
    return "RP-3"


def _insurance(
    hand: RussianHand,
    box: Box,
    ante: int,
    bet: int,
    plays: bool,
    cards: tuple[str, ...] | None,
    royal_odds: int,
    report: StakesReport,
    profile: RussianProfile,
    late_counts: bool,
) -> tuple[int, int]:
    """RP-4: insurance placed before "insurance closed", on a playing box with three of a
    kind or better, within 1x Ante .. half the royal payout; otherwise returned."""
    placed_in_time = 0
    late = 0
    for placed in box.insurances:
        if (not late_counts and hand.dealer_turned_at is not None
                and placed.index > hand.dealer_turned_at):
            late += placed.amount
            report.findings.append(
                _late(placed, box.seat, "an insurance", "after insurance closed (the "
                      "dealer's cards were turned)", profile, "LATE_INSURANCE", "RP-4")
            )
        else:
            placed_in_time += placed.amount
    if placed_in_time == 0:
        return 0, late
    if not plays or cards is None or not 5 <= len(cards) <= 7:
        report.trace.append(TraceStep("RP-4", f"insurance of {placed_in_time} returned: the "
                                      "box does not play a hand", box.seat))
        return 0, late
    category = paytable_category(best_five(rankable(cards, f"seat {box.seat}"))[1])
    if not at_least(category, profile.insurance_min_category):
        report.trace.append(TraceStep(
            "RP-4", f"insurance of {placed_in_time} returned as a wrong bet: the hand is "
            f"{category}, below {profile.insurance_min_category}", box.seat))
        return 0, late
    return _insurance_limits(box.seat, placed_in_time, ante, bet, royal_odds, report,
                             profile), late


def _insurance_limits(
    seat: int, amount: int, ante: int, bet: int, royal_odds: int, report: StakesReport,
    profile: RussianProfile,
) -> int:
    low = ante * profile.insurance_min_antes
    high = (bet * royal_odds * profile.insurance_max_royal_numerator
            // profile.insurance_max_royal_denominator)
    if amount < low:
        returned = profile.insurance_below_minimum == "returned"
        report.findings.append(
            finding("INSURANCE_OUT_OF_LIMITS", "RP-4", profile.insurance_error_severity,
                    f"seat {seat}: insurance of {amount} is below the minimum of {low} "
                    f"({profile.insurance_min_antes}x Ante); "
                    + ("returned" if returned else "settled as placed"), seat=seat,
                    amount=amount - low)
        )
        return 0 if returned else amount
    if amount > high:
        cut = profile.insurance_above_maximum == "cut_to_maximum"
        report.findings.append(
            finding("INSURANCE_OUT_OF_LIMITS", "RP-4", profile.insurance_error_severity,
                    f"seat {seat}: insurance of {amount} is above the maximum of {high} "
                    f"(half the royal payout on a Bet of {bet}); "
                    + (f"{amount - high} returned" if cut else "settled as placed"),
                    seat=seat, amount=amount - high)
        )
        return high if cut else amount
    report.trace.append(TraceStep("RP-4", f"insurance of {amount} in action (limits {low}.."
                                  f"{high})", seat))
    return amount


def _foreign_wagers(box: Box, report: StakesReport, profile: RussianProfile) -> None:
    for placed in box.foreign:
        report.findings.append(
            finding("FOREIGN_WAGER", "GEN-5", profile.bet_error_severity,
                    f"seat {box.seat}: a {placed.kind} wager of {placed.amount} at seq "
                    f"{placed.seq} is no Russian Poker wager; it does not play",
                    seat=box.seat, amount=placed.amount)
        )
