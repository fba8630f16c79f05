"""The event archive on the Kafka pipeline: the archive service killed with SIGKILL in
the middle of the stream, twice (after a batch's database commit and before its offsets;
in the middle of a batch, before its commit), then restarted: the archive equals the
input, no event missing or doubled; so do the alerts and the cases' evidence.

The expected archive is the embedded run's (the same step: every segment the runner cuts
while the log lasts, packed as the adjudicator sends them; the segments the embedded run
cuts at the end of its input are not cut on a stream that goes on).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import orjson
import sqlalchemy as sa

from services.adjudicator.embedded import EmbeddedRunner
from services.archive.alerts import alert_key
from services.archive.segment import event_lines, pack_parts
from services.cases.intake import evidence_of
from services.events.contract import AdjudicationRecord, Alert
from services.simulator.run import available_faults, simulate
from tests.integration.pipeline_support import (
    Pipeline,
    Worker,
    create_database,
    drop_database,
)
from tests.profiles import HOUSE, PROFILES
from tests.unit.cli.helpers import pitwatch

Key = tuple[str, int, int]


def the_log() -> list[bytes]:
    faults = frozenset(available_faults("hcf"))
    log = simulate(["hcf"], 4, 60, 11, faults, fault_rate=0.03, profile=HOUSE)
    return [orjson.dumps(e) for e in log.events]


def embedded(lines: list[bytes]) -> tuple[dict[Key, list[bytes]], list[Alert],
                                          list[AdjudicationRecord]]:
    runner = EmbeddedRunner(PROFILES, archive=True)
    segments: dict[Key, list[bytes]] = {}
    alerts: list[Alert] = []
    records: list[AdjudicationRecord] = []
    for n, raw in enumerate(lines):
        step = runner.feed(raw, f"line {n}")
        alerts += step.alerts
        records += step.records
        for segment in step.archive:
            for part in pack_parts(segment):
                segments[(part.table_id, part.head_seq, part.ordinal)] = event_lines(
                    part.codec, part.body)
    return segments, alerts, records


def stored(url: str, sql: str) -> list[tuple[object, ...]]:
    engine = sa.create_engine(url, poolclass=sa.pool.NullPool)
    try:
        with engine.connect() as conn:
            return [tuple(row) for row in conn.execute(sa.text(sql))]
    except sa.exc.ProgrammingError:  # not migrated yet: the service is still starting
        return []
    finally:
        engine.dispose()


def archived(url: str) -> dict[Key, list[bytes]]:
    rows = stored(url, "SELECT table_id, head_seq, ordinal, codec, body FROM archive_segments")
    return {(str(t), int(h), int(o)): event_lines(str(c), bytes(b))  # type: ignore[call-overload]
            for t, h, o, c, b in rows}


def killed(p: Pipeline, worker: Worker) -> None:
    p.wait_until(lambda: worker.killed_at_failpoint, f"{worker.name} killed at "
                                                     f"{worker.failpoint}")


def test_the_archive_service_killed_mid_stream_keeps_every_event_once(
        kafka_bootstrap: str, pg_url: str, tmp_path: Path) -> None:
    lines = the_log()
    segments, alerts, records = embedded(lines)
    db = create_database(pg_url, "pw_archive")
    p = Pipeline(kafka_bootstrap, tmp_path, db, partitions=2)
    try:
        p.create_topics()
        # Small batches, so that the archive comes in many records and each kill lands
        # with work left (one archive record per adjudicator batch and partition).
        p.start_adjudicator(batch_max=100, archive=True)
        first = p.start_archive("archive-1", batch=20, failpoint="archived:3")
        p.produce_lines(lines)
        killed(p, first)
        # Killed after its third batch was stored and before its offsets were committed:
        # those batches come again. Which topics the three batches held (segments, records,
        # alerts) depends on timing, so only "work left" is certain here.
        assert len(archived(db)) < len(segments), "the kill must land with work left"
        second = p.start_archive("archive-2", batch=20, failpoint="polled:3")
        killed(p, second)
        assert len(archived(db)) < len(segments), "the kill must land with work left"
        p.start_archive("archive-3", batch=20)
        p.wait_until(lambda: len(archived(db)) >= len(segments), "every segment archived")
        p.wait_until(lambda: len(stored(db, "SELECT alert_id FROM archive_alerts"))
                     >= len({alert_key(a) for a in alerts}), "every alert archived")
        p.wait_until(lambda: len(stored(db, "SELECT source_id FROM case_evidence"))
                     >= len(evidence_of(records, alerts)), "every case's evidence")
        assert archived(db) == segments
        events = Counter(line for body in archived(db).values() for line in body)
        assert max(events.values()) == 1  # no event doubled
        assert sorted(str(a) for (a,) in stored(db, "SELECT alert_id FROM archive_alerts")) == \
            sorted({alert_key(a) for a in alerts})
        assert sorted(str(s) for (s,) in stored(db, "SELECT source_id FROM case_evidence")) == \
            sorted(e.source_id for e in evidence_of(records, alerts))
        subjects = stored(db, "SELECT subject FROM cases")
        assert len(subjects) == len(set(subjects))  # one case per subject, none twice
    finally:
        p.close()
        drop_database(db)


def test_the_archiving_adjudicator_killed_mid_stream_archives_every_event_once(
        kafka_bootstrap: str, pg_url: str, tmp_path: Path) -> None:
    """The adjudicator (the native engine, archiving) killed with SIGKILL after a batch's
    outputs were acknowledged and before its states were stored, then after its states
    were stored and before its offsets were committed: each restart restores the tables
    (their runs between hands and open hands' cuts included) and emits again what was
    lost; the archive holds every segment of the embedded run exactly, no event doubled."""
    lines = the_log()
    segments, _, _ = embedded(lines)
    db = create_database(pg_url, "pw_archive")
    p = Pipeline(kafka_bootstrap, tmp_path, db, partitions=2)
    try:
        p.create_topics()
        p.start_archive("archive", batch=50)
        p.produce_lines(lines)
        for n, point in enumerate(["delivered:4", "checkpointed:3"], start=1):
            # A checkpoint every 2 batches as well: by time alone, the native engine read
            # the whole backlog before its 3rd checkpoint, and the kill never came.
            worker = p.start_adjudicator(f"adjudicator-{n}", failpoint=point, batch_max=100,
                                         checkpoint_seconds=0.2, archive=True,
                                         engine="native", checkpoint_batches=2)
            killed(p, worker)
            assert len(archived(db)) < len(segments), "the kill must land with work left"
        p.start_adjudicator("adjudicator-3", batch_max=100, archive=True, engine="native")
        p.wait_until(lambda: len(archived(db)) >= len(segments), "every segment archived")
        assert archived(db) == segments
        events = Counter(line for body in archived(db).values() for line in body)
        assert max(events.values()) == 1 and sum(events.values()) == sum(
            len(body) for body in segments.values())
    finally:
        p.close()
        drop_database(db)


def test_what_the_pipeline_keeps_verifies_clean(kafka_bootstrap: str, pg_url: str,
                                                tmp_path: Path) -> None:
    """The adjudicator, the ledger service and the archive service on one database, the
    ledger killed once mid-stream: when everything is in, ``pitwatch verify`` (every chain
    and its end, every booked hand's rows against its record, every case against its
    trail, every alert in a case) finds nothing but the breaks the stream had when it
    arrived, and exits 0. The checks that no lag may set off (an archived hand the ledger
    has not booked yet, an alert whose case is still coming) hold on what a finished
    pipeline leaves."""
    lines = the_log()
    segments, alerts, records = embedded(lines)
    db = create_database(pg_url, "pw_verify")
    p = Pipeline(kafka_bootstrap, tmp_path, db, partitions=2)
    try:
        p.create_topics()
        p.start_adjudicator(batch_max=100, archive=True)
        p.start_archive("archive", batch=50)
        first = p.start_ledger("ledger-1", batch=40, failpoint="booked:2")
        p.produce_lines(lines)
        killed(p, first)
        assert len(stored(db, "SELECT hand_id FROM hands")) < len(records), \
            "the kill must land with work left"
        p.start_ledger("ledger-2", batch=40)
        p.wait_until(lambda: len(archived(db)) >= len(segments), "every segment archived")
        p.wait_until(lambda: len(stored(db, "SELECT hand_id FROM hands")) >= len(records),
                     "every hand booked")
        p.wait_until(lambda: len(stored(db, "SELECT source_id FROM case_evidence"))
                     >= len(evidence_of(records, alerts)), "every case's evidence")
        found = pitwatch("verify", "--db", db, "--format", "json")
        body = orjson.loads(found.stdout)
        assert found.code == 0, body["breaks"]
        assert body["hands"] == len(records) and body["cases"] > 0
        assert {b["at intake"] for b in body["breaks"]} <= {"yes"}
        assert [b for b in body["breaks"] if b["kind"] in ("ledger", "case", "end")] == []
    finally:
        p.close()
        drop_database(db)
