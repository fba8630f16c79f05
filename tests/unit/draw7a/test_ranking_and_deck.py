"""FCD-1 deck and FCD-10 short-deck ranking, through whole hands."""

from services.games.cards import SHORT_DECK_32, SHORT_DECK_36
from tests.unit.draw7a.builder import (
    adjudicated,
    codes,
    config,
    narrate,
    stand_pat,
    with_fillers,
)

STACKS2 = {1: 100, 2: 100}


def heads_up_showdown(card1: list[str], card2: list[str], winner: int,
                      deck: int = 32) -> list[tuple[str, dict[str, object]]]:
    """Heads-up, button 1: 2 each before the draw, checked down after it; the ``winner``
    collects the pot of 4 (net +2 / -2)."""
    return narrate(
        STACKS2, 1, {1: card1, 2: card2},
        before=[(1, "call", 1), (2, "check", None)],
        draws=stand_pat(2, 1),
        after=[(2, "check", None), (1, "check", None)],
        showdown=[(2, card2), (1, card1)],
        payouts=[(winner, 4, "pot")], deck=deck)


def test_flush_beats_full_house() -> None:
    """FCD-10: in the short deck a flush (seat 2) beats a full house (seat 1)."""
    events = heads_up_showdown(["Ac", "Ad", "As", "Kc", "Kd"],
                               ["Qh", "Jh", "9h", "8h", "7h"], winner=2)
    record = adjudicated(config("no"), events)
    assert record.findings == []
    assert record.expected is not None and record.expected.net["2"] == 2


def test_paying_the_full_house_is_a_mispay() -> None:
    """The same hand paid to the full house (standard ranking): seat 1 overpaid by 4."""
    events = heads_up_showdown(["Ac", "Ad", "As", "Kc", "Kd"],
                               ["Qh", "Jh", "9h", "8h", "7h"], winner=1)
    record = adjudicated(config("no"), events)
    assert {(f.code, f.seat, f.amount) for f in record.findings} == {
        ("MISPAY", 1, 4), ("MISPAY", 2, -4)}


def test_ace_low_straight_32_beats_trips_loses_to_jack_high_straight() -> None:
    """32 cards: A-7-8-9-T is a straight (FCD-10), so it beats three kings, and it is the
    lowest straight, so it loses to 7-8-9-T-J."""
    wheel = ["Ah", "7c", "8d", "9s", "Th"]
    record = adjudicated(config("no"), heads_up_showdown(
        wheel, ["Kc", "Kd", "Ks", "7d", "8c"], winner=1))
    assert record.findings == []
    record = adjudicated(config("no"), heads_up_showdown(
        wheel, ["7d", "8c", "9c", "Tc", "Jd"], winner=2))
    assert record.findings == []


def five_player_showdown(hand1: list[str], hand2: list[str], winner: int,
                         deck: int = 36) -> list[tuple[str, dict[str, object]]]:
    """Five players, button 5 (SB 1, BB 2, seat 3 first): 3, 4, 5 fold; 1 completes, 2
    checks: pot 4, checked down; ``winner`` nets +2."""
    cards = with_fillers({1: hand1, 2: hand2}, [1, 2, 3, 4, 5],
                         SHORT_DECK_36 if deck == 36 else SHORT_DECK_32)
    return narrate(
        {1: 100, 2: 100, 3: 100, 4: 100, 5: 100}, 5, cards,
        before=[(3, "fold", None), (4, "fold", None), (5, "fold", None), (1, "call", 1),
                (2, "check", None)],
        draws=stand_pat(1, 2),
        after=[(1, "check", None), (2, "check", None)],
        showdown=[(1, hand1), (2, hand2)],
        payouts=[(winner, 4, "pot")], deck=deck)


def test_ace_low_straight_36_and_a_7_8_9_t_is_not_a_straight_there() -> None:
    """36 cards (five dealt in): A-6-7-8-9 is the lowest straight and beats a pair of
    kings; A-7-8-9-T is only ace high and loses to that pair."""
    record = adjudicated(config("no"), five_player_showdown(
        ["Ah", "6c", "7d", "8s", "9h"], ["Kc", "Kd", "Ts", "Jd", "Qc"], winner=1))
    assert record.findings == []
    record = adjudicated(config("no"), five_player_showdown(
        ["Ah", "7c", "8d", "9s", "Th"], ["Kc", "Kd", "6s", "Jd", "Qc"], winner=2))
    assert record.findings == []


def test_wrong_deck_five_players_without_sixes() -> None:
    """FCD-1: five dealt in need 36 cards; a 32-card deck is a finding (critical)."""
    record = adjudicated(config("no"), five_player_showdown(
        ["Ah", "Kc", "Qd", "Js", "9h"], ["Kd", "Ks", "Tc", "Jd", "Qc"], winner=2, deck=32))
    assert codes(record) == ["WRONG_DECK"]
    assert record.findings[0].rule == "FCD-1"
    assert record.findings[0].severity == "critical"


def test_wrong_deck_four_players_with_sixes() -> None:
    """Four dealt in: the sixes stay out (32 cards); declaring 36 is a finding."""
    cards = with_fillers({}, [1, 2, 3, 4], SHORT_DECK_32)
    events = narrate({1: 50, 2: 50, 3: 50, 4: 50}, 1, cards,
                     before=[(4, "fold", None), (1, "fold", None), (2, "fold", None)],
                     payouts=[(3, 1, "refund"), (3, 2, "pot")], deck=36)
    record = adjudicated(config("no"), events)
    assert codes(record) == ["WRONG_DECK"]


def test_six_players_is_a_player_count_finding() -> None:
    """FCD-1: 2 to 5 players."""
    cards = with_fillers({}, [1, 2, 3, 4, 5, 6], SHORT_DECK_36)
    events = narrate({s: 50 for s in range(1, 7)}, 1, cards,
                     before=[(4, "fold", None), (5, "fold", None), (6, "fold", None),
                             (1, "fold", None), (2, "fold", None)],
                     payouts=[(3, 1, "refund"), (3, 2, "pot")], deck=36)
    record = adjudicated(config("no"), events)
    assert "PLAYER_COUNT" in codes(record)
