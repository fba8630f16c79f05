"""What surveillance reads from one adjudicated hand, extracted once.

Every pattern works from these facts rather than from raw events, so the reading of the
events (what counts as a favourable mispay, an exposed card, a heads-up decision) is in
one place and the patterns stay arithmetic. A ``rejected`` record is never surveilled:
its hand could not be adjudicated, so its findings and nets say nothing reliable.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from services.events.contract import (
    ActionEvent,
    AdjudicationRecord,
    CardDealtEvent,
    CardExposedEvent,
    CollectionEvent,
    HandStartedEvent,
    MisdealEvent,
    PayoutEvent,
    WagerEvent,
)
from services.events.numerals import is_ascii_number
from services.games.model import HandInput
from services.surveillance.poker_decisions import PokerDecision, poker_decisions

POKER_GAMES = frozenset({"holdem", "draw7a"})


@dataclass(frozen=True)
class HandRef:
    """A hand cited in evidence, with the seat it concerns and a chip amount if any, and
    the positions in the hand's record ``findings`` of the findings it counts (the
    alert's ``findings`` ids; not part of the evidence object)."""

    table_id: str
    hand_id: str
    seat: int | None = None
    amount: int | None = None
    findings: tuple[int, ...] = ()

    def finding_ids(self) -> list[str]:
        return [f"{self.table_id}/{self.hand_id}/{i}" for i in self.findings]

    def as_evidence(self) -> dict[str, str | int]:
        out: dict[str, str | int] = {"table_id": self.table_id, "hand_id": self.hand_id}
        if self.seat is not None:
            out["seat"] = self.seat
        if self.amount is not None:
            out["amount"] = self.amount
        return out


@dataclass(frozen=True)
class Incident:
    """One irregularity a dealer produced at a seat: chips (a mispay's amount) and the
    position of its finding in the record, if it is one."""

    seat: int
    chips: int | None = None
    finding: int | None = None


@dataclass(frozen=True)
class HandFacts:
    table_id: str
    hand_id: str
    game: str | None
    dealer: str | None
    players: dict[int, str]  # seat -> player_id, every seat dealt in (incl. a DP)
    favourable_mispays: tuple[Incident, ...]  # MISPAY with amount > 0 (chips too much)
    paid_seats: frozenset[int]  # seats paid chips: a payout event, or a favourable mispay
    mispay: bool  # any MISPAY finding
    mispay_findings: tuple[int, ...]  # positions of the MISPAY findings in the record
    mispay_chips: int  # chips the MISPAYs moved, counted once (``_mispaid_chips``)
    misdeal: bool  # a ``misdeal`` event
    exposed_seats: tuple[int, ...]  # seats with a card the dealer exposed (once each)
    exposed: bool  # any card exposed by dealer error (with or without a seat)
    seat_cards: dict[int, tuple[str, ...]]  # cards dealt to each seat, in order, if all read
    flush_bonus_seats: frozenset[int]
    folded: frozenset[int]
    net: dict[int, int]  # recorded stack change per seat
    house_net: int  # the house's recorded net (rake, a house-banked game's hold)
    wagered: dict[int, int]  # chips each seat put at risk: wagers, and bets in poker
    big_blind: int | None  # the table's betting unit (big blind, else small bet)
    fixed_limit: bool  # the table's betting structure is fixed limit (bets capped)
    poker: tuple[PokerDecision, ...]  # hold'em and Draw 7-A betting decisions

    def ref(self, seat: int | None = None, amount: int | None = None,
            findings: tuple[int, ...] = ()) -> HandRef:
        return HandRef(self.table_id, self.hand_id, seat, amount, findings)


def hand_facts(hand: HandInput, record: AdjudicationRecord) -> HandFacts | None:
    """The facts of one hand, or None for a record surveillance must not count."""
    if record.status == "rejected":
        return None
    started = next((e for e in hand.events if isinstance(e, HandStartedEvent)), None)
    players = _players(record, started)
    mispays = [(i, f) for i, f in enumerate(record.findings) if f.code == "MISPAY"]
    exposures = [e.data for e in hand.events
                 if isinstance(e, CardExposedEvent) and e.data.cause == "dealer_error"]
    favourable = tuple(Incident(f.seat, f.amount, i) for i, f in mispays
                       if f.seat is not None and f.amount is not None and f.amount > 0)
    face_up = {e.data.seat for e in hand.events if isinstance(e, CardDealtEvent)
               and e.data.to == "seat" and e.data.face_up and e.data.seat is not None}
    return HandFacts(
        table_id=record.table_id,
        hand_id=record.hand_id,
        game=record.game,
        dealer=record.dealer_id or (started.data.dealer_id if started else None),
        players=players,
        favourable_mispays=favourable,
        paid_seats=_paid_seats(hand) | {x.seat for x in favourable},
        mispay=bool(mispays),
        mispay_findings=tuple(i for i, _ in mispays),
        mispay_chips=_mispaid_chips([f.amount or 0 for _, f in mispays]),
        misdeal=any(isinstance(e, MisdealEvent) for e in hand.events),
        exposed_seats=tuple(sorted({x.seat for x in exposures if x.seat is not None}
                                   | face_up)),
        exposed=bool(exposures) or bool(face_up),
        seat_cards=_seat_cards(hand.events),
        flush_bonus_seats=frozenset(e.data.seat for e in hand.events
                                    if isinstance(e, WagerEvent)
                                    and e.data.kind == "flush_bonus"),
        folded=frozenset(e.data.seat for e in hand.events
                         if isinstance(e, ActionEvent) and e.data.action == "fold"),
        net=_recorded_net(record),
        house_net=record.recorded.net.get("house", 0) if record.recorded else 0,
        wagered=_wagered(hand.events),
        big_blind=_betting_unit(hand),
        fixed_limit=hand.table.config is not None and hand.table.config.structure == "fixed",
        poker=(tuple(poker_decisions(hand.events, record.game))
               if record.game in POKER_GAMES else ()),
    )


def _paid_seats(hand: HandInput) -> frozenset[int]:
    """The seats the dealer paid chips in the hand (SURV-2's chances): a ``payout`` to
    the seat, or at Chinese Poker, where the players settle among themselves (CP-4), a
    ``collection`` the dealer moved to it (``to: "seat:N"``). Counted by payouts only,
    a Chinese table's player had no chance but the mispays themselves, so a dealer who
    overpaid one friend there was never flagged (p = 1; QA)."""
    paid = set()
    for e in hand.events:
        if isinstance(e, PayoutEvent):
            paid.add(e.data.seat)
        elif isinstance(e, CollectionEvent) and e.data.to.startswith(SEAT_PREFIX):
            paid.add(int(e.data.to.removeprefix(SEAT_PREFIX)))
    return frozenset(paid)


SEAT_PREFIX = "seat:"


def _mispaid_chips(amounts: list[int]) -> int:
    """The chips one hand's MISPAY findings moved, each chip once. A chip paid wrongly
    leaves one side and reaches the other: at a player-banked table a one-chip
    overpayment is two findings, +1 to the player and -1 to the designated player, and
    one chip moved; at a pot or house-banked game the other side (the pot, the rack) is
    no seat and has no finding, +1 alone. So the larger side, the favourable amounts or
    the unfavourable ones, is the money moved (half the absolute sum would halve the
    one-sided case)."""
    return max(sum(a for a in amounts if a > 0), -sum(a for a in amounts if a < 0))


def _players(record: AdjudicationRecord, started: HandStartedEvent | None) -> dict[int, str]:
    if record.players:
        return {int(seat): pid for seat, pid in record.players.items() if is_ascii_number(seat)}
    if started is None:
        return {}
    return {s.seat: s.player_id for s in started.data.seats}


def _seat_cards(events: Iterable[object]) -> dict[int, tuple[str, ...]]:
    """Cards dealt to each seat in order; a seat with an unread card is left out (its
    hand cannot be judged)."""
    dealt: dict[int, list[str]] = {}
    unread: set[int] = set()
    for e in events:
        if isinstance(e, CardDealtEvent) and e.data.to == "seat" and e.data.seat is not None:
            if e.data.card is None:
                unread.add(e.data.seat)
            else:
                dealt.setdefault(e.data.seat, []).append(e.data.card)
    return {seat: tuple(cards) for seat, cards in dealt.items() if seat not in unread}


def _recorded_net(record: AdjudicationRecord) -> dict[int, int]:
    if record.recorded is None:
        return {}
    return {int(k): v for k, v in record.recorded.net.items() if is_ascii_number(k)}


def _wagered(events: Iterable[object]) -> dict[int, int]:
    out: dict[int, int] = {}
    for e in events:
        if isinstance(e, WagerEvent | ActionEvent) and e.data.amount and e.data.seat:
            out[e.data.seat] = out.get(e.data.seat, 0) + e.data.amount
    return out


def _betting_unit(hand: HandInput) -> int | None:
    config = hand.table.config
    if config is None:
        return None
    limits = config.limits
    return limits.big_blind or limits.small_bet or limits.min_wager or None
