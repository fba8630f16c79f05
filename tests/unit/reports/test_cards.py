"""Card images: every card has its rank, its suit symbol shape and its suit letter."""

from __future__ import annotations

import re

import pytest

from services.games.cards import STANDARD_DECK
from services.reports.cards import SUIT_COLOUR, card_name, card_svg, card_text


def test_every_card_names_rank_and_suit_letter() -> None:
    for card in STANDARD_DECK:
        svg = str(card_svg(card))
        rank = "10" if card[0] == "T" else card[0]
        texts = re.findall(r">([^<>]+)</text>", svg)
        assert texts == [rank, card[1].upper()], card
        assert f'aria-label="{card_name(card)}"' in svg
        assert SUIT_COLOUR[card[1]] in svg


def test_suits_have_distinct_shapes_and_colours() -> None:
    """Colour is only a help: each suit also has its own path."""
    paths = {card[1]: re.findall(r'<path d="([^"]+)"', str(card_svg(card)))[0]
             for card in ("As", "Ah", "Ad", "Ac")}
    assert len(set(paths.values())) == 4
    assert len(set(SUIT_COLOUR.values())) == 4
    assert str(card_svg("Ac")).count("<circle") == 3


def test_face_down_card() -> None:
    svg = str(card_svg(None))
    assert "face down" in svg and ">?<" in svg


def test_words() -> None:
    assert card_name("Td") == "ten of diamonds"
    assert card_text("Td") == "10♦"
    assert card_text("As") == "A♠"


@pytest.mark.parametrize("bad", ["1s", "Ax", "<s", ""])
def test_not_a_card(bad: str) -> None:
    with pytest.raises(ValueError):
        card_svg(bad)
