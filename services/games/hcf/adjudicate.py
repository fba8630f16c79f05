"""High Card Flush adjudication (rules.md HCF-1..14, GEN-2/5/6/7 as they apply to HCF).

``adjudicate(hand, profile)`` re-derives one hand from its cards, decisions, the table's
configuration and the rule profile alone, and returns the expected settlement, the
HCF-specific findings and the decision path. The recorded side and the common GEN checks
(GEN-1..5) are done once for every game by ``services.adjudicator``; this module never
repeats them.

The work is split in three modules so each stays one concept:
``reading`` (one pass over the events), ``procedure`` (what is in action: dead
hands, past-posting, decisions, raise caps, DP rotation) and ``settlement`` (qualification,
comparisons, bonuses and cap, DP bankroll, rake). This module wires them together and says
which rule decided each seat, so a mispay cites the rule the table got wrong.
"""

from __future__ import annotations

from services.events.contract import Finding
from services.games.hcf.order import order_finding, table_order
from services.games.hcf.procedure import (
    ANTE,
    FLUSH_BONUS,
    SF_BONUS,
    SeatPlay,
    dp_table_stakes,
    known_cards,
    require_cards,
    rotation_findings,
    seat_play,
    table_stakes,
    voided_wagers,
    wagers_in_action,
    whole_hand_dead,
)
from services.games.hcf.profile import HcfProfile, HcfRules, RaiseCap, resolve_rules
from services.games.hcf.reading import HandFacts, RecordedSeat, read_facts
from services.games.hcf.settlement import (
    RAISE_KIND,
    SeatSettlement,
    Settlement,
    dp_rake_reserve,
    fees_within_stacks,
    player_fee,
    settle,
    settlement_order,
)
from services.games.model import GameOutcome, HandInput, HandRejected, TraceStep, finding
from services.games.profile import RuleProfile

__all__ = ["HcfProfile", "RaiseCap", "adjudicate"]

_EMPTY = RecordedSeat()


def adjudicate(hand: HandInput, profile: RuleProfile) -> GameOutcome:
    """The expected side of one High Card Flush hand."""
    config = hand.table.config
    if config is None:
        raise HandRejected("GEN-5", "no table_configured: no posted limits, paytables or rake")
    rules = resolve_rules(profile, config)
    facts = read_facts(hand.events)
    found: list[Finding] = []
    trace: list[TraceStep] = []
    rotation_findings(facts, hand.table, rules, found, trace)
    in_action = wagers_in_action(facts, rules, config.limits, found)
    voided = {seat: voided_wagers(facts, seat, rules) for seat in sorted(facts.wagers)
              if seat != facts.dp and seat in facts.stacks}  # read by the trace and the MISPAY
    trace += _void_steps(voided)
    dead_rule = whole_hand_dead(facts, in_action, rules, found, trace)
    if dead_rule is not None:
        return _dead_outcome(facts, in_action, dead_rule, rules, found, trace)
    order = settlement_order([s for s in in_action if in_action[s].get(ANTE)], facts.dp)
    plays: list[SeatPlay] = []
    counts_fee = rules.profile.stake_counts_fee  # GEN-2 Reading: the fee is required too
    fee = player_fee(config.rake) if counts_fee else 0
    for seat in order:
        table_stakes(seat, facts.stacks[seat], in_action[seat], rules, found, fee)
        plays.append(seat_play(seat, in_action[seat], facts, rules, found, trace))
    if counts_fee:
        dp_fee = dp_rake_reserve(len(plays), config.rake, rules.profile.dp_rake_needs_participant)
        dp_table_stakes(facts.dp, facts.stacks.get(facts.dp, 0), dp_fee, rules, found)
    dp_cards = None
    if any(not p.folded for p in plays):
        dp_cards = require_cards(known_cards(facts, facts.dp, rules, found),
                                 "the designated player")
    trace.append(TraceStep("HCF-5", "settlement order (counter-clockwise from the right of "
                                    f"the button): {order or 'no players'}"))
    def settle_in(ordered: list[SeatPlay]) -> Settlement:
        return settle(ordered, facts.dp, facts.stacks[facts.dp], dp_cards, rules, config.rake)

    result = settle_in(plays)
    trace += result.trace
    if counts_fee:
        result.rake = fees_within_stacks(result.rake, result.seats, facts.dp, result.dp_delta,
                                         facts.stacks, rules, found, trace)
    net = dict.fromkeys((*facts.stacks, *facts.wagers), 0)
    for s in result.seats:
        net[s.seat] = s.delta
    net[facts.dp] = result.dp_delta
    for seat, fee in result.rake.items():
        net[seat] = net.get(seat, 0) - fee
    seat_rules = _seat_rules(facts, result.seats, result.bonus_capped, voided)
    wrong_order = table_order(plays, result, facts.recorded, settle_in)
    if wrong_order is not None:
        found.append(order_finding(wrong_order, plays, rules.profile.settlement_order_severity))
        seat_rules.update(dict.fromkeys((*wrong_order.seats, facts.dp), "HCF-11"))
    return GameOutcome(net=net, house=sum(result.rake.values()), rake=result.rake,
                       findings=found, trace=trace, seat_rules=seat_rules)


def _dead_outcome(facts: HandFacts, in_action: dict[int, dict[str, int]], rule: str,
                  rules: HcfRules, found: list[Finding], trace: list[TraceStep]) -> GameOutcome:
    """GEN-6: every wager returned, nothing paid, no rake."""
    if facts.settled_anything or facts.kept_rake > 0:
        found.append(finding(
            "DEAD_HAND_SETTLED", rule, rules.profile.dead_hand_settled_severity,
            "the hand is dead (every wager goes back, nothing is paid, no rake) but the table "
            "collected, paid or raked chips in it"))
    reasons = "; ".join(f"{kind}: {why}" for kind, why, _ in facts.dead_events) or \
        "card count discrepancy"
    found.append(finding("DEAD_HAND", rule, "info", f"dead hand ({reasons})"))
    seats = (*facts.stacks, *facts.wagers)
    return GameOutcome(net=dict.fromkeys(seats, 0), house=0, rake={}, findings=found,
                       trace=trace, seat_rules=dict.fromkeys(seats, rule), dead=True)


def _void_steps(voided: dict[int, dict[str, str]]) -> list[TraceStep]:
    """The decision path's step for each wager voided as past-posted (``voided``: seat ->
    kind -> rule, in seat order): without it a seat's settlement showed "+0 Raise" with
    nothing saying why (QA)."""
    steps = []
    for seat, kinds in voided.items():
        for kind, rule in kinds.items():
            when = "the first card" if rule == "HCF-3" else "an outcome was visible"
            steps.append(TraceStep(rule, f"seat {seat}: {kind} placed after {when}: void "
                                         "(past_posted_wager_void), returned, not in action",
                                   seat))
    return steps


def _mismatch_rule(s: SeatSettlement, rec: RecordedSeat, capped: bool,
                   void: dict[str, str]) -> str | None:
    """The rule of the first part of the seat's settlement the table recorded differently.
    A part whose wager was void (``void``: kind -> the rule that voided it) is decided by
    that rule; a folded seat's bonuses by its fold's (HCF-4, GEN-7): they were forfeited,
    so the paytable decided nothing (QA: a folded seat's paid bonus cited HCF-8)."""
    got, due = rec.collected, s.collected
    if (rec.win_paid != s.win_paid or rec.other_paid
            or got.get(ANTE, 0) != due.get(ANTE, 0)
            or got.get(RAISE_KIND, 0) != due.get(RAISE_KIND, 0)):
        return void.get(RAISE_KIND, s.rule)
    live = not s.folded and s.rule in ("HCF-7", "HCF-4")
    if got.get(FLUSH_BONUS, 0) != due.get(FLUSH_BONUS, 0):
        return void.get(FLUSH_BONUS) or ("HCF-8" if live else s.rule)
    if got.get(SF_BONUS, 0) != due.get(SF_BONUS, 0):
        return void.get(SF_BONUS) or ("HCF-9" if live else s.rule)
    if rec.bonus_paid != s.bonus_paid:
        voided = void.get(FLUSH_BONUS) or void.get(SF_BONUS)
        if voided is not None:
            return voided
        if not live:
            return s.rule
        if capped:
            return "HCF-10"
        return "HCF-9" if s.sf_win and not s.flush_win else "HCF-8"
    return None


def _seat_rules(facts: HandFacts, seats: list[SeatSettlement], capped: bool,
                voided: dict[int, dict[str, str]]) -> dict[int, str]:
    """Which rule decided each seat; for the DP, the rule of the first player (in HCF-5
    order) the table settled differently, since every player's mispay is also the DP's."""
    out: dict[int, str] = {}
    dp_rule: str | None = None
    for s in seats:
        wrong = _mismatch_rule(s, facts.recorded.get(s.seat, _EMPTY), capped,
                               voided.get(s.seat, {}))
        out[s.seat] = wrong or s.rule
        if wrong is not None and dp_rule is None:
            dp_rule = wrong
    if dp_rule is None:
        dp_rule = "HCF-11" if any(s.dead for s in seats) else "HCF-7"
    out[facts.dp] = dp_rule
    return out
