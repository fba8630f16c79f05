"""Import Poker Hand History (PHH) files as v1 table events: ``import_phh(paths)``.

One *table* per source table: the hands of one ``table`` field (a ``.phhs`` file mixes
many; a table runs on across files), or, for files without one, the files of one
directory (a session). Each table's hands, in hand order, become one hash-chained table
stream (``services.events.stream.TableStream``, ids and timestamps drawn from a generator
seeded with the table id, so the same files always give the same bytes). Hold'em hands
(variants NT and FT) become ``holdem`` hands; every other hand is reported in
``ImportResult.skipped`` with the reason, never dropped silently, and every hand read is
accounted for: imported (``hands``; with what its record cannot tell in ``limited``) or
skipped.

The recorded side of each hand is the real-world settlement: payouts come from the
file's ``finishing_stacks`` or ``winnings`` (``phh_hand``), so adjudicating the imported
events checks pitwatch against what actually happened at the table.

**Chip unit.** Chips are integers in pitwatch, so a table whose amounts have fractions
(half chips ``10162.5``, cents ``0.25``) is imported in a smaller chip unit: every amount
of every hand of that table is multiplied by the table's *scale*, the smallest integer
that makes all of them whole (2 for half chips, 100 for cents at most), or by the scale
the caller fixes (``chip_unit``: 0.01 makes every table count in cents, so a rule
profile's rake schedule means the same money at every table). The scale is stated in
``ImportResult.scales`` and the table's ``table_configured`` limits are in the scaled
unit; a split pot that left half chips is then an exact split with no odd chip, as the
source settled it. A hand whose amounts no scale up to ``MAX_SCALE`` makes whole is
skipped with the reason.

Seating: players keep the seat they first sat in for the whole table, as long as their
clockwise order matches the positions of each hand (the button is the seat of the last
player); otherwise everyone is re-seated by position. Stacks that differ between one
hand's end and the next hand's start (the source resets stacks, or skipped hands moved
chips) are brought in line with ``chips_changed`` events between hands.

**Two importers.** This module is the reference. The native core imports ``.phh`` files
itself when it can read every file named in full (``native_import``; ``native/src/phh``),
with the same bytes; anything it does not cover leaves the whole import to this module,
and ``engine="python"`` chooses this module alone.
"""

from __future__ import annotations

import hashlib
import math
import os
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

import orjson

from services.events.contract import Limits
from services.events.stream import TableStream
from services.importers.phh_hand import PhhHand, Unsupported, convert, posts, read_hand
from services.importers.phh_source import SUFFIXES, SourceHand, expand, read_sources
from services.importers.phh_toml import loads

MAX_SAFE_CHIPS = 2**53 - 1  # RFC 8785: integers beyond this have another canonical form

MAX_SCALE = 100
_SECOND = timedelta(seconds=1)
AUTHORIZED_BY = "phh-import"
DEALER_ID = "phh-dealer"
SOURCE = "phh-import"
RULE_PROFILE = "house-v1"
# The optional ``limits.big_blind_ante`` of table_configured (requested for the v1
# contract). Without it a big-blind ante cannot be posted and such hands are skipped.
CONTRACT_HAS_BIG_BLIND_ANTE = "big_blind_ante" in Limits.__struct_fields__


@dataclass
class ImportResult:
    """The events of every table, one table after another (each in ``seq`` order), and
    the account of every hand read: ``read`` = ``hands`` imported + ``len(skipped)``.
    ``skipped``: (where, why); ``limited``: (hand id, what its record cannot tell) for
    imported hands; ``sources``: hand id -> the file (and ``[n]`` table) it came from;
    ``scales``: the chip scale of every table.

    The native importer hands over the events as JSON lines (``encoded``), the bytes the
    CLI writes; ``events`` then reads them as objects only when asked for."""

    skipped: list[tuple[str, str]] = field(default_factory=list)
    hands: int = 0
    scales: dict[str, int] = field(default_factory=dict)
    read: int = 0
    limited: list[tuple[str, str]] = field(default_factory=list)
    sources: dict[str, str] = field(default_factory=dict)
    kinds: dict[str, str] = field(default_factory=dict)  # a skip reason -> its kind
    encoded: bytes | None = None  # the events as JSON lines (the native importer)
    engine: str = "python"  # which importer made them
    declined: str | None = None  # why not the native importer (this module's imports)
    _events: list[dict[str, Any]] | None = field(default=None, repr=False)

    @property
    def events(self) -> list[dict[str, Any]]:
        if self._events is None:
            self._events = [orjson.loads(line) for line in (self.encoded or b"").splitlines()]
        return self._events

    @property
    def event_count(self) -> int:
        if self._events is None and self.encoded is not None:
            return self.encoded.count(b"\n")
        return len(self.events)

    def jsonl(self) -> bytes:
        """The events, one JSON object a line (``orjson.dumps`` of each)."""
        if self._events is None and self.encoded is not None:
            return self.encoded
        return b"".join(orjson.dumps(event) + b"\n" for event in self.events)

    def skip(self, where: str, why: str, kind: str | None = None) -> None:
        self.skipped.append((where, why))
        if kind is not None and kind != why:
            self.kinds[why] = kind


@dataclass(frozen=True)
class ImportOptions:
    """``rule_profile``: what every table posts (a profile holding the venue's rake
    schedule, say); ``chip_unit``: the source amount one chip is (None: each table's
    smallest whole unit); ``big_blind_ante_field``: post big-blind antes as
    ``limits.big_blind_ante`` (default: when the contract has the field)."""

    rule_profile: str = RULE_PROFILE
    chip_unit: Decimal | None = None
    big_blind_ante_field: bool = CONTRACT_HAS_BIG_BLIND_ANTE


ENGINES = ("native", "python")


def import_phh(paths: Iterable[str | os.PathLike[str]], *,
               big_blind_ante_field: bool = CONTRACT_HAS_BIG_BLIND_ANTE,
               rule_profile: str = RULE_PROFILE,
               chip_unit: Decimal | None = None,
               engine: str = "native") -> ImportResult:
    """Import PHH files (directories are searched for ``*.phh`` and ``*.phhs``).

    ``engine="native"`` (the default) lets the native core import the files when it can
    read every one of them in full (``native_import``); otherwise, and with
    ``engine="python"``, this module does it: the reference, with every reason a hand is
    skipped."""
    if engine not in ENGINES:
        raise ValueError(f"no import engine {engine!r}; choose one of {', '.join(ENGINES)}")
    options = ImportOptions(rule_profile, chip_unit, big_blind_ante_field)
    files = expand(paths)
    declined = "--engine python"
    if engine == "native":
        attempt = native_import(files, options)
        if isinstance(attempt, ImportResult):
            return attempt
        declined = attempt.why
    result = ImportResult(declined=declined)
    reading = read_sources(files)
    result.skipped += reading.skipped
    result.kinds |= reading.kinds
    result.read = reading.read
    groups: dict[tuple[str, ...], list[SourceHand]] = {}
    for source in reading.hands:
        groups.setdefault(source.table_key, []).append(source)
    # A session is named from the folders of every file named (read or not), so its name
    # does not depend on which of its neighbours could be imported.
    folders = table_names(sorted({path.parent for path in files}))
    names = {key: folders[Path(key[1])] if key[0] == "folder" else source_table_name(key)
             for key in groups}
    for key in sorted(groups, key=lambda k: (k[0] != "folder", names[k])):
        hands = sorted(groups[key], key=_hand_order)
        import_table(names[key], hands, result, options)
    return result


_I64_MAX = 2**63 - 1


@dataclass(frozen=True)
class Declined:
    """Why the native importer left an import to this module (the CLI's summary says it,
    so a slow import explains itself)."""

    why: str


def native_import(files: list[Path], options: ImportOptions) -> ImportResult | Declined:
    """The native core's import of ``files`` (``native/src/phh``), or why not: a fixed
    chip unit, a file that is neither ``.phh`` nor ``.phhs``, a path that is not UTF-8, a
    file name whose number is beyond 64 bits, no native core; or the core declines (a
    file or hand it does not read exactly: see its module). The bytes are this module's,
    as the differential tests prove on every file of the shared data. The core skips a
    hand where this module would; the reason is this module's (``skip_reason``), and
    should it find none, the import is this module's after all."""
    if options.chip_unit is not None:
        return Declined("--chip-unit")
    try:
        from services import _native
    except ImportError:
        return Declined("the native core is not built")
    folders = table_names(sorted({path.parent for path in files}))
    described = []
    for path in files:
        number, text = _natural(path.stem)
        name = str(path)
        if path.suffix not in SUFFIXES or number > _I64_MAX or not _utf8(name):
            return Declined(f"{name}: a file name the native importer does not take")
        described.append((name, folders[path.parent], path.stem, number, text))
    imported, refused = _native.import_phh_files(described, options.rule_profile,
                                                 options.big_blind_ante_field)
    if imported is None:
        where, why = refused
        return Declined(f"{where}: {why}" if where else why)
    encoded, _events, hands, read, scales, limited, sources, skipped = imported
    result = ImportResult(hands=hands, scales=dict(scales), read=read, limited=limited,
                          sources=dict(sources), encoded=encoded, engine="native")
    for where, stage, text, scale, again in skipped:
        reason = skip_reason(stage, text, scale, again, options)
        if reason is None:  # the two importers disagree: a bug, and the reference decides
            return Declined(f"{where}: the native importer skipped a hand the reference "
                            "imports")
        result.skip(where, *reason)
    return result


def skip_reason(stage: str, text: str, scale: int, again: tuple[str, str] | None,
                options: ImportOptions) -> tuple[str, str | None] | None:
    """Why this module skips the hand the native importer skipped at ``stage`` (its
    document's ``text``, its table's ``scale``): the reason and its kind, from the same
    functions and words as this module's own import; None if they find no reason."""
    if stage == "scale":
        return _not_whole(options.chip_unit)
    if stage == "again" and again is not None:
        return _listed_again(*again)
    try:
        hand = read_hand(loads(text))
    except Unsupported as exc:
        return (str(exc), exc.kind) if stage == "read" else None
    if stage == "safe":
        chips = sum(hand.starting) * scale
        return _unsafe_chips(chips) if chips > MAX_SAFE_CHIPS else None
    if stage == "play":
        try:
            table_configuration(hand, scale, 0, options)
            convert(hand, list(range(1, len(hand.players) + 1)), scale)
            [_whole(s, scale) for s in hand.starting]
        except Unsupported as exc:
            return str(exc), exc.kind
    return None


def _utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a file name's undecodable bytes (surrogate escapes)
        return False
    return True


def source_table_name(key: tuple[str, ...]) -> str:
    """``phh:<venue>/<table>`` (or ``phh:<table>``): the source's own table."""
    _, venue, table = key
    return "phh:" + (f"{venue}/{table}" if venue else table)


def table_names(directories: Sequence[Path]) -> dict[Path, str]:
    """``phh:<path>``, the directory relative to the parent of the common folder of the
    directories' parents: a session keeps its name (``phh:pluribus/83``) whether it is
    imported alone or with its siblings."""
    if not directories:
        return {}
    resolved = [d.resolve() for d in directories]
    root = Path(os.path.commonpath([r.parent for r in resolved])).parent
    return {d: "phh:" + r.relative_to(root).as_posix()
            for d, r in zip(directories, resolved, strict=True)}


def _hand_order(source: SourceHand) -> tuple[int, tuple[int, str], int]:
    """Hand number, then file (natural order of names), then place in the file."""
    number = source.hand.number if source.hand.number is not None else -1
    return number, _natural(source.path.stem), source.position


def _natural(stem: str) -> tuple[int, str]:
    return (int(stem), "") if stem.isdigit() else (10**12, stem)


def hand_id(table_id: str, source: SourceHand) -> str:
    """``<table>#<the source's hand id>``; a hand without one is named by its file (and
    its ``[n]`` in a ``.phhs`` file), as a session's ``.phh`` files always were."""
    if source.hand.table is not None and source.hand.label is not None:
        return f"{table_id}#{source.hand.label}"
    suffix = "" if source.section is None else f".{source.section}"
    return f"{table_id}#{source.path.stem}{suffix}"


# ---------------------------------------------------------------------------- scale


def hand_scale(hand: PhhHand) -> int | None:
    """The smallest integer that makes every amount of the hand whole (None: none up to
    ``MAX_SCALE``)."""
    amounts = hand.amounts()
    for scale in range(1, MAX_SCALE + 1):
        if _whole_at(amounts, scale):
            return scale
    return None


def _whole_at(amounts: Sequence[Decimal], scale: int) -> bool:
    return all((a * scale) == (a * scale).to_integral_value() for a in amounts)


def table_scale(hands: list[SourceHand], result: ImportResult,
                chip_unit: Decimal | None) -> tuple[int, list[SourceHand]]:
    """The table's chip scale: the least common multiple of its hands' scales, or the
    one ``chip_unit`` fixes; hands not whole in it are skipped."""
    if chip_unit is not None:
        fixed = int(1 / chip_unit)
        kept = [s for s in hands if _whole_at(s.hand.amounts(), fixed)]
        for source in hands:
            if source not in kept:
                result.skip(source.location, *_not_whole(chip_unit))
        return fixed, kept
    scale = 1
    kept = []
    for source in hands:
        needed = hand_scale(source.hand)
        if needed is None or math.lcm(scale, needed) > MAX_SCALE:
            result.skip(source.location, *_not_whole(None))
            continue
        scale = math.lcm(scale, needed)
        kept.append(source)
    return scale, kept


# ---------------------------------------------------------------------------- table


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

    def play(self, source: SourceHand, hand_id: str, result: ImportResult) -> bool:
        """Emit one hand; False (and reported) when it cannot be expressed. Everything
        that can fail is computed before the first event is emitted."""
        hand = source.hand
        kept = self._kept_seats(hand)
        seats = list(hand.seats) if hand.seats is not None else (
            kept if kept is not None else list(range(1, len(hand.players) + 1)))
        try:
            config = table_configuration(hand, self.scale, self.max_wager[hand.variant],
                                         self.options)
            converted = convert(hand, seats, self.scale)
            starting = [_whole(s, self.scale) for s in hand.starting]
        except Unsupported as exc:
            result.skip(source.location, str(exc), exc.kind)
            return False
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
        result.limited += [(hand_id, limit) for limit in converted.limits]
        return True

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
        limits["small_bet"] = _whole(hand.small_bet, scale)
        limits["big_bet"] = _whole(hand.big_bet, scale)
        limits["min_wager"] = limits["small_bet"]
    else:
        minimum = _whole(hand.min_bet, scale) if hand.min_bet is not None else posted.big_blind
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


def _whole(value: Any, scale: int) -> int:
    scaled = value * scale
    if scaled != int(scaled):
        raise Unsupported(f"amount {value} is not whole at scale {scale}")
    return int(scaled)


def import_table(table_id: str, hands: list[SourceHand], result: ImportResult,
                 options: ImportOptions) -> None:
    """Emit one table's stream and append it to ``result``."""
    scale, hands = table_scale(hands, result, options.chip_unit)
    hands = _once_each(table_id, hands, result)
    hands = _safe_chips(hands, scale, result)
    if not hands:
        return
    max_wager: dict[str, int] = {}
    for source in hands:
        top = max(_whole(s, scale) for s in source.hand.starting)
        max_wager[source.hand.variant] = max(max_wager.get(source.hand.variant, 0), top)
    stream = ImportStream(table_id, random.Random(table_id), source=SOURCE)
    writer = TableWriter(table_id, stream, scale, max_wager, options)
    played = 0
    for source in hands:
        name = hand_id(table_id, source)
        if writer.play(source, name, result):
            played += 1
            result.sources[name] = source.location
    if played:
        result.events.extend(stream.events)
        result.hands += played
        result.scales[table_id] = scale


def _once_each(table_id: str, hands: list[SourceHand],
               result: ImportResult) -> list[SourceHand]:
    """A hand id appears once per table: a hand the source lists again is skipped."""
    first: dict[str, SourceHand] = {}
    kept: list[SourceHand] = []
    for source in hands:
        name = hand_id(table_id, source)
        if name in first:
            result.skip(source.location, *_listed_again(name, first[name].location))
            continue
        first[name] = source
        kept.append(source)
    return kept


def _safe_chips(hands: list[SourceHand], scale: int,
                result: ImportResult) -> list[SourceHand]:
    """A hand whose chips at the table exceed the largest exact JSON integer is skipped
    (that hand only: an ``inf`` stack never gets this far, ``phh_hand`` stops it)."""
    kept: list[SourceHand] = []
    for source in hands:
        chips = sum(source.hand.starting) * scale
        if chips > MAX_SAFE_CHIPS:
            result.skip(source.location, *_unsafe_chips(chips))
            continue
        kept.append(source)
    return kept


def _not_whole(chip_unit: Decimal | None) -> tuple[str, str | None]:
    if chip_unit is not None:
        return f"amounts are not whole multiples of the chip unit {chip_unit}", None
    return f"amounts are not whole chips at any scale up to {MAX_SCALE}", None


def _listed_again(name: str, first: str) -> tuple[str, str | None]:
    return (f"hand {name} again: it was read at {first}",
            "a hand the source lists twice at its table")


def _unsafe_chips(chips: Decimal | int) -> tuple[str, str | None]:
    return (f"{chips} chips at the table exceed {MAX_SAFE_CHIPS}, the largest exact JSON "
            "integer", f"more chips at the table than {MAX_SAFE_CHIPS}, the largest exact "
                       "JSON integer")


def skipped_by_reason(skipped: Sequence[tuple[str, str]],
                      kinds: dict[str, str] | None = None) -> list[tuple[str, int]]:
    """How many hands were skipped for each reason (counted by its kind: the reason
    without the hand's particulars), most frequent first (summaries)."""
    counts: dict[str, int] = {}
    for _, reason in skipped:
        kind = (kinds or {}).get(reason, reason)
        counts[kind] = counts.get(kind, 0) + 1
    return sorted(counts.items(), key=lambda item: (-item[1], item[0]))


def limits_by_kind(limited: Sequence[tuple[str, str]]) -> list[tuple[str, int]]:
    """How many imported hands have each limit, most frequent first."""
    return skipped_by_reason(limited)
