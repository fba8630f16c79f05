"""TH-8: playing the board, and TH-2 (a player may play the board).

Reference betting (scenario.py) on the board 5c 6d 7s 8s 9c: seat 1 (As Ad) and seat 2
(Kc Kd) both have the board's nine-high straight as their best five (no ace or king
helps a 5-9 straight, and a pair is worse). Both play the board: the pot of 8 is split
4 / 4, so both nets are 0.
"""

from __future__ import annotations

from tests.unit.holdem import scenario as s
from tests.unit.holdem.builder import (
    Part,
    act,
    adjudicate,
    blinds,
    codes,
    deal,
    payout,
    show,
    street,
)

BOARD = ("5c", "6d", "7s", "8s", "9c")


def played(*ending: Part) -> list[Part]:
    return [blinds(1, 2), deal(s.CARDS, s.BUTTON), *s.preflop(), street(*BOARD[:3]),
            *s.flop_betting(), street(BOARD[3]), *s.checks(), street(BOARD[4]), *s.checks(),
            *ending]


def test_both_players_play_the_board_and_split() -> None:
    record = adjudicate(s.STACKS, s.BUTTON, *played(show(1, s.CARDS[1]), show(2, s.CARDS[2]),
                                                    payout(1, 4), payout(2, 4)))
    assert record.status == "ok", record.findings
    assert record.expected is not None
    assert record.expected.net == {"1": 0, "2": 0, "3": 0, "house": 0}


def test_declared_playing_the_board_then_mucked_keeps_a_share() -> None:
    record = adjudicate(s.STACKS, s.BUTTON, *played(show(1, s.CARDS[1]),
                                                    act(2, "declare_board"), show(2, None),
                                                    payout(1, 4), payout(2, 4)))
    assert record.status == "ok", record.findings


def test_mucked_without_declaring_gives_up_the_pot() -> None:
    """Seat 2 threw its cards away without declaring: no claim. Seat 1 wins all 8 (+4,
    seat 2 -4). The table split it: seat 2 overpaid by 4 (MISPAY citing TH-8), seat 1
    underpaid by 4 (MISPAY citing TH-9)."""
    record = adjudicate(s.STACKS, s.BUTTON, *played(show(1, s.CARDS[1]), show(2, None),
                                                    payout(1, 4), payout(2, 4)))
    assert record.expected is not None
    assert record.expected.net == {"1": 4, "2": -4, "3": 0, "house": 0}
    mispays = sorted((f.seat, f.amount, f.rule) for f in record.findings if f.code == "MISPAY")
    assert mispays == [(1, -4, "TH-9"), (2, 4, "TH-8")]


def test_declaration_after_mucking_is_too_late() -> None:
    record = adjudicate(s.STACKS, s.BUTTON, *played(show(1, s.CARDS[1]), show(2, None),
                                                    act(2, "declare_board"), payout(1, 8)))
    assert record.status == "ok"  # BOARD_DECLARED_LATE is info
    assert codes(record) == [("BOARD_DECLARED_LATE", "TH-8")]
    assert record.expected is not None
    assert record.expected.net == {"1": 4, "2": -4, "3": 0, "house": 0}


def test_mucked_hand_read_by_the_table_still_gives_up_the_pot() -> None:
    """Reference hand (board Qs Jd 4c 9h 3s). Seat 1 throws its aces away without
    declaring the board; the table's reader still records them (``mucked: true`` with the
    cards). TH-8: thrown away undeclared = no claim, whatever the cards were; seat 2's
    kings win the 8: seat 2 +4, seat 1 -4 (and the table paid seat 2: no MISPAY)."""
    mucked_with_cards = ("showdown", {"seat": 1, "cards": ["As", "Ad"], "mucked": True})
    record = adjudicate(s.STACKS, s.BUTTON, blinds(1, 2), deal(s.CARDS, s.BUTTON),
                        *s.preflop(), street(*s.FLOP), *s.flop_betting(), street(s.TURN),
                        *s.checks(), street(s.RIVER), *s.checks(), show(2, s.CARDS[2]),
                        mucked_with_cards, payout(2, 8))
    assert record.expected is not None
    assert record.expected.net == {"1": -4, "2": 4, "3": 0, "house": 0}
    assert record.status == "ok", record.findings


def test_declared_board_with_a_duplicated_board_card_is_not_a_crash() -> None:
    """The board reads 5c 6d 7s 8s 5c: a card appears twice (GEN-1, critical), so the
    board holds only four distinct cards and no hand can be ranked on it. Seat 2 declared
    the board and mucked. Reading unfinished_board_pot = "split": BOARD_CARD_COUNT and the
    pot of 8 shown split 4 / 4 (nets 0) among seats 1 and 2, never an exception."""
    duplicated = ("5c", "6d", "7s", "8s", "5c")
    record = adjudicate(s.STACKS, s.BUTTON, blinds(1, 2), deal(s.CARDS, s.BUTTON),
                        *s.preflop(), street(*duplicated[:3]), *s.flop_betting(),
                        street(duplicated[3]), *s.checks(), street(duplicated[4]),
                        *s.checks(), show(1, s.CARDS[1]), act(2, "declare_board"),
                        show(2, None), payout(1, 8))
    assert record.status == "discrepancy"
    found = codes(record)
    assert ("DUPLICATE_CARD", "GEN-1") in found
    assert ("BOARD_CARD_COUNT", "TH-1") in found
    assert record.expected is not None
    assert record.expected.net == {"1": 0, "2": 0, "3": 0, "house": 0}
