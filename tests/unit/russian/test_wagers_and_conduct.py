"""RP-1, RP-3, RP-9, SURV-1, GEN-5/6/7/10 at a Russian Poker table.

Ante 10, Bet 20 unless stated; dealer Ad Kc 8s 6d 3h (Ace-King, qualifies).
"""

from __future__ import annotations

from services.games.profile import Profiles, RuleProfile
from services.games.russian.adjudicate import adjudicate
from services.simulator.handbuilder import build_hand, table_config
from tests.profiles import HOUSE, PROFILES
from tests.unit.native.rules_support import both_engines, house_with
from tests.unit.russian.scenario import Scenario, codes, expected_net, recorded_net

DEALER = "Ad Kc 8s 6d 3h"
TRIPS = "Jc Jd Js 2h 7c"
LOSER = "As Kh 7d 5c 2h"  # A K 7 loses to the dealer's A K 8


def box(cards: str = TRIPS, seats: dict[int, int] | None = None) -> Scenario:
    return Scenario(seats or {1: 1000}).ante(1, 10).deal(1, cards).deal_dealer(DEALER)


def _profile_with(**changes: object) -> RuleProfile:
    base = HOUSE
    sections = {name: dict(values) for name, values in base.sections.items()}
    sections["russian"].update(changes)
    return RuleProfile(name="test", sections=sections)


# ---------------------------------------------------------------- RP-2 / RP-3 folds


def test_fold_at_the_draw_decision_loses_the_ante() -> None:
    """Fold before any draw: Ante 10 lost, nothing else: -10 (RP-2)."""
    record = box().act(1, "fold").turn_dealer(DEALER).collect(1, "ante", 10).record()
    assert record.status == "ok", record.findings
    assert expected_net(record) == {"1": -10, "house": 10}


def test_fold_after_an_exchange_loses_ante_and_price() -> None:
    """Exchange 3 for 10, then fold: -10 price -10 Ante = -20 (RP-3)."""
    record = (box().fee(1, "exchange", 10).draw(1, "2h 7c Jc", "3c 5d 9h").act(1, "fold")
              .turn_dealer(DEALER).collect(1, "ante", 10).record())
    assert record.status == "ok", record.findings
    assert expected_net(record)["1"] == -20


def test_folded_box_whose_ante_was_not_taken_is_a_mispay_citing_the_fold_rule() -> None:
    record = box().act(1, "fold").turn_dealer(DEALER).record()
    assert [(f.code, f.rule, f.amount) for f in record.findings] == [("MISPAY", "RP-2", 10)]


def test_player_who_walks_away_without_a_bet_has_folded() -> None:
    """GEN-7: the player leaves before betting: Ante lost, -10."""
    record = (box().act(1, "stand").add("player_left", seat=1, player_id="P1", stack=990)
              .turn_dealer(DEALER).collect(1, "ante", 10).record())
    assert record.status == "ok", record.findings
    assert expected_net(record)["1"] == -10


def test_wrong_bet_size_is_a_finding_and_settled_as_placed() -> None:
    """Bet 30 instead of 2 x 10 = 20: WRONG_BET +10; trips pay 30 x 3 = 90."""
    record = box().act(1, "stand").bet(1, 30).turn_dealer(DEALER).pay(1, 90).record()
    assert [(f.code, f.rule, f.amount) for f in record.findings] == [("WRONG_BET", "RP-3", 10)]
    assert expected_net(record)["1"] == 90


def test_play_without_a_bet_is_a_fold() -> None:
    record = (box().act(1, "stand").act(1, "play").turn_dealer(DEALER)
              .collect(1, "ante", 10).record())
    assert codes(record) == ["BET_MISSING"]
    assert expected_net(record)["1"] == -10


def test_bet_after_a_fold_does_not_play() -> None:
    """Fold, then a Bet 20: the Bet goes back; only the Ante is lost: -10."""
    record = (box().act(1, "fold").bet(1, 20, with_play=False).turn_dealer(DEALER)
              .collect(1, "ante", 10).record())
    assert codes(record) == ["BET_AFTER_FOLD"]
    assert expected_net(record)["1"] == -10


def test_fold_after_the_bet_changes_nothing() -> None:
    """The box bet, then "folds": it still plays its trips: +60, and FOLD_AFTER_BET."""
    record = (box().act(1, "stand").bet(1, 20).act(1, "fold").turn_dealer(DEALER)
              .pay(1, 60).record())
    assert codes(record) == ["FOLD_AFTER_BET"]
    assert expected_net(record)["1"] == 60


# ---------------------------------------------------------------- SURV-1 late wagers


def test_ante_after_the_first_card_is_late_and_void() -> None:
    """Ante 10 on time + 10 after the first card: only 10 plays; a fold loses 10, not 20."""
    s = Scenario().ante(1, 10).deal(1, TRIPS).ante(1, 10).deal_dealer(DEALER)
    record = s.act(1, "fold").turn_dealer(DEALER).collect(1, "ante", 20).record()
    # The table took both Antes (-20) where only -10 is due: a MISPAY of -10 as well.
    assert [(f.code, f.amount) for f in record.findings] == [("LATE_WAGER", 10),
                                                              ("MISPAY", -10)]
    assert expected_net(record)["1"] == -10


def test_second_bet_before_the_dealer_turns_is_a_changed_wager() -> None:
    """Bet 20 and then 20 more: the second does not play. Trips: 20 x 3 = +60."""
    record = (box().act(1, "stand").bet(1, 20).bet(1, 20, with_play=False)
              .turn_dealer(DEALER).pay(1, 60).record())
    assert [(f.code, f.rule) for f in record.findings] == [("WAGER_CHANGED_AFTER_BET", "SURV-1")]
    assert expected_net(record)["1"] == 60


def test_bet_raised_after_the_dealer_turns_and_paid_is_past_posting() -> None:
    """Past-posting: 20 more on the Bet once the dealer's A-K is visible, paid 3:1 on 40
    (120). Due 60: LATE_WAGER and a MISPAY of +60."""
    record = (box().act(1, "stand").bet(1, 20).turn_dealer(DEALER)
              .bet(1, 20, with_play=False).pay(1, 120).record())
    assert [(f.code, f.amount) for f in record.findings] == [("LATE_WAGER", 20), ("MISPAY", 60)]


def test_only_bet_placed_after_the_dealer_turns_means_the_box_folded() -> None:
    """The box's one Bet came after the dealer's cards: void, so the box never played and
    loses its Ante: -10."""
    record = (box().act(1, "stand").turn_dealer(DEALER).bet(1, 20)
              .collect(1, "ante", 10).record())
    assert codes(record) == ["LATE_WAGER"]
    assert expected_net(record)["1"] == -10


def test_late_bet_kept_when_it_loses_under_the_alternative_reading() -> None:
    """``kept_if_losing``: A K 7 loses to A K 8. Valid: Ante 10 + Bet 20 = -30; with the late
    20 as well, -50: the house keeps the losing late chips: -50."""
    hand = (box(LOSER).act(1, "stand").bet(1, 20).turn_dealer(DEALER)
            .bet(1, 20, with_play=False).hand())
    void = adjudicate(hand, HOUSE)
    kept = adjudicate(hand, _profile_with(late_wager_settlement="kept_if_losing"))
    assert void.net == {1: -30}
    assert kept.net == {1: -50}


def test_late_bet_not_paid_when_it_wins_under_the_alternative_reading() -> None:
    """``kept_if_losing``: trips win; the late 20 would win 60 more, so it is void: +60."""
    hand = (box().act(1, "stand").bet(1, 20).turn_dealer(DEALER)
            .bet(1, 20, with_play=False).hand())
    kept = adjudicate(hand, _profile_with(late_wager_settlement="kept_if_losing"))
    assert kept.net == {1: 60}


def test_foreign_wager_kind_does_not_play() -> None:
    record = (box().act(1, "stand").bet(1, 20).add("wager", seat=1, kind="flush_bonus",
                                                   amount=5)
              .turn_dealer(DEALER).pay(1, 60).record())
    assert codes(record) == ["FOREIGN_WAGER"]


# ---------------------------------------------------------------- RP-1, RP-9, RP-10


def test_box_dealt_four_cards_is_a_deal_finding() -> None:
    record = (Scenario().ante(1, 10).deal(1, "Jc Jd Js 2h").deal_dealer(DEALER).act(1, "fold")
              .turn_dealer(DEALER).collect(1, "ante", 10).record())
    assert codes(record) == ["WRONG_DEAL_COUNT"]


def test_dealer_cards_all_face_down_is_a_deal_finding() -> None:
    s = Scenario().ante(1, 10).deal(1, TRIPS)
    for card in DEALER.split():
        s.add("card_dealt", to="dealer", card=card, face_up=False)
    record = s.act(1, "fold").turn_dealer(DEALER).collect(1, "ante", 10).record()
    assert codes(record) == ["DEALER_UPCARD"]


def test_bonus_paid_after_the_sixth_card_is_an_order_finding() -> None:
    """RP-9: a bonus payout after the box bought its sixth card is flagged. (House-v1 posts
    no Russian bonus side game, so the payout is also unexplained chips: MISPAY.)"""
    record = (box().fee(1, "buy_card", 10).draw(1, "", "7d").pay(1, 5, "bonus").bet(1, 20)
              .turn_dealer(DEALER).pay(1, 200).record())
    assert sorted(codes(record)) == ["BONUS_AFTER_SIXTH_CARD", "MISPAY"]


def test_shown_cards_that_differ_from_the_dealt_ones() -> None:
    """RP-10: the box shows J J J J 7 but was dealt J J J 2 7: CARDS_SWITCHED (settled on
    the cards dealt: trips, +60)."""
    record = (box().act(1, "stand").bet(1, 20).turn_dealer(DEALER)
              .add("showdown", seat=1, cards=["Jc", "Jd", "Js", "Jh", "7c"]).pay(1, 60).record())
    assert codes(record) == ["CARDS_SWITCHED"]
    assert expected_net(record)["1"] == 60


def test_unread_dealer_cards_taken_from_the_showdown() -> None:
    """The shoe did not read the dealer's hole cards; his turned cards are A-K: trips +60."""
    s = Scenario().ante(1, 10).deal(1, TRIPS)
    for n in range(5):
        s.add("card_dealt", to="dealer", card="3h" if n == 4 else None, face_up=n == 4)
    record = s.act(1, "stand").bet(1, 20).turn_dealer(DEALER).pay(1, 60).record()
    assert record.status == "ok", record.findings
    assert expected_net(record)["1"] == 60


def test_dealer_cards_never_read_rejects_the_hand() -> None:
    s = Scenario().ante(1, 10).deal(1, TRIPS)
    for n in range(5):
        s.add("card_dealt", to="dealer", card=None, face_up=n == 4)
    record = s.act(1, "stand").bet(1, 20).pay(1, 60).record()
    assert record.status == "rejected"
    assert [(f.code, f.rule) for f in record.findings] == [("HAND_REJECTED", "RP-5")]


# ---------------------------------------------------------------- GEN rules


def test_ante_above_the_posted_maximum() -> None:
    record = (Scenario(limits={"min_wager": 5, "max_wager": 8}).ante(1, 10).deal(1, TRIPS)
              .deal_dealer(DEALER).act(1, "fold").turn_dealer(DEALER)
              .collect(1, "ante", 10).record())
    assert [(f.code, f.rule) for f in record.findings] == [("WAGER_OUTSIDE_LIMITS", "GEN-5")]


def test_dead_hand_returns_everything() -> None:
    """GEN-6: misdeal after the Antes: every seat 0, status dead."""
    record = (Scenario({1: 1000, 2: 1000}).ante(1, 10).ante(2, 10).deal(1, TRIPS)
              .add("misdeal", reason="card exposed").record())
    assert record.status == "dead"
    assert expected_net(record) == {"1": 0, "2": 0, "house": 0}


def test_rake_at_the_house_banked_table_is_a_finding() -> None:
    """GEN-10: Russian Poker has no rake; 1 chip taken is RAKE_OVER."""
    record = (box().act(1, "stand").bet(1, 20).turn_dealer(DEALER).pay(1, 60)
              .add("rake_collected", seat=1, amount=1, **{"from": "stack"}).record())
    assert [(f.code, f.rule) for f in record.findings] == [("RAKE_OVER", "GEN-10")]


def test_sitting_out_seat_nets_zero() -> None:
    """Seat 2 is dealt in by hand_started but puts no Ante down: 0."""
    record = (box(seats={1: 1000, 2: 1000}).act(1, "stand").bet(1, 20).turn_dealer(DEALER)
              .pay(1, 60).record())
    assert record.status == "ok", record.findings
    assert expected_net(record) == {"1": 60, "2": 0, "house": -60}


def test_hand_without_hand_started_is_rejected() -> None:
    from services.adjudicator.adjudicate import adjudicate_hand

    hand = build_hand(table_config("russian"), [("wager", {"seat": 1, "kind": "ante",
                                                           "amount": 10}),
                                                ("hand_ended", {})])
    record = adjudicate_hand(hand, PROFILES)
    assert record.status == "rejected"


# ---------------------------------------------------------------- audit additions


def test_ante_added_after_the_dealer_turns_is_late_even_without_a_shoe_read() -> None:
    """SURV-1 "after an outcome was visible": the table records no card_dealt (cards known
    only from the showdowns). Seat 1 puts down Ante 10, Bet 20; the dealer turns Ad Qc 8s
    6d 3h (no game, so the Ante is paid 1 to 1); then 50 more goes on the Ante and the table
    pays 60. Only the Ante 10 was in action: due +10. The 50 is LATE_WAGER and the table
    overpaid by 50 (MISPAY +50)."""
    no_game = "Ad Qc 8s 6d 3h"
    record = (Scenario().ante(1, 10).bet(1, 20).turn_dealer(no_game).ante(1, 50)
              .add("showdown", seat=1, cards=TRIPS.split()).pay(1, 60).record())
    assert expected_net(record)["1"] == 10
    assert sorted((f.code, f.amount) for f in record.findings) == [
        ("LATE_WAGER", 50), ("MISPAY", 50)]


def test_hand_dealt_from_a_short_deck_is_a_deal_finding() -> None:
    """RP-1: one 52-card deck (profile ``deck_size``); hand_started says 36 cards. Every
    card below is also in a 36-card deck (6 to A), so GEN-1 has nothing to say; trips beat
    the dealer's Ace-King: 20 x 3 = +60."""
    dealer = "Ad Kc 8s 6d 7h"
    scenario = (Scenario().ante(1, 10).deal(1, "Jc Jd Js Th 9c").deal_dealer(dealer)
                .act(1, "stand").bet(1, 20).turn_dealer(dealer).pay(1, 60))
    scenario.events[0][1]["deck"] = 36
    record = scenario.record()
    assert [(f.code, f.rule) for f in record.findings] == [("WRONG_DECK", "RP-1")]
    assert expected_net(record)["1"] == 60


def test_dealer_turning_cards_other_than_those_dealt_is_a_switch() -> None:
    """RP-10: the shoe read Ad Kc 8s 6d 3h for the dealer; he turns Ad Kc 8s 8d 3h (a pair of
    8s). Settled on the cards dealt (Ace-King: trips win 20 x 3 = +60) and flagged."""
    record = (box().act(1, "stand").bet(1, 20).turn_dealer("Ad Kc 8s 8d 3h").pay(1, 60)
              .record())
    assert [(f.code, f.rule) for f in record.findings] == [("DEALER_CARDS_SWITCHED", "RP-10")]
    assert expected_net(record)["1"] == 60


def test_chips_moved_between_players_instead_of_through_the_house() -> None:
    """GEN-8: house-banked, the house takes the other side of every box. Seat 1 (A K 7 5 2)
    loses to the dealer's A K 8: -30; seat 2 (trips) wins 20 x 3 = +60; house -30. The
    table collects seat 1's Ante (10) to the house, but pays 20 of seat 2's 60 straight
    out of seat 1's stack ("source seat:1") and the other 40 from the house; seat 1's Bet
    goes back from the layout. Recorded: seat 1 -10 -20 = -30, seat 2 +20 +40 = +60, as
    due; yet chips went player to player: NOT_HOUSE_BANKED, 20 chips."""
    record = (Scenario({1: 1000, 2: 1000}).ante(1, 10).ante(2, 10).deal(1, "As Kh 7d 5c 2s")
              .deal(2, TRIPS).deal_dealer(DEALER).act(1, "stand").act(2, "stand")
              .bet(1, 20).bet(2, 20).turn_dealer(DEALER).collect(1, "ante", 10)
              .add("payout", seat=2, amount=20, source="seat:1", kind="win")
              .pay(2, 40).record())
    assert expected_net(record) == {"1": -30, "2": 60, "house": -30}
    assert recorded_net(record) == expected_net(record)
    assert [(f.code, f.rule, f.seat, f.amount) for f in record.findings] == [
        ("NOT_HOUSE_BANKED", "GEN-8", 2, 20)]


def test_losing_wager_collected_to_a_player_at_the_house_banked_table() -> None:
    """GEN-8: a losing Ante taken ``to: designated`` (there is no designated player at a
    Russian table) is not the house banking the box."""
    record = (box().act(1, "fold").turn_dealer(DEALER)
              .add("wager_collected", seat=1, kind="ante", amount=10, to="designated")
              .record())
    assert "NOT_HOUSE_BANKED" in codes(record)


def test_wager_by_a_seat_not_dealt_in() -> None:
    """RP-1: hand_started deals in seat 1 only; seat 4 puts down an Ante and is never
    dealt. Flagged SEAT_NOT_DEALT_IN (and the deal count). Seat 1: trips +60."""
    record = (Scenario().ante(1, 10).ante(4, 10).deal(1, TRIPS).deal_dealer(DEALER)
              .act(1, "stand").bet(1, 20).turn_dealer(DEALER).pay(1, 60)
              .collect(4, "ante", 10).record())
    assert ("SEAT_NOT_DEALT_IN", "RP-1", 4) in [(f.code, f.rule, f.seat)
                                                for f in record.findings]
    assert expected_net(record)["1"] == 60


# ---------------------------------------------------------------- SURV-1 kept_if_losing, both engines


def _kept_if_losing() -> Profiles:
    return Profiles({HOUSE.name: house_with("russian",
                                            {"late_wager_settlement": "kept_if_losing"})})


def test_a_losing_box_whose_only_bet_was_late_keeps_it_under_kept_if_losing() -> None:
    """A K 7 stands; its one Bet (20) goes down after the dealer's A K 8 is turned; the
    table keeps the Ante and the Bet: -30. ``void`` (house-v1): the Bet does not play, the
    box folded: -10, so the table's -30 is a MISPAY of -20. ``kept_if_losing``: with the
    late Bet the box plays and loses, 10 + 20: -30, as the table did: no MISPAY (QA: a
    critical MISPAY of -20 against this table; the box was settled as folded)."""
    hand = (box(LOSER).act(1, "stand").turn_dealer(DEALER).bet(1, 20)
            .collect(1, "ante", 10).collect(1, "bet", 20).hand())
    void = both_engines(hand, PROFILES)
    assert [(f.code, f.amount) for f in void.findings] == [("LATE_WAGER", 20), ("MISPAY", -20)]
    kept = both_engines(hand, _kept_if_losing())
    assert kept.expected is not None and kept.expected.net == {"1": -30, "house": 30}
    assert [f.code for f in kept.findings] == ["LATE_WAGER"]
    assert "the house keeps it if it loses" in kept.findings[0].message


def test_a_late_ante_of_a_box_that_folds_is_kept_under_kept_if_losing() -> None:
    """The Ante (10) goes down after the box's first card; the box folds; the table keeps
    the 10. ``void``: the late Ante does not play and goes back: 0 due, a MISPAY of -10.
    ``kept_if_losing``: a folded box's Ante loses, so the house keeps it: -10, no
    MISPAY."""
    hand = (Scenario({1: 1000}).deal(1, TRIPS).deal_dealer(DEALER).ante(1, 10)
            .act(1, "fold").turn_dealer(DEALER).collect(1, "ante", 10).hand())
    void = both_engines(hand, PROFILES)
    assert ("MISPAY", -10) in [(f.code, f.amount) for f in void.findings]
    kept = both_engines(hand, _kept_if_losing())
    assert kept.expected is not None and kept.expected.net == {"1": -10, "house": 10}
    assert "MISPAY" not in [f.code for f in kept.findings]


def test_a_late_only_bet_that_would_win_is_not_paid_under_kept_if_losing() -> None:
    """Trips stand; the one Bet is late; with it the box would win 3 x 20 = +60, so it stays
    void: the box did not play and loses its Ante: -10 (the table returned the Bet)."""
    hand = (box().act(1, "stand").turn_dealer(DEALER).bet(1, 20)
            .collect(1, "ante", 10).hand())
    kept = both_engines(hand, _kept_if_losing())
    assert kept.expected is not None and kept.expected.net == {"1": -10, "house": 10}
    assert [f.code for f in kept.findings] == ["LATE_WAGER"]


def test_late_insurance_that_would_lose_is_kept_under_kept_if_losing() -> None:
    """Trips stand and Bet 20; the dealer's A K 8 (a game: insurance loses, RP-4) is
    turned; then insurance 10 goes down (late). The box wins +60; the table pays it and
    takes the insurance: +50. ``void``: late insurance is returned, +60 due, so the +50
    is a MISPAY of -10. ``kept_if_losing``: the late insurance would lose, so the house
    keeps it: +60 - 10 = +50, as the table did: no MISPAY."""
    hand = (box().act(1, "stand").bet(1, 20).turn_dealer(DEALER).insure(1, 10)
            .pay(1, 60).collect(1, "insurance", 10).hand())
    void = both_engines(hand, PROFILES)
    assert [(f.code, f.amount) for f in void.findings] == [("LATE_INSURANCE", 10),
                                                          ("MISPAY", -10)]
    kept = both_engines(hand, _kept_if_losing())
    assert kept.expected is not None and kept.expected.net == {"1": 50, "house": -50}
    assert [f.code for f in kept.findings] == ["LATE_INSURANCE"]


def test_late_chips_kept_and_settled_wrong_are_a_mispay_citing_surv_1() -> None:
    """``kept_if_losing``: A K 7 stands; its one Bet (20) goes down after the dealer's A K 8
    is turned. With the late Bet the box plays and loses 10 + 20 = -30, the house keeping
    the late Bet. The table took the Ante only and returned the Bet: -10, a MISPAY of +20
    citing SURV-1, the reading that kept the late chips (it cited RP-7, whose showdown
    the table had not got wrong: QA). A box that plays with its late chips: the same."""
    folded = (box(LOSER).act(1, "stand").turn_dealer(DEALER).bet(1, 20)
              .collect(1, "ante", 10).hand())
    record = both_engines(folded, _kept_if_losing())
    assert [(f.code, f.rule, f.amount) for f in record.findings if f.code == "MISPAY"] == [
        ("MISPAY", "SURV-1", 20)]
    playing = (box(LOSER).act(1, "stand").bet(1, 20).turn_dealer(DEALER).bet(1, 20)
               .collect(1, "ante", 10).collect(1, "bet", 20).hand())
    record = both_engines(playing, _kept_if_losing())
    assert [(f.code, f.rule, f.amount) for f in record.findings if f.code == "MISPAY"] == [
        ("MISPAY", "SURV-1", 20)]


def test_a_fold_after_another_box_was_served_cites_the_play_rule() -> None:
    """Box 2 exchanges three cards (price 10) before box 1 decides; box 1 then folds, and
    the table leaves its Ante (10) on the layout. RP-2: a fold after the first card was
    served is the play decision of RP-3, so the MISPAY of 10 cites RP-3 (it cited RP-2:
    the reading looked only at the box's own draws and the first Bet)."""
    hand = (Scenario({1: 1000, 2: 1000}).ante(1, 10).ante(2, 10)
            .deal(1, "Qs Th 7d 5s 4s").deal(2, TRIPS).deal_dealer(DEALER)
            .fee(2, "exchange", 10).draw(2, "2h 7c Jc", "3c 5d 9h").act(2, "fold")
            .act(1, "fold").turn_dealer(DEALER).collect(2, "ante", 10).hand())
    record = both_engines(hand, PROFILES)
    assert [(f.code, f.rule, f.seat, f.amount) for f in record.findings] == [
        ("MISPAY", "RP-3", 1, 10)]


def test_the_decision_path_says_what_became_of_late_chips() -> None:
    """A K 7 stands; its one Bet (20) goes down after the dealer's cards were turned:
    under ``void`` (house-v1) it does not play. The box's path said "Ante lost" and no
    word of the 20 (QA); it now carries the LATE_WAGER's words, under SURV-1."""
    hand = (box(LOSER).act(1, "stand").turn_dealer(DEALER).bet(1, 20)
            .collect(1, "ante", 10).hand())
    steps = [(t.rule, t.seat, t.message) for t in adjudicate(hand, HOUSE).trace
             if t.rule == "SURV-1"]
    assert len(steps) == 1 and steps[0][:2] == ("SURV-1", 1)
    assert "a Bet of 20" in steps[0][2] and steps[0][2].endswith("it does not play")
