"""Russian Poker: paytable categories (RP-7), dealer qualification (RP-5) and the
two-combination search for six-card hands (RP-8). Standard 52-card ranking."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from services.games.cards import rank_of
from services.games.evaluation import standard
from services.games.evaluation.reference import check_cards


def paytable_category(cards5: Sequence[str]) -> str:
    """The RP-7 paytable line of five cards; "ace_king" is a high-card hand holding an
    ace and a king, "nothing" any other high-card hand."""
    code = standard.rank5(cards5)
    name = standard.category(code)
    if name == "straight_flush" and standard.is_royal(code):
        return "royal_flush"
    if name != "high_card":
        return name
    values = {rank_of(card) for card in cards5}
    return "ace_king" if {14, 13} <= values else "nothing"


def dealer_qualifies(cards5: Sequence[str]) -> bool:
    """RP-5: Ace-King or better (an ace and a king, or any pair or better)."""
    return paytable_category(cards5) != "nothing"


def compare(player5: Sequence[str], dealer5: Sequence[str]) -> int:
    """1 if the player's five cards beat the dealer's, -1 if they lose, 0 if identical.

    RP-7: standard ranking; within a category the next highest card decides, which is the
    standard tie-break (so two Ace-King hands are decided by their third card, and so on).
    """
    player, dealer = standard.rank5(player5), standard.rank5(dealer5)
    return (player > dealer) - (player < dealer)


def two_combinations(
    cards6: Sequence[str],
) -> tuple[tuple[str, ...], tuple[str, ...] | None]:
    """RP-8: the best five of six cards, and the best *other* five-card combination.

    Every other five-card subset of six cards holds the card the best one left out, so
    "contains at least one card not in the first" is "any other subset". **Reading**
    (RP-8): the second is paid only if it is itself Ace-King or better; otherwise None.
    Ties between subsets go to the first in input order (deterministic).
    """
    check_cards(cards6, 52, (6,))
    ranked = sorted(
        ((standard.rank5(five), index, five) for index, five in enumerate(combinations(cards6, 5))),
        key=lambda entry: (-entry[0], entry[1]),
    )
    best, second = ranked[0][2], ranked[1][2]
    if paytable_category(second) == "nothing":
        return best, None
    return best, second
