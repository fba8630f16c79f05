"""SURV-3 chip dumping (poker games): repeated large transfers from one player to another.

The line that moves chips on purpose is "invest heavily, then fold to the partner"
(overbet-and-fold included: the overbet is the investment). Read from the record's
recorded nets, so it does not depend on how a game reports bet sizes: in a hand with
exactly one winner ``W`` (recorded net > 0), every player ``F`` who folded having lost at
least ``min_fold_investment_big_blinds`` big blinds made a *transfer* ``F -> W`` of what
``F`` lost.

Honest players make such folds too, to whoever happens to hold the winning hand, so a
count alone flags every long session. The test is the concentration of ``F``'s transfers
on ``W``: of ``D`` transfers ``F`` made to anybody, ``k`` went to ``W``; ``W`` sat in
``n_FW`` of the ``N_F`` (hand, other player) pairings ``F`` had. If the winner of the pots
``F`` folds into were any of the others at the table alike, ``k ~ Binomial(D, n_FW /
N_F)``; the p-value is ``P(X >= k)``. The pair also needs ``min_count`` transfers
totalling ``min_total_big_blinds`` (whole big blinds of each hand's table).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from services.events.contract import Alert
from services.surveillance.alerting import Evidence, sorted_tables, surv_alert
from services.surveillance.facts import HandFacts
from services.surveillance.gate import AlertGate
from services.surveillance.profile import ChipDumping
from services.surveillance.stats import binomial_upper_tail

POKER_GAMES = frozenset({"holdem", "draw7a"})
CODE = "CHIP_DUMPING"


@dataclass
class _Pair:
    together: int = 0  # hands both were dealt in
    count: int = 0
    chips: int = 0
    big_blinds: int = 0
    evidence: Evidence | None = None


@dataclass
class _Giver:
    pairings: int = 0  # sum over hands of the other players dealt in
    transfers: int = 0
    pairs: dict[str, _Pair] = field(default_factory=dict)


class ChipDumpingWatch:
    def __init__(self, config: ChipDumping, gate: AlertGate, evidence_hands: int) -> None:
        self.config = config
        self.gate = gate
        self.keep = evidence_hands
        self.givers: dict[str, _Giver] = {}

    def observe(self, facts: HandFacts) -> list[Alert]:
        bb = facts.big_blind
        if facts.game not in POKER_GAMES or not bb:
            return []
        self._count_pairings(facts)
        winners = [seat for seat, net in facts.net.items() if net > 0]
        if len(winners) != 1 or winners[0] not in facts.players:
            return []
        winner = winners[0]
        taker = facts.players[winner]
        alerts: list[Alert] = []
        for seat in sorted(facts.folded - {winner}):
            lost = -facts.net.get(seat, 0)
            giver = facts.players.get(seat)
            if giver is None or giver == taker:
                continue
            if lost < self.config.min_fold_investment_big_blinds * bb:
                continue
            record = self.givers[giver]
            pair = record.pairs[taker]
            record.transfers += 1
            pair.count += 1
            pair.chips += lost
            pair.big_blinds += lost // bb
            if pair.evidence is None:
                pair.evidence = Evidence(self.keep)
            pair.evidence.add(facts.ref(seat, lost))
            alert = self._test(facts, seat, giver, taker, record)
            if alert is not None:
                alerts.append(alert)
        return alerts

    def _count_pairings(self, facts: HandFacts) -> None:
        players = sorted(set(facts.players.values()))
        for player in players:
            record = self.givers.setdefault(player, _Giver())
            for other in players:
                if other != player:
                    record.pairings += 1
                    record.pairs.setdefault(other, _Pair()).together += 1

    def _test(self, facts: HandFacts, seat: int, giver: str, taker: str,
              record: _Giver) -> Alert | None:
        cfg = self.config
        pair = record.pairs[taker]
        if pair.count < cfg.min_count or pair.big_blinds < cfg.min_total_big_blinds:
            return None
        share = pair.together / record.pairings
        p = binomial_upper_tail(pair.count, record.transfers, share)
        instance = ("SURV-3", giver, taker)
        if p > cfg.p_value or not self.gate.due(instance, pair.count):
            return None
        self.gate.fired(instance, pair.count)
        assert pair.evidence is not None
        hands = list(pair.evidence.hands)
        evidence = {
            "from_player": giver, "to_player": taker, "count": pair.count,
            "chips": pair.chips, "big_blinds": pair.big_blinds,
            "transfers_to_anyone": record.transfers, "hands_together": pair.together,
            "expected_share": share,
            "statistic": "P(X >= count), X ~ Binomial(transfers_to_anyone, expected_share)",
            "p_value": p, "threshold": cfg.p_value, "min_count": cfg.min_count,
            "min_total_big_blinds": cfg.min_total_big_blinds,
            "min_fold_investment_big_blinds": cfg.min_fold_investment_big_blinds,
            "tables": sorted_tables(hands), "hands": pair.evidence.cited(),
        }
        message = (f"player {giver} folded after investing heavily {record.transfers} times; "
                   f"{pair.count} of those pots went to {taker} ({pair.chips} chips, "
                   f"{pair.big_blinds} big blinds), expected share {share:.1%}; "
                   f"p = {p:.2e} <= {cfg.p_value:g}")
        return surv_alert(facts.ref(seat), CODE, "SURV-3", cfg.severity, message, evidence)
