"""What SURV-3 and SURV-4 read of a poker hand: streets, positions, prices, the bettor,
who beats whom (``services.surveillance.poker_decisions``)."""

from __future__ import annotations

from services.surveillance.poker_decisions import PokerDecision, poker_decisions
from tests.unit.surveillance.scenario import hand
from tests.unit.surveillance.test_poker_patterns import act, board, hole

CARDS = hole({1: ("As", "Ad"), 2: ("7c", "2d"), 3: ("Kh", "Qh")})


def read(events: list, game: str = "holdem") -> list[PokerDecision]:  # type: ignore[type-arg]
    h, _ = hand(1, game=game, big_blind=10, players={1: "A", 2: "B", 3: "C"}, events=events)
    return poker_decisions(h.events, game)


def test_blinds_set_the_level_and_streets_follow_the_board() -> None:
    """Blinds 5/10: seat 3 calls 10 facing the big blind (the bettor, seat 2); seat 1
    (small blind) completes; seat 2 checks. Flop: seat 1 bets 30 into 30 (nothing to
    call, first), seat 2 folds facing it (price: 30 of 90 after the call, 1/3: class 3),
    seat 3 calls. Turn: seat 1 checks first, seat 3 (checked to) checks. River: a
    decision on the final street."""
    events = [*CARDS, act(1, "post_small_blind", 5), act(2, "post_big_blind", 10),
              act(3, "call", 10), act(1, "call", 5), act(2, "check"),
              *board("2s", "7h", "9d"), act(1, "bet", 30), act(2, "fold"), act(3, "call", 30),
              *board("Jc"), act(1, "check"), act(3, "check"),
              *board("4s"), act(1, "check"), act(3, "check")]
    d = read(events)
    assert [(x.seat, x.action, x.street, x.position) for x in d] == [
        (3, "call", 0, "facing_blind"), (1, "call", 0, "facing_blind"), (2, "check", 0, "checked_to"),
        (1, "bet", 1, "first"), (2, "fold", 1, "facing"), (3, "call", 1, "facing"),
        (1, "check", 2, "first"), (3, "check", 2, "checked_to"),
        (1, "check", 3, "first"), (3, "check", 3, "checked_to")]
    assert (d[0].bettor, d[0].to_call, d[1].to_call) == (2, 10, 5)
    fold = d[4]
    assert (fold.bettor, fold.to_call, fold.pot, fold.price, fold.invested) == (1, 30, 60, 3, 10)
    assert d[3].aggressive and not d[5].aggressive
    assert [x.final for x in d] == [False] * 8 + [True, True]
    assert d[6].late and not d[3].late


def test_who_beats_whom_from_the_hole_cards() -> None:
    """On the flop 2s 7h 9d, seat 2's seven-deuce makes two pair and beats seat 1's aces
    and seat 3's king-queen; facing seat 1's bet, seat 2 is ahead of the bettor."""
    events = [*CARDS, *board("2s", "7h", "9d"), act(1, "bet", 30), act(2, "call", 30),
              act(3, "call", 30)]
    bet, call, last = read(events)
    assert bet.beaten_by == frozenset({2})
    assert (call.ahead, call.beaten_by, call.strength) == (True, frozenset(), 2)
    assert last.beaten_by == frozenset({1, 2})
    assert bet.strength == 1  # one pair of aces


def test_heads_up_opponent() -> None:
    events = [*CARDS, act(3, "fold"), act(1, "check"), act(2, "check")]
    _, first, second = read(events)
    assert (first.opponent, second.opponent) == (2, 1)
    assert (first.position, second.position) == ("first", "checked_to")


def test_draw7a_second_round_after_the_draw() -> None:
    """Five cards each from a 32-card deck, a draw, then the last betting round."""
    five = {1: ("As", "Ad", "Ac", "Kh", "7d"), 2: ("8c", "9c", "Tc", "Jd", "Ks")}
    dealt = [("card_dealt", {"to": "seat", "seat": s, "card": c, "face_up": False})
             for s, cards in five.items() for c in cards]
    events = [*dealt, act(1, "bet", 10), act(2, "call", 10),
              ("draw", {"seat": 1, "discarded": ["7d"], "received": ["8d"]}),
              act(2, "stand"), act(1, "bet", 20), act(2, "call", 20)]
    h, _ = hand(1, game="draw7a", big_blind=10, players={1: "A", 2: "B"}, events=events,
                deck=32)
    decisions = poker_decisions(h.events, "draw7a")
    assert [(d.street, d.final) for d in decisions] == [(0, False), (0, False), (1, True),
                                                       (1, True)]
    assert decisions[3].beaten_by == frozenset({1})  # three aces beat king-high


def test_a_raise_is_possible_only_with_chips_beyond_the_call_and_an_opponent_to_answer() -> None:
    """Stacks 10,000. Heads-up (seat 3 folds): seat 1 bets 100, seat 2 could raise; seat
    1's all-in of its whole stack leaves seat 2 nothing to raise against; and a call of
    a bet as large as the caller's stack is all it can do."""
    events = [*CARDS, act(3, "fold"), act(1, "bet", 100), act(2, "call", 100),
              *board("2s", "7h", "9d"), act(1, "all_in", 9_900), act(2, "call", 9_900)]
    d = read(events)
    assert [(x.seat, x.action, x.can_raise) for x in d] == [
        (3, "fold", True), (1, "bet", True), (2, "call", True), (1, "all_in", True),
        (2, "call", False)]
    short = [*CARDS, act(3, "fold"), act(1, "bet", 10_000), act(2, "call", 10_000)]
    assert [x.can_raise for x in read(short)] == [True, True, False]
