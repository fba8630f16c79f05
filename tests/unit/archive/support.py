"""Archived runs for the archive and case tests: a simulated log adjudicated by the
embedded runner and kept in a database exactly as ``pitwatch adjudicate --ledger`` keeps
it (``services.recording.keep_run``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import orjson
from sqlalchemy import Engine

from services.adjudicator.embedded import EmbeddedRunner
from services.archive.reader import bodies_through_hand, hand_table, iter_segments, segments_query
from services.archive.segment import SEPARATOR, PackedSegment, event_lines
from services.events.contract import AdjudicationRecord, Alert, encode_record
from services.games.profile import Profiles
from services.recording import ArchiveCollector, Kept, keep_run
from services.reports.replay import HandReplay
from services.simulator.run import available_faults, simulate
from services.simulator.truth import TruthLabel
from tests.profiles import HOUSE, PROFILES


@dataclass(frozen=True)
class Run:
    records: list[AdjudicationRecord]
    alerts: list[Alert]
    segments: list[PackedSegment]


@dataclass(frozen=True)
class Log:
    lines: tuple[bytes, ...]
    truth: tuple[TruthLabel, ...]


@cache
def simulated_log(tables: int = 3, hands: int = 40, seed: int = 7,
                  faults: bool = True) -> Log:
    """HCF tables on 2026-01-05 (the simulator's clock), every fault injected at 2% of
    hands when ``faults`` (tamper included: one event per table altered after hashing)."""
    chosen = frozenset(available_faults("hcf")) if faults else frozenset()
    log = simulate(["hcf"], tables, hands, seed, chosen, fault_rate=0.02, profile=HOUSE)
    return Log(tuple(orjson.dumps(e) for e in log.events), tuple(log.truth))


def run(lines: Sequence[bytes], profiles: Profiles = PROFILES) -> Run:
    runner = EmbeddedRunner(profiles, archive=True)
    collector = ArchiveCollector()
    records: list[AdjudicationRecord] = []
    alerts: list[Alert] = []
    steps = [runner.feed(raw, f"line {n}") for n, raw in enumerate(lines, start=1)]
    for step in [*steps, runner.finish()]:
        records += step.records
        alerts += step.alerts
        collector.add(step.archive)
    return Run(records, alerts, collector.packed)


def keep(engine: Engine, lines: Sequence[bytes]) -> tuple[Run, Kept]:
    done = run(lines)
    return done, keep_run(engine, done.records, done.alerts, done.segments)


def archived_lines(engine: Engine, table_ids: set[str]) -> list[bytes]:
    """Every archived event of these tables, table by table, in arrival order."""
    with engine.connect() as conn:
        return [line for table_id in sorted(table_ids)
                for segment in iter_segments(conn, segments_query(table_id))
                for line in event_lines(segment.codec, segment.body)]


def lines_through_hand(engine: Engine, hand_id: str) -> list[bytes] | None:
    """The lines ``bodies_through_hand`` reads for the hand, held (None: not archived)."""
    where = hand_table(engine, hand_id)
    if where is None:
        return None
    return [line for body in bodies_through_hand(engine, where) for line in body.split(SEPARATOR)]


def same_replay(native: HandReplay, reference: HandReplay) -> None:
    """Every field a dispute report renders from, compared. The rejected lines too: a
    replay started from a checkpoint names the first five of the table's rejected lines
    before it and counts the rest (``rejected_unnamed``), then lists every later one."""
    assert native.record is not None and reference.record is not None
    assert encode_record(native.record) == encode_record(reference.record)
    assert native.hand_input == reference.hand_input
    assert native.outcome == reference.outcome
    assert native.outcome_note == reference.outcome_note
    assert native.events == reference.events
    assert native.before == reference.before and native.after == reference.after
    expected = reference.rejected_lines
    if native.rejected_unnamed:
        expected = expected[:5] + expected[5 + native.rejected_unnamed:]
    assert native.rejected_lines == expected
