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

from services.events.contract import TableConfigured
from services.games.betting import (
    BettingHand,
    PotRakeHand,
    RakePolicy,
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
from services.games.draw7a.betting import betting_config
from services.games.draw7a.procedure import (
    check_deal,
    check_draw_order,
    check_draw_recorded,
    check_players_and_deck,
    check_showdown_order,
)
from services.games.draw7a.profile import SECTION, Draw7aProfile
from services.games.draw7a.showdown import SETTLEMENT_WORDS, strengths
from services.games.draw7a.walk import HandWalk
from services.games.model import GameOutcome, HandInput
from services.games.profile import RuleProfile


def _start(hand: HandInput, prof: Draw7aProfile) -> tuple[HandWalk, TableConfigured]:
    config, started = opening(hand, "FCD-1")
    engine = BettingHand(betting_config(config, prof),
                         {s.seat: s.stack for s in started.seats}, started.button)
    walk = HandWalk(prof=prof, started=started, engine=engine, notes=Notes(prof.severity))
    walk.draw.stub = started.deck
    return walk, config


def adjudicate(hand: HandInput, profile: RuleProfile) -> GameOutcome:
    """The expected settlement of one Five Card Draw 7-A hand, with its findings."""
    prof = profile.section(SECTION, Draw7aProfile)
    walk, config = _start(hand, prof)
    check_players_and_deck(walk)
    replay(walk, hand.events)
    if walk.dead_reason is not None:
        return dead_outcome(walk.started, walk.notes, walk.dead_reason)
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
        walk.notes.step("FCD-9", f"seat {contenders[0]} wins without a showdown "
                                 "(every other player folded)", contenders[0])
    rake = RakePolicy.posted(config.rake, prof.rake,
                             PotRakeHand(len(walk.started.seats), engine.round_index > 0))
    result = settle(engine.contributions(), engine.folded(), ranks, engine.button, rake,
                    engine.stacks_left())
    rule = "FCD-11" if showdown else "FCD-9"
    return GameOutcome(
        net=result.net,
        house=result.house,
        rake=result.rake,
        pot_rake=result.pot_rake.amount,
        findings=[*violation_findings(engine.violations, prof.betting_severity),
                  *walk.notes.findings],
        trace=[*walk.notes.trace, *settlement_trace(result, ranks, SETTLEMENT_WORDS)],
        seat_rules={seat: rule for seat in result.net},
        fees_from_pot=result.fee_from == "pot",
    )
