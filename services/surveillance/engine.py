"""The cross-hand surveillance engine (rules.md SURV-2..SURV-8).

Fed hand by hand, in log order, with each hand's events (``HandInput``) and its
``AdjudicationRecord``; keeps counters per dealer, player, pair and table, and returns
``Alert``s in the ``alerts`` topic format, each citing its rule and carrying its evidence.
Pure and deterministic: no IO, no clock, no randomness; the same hands in the same order
give the same alerts, and a table's alerts do not depend on how other tables (with other
dealers and players) are interleaved with it. SURV-8 compares with the whole floor and
SURV-5 needs an exact stratified test too costly per hand, so both run in ``review()``.

Every instance is tested at the points of one look grid, each look at its share of the
instance's ``p_value`` budget (``looks``); every alert leaves with its id, subject,
parties, related alerts and a severity graded by its stakes (``links``).
"""

from __future__ import annotations

from services.events.contract import AdjudicationRecord, Alert
from services.games.model import HandInput
from services.surveillance.chip_dumping import ChipDumpingWatch
from services.surveillance.collusion import InformationSharing
from services.surveillance.concentration import Concentration, ConcentrationRule
from services.surveillance.drift import ProcedureDrift
from services.surveillance.facts import Incident, hand_facts
from services.surveillance.gate import AlertGate
from services.surveillance.improbable import ImprobableResults
from services.surveillance.links import Links
from services.surveillance.looks import Looks
from services.surveillance.profile import SurveillanceConfig
from services.surveillance.soft_play import SoftPlayWatch


class SurveillanceEngine:
    def __init__(self, config: SurveillanceConfig) -> None:
        self.config = config
        self.gate = AlertGate(config.realert_growth_percent)
        self.looks = Looks(config.looks.growth_percent)
        self.links = Links(config.severity)
        keep, gate, looks = config.evidence_hands, self.gate, self.looks
        sweet, exposure = config.sweethearting, config.exposure
        self.sweethearting = Concentration(ConcentrationRule(  # SURV-2
            "SURV-2", "SWEETHEARTING", "favourable mispays", sweet.p_value, sweet.min_count,
            sweet.severity, keep), gate, looks)
        self.exposure = Concentration(ConcentrationRule(  # SURV-7
            "SURV-7", "EXPOSURE_CONCENTRATION", "cards exposed by dealer error",
            exposure.p_value, exposure.min_count, exposure.severity, keep), gate, looks)
        self.drift = ProcedureDrift(config.drift, gate, keep, looks)  # SURV-8
        self.improbable = ImprobableResults(config.improbable, gate, keep, looks)  # SURV-6
        self.chip_dumping = ChipDumpingWatch(config.chip_dumping, gate, keep, looks)  # SURV-3
        self.soft_play = SoftPlayWatch(config.soft_play, gate, keep, looks)  # SURV-4
        self.collusion = InformationSharing(config.collusion, gate, keep, looks)  # SURV-5
        self.hands_seen = 0

    def observe(self, hand: HandInput, record: AdjudicationRecord) -> list[Alert]:
        """One adjudicated hand; the alerts it makes cross (a ``rejected`` record: none)."""
        facts = hand_facts(hand, record)
        if facts is None:
            return []
        self.hands_seen += 1
        self.drift.observe(facts)
        self.collusion.observe(facts, hand.events)
        alerts = [
            *self.sweethearting.observe(facts, facts.favourable_mispays),
            *self.exposure.observe(facts, [Incident(seat) for seat in facts.exposed_seats]),
            *self.improbable.observe(facts),
            *self.chip_dumping.observe(facts),
            *self.soft_play.observe(facts),
        ]
        return [self.links.annotate(a) for a in alerts]

    def review(self) -> list[Alert]:
        """The batch tests over every hand seen so far: floor comparisons (SURV-8) and
        information sharing (SURV-5); call at the end of a run or a shift. Alerts once
        per instance across calls (the gate)."""
        alerts = [*self.drift.review(), *self.collusion.review()]
        return [self.links.annotate(a) for a in alerts]
