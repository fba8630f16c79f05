"""Dead hands (HCF-13, GEN-6), past-posting (HCF-3, SURV-1), walk-away folds (GEN-7), DP
rotation (HCF-2), cards (unread, switched), table stakes and limits (GEN-2, GEN-5), and
mispay attribution."""

from __future__ import annotations

from services.events.contract import AdjudicationRecord, Finding
from services.games.hcf import adjudicate as hcf
from tests.profiles import HOUSE, PROFILES
from tests.unit.hcf.scenario import (
    adjudicate,
    codes,
    collect,
    config,
    deal,
    ended,
    fold,
    hand,
    net,
    pay,
    raise_,
    rake,
    show,
    started,
    wager,
)
from tests.unit.native.rules_support import both_engines

DP_9_HIGH = "9h 5h 2h 7c 4c 3d 6s"
P_AK9 = "As Ks 9s 5d 4d 3c 2c"  # beats DP_9_HIGH
P_FOUR = "As Ks Qs 9s 3c 2c 4d"  # 4 spades: beats DP_9_HIGH, Flush bonus 2 to 1


def finding_of(record: AdjudicationRecord, code: str) -> Finding:
    found = [f for f in record.findings if f.code == code]
    assert found, f"no {code} in {record.findings}"
    return found[0]


# ---------------------------------------------------------------- dead hands


def test_shuffler_alarm_makes_the_hand_dead() -> None:
    """HCF-13/GEN-6. Antes 10 (seat 2) and 10 + Flush bonus 5 (seat 3) placed, the shuffler
    alarms during the deal; the table ends the hand with every wager still on the layout.
    Expected: all nets 0, no rake; status dead; only the info finding DEAD_HAND."""
    record = adjudicate(
        config(mode="players", fee=1),
        started(1, {1: 500, 2: 100, 3: 100}),
        wager(2, "ante", 10), wager(3, "ante", 10), wager(3, "flush_bonus", 5),
        deal({1: "9h 5h", 2: "As Ks", 3: "Ad Kd"}, dp=1),
        [("shuffler_alarm", {"detail": "red light"})], ended())
    assert net(record) == {"1": 0, "2": 0, "3": 0, "house": 0}
    assert record.status == "dead"
    assert codes(record) == ["DEAD_HAND"]
    assert record.findings[0].rule == "HCF-13"


def test_dead_hand_settled_as_live() -> None:
    """GEN-6. After the alarm the table still collected seat 2's Ante 10 for the DP and
    raked seat 2 1. Expected all 0: DEAD_HAND_SETTLED (critical), MISPAY seat 2 -10 and
    DP +10 citing HCF-13, RAKE_OVER seat 2."""
    record = adjudicate(
        config(mode="players", fee=1),
        started(1, {1: 500, 2: 100}), wager(2, "ante", 10),
        deal({1: DP_9_HIGH, 2: "8s 7s 2s Kd Qc Jd Tc"}, dp=1),
        [("shuffler_alarm", {"detail": "red light"})],
        fold(2), collect(2, "ante", 10), rake(2, 1), ended())
    assert record.status == "discrepancy"
    assert finding_of(record, "DEAD_HAND_SETTLED").severity == "critical"
    mispays = {f.seat: (f.rule, f.amount) for f in record.findings if f.code == "MISPAY"}
    assert mispays == {2: ("HCF-13", -10), 1: ("HCF-13", 10)}
    assert "RAKE_OVER" in codes(record)


def test_card_count_not_declared() -> None:
    """HCF-13. Seat 2 got only 6 cards and the table played on, paying seat 2 20. The hand
    is dead: CARD_COUNT (critical) for seat 2 with 6 cards; expected nets all 0, so the
    20 paid is a MISPAY citing HCF-13."""
    record = adjudicate(
        config(),
        started(1, {1: 500, 2: 100}), wager(2, "ante", 10),
        deal({1: DP_9_HIGH, 2: "As Ks 9s 5d 4d 3c"}, dp=1), raise_(2, 10),
        show(1, DP_9_HIGH), pay(2, 20), ended())
    count = finding_of(record, "CARD_COUNT")
    assert count.seat == 2 and count.rule == "HCF-13" and count.severity == "critical"
    assert "6 cards" in count.message
    assert net(record) == {"1": 0, "2": 0, "house": 0}
    assert {f.rule for f in record.findings if f.code == "MISPAY"} == {"HCF-13"}


def test_card_count_declared_dead_by_the_table() -> None:
    """HCF-13/GEN-6. Seat 2 got 8 cards; the table declared a misdeal and returned
    everything: status dead, no discrepancy."""
    record = adjudicate(
        config(),
        started(1, {1: 500, 2: 100}), wager(2, "ante", 10),
        deal({1: DP_9_HIGH, 2: "As Ks 9s 5d 4d 3c 2c Td"}, dp=1),
        [("misdeal", {"reason": "seat 2 received 8 cards"})], ended())
    assert record.status == "dead"
    assert net(record) == {"1": 0, "2": 0, "house": 0}


# ---------------------------------------------------------------- past-posting


def test_bonus_after_the_first_card_is_past_posting() -> None:
    """HCF-3. Seat 2 puts a Flush bonus 5 down after the first card. PAST_POSTING (HCF-3,
    critical, amount 5); the wager is void and goes back. Seat 2 then wins Ante 10 + Raise
    10 = 20 against the DP; the table also paid the late bonus 2 to 1 = 10 on the 4-card
    flush: expected +20, recorded +30 -> MISPAY +10 citing HCF-3, the rule that voided
    the wager (it cited HCF-8, the paytable's, which decided nothing: QA). Both engines."""
    cards = deal({1: DP_9_HIGH, 2: P_FOUR}, dp=1)
    played = hand(
        config(),
        started(1, {1: 500, 2: 100}), wager(2, "ante", 10),
        cards[:1], wager(2, "flush_bonus", 5), cards[1:],
        raise_(2, 10), show(1, DP_9_HIGH), show(2, P_FOUR), pay(2, 20),
        pay(2, 10, kind="bonus"), ended())
    record = both_engines(played, PROFILES)
    # The decision path says why the bonus is not in action (QA: nothing did).
    assert [(t.rule, t.seat, t.message) for t in hcf.adjudicate(played, HOUSE).trace
            if t.rule == "HCF-3"] == [(
                "HCF-3", 2, "seat 2: flush_bonus placed after the first card: void "
                            "(past_posted_wager_void), returned, not in action")]
    late = finding_of(record, "PAST_POSTING")
    assert (late.rule, late.severity, late.amount, late.seat) == ("HCF-3", "critical", 5, 2)
    assert _mispays(record) == {2: ("HCF-3", 10), 1: ("HCF-3", -10)}
    assert net(record) == {"1": -20, "2": 20, "house": 0}


def test_raise_after_the_dp_hand_was_shown_is_past_posting() -> None:
    """SURV-1. Seat 2 raises 10 only after the DP's cards were shown: PAST_POSTING citing
    SURV-1 and the raise chips are void. The raise action still stands as seat 2's
    decision, so the hand plays with Ante 10 and a Raise of 0 (RAISE_UNDER_MINIMUM).
    A-K-9 beats the qualifying 9-5-2: expected +10; the table paid 20: MISPAY +10 (the DP
    -10) citing SURV-1, the rule that voided the Raise (it cited HCF-7: QA). Both
    engines."""
    record = both_engines(hand(
        config(),
        started(1, {1: 500, 2: 100}), wager(2, "ante", 10),
        deal({1: DP_9_HIGH, 2: P_AK9}, dp=1), show(1, DP_9_HIGH),
        raise_(2, 10), show(2, P_AK9), pay(2, 20), ended()), PROFILES)
    assert finding_of(record, "PAST_POSTING").rule == "SURV-1"
    assert "RAISE_UNDER_MINIMUM" in codes(record)
    assert net(record) == {"1": -10, "2": 10, "house": 0}
    assert _mispays(record) == {2: ("SURV-1", 10), 1: ("SURV-1", -10)}


# ---------------------------------------------------------------- walk-away (GEN-7)


def test_player_leaving_without_acting_has_folded() -> None:
    """GEN-7. Seat 2 walks away after the deal without a decision: folded, Ante 10 to the
    DP. Seat 2 -10, DP +10; WALK_AWAY_FOLD is info only, status ok."""
    record = adjudicate(
        config(),
        started(1, {1: 500, 2: 100}), wager(2, "ante", 10),
        deal({1: DP_9_HIGH, 2: P_AK9}, dp=1),
        [("player_left", {"seat": 2, "player_id": "P2", "stack": 90})],
        collect(2, "ante", 10), ended())
    assert net(record) == {"1": 10, "2": -10, "house": 0}
    walk = finding_of(record, "WALK_AWAY_FOLD")
    assert (walk.rule, walk.severity) == ("GEN-7", "info")
    assert walk.message.startswith("seat 2 left the table at seq ")
    assert walk.message.endswith(" before acting: the hand is folded")
    assert record.status == "ok"


def test_a_seat_that_never_decided_has_folded_in_words_that_say_so() -> None:
    """GEN-7. Seat 2 stays but neither raises nor folds: folded. The finding said "seat 2
    made no decision before acting" (QA). Both engines."""
    record = both_engines(hand(
        config(), started(1, {1: 500, 2: 100}), wager(2, "ante", 10),
        deal({1: DP_9_HIGH, 2: P_AK9}, dp=1), collect(2, "ante", 10), ended()), PROFILES)
    assert finding_of(record, "WALK_AWAY_FOLD").message == (
        "seat 2 made no decision (no raise or fold was recorded): the hand is folded")


def test_walk_away_paid_as_a_winner_is_a_mispay_citing_gen_7() -> None:
    """GEN-7. Seat 2 left without acting, yet the table paid its Ante 10 as a winner and
    never collected it. Expected -10 (a fold loses the Ante), recorded +10 -> MISPAY +20
    citing GEN-7."""
    record = adjudicate(
        config(),
        started(1, {1: 500, 2: 100}), wager(2, "ante", 10),
        deal({1: DP_9_HIGH, 2: P_AK9}, dp=1),
        [("player_left", {"seat": 2, "player_id": "P2", "stack": 90})],
        show(1, DP_9_HIGH), pay(2, 10), ended())
    mispay = next(f for f in record.findings if f.code == "MISPAY" and f.seat == 2)
    assert (mispay.rule, mispay.amount) == ("GEN-7", 20)


# ---------------------------------------------------------------- DP rotation (HCF-2)

FOUR_SEATS = {1: 500, 2: 500, 3: 500, 4: 500}


def rotation_record(dp: int, offers: tuple[tuple[int, bool], ...]) -> AdjudicationRecord:
    """Hand where nobody plays (all three players fold) so only HCF-2 is in question."""
    players = [s for s in FOUR_SEATS if s != dp]
    parts = [started(dp, FOUR_SEATS)]
    parts += [wager(s, "ante", 10) for s in players]
    cards = ["9h 5h 2h 7c 4c 3d 6s", "8s 7s 2s Kd Qc Jd Tc", "As Ks 9s 5d 4d 3c 2c",
             "Ah Kh Qh Jh 6d 7d 3s"]
    parts.append(deal({s: cards[i] for i, s in enumerate(FOUR_SEATS)}, dp=dp))
    for s in players:
        parts += [fold(s), collect(s, "ante", 10)]
    parts.append(ended())
    return adjudicate(config(), *parts, previous_designated=1, designated_offers=offers)


def test_dp_rotation_skip_without_decline() -> None:
    """HCF-2. Previous DP seat 1; now seat 3, but seat 2 (the next clockwise) has no
    recorded decline: DP_ROTATION_SKIP for seat 2."""
    record = rotation_record(3, ((3, True),))
    skip = finding_of(record, "DP_ROTATION_SKIP")
    assert (skip.rule, skip.seat) == ("HCF-2", 2)


def test_dp_rotation_with_recorded_decline() -> None:
    """HCF-2. Seat 2 declined, seat 3 accepted: a legal rotation, no finding."""
    record = rotation_record(3, ((2, False), (3, True)))
    assert "DP_ROTATION_SKIP" not in codes(record)
    assert record.status == "ok", record.findings


def test_dp_stays_only_when_everyone_else_declined() -> None:
    """HCF-2. DP stays seat 1: seats 2, 3 and 4 must all have declined. With 2 and 3 only,
    seat 4 was skipped; with all three, no finding."""
    partial = rotation_record(1, ((2, False), (3, False), (1, True)))
    assert [f.seat for f in partial.findings if f.code == "DP_ROTATION_SKIP"] == [4]
    # It said "moved from seat 1 to seat 1" (QA). The native core's rules run this
    # scenario too (the differential plugin over tests/unit/hcf).
    assert finding_of(partial, "DP_ROTATION_SKIP").message == (
        "the designated player stayed at seat 1, passing seat 4 without a recorded decline")
    full = rotation_record(1, ((2, False), (3, False), (4, False), (1, True)))
    assert "DP_ROTATION_SKIP" not in codes(full)


def test_button_not_in_front_of_the_dp() -> None:
    """HCF-2: the button sits in front of the DP."""
    record = adjudicate(
        config(), started(1, {1: 500, 2: 100}, button=2), wager(2, "ante", 10),
        deal({1: DP_9_HIGH, 2: P_AK9}, dp=1), fold(2), collect(2, "ante", 10), ended())
    assert finding_of(record, "BUTTON_NOT_AT_DP").rule == "HCF-2"


# ---------------------------------------------------------------- cards


def test_unread_card_is_taken_from_the_showdown() -> None:
    """HCF-1 / Reading: seat 2's 7th card was dealt unread (null); its showdown shows the
    seven cards, so the hand is valued: A-K-9 beats 9-5-2, +20."""
    record = adjudicate(
        config(), started(1, {1: 500, 2: 100}), wager(2, "ante", 10),
        deal({1: DP_9_HIGH, 2: "As Ks 9s 5d 4d 3c ??"}, dp=1), raise_(2, 10),
        show(1, DP_9_HIGH), show(2, P_AK9), pay(2, 20), ended())
    assert net(record) == {"1": -20, "2": 20, "house": 0}
    assert record.status == "ok", record.findings


def test_unread_card_never_shown_rejects_the_hand() -> None:
    """HCF-1: a live hand with an unread card and no showdown cannot be valued."""
    record = adjudicate(
        config(), started(1, {1: 500, 2: 100}), wager(2, "ante", 10),
        deal({1: DP_9_HIGH, 2: "As Ks 9s 5d 4d 3c ??"}, dp=1), raise_(2, 10),
        show(1, DP_9_HIGH), pay(2, 20), ended())
    assert record.status == "rejected"
    assert record.findings[0].rule == "HCF-1"


def test_shown_cards_differ_from_dealt() -> None:
    """GEN-1: seat 2 was dealt 2c but shows Qs in its place (a switched card):
    SHOWDOWN_MISMATCH; settlement uses the cards dealt (A-K-9 wins, +20)."""
    record = adjudicate(
        config(), started(1, {1: 500, 2: 100}), wager(2, "ante", 10),
        deal({1: DP_9_HIGH, 2: P_AK9}, dp=1), raise_(2, 10),
        show(1, DP_9_HIGH), show(2, "As Ks 9s 5d 4d 3c Qs"), pay(2, 20), ended())
    assert finding_of(record, "SHOWDOWN_MISMATCH").rule == "GEN-1"
    assert net(record) == {"1": -20, "2": 20, "house": 0}


# ---------------------------------------------------------------- stakes and limits


def test_table_stakes_must_cover_every_wager_of_the_hand() -> None:
    """GEN-2 as HCF applies it: Ante 10 + Flush bonus 5 + a 3x raise (30) = 45 needed;
    seat 2 started with 40: INSUFFICIENT_STAKE, short by 5."""
    record = adjudicate(
        config(), started(1, {1: 500, 2: 40}), wager(2, "ante", 10),
        wager(2, "flush_bonus", 5), deal({1: DP_9_HIGH, 2: P_AK9}, dp=1), fold(2),
        collect(2, "ante", 10), collect(2, "flush_bonus", 5), ended())
    short = finding_of(record, "INSUFFICIENT_STAKE")
    assert (short.rule, short.amount) == ("GEN-2", 5)


def test_wager_outside_posted_limits() -> None:
    """GEN-5: limits 5-100; an Ante of 150 is outside them."""
    record = adjudicate(
        config(min_wager=5, max_wager=100), started(1, {1: 5000, 2: 1000}),
        wager(2, "ante", 150), deal({1: DP_9_HIGH, 2: P_AK9}, dp=1), fold(2),
        collect(2, "ante", 150), ended())
    assert finding_of(record, "WAGER_OUTSIDE_LIMITS").rule == "GEN-5"


def test_no_designated_player_rejects_the_hand() -> None:
    """HCF-2: a High Card Flush hand needs a DP to bank it."""
    parts = started(1, {1: 500, 2: 100})
    parts[0][1]["designated_player"] = None
    record = adjudicate(config(), parts, wager(2, "ante", 10), ended())
    assert record.status == "rejected" and record.findings[0].rule == "HCF-2"


# ---------------------------------------------------------------- mispay attribution


def test_mispaid_ante_and_raise_cites_hcf_7() -> None:
    """HCF-7: seat 2 won Ante 10 + Raise 10 = 20 but was paid 15: MISPAY seat 2 -5 and DP
    +5, both citing HCF-7."""
    record = adjudicate(
        config(), started(1, {1: 500, 2: 100}), wager(2, "ante", 10),
        deal({1: DP_9_HIGH, 2: P_AK9}, dp=1), raise_(2, 10),
        show(1, DP_9_HIGH), show(2, P_AK9), pay(2, 15), ended())
    mispays = {f.seat: (f.rule, f.amount) for f in record.findings if f.code == "MISPAY"}
    assert mispays == {2: ("HCF-7", -5), 1: ("HCF-7", 5)}


def test_mispaid_straight_flush_bonus_cites_hcf_9() -> None:
    """HCF-9: seat 2 holds 2-3-4-5 of clubs (a 4-run: 60 to 1, Straight Flush bonus 5 ->
    300) and wins Ante 10 + Raise 10 = 20 with 4 clubs vs 3 hearts. The table paid the
    bonus as a 3-run (8 to 1 = 40): MISPAY seat 2 -260 citing HCF-9."""
    p2 = "2c 3c 4c 5c 9s Js Ks"
    record = adjudicate(
        config(), started(1, {1: 5000, 2: 1000}), wager(2, "ante", 10),
        wager(2, "sf_bonus", 5), deal({1: "9h 5h 2h 7d 4d 3d 6s", 2: p2}, dp=1),
        raise_(2, 10), show(1, "9h 5h 2h 7d 4d 3d 6s"), show(2, p2), pay(2, 20),
        pay(2, 40, kind="bonus"), ended())
    mispay = next(f for f in record.findings if f.code == "MISPAY" and f.seat == 2)
    assert (mispay.rule, mispay.amount) == ("HCF-9", -260)


def test_trace_states_qualification_and_order() -> None:
    """The dispute report's path: HCF-2 DP, HCF-5 order, HCF-7 qualification, HCF-12."""
    outcome = hcf.adjudicate(hand(
        config(), started(1, {1: 500, 2: 100}), wager(2, "ante", 10),
        deal({1: DP_9_HIGH, 2: P_AK9}, dp=1), raise_(2, 10), show(1, DP_9_HIGH),
        show(2, P_AK9), pay(2, 20), ended()), HOUSE)
    rules = [s.rule for s in outcome.trace]
    assert rules[:3] == ["HCF-2", "HCF-5", "HCF-7"] and rules[-1] == "HCF-12"
    assert "3-card flush 9-5-2: qualifies" in outcome.trace[2].message


# ---------------------------------------------------------------- audit additions


def test_limits_apply_to_the_wager_in_action_not_to_each_chip_push() -> None:
    """GEN-5 / HCF-3 "within posted limits" (audit). Limits 5-10. Seat 2 puts its Ante
    down as 6 and then 6 more, both before the first card (a legal change): the Ante in
    action is 12 > 10, one WAGER_OUTSIDE_LIMITS of 12. Seat 3 puts 3 and then 3: the Ante
    is 6, inside 5-10: no finding for seat 3 (each push of 3 alone is below 5)."""
    record = adjudicate(
        config(min_wager=5, max_wager=10), started(1, {1: 500, 2: 100, 3: 100}),
        wager(2, "ante", 6), wager(2, "ante", 6), wager(3, "ante", 3), wager(3, "ante", 3),
        deal({1: DP_9_HIGH, 2: P_AK9, 3: "8s 7s 2s Kd Qc Jd Tc"}, dp=1),
        fold(3), collect(3, "ante", 6), fold(2), collect(2, "ante", 12), ended())
    outside = [(f.seat, f.amount) for f in record.findings if f.code == "WAGER_OUTSIDE_LIMITS"]
    assert outside == [(2, 12)]


def test_extra_card_shown_is_a_mismatch_and_the_dealt_cards_settle() -> None:
    """GEN-1 (audit). Seat 2 was dealt A-K-9 of spades + 5d 4d 3c 2c (all read) but shows
    those seven plus a Qs: a card was added. SHOWDOWN_MISMATCH; settled on the seven dealt:
    A-K-9 beats the DP's 9-5-2, Ante 10 + Raise 10 = +20 (the Qs would make no difference
    to the length but is not the player's)."""
    record = adjudicate(
        config(), started(1, {1: 500, 2: 100}), wager(2, "ante", 10),
        deal({1: DP_9_HIGH, 2: P_AK9}, dp=1), raise_(2, 10),
        show(1, DP_9_HIGH), show(2, P_AK9 + " Qs"), pay(2, 20), ended())
    assert finding_of(record, "SHOWDOWN_MISMATCH").seat == 2
    assert net(record) == {"1": -20, "2": 20, "house": 0}


def test_showdown_that_cannot_fill_the_unread_card_rejects_the_hand() -> None:
    """HCF-1 (audit). Seat 2's seventh card was dealt unread; its showdown lists the six
    read cards and three more (As Ks Qs). Which of the three was the seventh card cannot
    be told (with As Ks Qs the hand would be six spades): the hand cannot be valued and is
    rejected, instead of being valued on nine cards."""
    record = adjudicate(
        config(), started(1, {1: 500, 2: 100}), wager(2, "ante", 10),
        deal({1: DP_9_HIGH, 2: "8s 7s 2s Kd Qc Jd ??"}, dp=1), raise_(2, 10),
        show(1, DP_9_HIGH), show(2, "8s 7s 2s Kd Qc Jd As Ks Qs"), pay(2, 20), ended())
    assert record.status == "rejected"
    assert record.findings[0].rule == "HCF-1"


def test_dp_showing_fewer_cards_than_were_dealt_unread_rejects_the_hand() -> None:
    """HCF-1 (audit). The DP's seven cards were all dealt unread and its showdown lists
    only 9h 5h 2h: the other four are unknown (they could make a longer flush), so the hand
    cannot be valued; it was valued on three cards before."""
    record = adjudicate(
        config(), started(1, {1: 500, 2: 100}), wager(2, "ante", 10),
        deal({1: "?? ?? ?? ?? ?? ?? ??", 2: P_AK9}, dp=1), raise_(2, 10),
        show("dealer", "9h 5h 2h"), show(2, P_AK9), pay(2, 20), ended())
    assert record.status == "rejected"
    assert record.findings[0].rule == "HCF-1"


def test_unread_card_filled_from_a_showdown_in_another_order() -> None:
    """HCF-1 (audit). Seat 2's first card was unread; the showdown lists the seven cards in
    another order. The read six are all there and one card is left (As): the hand is
    A-K-9 of spades, beats 9-5-2: +20, no finding."""
    record = adjudicate(
        config(), started(1, {1: 500, 2: 100}), wager(2, "ante", 10),
        deal({1: DP_9_HIGH, 2: "?? Ks 9s 5d 4d 3c 2c"}, dp=1), raise_(2, 10),
        show(1, DP_9_HIGH), show(2, "2c 3c 4d 5d 9s Ks As"), pay(2, 20), ended())
    assert net(record) == {"1": -20, "2": 20, "house": 0}
    assert record.status == "ok", record.findings


def test_raise_after_another_player_was_paid_is_past_posting_without_a_dp_showdown() -> None:
    """SURV-1 (audit): "after an outcome was visible". The shoe read the DP's cards, so
    there is no DP showdown event; seat 3 raised 10 and was paid 20 (A-K-T of diamonds
    beats 9-5-2), and only then seat 2 put its Raise 10 down. The payout showed the
    outcome: PAST_POSTING citing SURV-1, the raise chips are void (RAISE_UNDER_MINIMUM,
    Raise 0 in action); A-K-9 beats 9-5-2, seat 2 is due Ante 10 only. The table paid 20:
    MISPAY seat 2 +10."""
    p3 = "Ad Kd Td 8c Tc Jh Qh"
    record = adjudicate(
        config(), started(1, {1: 500, 2: 100, 3: 100}),
        wager(2, "ante", 10), wager(3, "ante", 10),
        deal({1: DP_9_HIGH, 2: P_AK9, 3: p3}, dp=1),
        raise_(3, 10), pay(3, 20), raise_(2, 10), pay(2, 20), ended())
    late = finding_of(record, "PAST_POSTING")
    assert (late.rule, late.seat, late.amount) == ("SURV-1", 2, 10)
    assert net(record) == {"1": -30, "2": 10, "3": 20, "house": 0}
    mispay = next(f for f in record.findings if f.code == "MISPAY" and f.seat == 2)
    assert mispay.amount == 10


def test_raise_without_an_ante_is_not_in_the_game() -> None:
    """HCF-3 (audit). Seat 2 puts a Raise of 10 down with no Ante; seat 3 antes 10 and
    folds. Seat 2 is not in the hand: WAGER_NOT_IN_GAME for its 10, which goes back.
    Nets: seat 2 0, seat 3 -10, DP +10."""
    record = adjudicate(
        config(), started(1, {1: 500, 2: 100, 3: 100}), wager(3, "ante", 10),
        deal({1: DP_9_HIGH, 3: P_AK9}, dp=1), wager(2, "raise", 10),
        fold(3), collect(3, "ante", 10), ended())
    assert [(f.seat, f.amount) for f in record.findings
            if f.code == "WAGER_NOT_IN_GAME"] == [(2, 10)]
    assert net(record) == {"1": 10, "2": 0, "3": -10, "house": 0}


def test_raise_chips_after_a_fold_are_not_in_action() -> None:
    """HCF-4 (audit). Seat 2 folds, then puts 10 down as a Raise. The fold is its decision:
    it loses the Ante 10; the 10 is not in action (WAGER_NOT_IN_GAME) and goes back.
    Seat 2 -10, DP +10."""
    record = adjudicate(
        config(), started(1, {1: 500, 2: 100}), wager(2, "ante", 10),
        deal({1: DP_9_HIGH, 2: P_AK9}, dp=1), fold(2), collect(2, "ante", 10),
        wager(2, "raise", 10), ended())
    assert [(f.seat, f.amount) for f in record.findings
            if f.code == "WAGER_NOT_IN_GAME"] == [(2, 10)]
    assert net(record) == {"1": 10, "2": -10, "house": 0}


def test_fold_after_the_dp_hand_was_shown_is_a_late_decision() -> None:
    """HCF-5 (audit): players act before the DP's cards are revealed. Seat 2 (8-7-2,
    losing to 9-5-2) folds only after the DP's showdown, saving its Raise. The fold stands
    (Ante 10 to the DP: seat 2 -10, DP +10) and DECISION_AFTER_REVEAL names seat 2."""
    record = adjudicate(
        config(), started(1, {1: 500, 2: 100}), wager(2, "ante", 10),
        deal({1: DP_9_HIGH, 2: "8s 7s 2s Kd Qc Jd Tc"}, dp=1), show(1, DP_9_HIGH),
        fold(2), collect(2, "ante", 10), ended())
    late = finding_of(record, "DECISION_AFTER_REVEAL")
    assert (late.rule, late.seat) == ("HCF-5", 2)
    assert net(record) == {"1": 10, "2": -10, "house": 0}


# ------------------------------------- which rule decided a forfeited or void wager (QA)


def _mispays(record: AdjudicationRecord) -> dict[int | None, tuple[str, int | None]]:
    return {f.seat: (f.rule, f.amount) for f in record.findings if f.code == "MISPAY"}


def test_a_folded_seats_bonus_paid_is_a_mispay_citing_the_fold() -> None:
    """HCF-4: folding forfeits the bonuses. Seat 2 (Ante 10, Flush bonus 5, four spades)
    folds; the table collects both wagers, then pays the Flush bonus 2 to 1 = 10 anyway.
    Expected seat 2 -15, DP +15; recorded -5 and +5: MISPAY +10 and -10 citing HCF-4,
    the rule that forfeited the bonus (it cited HCF-8, whose paytable decided nothing).
    Both engines."""
    record = both_engines(hand(
        config(), started(1, {1: 500, 2: 100}), wager(2, "ante", 10),
        wager(2, "flush_bonus", 5), deal({1: DP_9_HIGH, 2: P_FOUR}, dp=1), fold(2),
        collect(2, "ante", 10), collect(2, "flush_bonus", 5), pay(2, 10, kind="bonus"),
        ended()), PROFILES)
    assert _mispays(record) == {2: ("HCF-4", 10), 1: ("HCF-4", -10)}
