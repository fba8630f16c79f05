"""A simulated hold'em table with ``pitwatch simulate``'s options: styles, patterns, the
dealer pool (``services.simulator.options``). The table module calls these few hooks;
without options none of them draws a random number or changes an event."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from services.games.betting import LegalActions
from services.games.evaluation.standard import best_rank
from services.simulator.holdem_strategy import (
    choose,
    choose_styled,
    hole_strength,
    styled_strength,
)
from services.simulator.options import TableOptions
from services.simulator.patterns import TablePatterns
from services.simulator.poker_play import PokerPlay, fixed_room
from services.simulator.styles import Style, style_for

if TYPE_CHECKING:
    from services.simulator.holdem import HandRun


@dataclass
class HoldemExtras:
    """What a hold'em table with options keeps: its patterns, decisions and styles."""

    patterns: TablePatterns
    play: PokerPlay
    styles: dict[int, Style] = field(default_factory=dict)


def extras_for(options: TableOptions, table_id: str,
               seated: list[tuple[int, str]]) -> HoldemExtras | None:
    """None for a table without styles and patterns (the legacy table)."""
    if options.styles is None and not options.patterns:
        return None
    patterns = TablePatterns(options, table_id)
    styles: dict[int, Style] = {}
    for position, (seat, player_id) in enumerate(seated):
        patterns.seated(player_id)
        style = style_for(options.styles, position, options.table_index)
        if style is not None:
            styles[seat] = style
    return HoldemExtras(patterns, PokerPlay(patterns), styles)


class HoldemView:
    """``poker_play.PokerHandView`` over a hold'em hand in play."""

    def __init__(self, run: HandRun) -> None:
        self.run = run
        self.hand_id = run.hand_id
        self.big_blind = run.table.config.limits.big_blind or 2
        self.fixed_limit = run.table.config.structure == "fixed"
        self.players = {p.seat: p.player_id for p in run.players}

    def player_of(self, seat: int) -> str | None:
        return self.players.get(seat)

    def seat_of(self, player: str) -> int | None:
        return next((s for s, p in self.players.items() if p == player), None)

    def live(self) -> list[int]:
        return self.run.engine.active()

    def late(self) -> bool:
        return len(self.run.board) >= 4

    def fixed_room(self) -> int:
        config = self.run.engine.config
        return fixed_room([r.bet_unit for r in config.rounds], config.max_bets_per_round)

    def pot(self) -> int:
        return self.run.engine.pot_total()

    def invested(self, seat: int) -> int:
        return self.run.engine.contributions().get(seat, 0)

    def beats(self, seat: int, other: int) -> bool:
        return self._value(seat) > self._value(other)

    def _value(self, seat: int) -> float:
        hole = self.run.hole[seat]
        if not self.run.board:
            return hole_strength(hole)
        return best_rank([*hole[:2], *self.run.board])

    def bet_kind(self, legal: LegalActions) -> str:
        return "bet" if legal.can_check else "raise"


def decide(run: HandRun, options: LegalActions, strength: float) -> tuple[str, int]:
    """A decision at a table with options: the player's style, then the patterns."""
    extras = run.table.extras
    if extras is None:
        return choose(options, strength, run.rng)
    style = extras.styles.get(options.seat)
    if style is None:
        base = choose(options, strength, run.rng)
    else:
        seen = styled_strength(run.hole[options.seat], run.board)
        base = choose_styled(options, seen, style, run.rng, run.engine.pot_total(),
                             heads_up=len(run.engine.active()) == 2)
    kind, chips = extras.play.adjust(HoldemView(run), options, base)
    return kind, chips or 0


def start_hand(run: HandRun, dealer: str) -> None:
    extras = run.table.extras
    if extras is not None:
        extras.patterns.dealing(dealer)
        extras.play.new_hand(HoldemView(run))


def finish_hand(run: HandRun, dealer: str) -> None:
    extras = run.table.extras
    if extras is not None:
        seats = {p.seat: p.player_id for p in run.players}
        extras.patterns.edit_payouts(run.hand_id, dealer, seats, run.events)
