"""Score adjudications against the simulator's ground truth.

A labelled fault is *detected* when its hand's record carries one of the label's finding
codes. Hands with a non-info finding but no label are counted as unexplained (false
positives, or faults the simulator did not label) so a noisy detector cannot hide.

A table-level scenario (HCF ``sweetheart``) is also scored against the cross-hand
surveillance alerts (``score_alerts``): detected when an alert with one of its codes cites
its hands, and every alert that cites no injected scenario is counted as unexplained.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from services.events.contract import AdjudicationRecord, Alert
from services.simulator.truth import TruthLabel


@dataclass
class FaultScore:
    injected: int = 0
    detected: int = 0
    missed_hands: list[str] = field(default_factory=list)


@dataclass
class Detection:
    by_fault: dict[str, FaultScore]
    unexplained_hands: list[str]

    @property
    def all_detected(self) -> bool:
        return all(s.detected == s.injected for s in self.by_fault.values())


def score(truth: Iterable[TruthLabel], records: Iterable[AdjudicationRecord]) -> Detection:
    codes_by_hand: dict[tuple[str, str], set[str]] = {}
    serious_hands: set[tuple[str, str]] = set()
    for record in records:
        key = (record.table_id, record.hand_id)
        codes_by_hand[key] = {f.code for f in record.findings}
        if any(f.severity != "info" for f in record.findings):
            serious_hands.add(key)
    by_fault: dict[str, FaultScore] = defaultdict(FaultScore)
    labelled: set[tuple[str, str]] = set()
    for label in truth:
        key = (label.table_id, label.hand_id)
        labelled.add(key)
        entry = by_fault[label.fault]
        entry.injected += 1
        if codes_by_hand.get(key, set()) & set(label.codes):
            entry.detected += 1
        else:
            entry.missed_hands.append(label.hand_id)
    unexplained = sorted(f"{t}/{h}" for t, h in serious_hands - labelled)
    return Detection(by_fault=dict(sorted(by_fault.items())), unexplained_hands=unexplained)


# ---------------------------------------------------------------- surveillance alerts


@dataclass
class ScenarioScore:
    """A table-level scenario (e.g. ``sweetheart``) against the surveillance alerts."""

    fault: str
    tables: list[str]
    labelled_hands: int
    alerts: list[Alert] = field(default_factory=list)  # alerts that cite its hands
    cited_hands: int = 0  # labelled hands cited by those alerts

    @property
    def detected(self) -> bool:
        return bool(self.alerts)


@dataclass
class AlertDetection:
    scenarios: dict[str, ScenarioScore]
    unexplained: list[Alert]  # alerts that cite no hand of a scenario with their code

    @property
    def all_detected(self) -> bool:
        return all(s.detected for s in self.scenarios.values()) and not self.unexplained


def cited_hands(alert: Alert) -> set[tuple[str, str]]:
    """The hands an alert names: the hand it was raised on and its evidence hands."""
    hands = {(alert.table_id, alert.hand_id)} if alert.hand_id else set()
    for ref in (alert.evidence or {}).get("hands", []):
        hands.add((str(ref["table_id"]), str(ref["hand_id"])))
    return hands


def score_alerts(truth: Iterable[TruthLabel], alerts: Iterable[Alert],
                 scenarios: Iterable[str]) -> AlertDetection:
    """Which injected scenarios the cross-hand alerts caught, and which alerts are noise.

    An alert is explained by a scenario when its code is one of the scenario's label codes
    and it cites (raised on, or evidence of) one of the scenario's labelled hands: the
    alert points at the injected behaviour, not merely at the same table. Every other
    alert is unexplained (a false alarm, or a fault the simulator did not label).
    """
    wanted = set(scenarios)
    labels = [label for label in truth if label.fault in wanted]
    codes: dict[str, set[str]] = defaultdict(set)
    hands: dict[str, set[tuple[str, str]]] = defaultdict(set)
    for label in labels:
        codes[label.fault].update(label.codes)
        hands[label.fault].add((label.table_id, label.hand_id))
    result = {fault: ScenarioScore(fault, sorted({t for t, _ in hands[fault]}),
                                   len(hands[fault]))
              for fault in sorted(hands)}
    cited: dict[str, set[tuple[str, str]]] = defaultdict(set)
    unexplained: list[Alert] = []
    for alert in alerts:
        named = cited_hands(alert)
        explained = False
        for fault, entry in result.items():
            overlap = named & hands[fault]
            if alert.code in codes[fault] and overlap:
                entry.alerts.append(alert)
                cited[fault] |= overlap
                explained = True
        if not explained:
            unexplained.append(alert)
    for fault, entry in result.items():
        entry.cited_hands = len(cited[fault])
    return AlertDetection(scenarios=result, unexplained=unexplained)
