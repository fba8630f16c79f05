"""The rank code: one ``int`` that orders poker hands.

``code = category << 20 | r0 << 16 | r1 << 12 | r2 << 8 | r3 << 4 | r4`` where the
category is a small integer (higher is better, its meaning depends on the ranking rules,
see ``standard`` and ``services.games.draw7a.evaluation``) and ``r0..r4`` are rank values
2..14 in order of significance (e.g. full house: trips rank, pair rank; two pair: high
pair, low pair, kicker). Unused trailing slots are 0, which is lower than any rank: that
is exactly the CP-2 rule that a three-card hand whose cards are all matched loses to the
five-card hand with more kickers, so 3- and 5-card codes are directly comparable.

A straight stores only its top card; the ace-low straight stores the card below the
lowest real straight's top (5 for A-2-3-4-5), so comparing codes ranks it lowest.
"""

from __future__ import annotations

from collections.abc import Sequence

CATEGORY_SHIFT = 20
SLOT_BITS = 4
SLOTS = 5

RANK_NAMES: dict[int, str] = {
    2: "two",
    3: "three",
    4: "four",
    5: "five",
    6: "six",
    7: "seven",
    8: "eight",
    9: "nine",
    10: "ten",
    11: "jack",
    12: "queen",
    13: "king",
    14: "ace",
}


def pack(category: int, ranks: Sequence[int]) -> int:
    """Rank code of ``category`` with tie-break ``ranks`` (most significant first)."""
    if len(ranks) > SLOTS:
        raise ValueError(f"at most {SLOTS} tie-break ranks, got {len(ranks)}")
    code = category
    for index in range(SLOTS):
        code = (code << SLOT_BITS) | (ranks[index] if index < len(ranks) else 0)
    return code


def category_of(code: int) -> int:
    return code >> CATEGORY_SHIFT


def ranks_of(code: int) -> tuple[int, ...]:
    """The tie-break ranks, most significant first, without the 0 padding."""
    ranks = []
    for index in range(SLOTS):
        value = (code >> (SLOT_BITS * (SLOTS - 1 - index))) & 0xF
        if value:
            ranks.append(value)
    return tuple(ranks)


def rank_name(rank: int) -> str:
    return RANK_NAMES[rank]


def rank_plural(rank: int) -> str:
    name = RANK_NAMES[rank]
    return name + ("es" if name.endswith("x") else "s")
