"""The v1 table event contract (``docs/events.md``) as msgspec structs.

Why msgspec: one declaration gives fast decoding of the wire format, precise validation
errors (``Expected `int`, got `str` - at `$.data.seat```) and the JSON Schema that
``schemas/`` publishes, so the code and the published contract cannot drift apart
(``tests/unit/test_schemas.py`` fails if they do).

Every event is one struct: the envelope fields plus a typed ``data`` body, and the
envelope's ``type`` is the msgspec tag, so decoding picks the right body by itself.
Amounts are ``int`` chips; a float or a negative amount where the contract forbids it is
a decode error, never a silent conversion.
"""

from __future__ import annotations

from functools import cache
from typing import Annotated, Any, Literal, TypeAlias

import msgspec
from msgspec import Meta, Struct, field

from services.events.bounds import (
    MAX_CARDS_PER_LIST,
    MAX_NAME_LENGTH,
    MAX_PAYTABLE_KEY_LENGTH,
    MAX_PAYTABLE_ROWS,
    MAX_PAYTABLES,
    MAX_SAFE_INTEGER,
    MAX_SEATS,
    MAX_TEXT_LENGTH,
)
from services.events.timestamps import TIMESTAMP_PATTERN

CONTRACT_VERSION = 1

CardStr = Annotated[
    str,
    Meta(pattern=r"^[2-9TJQKA][cdhs]$", description="rank (2-9 T J Q K A) and suit (c d h s)"),
]
Seat = Annotated[int, Meta(ge=1, le=MAX_SEATS, description="seat number, 1.. clockwise")]
# Integers stay inside the IEEE-754 safe range, where RFC 8785 canonical JSON is exact.
MAX_SAFE = MAX_SAFE_INTEGER
Chips = Annotated[int, Meta(ge=0, le=MAX_SAFE, description="chips in the table's minor unit")]
PositiveChips = Annotated[
    int, Meta(ge=1, le=MAX_SAFE, description="chips in the table's minor unit, > 0")
]
SignedChips = Annotated[
    int, Meta(ge=-MAX_SAFE, le=MAX_SAFE, description="signed chips in the table's minor unit")
]
NonEmpty = Annotated[str, Meta(min_length=1, max_length=MAX_NAME_LENGTH)]
Text = Annotated[str, Meta(max_length=MAX_TEXT_LENGTH, description="free text, one line")]
Cards = Annotated[list[CardStr], Meta(max_length=MAX_CARDS_PER_LIST)]
PaytableKey = Annotated[str, Meta(min_length=1, max_length=MAX_PAYTABLE_KEY_LENGTH)]
Paytable = Annotated[dict[PaytableKey, Chips], Meta(max_length=MAX_PAYTABLE_ROWS)]
Uuid = Annotated[
    str,
    Meta(
        pattern=r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$",
        description="UUID, the idempotency key",
    ),
]
Timestamp = Annotated[
    str,
    Meta(
        pattern=TIMESTAMP_PATTERN,
        description="RFC 3339 UTC timestamp of a real instant: the date must exist "
        "(no 2026-02-30, no year 0000) and there are no leap seconds (second 60); see "
        "docs/events.md",
    ),
]
Sha256Hex = Annotated[str, Meta(pattern=r"^[0-9a-f]{64}$")]
SeatRef = Annotated[str, Meta(pattern=r"^seat:[1-9][0-9]?$")]

GameName = Literal["hcf", "chinese", "draw7a", "russian", "holdem"]
RakeMode = Literal["all", "players", "designated", "none"]


class Body(Struct, forbid_unknown_fields=True, kw_only=True, omit_defaults=True):
    """Base of every event body: unknown fields are errors (a typo must not pass)."""


# ---------------------------------------------------------------- table-level bodies


class Limits(Body):
    min_wager: Chips
    max_wager: Chips
    small_bet: Chips | None = None
    big_bet: Chips | None = None
    small_blind: Chips | None = None
    big_blind: Chips | None = None
    ante: Chips | None = None
    big_blind_ante: Chips | None = None
    point_value: Chips | None = None
    bonus_cap_per_hand: Chips | None = None


class RakeConfig(Body):
    mode: RakeMode
    fee: Chips


class TableConfigured(Body):
    game: GameName
    limits: Limits
    rake: RakeConfig
    rule_profile: NonEmpty
    structure: Literal["fixed", "pot", "no"] | None = None
    scoring: Literal["standard", "mandarin"] | None = None
    paytables: Annotated[dict[PaytableKey, Paytable], Meta(max_length=MAX_PAYTABLES)] | None = (
        None)
    authorized_by: NonEmpty | None = None


class PlayerSeated(Body):
    seat: Seat
    player_id: NonEmpty
    stack: Chips


class PlayerLeft(Body):
    seat: Seat
    player_id: NonEmpty
    stack: Chips


class ChipsChanged(Body):
    seat: Seat
    amount: SignedChips
    kind: Literal["buy_in", "short_buy", "add", "remove", "cash_in_play"]


class DealerChanged(Body):
    dealer_id: NonEmpty


class DesignatedPlayerOffer(Body):
    seat: Seat
    accepted: bool


# ---------------------------------------------------------------- hand bodies


class SeatIn(Body):
    seat: Seat
    player_id: NonEmpty
    stack: Chips


class HandStarted(Body):
    button: Seat
    designated_player: Seat | None
    dealer_id: NonEmpty
    seats: Annotated[list[SeatIn], Meta(max_length=MAX_SEATS)]
    deck: Literal[52, 32, 36]


class Wager(Body):
    seat: Seat
    kind: Literal["ante", "flush_bonus", "sf_bonus", "raise", "bet", "insurance"]
    amount: PositiveChips


class CardDealt(Body):
    to: Literal["seat", "dealer", "board", "burn", "set_aside"]
    card: CardStr | None
    face_up: bool
    seat: Seat | None = None


class CardExposed(Body):
    seat: Seat | None
    card: CardStr
    cause: Literal["dealer_error", "player", "dealer_upcard"]


class Action(Body):
    seat: Seat
    action: Literal[
        "fold",
        "check",
        "call",
        "bet",
        "raise",
        "all_in",
        "stand",
        "play",
        "buy_dealer_game",
        "decline_dealer_game",
        "declare_board",
        "post_small_blind",
        "post_big_blind",
        "post_ante",
    ]
    amount: Chips | None = None


class Draw(Body):
    seat: Seat
    discarded: Cards
    received: Cards


class CardMoved(Body):
    card: CardStr
    from_: Annotated[str, Meta(pattern=r"^(board|stub|burn|seat:[1-9][0-9]?)$")] = field(
        name="from"
    )
    to: Literal["set_aside", "burn", "stub", "board"]


class StubReshuffled(Body):
    cards: Cards
    reason: Text


class HandSet(Body):
    seat: Seat
    front: Cards
    middle: Cards
    back: Cards


class AutoWinDeclared(Body):
    seat: Seat
    kind: Literal["dragon", "six_pairs", "three_flushes", "three_straights"]


class DealerReplacedCard(Body):
    removed: CardStr
    received: CardStr
    burned: Cards


class ShufflerAlarm(Body):
    detail: Text


class Misdeal(Body):
    reason: Text


class HandDead(Body):
    reason: Text


class Showdown(Body):
    seat: Seat | Literal["dealer", "designated"]
    cards: Cards | None = None
    mucked: bool = False


class WagerCollected(Body):
    seat: Seat
    kind: Literal["ante", "flush_bonus", "sf_bonus", "raise", "bet", "insurance"]
    amount: PositiveChips
    to: Literal["designated", "house"]


class Payout(Body):
    seat: Seat
    amount: PositiveChips
    source: Annotated[str, Meta(pattern=r"^(designated|house|pot|seat:[1-9][0-9]?)$")]
    kind: Literal["win", "bonus", "insurance", "pot", "refund"]


class Collection(Body):
    seat: Seat
    amount: PositiveChips
    to: Annotated[str, Meta(pattern=r"^(designated|house|seat:[1-9][0-9]?)$")]
    kind: Literal["points", "buy_card", "exchange", "buy_dealer_game", "other"]


class RakeCollected(Body):
    seat: Seat | None
    amount: PositiveChips
    from_: Literal["stack", "pot"] = field(name="from")


class HandEnded(Body):
    pass


# ---------------------------------------------------------------- envelopes


class Envelope(Struct, tag_field="type", forbid_unknown_fields=True, kw_only=True):
    """Fields every event carries (events.md, "Envelope")."""

    v: Literal[1]
    event_id: Uuid
    table_id: NonEmpty
    seq: Annotated[int, Meta(ge=1, le=MAX_SAFE)]
    ts: Timestamp
    prev_hash: Sha256Hex
    hand_id: NonEmpty | None
    source: NonEmpty


class TableConfiguredEvent(Envelope, tag="table_configured"):
    data: TableConfigured


class PlayerSeatedEvent(Envelope, tag="player_seated"):
    data: PlayerSeated


class PlayerLeftEvent(Envelope, tag="player_left"):
    data: PlayerLeft


class ChipsChangedEvent(Envelope, tag="chips_changed"):
    data: ChipsChanged


class DealerChangedEvent(Envelope, tag="dealer_changed"):
    data: DealerChanged


class DesignatedPlayerOfferEvent(Envelope, tag="designated_player_offer"):
    data: DesignatedPlayerOffer


class HandStartedEvent(Envelope, tag="hand_started"):
    data: HandStarted


class WagerEvent(Envelope, tag="wager"):
    data: Wager


class CardDealtEvent(Envelope, tag="card_dealt"):
    data: CardDealt


class CardExposedEvent(Envelope, tag="card_exposed"):
    data: CardExposed


class ActionEvent(Envelope, tag="action"):
    data: Action


class DrawEvent(Envelope, tag="draw"):
    data: Draw


class CardMovedEvent(Envelope, tag="card_moved"):
    data: CardMoved


class StubReshuffledEvent(Envelope, tag="stub_reshuffled"):
    data: StubReshuffled


class HandSetEvent(Envelope, tag="hand_set"):
    data: HandSet


class AutoWinDeclaredEvent(Envelope, tag="auto_win_declared"):
    data: AutoWinDeclared


class DealerReplacedCardEvent(Envelope, tag="dealer_replaced_card"):
    data: DealerReplacedCard


class ShufflerAlarmEvent(Envelope, tag="shuffler_alarm"):
    data: ShufflerAlarm


class MisdealEvent(Envelope, tag="misdeal"):
    data: Misdeal


class HandDeadEvent(Envelope, tag="hand_dead"):
    data: HandDead


class ShowdownEvent(Envelope, tag="showdown"):
    data: Showdown


class WagerCollectedEvent(Envelope, tag="wager_collected"):
    data: WagerCollected


class PayoutEvent(Envelope, tag="payout"):
    data: Payout


class CollectionEvent(Envelope, tag="collection"):
    data: Collection


class RakeCollectedEvent(Envelope, tag="rake_collected"):
    data: RakeCollected


class HandEndedEvent(Envelope, tag="hand_ended"):
    data: HandEnded


Event: TypeAlias = (
    TableConfiguredEvent
    | PlayerSeatedEvent
    | PlayerLeftEvent
    | ChipsChangedEvent
    | DealerChangedEvent
    | DesignatedPlayerOfferEvent
    | HandStartedEvent
    | WagerEvent
    | CardDealtEvent
    | CardExposedEvent
    | ActionEvent
    | DrawEvent
    | CardMovedEvent
    | StubReshuffledEvent
    | HandSetEvent
    | AutoWinDeclaredEvent
    | DealerReplacedCardEvent
    | ShufflerAlarmEvent
    | MisdealEvent
    | HandDeadEvent
    | ShowdownEvent
    | WagerCollectedEvent
    | PayoutEvent
    | CollectionEvent
    | RakeCollectedEvent
    | HandEndedEvent
)

EVENT_TYPES: dict[str, type[Envelope]] = {
    str(cls.__struct_config__.tag): cls
    for cls in Event.__args__
}
TABLE_LEVEL_TYPES = frozenset(
    {
        "table_configured",
        "player_seated",
        "player_left",
        "chips_changed",
        "dealer_changed",
        "designated_player_offer",
    }
)

_event_converter_type: Any = Event


@cache
def _event_decoder() -> msgspec.json.Decoder[Event]:
    """Made on first use, not at import: building a decoder evaluates the annotations of
    every struct it reaches (the events' union), about 10 ms of every command's start-up,
    and a run on the native core never decodes an event in Python."""
    return msgspec.json.Decoder(Event)


def decode_event(raw: bytes | str) -> Event:
    """Decode and validate one wire record; raises ``msgspec.ValidationError``/``DecodeError``."""
    return _event_decoder().decode(raw)


def event_from_builtins(obj: dict[str, Any]) -> Event:
    """Validate an already-parsed JSON object (strict: no type coercion)."""
    result: Event = msgspec.convert(obj, _event_converter_type, strict=True)
    return result


def event_to_builtins(event: Event) -> dict[str, Any]:
    """The event as plain JSON data (field names as on the wire)."""
    result: dict[str, Any] = msgspec.to_builtins(event)
    return result


# ---------------------------------------------------------------- adjudication record


# How serious a finding or an alert is; the one definition every layer uses (profiles post
# a severity per finding with it, the metrics label by it).
Severity: TypeAlias = Literal["info", "warning", "critical"]
HandStatus: TypeAlias = Literal["ok", "discrepancy", "dead", "unverified", "rejected"]


class Finding(Struct, kw_only=True, forbid_unknown_fields=True, omit_defaults=False):
    """One finding; ``rule`` is an ID from rules.md (``HCF-7``, ``SURV-9`` ...)."""

    code: NonEmpty
    rule: NonEmpty
    severity: Severity
    seat: Seat | None
    amount: SignedChips | None
    message: str


class SideResult(Struct, kw_only=True, forbid_unknown_fields=True):
    """``net``: seat (as string) or ``house`` -> chips gained; ``rake``: seat -> rake paid."""

    net: dict[str, SignedChips]
    rake: dict[str, Chips]


class Movement(Struct, kw_only=True, forbid_unknown_fields=True, array_like=False):
    """One recorded chip movement, as the ledger books it (optional record field).

    ``from``/``to`` are account names: ``stack:<seat>``, ``layout:<seat>``, ``pot``,
    ``house``. ``event_id`` is the source event (``hand_ended`` for layout returns).
    """

    event_id: Uuid
    seq: Annotated[int, Meta(ge=1, le=MAX_SAFE)]
    from_: NonEmpty = field(name="from")
    to: NonEmpty
    amount: PositiveChips
    kind: NonEmpty


class AdjudicationRecord(Struct, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """One record per hand on topic ``adjudications`` (events.md, "What the service produces").

    The first nine fields are the published format. The rest are optional additions the
    ledger and the reports need (so the ledger consumer never re-reads the event log):
    the hand's recorded chip movements, the seats' players, rake mode, dealer, the
    ``hand_ended`` timestamp and the hash of the hand's last event.
    """

    v: Literal[1]
    table_id: NonEmpty
    hand_id: NonEmpty
    game: GameName | None
    status: HandStatus
    rule_profile: str | None
    expected: SideResult | None
    recorded: SideResult | None
    findings: list[Finding]
    players: dict[str, str] | None = None
    dealer_id: str | None = None
    rake_mode: RakeMode | None = None
    ended_at: Timestamp | None = None
    # Bounded as an event's seq is: a record from a file (``ledger post``) with 2**63 here
    # stopped the booking at the database with a traceback, its batch lost.
    first_seq: Annotated[int, Meta(ge=1, le=MAX_SAFE)] | None = None
    last_seq: Annotated[int, Meta(ge=1, le=MAX_SAFE)] | None = None
    last_hash: Sha256Hex | None = None
    movements: list[Movement] | None = None


class Alert(Struct, kw_only=True, omit_defaults=True):
    """One message on topic ``alerts``: a stream irregularity (SURV-9 chain breaks, GEN-5
    configuration, GEN-4 cash between hands) or a cross-hand surveillance pattern
    (SURV-2..8), with its evidence."""

    v: int = 1
    table_id: str
    code: str
    rule: str
    severity: Severity
    message: str
    seq: int | None = None
    event_id: str | None = None
    hand_id: str | None = None
    # Cross-hand patterns (services.surveillance): the hands, players, counts, statistic
    # and threshold behind the alert (rules.md SURV: "an alert with its evidence").
    evidence: dict[str, Any] | None = None
    # Cross-hand patterns: what the alert is about and what it belongs with, for cases
    # (docs/surveillance.md "Alert identity, subject and links"). Optional v1 additions.
    alert_id: str | None = None  # rule/field=value/.../count=n, the Kafka key
    subject: str | None = None  # dealer:<id>, table:<id>, player:<id> or pair:<a>,<b>
    parties: list[str] | None = None  # every entity named, the subject first
    related_alerts: list[str] | None = None  # ids of earlier alerts sharing a party
    findings: list[str] | None = None  # <table_id>/<hand_id>/<index> of the findings counted


_record_encoder = msgspec.json.Encoder(order="deterministic")


@cache
def _record_decoder() -> msgspec.json.Decoder[AdjudicationRecord]:
    """Made on first use (as ``_event_decoder``)."""
    return msgspec.json.Decoder(AdjudicationRecord)


def encode_record(record: AdjudicationRecord) -> bytes:
    """Deterministic JSON of a record: the same hand always gives the same bytes."""
    return _record_encoder.encode(record)


def decode_record(raw: bytes | str) -> AdjudicationRecord:
    return _record_decoder().decode(raw)


@cache
def _alert_decoder() -> msgspec.json.Decoder[Alert]:
    return msgspec.json.Decoder(Alert)


def decode_alert(raw: bytes | str) -> Alert:
    """An alert's JSON read back (the alerts topic, ``alert_json``, an alerts file)."""
    return _alert_decoder().decode(raw)
