"""The core's Texas Hold'em rules (with the betting engine and the card ranking) give
byte-identical records to the Python reference.

The Python rules (``services/games/holdem``, ``services/games/betting``,
``services/adjudicator``) are the oracle: for every hold'em unit scenario (the plugin
``native_rules_plugin`` run over ``tests/unit/holdem``), simulated logs with every fault
kind under the house profile and under profiles that flip every reading of
``holdem.toml`` (its ``[rake]``, ``[rake.pot]``, severities and betting severities
included), every imported PHH hand (the 10,000 Pluribus hands, the 18 WSOP hold'em hands
with their big-blind antes, the ``.phhs`` fixtures) and hypothesis-built hands (legal and
illegal betting, blinds and antes right and wrong, deals with exposed, extra, unread and
moved cards, boards with missing and extra burns, early, redealt and set-aside streets,
reshuffles, showdowns shown, mucked, declared and switched, dead hands, rake and
payouts), the native record equals the reference's as ``encode_record`` writes it. The
tests also check that the native path really ran (the core's counters) and that a
registry with other hold'em rules keeps the hands in Python.
"""

from __future__ import annotations

import os
import random
from functools import partial
from pathlib import Path
from typing import Any

import msgspec
import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from services.adjudicator import adjudicate as adjudicate_module
from services.adjudicator.adjudicate import adjudicate_hand
from services.adjudicator.native_runner import NativeRunner, registry_native_games
from services.events.contract import TableConfigured, encode_record
from services.games import registry
from services.games.betting import BettingHand
from services.games.cards import STANDARD_DECK
from services.games.holdem.betting import HoldemBetting, betting_config, posted_antes
from services.games.holdem.profile import HoldemProfile
from services.games.model import HandRejected
from services.games.profile import Profiles, RuleProfile
from services.importers.phh import import_phh
from services.simulator.handbuilder import EventSpec, build_hand, table_config
from services.simulator.run import available_faults
from tests.e2e.phh_support import shared_phh_dir, unpack
from tests.profiles import HOUSE, PROFILES
from tests.unit.native.rules_support import (
    action,
    assert_a_rules_panic_goes_to_the_python_rules,
    betting_round,
    house_with,
    records,
    simulated_game,
    unit_suites_checked_natively,
)

REPO = Path(__file__).resolve().parents[3]

POT_SCHEDULE = {"rate_numerator": 5, "rate_denominator": 100, "unit": 1, "rounding": "down",
                "minimum_pot": 10, "no_flop_no_drop": True,
                "caps": [{"min_players": 4, "cap": 6}, {"min_players": 2, "cap": 3}]}

# Every reading of holdem.toml the other way from house-v1 (some together), so that each
# branch of the port is compared at least once under simulated play.
READINGS: dict[str, dict[str, Any]] = {
    "house": {},
    "dead": {"undeclared_misdeal_settlement": "dead", "deal_phase_ends": "last_hole_card",
             "irregular_hand_dead": False, "unshown_contender": "no_claim",
             "antes_dead_money": True, "unfinished_board_pot": "reject",
             "rake": {"designated_counts_button": False,
                      "all_charges_button": True}},
    "total_pot": {"pot_limit_reading": "total_at_most_pot_after_call",
                  "big_blind_counts_as_bet": False, "max_bets_per_round": 3,
                  "small_blind_numerator": 1, "small_blind_denominator": 3,
                  "big_bet_multiple": 3},
    "pot_fees": {"rake": {"fee_from": "pot", "pot": {**POT_SCHEDULE, "rounding": "nearest"}}},
    "pot_rake": {"rake": {"pot": {**POT_SCHEDULE, "rounding": "up", "no_flop_no_drop": False,
                                  "minimum_pot": 0, "unit": 2}},
                 "deck_size": 53},
    "severities": {"severity": {"wrong_deck": "info", "deal_order": "critical",
                                "showdown_order": "warning", "missing_burn": "critical",
                                "unexpected_action": "critical", "flop_not_redealt": "info",
                                "premature_turn_not_set_aside": "info",
                                "exposed_card_not_replaced": "info"},
                   "betting_severity": {"out_of_turn": "info", "not_in_hand": "warning",
                                        "last_player_folded": "warning",
                                        "round_incomplete": "info", "blind_missing": "info"}},
}


def profile_with(change: dict[str, Any]) -> RuleProfile:
    return house_with("holdem", change)


def profiles_for(reading: str) -> Profiles:
    return Profiles({HOUSE.name: profile_with(READINGS[reading])})


simulated = partial(simulated_game, "holdem")


def test_the_profiles_flip_what_they_say() -> None:
    prof = profiles_for("pot_fees").get(HOUSE.name).section("holdem", HoldemProfile)
    assert prof.rake.fee_from == "pot" and prof.rake.pot.rate_numerator == 5
    assert prof.rake.designated_counts_button is True  # the rest stays house-v1's
    prof = profiles_for("dead").get(HOUSE.name).section("holdem", HoldemProfile)
    assert prof.undeclared_misdeal_settlement == "dead" and prof.antes_dead_money
    assert prof.unshown_contender == "no_claim" and prof.unfinished_board_pot == "reject"


def _all_native(adjudicated: int, deferred: int, total: int, why: str | None) -> None:
    """Every hand decided by the core, the unverified ones (TH-9, cards unknown) too."""
    assert adjudicated + deferred == total
    assert deferred == 0, why


@pytest.mark.parametrize("fault", sorted(available_faults("holdem")))
def test_every_fault_kind_native_records_equal_the_reference(fault: str) -> None:
    lines = simulated(3, 3, 30, frozenset([fault]), 0.4)
    for closed_hands in (False, True):
        ref, nat, (adjudicated, deferred, panicked, why) = records(lines, PROFILES,
                                                                   closed_hands)
        assert nat == ref
        assert panicked == 0
        _all_native(adjudicated, deferred, len(ref), why)
        assert adjudicated >= 0.9 * len(ref)


HANDS_IN_SUITE = int(os.environ.get("PITWATCH_NATIVE_DIFF_HANDS", "20000"))


@pytest.mark.parametrize("reading", sorted(READINGS))
def test_simulated_hands_with_every_fault_under_every_reading(reading: str) -> None:
    """Tens of thousands of simulated hands in all (``PITWATCH_NATIVE_DIFF_HANDS``, 20,000
    by default, split over the readings), every fault kind at a high rate."""
    faults = frozenset(available_faults("holdem"))
    per_run = 3 * 50
    runs = max(1, -(-HANDS_IN_SUITE // (len(READINGS) * per_run)))  # rounded up
    statuses: set[str] = set()
    hands = native = 0
    for seed in range(runs):
        lines = simulated(4000 + seed, 3, 50, faults, 0.35)
        ref, nat, (adjudicated, deferred, _, why) = records(lines, profiles_for(reading), False)
        assert nat == ref, (reading, seed)
        _all_native(adjudicated, deferred, len(ref), why)
        hands += len(ref)
        native += adjudicated
        statuses |= {orjson.loads(r)["status"] for r in ref}
    assert hands >= runs * per_run * 0.9
    assert native >= 0.9 * hands
    assert "discrepancy" in statuses


def test_a_registry_with_other_holdem_rules_keeps_holdem_hands_in_python(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Gating is per game: replacing the hold'em rules leaves the other games native and
    hold'em in Python (and the records are the replaced rules')."""
    assert {"hcf", "chinese", "draw7a", "holdem"} <= set(registry_native_games())
    games = dict(vars(adjudicate_module)["GAMES"])
    original = games["holdem"]
    games["holdem"] = registry.Game("holdem", lambda h, p: original.adjudicate(h, p),
                                    original.rake_rule)
    monkeypatch.setattr(adjudicate_module, "GAMES", games)
    assert "holdem" not in registry_native_games()
    assert {"hcf", "chinese", "draw7a"} <= set(registry_native_games())
    lines = simulated(5, 2, 10, frozenset(), 0.0)
    ref, nat, (adjudicated, deferred, _, _) = records(lines, PROFILES, False)
    assert nat == ref and adjudicated == 0 and deferred == 0


def test_a_panic_in_the_rules_is_caught_and_the_hand_goes_to_the_python_rules() -> None:
    assert_a_rules_panic_goes_to_the_python_rules(simulated(22, 1, 6, frozenset(), 0.0), PROFILES)


# ------------------------------------------------------------------ every unit scenario


def test_every_holdem_unit_scenario_is_adjudicated_natively_the_same(tmp_path: Path) -> None:
    """The game's whole unit suite runs with every hold'em hand it adjudicates also
    adjudicated by the core and compared (``native_rules_plugin``)."""
    seen = unit_suites_checked_natively(["tests/unit/holdem"], tmp_path)
    holdem = seen["games"]["holdem"]
    assert holdem["compared"] >= 100
    # What the core leaves to Python here: profiles whose section does not load (the
    # reference words the error). The unverified hands (TH-9, cards unknown) are its own.
    assert set(seen["not_native"]) <= {"a profile whose holdem section did not load"}, \
        seen["not_native"]
    assert holdem["native"] >= 0.9 * holdem["compared"]


# ------------------------------------------------------------------ imported PHH hands

PHH_PRESENT = (shared_phh_dir() / "pokerkit-d782667-data.tar.gz").is_file()


@pytest.mark.skipif(not PHH_PRESENT, reason="the shared PHH data set is not on this machine")
def test_every_imported_phh_hand_native_records_equal_the_reference(tmp_path: Path) -> None:
    """All 10,018 imported PHH hold'em hands (Pluribus; WSOP with big-blind antes) and the
    ``.phhs`` fixtures: the same records, every PHH hand adjudicated by the core."""
    data = unpack(tmp_path)
    total = 0
    for result in (import_phh([data / "pluribus"]),
                   import_phh([data / "wsop"], big_blind_ante_field=True)):
        lines = [orjson.dumps(e) for e in result.events]
        ref, nat, (adjudicated, _, panicked, why) = records(lines, PROFILES, False)
        assert nat == ref
        assert len(ref) == result.hands and adjudicated == len(ref) and panicked == 0, why
        total += len(ref)
    assert total == 10_018
    fixtures = sorted((REPO / "tests" / "fixtures" / "phhs").glob("*.phhs"))
    assert fixtures
    result = import_phh(fixtures)
    lines = [orjson.dumps(e) for e in result.events]
    ref, nat, (adjudicated, deferred, _, why) = records(lines, PROFILES, False)
    assert nat == ref and ref
    _all_native(adjudicated, deferred, len(ref), why)


# ------------------------------------------------------------------ hypothesis hands

KINDS = ["fold", "check", "call", "bet", "raise", "all_in", "stand", "declare_board",
         "post_small_blind", "post_big_blind", "post_ante"]
HOUSE_PROF = HOUSE.section("holdem", HoldemProfile)


def _betting(rng: random.Random, engine: BettingHand | None, seats: list[int],
             events: list[EventSpec]) -> None:
    betting_round(rng, engine, seats, events, kinds=KINDS, steps=30, stop_chance=0.85,
                  legal_chance=0.92)


def _next_round(engine: BettingHand | None) -> None:
    if engine is not None and not engine.hand_over() and engine.round_index < 3:
        engine.close_round()
        engine.next_round()


@st.composite
def holdem_hands(draw: st.DrawFn) -> tuple[dict[str, Any], list[EventSpec]]:
    """One Texas Hold'em hand as events, arbitrary but valid v1."""
    rng = random.Random(draw(st.integers(0, 2**64 - 1)))
    seats = sorted(rng.sample(range(1, 10), rng.choice([2, 2, 3, 3, 4, 6, 9])))
    if rng.random() < 0.02:
        seats = seats[:1]
    button = rng.choice([*seats, *seats, rng.randint(1, 9)])
    stacks = {s: rng.choice([rng.randint(0, 15), rng.randint(5, 80), rng.randint(50, 5000),
                             2**53 - 1 if rng.random() < 0.03 else 100]) for s in seats}
    structure = rng.choice(["fixed", "pot", "no", "fixed", "pot", "no", None])
    limits: dict[str, Any] = {"min_wager": rng.choice([1, 2, 4]), "max_wager": 10_000}
    for name, values in (("small_blind", [1, 2, 3]), ("big_blind", [2, 4, 5]),
                         ("small_bet", [2, 4]), ("big_bet", [4, 8, 6]), ("ante", [1, 2]),
                         ("big_blind_ante", [2, 4])):
        if rng.random() < (0.7 if name in ("small_blind", "big_blind") else 0.25):
            limits[name] = rng.choice(values)
    mode = rng.choice(["all", "players", "designated", "none"])
    cfg = table_config("holdem", structure=structure, limits=limits,
                       rake={"mode": mode, "fee": rng.choice([0, 1, 1, 2, 5])})
    if rng.random() < 0.05:
        cfg = {k: v for k, v in cfg.items() if k != "authorized_by"}
    events: list[EventSpec] = [("hand_started", {
        "button": button, "designated_player": None, "dealer_id": "d",
        "seats": [{"seat": s, "player_id": f"p{s}", "stack": stacks[s]} for s in seats],
        "deck": rng.choice([52] * 12 + [36])})]
    engine: BettingHand | None = None
    try:
        typed = msgspec.convert(cfg, TableConfigured)
        engine = HoldemBetting(betting_config(typed, HOUSE_PROF), stacks, button,
                               big_blind_ante=posted_antes(typed.limits).big_blind)
    except (HandRejected, ValueError, KeyError):
        engine = None
    if engine is not None:
        for owed in engine.owed_posts():
            if rng.random() < 0.06:
                continue
            amount = owed.amount if rng.random() < 0.93 else owed.amount + 1
            seat = owed.seat if rng.random() < 0.95 else rng.choice(seats)
            engine.apply(seat, owed.kind, amount)
            events.append(action(seat, owed.kind, amount))
    deck = list(STANDARD_DECK)
    rng.shuffle(deck)
    order = [s for s in seats if s > button] + [s for s in seats if s <= button]
    held: dict[int, list[str]] = {s: [] for s in seats}
    deal = [s for _ in range(2) for s in order]
    if rng.random() < 0.05:
        rng.shuffle(deal)
    if rng.random() < 0.05:
        deal = deal[:-1] if rng.random() < 0.5 else [*deal, rng.choice([*seats, 9])]
    for seat in deal:
        card = deck.pop()
        held.setdefault(seat, []).append(card)
        events.append(("card_dealt", {"to": "seat", "seat": seat,
                                      "card": None if rng.random() < 0.02 else card,
                                      "face_up": rng.random() < 0.03}))
    # Irregularities of the deal (TH-3, TH-7), now and then.
    for _ in range(rng.choice([0, 0, 0, 0, 1, 2])):
        seat = rng.choice([*seats, 9])
        victim = held.get(seat) or [deck[-1]]
        what = rng.random()
        if what < 0.3:
            events.append(("card_exposed", {"seat": seat, "card": rng.choice(victim),
                                            "cause": rng.choice(["dealer_error",
                                                                 "dealer_error", "player"])}))
        elif what < 0.6:
            events.append(("card_moved", {"card": rng.choice(victim), "from": f"seat:{seat}",
                                          "to": rng.choice(["burn", "stub", "board",
                                                            "set_aside"])}))
        elif what < 0.8 and deck:
            events.append(("card_dealt", {"to": "seat", "seat": seat, "card": deck.pop(),
                                          "face_up": False}))
        else:
            events.append(("card_dealt", {"to": rng.choice(["dealer", "seat"]), "seat": None,
                                          "card": None, "face_up": False}))
    if rng.random() < 0.04:  # a blind after the deal
        events.append(action(rng.choice(seats), "post_small_blind", 1))
    if rng.random() < 0.04:
        events.append(("wager", {"seat": rng.choice(seats), "kind": "ante", "amount": 5}))
    board: list[str] = []
    for street, count in enumerate((3, 1, 1)):
        early = rng.random() < 0.06
        if not early:
            _betting(rng, engine, seats, events)
        if engine is not None and engine.hand_over() and rng.random() < 0.8:
            break
        for _ in range(rng.choice([1] * 12 + [0, 2])):
            events.append(("card_dealt", {"to": "burn", "seat": None,
                                          "card": deck.pop() if rng.random() < 0.7 else None,
                                          "face_up": False}))
        dealt = count + (rng.choice([0] * 15 + [1, -1]) if count > 1 else 0)
        run = [deck.pop() for _ in range(max(dealt, 0))]
        to = "set_aside" if street == 1 and early and rng.random() < 0.4 else "board"
        for card in run:
            events.append(("card_dealt", {"to": to, "seat": None,
                                          "card": None if rng.random() < 0.01 else card,
                                          "face_up": True}))
        board += run if to == "board" else []
        if early or rng.random() < 0.04:  # a correction after a street dealt early
            fix = rng.random()
            if fix < 0.4 and run:
                events.append(("stub_reshuffled", {"cards": run, "reason": "redeal"}))
                deck = run + deck
                board = [c for c in board if c not in run]
            elif fix < 0.7 and run:
                events.append(("card_moved", {"card": run[0], "from": "board",
                                              "to": rng.choice(["set_aside", "stub", "burn"])}))
            _betting(rng, engine, seats, events)
            if rng.random() < 0.7:
                more = [deck.pop() for _ in range(count)]
                events.extend(("card_dealt", {"to": "board", "seat": None, "card": c,
                                              "face_up": True}) for c in more)
                board += more
        _next_round(engine)
    _betting(rng, engine, seats, events)
    if rng.random() < 0.1:
        events.append(action(rng.choice(seats), "declare_board", None))
    contenders = engine.active() if engine is not None else seats
    if len(contenders) > 1 or rng.random() < 0.1:
        show = engine.showdown_order() if engine is not None else list(contenders)
        if rng.random() < 0.2:
            rng.shuffle(show)
        for seat in show:
            if rng.random() < 0.05:
                continue
            if rng.random() < 0.1:
                events.append(("showdown", {"seat": seat, "mucked": True}))
            elif rng.random() < 0.05:
                events.append(("showdown", {"seat": seat, "cards": rng.sample(deck, 2)}))
            else:
                events.append(("showdown", {"seat": seat, "cards": held.get(seat, [])}))
        if rng.random() < 0.05:
            events.append(("showdown", {"seat": "dealer"}))
    if rng.random() < 0.03:
        events.append((rng.choice(["misdeal", "hand_dead"]), {"reason": "r"}))
    pot = sum(engine.contributions().values()) if engine is not None else 10
    winners = rng.sample(contenders, max(1, min(len(contenders), rng.choice([1, 1, 1, 2]))))
    fee = cfg["rake"]["fee"]
    if rng.random() < 0.3 and fee:
        events.append(("rake_collected", {"seat": rng.choice([None, *seats]),
                                          "amount": fee, "from": rng.choice(["pot", "stack"])}))
    for i, seat in enumerate(winners):
        share = pot // len(winners) + (pot % len(winners) if i == 0 else 0)
        share = min(share + rng.choice([0, 0, 0, 0, 1, -1]), 2**53 - 1)
        if share > 0:
            events.append(("payout", {"seat": seat, "amount": share, "source": "pot",
                                      "kind": "pot"}))
    events.append(("hand_ended", {}))
    return cfg, events


_RUNNERS: dict[str, tuple[Profiles, NativeRunner]] = {}


def _runner_for(reading: str) -> tuple[Profiles, NativeRunner]:
    if reading not in _RUNNERS:
        profiles = profiles_for(reading)
        _RUNNERS[reading] = (profiles, NativeRunner(profiles))
    return _RUNNERS[reading]


@settings(max_examples=int(os.environ.get("PITWATCH_NATIVE_HYPOTHESIS", "400")) * 5,
          deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(holdem_hands(), st.sampled_from(sorted(READINGS)))
def test_hypothesis_hands_native_records_equal_the_reference(
        spec: tuple[dict[str, Any], list[EventSpec]], reading: str) -> None:
    cfg, events = spec
    hand = build_hand(cfg, events)
    profiles, runner = _runner_for(reading)
    reference = encode_record(adjudicate_hand(hand, profiles))
    native, why = runner.adjudicate_hand(hand)
    if native is None:  # a deferral: the Python rules decide (the reasons are bounded)
        assert why is not None and ("bound" in why or "twice" in why
                                    or "without blinds" in why), why
        return
    assert encode_record(native) == reference
