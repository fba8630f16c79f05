"""SURV-2 with one dealer at tables of different sizes: the chances are payouts, by game.

QA's false accusation: one floor dealer deals heads-up and seven-handed hold'em and
overpays every pot winner alike (the simulator's honest ``mispay`` fault). A heads-up
player wins about half his hands but holds few of the dealer's seat-hands, so measured on
seat-hands every heads-up player looked favoured (7 critical SURV-2 alerts). Measured on
the dealer's payouts to him (by game), he is not. Also SURV-8's comparison by table size
and the mispay chips counted once.
"""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from services.events.canonical import event_hash
from services.simulator.options import SimulationOptions
from services.simulator.run import simulate
from services.surveillance import SurveillanceEngine, surveil_lines
from services.surveillance.profile import surveillance_config
from services.surveillance.stats import binomial_sum_upper_tail
from tests.profiles import HOUSE, PROFILES
from tests.unit.surveillance.scenario import hand

HEADS_UP = {1: "A", 2: "B"}
SEVEN_HANDED = {seat: name for seat, name in enumerate("CDEFGHI", start=1)}


def surv2(engine: SurveillanceEngine, hands: list[tuple]) -> list:  # type: ignore[type-arg]
    return [a for h in hands for a in engine.observe(*h) if a.rule == "SURV-2"]


def honest_round(n: int) -> list[tuple]:  # type: ignore[type-arg]
    """Hand ``n`` of T1 (A and B heads-up: A wins the odd hands, B the even) and of T2
    (seven players, the winner seat 1, 2, ... 7 in turn), both dealt by D1, who pays the
    one winner one chip too many every time and pays nobody else."""
    winner_hu = 1 if n % 2 else 2
    winner_seven = (n - 1) % 7 + 1
    return [hand(n, table="T1", players=HEADS_UP, paid=[winner_hu], mispays={winner_hu: 1}),
            hand(n, table="T2", players=SEVEN_HANDED, paid=[winner_seven],
                 mispays={winner_seven: 1})]


def test_a_dealer_who_overpays_every_winner_accuses_no_heads_up_player() -> None:
    """130 rounds. Measured on seat-hands, at A's 62nd overpay (T1 hand 123, look 6) A
    held 123 of D1's 2 * 123 + 7 * 122 = 1,100 seat-hands (11.2%) and had 62 of its 245
    overpays (27.4 expected): p = 5.4e-10, under look 6's threshold 1.24e-8, a critical
    SURV-2 alert accusing A. Measured on payouts (stratum ``hcf``): A was paid in 62 of
    D1's 245 payouts and had 62 of its 245 overpays, his share exactly
    (p = P(Binomial(245, 62/245) >= 62) = 0.52). No alert; at the end A was paid in 65 of
    D1's 260 payouts, C (T2 seat 1) in 19."""
    engine = SurveillanceEngine(surveillance_config(HOUSE))
    alerts = surv2(engine, [h for n in range(1, 131) for h in honest_round(n)])
    assert alerts == []
    dealer = engine.sweethearting.dealers["D1"]
    assert (dealer.chances, dealer.events) == ({"hcf": 260}, {"hcf": 260})
    assert (dealer.pairs["A"].chances, dealer.pairs["A"].events) == ({"hcf": 65},
                                                                    {"hcf": 65})
    assert dealer.pairs["C"].chances == {"hcf": 19}


def test_a_friend_at_two_games_is_tested_game_by_game() -> None:
    """D1 deals T1, HCF heads-up (A, B), for 20 hands, then T2, hold'em six-handed (A and
    five others), for 60; every seat is paid every hand. D1 overpays A in T1 hands 10 and
    20 and in T2 hands 6, 12, ... 60. At the 12th overpay (look 2, threshold 6.755e-8)
    X = Binomial(2, 20/40) + Binomial(10, 60/360), all 12 to A: p = 2^-2 * 6^-10 =
    4.1346e-9 (pooled, A's share 80/400, 0.2^12 = 4.096e-9); 2/2 + 10/6 = 2.667
    expected."""
    six = {1: "A", **{seat: f"X{seat}" for seat in range(2, 7)}}
    hands = [hand(n, table="T1", players=HEADS_UP, mispays={1: 1} if n % 10 == 0 else {})
             for n in range(1, 21)]
    hands += [hand(n, table="T2", game="holdem", big_blind=10, players=six,
                   mispays={1: 1} if n % 6 == 0 else {}) for n in range(1, 61)]
    alerts = surv2(SurveillanceEngine(surveillance_config(HOUSE)), hands)
    assert len(alerts) == 1
    ev = alerts[0].evidence
    assert ev is not None
    assert (ev["count"], ev["dealer_events"], ev["look"]) == (12, 12, 2)
    assert (ev["player_chances"], ev["dealer_chances"]) == (80, 400)
    assert ev["p_value"] == pytest.approx(2.0**-2 * 6.0**-10, rel=1e-9)
    assert ev["expected_count"] == pytest.approx(2 / 2 + 10 / 6)
    assert [s["stratum"] for s in ev["strata"]] == ["hcf", "holdem"]
    assert alerts[0].message.startswith(
        "dealer D1: 12 of 12 favourable mispays went to player A, who had 80 of the "
        "dealer's 400 payouts at tables of the same game (2.7 expected)")


def test_sum_of_binomials_tail_by_hand() -> None:
    """X = Binomial(2, 1/2) + Binomial(1, 1/3): P(X >= 3) = 1/4 * 1/3 = 1/12;
    P(X >= 2) = 1/4 + (1/2)(1/3) = 5/12; one term is the plain binomial's tail."""
    assert binomial_sum_upper_tail(3, [(2, 0.5), (1, 1 / 3)]) == pytest.approx(1 / 12)
    assert binomial_sum_upper_tail(2, [(2, 0.5), (1, 1 / 3)]) == pytest.approx(5 / 12)
    assert binomial_sum_upper_tail(2, [(2, 0.5), (0, 0.9)]) == pytest.approx(1 / 4)
    assert binomial_sum_upper_tail(4, [(2, 0.5), (1, 1 / 3)]) == 0.0


def _merged(heads_up: list[dict[str, Any]], full: list[dict[str, Any]]) -> list[bytes]:
    """Both logs in one, the full tables renamed T1xx (players too) and re-chained."""
    renamed = [orjson.loads(orjson.dumps(e).replace(b"T00", b"T10")) for e in full]
    last: dict[str, dict[str, Any]] = {}
    for event in renamed:
        if event["table_id"] in last:
            event["prev_hash"] = event_hash(last[event["table_id"]])
        last[event["table_id"]] = event
    events = sorted(heads_up + renamed, key=lambda e: (e["ts"], e["table_id"]))
    return [orjson.dumps(e) for e in events]


def test_simulated_floor_of_heads_up_and_full_tables_honest_mispays_no_alert() -> None:
    """QA's repro scaled down: two dealers rotate over two heads-up and two seven-handed
    hold'em tables, 800 hands each, every pot winner mispaid by one chip either way. On
    seat-hands this gave two critical SURV-2 alerts on heads-up players (e.g. 93 of 445
    favourable mispays to a player holding 10.7% of the seat-hands, p = 2.3e-10); now
    none, and no alert of any rule."""
    def floor(players: int, seed: int) -> list[dict[str, Any]]:
        return simulate(["holdem"], 2, 800, seed, faults=frozenset({"mispay"}),
                        fault_rate=1.0, profile=HOUSE,
                        options=SimulationOptions(dealers=2, styles="tight",
                                                  players=players)).events

    lines = _merged(floor(2, 11), floor(7, 12))
    run = surveil_lines(((raw, f"line {i}") for i, raw in enumerate(lines, 1)),
                        surveillance_config(HOUSE), PROFILES)
    assert run.hands_surveilled > 3000
    assert sum(1 for r in run.records for f in r.findings
               if f.code == "MISPAY" and (f.amount or 0) > 0) > 800  # not vacuous
    assert run.alerts == []


def test_drift_compares_a_full_table_dealer_with_full_tables() -> None:
    """Misdeals come with the seats: every 10th seven-handed hand is misdealt, no
    heads-up hand is. D1 deals T1 seven-handed and D3 T3 seven-handed, 200 hands each;
    D2 deals T2 heads-up, 1,800 hands. Against the whole floor D1 had 20 of its 40
    misdeal hands with 200 of its 2,200 hands (3.6 expected): p = P(Binomial(40, 1/11)
    >= 20) = 3.4e-11, a SURV-8 on D1, T1, D3 and T3. Against the floor's seven-handed
    hands, D1 had 20 of 40 with 200 of 400: p = P(Binomial(40, 1/2) >= 20) = 0.56. No
    alert."""
    engine = SurveillanceEngine(surveillance_config(HOUSE))
    seven = {seat: f"S{seat}" for seat in range(1, 8)}
    misdeal = [("misdeal", {"reason": "two hole cards exposed"})]
    for table, dealer in (("T1", "D1"), ("T3", "D3")):
        for n in range(1, 201):
            engine.observe(*hand(n, table=table, dealer=dealer, players=seven,
                                 events=misdeal if n % 10 == 0 else []))
    for n in range(1, 1801):
        engine.observe(*hand(n, table="T2", dealer="D2", players=HEADS_UP))
    assert [a for a in engine.review() if a.rule == "SURV-8"] == []
    d1 = engine.drift.floors[("hcf", "dealer")]["D1"]
    assert (d1.hands, d1.counts) == ({"7": 200}, {"misdeal": {"7": 20}})


def test_a_player_banked_mispay_is_counted_once_in_chips() -> None:
    """At HCF a one-chip overpayment by the designated player is two MISPAY findings, +1
    to the player (seat 2) and -1 to the DP (seat 1): one chip moved. 29 such hands are
    29 chips for SURV-8's ``chips`` (was 58, both sides' absolute values) and for SURV-2's
    (the favourable side). A one-sided mispay (+1 or -3 with no seat on the other side,
    the pot or the rack) is its own amount; two players overpaid 1 each by the DP (-2) is
    2 chips."""
    engine = SurveillanceEngine(surveillance_config(HOUSE))
    for n in range(1, 30):
        engine.observe(*hand(n, mispays={2: 1, 1: -1}))
    assert engine.drift.floors[("hcf", "dealer")]["D1"].chips == 29
    assert engine.sweethearting.dealers["D1"].pairs["B"].chips == 29
    for mispays, chips in (({2: 1}, 1), ({2: -3}, 3), ({2: 1, 3: 1, 1: -2}, 2)):
        other = SurveillanceEngine(surveillance_config(HOUSE))
        other.observe(*hand(1, mispays=mispays))
        assert other.drift.floors[("hcf", "table")]["T1"].chips == chips
