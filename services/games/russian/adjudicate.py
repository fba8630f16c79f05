"""Russian Poker adjudication (rules.md RP-1..RP-10): every box against the house dealer.

``adjudicate(hand, profile) -> GameOutcome`` re-derives what each box should have won or
lost from its cards, its decisions and the posted rule profile, and reports how the hand
was run. The house banks every box, so the house's expected net is minus the boxes' sum
(GEN-8) and no rake is due (GEN-10: any rake recorded is flagged by the comparison).

The work is split by concept:

- ``reading``: the events read once into what each box and the dealer did, when;
- ``stakes``: which chips are in action (late wagers void, insurance limits);
- ``dealer_game``: buying the dealer's game and his replaced card (RP-6);
- ``settlement``: the arithmetic of RP-4..RP-8 for one playing box;
- ``procedure``: findings about the deal, the draw phase, prices, RP-9, RP-10.

Each box's expected net: Ante, Bet and insurance settled as above, minus the price of the
draws it was served (RP-2). A box that did not play loses its Ante (RP-2/RP-3, GEN-7).
"""

from __future__ import annotations

from services.events.contract import Finding, TableConfigured
from services.games.model import GameOutcome, HandInput, HandRejected, TraceStep, finding
from services.games.profile import RuleProfile, gen_section
from services.games.russian.dealer_game import DealerGame, dealer_game
from services.games.russian.procedure import (
    boxes_in_play,
    draw_price,
    price_errors,
    procedure_findings,
)
from services.games.russian.profile import RussianProfile, posted_paytable
from services.games.russian.reading import (
    Box,
    RussianHand,
    box_cards,
    dealer_cards,
    rankable,
    read_hand,
)
from services.games.russian.settlement import (
    DealerHand,
    Settlement,
    dealer_hand,
    settle_playing_box,
)
from services.games.russian.stakes import BoxStakes, StakesReport, box_stakes

SECTION = "russian"


def adjudicate(hand: HandInput, profile: RuleProfile) -> GameOutcome:
    """The expected settlement, findings and decision path of one Russian Poker hand."""
    rp = profile.section(SECTION, RussianProfile)
    facts = read_hand(hand.events)
    if facts.dead_reason is not None:
        return _dead(facts)
    paytable, findings = posted_paytable(rp, hand.table.config)
    outcome = GameOutcome(net={seat: 0 for seat in facts.boxes}, house=0, rake={})
    outcome.findings += findings
    boxes = boxes_in_play(facts)
    reports = {box.seat: box_stakes(facts, box, box_cards(box), paytable["royal_flush"], rp)
               for box in boxes}
    playing = {seat for seat, report in reports.items() if report.stakes.plays}
    late = _late_stakes(facts, boxes, reports, paytable["royal_flush"], rp)
    dealer, game = _dealer(facts, playing, outcome, rp,
                           needed=bool(playing) or any(s.plays for s in late.values()))
    antes = {seat: report.stakes.ante for seat, report in reports.items()}
    procedure = procedure_findings(facts, antes, rp)
    outcome.findings += procedure
    outcome.price_errors = price_errors(procedure)
    outcome.findings += _limit_findings(boxes, hand.table.config, profile)
    outcome.findings += _table_stakes(facts, antes, rp)
    for box in boxes:
        report = reports[box.seat]
        outcome.findings += report.findings
        _settle_box(box, report, dealer, game, paytable, rp, outcome, late.get(box.seat))
    outcome.house = -sum(outcome.net.values())
    return outcome


def _late_stakes(facts: RussianHand, boxes: list[Box], reports: dict[int, StakesReport],
                 royal_odds: int, rp: RussianProfile) -> dict[int, BoxStakes]:
    """SURV-1, reading ``late_wager_settlement = "kept_if_losing"``: for each box that does
    not play with its late chips void, its stakes had they played (``box_stakes``'s
    ``late_counts``). A late Bet can be what makes a box play, and a late Ante what lets
    its Bet count: such a box was settled as if it had folded, and a table that kept the
    late chips of a losing box was accused of a MISPAY (QA)."""
    if rp.late_wager_settlement != "kept_if_losing":
        return {}
    return {box.seat: box_stakes(facts, box, box_cards(box), royal_odds, rp,
                                 late_counts=True).stakes
            for box in boxes
            if not reports[box.seat].stakes.plays and _has_late_chips(reports[box.seat].stakes)}


def _dead(facts: RussianHand) -> GameOutcome:
    """GEN-6: a dead or misdealt hand returns every wager and fee; nothing is paid."""
    outcome = GameOutcome(net={seat: 0 for seat in facts.boxes}, house=0, rake={}, dead=True)
    outcome.seat_rules = {seat: "GEN-6" for seat in facts.boxes}
    outcome.trace.append(TraceStep("GEN-6", f"hand declared dead ({facts.dead_reason}): every "
                                   "wager and price returned, nothing paid"))
    return outcome


def _dealer(
    facts: RussianHand, playing: set[int], outcome: GameOutcome, rp: RussianProfile,
    needed: bool,
) -> tuple[DealerHand | None, DealerGame | None]:
    """RP-5 qualification and RP-6 purchases; only ``needed`` when some box plays (or
    would, its late chips kept: ``_late_stakes``)."""
    if not needed:
        outcome.trace.append(TraceStep("RP-3", "no box plays: the dealer's hand is not needed"))
        return None, None
    cards = dealer_cards(facts)
    if cards is None or len(cards) != rp.dealer_cards:
        raise HandRejected("RP-5", f"seat(s) {', '.join(map(str, sorted(playing)))} play but "
                           "the dealer's five cards were never read (card_dealt or showdown)")
    dealer = dealer_hand(rankable(cards, "the dealer"), rp)
    verdict = "qualifies" if dealer.qualifies else "does not qualify"
    outcome.trace.append(TraceStep("RP-5", f"dealer holds {' '.join(cards)} ({dealer.category}):"
                                   f" {verdict} ({rp.dealer_min_category} or better needed)"))
    game = dealer_game(facts, dealer, playing, rp)
    outcome.findings += game.findings
    outcome.trace += game.trace
    return dealer, game


def _settle_box(
    box: Box,
    report: StakesReport,
    dealer: DealerHand | None,
    game: DealerGame | None,
    paytable: dict[str, int],
    rp: RussianProfile,
    outcome: GameOutcome,
    late: BoxStakes | None = None,
) -> None:
    stakes = report.stakes
    fees = sum(draw_price(served, stakes.ante, rp) for served in box.draws)
    outcome.trace += _decision_trace(box, stakes, fees)
    outcome.trace += report.trace
    if not stakes.plays or dealer is None:
        rule = stakes.fold_rule or "RP-3"
        outcome.net[box.seat] = -stakes.ante - fees
        outcome.seat_rules[box.seat] = rule
        outcome.trace.append(TraceStep(rule, f"box does not play: Ante {stakes.ante} lost",
                                       box.seat))
        if late is not None:
            _keep_losing_late_chips(box, late, dealer, game, paytable, rp, outcome,
                                    -stakes.ante - fees, fees)
        return
    cards = box_cards(box)
    if cards is None:
        raise HandRejected("RP-7", f"seat {box.seat} plays but its cards were never read "
                           "(card_dealt or showdown)")
    cards = rankable(cards, f"seat {box.seat}")
    bought = game.bought if game is not None and box.seat in game.buyers else None
    result = settle_playing_box(stakes, cards, dealer, bought, paytable, rp)
    net, rule = result.net, _seat_rule(box, result)
    if rp.late_wager_settlement == "kept_if_losing" and _has_late_chips(stakes):
        with_late = settle_playing_box(_with_late_chips(stakes), cards, dealer, bought,
                                       paytable, rp)
        if with_late.net < net:
            outcome.trace.append(TraceStep("SURV-1", "the late chips lose: the house keeps "
                                           f"them ({with_late.net - net})", box.seat))
            # The reading that kept them decided the box's result (QA: RP-7 was cited).
            net, rule = with_late.net, "SURV-1"
    outcome.net[box.seat] = net - fees
    outcome.seat_rules[box.seat] = rule
    outcome.trace += result.trace


def _keep_losing_late_chips(box: Box, late: BoxStakes, dealer: DealerHand | None,
                            game: DealerGame | None, paytable: dict[str, int],
                            rp: RussianProfile, outcome: GameOutcome, void_net: int,
                            fees: int) -> None:
    """SURV-1 ``kept_if_losing`` for a box that does not play with its late chips void:
    settled on ``late`` (its stakes with them) when that loses more, the house keeping
    them; a box that folds even so loses its late Ante too."""
    if late.plays and dealer is not None:
        cards = box_cards(box)
        if cards is None:
            raise HandRejected("RP-7", f"seat {box.seat} plays with its late chips but its "
                               "cards were never read (card_dealt or showdown)")
        bought = game.bought if game is not None and box.seat in game.buyers else None
        result = settle_playing_box(late, rankable(cards, f"seat {box.seat}"), dealer,
                                    bought, paytable, rp)
        kept = result.net - fees
    else:
        kept = -late.ante - fees
    if kept < void_net:
        outcome.trace.append(TraceStep("SURV-1", "the box's late chips lose: the house keeps "
                                       f"them ({kept - void_net})", box.seat))
        outcome.net[box.seat] = kept
        outcome.seat_rules[box.seat] = "SURV-1"  # the reading that kept them decided it


def _seat_rule(box: Box, result: Settlement) -> str:
    """The rule a mispay of this box cites: RP-4 when only the insurance was settled
    differently (e.g. paid although the dealer qualified), else the rule that decided the
    box's Ante and Bet."""
    insurance_wrong = box.recorded_insurance != result.insurance
    rest_right = box.recorded_other == result.net - result.insurance
    return "RP-4" if insurance_wrong and rest_right else result.rule


def _decision_trace(box: Box, stakes: BoxStakes, fees: int) -> list[TraceStep]:
    """RP-2/RP-3: what the box did with its cards, in plain words."""
    steps = [TraceStep("RP-1", f"Ante {stakes.ante}", box.seat)]
    for served in box.draws:
        if served.is_buy:
            what = f"bought a sixth card, {served.received[0]}"
        else:
            what = (f"exchanged {len(served.discarded)} card(s): {' '.join(served.discarded)}"
                    f" for {' '.join(served.received)}")
        steps.append(TraceStep("RP-2", what, box.seat))
    if fees:
        steps.append(TraceStep("RP-2", f"price of the draw(s): {fees}", box.seat))
    if not box.draws and box.first_step("stand") is not None:
        steps.append(TraceStep("RP-2", "kept the five cards", box.seat))
    if stakes.plays:
        steps.append(TraceStep("RP-3", f"plays: Bet {stakes.bet}", box.seat))
    return steps


def _has_late_chips(stakes: BoxStakes) -> bool:
    return bool(stakes.late_ante or stakes.late_bet or stakes.late_insurance)


def _with_late_chips(stakes: BoxStakes) -> BoxStakes:
    return BoxStakes(
        seat=stakes.seat,
        ante=stakes.ante + stakes.late_ante,
        bet=stakes.bet + stakes.late_bet,
        insurance=stakes.insurance + stakes.late_insurance,
        late_ante=0,
        late_bet=0,
        late_insurance=0,
        fold_rule=stakes.fold_rule,
    )


def _limit_findings(
    boxes: list[Box], config: TableConfigured | None, profile: RuleProfile
) -> list[Finding]:
    """GEN-5: the Ante within the posted limits (Bet and insurance follow from it, RP-3/4)."""
    if config is None:
        return []
    gen = gen_section(profile)
    limits = config.limits
    out: list[Finding] = []
    for box in boxes:
        for placed in box.antes:
            outside = not limits.min_wager <= placed.amount <= limits.max_wager
            off_ante = limits.ante is not None and placed.amount != limits.ante
            if outside or off_ante:
                posted = (f"the posted Ante of {limits.ante}" if off_ante else
                          f"the limits {limits.min_wager}..{limits.max_wager}")
                out.append(finding("WAGER_OUTSIDE_LIMITS", "GEN-5",
                                   gen.wager_outside_limits_severity,
                                   f"seat {box.seat}: Ante of {placed.amount} at seq "
                                   f"{placed.seq} is outside {posted}", seat=box.seat,
                                   amount=placed.amount))
    return out


def _table_stakes(facts: RussianHand, antes: dict[int, int], rp: RussianProfile) -> list[Finding]:
    """GEN-2 as Russian Poker applies it: a box must start the hand with the chips for
    everything the hand can require of it once its Ante is down: the Ante, one draw at
    the dearer of the buy and exchange prices (RP-2) and the Bet (RP-3), 4x Ante on
    house-v1. Insurance is optional and never required. A box short of that could be
    forced to fold for want of chips, which the table must not deal into."""
    stacks = {seat.seat: seat.stack for seat in facts.started.seats}
    draw = max(rp.buy_card_price_antes, rp.exchange_price_antes)
    multiple = 1 + draw + rp.bet_antes
    out: list[Finding] = []
    for seat, ante in sorted(antes.items()):
        needed = multiple * ante
        stack = stacks.get(seat)
        if ante and stack is not None and stack < needed:
            out.append(finding(
                "INSUFFICIENT_STAKE", "GEN-2", rp.insufficient_stake_severity,
                f"seat {seat} started with {stack} chips but an Ante of {ante} can require "
                f"{needed} (Ante, a draw at {draw}x Ante and the Bet of {rp.bet_antes}x Ante)",
                seat=seat, amount=needed - stack))
    return out
