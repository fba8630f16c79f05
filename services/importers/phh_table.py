"""One imported table's stream: the events a hold'em table system would have recorded
for the hands of one source table, written by ``TableWriter`` through ``ImportStream``.

Why a module of its own: ``services.importers.phh`` decides which hands make a table and
in what order (and which importer runs); this module turns one table's hands into events.
``prepare_hand`` is everything about a hand that can fail, computed before its first
event: the writer uses it, and so does ``phh.skip_reason`` when it words why the native
importer skipped a hand.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from decimal import Decimal
from typing import Any

import orjson

from services.events.contract import Limits
from services.events.stream import TableStream
from services.importers.phh_hand import Converted, PhhHand, Unsupported, convert, posts

_SECOND = timedelta(seconds=1)
AUTHORIZED_BY = "phh-import"
DEALER_ID = "phh-dealer"
SOURCE = "phh-import"
RULE_PROFILE = "house-v1"
# The optional ``limits.big_blind_ante`` of table_configured (requested for the v1
# contract). Without it a big-blind ante cannot be posted and such hands are skipped.
CONTRACT_HAS_BIG_BLIND_ANTE = "big_blind_ante" in Limits.__struct_fields__


@dataclass(frozen=True)
class ImportOptions:
    """``rule_profile``: what every table posts (a profile holding the venue's rake
    schedule, say); ``chip_unit``: the source amount one chip is (None: each table's
    smallest whole unit); ``big_blind_ante_field``: post big-blind antes as
    ``limits.big_blind_ante`` (default: when the contract has the field)."""

    rule_profile: str = RULE_PROFILE
    chip_unit: Decimal | None = None
    big_blind_ante_field: bool = CONTRACT_HAS_BIG_BLIND_ANTE


# A version-4 UUID's fixed bits (RFC 4122): version nibble 4, variant bits 10.
_UUID_KEEP = ~((0xF000 << 64) | (0xC000 << 48)) & ((1 << 128) - 1)
_UUID_FIXED = (0x4000 << 64) | (0x8000 << 48)
_TWO_DIGITS = tuple(f"{n:02d}" for n in range(60))


class ImportStream(TableStream):
    """``TableStream`` with the per-event work done the direct way (same bytes).

    Every event the importer writes is built from fixed ASCII keys, strings, booleans,
    null and integers no larger than ``MAX_SAFE_CHIPS`` (checked per table), which is
    exactly when ``services.events.canonical`` itself uses orjson's sorted output as the
    RFC 8785 form; going straight there skips the per-value check that dominates the
    import time. Ids and timestamps are formatted without building ``uuid.UUID`` or
    formatting a ``datetime``. ``tests/unit/holdem/test_phh_import.py`` checks every
    imported event against ``canonical.event_hash``.
    """

    _day: int = 0  # day of month of the clock when ``_day_text`` was made
    _day_text: str = ""

    def _hash(self, event: dict[str, Any]) -> str:
        """``canonical.event_hash`` for this stream's events, without the per-value check
        (see the class docstring for why they are always in orjson's safe shape)."""
        return hashlib.sha256(orjson.dumps(event, option=orjson.OPT_SORT_KEYS)).hexdigest()

    def _next_id(self) -> str:
        """A version-4 UUID from the stream's generator, as ``uuid.UUID(int=bits,
        version=4)`` would write it (without building the object)."""
        h = (self.rng.getrandbits(128) & _UUID_KEEP | _UUID_FIXED).to_bytes(16).hex()
        return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"

    def _tick(self, max_ms: int) -> str:
        """One second per event on the simulated clock (the source has no times)."""
        c = self.clock = self.clock + _SECOND
        if c.day != self._day:  # consecutive days never share a day of the month
            self._day = c.day
            self._day_text = f"{c.year:04d}-{c.month:02d}-{c.day:02d}T"
        two = _TWO_DIGITS
        return f"{self._day_text}{two[c.hour]}:{two[c.minute]}:{two[c.second]}.000Z"


@dataclass(frozen=True)
class PreparedHand:
    """A hand ready to be written: its table's configuration, its events, its starting
    stacks in the table's unit."""

    config: dict[str, Any]
    converted: Converted
    starting: list[int]


def prepare_hand(hand: PhhHand, seats: Sequence[int], scale: int, max_wager: int,
                 options: ImportOptions) -> PreparedHand:
    """Everything about a hand that can fail (``Unsupported``, with the reason the import
    reports), in the order the reasons are found."""
    config = table_configuration(hand, scale, max_wager, options)
    converted = convert(hand, seats, scale)
    return PreparedHand(config, converted, [whole(s, scale) for s in hand.starting])


@dataclass
class TableWriter:
    """One table's stream: configuration, seating and stacks carried between hands."""

    table_id: str
    stream: ImportStream
    scale: int
    max_wager: dict[str, int]
    options: ImportOptions
    config: dict[str, Any] | None = None
    seat_of: dict[str, int] = field(default_factory=dict)
    stacks: dict[str, int] = field(default_factory=dict)

    def play(self, hand: PhhHand, hand_id: str) -> tuple[str, ...]:
        """Emit one hand; its limits (what its record cannot tell). ``Unsupported`` when
        it cannot be expressed, before its first event (``prepare_hand``)."""
        kept = self._kept_seats(hand)
        seats = list(hand.seats) if hand.seats is not None else (
            kept if kept is not None else list(range(1, len(hand.players) + 1)))
        prepared = prepare_hand(hand, seats, self.scale, self.max_wager[hand.variant],
                                self.options)
        config, converted, starting = prepared.config, prepared.converted, prepared.starting
        if config != self.config:
            self.stream.emit("table_configured", config)
            self.config = config
        self._seat(hand, seats, starting, reseat=hand.seats is None and kept is None)
        self._align_stacks(hand, seats, starting)
        emit = self.stream.emit
        emit("hand_started", {
            "button": seats[-1], "designated_player": None, "dealer_id": DEALER_ID,
            "seats": [{"seat": seat, "player_id": name, "stack": stack}
                      for seat, name, stack in sorted(zip(seats, hand.players, starting,
                                                          strict=True))],
            "deck": 52}, hand_id=hand_id)
        for type_, data in converted.events:
            emit(type_, data, hand_id=hand_id)
        emit("hand_ended", {}, hand_id=hand_id)
        for name, stack in zip(hand.players, converted.finishing, strict=True):
            self.stacks[name] = stack
        return converted.limits

    def _kept_seats(self, hand: PhhHand) -> list[int] | None:
        """Everyone's current seat, if all are seated and their clockwise order from the
        button (the last player's seat) is the order of the hand's positions."""
        known = [self.seat_of.get(name) for name in hand.players]
        seats = [s for s in known if s is not None]
        if len(seats) != len(known):
            return None
        button = seats[-1]
        ordered = sorted(seats)
        clockwise = [s for s in ordered if s > button] + [s for s in ordered if s <= button]
        return seats if clockwise == seats else None

    def _seat(self, hand: PhhHand, seats: Sequence[int], starting: Sequence[int],
              reseat: bool) -> None:
        """``player_left`` / ``player_seated`` (with the hand's starting stack) so the
        table matches the hand's seating."""
        for name in list(self.seat_of):
            if reseat or name not in hand.players:
                self._leave(name)
        for name, seat, stack in zip(hand.players, seats, starting, strict=True):
            if self.seat_of.get(name) != seat:
                if name in self.seat_of:
                    self._leave(name)
                taken = next((n for n, s in self.seat_of.items() if s == seat), None)
                if taken is not None:
                    self._leave(taken)
                self._sit(name, seat, stack)

    def _sit(self, name: str, seat: int, stack: int) -> None:
        self.stream.emit("player_seated", {"seat": seat, "player_id": name, "stack": stack})
        self.seat_of[name] = seat
        self.stacks[name] = stack

    def _leave(self, name: str) -> None:
        seat = self.seat_of.pop(name)
        self.stream.emit("player_left", {"seat": seat, "player_id": name,
                                         "stack": self.stacks.pop(name)})

    def _align_stacks(self, hand: PhhHand, seats: Sequence[int], starting: Sequence[int]) -> None:
        """Bring every seat's stack to the hand's starting stack between hands."""
        for name, seat, stack in zip(hand.players, seats, starting, strict=True):
            change = stack - self.stacks[name]
            if change:
                self.stream.emit("chips_changed", {"seat": seat, "amount": change,
                                                   "kind": "add" if change > 0 else "remove"})
                self.stacks[name] = stack


def table_configuration(hand: PhhHand, scale: int, max_wager: int,
                        options: ImportOptions) -> dict[str, Any]:
    """The v1 ``table_configured`` body of the game the hand was played under."""
    posted = posts(hand, scale)
    limits: dict[str, Any] = {"small_blind": posted.small_blind,
                              "big_blind": posted.big_blind}
    if hand.structure == "fixed":
        if hand.small_bet is None or hand.big_bet is None:
            raise Unsupported("fixed limit without small_bet and big_bet")
        limits["small_bet"] = whole(hand.small_bet, scale)
        limits["big_bet"] = whole(hand.big_bet, scale)
        limits["min_wager"] = limits["small_bet"]
    else:
        minimum = whole(hand.min_bet, scale) if hand.min_bet is not None else posted.big_blind
        if minimum != posted.big_blind:
            raise Unsupported(f"minimum bet {minimum} differs from the big blind "
                              f"{posted.big_blind}; TH-1 makes the big blind the minimum bet")
        limits["min_wager"] = minimum
    limits["max_wager"] = max_wager
    if posted.ante_each:
        limits["ante"] = posted.ante_each
    if posted.big_blind_ante:
        if not options.big_blind_ante_field:
            raise Unsupported("a big-blind ante: the v1 table_configured cannot post one yet "
                              "(limits.big_blind_ante is not in the contract)")
        limits["big_blind_ante"] = posted.big_blind_ante
    return {"game": "holdem", "limits": limits, "structure": hand.structure,
            "rake": {"mode": "none", "fee": 0}, "rule_profile": options.rule_profile,
            "authorized_by": AUTHORIZED_BY}


def whole(value: Any, scale: int) -> int:
    """A source amount in the table's chips (``Unsupported`` when not whole there)."""
    scaled = value * scale
    if scaled != int(scaled):
        raise Unsupported(f"amount {value} is not whole at scale {scale}")
    return int(scaled)
