"""Chinese Poker adjudication (rules.md CP-1..12, GEN-10): the expected settlement of a hand.

``adjudicate(hand, profile)`` is pure. It reads each participant's hand (set, automatic
win, foul), scores every pair (CP-4..CP-8, super bonus CP-6), turns points into chips with
the table-stakes cap and the clockwise payment order (CP-9, CP-10), takes the
participation rake (GEN-10), and reports misdeals and conduct (CP-11, CP-12, CP-9). The
adjudicator compares the result with the chips the table moved (``collection`` of points,
``rake_collected``); GEN-1..5 are checked once for every game elsewhere.

Submodules, one concept each: ``profile`` (the posted numbers and readings),
``reading`` (which setting or declaration counts, fouls), ``scoring``
(pairwise points), ``settlement`` (chips, caps, payment order, rake),
``procedure`` (misdeal, conduct, buy-ins, payment routing).
"""

from __future__ import annotations

from services.events.contract import CollectionEvent, Event, Finding, TableConfigured
from services.games.chinese.procedure import (
    BuyRecordLike,
    buy_findings,
    buys_in_hand,
    conduct_findings,
    dead_verdict,
    new_seat_stack_findings,
    routing_findings,
)
from services.games.chinese.profile import ChineseProfile, chinese_profile
from services.games.chinese.reading import HandReading, judge_hands, read_hand
from services.games.chinese.scoring import PairScore, score_pairs
from services.games.chinese.settlement import (
    Settlement,
    fees_within_stacks,
    rake_due,
    settle,
    stake_findings,
)
from services.games.model import GameOutcome, HandInput, HandRejected, TraceStep
from services.games.profile import RuleProfile

__all__ = ["ChineseProfile", "adjudicate"]

# The rule cited for a seat's settlement when several decided it: the most specific first.
SEAT_RULE_PRIORITY: tuple[str, ...] = ("CP-10", "CP-8", "CP-7", "CP-6", "CP-5", "CP-4")


def adjudicate(hand: HandInput, profile: RuleProfile) -> GameOutcome:
    """Expected net per seat (after rake), rake, findings and the decision path."""
    cp = chinese_profile(profile)
    config = _config(hand)
    point_value = _point_value(config)
    events = hand.events
    reading = read_hand(events, cp)
    findings = list(reading.findings)
    trace = reading.trace
    findings += conduct_findings(events, reading, hand.table, cp)
    findings += _buy_in_findings(hand, reading, point_value, cp)
    dead = dead_verdict(events, reading, cp, findings, trace)
    if dead is not None:
        seat_rules = {seat: dead.rule for seat in reading.participants}
        seat_rules.update(_dead_seat_rules(events, reading))
        return GameOutcome(net=dict.fromkeys(reading.participants, 0), house=0, rake={},
                           findings=findings, trace=trace, seat_rules=seat_rules, dead=True)
    findings += judge_hands(events, reading, cp)
    scoring = config.scoring or cp.default_scoring
    trace.append(_scoring_step(scoring, point_value))
    pairs = score_pairs(reading.hands, cp, scoring, trace)
    live = tuple(s for s in reading.participants if reading.hands[s].status != "dead")
    button = reading.started.data.button
    rake = rake_due(live, button, config.rake.mode, config.rake.fee, cp)
    if cp.rake.stake_counts_fee:  # GEN-2 Reading: the fee is what the hand can require
        findings += stake_findings(rake, reading.stacks, cp)
        rake = fees_within_stacks(rake, reading.stacks, trace)
    settlement = settle(pairs, live, reading.stacks, button, point_value, rake, cp)
    trace += settlement.trace
    findings += routing_findings(events, settlement.transfers, cp)
    net = dict.fromkeys(reading.participants, 0)
    net.update(settlement.net)
    return GameOutcome(
        net=net,
        house=sum(rake.values()),
        rake=rake,
        findings=findings,
        trace=trace,
        seat_rules={**_seat_rules(pairs, settlement, reading), **_dead_seat_rules(events,
                                                                                  reading)},
    )


def _config(hand: HandInput) -> TableConfigured:
    if hand.table.config is None:
        raise HandRejected("GEN-5", "no table_configured: no posted scoring, point value or rake")
    return hand.table.config


def _point_value(config: TableConfigured) -> int:
    """CP-9: every point is worth the table's posted ``point_value``."""
    value = config.limits.point_value
    if value is None or value <= 0:
        raise HandRejected("CP-9", "the table configuration posts no point_value, so points "
                                   "cannot be turned into chips")
    return value


def _scoring_step(scoring: str, point_value: int) -> TraceStep:
    rule = "CP-5" if scoring == "mandarin" else "CP-4"
    return TraceStep(rule, f"{scoring} scoring, one point = {point_value} chips")


def _buy_in_findings(hand: HandInput, reading: HandReading, point_value: int,
                     cp: ChineseProfile) -> list[Finding]:
    """CP-9 from the table's buy history (``TableContext.buys`` when the hand assembly
    provides it) plus buys recorded during the hand; without a history, a new player's
    first stack is its buy-in."""
    history: tuple[BuyRecordLike, ...] = hand.table.buys
    buys: list[BuyRecordLike] = [*history, *buys_in_hand(hand.events)]
    found = buy_findings(buys, point_value, cp)
    seated_known = {b.seat for b in history if b.kind == "seated"}
    found += new_seat_stack_findings(reading, hand.table, seated_known, point_value, cp)
    return found


def _seat_rules(pairs: list[PairScore], settlement: Settlement,
                reading: HandReading) -> dict[int, str]:
    """For each seat the rule a MISPAY should cite: the most specific that touched it."""
    touched: dict[int, set[str]] = {seat: {"CP-4"} for seat in reading.participants}
    for pair in pairs:
        touched[pair.a].add(pair.rule)
        touched[pair.b].add(pair.rule)
    for seat in settlement.capped:
        touched[seat].add("CP-10")
    for seat, hand in reading.hands.items():
        if hand.status == "foul":
            touched[seat].add("CP-8")
        if hand.status == "dead":
            touched[seat] = {"CP-1"}
    return {seat: next(r for r in (*SEAT_RULE_PRIORITY, "CP-1") if r in rules)
            for seat, rules in touched.items()}


def _dead_seat_rules(events: tuple[Event, ...], reading: HandReading) -> dict[int, str]:
    """CP-1: a seat not dealt in that the table nonetheless paid or charged."""
    seats: set[int] = set()
    for event in events:
        if isinstance(event, CollectionEvent):
            seats.add(event.data.seat)
            if event.data.to.startswith("seat:"):
                seats.add(int(event.data.to[5:]))
    return {seat: "CP-1" for seat in seats - set(reading.participants)}
