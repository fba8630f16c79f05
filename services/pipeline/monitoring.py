"""The one-line calls the Kafka services make to be monitored.

The services stay about their work; each calls into this module once per concern:

adjudicator (services/pipeline/worker.py)::

    start_adjudicator_monitoring(settings.bootstrap, settings.group,
                                 settings.topics.events, settings.topics.dlq)
    ...
    await self._deliver(outgoing)
    observe_adjudicator_batch(outgoing, topics, consumed=consumed)

ledger (services/pipeline/ledger_service.py)::

    start_ledger_monitoring(settings.bootstrap, settings.group_id, settings.topic)
    ...
    statuses = await asyncio.to_thread(timed_ledger_write, book, self.engine, records)
    ledger_metrics().observe_undecodable(bad)

surveillance (services/pipeline/surveillance_service.py)::

    start_surveillance_monitoring()
    ...
    surveillance_metrics().observe_output(out, self.step)
    await observe_surveillance_lag(consumer, tps, replay_end, merge.buffered)

The surveillance service has no consumer group (it assigns itself every partition and
commits nothing), so the broker cannot tell its lag: it reports its own position
instead, once per poll (``observe_surveillance_lag``), from numbers the consumer already
holds.

Why the adjudicator is observed from what it *produced* (the batch's outgoing records,
after the broker acknowledged them) rather than inside the processing step: the latency
the floor cares about ends when the adjudication is on the topic, and observing after
delivery counts each hand once per delivery, never for a batch that failed and will be
re-processed. The records are decoded again for that (only the fields read, with msgspec).
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Final, Protocol

import msgspec
import typer
from aiokafka import TopicPartition

from services.observability.archive_metrics import archive_metrics
from services.observability.metrics import (
    AdjudicatorMetrics,
    SurveillanceMetrics,
    adjudicator_metrics,
    ledger_metrics,
    surveillance_metrics,
)
from services.observability.server import SettingError, metrics_port_from_env, serve_metrics
from services.pipeline.kafka_watch import DEFAULT_INTERVAL_S, KafkaWatch, start_kafka_watch
from services.pipeline.step import REASON_HEADER

WATCH_INTERVAL_ENV: Final = "PITWATCH_KAFKA_WATCH_SECONDS"


class OutgoingLike(Protocol):
    """A produced record (services.pipeline.step.Outgoing)."""

    @property
    def topic(self) -> str: ...
    @property
    def value(self) -> bytes | None: ...
    @property
    def headers(self) -> Sequence[tuple[str, bytes | None]]: ...


class TopicsLike(Protocol):
    """The output topic names (services.pipeline.topics.TopicNames)."""

    @property
    def adjudications(self) -> str: ...
    @property
    def alerts(self) -> str: ...
    @property
    def dlq(self) -> str: ...


class _FindingView(msgspec.Struct):
    code: str
    rule: str
    severity: str
    amount: int | None


class _MovementView(msgspec.Struct):
    amount: int
    kind: str
    from_: str = msgspec.field(name="from")
    to: str


class _RecordView(msgspec.Struct):
    """The fields of an adjudication record the metrics read: decoding only these (the
    expected and recorded sides are skipped) halves the cost per hand."""

    table_id: str
    game: str | None
    status: str
    findings: list[_FindingView]
    players: dict[str, str] | None = None
    dealer_id: str | None = None
    rake_mode: str | None = None
    ended_at: str | None = None
    movements: list[_MovementView] | None = None


class _AlertView(msgspec.Struct):
    """The fields of an alert (topic ``alerts``) the metrics read."""

    table_id: str
    code: str
    rule: str
    severity: str


_record_decoder = msgspec.json.Decoder(_RecordView)
_alert_decoder = msgspec.json.Decoder(_AlertView)


def watch_interval_s() -> float:
    """Seconds between two looks at the broker's lag (a pause, not money: a float)."""
    value = os.environ.get(WATCH_INTERVAL_ENV)
    if not value:
        return DEFAULT_INTERVAL_S
    try:
        seconds = float(value)
    except ValueError:
        seconds = math.nan
    if not (math.isfinite(seconds) and seconds > 0):
        raise SettingError(WATCH_INTERVAL_ENV, f"{WATCH_INTERVAL_ENV}={value!r} is not a "
                                               "number of seconds above 0")
    return seconds


def check_monitoring_settings(service: str) -> None:
    """The environment's metrics port and lag-watch interval for ``service``, checked
    when the command starts, before it connects anywhere: ``PITWATCH_METRICS_PORT=abc``
    was a ValueError traceback once the broker had been reached, and
    ``PITWATCH_KAFKA_WATCH_SECONDS=abc`` one in the watch's thread. A bad value is the
    command line's one-line error (exit 2)."""
    try:
        metrics_port_from_env(service)
        if service in ("adjudicator", "ledger", "archive"):
            watch_interval_s()
    except SettingError as exc:
        raise typer.BadParameter(str(exc), param_hint=exc.variable) from None


def start_adjudicator_monitoring(bootstrap: str, group: str, events_topic: str,
                                 dlq_topic: str) -> tuple[int | None, KafkaWatch]:
    """``/metrics`` of the adjudicator and the broker-side watch of its consumer group's
    lag on ``events_topic`` and of the DLQ's size. Returns (metrics port, watch)."""
    adjudicator_metrics()  # the series exist (at zero) from the first scrape
    port = serve_metrics("adjudicator")
    watch = start_kafka_watch(bootstrap, [(group, events_topic)], [dlq_topic],
                              watch_interval_s())
    return port, watch


def start_ledger_monitoring(bootstrap: str, group: str,
                            topic: str) -> tuple[int | None, KafkaWatch]:
    """``/metrics`` of the ledger service and the watch of its group's lag on ``topic``."""
    ledger_metrics()
    port = serve_metrics("ledger")
    watch = start_kafka_watch(bootstrap, [(group, topic)], (), watch_interval_s())
    return port, watch


def start_archive_monitoring(bootstrap: str, group: str, topics: Sequence[str]
                             ) -> tuple[int | None, KafkaWatch]:
    """``/metrics`` of the archive service (default port 9405) and the watch of its
    group's lag on each of ``topics``: a stalled archive showed no lag anywhere (QA)."""
    archive_metrics()
    port = serve_metrics("archive")
    watch = start_kafka_watch(bootstrap, [(group, topic) for topic in topics], (),
                              watch_interval_s())
    return port, watch


def start_surveillance_monitoring() -> int | None:
    """``/metrics`` of the surveillance service (default port 9403). No broker watch: the
    service has no consumer group whose lag the broker could report (see the module
    docstring). Returns the metrics port, or None when not served."""
    surveillance_metrics()
    return serve_metrics("surveillance")


class PositionsLike(Protocol):
    """What the lag is read from (aiokafka's ``AIOKafkaConsumer``)."""

    async def position(self, partition: TopicPartition, /) -> int: ...
    def highwater(self, partition: TopicPartition, /) -> int | None: ...


async def observe_surveillance_lag(consumer: PositionsLike, tps: Iterable[TopicPartition],
                                   replay_end: Mapping[TopicPartition, int],
                                   buffered: Callable[[int], int],
                                   metrics: SurveillanceMetrics | None = None) -> None:
    """Per partition: the records up to its end (the high watermark last fetched, or
    the end offset taken at start if larger) from the consumer's position, plus those
    fetched and still waiting in the merge (``buffered(partition)``). Both are local to
    the consumer: no request to the broker."""
    metrics = metrics or surveillance_metrics()
    for tp in tps:
        position = await consumer.position(tp)
        end = max(replay_end.get(tp, 0), consumer.highwater(tp) or 0, position)
        metrics.set_lag(tp.partition, end - position + buffered(tp.partition))


def observe_adjudicator_batch(outgoing: Iterable[OutgoingLike], topics: TopicsLike,
                              consumed: int, now: float | None = None,
                              metrics: AdjudicatorMetrics | None = None) -> None:
    """One delivered batch: ``consumed`` input records and what they produced."""
    metrics = metrics or adjudicator_metrics()
    now = time.time() if now is None else now
    metrics.observe_consumed(consumed)
    for record in outgoing:
        if record.value is None:
            if record.topic == topics.dlq:
                metrics.observe_rejected(_reason(record.headers))
            continue
        if record.topic == topics.adjudications:
            metrics.observe_record(_record_decoder.decode(record.value), now)
        elif record.topic == topics.alerts:
            metrics.observe_alert(_alert_decoder.decode(record.value))
        elif record.topic == topics.dlq:
            metrics.observe_rejected(_reason(record.headers))


def _reason(headers: Sequence[tuple[str, bytes | None]]) -> str:
    """The DLQ reason header of a record (the last one: the input may carry its own)."""
    reasons = [value for key, value in headers if key == REASON_HEADER and value is not None]
    return reasons[-1].decode("utf-8", "replace") if reasons else ""
