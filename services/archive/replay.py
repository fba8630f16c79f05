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
last hand of the span; hands ended outside the span are adjudicated but not compared.
It drives the embedded runner (``EmbeddedRunner``), so it runs on the engine a run
chooses (``PITWATCH_ENGINE``: the native core by default, the Python reference with
``python``), whose records are byte-identical.
"""

from __future__ import annotations

import datetime as dt
import io
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import msgspec
from sqlalchemy import Engine, select

from services.adjudicator.embedded import EmbeddedRunner
from services.adjudicator.steps import StepResult
from services.archive.reader import iter_segments, segments_query
from services.archive.segment import SEPARATOR, decompress
from services.events.contract import AdjudicationRecord, decode_record, encode_record
from services.games.profile import Profiles, RuleProfile
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
    """Replay every table with hands ended in [first_day, last_day] (or one table);
    ``on_table(table, hands)`` after each (progress); ``runner_engine``: native or
    python (default ``$PITWATCH_ENGINE``, then native)."""
    report = ReplayReport()
    stored = _stored_records(engine, first_day, last_day, table_id)
    for table in sorted({t for t, _, _ in stored.values()}):
        wanted = {h: (day, raw) for h, (t, day, raw) in stored.items() if t == table}
        replayed, events = _replay_table(engine, table, set(wanted), profiles, runner_engine)
        report.tables += 1
        report.events += events
        for hand_id in sorted(wanted):
            day, raw = wanted[hand_id]
            report.hands += 1
            fresh = replayed.get(hand_id)
            if fresh == raw.encode():  # the record's bytes as booked: decoded only if not
                report.same += 1
                continue
            record = decode_record(raw)
            again = decode_record(fresh) if fresh is not None else None
            report.differences.append(HandDifference(
                hand_id, table, day,
                record_changes(record, again) if again is not None
                else ["the archive's events never close this hand"], record, again))
        if on_table is not None:
            on_table(table, len(wanted))
    return report


def _stored_records(engine: Engine, first_day: dt.date, last_day: dt.date, table_id: str | None
                    ) -> dict[str, tuple[str, dt.date | None, str]]:
    """hand -> (table, day, record as booked) of every hand booked in the span."""
    query = select(Hand.hand_id, Hand.table_id, Hand.day, Hand.record_json).where(
        Hand.day >= first_day, Hand.day <= last_day)
    if table_id is not None:
        query = query.where(Hand.table_id == table_id)
    with engine.connect() as conn:
        return {h: (t, d, raw) for h, t, d, raw in conn.execute(query)}


# Archived events fed to the runner at a time: the bodies of consecutive segments,
# decompressed and joined into one buffer of lines, as a file is read.
REPLAY_BUFFER_BYTES = 4 * 1024 * 1024


def _replay_table(engine: Engine, table_id: str, wanted: set[str], profiles: Profiles,
                  runner_engine: str | None) -> tuple[dict[str, bytes], int]:
    """The table's archived events through a fresh runner, until every wanted hand has a
    record (or the archive ends: then open hands close as at the end of a run); each
    hand's first record as ``encode_record`` gives it. An unreadable archived line is
    rejected as at intake (verify reports it).

    Why buffers and encoded records: a replay is read for years of hands, and it was a
    quarter of the native engine's speed when it fed each segment as a list of lines
    (a Python object per event), built each closed hand for the surveillance it does not
    run, and decoded each record only to encode it again for the comparison."""
    runner = EmbeddedRunner(profiles, runner_engine, closed_hands=False)
    runner.encode_records()
    records: dict[str, bytes] = {}
    events = 0
    with engine.connect() as conn:
        pending: list[bytes] = []
        size = 0
        for segment in iter_segments(conn, segments_query(table_id)):
            body = decompress(segment.codec, segment.body)
            events += body.count(SEPARATOR) + 1
            pending.append(body)
            size += len(body)
            if size >= REPLAY_BUFFER_BYTES:
                _feed(runner, pending, records)
                pending, size = [], 0
                if wanted <= records.keys():
                    return records, events
        _feed(runner, pending, records)
    if not wanted <= records.keys():
        _keep(runner.finish(), records)
    return records, events


def _feed(runner: EmbeddedRunner, bodies: list[bytes], records: dict[str, bytes]) -> None:
    """Whole segments' events (one canonical JSON event a line in each body)."""
    if bodies:
        for step in runner.feed_file(io.BytesIO(SEPARATOR.join(bodies) + SEPARATOR)):
            _keep(step, records)


def _keep(step: StepResult, records: dict[str, bytes]) -> None:
    for encoded in step.encoded:
        records.setdefault(encoded.hand_id, encoded.json)
    for record in step.records:  # the reference engine's, as structs
        records.setdefault(record.hand_id, encode_record(record))


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
