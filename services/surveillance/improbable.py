"""SURV-6 improbable results: a player's bonus-hit count against the game's true odds.

What counts as a trial and a hit, read from the dealt cards (never from what was paid, so
a mispaid bonus does not hide or fake a hit):

- ``hcf_flush``: a seat that wagered the HCF flush bonus and whose 7 dealt cards were all
  read; a hit is a flush of at least ``hcf_flush_min_cards`` of them (HCF-8).
- ``russian_top_hand``: a Russian Poker box whose 5 dealt cards were all read (before
  any exchange or bought card: the draw is the player's choice, the deal is not); a hit
  is ``russian_min_category`` or better.

The true probability ``p0`` of a hit comes from ``services.surveillance.odds`` (exact
counting). With ``n`` trials and ``k`` hits the p-value is ``P(X >= k)``,
``X ~ Binomial(n, p0)``, tested on the hand where a hit is added when the hit count
reaches the next point of the look grid (``services.surveillance.looks``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from services.events.contract import Alert
from services.games.evaluation.standard import category, rank5
from services.surveillance.alerting import Evidence, sorted_tables, surv_alert
from services.surveillance.facts import HandFacts
from services.surveillance.gate import AlertGate
from services.surveillance.looks import Looks, spent
from services.surveillance.odds import CATEGORY_ORDER, five_card_at_least, longest_suit_at_least
from services.surveillance.profile import Improbable
from services.surveillance.stats import binomial_upper_tail

CODE = "IMPROBABLE_RESULTS"


@dataclass(frozen=True)
class HitKind:
    name: str
    game: str
    description: str
    probability: float
    trial: Callable[[HandFacts, int], tuple[str, ...] | None]  # the cards judged, or None
    hit: Callable[[tuple[str, ...]], bool]


def _hcf_trial(facts: HandFacts, seat: int) -> tuple[str, ...] | None:
    cards = facts.seat_cards.get(seat, ())
    return cards[:7] if seat in facts.flush_bonus_seats and len(cards) >= 7 else None


def _russian_trial(facts: HandFacts, seat: int) -> tuple[str, ...] | None:
    cards = facts.seat_cards.get(seat, ())
    return cards[:5] if len(cards) >= 5 else None


def hit_kinds(config: Improbable) -> tuple[HitKind, ...]:
    length = config.hcf_flush_min_cards
    floor = CATEGORY_ORDER.index(config.russian_min_category)

    def flush_hit(cards: tuple[str, ...]) -> bool:
        return max(Counter(card[1] for card in cards).values()) >= length

    def top_hand_hit(cards: tuple[str, ...]) -> bool:
        name = category(rank5(cards))
        return name in CATEGORY_ORDER and CATEGORY_ORDER.index(name) <= floor

    return (
        HitKind("hcf_flush", "hcf", f"flush of {length}+ cards in 7 dealt (flush bonus)",
                float(longest_suit_at_least(7, length)), _hcf_trial, flush_hit),
        HitKind("russian_top_hand", "russian",
                f"{config.russian_min_category} or better in the 5 cards dealt",
                float(five_card_at_least(config.russian_min_category)), _russian_trial,
                top_hand_hit),
    )


@dataclass
class _Record:
    trials: int = 0
    hits: int = 0
    evidence: Evidence | None = None
    hit_tables: set[str] = field(default_factory=set)


class ImprobableResults:
    def __init__(self, config: Improbable, gate: AlertGate, evidence_hands: int,
                 looks: Looks) -> None:
        self.config = config
        self.gate = gate
        self.looks = looks
        self.keep = evidence_hands
        self.kinds = hit_kinds(config)
        self.records: dict[tuple[str, str], _Record] = {}  # (player, kind) -> counts

    def observe(self, facts: HandFacts) -> list[Alert]:
        alerts: list[Alert] = []
        for kind in self.kinds:
            if facts.game != kind.game:
                continue
            for seat in sorted(facts.players):
                cards = kind.trial(facts, seat)
                if cards is None:
                    continue
                player = facts.players[seat]
                rec = self.records.setdefault((player, kind.name), _Record())
                rec.trials += 1
                if not kind.hit(cards):
                    continue
                rec.hits += 1
                if rec.evidence is None:
                    rec.evidence = Evidence(self.keep)
                rec.evidence.add(facts.ref(seat))
                alert = self._test(facts, seat, player, kind, rec, cards)
                if alert is not None:
                    alerts.append(alert)
        return alerts

    def _test(self, facts: HandFacts, seat: int, player: str, kind: HitKind, rec: _Record,
              cards: tuple[str, ...]) -> Alert | None:
        cfg = self.config
        k, n = rec.hits, rec.trials
        instance = ("SURV-6", player, kind.name)
        look = self.looks.look(instance, cfg.min_count, k)
        if look is None:
            return None
        p = binomial_upper_tail(k, n, kind.probability)
        threshold = spent(cfg.p_value, look)
        if p > threshold or not self.gate.due(instance, k):
            return None
        self.gate.fired(instance, k)
        assert rec.evidence is not None
        hands = list(rec.evidence.hands)
        evidence = {
            "player": player, "kind": kind.name, "hit": kind.description, "count": k,
            "trials": n, "rate": k / n, "true_probability": kind.probability,
            "expected_count": n * kind.probability,
            "statistic": "P(X >= count), X ~ Binomial(trials, true_probability)",
            "p_value": p, "threshold": threshold, "p_value_budget": cfg.p_value,
            "look": look, "min_count": cfg.min_count, "last_hit_cards": list(cards),
            "tables": sorted_tables(hands),
            "hands": rec.evidence.cited(),
        }
        message = (f"player {player}: {k} hits ({kind.description}) in {n} hands, "
                   f"{n * kind.probability:.2f} expected at the true odds "
                   f"{kind.probability:.4%}; p = {p:.2e} <= {threshold:.2g}")
        return surv_alert(facts.ref(seat), CODE, "SURV-6", cfg.severity, message, evidence)
