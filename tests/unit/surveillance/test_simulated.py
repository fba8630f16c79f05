"""Surveillance over simulated tables, through the embedded adjudication runner.

False-positive check: clean simulated tables, and tables whose dealers make honest random
mispays (the simulator's ``mispay`` fault, a random seat either way), raise no SURV-2 or
SURV-8 alert at the house-v1 thresholds. And a simulated HCF table rewritten so that one
player's wins are overpaid is caught by SURV-2 end to end.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import orjson

from services.simulator.run import simulate
from services.surveillance import SurveillanceRun, surveil_lines
from services.surveillance.profile import surveillance_config
from tests.profiles import HOUSE, PROFILES
from tests.unit.surveillance.sweetheart import most_paid_player, overpay_one_player


def lines(events: list[dict[str, Any]]) -> Iterator[tuple[bytes, str]]:
    for number, event in enumerate(events, start=1):
        yield orjson.dumps(event), f"line {number}"


def surveil(events: list[dict[str, Any]]) -> SurveillanceRun:
    return surveil_lines(lines(events), surveillance_config(HOUSE), PROFILES)


def test_clean_tables_raise_no_alerts() -> None:
    """Five tables (one per game) x 300 hands, no injected fault: the honest misdeals,
    exposed cards and shuffler alarms the simulators produce stay at the floor's rate."""
    log = simulate(["hcf", "russian", "draw7a", "holdem", "chinese"], 5, 300, seed=5, profile=HOUSE)
    run = surveil(log.events)
    assert run.hands_surveilled == 1500
    assert run.alerts == []


def test_honest_random_mispays_raise_no_surv2_or_surv8() -> None:
    """Eight tables x 300 hands with the ``mispay`` fault at 5% per hand (a random payout
    wrong either way): dozens of favourable mispays, spread over players and tables at
    one rate, so neither a dealer-player concentration nor a drifting dealer."""
    log = simulate(["hcf", "russian", "draw7a", "holdem"], 8, 300, seed=9,
                   faults=frozenset({"mispay"}), fault_rate=0.05, profile=HOUSE)
    run = surveil(log.events)
    favourable = sum(1 for r in run.records for f in r.findings
                     if f.code == "MISPAY" and (f.amount or 0) > 0)
    assert favourable >= 40  # the check is not vacuous
    assert [a for a in run.alerts if a.rule in ("SURV-2", "SURV-8")] == []


def test_sweetheart_dealer_caught_end_to_end() -> None:
    """One HCF table, 400 hands; every win paid to one player (the one paid most often)
    is 3 chips too large. That player's favourable MISPAY findings pile up while the
    other players, receiving most of the payouts, get none: SURV-2 alerts for the dealers
    who dealt enough of them (P = share^k, share ~ 1/6 .. 1/3), citing the dealer, the
    player and the overpaid hands."""
    log = simulate(["hcf"], 1, 400, seed=3, profile=HOUSE)
    first = most_paid_player(log.events)
    run = surveil(overpay_one_player(log.events, first, extra=3))
    sweet = [a for a in run.alerts if a.rule == "SURV-2"]
    assert sweet, "the sweethearting dealer was not flagged"
    ev = sweet[0].evidence
    assert ev is not None
    assert ev["player"] == first
    assert ev["count"] >= surveillance_config(HOUSE).sweethearting.min_count
    assert ev["p_value"] <= 1e-6
    overpaid = {(h["hand_id"], h["seat"]) for h in ev["hands"]}
    mispaid = {(r.hand_id, f.seat) for r in run.records for f in r.findings
               if f.code == "MISPAY" and (f.amount or 0) > 0}
    assert overpaid <= mispaid


def test_the_sweetheart_fault_with_a_dealer_pool_is_injected_and_caught() -> None:
    """QA: with ``--dealers`` the HCF sweetheart scenario named the table's own dealer
    (``D0-1``), who never deals when the floor's pool does: 0 faults injected, exit 0.
    Now its dealer is the pool's first at the table: hands are labelled, each one dealt
    by that dealer, and SURV-2 names that dealer and the friend."""
    from services.simulator.options import SimulationOptions

    log = simulate(["hcf"], 2, 300, seed=1, faults=frozenset({"sweetheart"}),
                   profile=HOUSE, options=SimulationOptions(dealers=3))
    labelled = [t for t in log.truth if t.fault == "sweetheart"]
    assert labelled
    assert {t.detail.split()[1] for t in labelled} == {"D01"}
    run = surveil(log.events)
    sweet = [a for a in run.alerts if a.rule == "SURV-2"]
    assert sweet and {(a.evidence or {}).get("dealer") for a in sweet} == {"D01"}
    assert {(a.evidence or {}).get("player") for a in sweet} == {"P0-1"}
