"""The simulator's ``sweetheart`` scenario against surveillance, and how alerts are scored
against injected scenarios (``services.simulator.scoring.score_alerts``, used by
``pitwatch demo``)."""

from __future__ import annotations

from typing import Any

import orjson

from services.events.contract import Alert
from services.simulator.run import simulate
from services.simulator.scoring import score_alerts
from services.simulator.truth import TruthLabel
from services.surveillance import surveil_lines
from services.surveillance.profile import surveillance_config
from tests.profiles import HOUSE, PROFILES


def test_simulated_sweetheart_is_caught_by_surv2_and_nothing_else_alerts() -> None:
    """Two HCF tables x 600 hands, only the scenario selected: it goes to T001 (dealer
    D0-1, friend P0-1); T002 is the control. SURV-2 names that pair and cites labelled
    hands only; no alert is left unexplained. (The dealer deals only T001, where the
    friend receives about a fifth of its payouts, so it takes about 12 overpays: 300
    hands, the old length of this test, give 9.)"""
    log = simulate(["hcf"], 2, 600, seed=3, faults=frozenset({"sweetheart"}), profile=HOUSE)
    lines = ((orjson.dumps(e), f"line {n}") for n, e in enumerate(log.events, start=1))
    run = surveil_lines(lines, surveillance_config(HOUSE), PROFILES)
    labelled = {(t.table_id, t.hand_id, t.seat) for t in log.truth}
    assert {t for t, _, _ in labelled} == {"T001"}
    sweet = [a for a in run.alerts if a.rule == "SURV-2"]
    assert sweet
    for alert in sweet:
        ev = alert.evidence
        assert ev is not None
        assert (ev["dealer"], ev["player"]) == ("D0-1", "P0-1")
        assert {(h["table_id"], h["hand_id"], h["seat"]) for h in ev["hands"]} <= labelled
    detection = score_alerts(log.truth, run.alerts, ["sweetheart"])
    assert detection.scenarios["sweetheart"].detected
    assert detection.unexplained == []
    assert detection.all_detected


def _label(hand: str, table: str = "T1") -> TruthLabel:
    return TruthLabel(table_id=table, hand_id=hand, fault="sweetheart",
                      codes=["MISPAY", "SWEETHEARTING"], seat=1)


def _alert(code: str, hand: str, cited: list[str], table: str = "T1") -> Alert:
    evidence: dict[str, Any] = {"hands": [{"table_id": table, "hand_id": h} for h in cited]}
    return Alert(table_id=table, hand_id=hand, code=code, rule="SURV-x", severity="warning",
                 message="m", evidence=evidence)


def test_an_alert_is_explained_only_by_its_code_and_a_cited_labelled_hand() -> None:
    """Labelled hands h1, h2 (codes MISPAY, SWEETHEARTING).
    a: SWEETHEARTING raised on h9 citing h1 -> explained (cites h1).
    b: SOFT_PLAY citing h2 -> code not the scenario's: unexplained.
    c: SWEETHEARTING citing h7, h8 only -> unexplained (points elsewhere).
    d: SWEETHEARTING raised on h2 with no evidence hands -> explained (raised on h2).
    Scenario: 2 labelled hands, alerts a and d, cited hands {h1, h2} = 2."""
    truth = [_label("h1"), _label("h2"), TruthLabel(table_id="T1", hand_id="h3",
                                                    fault="mispay", codes=["MISPAY"])]
    a = _alert("SWEETHEARTING", "h9", ["h1"])
    b = _alert("SOFT_PLAY", "h9", ["h2"])
    c = _alert("SWEETHEARTING", "h8", ["h7", "h8"])
    d = _alert("SWEETHEARTING", "h2", [])
    detection = score_alerts(truth, [a, b, c, d], ["sweetheart"])
    scenario = detection.scenarios["sweetheart"]
    assert (scenario.labelled_hands, scenario.cited_hands) == (2, 2)
    assert scenario.alerts == [a, d]
    assert scenario.tables == ["T1"]
    assert detection.unexplained == [b, c]
    assert not detection.all_detected


def test_a_scenario_without_an_alert_is_not_detected() -> None:
    """Hand h1 of T1 labelled; the only alert cites the same hand id at another table."""
    detection = score_alerts([_label("h1")], [_alert("SWEETHEARTING", "h1", ["h1"],
                                                     table="T2")], ["sweetheart"])
    assert not detection.scenarios["sweetheart"].detected
    assert len(detection.unexplained) == 1
