"""The core's High Card Flush rules give byte-identical records to the Python reference.

The Python rules (``services/games/hcf``, ``services/adjudicator``) are the oracle: for
every HCF unit scenario (the plugin ``native_rules_plugin`` run over ``tests/unit/hcf``),
simulated logs with every fault kind under the house profile and under profiles that
flip every Reading, and hypothesis-built hands with arbitrary wagers, decisions, cards,
settlements, rake and table context, the native record equals the reference's as
``encode_record`` writes it. The tests also check that the native path really ran (the
core's counters), that what it defers goes to Python unchanged, and that a panic in the
rules costs nothing but speed.
"""

from __future__ import annotations

import os
from functools import partial
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from services.adjudicator.adjudicate import adjudicate_hand
from services.adjudicator.embedded import adjudicate_lines
from services.adjudicator.native_runner import NativeRunner
from services.adjudicator.python_runner import ReferenceRunner
from services.events.contract import decode_record, encode_record
from services.games.profile import Profiles, RuleProfile
from services.simulator.handbuilder import build_hand
from services.simulator.run import available_faults
from tests.profiles import HOUSE, PROFILES
from tests.unit.hcf import scenario as sc
from tests.unit.native.rules_support import (
    assert_a_rules_panic_goes_to_the_python_rules,
    house_with,
    records,
    simulated_game,
    unit_suites_checked_natively,
)

# Every Reading of hcf.toml the other way from house-v1 (some together), so that each
# branch of the port is compared at least once under simulated play.
READINGS: dict[str, dict[str, Any]] = {
    "house": {},
    "against_dp": {"bonus_settlement": "against_dp", "sf_wraparound": True,
                   "sf_ace_low": False, "bonus_cap_rounding": "floor"},
    "pay_to_extent": {"dp_short_funds": "pay_to_extent", "bankroll_check": "net",
                      "folded_wagers_join_funds": "in_order"},
    "as_placed": {"over_cap_raise_plays": "as_placed", "past_posted_wager_void": False,
                  "dp_funds_reserve_rake": False, "dp_rake_needs_participant": False,
                  "walk_away_severity": "critical", "stake_cover_raise_multiple": 5},
}


def profile_with(**hcf: Any) -> RuleProfile:
    return house_with("hcf", hcf)


def profiles_for(reading: str) -> Profiles:
    return Profiles({HOUSE.name: profile_with(**READINGS[reading])})


simulated = partial(simulated_game, "hcf")


@pytest.mark.parametrize("fault", sorted(available_faults("hcf")))
def test_every_fault_kind_native_records_equal_the_reference(fault: str) -> None:
    lines = simulated(3, 3, 30, frozenset([fault]), 0.4)
    for closed_hands in (False, True):
        ref, nat, (adjudicated, deferred, panicked, _) = records(lines, PROFILES, closed_hands)
        assert nat == ref
        assert adjudicated == len(ref) and deferred == panicked == 0  # all of them native


HANDS_IN_SUITE = int(os.environ.get("PITWATCH_NATIVE_DIFF_HANDS", "20000"))


@pytest.mark.parametrize("reading", sorted(READINGS))
def test_simulated_hands_with_every_fault_under_every_reading(reading: str) -> None:
    """Tens of thousands of simulated hands in all (``PITWATCH_NATIVE_DIFF_HANDS``, 20,000
    by default, split over the readings), every fault kind at a high rate."""
    faults = frozenset(available_faults("hcf"))
    per_run = 3 * 50
    runs = max(1, HANDS_IN_SUITE // len(READINGS) // per_run)
    statuses: set[str] = set()
    for seed in range(runs):
        lines = simulated(1000 + seed, 3, 50, faults, 0.35)
        ref, nat, (adjudicated, deferred, _, _) = records(lines, profiles_for(reading), False)
        assert nat == ref, (reading, seed)
        assert adjudicated + deferred == len(ref) and deferred == 0
        statuses |= {orjson.loads(r)["status"] for r in ref}
    assert {"ok", "discrepancy", "dead"} <= statuses


def test_records_are_the_same_whichever_way_the_log_is_fed() -> None:
    lines = simulated(9, 3, 40, frozenset(available_faults("hcf")), 0.3)
    python = [encode_record(r) for s in adjudicate_lines(lines, PROFILES, "python")
              for r in s.records]
    for closed_hands in (True, False):
        native = [encode_record(r) for s in adjudicate_lines(lines, PROFILES, "native",
                                                              closed_hands=closed_hands)
                  for r in s.records]
        assert native == python


def test_the_native_runner_gives_the_hand_when_asked_and_not_otherwise() -> None:
    lines = simulated(4, 3, 10, frozenset(), 0.0)
    with_hands = [s for s in NativeRunner(PROFILES).feed_lines(lines) if s.records]
    without = [s for s in NativeRunner(PROFILES, closed_hands=False).feed_lines(lines)
               if s.records]
    reference = ReferenceRunner(PROFILES)
    ref_hands = [s.closed_hand for i, line in enumerate(lines)
                 if (s := reference.feed(line, f"line {i}")).records]
    assert [s.closed_hand for s in with_hands] == ref_hands
    assert all(s.closed_hand is None for s in without) and len(without) == len(ref_hands)


# ------------------------------------------------------------------ every unit scenario


def test_every_hcf_unit_scenario_is_adjudicated_natively_the_same(tmp_path: Path) -> None:
    """The game's whole unit suite runs with every hand it adjudicates also adjudicated by
    the core and compared (``native_rules_plugin``)."""
    seen = unit_suites_checked_natively(["tests/unit/hcf"], tmp_path)
    assert seen["compared"] >= 1000
    assert seen["native"] == seen["compared"], seen["not_native"]


# ------------------------------------------------------------------ hypothesis hands

CARDS = [r + s for r in "23456789TJQKA" for s in "cdhs"]
KINDS = ["ante", "ante", "ante", "flush_bonus", "sf_bonus", "raise", "bet"]
CHIPS = st.one_of(st.integers(1, 60), st.sampled_from([1, 5, 10, 25, 100, 1000]),
                  st.integers(1, 2**53 - 1))


@st.composite
def hcf_hands(draw: st.DrawFn) -> tuple[dict[str, Any], list[Any], dict[str, Any]]:
    """One HCF hand as events, arbitrary but valid v1: seats, DP, wagers of any kind and
    size (some past-posted, some by the DP), decisions (fold, raise, none, left), cards
    (short or long hands, unread cards, duplicates, showdowns that differ), settlement
    events with any amount and account, rake from stacks or the pot, dead-hand events,
    chips changed, and the table's posted rake, limits, cap, paytables and context."""
    seats = sorted(draw(st.sets(st.integers(1, 9), min_size=2, max_size=7)))
    dp = draw(st.sampled_from(seats))
    stacks = {s: draw(st.one_of(st.integers(0, 400), st.integers(0, 40), CHIPS)) for s in seats}
    button = draw(st.sampled_from([dp, dp, *seats]))
    events: list[Any] = sc.started(dp, stacks, button)
    players = [s for s in seats if s != dp]
    def some_seat() -> int:
        return draw(st.sampled_from([*players, *players, dp, 12]))
    small = st.sampled_from([1, 2, 5, 10, 25])
    for seat in players:  # most players play: an Ante, often bonuses
        if draw(st.integers(0, 6)):
            events += sc.wager(seat, "ante", draw(small))
            for bonus in ("flush_bonus", "sf_bonus"):
                if draw(st.integers(0, 2)) == 0:
                    events += sc.wager(seat, bonus, draw(small))
    for _ in range(draw(st.integers(0, 3)) if draw(st.integers(0, 3)) == 0 else 0):
        events += sc.wager(some_seat(), draw(st.sampled_from(KINDS)), draw(CHIPS))
    deck = draw(st.permutations(CARDS))
    faulty_deal = draw(st.integers(0, 9)) == 0
    hands: dict[int, str] = {}
    at = 0
    for holder in seats:
        count = draw(st.sampled_from([7, 6, 8])) if faulty_deal else 7
        cards = list(deck[at:at + count])
        at += count
        if draw(st.integers(0, 19)) == 0:
            cards[0] = "??"
        if faulty_deal and draw(st.booleans()):
            cards[-1] = deck[0]
        hands[holder] = " ".join(cards)
    events += sc.deal(hands, dp)
    for _ in range(draw(st.integers(0, 2))):
        events += sc.wager(some_seat(), draw(st.sampled_from(KINDS)), draw(CHIPS))
    for seat in players:
        choice = draw(st.sampled_from(["raise", "raise", "fold", "none", "left", "act"]))
        if choice == "raise":
            events += sc.raise_(seat, draw(CHIPS))
        elif choice == "fold":
            events += sc.fold(seat)
        elif choice == "left":
            events.append(("player_left", {"seat": seat, "player_id": f"P{seat}", "stack": 0}))
        elif choice == "act":
            events.append(("action", {"seat": seat, "action": "raise"}))
    shown_by: list[int | str] = [*seats, "dealer", "designated"]
    for who in draw(st.lists(st.sampled_from(shown_by), max_size=3)):
        shown = hands[dp if isinstance(who, str) else who].replace("??", deck[-1])
        if draw(st.integers(0, 5)) == 0:
            shown = " ".join(shown.split()[:-1] + [deck[-2]])
        events += sc.show(who, shown)
    if draw(st.integers(0, 30)) == 0:
        kind = draw(st.sampled_from(["shuffler_alarm", "misdeal", "hand_dead"]))
        events.append((kind, {"detail": "x"} if kind == "shuffler_alarm" else {"reason": "y"}))
    steps = ["collect", "collect", "pay", "pay", "bonus", "rake", "pot_rake", "collection",
             "chips", "refund"]
    for _ in range(draw(st.integers(0, 2 * len(seats)))):
        step = draw(st.sampled_from(steps))
        seat = some_seat()
        amount = draw(st.one_of(small, small, small, CHIPS))
        if step == "collect":
            events.append(("wager_collected", {
                "seat": seat, "kind": draw(st.sampled_from(KINDS)), "amount": amount,
                "to": draw(st.sampled_from(["designated", "house"]))}))
        elif step == "pay":
            events += sc.pay(seat, amount, draw(st.sampled_from(["win", "bonus", "pot"])),
                             draw(st.sampled_from(["designated", "house", "pot",
                                                   f"seat:{dp}"])))
        elif step == "bonus":
            events += sc.pay(seat, amount, "bonus")
        elif step == "refund":
            events += sc.pay(seat, amount, "refund", "house")
        elif step == "rake":
            events += sc.rake(seat, amount)
        elif step == "pot_rake":
            events.append(("rake_collected", {"seat": None, "amount": amount, "from": "pot"}))
        elif step == "collection":
            events.append(("collection", {"seat": seat, "kind": "other", "amount": amount,
                                          "to": draw(st.sampled_from(["designated", "house",
                                                                      f"seat:{dp}"]))}))
        elif draw(st.integers(0, 3)) == 0:
            events.append(("chips_changed", {
                "seat": seat, "amount": draw(st.integers(-100, 100)),
                "kind": draw(st.sampled_from(["add", "remove", "cash_in_play"]))}))
    events += sc.ended()
    extra: dict[str, Any] = {}
    if draw(st.booleans()):
        extra["paytables"] = {
            "flush_bonus": {str(k): draw(st.integers(0, 500)) for k in
                            draw(st.sets(st.integers(3, 7), min_size=1))},
            **({"sf_bonus": {"3": draw(st.integers(0, 2**40))}} if draw(st.booleans())
               else {})}
    mode = draw(st.sampled_from(["all", "players", "designated", "none"]))
    cfg = sc.config(mode, draw(st.integers(0, 5)),
                    bonus_cap=draw(st.one_of(st.none(), st.integers(0, 3000))),
                    min_wager=draw(st.integers(1, 5)), max_wager=draw(st.integers(5, 2000)),
                    **extra)
    if draw(st.integers(0, 5)) == 0:
        cfg.pop("authorized_by", None)
    context: dict[str, Any] = {}
    if draw(st.booleans()):
        context["previous_designated"] = draw(st.sampled_from(seats))
        context["designated_offers"] = tuple(
            (s, draw(st.booleans())) for s in draw(st.lists(st.sampled_from(seats),
                                                            max_size=4)))
    return cfg, events, context


@settings(max_examples=int(os.environ.get("PITWATCH_NATIVE_HYPOTHESIS", "400")),
          deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hcf_hands(), st.sampled_from(sorted(READINGS)))
def test_hypothesis_hands_native_records_equal_the_reference(
        spec: tuple[dict[str, Any], list[Any], dict[str, Any]], reading: str) -> None:
    cfg, events, context = spec
    hand = build_hand(cfg, events, **context)
    profiles = profiles_for(reading)
    reference = encode_record(adjudicate_hand(hand, profiles))
    native, why = NativeRunner(profiles).adjudicate_hand(hand)
    if native is None:  # a deferral: the Python rules decide (the reasons are bounded)
        assert why is not None and "bound" in why, why
        return
    assert encode_record(native) == reference


# ------------------------------------------------------------------ deferrals and panics


@pytest.mark.parametrize("key", [" 5", "05", "+5", "-5", "0", "8", "\u0665", "five"])
def test_a_posted_paytable_key_naming_no_length_is_left_to_the_reference(key: str) -> None:
    """QA: a table posting ``{"flush_bonus": {"-5": 15}}`` (or ``"0"``) had a 3-card flush
    paid 15 to 1, every hand reaching the row; ``"05"``, ``"+5"``, ``" 5"`` and an Arabic
    digit read as 5. A key is a length written one way, 1 to 7 here: any other leaves the
    hand to the reference (the core defers), which rejects it (GEN-5) naming the key."""
    hand = build_hand(sc.config(paytables={"flush_bonus": {key: 15, "4": 2}}),
                      [*sc.started(1, {1: 500, 2: 500}), *sc.wager(2, "ante", 10),
                       *sc.wager(2, "flush_bonus", 10),
                       *sc.deal({1: "Kc 8s 4h 2d 3c 5s 9h", 2: "Ad Jd 8d 2c 3h 4s 6c"}, 1),
                       *sc.raise_(2, 10), *sc.ended()])
    native, why = NativeRunner(PROFILES).adjudicate_hand(hand)
    assert native is None and why is not None and "paytable" in why
    record = adjudicate_hand(hand, PROFILES)
    assert record.status == "rejected"
    assert [(f.rule, f.code) for f in record.findings] == [("GEN-5", "HAND_REJECTED")]
    assert record.findings[0].message == (
        f"the table's paytable 'flush_bonus' has key {key!r}, which is not a length: a key "
        'is a number of cards, 1 to 7, such as "4"')


def test_what_the_core_defers_is_adjudicated_by_the_python_rules() -> None:
    """Chips whose settlement leaves the contract's bound: the hand goes to the Python
    rules, which decide it: the Ante, bonus and raise of 2^52 each return to seat 2 as
    one movement of 3 x 2^52 at ``hand_ended``, beyond what a record can state, so the
    hand is rejected (HAND_REJECTED, GEN-8; it was a ``discrepancy`` whose record the
    ledger refused), its record within the contract."""
    cfg = sc.config(max_wager=2**53 - 1)
    hand = build_hand(cfg, [*sc.started(1, {1: 2**53 - 1, 2: 2**53 - 1}),
                            *sc.wager(2, "ante", 2**52), *sc.wager(2, "flush_bonus", 2**52),
                            *sc.deal({1: "2c 3d 4h 6s 7c 8d 9h", 2: "Ah Kh Qh Jh 9h 2s 3s"}, 1),
                            *sc.raise_(2, 2**52), *sc.ended()])
    native, why = NativeRunner(PROFILES).adjudicate_hand(hand)
    assert native is None and why is not None and "bound" in why
    record = adjudicate_hand(hand, PROFILES)  # the reference decides
    assert record.status == "rejected"
    assert (record.findings[-1].code, record.findings[-1].rule) == ("HAND_REJECTED", "GEN-8")
    assert record.findings[-1].message.startswith(
        f"the recorded movements: {3 * 2**52} chips, beyond")
    decode_record(encode_record(record))


def test_a_panic_in_the_rules_is_caught_and_the_hand_goes_to_the_python_rules() -> None:
    assert_a_rules_panic_goes_to_the_python_rules(simulated(22, 1, 6, frozenset(), 0.0), PROFILES)


def test_a_report_replays_hcf_hands_natively_with_the_same_record_and_decision_path() -> None:
    from services.reports.replay import replay_hands

    lines = simulated(23, 3, 15, frozenset(available_faults("hcf")), 0.4)
    ids = [orjson.loads(r)["hand_id"] for r in records(lines, PROFILES, False)[0]][::7]
    native = replay_hands(lines, ids, PROFILES, "native")
    reference = replay_hands(lines, ids, PROFILES, "python")
    assert sorted(native) == sorted(reference) == sorted(ids)
    for hand_id in ids:
        n, r = native[hand_id], reference[hand_id]
        assert n.record is not None and r.record is not None
        assert encode_record(n.record) == encode_record(r.record)
        assert n.hand_input == r.hand_input and n.outcome == r.outcome
        assert [e.hash for e in n.events] == [e.hash for e in r.events]


@pytest.mark.parametrize("game", ["hcf", "chinese", "draw7a", "russian", "holdem"])
def test_pitwatch_adjudicate_writes_the_same_records_with_either_engine(
        tmp_path: Path, game: str) -> None:
    """``pitwatch adjudicate`` (``run_file``): the native core reads the file itself, its
    rules adjudicate the hands, and the records come in runs the core counted; the output
    and the summary's counts (hands by status, findings by rule, code and severity) are
    the reference's, line for line."""
    import io

    from services.log_run import run_file

    log = tmp_path / f"{game}.jsonl"
    lines = simulated_game(game, 24, 3, 25, frozenset(available_faults(game)), 0.3)
    log.write_bytes(b"\n".join(lines[:40]) + b"\n\n" + b"\n".join(lines[40:]) + b"\n")
    outputs = {}
    for engine in ("python", "native"):
        out, dlq = io.BytesIO(), io.BytesIO()
        run = run_file(log, PROFILES, out, engine, dlq=dlq)
        outputs[engine] = (out.getvalue(), dlq.getvalue(),
                           len(run.alerts), run.chain_breaks_outside_hands,
                           run.tally.hands, run.tally.status, run.tally.findings)
    assert outputs["native"] == outputs["python"]
    assert outputs["python"][0].count(b"\n") == 75
    assert outputs["python"][5]["discrepancy"] and outputs["python"][6]


def test_records_in_runs_keep_the_hands_order_around_other_steps(tmp_path: Path) -> None:
    """``feed_path`` with ``runs``: the records of plain hands come in runs and the other
    outcomes (dead letters, alerts, rejected hands) as steps between them; runs and steps
    in the order given are the reference's records, in order."""
    import io

    from services.adjudicator.embedded import EmbeddedRunner

    lines = simulated(31, 3, 30, frozenset(available_faults("hcf")), 0.4)
    lines = [*lines[:50], b"{not json", *lines[50:]]
    log = tmp_path / "hcf.jsonl"
    log.write_bytes(b"\n".join(lines) + b"\n")
    reference = [encode_record(step_record) + b"\n"
                 for step in adjudicate_lines(io.BytesIO(log.read_bytes()), PROFILES, "python")
                 for step_record in step.records]
    runner = EmbeddedRunner(PROFILES, "native", closed_hands=False)
    runner.encode_records()
    written, runs, others = [], 0, 0
    for step in [*runner.feed_path(log, runs=True), runner.finish()]:
        if step.encoded_run is not None:
            runs += 1
            written.append(step.encoded_run.json)
        others += bool(step.dead_letters or step.alerts or step.encoded)
        written += [record.json + b"\n" for record in step.encoded]
    assert b"".join(written) == b"".join(reference)
    assert runs >= 2 and others >= 1
