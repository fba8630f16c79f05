"""A simulated Draw 7-A table with ``pitwatch simulate``'s options: styles (mapped onto
the table's own looseness and aggression), patterns and the dealer pool
(``services.simulator.options``). Without options none of these hooks draws a random
number or changes an event."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from services.games.betting import LegalActions
from services.games.draw7a import evaluation as short_deck
from services.simulator.options import TableOptions
from services.simulator.patterns import TablePatterns
from services.simulator.poker_play import Choice, PokerPlay, fixed_room
from services.simulator.styles import Style, style_for

if TYPE_CHECKING:
    from services.simulator.draw7a import Draw7aTable, HandPlay


@dataclass
class Draw7aExtras:
    patterns: TablePatterns
    play: PokerPlay


def styled(looseness: float, aggression: float, style: Style | None) -> tuple[float, float]:
    """A style on the table's own scales (looseness divides the fold odds, aggression
    scales the betting odds; both 0.5..1.5 for the game's own players)."""
    if style is None:
        return looseness, aggression
    return 0.5 + 2 * style.looseness + 2 * style.bluff, style.aggression + style.bluff


def extras_for(options: TableOptions, table: Draw7aTable) -> Draw7aExtras | None:
    if options.styles is None and not options.patterns:
        return None
    patterns = TablePatterns(options, table.stream.table_id)
    for position, seat in enumerate(table.seats):
        player = table.players[seat]
        patterns.seated(player.player_id)
        style = style_for(options.styles, position, options.table_index)
        player.looseness, player.aggression = styled(player.looseness, player.aggression,
                                                     style)
    return Draw7aExtras(patterns, PokerPlay(patterns))


class Draw7aView:
    """``poker_play.PokerHandView`` over a Draw 7-A hand in play."""

    def __init__(self, hand: HandPlay) -> None:
        self.hand = hand
        self.hand_id = hand.log.hand_id
        self.big_blind = hand.table.big_blind
        self.fixed_limit = hand.table.structure == "fixed"
        self.players = {s: hand.table.players[s].player_id for s in hand.seats}

    def player_of(self, seat: int) -> str | None:
        return self.players.get(seat)

    def seat_of(self, player: str) -> int | None:
        return next((s for s, p in self.players.items() if p == player), None)

    def live(self) -> list[int]:
        return self.hand.engine.active()

    def late(self) -> bool:
        return any(t == "draw" or (t == "action" and d.get("action") == "stand")
                   for t, d in self.hand.log.events)

    def fixed_room(self) -> int:
        config = self.hand.engine.config
        return fixed_room([r.bet_unit for r in config.rounds], config.max_bets_per_round)

    def pot(self) -> int:
        return self.hand.engine.pot_total()

    def invested(self, seat: int) -> int:
        return self.hand.engine.contributions().get(seat, 0)

    def beats(self, seat: int, other: int) -> bool:
        size = self.hand.deck_size
        hands = self.hand.hands
        return short_deck.rank5(hands[seat], size) > short_deck.rank5(hands[other], size)

    def bet_kind(self, legal: LegalActions) -> str:
        return "raise" if self.hand.engine.bet_level > 0 else "bet"


def adjust(hand: HandPlay, legal: LegalActions, choice: Choice) -> Choice:
    extras = hand.table.extras
    return choice if extras is None else extras.play.adjust(Draw7aView(hand), legal, choice)


def start_hand(hand: HandPlay) -> None:
    extras = hand.table.extras
    if extras is not None:
        extras.patterns.dealing(hand.table.dealer)
        extras.play.new_hand(Draw7aView(hand))


def finish_hand(table: Draw7aTable, hand_id: str, events: list[tuple[str, dict[str, object]]],
                seats: dict[int, str]) -> None:
    extras = table.extras
    if extras is not None:
        extras.patterns.edit_payouts(hand_id, table.dealer, seats, events)


def pool_dealer(table: Draw7aTable, default: str) -> str:
    return table.options.dealer(table.stream, default)
