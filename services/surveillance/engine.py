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

from typing import Any

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
from services.surveillance.player_profiles import ProfileBook
from services.surveillance.profile import SurveillanceConfig
from services.surveillance.soft_play import SoftPlayWatch
from services.surveillance.state import dump, load

# The engine's state, component by component: (owner attribute or "", attribute).
STATE: dict[str, tuple[str, str]] = {
    "hands_seen": ("", "hands_seen"),
    "gate": ("gate", "alerted_at"),
    "looks": ("looks", "last"),
    "links.raised": ("links", "raised"),
    "links.order": ("links", "order"),
    "links.by_party": ("links", "by_party"),
    "links.by_finding": ("links", "by_finding"),
    "profiles": ("", "profiles"),
    "sweethearting": ("sweethearting", "dealers"),
    "exposure": ("exposure", "dealers"),
    "drift": ("drift", "floors"),
    "improbable": ("improbable", "records"),
    "chip_dumping.deciders": ("chip_dumping", "deciders"),
    "chip_dumping.pairs": ("chip_dumping", "pairs"),
    "soft_play.deciders": ("soft_play", "deciders"),
    "soft_play.pairs": ("soft_play", "pairs"),
    "collusion": ("collusion", "records"),
}


class SurveillanceEngine:
    def __init__(self, config: SurveillanceConfig) -> None:
        self.config = config
        self.gate = AlertGate(config.realert_growth_percent)
        self.looks = Looks(config.looks.growth_percent)
        self.links = Links(config.severity)
        keep, gate, looks = config.evidence_hands, self.gate, self.looks
        sweet, exposure = config.sweethearting, config.exposure
        self.sweethearting = Concentration(ConcentrationRule(  # SURV-2
            "SURV-2", "SWEETHEARTING", "favourable mispays", "payouts", False, sweet.p_value,
            sweet.min_count, sweet.severity, keep), gate, looks)
        self.exposure = Concentration(ConcentrationRule(  # SURV-7
            "SURV-7", "EXPOSURE_CONCENTRATION", "cards exposed by dealer error", "seat-hands",
            True, exposure.p_value, exposure.min_count, exposure.severity, keep), gate, looks)
        self.drift = ProcedureDrift(config.drift, gate, keep, looks)  # SURV-8
        self.improbable = ImprobableResults(config.improbable, gate, keep, looks)  # SURV-6
        self.profiles = ProfileBook()  # per player, pair, dealer: the standing numbers
        self.chip_dumping = ChipDumpingWatch(config.chip_dumping, gate, keep, looks,  # SURV-3
                                             self.profiles)
        self.soft_play = SoftPlayWatch(config.soft_play, gate, keep, looks)  # SURV-4
        self.collusion = InformationSharing(config.collusion, gate, keep, looks)  # SURV-5
        self.hands_seen = 0
        # Hands already surveilled in earlier runs (state restored from the database):
        # a hand offered again is not counted twice. None: nothing was restored.
        self.seen: set[tuple[str, str]] | None = None
        self.new_hands: list[tuple[str, str]] = []  # surveilled since the state was loaded
        self.repeats = 0  # hands offered again and not counted (``seen`` before)
        # Which: ``surveil --db`` writes again the alerts an earlier run raised on them.
        self.repeated: list[tuple[str, str]] = []

    def observe(self, hand: HandInput, record: AdjudicationRecord) -> list[Alert]:
        """One adjudicated hand; the alerts it makes cross (a ``rejected`` record: none)."""
        facts = hand_facts(hand, record)
        if facts is None:
            return []
        key = (facts.table_id, facts.hand_id)
        if self.seen is not None:
            if key in self.seen:
                self.repeats += 1
                self.repeated.append(key)
                return []  # counted in an earlier run
            self.seen.add(key)
            self.new_hands.append(key)
        self.hands_seen += 1
        self.profiles.observe(facts)
        self.drift.observe(facts)
        self.collusion.observe(facts, hand.events)
        alerts = [
            *self.sweethearting.observe(facts, facts.favourable_mispays, facts.paid_seats),
            *self.exposure.observe(facts, [Incident(seat) for seat in facts.exposed_seats],
                                   facts.players),
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

    def export_state(self) -> dict[str, Any]:
        """Every counter, as JSON-ready values by component (``services.surveillance.state``)."""
        out: dict[str, Any] = {}
        for name, (owner, attribute) in STATE.items():
            holder = getattr(self, owner) if owner else self
            out[name] = dump(getattr(holder, attribute))
        return out

    def restore_state(self, stored: dict[str, Any], seen: set[tuple[str, str]]) -> None:
        """Go on from an exported state (components missing from it stay as new) and the
        keys of the hands it counted."""
        for name, (owner, attribute) in STATE.items():
            if name in stored:
                holder = getattr(self, owner) if owner else self
                setattr(holder, attribute, load(stored[name]))
        self.chip_dumping.book = self.profiles
        self.seen = set(seen)
        self.new_hands = []
