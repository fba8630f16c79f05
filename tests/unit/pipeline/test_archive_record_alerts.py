"""The Kafka path keeps a tampered event with the alert that reported it, whatever the
order in which the archive service reads its topics.

The adjudicator sends its stream alerts on ``alerts`` and its segments on ``archive``;
the archive service reads both, in no order between them. Before 2026-12-07 a segment
could be kept in a transaction before the alert about one of its events, and ``verify``
read that tampering as a change made to the archive ("at intake: no") until the alert
came. The alerts now travel in the ``archive`` records too: here the service reads the
``archive`` topic alone (the ``alerts`` partition as far behind as it can be), its
records one transaction each as ``ArchiveService.handle`` keeps them, and is stopped
part way. On SQLite and PostgreSQL.
"""

from __future__ import annotations

import msgspec
import pytest
from aiokafka import ConsumerRecord
from sqlalchemy import Engine

from services.archive.segment import ArchiveRecord, decode_batch
from services.archive.verify import verify_archive
from services.pipeline.archive_service import decode_messages, keep_batch
from services.pipeline.step import InputRecord, Outgoing, PartitionTables
from services.pipeline.topics import TopicNames
from tests.profiles import PROFILES
from tests.unit.archive.support import simulated_log

TOPICS = TopicNames.with_prefix("u-")
BATCH = 150  # input records a batch (about two hands)


def adjudicated(lines: tuple[bytes, ...], engine: str) -> list[Outgoing]:
    """The log through one partition's tables in batches, as the worker takes it."""
    tables = PartitionTables(TOPICS, 0, PROFILES, engine, archive=True)
    records = [InputRecord(TOPICS.events, 0, offset, _table_key(value), value)
               for offset, value in enumerate(lines)]
    out: list[Outgoing] = []
    for start in range(0, len(records), BATCH):
        out += tables.process(records[start:start + BATCH]).outgoing
    return out


def _table_key(value: bytes) -> bytes:
    marker = b'"table_id":"'
    start = value.index(marker) + len(marker)
    return value[start:value.index(b'"', start)]


def as_consumed(out: list[Outgoing], topic: str) -> list[ConsumerRecord[bytes, bytes]]:
    values = [o.value for o in out if o.topic == topic and o.value is not None]
    return [ConsumerRecord(topic, 0, offset, 0, 0, None, value, None, 0, len(value), ())
            for offset, value in enumerate(values)]


@pytest.mark.parametrize("kept_share", [0.4, 0.75, 1.0])
@pytest.mark.parametrize("adjudicator", ["native", "python"])
def test_the_archive_topic_alone_keeps_every_tampering_as_received(
        engine: Engine, adjudicator: str, kept_share: float) -> None:
    log = simulated_log()
    out = adjudicated(log.lines, adjudicator)
    stream_alerts = [o for o in out if o.topic == TOPICS.alerts]
    assert stream_alerts  # the log has tampered events: the stream reported them
    archive = as_consumed(out, TOPICS.archive)
    for record in archive[:max(1, int(len(archive) * kept_share))]:
        keep_batch(engine, decode_messages([record], TOPICS))
    report = verify_archive(engine)
    assert any(b.kind == "altered" and b.at_intake for b in report.breaks)
    assert [b for b in report.breaks if not b.at_intake] == []


def test_the_archive_records_carry_the_stream_alerts_byte_for_byte() -> None:
    """The alerts of the ``archive`` records, in order, are the ``alerts`` topic's
    records, byte for byte: the alert kept is the alert sent."""
    out = adjudicated(simulated_log().lines, "native")
    on_alerts = [o.value for o in out if o.topic == TOPICS.alerts]
    carried = [alert for record in as_consumed(out, TOPICS.archive)
               for alert in decode_batch(record.value or b"").alerts]
    assert on_alerts and carried == on_alerts


def test_an_archive_record_of_an_older_adjudicator_still_reads() -> None:
    """Adjudicators before 2026-12-07 sent a plain list of segments: still segments,
    no alerts (a topic keeps them 30 days across an upgrade)."""
    out = adjudicated(simulated_log().lines, "native")
    segments = [s for record in as_consumed(out, TOPICS.archive)
                for s in decode_batch(record.value or b"").segments]
    old = msgspec.msgpack.encode(segments[:3])
    assert decode_batch(old) == ArchiveRecord(segments[:3], [])
