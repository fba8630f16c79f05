"""Playing cards drawn as small SVG images for the reports.

Why SVG drawn here rather than a font's suit glyphs: the report must print the same on any
machine and PDF reader, so every shape is a path. Why symbol AND letter AND four colours:
a report is evidence read on paper, in black and white, and by colour-blind readers; the
suit letter (S/H/D/C) and the symbol each identify the suit on their own, and the
four-colour deck (spades black, hearts red, diamonds blue, clubs green) only helps.

Every SVG is built from the validated card string (``[2-9TJQKA][cdhs]``) through fixed
tables, never from free text, so the markup is safe to insert unescaped.
"""

from __future__ import annotations

from functools import lru_cache

from markupsafe import Markup

RANK_LABEL: dict[str, str] = {"T": "10", "J": "J", "Q": "Q", "K": "K", "A": "A"}
RANK_WORD: dict[str, str] = {
    "2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven",
    "8": "eight", "9": "nine", "T": "ten", "J": "jack", "Q": "queen", "K": "king", "A": "ace",
}
SUIT_WORD: dict[str, str] = {"s": "spades", "h": "hearts", "d": "diamonds", "c": "clubs"}
SUIT_SYMBOL: dict[str, str] = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
SUIT_COLOUR: dict[str, str] = {"s": "#000000", "h": "#b00020", "d": "#0050b0", "c": "#136f2c"}

# Suit shapes on a 20 x 20 grid.
_SUIT_PATH: dict[str, str] = {
    "d": "M10 0 L18.5 10 L10 20 L1.5 10 Z",
    "h": "M10 19 C10 19 1 12.5 1 6.5 A4.6 4.6 0 0 1 10 4.8 A4.6 4.6 0 0 1 19 6.5 "
         "C19 12.5 10 19 10 19 Z",
    "s": "M10 0.5 C10 0.5 1 7.5 1 12.2 A4.3 4.3 0 0 0 9 14.2 L7.2 19.5 L12.8 19.5 "
         "L11 14.2 A4.3 4.3 0 0 0 19 12.2 C19 7.5 10 0.5 10 0.5 Z",
    "c": "M9 11 L7.2 19.5 L12.8 19.5 L11 11 Z",
}
# The club's three leaves are circles (cx, cy, r) drawn with its stem.
_CLUB_LEAVES = ((10.0, 5.4, 4.3), (5.2, 11.6, 4.3), (14.8, 11.6, 4.3))

WIDTH, HEIGHT = 40, 56


def card_name(card: str) -> str:
    """``"As"`` -> ``"ace of spades"`` (alt text, and words for the reader)."""
    return f"{RANK_WORD[card[0]]} of {SUIT_WORD[card[1]]}"


def card_text(card: str) -> str:
    """``"Td"`` -> ``"10♦"``: the compact form used in running text."""
    return RANK_LABEL.get(card[0], card[0]) + SUIT_SYMBOL[card[1]]


@lru_cache(maxsize=64)
def card_svg(card: str | None) -> Markup:
    """One card as inline SVG; ``None`` is a card dealt face down and never recorded."""
    if card is None:
        return Markup(_back_svg())
    if len(card) != 2 or card[0] not in RANK_WORD or card[1] not in SUIT_WORD:
        raise ValueError(f"not a card: {card!r}")
    rank, suit = RANK_LABEL.get(card[0], card[0]), card[1]
    colour = SUIT_COLOUR[suit]
    name = card_name(card)
    return Markup(
        f'<svg xmlns="http://www.w3.org/2000/svg" class="card" width="{WIDTH}" '
        f'height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{name}">'
        f"<title>{name}</title>"
        f'<rect x="0.75" y="0.75" width="{WIDTH - 1.5}" height="{HEIGHT - 1.5}" rx="4" '
        f'fill="#ffffff" stroke="#333333" stroke-width="1.2"/>'
        f'<text x="4" y="16" font-family="DejaVu Sans, Arial, sans-serif" font-size="14" '
        f'font-weight="bold" fill="{colour}">{rank}</text>'
        f'<text x="4.5" y="28" font-family="DejaVu Sans, Arial, sans-serif" font-size="10" '
        f'font-weight="bold" fill="{colour}">{suit.upper()}</text>'
        f'<g transform="translate(17 29) scale(1.05)" fill="{colour}">{_suit_shape(suit)}</g>'
        "</svg>"
    )


def _suit_shape(suit: str) -> str:
    shape = f'<path d="{_SUIT_PATH[suit]}"/>'
    if suit == "c":
        shape += "".join(f'<circle cx="{x}" cy="{y}" r="{r}"/>' for x, y, r in _CLUB_LEAVES)
    return shape


def _back_svg() -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="card back" width="{WIDTH}" '
        f'height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        'aria-label="card face down, not recorded">'
        "<title>card face down, not recorded</title>"
        f'<rect x="0.75" y="0.75" width="{WIDTH - 1.5}" height="{HEIGHT - 1.5}" rx="4" '
        'fill="#e8e8e8" stroke="#333333" stroke-width="1.2"/>'
        f'<rect x="5" y="5" width="{WIDTH - 10}" height="{HEIGHT - 10}" rx="2" fill="none" '
        'stroke="#777777" stroke-width="1" stroke-dasharray="3 2"/>'
        f'<text x="{WIDTH / 2}" y="{HEIGHT / 2 + 6}" text-anchor="middle" '
        'font-family="DejaVu Sans, Arial, sans-serif" font-size="18" fill="#555555">?</text>'
        "</svg>"
    )


def cards_svg(cards: list[str | None]) -> Markup:
    """A row of cards."""
    return Markup("").join(card_svg(card) for card in cards)
