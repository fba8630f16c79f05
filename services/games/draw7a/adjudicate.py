"""Five Card Draw, 7 to Ace (short deck): rules FCD-1..11 (rules.md), adjudicated.

``adjudicate(hand, profile)`` replays one hand's events: the deck and players (FCD-1),
blinds and betting through the shared engine (``services.games.betting``: FCD-3, FCD-5,
FCD-7, FCD-8), the deal (FCD-4), the draw and any reshuffle of the discards (FCD-6), the
showdown order (FCD-9), and settles the pots with the short-deck ranking (FCD-10,
FCD-11) and the posted rake (GEN-10). It returns the expected net per seat after rake,
the rake per paying seat, the procedure findings, and the decision path (``trace``).

GEN-1..5 (deck integrity, table stakes, chips during the hand, cash, authorisation) are
checked once for every game by ``services.adjudicator.integrity`` and are not repeated.
"""

from __future__ import annotations

from services.events.contract import HandEndedEvent, HandStartedEvent
from services.games.betting import BettingHand, RakePolicy, settle, violation_findings
from services.games.draw7a.betting import betting_config
from services.games.draw7a.procedure import (
    check_deal,
    check_draw_order,
    check_draw_recorded,
    check_players_and_deck,
    check_showdown_order,
)
from services.games.draw7a.profile import SECTION, Draw7aProfile
from services.games.draw7a.showdown import settlement_trace, strengths
from services.games.draw7a.walk import HandWalk
from services.games.model import GameOutcome, HandInput, HandRejected, TraceStep
from services.games.profile import RuleProfile


def dead_outcome(walk: HandWalk) -> GameOutcome:
    """GEN-6: a dead hand or misdeal returns every wager; nothing is paid or raked."""
    seats = [s.seat for s in walk.started.seats]
    return GameOutcome(
        net={seat: 0 for seat in seats},
        house=0,
        rake={},
        findings=walk.findings,
        trace=[*walk.trace, TraceStep("GEN-6", f"hand dead ({walk.dead_reason}): every "
                                               "chip goes back, no rake")],
        seat_rules={seat: "GEN-6" for seat in seats},
        dead=True,
    )


def _start(hand: HandInput, prof: Draw7aProfile) -> HandWalk:
    config = hand.table.config
    if config is None:
        raise HandRejected("GEN-5", "no table configuration")
    started = next((e.data for e in hand.events if isinstance(e, HandStartedEvent)), None)
    if started is None:
        raise HandRejected("FCD-1", "the hand has no hand_started event")
    if len(started.seats) < 2:
        raise HandRejected("FCD-1", f"{len(started.seats)} player(s) dealt in; a pot needs "
                                    "at least two")
    engine = BettingHand(betting_config(config, prof),
                         {s.seat: s.stack for s in started.seats}, started.button)
    walk = HandWalk(prof=prof, started=started, engine=engine)
    walk.draw.stub = started.deck
    return walk


def adjudicate(hand: HandInput, profile: RuleProfile) -> GameOutcome:
    """The expected settlement of one Five Card Draw 7-A hand, with its findings."""
    prof = profile.section(SECTION, Draw7aProfile)
    walk = _start(hand, prof)
    config = hand.table.config
    assert config is not None
    check_players_and_deck(walk)
    for event in hand.events:
        if isinstance(event, HandEndedEvent):
            break
        walk.feed(event)
    if walk.dead_reason is not None:
        return dead_outcome(walk)
    walk.finish_betting()
    check_deal(walk)
    if walk.draw.entrants:
        check_draw_order(walk)
        check_draw_recorded(walk)
    engine = walk.engine
    contenders = engine.active()
    showdown = len(contenders) > 1
    ranks = strengths(walk, contenders) if showdown else {}
    if showdown:
        check_showdown_order(walk)
    else:
        walk.trace.append(TraceStep("FCD-9", f"seat {contenders[0]} wins without a showdown "
                                             "(every other player folded)", contenders[0]))
    rake = RakePolicy(config.rake.mode, config.rake.fee, prof.designated_counts_button,
                      prof.rake_source)
    result = settle(engine.contributions(), engine.folded(), ranks, engine.button, rake,
                    engine.stacks_left())
    rule = "FCD-11" if showdown else "FCD-9"
    return GameOutcome(
        net=result.net,
        house=result.house,
        rake=result.rake,
        findings=[*violation_findings(engine.violations, prof.betting_severity),
                  *walk.findings],
        trace=[*walk.trace, *settlement_trace(walk, result, ranks)],
        seat_rules={seat: rule for seat in result.net},
    )
