"""The Kafka pipeline end to end: a simulated log through Kafka, the Faust adjudicator
and the ledger service on PostgreSQL gives exactly what the embedded run gives.
"""

from __future__ import annotations

from tests.integration import pipeline_fixtures
from tests.integration.pipeline_fixtures import EventLog, PipelineFactory
from tests.integration.pipeline_support import deduplicated, ledger_snapshot

event_log = pipeline_fixtures.event_log
pipeline = pipeline_fixtures.pipeline


def test_end_to_end_equals_the_embedded_run(event_log: EventLog,
                                            pipeline: PipelineFactory) -> None:
    """Every hand once, byte-identical to ``pitwatch adjudicate``; the same ledger."""
    p = pipeline(partitions=3)
    p.start_adjudicator()
    p.start_ledger()
    p.produce_lines(event_log.lines)
    expected = event_log.reference.records
    p.wait_for_hands(len(expected))
    p.wait_for_ledger(len(expected))

    seen = p.hands_seen()
    assert {hand: len(values) for hand, values in seen.items() if len(values) > 1} == {}
    assert deduplicated(seen) == expected
    assert p.dead_letters() == []
    assert ledger_snapshot(p.db_url) == event_log.ledger
