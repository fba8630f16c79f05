"""Single-call evaluators on the lookup tables of ``tables``: the hot path.

Per hand: add the card keys, test the flush bits, and do one dict lookup (or, for the
few flushed hands, build the flush suit's rank mask and index a list). No sorting, no
five-card subsets. The functions on card indices (``eval5``/``eval6``/``eval7``) do no
validation at all: the caller guarantees distinct indices of cards of the ranking's deck.
``rank_cards`` takes wire strings and validates them.

Results are the same rank codes as ``reference`` (tested exhaustively for 5 cards and on
random 6- and 7-card hands).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from services.games.cards import DECKS
from services.games.evaluation.keys import (
    FLUSH_BITS,
    FLUSH_OFFSET,
    RANK_SHIFT,
    SUIT_OF_FLUSH_BIT,
    card_index,
)
from services.games.evaluation.reference import SHORT_DECK_RANKINGS, STANDARD, Ranking

Eval5 = Callable[[int, int, int, int, int], int]
Eval6 = Callable[[int, int, int, int, int, int], int]
Eval7 = Callable[[int, int, int, int, int, int, int], int]

CARD_INDEX: dict[str, int] = {card: card_index(card) for card in DECKS[52]}


@dataclass(frozen=True)
class Evaluator:
    """The single-call functions for one ranking (standard or a short deck)."""

    ranking: Ranking
    eval5: Eval5
    eval6: Eval6
    eval7: Eval7
    rank_cards: Callable[[Sequence[str]], int]


assert FLUSH_BITS == 0x8888 and RANK_SHIFT == 16  # inlined in eval5/eval6/eval7


@cache
def evaluator_for(ranking: Ranking) -> Evaluator:
    # numpy and the tables only now, on the first evaluation of this ranking: importing
    # this module (every adjudicator imports the games registry) must stay cheap.
    from services.games.evaluation.tables import build_tables

    tables = build_tables(ranking)
    keys = [int(key) for key in tables.card_keys]
    # The flush-bit offset rides on the first card's key, saving an addition per call.
    first = [key + FLUSH_OFFSET for key in keys]
    flush: list[int] = tables.flush_codes.tolist()
    nonflush: dict[int, dict[int, int]] = {
        size: dict(zip(tables.sums[size].tolist(), tables.codes[size].tolist(), strict=True))
        for size in tables.sums
    }
    nf5, nf6, nf7 = nonflush[5], nonflush[6], nonflush[7]
    suit_of_bit = SUIT_OF_FLUSH_BIT

    def flush_code(total: int, cards: tuple[int, ...]) -> int:
        suit = suit_of_bit[total & FLUSH_BITS]
        mask = 0
        for card in cards:
            if card & 3 == suit:
                mask |= 1 << (card >> 2)
        return flush[mask]

    def eval5(a: int, b: int, c: int, d: int, e: int) -> int:
        total = first[a] + keys[b] + keys[c] + keys[d] + keys[e]
        if total & 0x8888:  # FLUSH_BITS, as a literal: a constant load is cheaper
            return flush_code(total, (a, b, c, d, e))
        return nf5[total >> 16]  # RANK_SHIFT

    def eval6(a: int, b: int, c: int, d: int, e: int, f: int) -> int:
        total = first[a] + keys[b] + keys[c] + keys[d] + keys[e] + keys[f]
        if total & 0x8888:  # FLUSH_BITS, as a literal: a constant load is cheaper
            return flush_code(total, (a, b, c, d, e, f))
        return nf6[total >> 16]  # RANK_SHIFT

    def eval7(a: int, b: int, c: int, d: int, e: int, f: int, g: int) -> int:
        total = first[a] + keys[b] + keys[c] + keys[d] + keys[e] + keys[f] + keys[g]
        if total & 0x8888:  # FLUSH_BITS, as a literal: a constant load is cheaper
            return flush_code(total, (a, b, c, d, e, f, g))
        return nf7[total >> 16]  # RANK_SHIFT

    deck = {card: CARD_INDEX[card] for card in DECKS[ranking.deck_size]}
    key_of_card = {card: keys[index] for card, index in deck.items()}.__getitem__

    def rank_cards(cards: Sequence[str]) -> int:
        """Best five of 5-7 wire-string cards; ValueError on anything else."""
        try:
            total = sum(map(key_of_card, cards)) + FLUSH_OFFSET
            table = nonflush[len(cards)]
        except KeyError:
            raise ValueError(
                f"expected 5-7 cards of the {ranking.deck_size}-card deck, got {list(cards)}"
            ) from None
        if len(set(cards)) != len(cards):
            raise ValueError(f"duplicate card in {list(cards)}")
        if total & FLUSH_BITS:
            return flush_code(total, tuple(deck[card] for card in cards))
        return table[total >> RANK_SHIFT]

    return Evaluator(ranking, eval5, eval6, eval7, rank_cards)


# The standard evaluator and its functions are module attributes built on first access
# (PEP 562): ``fast.eval7`` is then a plain global, with no call in between on the hot
# path. Building them at import cost every process ~190 ms and ~35 MB RSS (numpy and the
# 7-card tables), whether or not it ever ranked a hand (docs/native.md, "Memory").
_STANDARD_NAMES = ("STANDARD_EVALUATOR", "eval5", "eval6", "eval7", "rank_cards")

if TYPE_CHECKING:
    STANDARD_EVALUATOR: Evaluator
    eval5: Eval5
    eval6: Eval6
    eval7: Eval7
    rank_cards: Callable[[Sequence[str]], int]
else:

    def __getattr__(name: str) -> object:
        if name not in _STANDARD_NAMES:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        evaluator = evaluator_for(STANDARD)
        module = globals()
        module["STANDARD_EVALUATOR"] = evaluator
        for attribute in _STANDARD_NAMES[1:]:
            module[attribute] = getattr(evaluator, attribute)
        return module[name]


def short_deck_evaluator(deck_size: int) -> Evaluator:
    """FCD-10 evaluator for the 32- or 36-card deck (tables built on first use)."""
    try:
        return evaluator_for(SHORT_DECK_RANKINGS[deck_size])
    except KeyError:
        raise ValueError(f"short deck has 32 or 36 cards, not {deck_size}") from None
