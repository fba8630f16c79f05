"""A random legal-action generator built on the engine's own legal-action API.

Used by the property tests of the engine and of the games: it plays a hand by asking the
engine for the options of the player to act and choosing among them, so any sequence it
produces is legal by construction and the engine must accept it without a violation.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from services.games.betting import BettingConfig, BettingHand, LegalActions

# chooser(options) -> index into options; hypothesis or random.Random supply it.
Chooser = Callable[[int], int]


@dataclass(frozen=True)
class Choice:
    seat: int
    kind: str
    amount: int | None


def legal_choices(legal: LegalActions, bet_level: int) -> list[Choice]:
    """Every distinct kind of legal move: fold, check or call, and the minimum, maximum
    and a middle bet or raise."""
    seat = legal.seat
    out = [Choice(seat, "fold", None)]
    if legal.can_check:
        out.append(Choice(seat, "check", None))
    else:
        kind = "all_in" if legal.call == legal.stack else "call"
        out.append(Choice(seat, kind, legal.call))
    if legal.can_raise:
        verb = "raise" if bet_level > 0 else "bet"
        for amount in sorted({legal.raise_min, (legal.raise_min + legal.raise_max) // 2,
                              legal.raise_max}):
            out.append(Choice(seat, "all_in" if amount == legal.stack else verb, amount))
    return out


def play_random_legal_hand(
    config: BettingConfig,
    stacks: Mapping[int, int],
    button: int,
    choose: Chooser,
) -> tuple[BettingHand, list[list[Choice]]]:
    """Post the blinds, then play every round with randomly chosen legal actions.

    Returns the engine and the actions of each round played (blinds in the first), so a
    game can put its own events (the draw, the board) between the rounds.
    """
    hand = BettingHand(config, stacks, button)
    rounds: list[list[Choice]] = [[]]
    for owed in hand.owed_posts():
        hand.apply(owed.seat, owed.kind, owed.amount)
        rounds[0].append(Choice(owed.seat, owed.kind, owed.amount))
    for index in range(len(config.rounds)):
        if index > 0:
            hand.next_round()
            rounds.append([])
        while (legal := hand.legal_actions()) is not None:
            options = legal_choices(legal, hand.bet_level)
            pick = options[choose(len(options))]
            hand.apply(pick.seat, pick.kind, pick.amount)
            rounds[-1].append(pick)
        if hand.hand_over():
            break
    hand.close_round()
    return hand, rounds
