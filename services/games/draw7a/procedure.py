"""Procedure checks of a Five Card Draw 7-A hand, once it has been replayed: players and
deck (FCD-1), the deal (FCD-4), the draw order and records (FCD-6), the showdown order
(FCD-9). Each irregularity is a finding naming its rule.
"""

from __future__ import annotations

from services.games.betting import clockwise_after
from services.games.draw7a.betting import required_deck
from services.games.draw7a.profile import HAND_SIZE
from services.games.draw7a.walk import HandWalk


def check_players_and_deck(walk: HandWalk) -> None:
    """FCD-1: 2 to 5 players; 32 cards, 36 when exactly five are dealt in."""
    players = len(walk.started.seats)
    prof = walk.prof
    if not prof.min_players <= players <= prof.max_players:
        walk.notes.add("PLAYER_COUNT", "FCD-1", walk.sev.player_count,
                       f"{players} players dealt in; the game takes {prof.min_players} to "
                       f"{prof.max_players}", amount=players)
    required = required_deck(players, prof)
    if walk.started.deck != required:
        walk.notes.add("WRONG_DECK", "FCD-1", walk.sev.wrong_deck,
                       f"hand_started declares a {walk.started.deck}-card deck with {players} "
                       f"players dealt in; FCD-1 requires {required} cards",
                       amount=walk.started.deck)
    walk.notes.step("FCD-1", f"{players} players dealt in: {required}-card deck "
                             f"required, {walk.started.deck} declared")


def check_deal(walk: HandWalk) -> None:
    """FCD-4: five cards each, one at a time, clockwise starting left of the button."""
    seats = [s.seat for s in walk.started.seats]
    order = clockwise_after(seats, walk.started.button)
    expected = order * HAND_SIZE
    if walk.deal_sequence[: len(expected)] != expected and walk.deal_sequence:
        walk.notes.add("DEAL_ORDER", "FCD-4", walk.sev.deal_order,
                       "the cards were not dealt one at a time clockwise starting left of the "
                       f"button (expected seat order {' '.join(map(str, order))}, five times)")
    for seat in seats:
        count = walk.deal_sequence.count(seat)
        if count != HAND_SIZE:
            walk.notes.add("WRONG_CARD_COUNT", "FCD-4", walk.sev.wrong_card_count,
                           f"seat {seat} was dealt {count} cards; each player receives five",
                           seat=seat, amount=count - HAND_SIZE)


def check_draw_order(walk: HandWalk) -> None:
    """FCD-6: the draw starts with the first active player left of the button and goes
    clockwise; the first seat that drew before a seat due ahead of it is reported."""
    due = [s for s in clockwise_after(walk.draw.entrants, walk.started.button)
           if s in walk.draw.order]
    for drew, expected in zip(walk.draw.order, due, strict=True):
        if drew != expected:
            walk.notes.add("DRAW_ORDER", "FCD-6", walk.sev.draw_order,
                           f"seat {drew} drew before seat {expected}; the draw goes clockwise "
                           "from the button's left", seat=drew)
            return


def check_draw_recorded(walk: HandWalk) -> None:
    """FCD-6: how many cards each player drew is public, so every draw is recorded."""
    for seat in walk.draw.entrants:
        if seat not in walk.draw.drawn:
            walk.notes.add("DRAW_NOT_RECORDED", "FCD-6", walk.sev.draw_not_recorded,
                           f"seat {seat} was in the hand at the draw but no draw or stand pat "
                           "was recorded for it", seat=seat)


def check_showdown_order(walk: HandWalk) -> None:
    """FCD-9: the last bettor or raiser of the final round shows first, else the first
    active player left of the button."""
    order = walk.engine.showdown_order()
    shown = [seat for seat, cards, mucked in walk.showdowns if seat in order]
    if len(order) < 2 or not shown:
        return
    walk.notes.step("FCD-9", f"showdown order {' '.join(map(str, order))}; "
                             f"seat {order[0]} shows first", order[0])
    if shown[0] != order[0]:
        walk.notes.add("SHOWDOWN_ORDER", "FCD-9", walk.sev.showdown_order,
                       f"seat {shown[0]} showed first; seat {order[0]} had to show first",
                       seat=shown[0])
