"""SURV-3 chip dumping (poker games): repeated large transfers from one player to another.

The line that moves chips on purpose is "invest heavily, then fold to the partner"
(including overbet-and-fold: the overbet is the investment). Read from the record's
recorded nets, so it does not depend on how a game reports bet sizes: in a hand with
exactly one winner ``W`` (recorded net > 0), every player ``F`` who folded having lost at
least ``min_fold_investment_big_blinds`` big blinds made a transfer ``F -> W`` of what
``F`` lost. Per ordered pair the transfers are counted and summed (in whole big blinds
of each hand's table); the pair alerts once it has ``min_count`` transfers totalling at
least ``min_total_big_blinds``. A threshold rule, not a test: how often an honest player
folds a big investment to one opponent depends on style too much for a fixed base rate.
"""

from __future__ import annotations

from dataclasses import dataclass

from services.adjudicator.table import Alert
from services.surveillance.alerting import Evidence, sorted_tables, surv_alert
from services.surveillance.facts import HandFacts
from services.surveillance.gate import AlertGate
from services.surveillance.profile import ChipDumping

POKER_GAMES = frozenset({"holdem", "draw7a"})
CODE = "CHIP_DUMPING"


@dataclass
class _Transfers:
    evidence: Evidence
    count: int = 0
    chips: int = 0
    big_blinds: int = 0


class ChipDumpingWatch:
    def __init__(self, config: ChipDumping, gate: AlertGate, evidence_hands: int) -> None:
        self.config = config
        self.gate = gate
        self.keep = evidence_hands
        self.pairs: dict[tuple[str, str], _Transfers] = {}  # (from player, to player)

    def observe(self, facts: HandFacts) -> list[Alert]:
        bb = facts.big_blind
        if facts.game not in POKER_GAMES or not bb:
            return []
        winners = [seat for seat, net in facts.net.items() if net > 0]
        if len(winners) != 1:
            return []
        (winner,) = winners
        alerts: list[Alert] = []
        for seat in sorted(facts.folded - {winner}):
            lost = -facts.net.get(seat, 0)
            giver, taker = facts.players.get(seat), facts.players.get(winner)
            if giver is None or taker is None or giver == taker:
                continue
            if lost < self.config.min_fold_investment_big_blinds * bb:
                continue
            pair = self.pairs.get((giver, taker))
            if pair is None:
                pair = self.pairs[(giver, taker)] = _Transfers(Evidence(self.keep))
            pair.count += 1
            pair.chips += lost
            pair.big_blinds += lost // bb
            pair.evidence.add(facts.ref(seat, lost))
            alert = self._test(facts, seat, giver, taker, pair)
            if alert is not None:
                alerts.append(alert)
        return alerts

    def _test(self, facts: HandFacts, seat: int, giver: str, taker: str,
              pair: _Transfers) -> Alert | None:
        cfg = self.config
        if pair.count < cfg.min_count or pair.big_blinds < cfg.min_total_big_blinds:
            return None
        instance = ("SURV-3", giver, taker)
        if not self.gate.due(instance, pair.count):
            return None
        self.gate.fired(instance, pair.count)
        hands = list(pair.evidence.hands)
        evidence = {
            "from_player": giver, "to_player": taker, "count": pair.count,
            "chips": pair.chips, "big_blinds": pair.big_blinds,
            "statistic": "transfers by fold after heavy investment, one winner",
            "threshold": {"min_count": cfg.min_count,
                          "min_total_big_blinds": cfg.min_total_big_blinds,
                          "min_fold_investment_big_blinds":
                              cfg.min_fold_investment_big_blinds},
            "tables": sorted_tables(hands), "hands": pair.evidence.cited(),
        }
        message = (f"player {giver} folded {pair.count} times after investing heavily, "
                   f"each time to {taker}: {pair.chips} chips ({pair.big_blinds} big blinds) "
                   "moved")
        return surv_alert(facts.ref(seat), CODE, "SURV-3", cfg.severity, message, evidence)
