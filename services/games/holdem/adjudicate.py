"""Texas Hold'em: rules TH-1..9 (rules.md), adjudicated from the table's own events.

``adjudicate(hand, profile)`` replays one hand in order (``walk``): blinds, antes and
betting through the shared engine (``services.games.betting``, TH-1 structures), the
hole-card deal with its exposed and extra cards (``deal``: TH-1, TH-3, TH-7), the board
with its burns, redealt flops and premature turns (``board``: TH-1, TH-4, TH-5, TH-6), then the
showdown (``showdown``: TH-2, TH-8, TH-9) and the settlement with side pots, split
pots, the odd-chip rule and the posted rake (GEN-10). A misdeal correctly declared makes
the hand dead (GEN-6): everything goes back, no rake.

It returns the expected net per seat after rake, the rake per paying seat, the procedure
findings (each names the rule and what the dealer should have done) and the decision
path. GEN-1..5 are checked once for every game by ``services.adjudicator.integrity``.
"""

from __future__ import annotations

from services.events.contract import TableConfigured
from services.games.betting import (
    PotRakeHand,
    RakePolicy,
    Settlement,
    settle,
    violation_findings,
)
from services.games.betting.pot_hand import (
    Notes,
    dead_outcome,
    opening,
    replay,
    settlement_trace,
)
from services.games.holdem.betting import HoldemBetting, betting_config, posted_antes
from services.games.holdem.board import Board
from services.games.holdem.bounds import net_bounds
from services.games.holdem.deal import HoleDeal
from services.games.holdem.profile import SECTION, HoldemProfile, HoldemSeverities
from services.games.holdem.settlement import settle_with_dead_money
from services.games.holdem.showdown import SETTLEMENT_WORDS, ShowdownInput, check_order, strengths
from services.games.holdem.walk import HandWalk
from services.games.model import GameOutcome, HandInput, TraceStep
from services.games.profile import RuleProfile


def dead_antes(walk: HandWalk, config: TableConfigured) -> dict[int, int]:
    """Antes that are dead money in the main pot (TH-1 / TH-9 reading): every ante when
    ``antes_dead_money``, else only a big-blind ante (what the big blind posted in antes
    beyond the ante every player owes)."""
    if walk.prof.antes_dead_money:
        return {seat: amount for seat, amount in walk.antes.items() if amount}
    antes = posted_antes(config.limits)
    if not antes.big_blind:
        return {}
    seat = walk.engine.big_blind_seat
    dead = walk.antes.get(seat, 0) - min(antes.each, walk.antes.get(seat, 0))
    return {seat: dead} if dead > 0 else {}


def settle_hand(walk: HandWalk, config: TableConfigured) -> GameOutcome:
    """Pots to the best hands (TH-2, TH-8, TH-9), rake per the posted mode (GEN-10)."""
    engine = walk.engine
    contenders = engine.active()
    showdown = len(contenders) > 1
    data = ShowdownInput(contenders, walk.deal.hands, walk.board.cards, walk.shown,
                         walk.declared_board)
    ranks = strengths(data, walk.prof, walk.notes) if showdown else {}
    if showdown:
        check_order(engine, walk.shown, walk.notes)
    elif contenders:
        walk.notes.step("TH-9", f"seat {contenders[0]} wins without a showdown (every other "
                                "player folded)", contenders[0])
    rake = RakePolicy.posted(config.rake, walk.prof.rake,
                             PotRakeHand(len(walk.started.seats), bool(walk.board.cards)))
    known = ranks
    if data.unknown:  # the rake does not depend on who won: settled as a split for it
        ranks = dict.fromkeys(contenders, 0)
    dead = dead_antes(walk, config)
    if dead:
        result = settle_with_dead_money(engine.contributions(), dead, engine.folded(), ranks,
                                        engine.button, rake, engine.stacks_left())
    else:
        result = settle(engine.contributions(), engine.folded(), ranks, engine.button, rake,
                        engine.stacks_left())
    if data.unknown:
        bounds = net_bounds(result, engine.contributions(), known, data.unknown, engine.button)
        return cannot_verify(walk, data, result, bounds)
    seat_rules = {seat: data.seat_rules.get(seat, "TH-9") for seat in result.net}
    return GameOutcome(
        net=result.net,
        house=result.house,
        rake=result.rake,
        pot_rake=result.pot_rake.amount,
        findings=[*violation_findings(engine.violations, walk.prof.betting_severity),
                  *walk.notes.findings],
        trace=[*walk.notes.trace, *settlement_trace(result, ranks, SETTLEMENT_WORDS)],
        seat_rules=seat_rules,
        fees_from_pot=result.fee_from == "pot",
    )


def cannot_verify(walk: HandWalk, data: ShowdownInput, result: Settlement,
                  bounds: dict[int, tuple[int, int]]) -> GameOutcome:
    """TH-9 when a contender's cards are unknown (not read at the deal, not shown): who
    won cannot be said, so no seat's result is expected; what does not depend on it is
    still checked: every action (the betting findings), the chips (the recorded side's
    GEN-8 checks), the rake (the fees and a pot rake depend on the pot, not on the
    winner; a fee is reckoned as if the contenders split the pot, which matters only for
    an all-in contender's fee from its stack) and each seat's result against ``bounds``
    (``holdem.bounds``: a folded seat paid, a seat paid a pot it is not in, a pot between
    known hands paid wrong are mispays whoever won)."""
    seats = ", ".join(map(str, data.unknown))
    reason = (f"cannot verify who won: the showdown cards of seat(s) {seats} are unknown "
              "(not read at the deal, not shown); the actions, the chips, the rake and "
              "each seat's result against the pots it can win are checked")
    walk.notes.add("SHOWDOWN_UNKNOWN", "TH-9", walk.prof.severity.showdown_unknown, reason)
    rake_steps = [step for step in settlement_trace(result, {}, SETTLEMENT_WORDS)
                  if step.rule == "GEN-10"]
    return GameOutcome(
        net={},
        house=result.house,
        rake=result.rake,
        pot_rake=result.pot_rake.amount,
        findings=[*violation_findings(walk.engine.violations, walk.prof.betting_severity),
                  *walk.notes.findings],
        trace=[*walk.notes.trace, TraceStep("TH-9", reason), *rake_steps],
        seat_rules={seat: data.seat_rules.get(seat, "TH-9") for seat in bounds},
        unverified=reason,
        net_bounds=bounds,
        fees_from_pot=result.fee_from == "pot",
    )


def start(hand: HandInput, prof: HoldemProfile) -> tuple[HandWalk, TableConfigured]:
    config, started = opening(hand, "TH-1")
    stacks = {s.seat: s.stack for s in started.seats}
    engine = HoldemBetting(betting_config(config, prof), stacks, started.button,
                           big_blind_ante=posted_antes(config.limits).big_blind)
    notes: Notes[HoldemSeverities] = Notes(prof.severity)
    seats = sorted(stacks)
    walk = HandWalk(prof, started, engine, notes, HoleDeal(prof, notes, seats, started.button),
                    Board(prof, notes))
    if started.deck != prof.deck_size:
        notes.add("WRONG_DECK", "TH-9", prof.severity.wrong_deck,
                  f"hand_started declares a {started.deck}-card deck; hold'em is dealt from "
                  f"one standard {prof.deck_size}-card deck", amount=started.deck)
    return walk, config


def adjudicate(hand: HandInput, profile: RuleProfile) -> GameOutcome:
    """The expected settlement of one Texas Hold'em hand, with its findings."""
    prof = profile.section(SECTION, HoldemProfile)
    walk, config = start(hand, prof)
    replay(walk, hand.events)
    walk.finish()
    if walk.dead_reason is not None:
        return dead_outcome(walk.started, walk.notes, walk.dead_reason)
    cause = walk.deal.misdeal_cause
    if cause is not None and prof.undeclared_misdeal_settlement == "dead":
        return dead_outcome(walk.started, walk.notes,
                            f"{cause.reason}: a misdeal was due ({cause.rule})")
    return settle_hand(walk, config)
