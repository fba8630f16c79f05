"""Per-table state: hash-chain verification (SURV-9) and hand assembly.

``TableState`` is everything pitwatch remembers about one table between records: the chain
position, the duplicate window (``services.adjudicator.window``: the events of the current
and the previous hand, for duplicates and late arrivals), the table configuration,
seating, and the hand being assembled. ``apply_event`` is a pure function
of (state, event) to outputs, so the embedded runner keeps states in a dict and the Faust
app keeps them in a changelogged table — the same code, the same results.

Chain rules (events.md envelope): ``seq`` +1 per event, ``prev_hash`` = hash of the
previous event. An altered event is caught by the next event's ``prev_hash``; a missing
event by the ``seq`` gap; a repeated ``event_id`` with the same body is a no-op, with a
different body a critical finding; an old ``seq`` the table no longer remembers is
``STALE_EVENT`` and never touches a hand (docs/events.md, "Duplicates, late and stale
events"). The last event of a stream can only be verified once its successor arrives
(there is nothing after it to carry its hash).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import msgspec

from services.adjudicator.adjudicate import ChainInfo, adjudicate_hand, rejected_record
from services.adjudicator.archiving import (
    between_segment,
    hand_segment,
    keep_beside,
    keep_between,
    note_packed,
    open_hand_segment,
)
from services.adjudicator.intake import ParsedEvent
from services.adjudicator.open_hand import OpenHand, pack_event, unpack_events
from services.adjudicator.segments import BetweenRun, HandCut, Segment
from services.adjudicator.state_check import check_state
from services.adjudicator.window import Window, fingerprint
from services.events.bounds import (
    MAX_BUYS_PER_SEAT,
    MAX_HAND_EVENTS,
    MAX_HELD_FINDINGS,
    MAX_OFFERS,
)
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
from services.events.numerals import is_ascii_number
from services.games.model import BuyRecord, HandInput, SeatInfo, TableContext, finding
from services.games.profile import Profiles, UnknownProfileError, gen_section


class SeatState(msgspec.Struct, array_like=True):
    player_id: str
    stack: int


class Buy(msgspec.Struct, array_like=True):
    seat: int
    kind: str
    amount: int
    seq: int
    hands_played: int  # the table's hand count when the buy was made


class TableState(msgspec.Struct):
    """What pitwatch keeps per table (serialised with msgpack in the Faust changelog)."""

    table_id: str
    last_seq: int = 0
    last_hash: str = GENESIS_HASH
    window: Window = msgspec.field(default_factory=Window)
    hand_first_seq: int = 0  # seq of the last hand_started applied (0: none yet)
    # Critical chain findings no open hand could take, for the table's next hand.
    held: list[Finding] = msgspec.field(default_factory=list)
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
    # The event archive (services.adjudicator.archiving): events taken outside any hand
    # and not yet handed out, and how many events this state has taken in all.
    between: BetweenRun | None = None
    taken: int = 0


@dataclass(slots=True)
class Outputs:
    """What one record produced (slotted: one is built per record on the hot path)."""

    records: list[AdjudicationRecord] = field(default_factory=list)
    alerts: list[Alert] = field(default_factory=list)
    dlq: list[str] = field(default_factory=list)  # reasons; the caller owns the raw record
    # The hand this record closed and adjudicated, as adjudicated (surveillance reads it
    # instead of assembling the hand a second time); at most one per record.
    closed_hand: HandInput | None = None
    # Critical chain findings outside any hand (events.md): rejected input of this run.
    outside_hand: list[Finding] = field(default_factory=list)
    # Segments for the event archive, cut by this record (services.adjudicator.segments).
    archive: list[Segment] = field(default_factory=list)


_state_encoder = msgspec.msgpack.Encoder()
_state_decoder = msgspec.msgpack.Decoder(TableState)


def encode_state(state: TableState) -> bytes:
    return _state_encoder.encode(state)


def decode_state(raw: bytes) -> TableState:
    """A state ``encode_state`` wrote. msgspec's ValueError: not one; ``BadTableState``
    (a ValueError): one that breaks what the chain check relies on (its window out of
    seq order, say: ``services.adjudicator.state_check``)."""
    state = _state_decoder.decode(raw)
    check_state(state)
    return state


# ---------------------------------------------------------------- chain (SURV-9)


def _chain_finding(code: str, severity: Severity, message: str) -> Finding:
    return finding(code, "SURV-9", severity, message)


def _report(state: TableState, out: Outputs, event: Event, f: Finding) -> None:
    """A chain finding goes to the alerts topic and onto the hand the event belongs to:
    the open hand, when the event is one of its own or a table-level event. A critical
    one that no open hand takes (a tampered ``hand_ended`` or between-hands event, a gap
    before a hand) is rejected input of the run and is held for the table's next hand
    (docs/events.md, "Chain breaks outside a hand")."""
    out.alerts.append(
        Alert(table_id=state.table_id, code=f.code, rule=f.rule, severity=f.severity,
              message=f.message, seq=event.seq, event_id=event.event_id, hand_id=event.hand_id)
    )
    hand = state.open_hand
    if hand is not None and (event.hand_id in (None, hand.hand_id)):
        hand.findings.append(f)
        _check_hand_size(state, out)
    elif f.severity == "critical":
        out.outside_hand.append(f)
        if len(state.held) < MAX_HELD_FINDINGS:
            state.held.append(msgspec.structs.replace(
                f, message=f"outside any hand, before this one started: {f.message}"))


def _info_alert(state: TableState, out: Outputs, event: Event, code: str, severity: Severity,
                message: str) -> None:
    """An alert that is no finding of any hand (the event is not applied, nothing changed)."""
    out.alerts.append(
        Alert(table_id=state.table_id, code=code, rule="SURV-9", severity=severity,
              seq=event.seq, event_id=event.event_id, hand_id=event.hand_id, message=message)
    )


def check_chain(state: TableState, parsed: ParsedEvent, out: Outputs) -> bool:
    """Verify ``seq``/``prev_hash``; returns False when the event must not be applied.

    The order of the questions is the contract's (docs/events.md, "Duplicates, late and
    stale events"): a remembered event id first, then the seq against the head.
    """
    event, digest = parsed.event, parsed.hash
    seen = state.window.find_id(event.event_id)
    if seen is not None:
        if seen.hash == digest:
            _info_alert(state, out, event, "DUPLICATE_EVENT", "info",
                        f"event {event.event_id} (seq {event.seq}) delivered again with "
                        "the same body; ignored")
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
        first, last = state.last_seq + 1, event.seq - 1
        _report(state, out, event, _chain_finding(
            "SEQ_GAP", "critical",
            f"seq jumped from {state.last_seq} to {event.seq}: {last - first + 1} event(s) "
            f"missing ({_span(first, last)})"))
        state.window.skipped(first, last, bytes.fromhex(event.prev_hash))
        _advance(state, event, digest)
        return True
    return _late_arrival(state, parsed, out)


def _late_arrival(state: TableState, parsed: ParsedEvent, out: Outputs) -> bool:
    """``seq`` at or below the chain head with a new event id: re-ordered, conflicting or
    older than anything the table remembers."""
    event, digest = parsed.event, parsed.hash
    window = state.window
    taken = window.find_seq(event.seq)
    if taken is not None:
        _report(state, out, event, _chain_finding(
            "SEQ_CONFLICT", "critical",
            f"a different event (id {event.event_id}) claims seq {event.seq}, already taken "
            f"at this table by event {taken.event_id} (head is seq {state.last_seq}): a "
            "replayed or forged event"))
        return False
    if not window.is_missing(event.seq):
        _info_alert(state, out, event, "STALE_EVENT", "warning",
                    f"seq {event.seq} (event {event.event_id}) is older than the events this "
                    f"table still remembers (head is seq {state.last_seq}): it cannot be "
                    "compared with the event first received at that seq, so it is not applied "
                    "and no hand changes (a late redelivery, or a replayed event)")
        return False
    _report(state, out, event, _chain_finding(
        "REORDERED", "warning",
        f"seq {event.seq} arrived after seq {state.last_seq}: events were re-ordered"))
    before = window.find_seq(event.seq - 1)
    after_prev = window.successor_prev_hash(event.seq)
    if (before and before.hash != event.prev_hash) or (after_prev and after_prev != digest):
        _report(state, out, event, _chain_finding(
            "CHAIN_BROKEN", "critical",
            f"late seq {event.seq} does not fit the hash chain around it"))
    event_id = event.event_id.encode()
    window.remember(event.seq, event_id, fingerprint(event_id), bytes.fromhex(digest))
    window.arrived_late(event.seq, bytes.fromhex(event.prev_hash))
    return True


def _advance(state: TableState, event: Event, digest: str,
             event_id: bytes | None = None, fp: bytes | None = None) -> None:
    """The event becomes the chain head and is remembered. The id's bytes and
    fingerprint are passed in when the caller already made them."""
    state.last_seq = event.seq
    state.last_hash = digest
    if event_id is None:
        event_id = event.event_id.encode()
    state.window.remember(event.seq, event_id, fp or fingerprint(event_id),
                          bytes.fromhex(digest))


def _next_in_chain(state: TableState, parsed: ParsedEvent) -> bool:
    """The usual case, decided without the full check: a new event id, next in sequence,
    carrying the head's hash; the head advances. False: ``check_chain`` decides."""
    event = parsed.event
    if event.seq != state.last_seq + 1 or event.prev_hash != state.last_hash:
        return False
    event_id = event.event_id.encode()
    fp = fingerprint(event_id)
    if state.window.may_know(fp):  # maybe seen (or a chance match): the full check
        return False
    _advance(state, event, parsed.hash, event_id, fp)
    return True


def _span(first: int, last: int) -> str:
    return f"seq {first}" if first == last else f"seq {first}..{last}"


def _forget_before_previous_hand(state: TableState, started: Event) -> None:
    """A hand starts: the window keeps the previous hand and this one (and the events
    between them); everything older is forgotten (docs/events.md)."""
    previous = state.hand_first_seq
    if previous:
        state.window.forget_below(min(previous, started.seq))
    state.hand_first_seq = started.seq


# ---------------------------------------------------------------- hand assembly


def _orphan(state: TableState, parsed: ParsedEvent, out: Outputs, reason: str) -> None:
    """An event no hand can take (SURV-9 ``ORPHAN_EVENT``): dead-lettered with ``reason``
    and alerted; the chain has it, between hands."""
    event = parsed.event
    out.dlq.append(reason)
    out.alerts.append(Alert(table_id=state.table_id, code="ORPHAN_EVENT", rule="SURV-9",
                            severity="warning", seq=event.seq, event_id=event.event_id,
                            hand_id=event.hand_id, message=reason))
    _take(state, parsed, out)


def apply_event(state: TableState, parsed: ParsedEvent, profiles: Profiles) -> Outputs:
    """Feed one validated event of this table; returns records/alerts/DLQ reasons.

    ``profiles``: the rule profiles a table may post, read once by the caller's bootstrap
    (a hand that ends is adjudicated under the one its configuration names)."""
    out = Outputs()
    event = parsed.event
    if not _next_in_chain(state, parsed) and not check_chain(state, parsed, out):
        _take(state, parsed, out, refused=True)
        return out
    event_type = type(event)
    if event_type in _TABLE_LEVEL_CLASSES:
        _apply_table_event(state, event, out, profiles)
        if state.open_hand is not None:
            _append(state, parsed, out)
        else:
            _take(state, parsed, out)
        return out
    if event_type is HandStartedEvent and event.hand_id is None:
        # events.md: hand_id is set on every event of a hand. Opened as "", the hand took
        # no event of its own and came out as a record with an empty hand id, which the
        # record contract refuses and the ledger would not book (QA).
        _orphan(state, parsed, out, f"event seq {event.seq} is a hand_started with no "
                                    f"hand_id at table {state.table_id}: no hand is opened")
        _forget_previous_hand(state)
        return out
    if event_type is HandStartedEvent:
        _forget_before_previous_hand(state, event)
        if state.open_hand is not None:
            _close_incomplete(state, out, f"hand_started of {event.hand_id} (seq {event.seq}) "
                                          "arrived before this hand's hand_ended")
        _cut_between(state, out)
        state.open_hand = OpenHand(table_id=state.table_id, hand_id=event.hand_id or "",
                                   first_seq=event.seq, source=event.source,
                                   findings=state.held,
                                   cut=HandCut(state.last_seq, state.taken))
        state.held = []
        _append(state, parsed, out)
        return out
    hand = state.open_hand
    if hand is None or event.hand_id != hand.hand_id:
        current = f"open hand is {hand.hand_id}" if hand else "no hand is open"
        owner = ("no hand (hand_id null)" if event.hand_id is None
                 else f"hand {event.hand_id}")  # it read "hand None" (QA)
        _orphan(state, parsed, out, f"event seq {event.seq} belongs to {owner} "
                                    f"but {current} at table {state.table_id}")
        return out
    _append(state, parsed, out)
    if event_type is HandEndedEvent and state.open_hand is hand:
        out.records.append(_close_hand(state, hand, parsed.hash, out, profiles))
    return out


# The table-level event classes, for a type lookup per event instead of reading the tag.
_TABLE_LEVEL_CLASSES = frozenset(
    cls for tag, cls in EVENT_TYPES.items() if tag in TABLE_LEVEL_TYPES
)


def _append(state: TableState, parsed: ParsedEvent, out: Outputs) -> None:
    """The open hand packs the event (and its archive segment will hold it)."""
    hand = state.open_hand
    assert hand is not None
    pack_event(hand, parsed.event)
    note_packed(hand.cut, hand.count - 1, parsed)
    state.taken += 1
    _check_hand_size(state, out)


def _take(state: TableState, parsed: ParsedEvent, out: Outputs, refused: bool = False) -> None:
    """An event the open hand does not pack (a refused event, one of another hand, one
    between hands): the archive keeps it all the same, in arrival order."""
    hand = state.open_hand
    if hand is not None:
        keep_beside(hand.cut, hand.count + len(hand.cut.extras), parsed, refused)
    else:
        if state.between is None:
            state.between = BetweenRun(state.last_seq, state.taken)
        if keep_between(state.between, parsed, refused):
            _cut_between(state, out)
    state.taken += 1


def _cut_between(state: TableState, out: Outputs) -> None:
    """Hand the events taken between hands to the archive."""
    if state.between is not None:
        out.archive.append(between_segment(state.table_id, state.between))
        state.between = None


def _check_hand_size(state: TableState, out: Outputs) -> None:
    """A hand holds at most MAX_HAND_EVENTS events and findings together (a stream of
    conflicting events adds findings, not events): past it, it cannot be adjudicated."""
    hand = state.open_hand
    assert hand is not None
    if hand.count + len(hand.findings) > MAX_HAND_EVENTS:
        _close_incomplete(state, out, f"hand exceeded {MAX_HAND_EVENTS} events and "
                                      "findings")


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
        if not state.seated and state.open_hand is None:
            _forget_previous_hand(state)  # the table emptied: it starts afresh (QA)
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
        if len(state.offers) > MAX_OFFERS:  # the latest offers decide HCF-2
            del state.offers[0]


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
    return cash_in_play_severity(state.config.rule_profile if state.config else None, profiles)


def cash_in_play_severity(rule_profile: str | None, profiles: Profiles) -> Severity:
    """GEN-4 between hands: the severity the table's rule profile posts (``warning`` with
    no configuration or an unknown profile). Shared with the native engine's glue."""
    if rule_profile is None:
        return "warning"
    try:
        gen = gen_section(profiles.get(rule_profile))
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
    out.archive.append(hand_segment(state.table_id, hand.hand_id, hand.cut, events))
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
            if is_ascii_number(seat_key) and int(seat_key) in state.seated:
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
    out.archive.append(open_hand_segment(hand))
    state.open_hand = None
    _forget_previous_hand(state)


def _forget_previous_hand(state: TableState) -> None:
    """A hand was dealt that no record judges (cut short, or a ``hand_started`` without
    its id): where its button and designated player stood is not known for the next
    hand's HCF-2 rotation check, which then looks at nothing. Kept from the hand before,
    the next hand's move "passed" that hand's designated player: a DP_ROTATION_SKIP case
    against an honest dealer (QA)."""
    state.previous_button = None
    state.previous_designated = None


def close_open_hand_at_end(state: TableState) -> Outputs:
    """End of input (embedded runs): a hand still open is reported, not dropped, and the
    events taken since the last hand go to the archive."""
    out = Outputs()
    if state.open_hand is not None:
        _close_incomplete(state, out, "input ended before its hand_ended")
    _cut_between(state, out)
    return out
