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

import math
import os
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any, BinaryIO

import orjson

from services.events.bounds import MAX_NAME_LENGTH
from services.events.numerals import is_ascii_number
from services.events.utf8 import encodes_as_utf8
from services.importers.phh_amounts import scaled, total, whole_at
from services.importers.phh_hand import PhhHand, Unsupported, read_hand
from services.importers.phh_names import contract_name_problem, shown
from services.importers.phh_source import SUFFIXES, SourceHand, expand, read_sources
from services.importers.phh_table import (  # ImportOptions and RULE_PROFILE: re-exported
    CONTRACT_HAS_BIG_BLIND_ANTE,
    RULE_PROFILE,
    SOURCE,
    ImportOptions,
    ImportStream,
    TableWriter,
    prepare_hand,
    whole,
)
from services.importers.phh_toml import loads

__all__ = [
    "CONTRACT_HAS_BIG_BLIND_ANTE", "ENGINES", "MAX_SAFE_CHIPS", "MAX_SCALE", "RULE_PROFILE",
    "Declined", "ImportOptions", "ImportResult", "import_phh", "limits_by_kind",
    "native_import", "skip_reason", "skipped_by_reason",
]  # fmt: skip

MAX_SAFE_CHIPS = 2**53 - 1  # RFC 8785: integers beyond this have another canonical form

MAX_SCALE = 100


@dataclass
class ImportResult:
    """The events of every table, one table after another (each in ``seq`` order), and
    the account of every hand read: ``read`` = ``hands`` imported + ``len(skipped)``.
    ``skipped``: (where, why); ``limited``: (hand id, what its record cannot tell) for
    imported hands; ``sources``: hand id -> the file (and ``[n]`` table) it came from;
    ``scales``: the chip scale of every table.

    The native importer hands over the events as JSON lines (``encoded``), the bytes the
    CLI writes; ``events`` then reads them as objects only when asked for. An import
    given an ``output`` writes each table's events there as the table is done and holds
    none of them (``streamed``: how many it wrote)."""

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
    streamed: int | None = None  # events written to the import's output, table by table
    folder_links: list[Path] = field(default_factory=list)  # passed over (``expand``)
    _events: list[dict[str, Any]] | None = field(default=None, repr=False)

    @property
    def events(self) -> list[dict[str, Any]]:
        if self._events is None:
            self._events = [orjson.loads(line) for line in (self.encoded or b"").splitlines()]
        return self._events

    @property
    def event_count(self) -> int:
        if self.streamed is not None:
            return self.streamed
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


ENGINES = ("native", "python")


def import_phh(paths: Iterable[str | os.PathLike[str]], *,
               big_blind_ante_field: bool = CONTRACT_HAS_BIG_BLIND_ANTE,
               rule_profile: str = RULE_PROFILE,
               chip_unit: Decimal | None = None,
               engine: str = "native",
               output: BinaryIO | None = None) -> ImportResult:
    """Import PHH files (directories are searched for ``*.phh`` and ``*.phhs``).

    ``engine="native"`` (the default) lets the native core import the files when it can
    read every one of them in full (``native_import``); otherwise, and with
    ``engine="python"``, this module does it: the reference, with every reason a hand is
    skipped. ``output``: a file (seekable, opened for writing) that gets each table's
    events as JSON lines as soon as the table is done, so an import of many tables holds
    one table's events at a time (the same bytes as ``ImportResult.jsonl``); should the
    native importer decline part way, what it wrote is taken back and this module writes
    the file from where it stood."""
    if engine not in ENGINES:
        raise ValueError(f"no import engine {engine!r}; choose one of {', '.join(ENGINES)}")
    if output is not None and not output.seekable():  # a pipe: what it got cannot be taken back
        result = import_phh(paths, big_blind_ante_field=big_blind_ante_field,
                            rule_profile=rule_profile, chip_unit=chip_unit, engine=engine)
        output.write(result.jsonl())
        return result
    options = ImportOptions(rule_profile, chip_unit, big_blind_ante_field)
    folder_links: list[Path] = []
    files = expand(paths, folder_links)
    declined = "--engine python"
    start = None if output is None else output.tell()
    if engine == "native":
        attempt = native_import(files, options, output)
        if isinstance(attempt, ImportResult):
            attempt.folder_links = folder_links
            return attempt
        declined = attempt.why
        if output is not None and start is not None:  # the tables it wrote, taken back
            output.seek(start)
            output.truncate()
    result = ImportResult(declined=declined, streamed=None if output is None else 0,
                          folder_links=folder_links)
    reading = read_sources(files)
    result.skipped += reading.skipped
    result.kinds |= reading.kinds
    result.read = reading.read
    groups: dict[tuple[str, ...], list[SourceHand]] = {}
    for source in reading.hands:
        groups.setdefault(source.table_key, []).append(source)
    # A session is named from the folders of every file named (read or not), so its name
    # does not depend on which of its neighbours could be imported.
    folders = table_names(sorted(set(folders_of(files))))
    names = {key: folders[Path(key[1])] if key[0] == "folder" else source_table_name(key)
             for key in groups}
    for key in sorted(groups, key=lambda k: (k[0] != "folder", names[k])):
        hands = sorted(groups[key], key=_hand_order)
        import_table(names[key], hands, result, options, output)
    return result


_I64_MAX = 2**63 - 1
# The finest chip unit the native importer takes (native/src/phh: MAX_FIXED_SCALE): an
# amount of its at most 24 digits times the scale stays inside its 128-bit integers.
NATIVE_FIXED_SCALE = 10**12


@dataclass(frozen=True)
class Declined:
    """Why the native importer left an import to this module (the CLI's summary says it,
    so a slow import explains itself)."""

    why: str


def native_import(files: list[Path], options: ImportOptions,
                  output: BinaryIO | None = None) -> ImportResult | Declined:
    """The native core's import of ``files`` (``native/src/phh``), or why not: a chip
    unit finer than 1/``NATIVE_FIXED_SCALE``, a file that is neither ``.phh`` nor
    ``.phhs``, a path that is not UTF-8, a file name whose number is beyond 64 bits, no
    native core; or the core declines (a file or hand it does not read exactly: see its
    module). The bytes are this module's, as the differential tests prove on every file
    of the shared data. The core skips a hand where this module would; the reason is this
    module's (``skip_reason``), and should it find none, the import is this module's
    after all."""
    fixed = None if options.chip_unit is None else fixed_scale(options.chip_unit)
    if fixed is not None and not 1 <= fixed <= NATIVE_FIXED_SCALE:
        return Declined(f"--chip-unit {options.chip_unit}: finer than 1/{NATIVE_FIXED_SCALE:,}")
    try:
        from services import _native
    except ImportError:
        return Declined("the native core is not built")
    parents = folders_of(files)
    folders = table_names(sorted(set(parents)))
    described = []
    for path, parent in zip(files, parents, strict=True):
        stem = path.stem
        number, text = _natural(stem)
        name = str(path)
        if path.suffix not in SUFFIXES or number > _I64_MAX or not encodes_as_utf8(name):
            return Declined(f"{name}: a file name the native importer does not take")
        described.append((name, folders[parent], stem, number, text))
    imported, refused = _native.import_phh_files(
        described, options.rule_profile, options.big_blind_ante_field, fixed,
        None if output is None else output.write)
    if imported is None:
        where, why = refused
        return Declined(f"{where}: {why}" if where else why)
    encoded, events, hands, read, scales, limited, sources, skipped = imported
    result = ImportResult(hands=hands, scales=dict(scales), read=read, limited=limited,
                          sources=dict(sources), encoded=encoded, engine="native",
                          streamed=None if output is None else events)
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
    if stage == "copy" and again is not None:
        return _copy_of(*again)
    try:
        hand = read_hand(loads(text))
    except Unsupported as exc:
        return (str(exc), exc.kind) if stage == "read" else None
    if stage == "safe":
        return unsafe_chips(hand, scale)
    if stage == "play":  # seats and the wager cap change no reason
        try:
            prepare_hand(hand, list(range(1, len(hand.players) + 1)), scale, 0, options)
        except Unsupported as exc:
            return str(exc), exc.kind
    return None


def folders_of(files: Sequence[Path]) -> list[Path]:
    """Each file's folder (``path.parent``), one ``Path`` made a folder: ``parent`` makes
    a new one for every file, about 1.5 µs each, and a session has a hundred files."""
    made: dict[str, Path] = {}
    folders = []
    for path in files:
        name = os.path.dirname(str(path)) or "."
        folder = made.get(name)
        if folder is None:
            folder = made[name] = Path(name)
        folders.append(folder)
    return folders


def source_table_name(key: tuple[str, ...]) -> str:
    """``phh:<venue>/<table>`` (or ``phh:<table>``): the source's own table."""
    _, venue, table = key
    return "phh:" + (f"{venue}/{table}" if venue else table)


class SessionNameClash(ValueError):
    """Two different folders named alike (``a/pluribus/100`` and ``b/pluribus/100``): one
    import cannot give both sessions the one table id, nor tell them apart by name."""


def table_names(directories: Sequence[Path]) -> dict[Path, str]:
    """``phh:<parent>/<folder>``: the session's folder and the folder it is in (of the
    path resolved), whatever else is imported with it, so a session keeps its name
    (``phh:pluribus/83``) imported alone, with its siblings or with other data sets. Two
    different folders that would share a name raise ``SessionNameClash``."""
    names: dict[Path, str] = {}
    owners: dict[str, Path] = {}
    for directory in directories:
        resolved = directory.resolve()
        name = "phh:" + ("/".join(resolved.parts[1:][-2:]) or resolved.anchor)
        other = owners.setdefault(name, resolved)
        if other != resolved:
            raise SessionNameClash(
                f"two sessions would both be table {name}: {other} and {resolved} (a "
                "session is named by its folder and the folder it is in): rename one of "
                "them, or the folder it is in")
        names[directory] = name
    return names


def _hand_order(source: SourceHand) -> tuple[int, tuple[int, str], int]:
    """Hand number, then file (natural order of names), then place in the file."""
    number = source.hand.number if source.hand.number is not None else -1
    return number, _natural(source.path.stem), source.position


def _natural(stem: str) -> tuple[int, str]:
    """A file's place in natural order: a name of ASCII digits by its number, any other
    name after every number, by its text. (``str.isdigit`` also takes ``²`` and
    ``٣``, which ``int`` refuses or reads as a number no one wrote: a file named ``².phh``
    stopped the import with a traceback.)"""
    return (int(stem), "") if is_ascii_number(stem) else (10**12, stem)


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
        if whole_at(amounts, scale):
            return scale
    return None


def fixed_scale(chip_unit: Decimal) -> int:
    """The scale a chip unit fixes at every table: chips per source unit (0.01: 100)."""
    return int(1 / chip_unit)


def table_scale(hands: list[SourceHand], result: ImportResult,
                chip_unit: Decimal | None) -> tuple[int, list[SourceHand]]:
    """The table's chip scale: the least common multiple of its hands' scales, or the
    one ``chip_unit`` fixes; hands not whole in it are skipped."""
    if chip_unit is not None:
        fixed = fixed_scale(chip_unit)
        kept = [s for s in hands if whole_at(s.hand.amounts(), fixed)]
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


def import_table(table_id: str, hands: list[SourceHand], result: ImportResult,
                 options: ImportOptions, output: BinaryIO | None = None) -> None:
    """Emit one table's stream and append it to ``result`` (or write it to ``output``)."""
    scale, hands = table_scale(hands, result, options.chip_unit)
    hands = _once_each(table_id, hands, result)
    hands = _safe_chips(hands, scale, result)
    if not hands:
        return
    max_wager: dict[str, int] = {}
    for source in hands:
        top = max(whole(s, scale) for s in source.hand.starting)
        max_wager[source.hand.variant] = max(max_wager.get(source.hand.variant, 0), top)
    stream = ImportStream(table_id, random.Random(table_id), source=SOURCE)
    writer = TableWriter(table_id, stream, scale, max_wager, options)
    played = 0
    for source in hands:
        name = hand_id(table_id, source)
        try:
            limits = writer.play(source.hand, name)
        except Unsupported as exc:
            result.skip(source.location, str(exc), exc.kind)
            continue
        played += 1
        result.sources[name] = source.location
        result.limited += [(name, limit) for limit in limits]
    if not played:
        return
    if output is None:
        result.events.extend(stream.events)
    else:
        output.write(b"".join(orjson.dumps(event) + b"\n" for event in stream.events))
        result.streamed = (result.streamed or 0) + len(stream.events)
    result.hands += played
    result.scales[table_id] = scale


def _once_each(table_id: str, hands: list[SourceHand],
               result: ImportResult) -> list[SourceHand]:
    """A hand appears once per table: a hand the source lists again (its hand id again) is
    skipped, and so is a copy, a hand whose record is, field for field, one already kept
    at the table (``PhhHand`` equality: the numbers by value, its ``hand`` number, the
    actions without comments). A session's hands are named by their files, so a hand
    saved twice under two names had two ids and was imported twice, its payouts counted
    twice; hands that differ in anything the import reads (every Pluribus and WSOP hand of
    a session has its own ``hand`` number) are all imported. A hand whose id the contract
    would refuse (a folder or file name too long, or holding a control character) is
    skipped too."""
    first: dict[str, SourceHand] = {}
    records: dict[PhhHand, tuple[str, str]] = {}  # a kept hand's record -> its id, place
    kept: list[SourceHand] = []
    for source in hands:
        name = hand_id(table_id, source)
        problem = contract_name_problem(name)
        if problem is not None:
            result.skip(source.location, *_not_a_hand_id(name, problem))
            continue
        if name in first:
            result.skip(source.location, *_listed_again(name, first[name].location))
            continue
        earlier = records.get(source.hand)
        if earlier is not None:
            result.skip(source.location, *_copy_of(*earlier))
            continue
        records[source.hand] = (name, source.location)
        first[name] = source
        kept.append(source)
    return kept


def _safe_chips(hands: list[SourceHand], scale: int,
                result: ImportResult) -> list[SourceHand]:
    """A hand with an amount the events could not carry exactly is skipped (that hand
    only: an ``inf`` stack never gets this far, ``phh_hand`` stops it)."""
    kept: list[SourceHand] = []
    for source in hands:
        reason = unsafe_chips(source.hand, scale)
        if reason is not None:
            result.skip(source.location, *reason)
            continue
        kept.append(source)
    return kept


def unsafe_chips(hand: PhhHand, scale: int) -> tuple[str, str | None] | None:
    """Why ``hand``'s chips at ``scale`` exceed the largest exact JSON integer, or None.

    The table's chips first (every stack, payout and pot stays below their sum); then
    each amount on its own, because a bet or a settlement figure the source wrote is
    carried into the events as written, whatever the stacks (a bet of 10^30 chips at a
    table of 60,000 is a recorded irregularity for the adjudicator, but not one a JSON
    integer can hold: it would be written inexactly, or not at all)."""
    chips = scaled(total(hand.starting), scale)
    if chips > MAX_SAFE_CHIPS:
        return _unsafe_chips(chips)
    largest = scaled(max((abs(amount) for amount in hand.amounts()), default=Decimal(0)),
                     scale)
    if largest > MAX_SAFE_CHIPS:
        return _unsafe_amount(largest)
    return None


def _not_whole(chip_unit: Decimal | None) -> tuple[str, str | None]:
    if chip_unit is not None:
        return f"amounts are not whole multiples of the chip unit {chip_unit}", None
    return f"amounts are not whole chips at any scale up to {MAX_SCALE}", None


def _not_a_hand_id(name: str, problem: str) -> tuple[str, str | None]:
    return (f"hand id {shown(name)}: {problem} (an id of the v1 contract is one line of text of 1 "
            f"to {MAX_NAME_LENGTH} characters; a hand's is its table's folder or name and its "
            "own)", "a hand id the v1 contract does not take")


def _listed_again(name: str, first: str) -> tuple[str, str | None]:
    return (f"hand {name} again: it was read at {first}",
            "a hand the source lists twice at its table")


def _copy_of(first: str, where: str) -> tuple[str, str | None]:
    return (f"the same hand as {first} (read at {where}): its record is the same, field "
            "for field, so it is imported once",
            "a hand the source holds twice at its table (the same record in two places)")


def _unsafe_chips(chips: Decimal | int) -> tuple[str, str | None]:
    return (f"{chips} chips at the table exceed {MAX_SAFE_CHIPS}, the largest exact JSON "
            "integer", f"more chips at the table than {MAX_SAFE_CHIPS}, the largest exact "
                       "JSON integer")


def _unsafe_amount(chips: Decimal | int) -> tuple[str, str | None]:
    return (f"an amount of {chips} chips exceeds {MAX_SAFE_CHIPS}, the largest exact JSON "
            "integer", f"an amount larger than {MAX_SAFE_CHIPS}, the largest exact JSON "
                       "integer")


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
