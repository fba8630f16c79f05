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
