"""``pitwatch serve surveillance`` feeds the records its merge releases to the step a
chunk at a time (``SurveillanceService._process``), not one by one: what it publishes and
counts must be what the step fed each record alone gives (the service before), however
the records are cut.

No broker here: the records are ``ConsumerRecord``s as aiokafka delivers them, the
producer a stand-in that keeps what is sent. The log is the sweetheart scenario (SURV-2
alerts, a periodic SURV-8 review every 40 hands) with hostile records in it (not JSON, an
empty object, an event sent again), on both engines.
"""

from __future__ import annotations

import asyncio
from typing import Any, cast

import msgspec
import pytest
from aiokafka import AIOKafkaProducer
from aiokafka.structs import ConsumerRecord
from prometheus_client import CollectorRegistry

from services.observability.metrics import SurveillanceMetrics
from services.pipeline import surveillance_service
from services.pipeline.surveillance_service import (
    SurveillanceService,
    SurveillanceServiceSettings,
)
from services.surveillance.run import SurveillanceStep
from tests.profiles import PROFILES
from tests.unit.surveillance.scenario import config
from tests.unit.surveillance.sweetheart import sweethearting_log

REVIEW_EVERY = 40
THRESHOLDS = config(sweethearting={"min_count": 3, "p_value": 0.01},
                    drift={"min_hands": 20, "min_count": 2, "p_value": 0.5})


def _log() -> list[bytes]:
    lines = sweethearting_log(3, 60, seed=5)
    for at, line in sorted([(10, b"not json"), (200, b"{}"), (400, lines[399])],
                           reverse=True):
        lines.insert(at, line)
    return lines


class _Producer:
    def __init__(self) -> None:
        self.sent: list[bytes] = []

    async def send_and_wait(self, topic: str, value: bytes, key: bytes,
                            headers: list[tuple[str, bytes]]) -> None:
        self.sent.append(value)


def _records(lines: list[bytes]) -> list[ConsumerRecord[bytes, bytes]]:
    return [ConsumerRecord("table-events", 0, offset, 0, 0, None, line, None, 0, len(line),
                           []) for offset, line in enumerate(lines)]


@pytest.mark.parametrize("engine", ["native", "python"])
@pytest.mark.parametrize("chunk", [1, 7, 4096])
def test_chunks_publish_and_count_what_the_lines_give(
        engine: str, chunk: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PITWATCH_ENGINE", engine)
    registry = CollectorRegistry()
    watched = SurveillanceMetrics(registry)
    monkeypatch.setattr(surveillance_service, "surveillance_metrics", lambda: watched)
    lines = _log()
    one_by_one = SurveillanceStep(THRESHOLDS, PROFILES, review_every=REVIEW_EVERY)
    outputs = [one_by_one.feed(line, f"partition 0 offset {offset}")
               for offset, line in enumerate(lines)]
    alerts = [a for out in outputs for a in out.alerts]
    dead_letters = [d for out in outputs for d in out.dead_letters]
    hands = sum(out.hands_surveilled for out in outputs)
    rules = {a.rule for a in alerts}
    assert {"SURV-2", "SURV-8"} <= rules and len(dead_letters) >= 2 and hands >= 150

    service = SurveillanceService(SurveillanceServiceSettings(review_every=REVIEW_EVERY),
                                  THRESHOLDS)
    producer = _Producer()
    records = _records(lines)

    async def run() -> None:
        for start in range(0, len(records), chunk):
            await service._process(cast(AIOKafkaProducer, producer),
                                   records[start:start + chunk])

    asyncio.run(run())
    assert producer.sent == [msgspec.json.encode(a) for a in alerts]
    assert service.counts.records == len(lines)
    assert service.counts.hands == hands
    assert service.counts.dead_letters == len(dead_letters)
    consumed: Any = registry.get_sample_value("pitwatch_surveillance_records_consumed_total")
    assert consumed == len(lines)
