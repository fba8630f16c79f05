"""``pitwatch replay``: the archived hands of a span of days adjudicated again, each
compared with the record the ledger stored for it.

Under the rule profiles the tables posted, a replay is an audit: the archive read back
through the same intake, table state and rules as the first run must give every stored
record again, byte for byte (the archive keeps every parsed event in arrival order, the
refused ones too, so nothing the first run saw is missing). Under another profile
(``--profile``: a casino's copy of the house rules with one number changed) it is a
what-if: the hands whose record would change are listed with the difference.

Each table is replayed from its first archived event (a hand's outcome depends on the
table as it stood: configuration, seating, stacks, the previous button), through the
last hand of the span; hands ended outside the span are adjudicated but not compared. A
table whose first days were detached past retention starts instead from the latest usable
checkpoint before the span's hands (the one ``archive detach`` makes at the cut, or a
later nightly one; native engine), as a report does: its first live event goes on from a
table that only the detached days hold. Without one its hands are counted apart
(``ReplayReport.detached``), and so are hands booked on the detached days.
It drives the embedded runner (``EmbeddedRunner``), so it runs on the engine a run
chooses (``PITWATCH_ENGINE``: the native core by default, the Python reference with
``python``), whose records are byte-identical.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import msgspec
from sqlalchemy import Engine, select

from services.adjudicator.embedded import EmbeddedRunner
from services.adjudicator.engine import engine_name
from services.adjudicator.native_runner import NativeRunner
from services.adjudicator.steps import StepResult
from services.archive.checkpoints import Checkpoint, start_for
from services.archive.partitions import detached_tables
from services.archive.queries import undated_hands
from services.archive.reader import segment_bodies
from services.archive.segment import SEPARATOR
from services.events.contract import AdjudicationRecord, decode_record, encode_record
from services.games.profile import Profiles, RuleProfile
from services.ledger.archive_tables import ArchiveTable
from services.ledger.models import Hand


@dataclass(frozen=True)
class HandDifference:
    hand_id: str
    table_id: str
    day: dt.date | None
    changes: list[str]  # one line per differing value: "path: stored -> replayed"
    stored: AdjudicationRecord
    replayed: AdjudicationRecord | None  # None: the replay never closed the hand


@dataclass
class ReplayReport:
    hands: int = 0  # stored hands of the span compared
    same: int = 0
    differences: list[HandDifference] = field(default_factory=list)
    tables: int = 0
    events: int = 0  # archived events replayed
    # Booked hands of the span at tables the archive never held (booked with
    # --no-archive, or by `pitwatch ledger post`): nothing to replay them from, so not
    # compared (each was listed as differing, "the archive's events never close this
    # hand": QA). Table -> hands.
    unarchived: dict[str, int] = field(default_factory=dict)
    # Booked hands of the span at tables whose first days were detached past retention
    # (``pitwatch archive detach``) that no checkpoint lets a replay reach: booked on the
    # detached days, or at a table with no usable checkpoint at or after the cut (a
    # replay from its first live event judged every hand as a new table's and listed all
    # as differing, exit 1: QA). Table -> (hands, its last detached day).
    detached: dict[str, tuple[int, dt.date]] = field(default_factory=dict)


class _AnyName(Mapping[str, RuleProfile]):
    """Every profile name a table may post resolves to the one profile of a what-if."""

    def __init__(self, profile: RuleProfile) -> None:
        self.profile = profile

    def __getitem__(self, name: str) -> RuleProfile:
        return self.profile

    def __iter__(self) -> Iterator[str]:
        return iter([self.profile.name])

    def __len__(self) -> int:
        return 1

    def get(self, name: str, default: Any = None) -> RuleProfile:
        return self.profile


def profiles_as(profile: RuleProfile) -> Profiles:
    """Profiles under which every table is judged by ``profile``, whatever it posted."""
    return Profiles(_AnyName(profile))


def replay_archive(engine: Engine, first_day: dt.date, last_day: dt.date, profiles: Profiles,
                   table_id: str | None = None,
                   on_table: Callable[[str, int], None] | None = None,
                   runner_engine: str | None = None) -> ReplayReport:
    """Replay every table with hands ended in [first_day, last_day] (or one table), a
    hand the ledger booked without a day by its last archived segment's day;
    ``on_table(table, hands)`` after each (progress); ``runner_engine``: native or
    python (default ``$PITWATCH_ENGINE``, then native).

    Memory: a table's hand ids of the span, and records only while a batch of them is
    compared (``COMPARED_PER_QUERY``): a record of a hand outside the span is dropped as
    it comes, so a replay of a day late in a table's years holds that day, not the
    years."""
    report = ReplayReport()
    archived = _archived_tables(engine)
    with engine.connect() as conn:
        detached = detached_tables(conn)
    for table, wanted in _wanted_hands(engine, first_day, last_day, table_id):
        if table not in archived:
            report.unarchived[table] = len(wanted)
            continue
        start = None
        if table in detached:
            start, wanted = _start_after_cut(engine, table, wanted, detached[table],
                                             runner_engine, report)
            if start is None:
                continue
        comparison = _Comparison(engine, table, wanted, report)
        report.events += _replay_table(engine, table, comparison, profiles, runner_engine,
                                       start)
        comparison.finish()
        report.tables += 1
        if on_table is not None:
            on_table(table, len(wanted))
    return report


def _start_after_cut(engine: Engine, table: str, wanted: dict[str, dt.date | None],
                     last_detached: dt.date, runner_engine: str | None,
                     report: ReplayReport
                     ) -> tuple[Checkpoint | None, dict[str, dt.date | None]]:
    """A table whose first days are detached: the checkpoint its replay starts from (the
    latest usable one before the span's live hands, as a report picks it: the one
    ``archive detach`` makes at the cut, or a later one), and the hands to compare. Hands
    booked on the detached days, and every hand when no checkpoint serves (or the engine
    is the reference, which has no checkpoints), are counted in ``report.detached``."""
    cold = _booked_through(engine, list(wanted), last_detached)
    live = {h: d for h, d in wanted.items() if h not in cold}
    gone = len(wanted) - len(live)
    start = None
    if live and engine_name(runner_engine) == "native":
        start = start_for(engine, table, set(live))
    if start is None:
        gone = len(wanted)
    if gone:
        report.detached[table] = (gone, last_detached)
    return start, live


def _booked_through(engine: Engine, hand_ids: list[str], day: dt.date) -> set[str]:
    """The hands the ledger booked on or before ``day`` (a hand booked without a day is
    wanted by its live archived segment's day: after it)."""
    found: set[str] = set()
    with engine.connect() as conn:
        for at in range(0, len(hand_ids), COMPARED_PER_QUERY):
            found.update(conn.execute(select(Hand.hand_id).where(
                Hand.hand_id.in_(hand_ids[at:at + COMPARED_PER_QUERY]),
                Hand.day <= day)).scalars())
    return found


def _archived_tables(engine: Engine) -> set[str]:
    """The tables the archive's catalog names: those it ever took an event of."""
    with engine.connect() as conn:
        return set(conn.execute(select(ArchiveTable.table_id)).scalars())


def _wanted_hands(engine: Engine, first_day: dt.date, last_day: dt.date,
                  table_id: str | None) -> Iterator[tuple[str, dict[str, dt.date | None]]]:
    """Each table with hands of the span, and those hands' ids (with the archive's day of
    each hand the ledger booked without one), table by table.

    A hand's day is the ledger's (``hands.day``, the UTC day it ended). A hand booked
    without one (rejected: no ``hand_ended``, no configuration...) is still a record the
    replay must give again, so its day is the archive's: the day of its last archived
    segment (``archive_segments.day``, the UTC day of its last event), the day
    ``pitwatch archive days`` counts its events in. Selected by the ledger's day alone,
    such hands were never compared, and a span holding only them was said to hold no
    hand at all."""
    query = select(Hand.table_id, Hand.hand_id).where(Hand.day >= first_day,
                                                      Hand.day <= last_day)
    if table_id is not None:
        query = query.where(Hand.table_id == table_id)
    with engine.connect() as conn:
        tables = set(conn.execute(select(query.subquery().c.table_id).distinct()).scalars())
        undated = undated_hands(conn, first_day, last_day, table_id)
    for table in sorted(tables | set(undated)):
        with engine.connect() as conn:
            wanted: dict[str, dt.date | None] = dict.fromkeys(conn.execute(
                select(Hand.hand_id).where(Hand.table_id == table, Hand.day >= first_day,
                                           Hand.day <= last_day)).scalars())
        wanted.update(undated.get(table, {}))
        yield table, wanted


# Replayed records of wanted hands compared with the stored ones a query at a time.
COMPARED_PER_QUERY = 512


class _Comparison:
    """The replayed records of one table's wanted hands, each compared with the record
    booked for it, a batch at a time; every other record is dropped as it comes."""

    def __init__(self, engine: Engine, table_id: str, wanted: Mapping[str, dt.date | None],
                 report: ReplayReport) -> None:
        self.engine = engine
        self.table_id = table_id
        self.remaining = set(wanted)  # wanted hands with no replayed record yet
        # The archive's day of each hand booked without one: the day a difference is
        # listed under (the ledger's NULL would say nothing).
        self.archive_days = {h: d for h, d in wanted.items() if d is not None}
        self.batch: dict[str, bytes] = {}
        self.report = report
        self.differences: list[HandDifference] = []

    @property
    def done(self) -> bool:
        return not self.remaining

    def keep(self, hand_id: str, record: bytes) -> None:
        """A replayed record: the hand's first, if the hand is wanted (later ones of the
        same hand, and other hands', are not compared)."""
        if hand_id in self.remaining:
            self.remaining.discard(hand_id)
            self.batch[hand_id] = record
            if len(self.batch) >= COMPARED_PER_QUERY:
                self._compare()

    def finish(self) -> None:
        """The last batch, then the wanted hands the archive's events never closed; the
        table's differences in hand order."""
        self._compare()
        never = sorted(self.remaining)
        for start in range(0, len(never), COMPARED_PER_QUERY):
            for hand_id, day, raw in self._stored(never[start:start + COMPARED_PER_QUERY]):
                self.report.hands += 1
                self.differences.append(HandDifference(
                    hand_id, self.table_id, day,
                    ["the archive's events never close this hand"], decode_record(raw), None))
        self.report.differences += sorted(self.differences, key=lambda d: d.hand_id)

    def _compare(self) -> None:
        for hand_id, day, raw in self._stored(list(self.batch)):
            self.report.hands += 1
            fresh = self.batch[hand_id]
            if fresh == raw.encode():  # the record's bytes as booked: decoded only if not
                self.report.same += 1
                continue
            record, again = decode_record(raw), decode_record(fresh)
            self.differences.append(HandDifference(
                hand_id, self.table_id, day, record_changes(record, again), record, again))
        self.batch = {}

    def _stored(self, hand_ids: list[str]) -> list[tuple[str, dt.date | None, str]]:
        if not hand_ids:
            return []
        with self.engine.connect() as conn:
            return [(h, d if d is not None else self.archive_days.get(h), raw)
                    for h, d, raw in conn.execute(
                select(Hand.hand_id, Hand.day, Hand.record_json)
                .where(Hand.hand_id.in_(hand_ids)))]


REPLAY_BUFFER_BYTES = 4 * 1024 * 1024


def _replay_table(engine: Engine, table_id: str, comparison: _Comparison, profiles: Profiles,
                  runner_engine: str | None, start: Checkpoint | None = None) -> int:
    """The table's archived events through a fresh runner, until every wanted hand has a
    record (or the archive ends: then open hands close as at the end of a run), each
    record handed to ``comparison`` as ``encode_record`` gives it; returns the events
    read. An unreadable archived line is rejected as at intake (verify reports it).

    Why buffers and encoded records: a replay is read for years of hands, and it was a
    quarter of the native engine's speed when it fed each segment as a list of lines
    (a Python object per event), built each closed hand for the surveillance it does not
    run, and decoded each record only to encode it again for the comparison."""
    runner = EmbeddedRunner(profiles, runner_engine, closed_hands=False)
    runner.encode_records()
    if start is not None:  # the table as it stood there (native: ``_start_after_cut``)
        assert isinstance(runner.impl, NativeRunner)
        runner.impl.import_table(start.state)
    events = 0
    with engine.connect() as conn:
        pending: list[bytes] = []
        size = 0
        for segment in segment_bodies(conn, table_id, start.key if start else None):
            body = segment.body
            events += body.count(SEPARATOR) + 1
            pending.append(body)
            size += len(body)
            if size >= REPLAY_BUFFER_BYTES:
                _feed(runner, pending, comparison)
                pending, size = [], 0
                if comparison.done:
                    return events
        _feed(runner, pending, comparison)
    if not comparison.done:
        _keep(runner.finish(), comparison)
    return events


def _feed(runner: EmbeddedRunner, bodies: list[bytes], comparison: _Comparison) -> None:
    """Whole segments' events (one canonical JSON event a line in each body)."""
    if bodies:
        for step in runner.feed_chunks([SEPARATOR.join([*bodies, b""])]):
            _keep(step, comparison)


def _keep(step: StepResult, comparison: _Comparison) -> None:
    for encoded in step.encoded:
        comparison.keep(encoded.hand_id, encoded.json)
    for record in step.records:  # the reference engine's, as structs
        if record.hand_id in comparison.remaining:
            comparison.keep(record.hand_id, encode_record(record))


def record_changes(stored: AdjudicationRecord, replayed: AdjudicationRecord) -> list[str]:
    """Every value that differs, as ``path: stored -> replayed`` (findings by code)."""
    before = msgspec.to_builtins(stored)
    after = msgspec.to_builtins(replayed)
    changes: list[str] = []
    for name in sorted(before.keys() | after.keys()):
        if name == "findings":
            changes += _finding_changes(before.get(name) or [], after.get(name) or [])
        else:
            changes += _value_changes(name, before.get(name), after.get(name))
    return changes


def _value_changes(path: str, a: Any, b: Any) -> list[str]:
    if a == b:
        return []
    if isinstance(a, dict) and isinstance(b, dict):
        return [line for key in sorted(a.keys() | b.keys(), key=str)
                for line in _value_changes(f"{path}.{key}", a.get(key), b.get(key))]
    return [f"{path}: {_shown(a)} -> {_shown(b)}"]


def _shown(value: Any) -> str:
    if value is None:
        return "none"
    text = msgspec.json.encode(value).decode()
    return text if len(text) <= 120 else text[:117] + "..."


def _finding_changes(before: list[dict[str, Any]], after: list[dict[str, Any]]) -> list[str]:
    def label(f: dict[str, Any]) -> str:
        seat = f" seat {f['seat']}" if f.get("seat") is not None else ""
        amount = f" amount {f['amount']}" if f.get("amount") is not None else ""
        return f"{f['rule']} {f['code']} ({f['severity']}){seat}{amount}"

    gone = [label(f) for f in before if f not in after]
    new = [label(f) for f in after if f not in before]
    return [f"finding removed: {g}" for g in gone] + [f"finding added: {n}" for n in new]
