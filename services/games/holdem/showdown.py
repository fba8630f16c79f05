"""The showdown: each contender's hand (TH-2), playing the board (TH-8), order (TH-9).

TH-2: a hand is the best five of the seven cards (two hole cards and the board); a player
may play the board. TH-8: a player who throws the cards away without first declaring that
they play the board gives up any claim to the pot; one who declared keeps a claim to the
board's five cards. TH-9 (as FCD-9): the last bettor or raiser of the final round shows
first; cards speak: the cards dealt, as read at the deal, are the hand.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from services.games.betting import BettingHand
from services.games.betting.pot_hand import Notes, SettlementWords
from services.games.evaluation import standard
from services.games.holdem.profile import HoldemProfile, HoldemSeverities
from services.games.model import HandRejected


@dataclass(frozen=True)
class Shown:
    """A ``showdown`` record: the cards shown, or mucked."""

    seat: int
    cards: tuple[str, ...] | None
    mucked: bool
    seq: int


@dataclass
class ShowdownInput:
    """What the walk gathered for the showdown."""

    contenders: Sequence[int]
    hole: Mapping[int, Sequence[str | None]]
    board: Sequence[str | None]
    shown: Sequence[Shown]
    declared_board: Mapping[int, int]  # seat -> seq of its declare_board action
    seat_rules: dict[int, str] = field(default_factory=dict)
    unknown: list[int] = field(default_factory=list)  # contenders whose cards nobody knows


class CardsUnknown(Exception):
    """A contender's hole cards were neither read at the deal nor shown."""


def strengths(data: ShowdownInput, prof: HoldemProfile,
              notes: Notes[HoldemSeverities]) -> dict[int, int | None]:
    """Rank code of each contender's hand; None when it cannot win the pot, or when its
    cards are unknown (listed in ``data.unknown``: then nobody can say who won)."""
    # A board card read twice (GEN-1 reports it) counts once: a board of fewer distinct
    # cards than TH-1 deals cannot rank anyone's hand (nor be "played", TH-8).
    board = list(dict.fromkeys(c for c in data.board if c is not None))
    if len(board) != prof.board_cards:
        return _unfinished(data, board, prof, notes)
    out: dict[int, int | None] = {}
    for seat in data.contenders:
        try:
            out[seat] = _strength(seat, data, board, prof, notes)
        except CardsUnknown:
            data.unknown.append(seat)
            out[seat] = None
    return out


def _unfinished(data: ShowdownInput, board: list[str], prof: HoldemProfile,
                notes: Notes[HoldemSeverities]) -> dict[int, int | None]:
    """Several players still in, but no complete board: no hand can be ranked."""
    seats = " ".join(map(str, data.contenders))
    message = (f"the hand ended with seats {seats} still in and {len(board)} known board "
               f"card(s) ({' '.join(board) or 'none'}); TH-1 deals {prof.board_cards} and "
               "ends in a showdown, so no winner can be determined")
    if prof.unfinished_board_pot == "reject":
        raise HandRejected("TH-1", message)
    notes.add("BOARD_CARD_COUNT", "TH-1", notes.severity.board_card_count,
              message + ": the pot is shown split among them", amount=len(board))
    return {seat: None for seat in data.contenders}


def _strength(seat: int, data: ShowdownInput, board: list[str], prof: HoldemProfile,
              notes: Notes[HoldemSeverities]) -> int | None:
    records = [s for s in data.shown if s.seat == seat]
    first = records[0] if records else None
    if first is not None and first.mucked:  # TH-8: thrown away, even if the cards were read
        return _mucked(seat, first, data, board, notes)
    if first is None and prof.unshown_contender == "no_claim":
        notes.step("TH-9", f"seat {seat} did not show its hand: no claim to the pot", seat)
        return None
    cards = _hole_cards(seat, first, data, notes)
    if len(cards) != prof.hole_cards:
        notes.step("TH-1", f"seat {seat} holds {len(cards)} hole cards" + (
            ": its hand cannot win" if prof.irregular_hand_dead else ""), seat)
        if prof.irregular_hand_dead or not cards:
            return None
    return _best(cards, board)


def _mucked(seat: int, record: Shown, data: ShowdownInput, board: list[str],
            notes: Notes[HoldemSeverities]) -> int | None:
    """TH-8: mucked cards keep a claim only to the board, and only if declared first."""
    declared = data.declared_board.get(seat)
    if declared is not None and declared < record.seq:
        data.seat_rules[seat] = "TH-8"
        notes.step("TH-8", f"seat {seat} declared playing the board, then threw its cards "
                           f"away: it plays the board ({' '.join(board)})", seat)
        return standard.rank5(board)
    if declared is not None:
        notes.add("BOARD_DECLARED_LATE", "TH-8", notes.severity.board_declared_late,
                  f"seat {seat} declared playing the board only after throwing its cards "
                  "away; TH-8: the declaration comes first, so it has no claim", seat=seat)
    data.seat_rules[seat] = "TH-8"
    notes.step("TH-8", f"seat {seat} threw its cards away without declaring the board: "
                       "no claim to the pot", seat)
    return None


def _hole_cards(seat: int, record: Shown | None, data: ShowdownInput,
                notes: Notes[HoldemSeverities]) -> list[str]:
    """Cards speak: the cards read at the deal; the cards shown only when the deal was
    not read. A difference between the two is a switched card."""
    dealt = list(data.hole.get(seat, ()))
    known = [c for c in dealt if c is not None]
    shown = list(record.cards) if record is not None and record.cards is not None else None
    if len(known) == len(dealt) and dealt:
        if shown is not None and sorted(shown) != sorted(known):
            notes.add("SHOWN_CARDS_MISMATCH", "TH-9", notes.severity.shown_cards_mismatch,
                      f"seat {seat} showed {' '.join(shown)} but was dealt {' '.join(known)}; "
                      "the cards dealt speak", seat=seat)
        return known
    if shown is not None:
        return shown
    raise CardsUnknown(seat)


def _best(hole: Sequence[str], board: Sequence[str]) -> int:
    """Best five of the cards. A card that appears twice (a GEN-1 finding, reported by
    the common checks) counts once: the hand is ranked on the distinct cards it holds."""
    cards = list(dict.fromkeys([*hole, *board]))
    if len(cards) <= 7:
        return standard.best_rank(cards)
    return max(standard.rank5(five) for five in combinations(cards, 5))


def check_order(engine: BettingHand, shown: Sequence[Shown],
                notes: Notes[HoldemSeverities]) -> None:
    """TH-9 / FCD-9: the last bettor or raiser of the final round shows first, else the
    first player left of the button. Not checked when a contender is all-in: all-in hands
    are turned up together."""
    order = engine.showdown_order()
    if len(order) < 2 or any(engine.seats[s].all_in for s in order):
        return
    showing = [s.seat for s in shown if s.seat in order]
    if not showing:
        return
    notes.step("TH-9", f"showdown order {' '.join(map(str, order))}; seat {order[0]} shows "
                       "first", order[0])
    if showing[0] != order[0]:
        notes.add("SHOWDOWN_ORDER", "TH-9", notes.severity.showdown_order,
                  f"seat {showing[0]} showed first; seat {order[0]} had to show first",
                  seat=showing[0])


def _describe(code: int | None) -> str:
    return "no claim" if code is None else standard.describe(code)


SETTLEMENT_WORDS = SettlementWords(
    refund_rule="TH-9", award_rule="TH-9",
    split=" (split, odd chip to the first winner left of the button)", describe=_describe)
