"""Score adjudications against the simulator's ground truth.

A labelled fault is *detected* when its hand's record carries one of the label's finding
codes. Hands with a non-info finding but no label are counted as unexplained (false
positives, or faults the simulator did not label) so a noisy detector cannot hide.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from services.events.contract import AdjudicationRecord
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
