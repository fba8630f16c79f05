"""FCD-6: the draw, its order, its sizes, and the stub running out (with GEN-1)."""

from typing import Any

from tests.unit.draw7a.builder import DrawSpec, adjudicated, codes, config, narrate

# Five players, 36 cards, dealt in deck order from the button's left (button 5):
HANDS = {
    1: ["6c", "6d", "6h", "6s", "7c"],
    2: ["7d", "7h", "7s", "8c", "8d"],
    3: ["8h", "8s", "9c", "9d", "9h"],
    4: ["9s", "Tc", "Td", "Th", "Ts"],
    5: ["Jc", "Jd", "Jh", "Js", "Qc"],
}
# Stub after the deal (36 - 25 = 11): Qd Qh Qs Kc Kd Kh Ks Ac Ad Ah As
DISCARDS_1_2 = ["6c", "6d", "6h", "6s", "7c", "7d", "7h", "7s", "8c", "8d"]


def five_handed(draws: list[DrawSpec], extra_before_draw: list[Any] | None = None,
                reshuffle_at: int | None = None,
                reshuffled: list[str] | None = None) -> list[tuple[str, dict[str, Any]]]:
    """Button 5: everyone in for 2 (pot 10), the draw, all check, showdown from seat 1
    (nobody bet); seat 5's four jacks win the 10: seat 5 +8, everyone else -2.
    ``reshuffle_at``: index into ``draws`` before which the discards are reshuffled."""
    events = narrate(
        {s: 100 for s in range(1, 6)}, 5, HANDS,
        before=[(3, "call", 2), (4, "call", 2), (5, "call", 2), (1, "call", 1),
                (2, "check", None)],
        after=[(s, "check", None) for s in (1, 2, 3, 4, 5)],
        payouts=[(5, 10, "pot")])
    draw_events: list[tuple[str, dict[str, Any]]] = []
    for i, (seat, discarded, received) in enumerate(draws):
        if i == reshuffle_at:
            draw_events.append(("stub_reshuffled", {"cards": reshuffled or DISCARDS_1_2,
                                                    "reason": "stub exhausted"}))
        draw_events.append(("draw", {"seat": seat, "discarded": list(discarded),
                                     "received": list(received)}))
    first_after = next(i for i, e in enumerate(events)
                       if e[0] == "action" and e[1]["action"] == "check"
                       and e[1]["seat"] == 1)
    return events[:first_after] + (extra_before_draw or []) + draw_events + \
        events[first_after:]


DRAWS: list[DrawSpec] = [
    (1, HANDS[1], ["Qd", "Qh", "Qs", "Kc", "Kd"]),
    (2, HANDS[2], ["Kh", "Ks", "Ac", "Ad", "Ah"]),
    (3, ["8h", "8s", "9c"], ["As", "6c", "6d"]),
    (4, [], []),
    (5, [], []),
]


def test_stub_runs_out_discards_reshuffled_clean_hand() -> None:
    """Seats 1 and 2 draw five each (stub 11 -> 1); seat 3 wants three: the dealer
    reshuffles the ten discards of seats 1 and 2 (FCD-6) and seat 3 gets the last stub
    card As plus 6c and 6d from the reshuffled discards. GEN-1 lets 6c/6d come back
    because they went back to the stub. Four jacks (seat 5) win 10: net +8."""
    record = adjudicated(config("no"), five_handed(DRAWS, reshuffle_at=2))
    assert record.findings == []
    assert record.expected is not None and record.expected.net["5"] == 8


def test_reshuffle_of_a_card_still_in_a_hand_is_a_finding() -> None:
    """The 'reshuffle' puts back Tc, which seat 4 still holds, and seat 3 receives it:
    FCD-6 only the discards are reshuffled (critical)."""
    draws = list(DRAWS)
    draws[2] = (3, ["8h", "8s", "9c"], ["As", "Tc", "6d"])
    record = adjudicated(config("no"), five_handed(
        draws, reshuffle_at=2, reshuffled=[*DISCARDS_1_2, "Tc"]))
    assert "RESHUFFLE_NOT_DISCARDS" in codes(record)


def test_reshuffle_before_the_stub_ran_out_is_early() -> None:
    """Reshuffling before seat 2's draw, with 6 cards in the stub for a draw of 5."""
    draws = list(DRAWS)
    record = adjudicated(config("no"), five_handed(
        draws, reshuffle_at=1, reshuffled=HANDS[1]))
    assert "EARLY_RESHUFFLE" in codes(record)


def test_drawn_card_coming_back_without_reshuffle_is_gen1() -> None:
    """Seat 3 receives 6c (seat 1's discard) with no reshuffle: a duplicate (GEN-1)."""
    draws = list(DRAWS)
    draws[2] = (3, ["8h"], ["6c"])
    record = adjudicated(config("no"), five_handed(draws))
    assert "DUPLICATE_CARD" in codes(record)


def test_draw_out_of_order_is_one_finding() -> None:
    """Seat 2 draws before seat 1 (the draw starts left of button 5, at seat 1)."""
    draws = [DRAWS[1], DRAWS[0], *DRAWS[2:]]
    record = adjudicated(config("no"), five_handed(draws, reshuffle_at=2))
    assert codes(record) == ["DRAW_ORDER"]
    assert record.findings[0].seat == 2 and record.findings[0].rule == "FCD-6"


def test_draw_sizes_and_discards() -> None:
    """Seat 4 discards two and receives one (FCD-6 one for one); seat 3 discards Ah,
    which it never held. Seat 4 ends with four cards and cannot win (it would not have)."""
    draws: list[DrawSpec] = [DRAWS[0], DRAWS[1], (3, ["Ah"], ["As"]),
                             (4, ["9s", "Tc"], ["6c"]), (5, [], [])]
    record = adjudicated(config("no"), five_handed(draws, reshuffle_at=3,
                                                   reshuffled=DISCARDS_1_2))
    found = codes(record)
    assert "DRAW_SIZE" in found and "DISCARD_NOT_HELD" in found


def test_draw_not_recorded_for_a_seat() -> None:
    """Seat 4 has no draw or stand pat recorded: FCD-6 makes draws public."""
    draws = [d for d in DRAWS if d[0] != 4]
    record = adjudicated(config("no"), five_handed(draws, reshuffle_at=2))
    assert codes(record) == ["DRAW_NOT_RECORDED"]
    assert record.findings[0].seat == 4


def test_stand_action_counts_as_standing_pat() -> None:
    """Seat 4 recorded as an action 'stand' rather than an empty draw: no finding."""
    draws = [d for d in DRAWS if d[0] != 4]
    events = five_handed(draws, reshuffle_at=2)
    where = next(i for i, e in enumerate(events) if e[0] == "draw" and e[1]["seat"] == 5)
    events.insert(where, ("action", {"seat": 4, "action": "stand"}))
    record = adjudicated(config("no"), events)
    assert record.findings == []


def test_no_draw_recorded_when_everyone_was_all_in_before_it() -> None:
    """No limit 1/2, stacks 1: 20, 2: 50, 3: 80, 4: 200, button 4 (SB 1, BB 2, seat 3
    first). 3 all-in 80, 4 calls 80, 1 all-in 19 more, 2 all-in 48 more: nobody can bet
    after the draw, but the draw still happens (FCD-6) and how many cards each drew is
    public, yet the table recorded no draw at all and went to the showdown: one
    DRAW_NOT_RECORDED for each of the four seats in the hand. Nobody bet in the final
    round (after the draw), so the first active player left of button 4, seat 1, shows
    first (FCD-9): seat 1 showing first is no SHOWDOWN_ORDER finding (the pre-draw all-in
    of seat 3 is not a bet of the final round).
    Pots as in the side-pot test: main 80 to seat 1, side 90 to seat 2, side 60 to seat 4:
    net 1 = +60, 2 = +40, 3 = -80, 4 = -20."""
    quads = ["9c", "9d", "9h", "9s", "7c"]
    flush = ["Ah", "Kh", "Qh", "Jh", "8h"]
    queen_high = ["7d", "8d", "Tc", "Js", "Qd"]
    full_house = ["Ac", "Ad", "As", "Kc", "Kd"]
    events = narrate(
        {1: 20, 2: 50, 3: 80, 4: 200}, 4, {1: quads, 2: flush, 3: queen_high, 4: full_house},
        before=[(3, "all_in", 80), (4, "call", 80), (1, "all_in", 19), (2, "all_in", 48)],
        showdown=[(1, quads), (2, flush), (3, queen_high), (4, full_house)],
        payouts=[(1, 80, "pot"), (2, 90, "pot"), (4, 60, "pot")])
    record = adjudicated(config("no"), events)
    assert [(f.code, f.rule, f.seat) for f in record.findings] == [
        ("DRAW_NOT_RECORDED", "FCD-6", seat) for seat in (1, 2, 3, 4)]
    assert record.expected is not None
    assert record.expected.net == {"1": 60, "2": 40, "3": -80, "4": -20, "house": 0}


def test_discarding_the_same_card_twice_is_not_held() -> None:
    """Heads-up, button 1 (SB), seat 2 BB: 2 each before the draw. Seat 2 records the
    discard of Kc twice and receives two cards: it held one Kc, so the second is a card it
    does not hold (FCD-6, DISCARD_NOT_HELD, critical). It is left holding six cards and
    cannot win (irregular_hand_dead); seat 1's flush takes the 4: net 1 = +2, 2 = -2."""
    hands = {1: ["Ah", "Kh", "9h", "8h", "7h"], 2: ["Ac", "Ad", "As", "Kc", "Kd"]}
    events = narrate(
        {1: 100, 2: 100}, 1, hands, before=[(1, "call", 1), (2, "check", None)],
        draws=[(2, ["Kc", "Kc"], ["Qc", "Qd"]), (1, [], [])],
        after=[(2, "check", None), (1, "check", None)],
        showdown=[(2, None), (1, hands[1])], payouts=[(1, 4, "pot")])
    record = adjudicated(config("no"), events)
    assert [(f.code, f.rule, f.seat, f.severity) for f in record.findings] == [
        ("DISCARD_NOT_HELD", "FCD-6", 2, "critical")]
    assert record.expected is not None
    assert record.expected.net == {"1": 2, "2": -2, "house": 0}


def test_discard_of_a_card_the_shoe_did_not_read_is_not_a_finding() -> None:
    """Seat 2's five cards were dealt unread (card null). It discards Kc and receives Qc,
    then shows Ac Ad As Kd Qc: the discard may well be one of its unread cards, so there
    is no DISCARD_NOT_HELD; the shown cards value the hand (FCD-9). Seat 2's full house
    loses to seat 1's flush (FCD-10): seat 1 takes the 4, net +2 / -2."""
    hands: dict[int, list[str | None]] = {1: ["Ah", "Kh", "9h", "8h", "7h"],
                                          2: [None] * 5}
    shown = ["Ac", "Ad", "As", "Kd", "Qc"]
    events = narrate(
        {1: 100, 2: 100}, 1, hands,  # type: ignore[arg-type]
        before=[(1, "call", 1), (2, "check", None)],
        draws=[(2, ["Kc"], ["Qc"]), (1, [], [])],
        after=[(2, "check", None), (1, "check", None)],
        showdown=[(2, shown), (1, hands[1])], payouts=[(1, 4, "pot")])  # type: ignore[list-item]
    record = adjudicated(config("no"), events)
    assert record.findings == []
    assert record.expected is not None
    assert record.expected.net == {"1": 2, "2": -2, "house": 0}
