"""Hand-built surveillance scenarios: a hand's events and its adjudication record.

Surveillance reads the record (status, MISPAY findings, recorded nets, players, dealer)
and a few events (misdeal, card_exposed, card_dealt, flush_bonus wagers, actions); these
helpers state exactly those, so a test reads as the story it checks.
"""

from __future__ import annotations

from typing import Any

import msgspec

from services.events.contract import AdjudicationRecord, Finding, SideResult
from services.games.model import HandInput
from services.simulator.handbuilder import build_hand, table_config
from services.surveillance.profile import SurveillanceConfig, surveillance_config
from tests.profiles import HOUSE

SIX = {seat: name for seat, name in enumerate("ABCDEF", start=1)}


def hand(
    number: int,
    *,
    table: str = "T1",
    game: str = "hcf",
    dealer: str = "D1",
    players: dict[int, str] | None = None,
    events: list[tuple[str, dict[str, Any]]] | None = None,
    mispays: dict[int, int] | None = None,
    net: dict[int, int] | None = None,
    status: str | None = None,
    big_blind: int | None = None,
    deck: int = 52,
    structure: str | None = None,
    paid: list[int] | None = None,
) -> tuple[HandInput, AdjudicationRecord]:
    """Hand ``number`` of ``table``: ``players`` (seat -> id) dealt in by ``dealer``,
    ``events`` between hand_started and hand_ended, MISPAY findings (seat -> chips too
    much) and recorded nets. ``paid``: the seats given a payout event after ``events``
    (SURV-2's chances to mispay them); default every seat, as at a house-banked table
    where each box is settled, so a dealer's chances with a player are his seat-hands."""
    players = SIX if players is None else players
    payouts = [("payout", {"seat": s, "amount": 1, "source": "house", "kind": "win"})
               for s in (sorted(players) if paid is None else paid)]
    hand_id = f"{table}-{number:06d}"
    started = {"button": min(players), "designated_player": None, "dealer_id": dealer,
               "deck": deck, "seats": [{"seat": s, "player_id": p, "stack": 10_000}
                                     for s, p in sorted(players.items())]}
    limits: dict[str, Any] = {"min_wager": 1, "max_wager": 1000}
    if big_blind is not None:
        limits.update(small_blind=big_blind // 2, big_blind=big_blind)
    config = (table_config(game, limits=limits) if structure is None
              else table_config(game, limits=limits, structure=structure))
    hand_input = build_hand(config, [("hand_started", started), *(events or []),
                                     *payouts, ("hand_ended", {})], hand_id=hand_id, table_id=table)
    findings = [Finding(code="MISPAY", rule="HCF-11", severity="critical", seat=seat,
                        amount=amount, message=f"seat {seat} off by {amount}")
                for seat, amount in sorted((mispays or {}).items())]
    nets = {str(s): v for s, v in sorted((net or {}).items())}
    record = AdjudicationRecord(
        v=1, table_id=table, hand_id=hand_id, game=game,  # type: ignore[arg-type]
        status=status or ("discrepancy" if findings else "ok"),  # type: ignore[arg-type]
        rule_profile="house-v1", expected=None,
        recorded=SideResult(net={**nets, "house": -sum(nets.values())}, rake={}),
        findings=findings, players={str(s): p for s, p in players.items()},
        dealer_id=dealer)
    return hand_input, record


def config(**sections: Any) -> SurveillanceConfig:
    """The house-v1 thresholds with some fields replaced, e.g. ``sweethearting={"min_count": 2}``."""
    base = msgspec.to_builtins(surveillance_config(HOUSE))
    for name, fields in sections.items():
        if isinstance(base[name], dict):
            base[name] = {**base[name], **fields}
        else:
            base[name] = fields
    return msgspec.convert(base, SurveillanceConfig)
