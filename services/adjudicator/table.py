"""Per-table state: hash-chain verification (SURV-9) and hand assembly.

``TableState`` is everything pitwatch remembers about one table between records: the chain
position, a bounded window of recent events (for duplicates and late arrivals), the table
configuration, seating, and the hand being assembled. ``apply_event`` is a pure function
of (state, event) to outputs, so the embedded runner keeps states in a dict and the Faust
app keeps them in a changelogged table — the same code, the same results.

Chain rules (events.md envelope): ``seq`` +1 per event, ``prev_hash`` = hash of the
previous event. An altered event is caught by the next event's ``prev_hash``; a missing
event by the ``seq`` gap; a repeated ``event_id`` with the same body is a no-op, with a
different body a critical finding. The last event of a stream can only be verified once
its successor arrives (there is nothing after it to carry its hash).
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field

import msgspec

from services.adjudicator.adjudicate import ChainInfo, adjudicate_hand, rejected_record
from services.adjudicator.intake import ParsedEvent
from services.adjudicator.open_hand import OpenHand, pack_event, unpack_events
from services.events.canonical import GENESIS_HASH
from services.events.contract import (
    EVENT_TYPES,
    TABLE_LEVEL_TYPES,
    AdjudicationRecord,
    Alert,
    ChipsChangedEvent,
    DealerChangedEvent,
    DesignatedPlayerOfferEvent,
    Event,
    Finding,
    HandEndedEvent,
    HandStartedEvent,
    PlayerLeftEvent,
    PlayerSeatedEvent,
    Severity,
    TableConfigured,
    TableConfiguredEvent,
)
from services.games.model import BuyRecord, HandInput, SeatInfo, TableContext, finding
from services.games.profile import Profiles, UnknownProfileError, gen_section

RECENT_WINDOW = 64  # events remembered per table for duplicate / late-arrival checks
MAX_HAND_EVENTS = 4000  # a hand with more events is rejected (memory bound per open hand)


class SeatState(msgspec.Struct, array_like=True):
    player_id: str
    stack: int


class RecentEvent(msgspec.Struct, array_like=True, gc=False):
    """One entry of the duplicate window, unpacked (see ``TableState.recent_ids``)."""

    seq: int
    hash: str
    prev_hash: str


# The duplicate window is kept packed, not as objects: at 64 entries per table, a dict
# of structs holding three hex strings each was ~27 KB per table, the larger part of
# what an open table cost (architecture.md: 10,000 open tables < 300 MB). Per entry,
# ``recent_ids`` holds the event id's 36 ASCII bytes and ``recent_chain`` the seq
# (8 bytes, big-endian) and the binary SHA-256 of the event and of its ``prev_hash``
# (32 + 32), entry k at k * width in each (a ring, see ``_remember``).
_ID_WIDTH = 36  # a v1 event_id is a UUID in its 36-character text form (the contract)
_SEQ_WIDTH = 8
_HASH_WIDTH = 32
_CHAIN_WIDTH = _SEQ_WIDTH + 2 * _HASH_WIDTH
# ``recent_fp``: the CRC-32 of each id, a prefilter for the per-event "new id?" test (a
# search of 4 binary bytes in 256 is ~10x faster than of 36 hex characters in 2,304; a
# hit, true or by collision, goes to the exact search of ``recent_ids``).
_FP_WIDTH = 4


def _fingerprint(event_id: bytes) -> bytes:
    return zlib.crc32(event_id).to_bytes(_FP_WIDTH, "big")


class Buy(msgspec.Struct, array_like=True):
    seat: int
    kind: str
    amount: int
    seq: int
    hands_played: int  # the table's hand count when the buy was made


MAX_BUYS_PER_SEAT = 16  # CP-9 history kept per seated player (memory bound)


class TableState(msgspec.Struct):
    """What pitwatch keeps per table (serialised with msgpack in the Faust changelog)."""

    table_id: str
    last_seq: int = 0
    last_hash: str = GENESIS_HASH
    recent_ids: bytearray = msgspec.field(default_factory=bytearray)  # see _ID_WIDTH
    recent_chain: bytearray = msgspec.field(default_factory=bytearray)
    recent_fp: bytearray = msgspec.field(default_factory=bytearray)  # see _FP_WIDTH
    recent_oldest: int = 0  # the entry the next one replaces, once the window is full
    missing: list[int] = msgspec.field(default_factory=list)
    config: TableConfigured | None = None
    config_authorized: bool = False
    seated: dict[int, SeatState] = msgspec.field(default_factory=dict)
    dealer_id: str | None = None
    previous_button: int | None = None
    previous_designated: int | None = None
    offers: list[tuple[int, bool]] = msgspec.field(default_factory=list)
    new_seats: list[int] = msgspec.field(default_factory=list)
    hands_played: int = 0
    buys: list[Buy] = msgspec.field(default_factory=list)
    open_hand: OpenHand | None = None


@dataclass(slots=True)
class Outputs:
    """What one record produced (slotted: one is built per record on the hot path)."""

    records: list[AdjudicationRecord] = field(default_factory=list)
    alerts: list[Alert] = field(default_factory=list)
    dlq: list[str] = field(default_factory=list)  # reasons; the caller owns the raw record
    # The hand this record closed and adjudicated, as adjudicated (surveillance reads it
    # instead of assembling the hand a second time); at most one per record.
    closed_hand: HandInput | None = None


_state_encoder = msgspec.msgpack.Encoder()
_state_decoder = msgspec.msgpack.Decoder(TableState)


def encode_state(state: TableState) -> bytes:
    return _state_encoder.encode(state)


def decode_state(raw: bytes) -> TableState:
    return _state_decoder.decode(raw)


# ---------------------------------------------------------------- chain (SURV-9)


def _chain_finding(code: str, severity: Severity, message: str) -> Finding:
    return finding(code, "SURV-9", severity, message)


def _report(state: TableState, out: Outputs, event: Event, f: Finding) -> None:
    """A chain finding goes to the alerts topic and onto the hand the event belongs to."""
    out.alerts.append(
        Alert(table_id=state.table_id, code=f.code, rule=f.rule, severity=f.severity,
              message=f.message, seq=event.seq, event_id=event.event_id, hand_id=event.hand_id)
    )
    hand = state.open_hand
    if hand is not None and (event.hand_id in (None, hand.hand_id)):
        hand.findings.append(f)


def _remember(state: TableState, event: Event, digest: str,
              event_id: bytes | None = None, fingerprint: bytes | None = None) -> None:
    """Enter an event in the window: appended until it holds RECENT_WINDOW entries, then
    over the oldest arrival (a ring: no buffer is resized or shifted per event). The id's
    bytes and fingerprint are passed in when the caller already made them."""
    if event_id is None:
        event_id = event.event_id.encode()
    if fingerprint is None:
        fingerprint = _fingerprint(event_id)
    entry = b"".join((event.seq.to_bytes(_SEQ_WIDTH, "big"), bytes.fromhex(digest),
                      bytes.fromhex(event.prev_hash)))
    if len(state.recent_ids) < RECENT_WINDOW * _ID_WIDTH:
        state.recent_ids += event_id
        state.recent_fp += fingerprint
        state.recent_chain += entry
        return
    oldest = state.recent_oldest
    state.recent_oldest = (oldest + 1) % RECENT_WINDOW
    state.recent_ids[oldest * _ID_WIDTH:(oldest + 1) * _ID_WIDTH] = event_id
    state.recent_fp[oldest * _FP_WIDTH:(oldest + 1) * _FP_WIDTH] = fingerprint
    state.recent_chain[oldest * _CHAIN_WIDTH:(oldest + 1) * _CHAIN_WIDTH] = entry


def _aligned_find(buffer: bytearray, needle: bytes, width: int) -> int:
    """Index of the entry of ``width`` bytes that starts with ``needle``, or -1."""
    start = buffer.find(needle)
    while start >= 0 and start % width:
        start = buffer.find(needle, start + 1)
    return -1 if start < 0 else start // width


def _entry(state: TableState, index: int) -> RecentEvent:
    at = index * _CHAIN_WIDTH
    chain = state.recent_chain
    hashes = at + _SEQ_WIDTH
    return RecentEvent(int.from_bytes(chain[at:hashes], "big"),
                       chain[hashes:hashes + _HASH_WIDTH].hex(),
                       chain[hashes + _HASH_WIDTH:at + _CHAIN_WIDTH].hex())


def _find_by_id(state: TableState, event_id: str) -> RecentEvent | None:
    index = _aligned_find(state.recent_ids, event_id.encode(), _ID_WIDTH)
    return None if index < 0 else _entry(state, index)


def _find_by_seq(state: TableState, seq: int) -> RecentEvent | None:
    if seq < 1:
        return None
    index = _aligned_find(state.recent_chain, seq.to_bytes(_SEQ_WIDTH, "big"), _CHAIN_WIDTH)
    return None if index < 0 else _entry(state, index)


def check_chain(state: TableState, parsed: ParsedEvent, out: Outputs) -> bool:
    """Verify ``seq``/``prev_hash``; returns False when the event must not be applied."""
    event, digest = parsed.event, parsed.hash
    # Fast path first: a new event id (the usual case) is one dict miss.
    seen = _find_by_id(state, event.event_id)
    if seen is not None:
        if seen.hash == digest:
            out.alerts.append(
                Alert(table_id=state.table_id, code="DUPLICATE_EVENT", rule="SURV-9",
                      severity="info", seq=event.seq, event_id=event.event_id,
                      hand_id=event.hand_id,
                      message=f"event {event.event_id} (seq {event.seq}) delivered again with "
                              "the same body; ignored")
            )
        else:
            _report(state, out, event, _chain_finding(
                "EVENT_ID_CONFLICT", "critical",
                f"event_id {event.event_id} repeated with a different body (first at seq "
                f"{seen.seq}, now seq {event.seq}): an event was altered after it was sent"))
        return False
    if event.seq == state.last_seq + 1:
        if event.prev_hash != state.last_hash:
            _report(state, out, event, _chain_finding(
                "CHAIN_BROKEN", "critical",
                f"seq {event.seq} says the previous event hashed to {event.prev_hash[:12]}…, "
                f"but seq {state.last_seq} as received hashes to {state.last_hash[:12]}…: "
                f"seq {state.last_seq} was altered (or this event's prev_hash was)"))
        _advance(state, event, digest)
        return True
    if event.seq > state.last_seq + 1:
        gap = list(range(state.last_seq + 1, event.seq))
        _report(state, out, event, _chain_finding(
            "SEQ_GAP", "critical",
            f"seq jumped from {state.last_seq} to {event.seq}: {len(gap)} event(s) missing "
            f"({_span(gap)})"))
        state.missing = sorted(set(state.missing) | set(gap[-RECENT_WINDOW:]))[-RECENT_WINDOW:]
        _advance(state, event, digest)
        return True
    return _late_arrival(state, parsed, out)


def _late_arrival(state: TableState, parsed: ParsedEvent, out: Outputs) -> bool:
    """``seq`` at or below the chain head with a new event id: re-ordered or conflicting."""
    event, digest = parsed.event, parsed.hash
    if event.seq in state.missing:
        state.missing.remove(event.seq)
        _report(state, out, event, _chain_finding(
            "REORDERED", "warning",
            f"seq {event.seq} arrived after seq {state.last_seq}: events were re-ordered"))
        before = _find_by_seq(state, event.seq - 1)
        after = _find_by_seq(state, event.seq + 1)
        if (before and before.hash != event.prev_hash) or (after and after.prev_hash != digest):
            _report(state, out, event, _chain_finding(
                "CHAIN_BROKEN", "critical",
                f"late seq {event.seq} does not fit the hash chain around it"))
        _remember(state, event, digest)
        return True
    _report(state, out, event, _chain_finding(
        "SEQ_CONFLICT", "critical",
        f"a different event (id {event.event_id}) claims seq {event.seq}, already taken at "
        f"this table (head is seq {state.last_seq}): a replayed or forged event"))
    return False


def _advance(state: TableState, event: Event, digest: str,
             event_id: bytes | None = None, fingerprint: bytes | None = None) -> None:
    state.last_seq = event.seq
    state.last_hash = digest
    _remember(state, event, digest, event_id, fingerprint)


def _next_in_chain(state: TableState, parsed: ParsedEvent) -> bool:
    """The usual case, decided without the full check: a new event id, next in sequence,
    carrying the head's hash; the head advances. False: ``check_chain`` decides."""
    event = parsed.event
    if event.seq != state.last_seq + 1 or event.prev_hash != state.last_hash:
        return False
    event_id = event.event_id.encode()
    fingerprint = _fingerprint(event_id)
    if fingerprint in state.recent_fp:  # maybe seen (or a chance match): the full check
        return False
    _advance(state, event, parsed.hash, event_id, fingerprint)
    return True


def _span(seqs: list[int]) -> str:
    return f"seq {seqs[0]}" if len(seqs) == 1 else f"seq {seqs[0]}..{seqs[-1]}"


# ---------------------------------------------------------------- hand assembly


def apply_event(state: TableState, parsed: ParsedEvent, profiles: Profiles) -> Outputs:
    """Feed one validated event of this table; returns records/alerts/DLQ reasons.

    ``profiles``: the rule profiles a table may post, read once by the caller's bootstrap
    (a hand that ends is adjudicated under the one its configuration names)."""
    out = Outputs()
    event = parsed.event
    if not _next_in_chain(state, parsed) and not check_chain(state, parsed, out):
        return out
    event_type = type(event)
    if event_type in _TABLE_LEVEL_CLASSES:
        _apply_table_event(state, event, out, profiles)
        if state.open_hand is not None:
            _append(state, event, out)
        return out
    if event_type is HandStartedEvent:
        if state.open_hand is not None:
            _close_incomplete(state, out, f"hand_started of {event.hand_id} (seq {event.seq}) "
                                          "arrived before this hand's hand_ended")
        state.open_hand = OpenHand(table_id=state.table_id, hand_id=event.hand_id or "",
                                   first_seq=event.seq, source=event.source)
        pack_event(state.open_hand, event)
        return out
    hand = state.open_hand
    if hand is None or event.hand_id != hand.hand_id:
        current = f"open hand is {hand.hand_id}" if hand else "no hand is open"
        out.dlq.append(f"event seq {event.seq} belongs to hand {event.hand_id} but {current} "
                       f"at table {state.table_id}")
        out.alerts.append(
            Alert(table_id=state.table_id, code="ORPHAN_EVENT", rule="SURV-9",
                  severity="warning", seq=event.seq, event_id=event.event_id,
                  hand_id=event.hand_id, message=out.dlq[-1])
        )
        return out
    _append(state, event, out)
    if event_type is HandEndedEvent and state.open_hand is hand:
        out.records.append(_close_hand(state, hand, parsed.hash, out, profiles))
    return out


# The table-level event classes, for a type lookup per event instead of reading the tag.
_TABLE_LEVEL_CLASSES = frozenset(
    cls for tag, cls in EVENT_TYPES.items() if tag in TABLE_LEVEL_TYPES
)


def _append(state: TableState, event: Event, out: Outputs) -> None:
    hand = state.open_hand
    assert hand is not None
    pack_event(hand, event)
    if hand.count > MAX_HAND_EVENTS:
        _close_incomplete(state, out, f"hand exceeded {MAX_HAND_EVENTS} events")


def _apply_table_event(state: TableState, event: Event, out: Outputs,
                       profiles: Profiles) -> None:
    if isinstance(event, TableConfiguredEvent):
        state.config = event.data
        state.config_authorized = event.data.authorized_by is not None
        if not state.config_authorized:
            out.alerts.append(
                Alert(table_id=state.table_id, code="UNAUTHORISED_CONFIGURATION",
                      rule="GEN-5", severity="critical", seq=event.seq,
                      event_id=event.event_id,
                      message="table_configured without authorized_by: limits, game and rake "
                              "change only with a supervisor's authorisation")
            )
        if state.open_hand is not None:
            state.open_hand.findings.append(
                finding("CONFIG_CHANGED_DURING_HAND", "GEN-5", "critical",
                        f"table configuration changed during the hand (seq {event.seq})"))
    elif isinstance(event, PlayerSeatedEvent):
        d = event.data
        state.seated[d.seat] = SeatState(d.player_id, d.stack)
        if d.seat not in state.new_seats:
            state.new_seats.append(d.seat)
        state.buys = [b for b in state.buys if b.seat != d.seat]
        _record_buy(state, d.seat, "seated", d.stack, event.seq)
    elif isinstance(event, PlayerLeftEvent):
        state.seated.pop(event.data.seat, None)
        state.buys = [b for b in state.buys if b.seat != event.data.seat]
    elif isinstance(event, ChipsChangedEvent):
        seat = state.seated.get(event.data.seat)
        if seat is not None:
            seat.stack += event.data.amount
        if event.data.kind in ("buy_in", "short_buy"):
            _record_buy(state, event.data.seat, event.data.kind, event.data.amount, event.seq)
        elif event.data.kind == "cash_in_play" and state.open_hand is None:
            out.alerts.append(_cash_between_hands(state, event, profiles))
    elif isinstance(event, DealerChangedEvent):
        state.dealer_id = event.data.dealer_id
    elif isinstance(event, DesignatedPlayerOfferEvent):
        state.offers.append((event.data.seat, event.data.accepted))


def _cash_between_hands(state: TableState, event: ChipsChangedEvent,
                        profiles: Profiles) -> Alert:
    """GEN-4 between hands: cash put in play before the deal is a cash wager in the next
    hand (during a hand the hand's own CASH_IN_PLAY finding covers it). With no hand to
    attach it to, it is an alert, at the severity the table's profile posts for GEN-4."""
    d = event.data
    return Alert(table_id=state.table_id, code="CASH_IN_PLAY", rule="GEN-4",
                 severity=_cash_severity(state, profiles), seq=event.seq, event_id=event.event_id,
                 message=f"seat {d.seat} put {d.amount} in cash in play between hands "
                         f"(seq {event.seq}); only chips are wagered")


def _cash_severity(state: TableState, profiles: Profiles) -> Severity:
    if state.config is None:
        return "warning"
    try:
        gen = gen_section(profiles.get(state.config.rule_profile))
    except UnknownProfileError:
        return "warning"
    return gen.cash_in_play_severity


def _record_buy(state: TableState, seat: int, kind: str, amount: int, seq: int) -> None:
    state.buys.append(Buy(seat, kind, amount, seq, state.hands_played))
    mine = [b for b in state.buys if b.seat == seat]
    if len(mine) > MAX_BUYS_PER_SEAT:
        state.buys.remove(mine[0])


def table_context(state: TableState) -> TableContext:
    """The table as a hand being closed now sees it (the ``HandInput``'s context)."""
    return TableContext(
        table_id=state.table_id,
        config=state.config,
        config_authorized=state.config_authorized,
        seated={s: SeatInfo(s, v.player_id, v.stack) for s, v in state.seated.items()},
        dealer_id=state.dealer_id,
        previous_button=state.previous_button,
        previous_designated=state.previous_designated,
        designated_offers=tuple(state.offers),
        new_seats=frozenset(state.new_seats),
        hands_played=state.hands_played,
        buys=tuple(
            BuyRecord(b.seat, b.kind, b.amount, b.seq,
                      since_previous_hand=b.hands_played == state.hands_played)
            for b in state.buys
        ),
    )


def _close_hand(state: TableState, hand: OpenHand, last_hash: str,
                out: Outputs, profiles: Profiles) -> AdjudicationRecord:
    events = unpack_events(hand)
    hand_input = HandInput(table=table_context(state), hand_id=hand.hand_id, events=tuple(events))
    out.closed_hand = hand_input
    chain = ChainInfo(first_seq=hand.first_seq, last_seq=hand.last_seq, last_hash=last_hash)
    record = adjudicate_hand(hand_input, profiles, chain, extra_findings=hand.findings)
    started = events[0]
    if isinstance(started, HandStartedEvent):
        state.previous_button = started.data.button
        state.previous_designated = started.data.designated_player
    if record.recorded is not None:
        for seat_key, net in record.recorded.net.items():
            if seat_key.isdigit() and int(seat_key) in state.seated:
                state.seated[int(seat_key)].stack += net
    state.offers = []
    state.new_seats = []
    state.hands_played += 1
    state.open_hand = None
    return record


def _close_incomplete(state: TableState, out: Outputs, why: str) -> None:
    hand = state.open_hand
    assert hand is not None
    findings = [*hand.findings,
                finding("INCOMPLETE_HAND", "SURV-9", "critical",
                        f"hand {hand.hand_id} cannot be adjudicated: {why}")]
    game = state.config.game if state.config else None
    out.records.append(rejected_record(state.table_id, hand.hand_id, findings, game))
    state.open_hand = None


def close_open_hand_at_end(state: TableState) -> Outputs:
    """End of input (embedded runs): a hand still open is reported, not dropped."""
    out = Outputs()
    if state.open_hand is not None:
        _close_incomplete(state, out, "input ended before its hand_ended")
    return out
