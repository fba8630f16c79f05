"""Every Prometheus metric pitwatch exports, defined once, and how each is observed.

One class per service, because each service exports only what it does (a ledger
process reporting ``pitwatch_hands_adjudicated_total 0`` would be a lie on a dashboard):

- ``AdjudicatorMetrics`` — the adjudicator (Faust worker or embedded runner): events
  consumed and rejected, hands adjudicated, findings, chips, latency, surveillance alerts
  and hash-chain failures.
- ``LedgerMetrics`` — the ledger service: hands booked by status, write latency, failures,
  and the money booked (drop, payouts, rake: the daily report's figures, which the
  dashboards' money panels show; ``money``).
- ``KafkaWatchMetrics`` — what ``kafka_watch`` reads from the broker: consumer lag per
  partition and the size of the dead-letter topic.
- ``SurveillanceMetrics`` — the cross-hand surveillance service (SURV-2..8): records
  consumed and skipped, hands surveilled, alerts produced, reviews, the replay at start
  and how far behind the end of each partition it is.

Four groups, then: the last one has its own names (``pitwatch_surveillance_*``) although
it also consumes table-events and produces alerts, because its records and alerts are
not the adjudicator's (the adjudicator's ``pitwatch_alerts_total`` counts SURV-9, GEN-4 and GEN-5).

Names and units follow the Prometheus conventions: counters end in ``_total``, durations
are ``_seconds``, chips (the table's minor unit, the base unit here) are ``_chips_total``.
Labels are bounded (see ``labels``): never a player id or a hand id.

Services use the process-wide instances (``adjudicator_metrics()`` ...) registered in
prometheus-client's default registry, which also carries the ``process_*`` and
``python_*`` metrics; tests pass a fresh ``CollectorRegistry``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime
from functools import cache
from typing import Final, ParamSpec, TypeVar

import msgspec
from prometheus_client import REGISTRY, CollectorRegistry, Counter, Gauge, Histogram

from services.observability import labels
from services.observability.money import MoneyCounters, hand_chips
from services.observability.views import (
    AlertLike,
    OutputsLike,
    RecordLike,
    ReviewScheduleLike,
    StepResultLike,
    SurveillanceOutputLike,
)

# hand_ended -> record produced. The pipeline's target is p99 <= 250 ms at 200 hands/s
# (architecture.md), so the buckets are fine around it and coarse far from it.
ADJUDICATION_LATENCY_BUCKETS: Final = (
    0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0,
)
LEDGER_WRITE_BUCKETS: Final = (
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
)
# The latency compares the table's clock with ours. A table clock ahead of ours by more
# than this is skew, not latency; a hand that ended more than MAX_LIVE_LATENCY_S ago is a
# replay of an old log, not live traffic. Neither is observed in the histogram (it would
# bury the live percentiles); both are counted in pitwatch_latency_unmeasured_total.
CLOCK_TOLERANCE_S: Final = 1.0
MAX_LIVE_LATENCY_S: Final = 3600.0



def latency_or_reason(ended_at: str | None, now: float) -> float | str:
    """Seconds from ``hand_ended`` (table clock) to ``now``, or why it is not measured."""
    if ended_at is None:
        return "no_timestamp"
    try:
        ended = datetime.fromisoformat(ended_at).timestamp()
    except ValueError:
        return "no_timestamp"
    seconds = now - ended
    if seconds < -CLOCK_TOLERANCE_S:
        return "table_clock_ahead"
    if seconds > MAX_LIVE_LATENCY_S:
        return "replayed"
    return max(seconds, 0.0)


class AdjudicatorMetrics:
    """The adjudicator's metrics and the functions that feed them."""

    def __init__(self, registry: CollectorRegistry = REGISTRY) -> None:
        # Children by (metric, label values): ``labels()`` costs microseconds per call
        # and a hand needs a dozen; the label values are bounded, so is this dict.
        self._children: dict[tuple[int, tuple[str, ...]], Counter] = {}
        self._seen: set[tuple[str, ...]] = set()  # label values whose series exist (at 0)
        self.tables = labels.BoundedValues(labels.MAX_TABLES)
        self.dealers = labels.BoundedValues(labels.MAX_DEALERS)
        self.events_consumed = Counter(
            "pitwatch_events_consumed_total",
            "Input records (table events) taken from the input topic or file.",
            registry=registry)
        self.events_rejected = Counter(
            "pitwatch_events_rejected_total",
            "Input records not applied, by reason class: malformed, schema, oversize, key, "
            "orphan (dead-lettered) or duplicate, chain (refused by the hash-chain check).",
            ["reason"], registry=registry)
        self.hands = Counter(
            "pitwatch_hands_adjudicated_total",
            "Hands adjudicated (one adjudication record each), by table, game and status.",
            ["table", "game", "status"], registry=registry)
        self.findings = Counter(
            "pitwatch_findings_total",
            "Findings on adjudicated hands, by game, rule ID, finding code, severity and "
            "category (settlement, integrity, procedure).",
            ["game", "rule", "code", "severity", "category"], registry=registry)
        self.table_findings = Counter(
            "pitwatch_table_findings_total",
            "Findings on adjudicated hands by table, category and severity.",
            ["table", "category", "severity"], registry=registry)
        self.mispays = Counter(
            "pitwatch_mispays_total",
            "MISPAY findings by table, dealer (employee id) and game.",
            ["table", "dealer", "game"], registry=registry)
        self.mispaid_chips = Counter(
            "pitwatch_mispaid_chips_total",
            "Chips by which seats were mispaid (absolute difference), by table, dealer, game.",
            ["table", "dealer", "game"], registry=registry)
        # Money of adjudicated hands, by the report's definitions (``money``): every
        # hand as it is adjudicated, those the ledger will refuse too (the booked
        # figures, the report's, are ``LedgerMetrics``').
        self.money = MoneyCounters({
            "drop": ("pitwatch_wagered_chips_total",
                     "Drop of adjudicated hands: chips wagered on layouts and bet into "
                     "pots, not in a dead hand (the report's drop), recorded side."),
            "payouts": ("pitwatch_paid_chips_total",
                        "Chips paid to seats by payout events, not a dead hand's refunds "
                        "(the report's payouts), recorded side, adjudicated hands."),
            "collected": ("pitwatch_collected_chips_total",
                          "Losing wagers and collections taken by the banker (the house, "
                          "or a banking player from a layout), recorded side, adjudicated "
                          "hands; not chips seats paid each other (Chinese Poker: "
                          "pitwatch_between_players_chips_total)."),
            "between": ("pitwatch_between_players_chips_total",
                        "Chips one seat's stack paid another's directly (Chinese Poker's "
                        "points; the report's 'between players'), recorded side, "
                        "adjudicated hands."),
            "rake": ("pitwatch_raked_chips_total",
                     "Rake taken by the house net of rake refunds (a dead hand's refunded "
                     "rake is none; the report's rake), recorded side, adjudicated hands, "
                     "by game and posted rake mode."),
        }, registry)
        counters = self.money.counters
        self.wagered, self.paid = counters["drop"], counters["payouts"]
        self.collected, self.between = counters["collected"], counters["between"]
        self.raked = counters["rake"]
        self.latency = Histogram(
            "pitwatch_adjudication_latency_seconds",
            "From a hand's hand_ended timestamp (table clock) to its adjudication record "
            "being produced.",
            buckets=ADJUDICATION_LATENCY_BUCKETS, registry=registry)
        self.latency_unmeasured = Counter(
            "pitwatch_latency_unmeasured_total",
            "Hands left out of the latency histogram: no_timestamp, table_clock_ahead, "
            "replayed (ended more than an hour ago).",
            ["reason"], registry=registry)
        self.alerts = Counter(
            "pitwatch_alerts_total",
            "Surveillance alerts (topic alerts) by rule, code and severity.",
            ["rule", "code", "severity"], registry=registry)
        self.chain_failures = Counter(
            "pitwatch_chain_failures_total",
            "Hash-chain and sequence failures of a table's event stream (SURV-9), by table "
            "and code.",
            ["table", "code"], registry=registry)
        # Known, closed label sets start at zero so that "none so far" is data, not absence.
        for reason in sorted(labels.REASON_CLASSES):
            self.events_rejected.labels(reason=reason)
        for why in ("no_timestamp", "table_clock_ahead", "replayed"):
            self.latency_unmeasured.labels(reason=why)

    def _child(self, metric: Counter, *values: str) -> Counter:
        key = (id(metric), values)
        child = self._children.get(key)
        if child is None:
            child = self._children[key] = metric.labels(*values)
        return child

    def _start_at_zero(self, table: str, game: str | None = None,
                       dealer: str | None = None) -> None:
        """Create, at 0, the series a table (a table and game, a table, dealer and game)
        may count, as soon as those labels are known: a series born at 1 has no
        increase(), so a first chain failure, critical finding or mispay would not alert.
        Bounded: tables and dealers are (``labels.BoundedValues``), codes, categories,
        severities and statuses are closed sets."""
        key = (table,) if game is None else (table, game, dealer or "")
        if key in self._seen:
            return
        self._seen.add(key)
        if game is None:
            for code in sorted(labels.CHAIN_FAILURE_CODES):
                self._child(self.chain_failures, table, code)
            for category in sorted(labels.FINDING_CATEGORIES):
                for severity in sorted(labels.SEVERITIES):
                    self._child(self.table_findings, table, category, severity)
        elif dealer is None:
            for status in sorted(labels.HAND_STATUSES):
                self._child(self.hands, table, game, status)
        else:
            self._child(self.mispays, table, dealer, game)
            self._child(self.mispaid_chips, table, dealer, game)

    # ------------------------------------------------------------ entry points

    def observe_consumed(self, count: int = 1) -> None:
        self.events_consumed.inc(count)

    def observe_rejected(self, reason: str) -> None:
        """One dead-lettered record; ``reason`` is the DLQ reason text."""
        self._child(self.events_rejected, labels.reason_class(reason)).inc()

    def observe_alert(self, alert: AlertLike) -> None:
        severity = labels.closed(alert.severity, labels.SEVERITIES)
        self._child(self.alerts, alert.rule, alert.code, severity).inc()
        table = self.tables(alert.table_id)
        self._start_at_zero(table)
        if alert.rule == "SURV-9" and alert.code in labels.CHAIN_FAILURE_CODES:
            self._child(self.chain_failures, table, alert.code).inc()
        rejected = labels.CHAIN_REJECTION_CLASSES.get(alert.code)
        if alert.rule == "SURV-9" and rejected is not None:
            self._child(self.events_rejected, rejected).inc()

    def observe_record(self, record: RecordLike, now: float | None = None) -> None:
        """One adjudication record, just produced (``now`` defaults to the clock)."""
        players = set((record.players or {}).values())
        table = labels.floor_id_label(record.table_id, players, self.tables)
        game = labels.closed(record.game, labels.GAMES)
        status = labels.closed(record.status, labels.HAND_STATUSES)
        self._start_at_zero(table)
        self._start_at_zero(table, game)
        dealer: str | None = None
        if record.dealer_id and game != labels.UNKNOWN:
            dealer = labels.floor_id_label(record.dealer_id, players, self.dealers)
            self._start_at_zero(table, game, dealer)
        self._child(self.hands, table, game, status).inc()
        for f in record.findings:
            severity = labels.closed(f.severity, labels.SEVERITIES)
            category = labels.finding_category(f.code, f.rule)
            self._child(self.findings, game, f.rule, f.code, severity, category).inc()
            self._child(self.table_findings, table, category, severity).inc()
            if f.code == "MISPAY":
                if dealer is None:
                    dealer = labels.floor_id_label(record.dealer_id, players, self.dealers)
                self._child(self.mispays, table, dealer, game).inc()
                self._child(self.mispaid_chips, table, dealer, game).inc(abs(f.amount or 0))
        self._observe_chips(record, game)
        self._observe_latency(record.ended_at, time.time() if now is None else now)

    def observe_outputs(self, out: OutputsLike, now: float | None = None) -> None:
        """Everything one ``apply_event`` call produced (the event itself is counted by
        ``observe_consumed``)."""
        for record in out.records:
            self.observe_record(record, now)
        for alert in out.alerts:
            self.observe_alert(alert)
        for reason in out.dlq:
            self.observe_rejected(reason)

    def observe_step(self, result: StepResultLike, consumed: int = 1,
                     now: float | None = None) -> None:
        """One ``EmbeddedRunner.feed`` (``consumed=1``) or ``finish`` (``consumed=0``)."""
        self.observe_consumed(consumed)
        for record in result.records:
            self.observe_record(record, now)
        for alert in result.alerts:
            self.observe_alert(alert)
        for dead in result.dead_letters:
            self.observe_rejected(dead.reason)

    # ------------------------------------------------------------ parts

    def _observe_chips(self, record: RecordLike, game: str) -> None:
        if not record.movements:
            return
        self.money.observe(game, labels.closed(record.rake_mode, labels.RAKE_MODES),
                           hand_chips(record.status, record.movements))

    def _observe_latency(self, ended_at: str | None, now: float) -> None:
        measured = latency_or_reason(ended_at, now)
        if isinstance(measured, str):
            self._child(self.latency_unmeasured, measured).inc()
        else:
            self.latency.observe(measured)


class LedgerMetrics:
    """The ledger service's metrics."""

    def __init__(self, registry: CollectorRegistry = REGISTRY) -> None:
        self.hands = Counter(
            "pitwatch_ledger_hands_total",
            "Adjudication records handled by the ledger, by status: posted, duplicate "
            "(same bytes again, a no-op), conflict, refused, undecodable.",
            ["status"], registry=registry)
        self.write_seconds = Histogram(
            "pitwatch_ledger_write_seconds",
            "Duration of one ledger write (one batch of records, its database transactions).",
            buckets=LEDGER_WRITE_BUCKETS, registry=registry)
        self.write_failures = Counter(
            "pitwatch_ledger_write_failures_total",
            "Ledger writes that failed: error (the write raised), or per hand conflict "
            "(repeat with different bytes), refused, undecodable (not a v1 record).",
            ["reason"], registry=registry)
        # The money the ledger booked, by the report's definitions (``money``): hands
        # posted only, so not a refused hand's chips (none are booked) nor a duplicate's
        # (booked before). These are the report's and ``ledger totals``' figures.
        self.booked = MoneyCounters({
            "drop": ("pitwatch_ledger_drop_chips_total",
                     "Drop booked: chips wagered on layouts and bet into pots in hands "
                     "posted to the ledger, not in a dead hand (the report's drop); a "
                     "refused hand books none."),
            "payouts": ("pitwatch_ledger_payout_chips_total",
                        "Payouts booked: chips paid to seats in hands posted to the "
                        "ledger, not a dead hand's refunds (the report's payouts)."),
            "rake": ("pitwatch_ledger_rake_chips_total",
                     "Rake booked to the house's rake account net of refunds, in hands "
                     "posted to the ledger (the report's rake), by game and posted mode."),
            "between": ("pitwatch_ledger_between_players_chips_total",
                        "Chips one seat's stack paid another's directly (Chinese Poker), "
                        "in hands posted to the ledger (the report's 'between players')."),
        }, registry)
        for status in sorted(labels.LEDGER_STATUSES):
            self.hands.labels(status=status)
        for reason in sorted(labels.LEDGER_FAILURE_REASONS):
            self.write_failures.labels(reason=reason)

    def observe_write(self, seconds: float, statuses: Mapping[str, int] | None) -> None:
        """One write that took ``seconds``; ``statuses`` counts its hands by status, or is
        None when the write failed as a whole."""
        self.write_seconds.observe(seconds)
        if statuses is None:
            self.write_failures.labels(reason="error").inc()
            return
        self.observe_statuses(statuses)

    def observe_statuses(self, statuses: Mapping[str, int]) -> None:
        """Hands handled, counted by ledger status (posted, duplicate, refused ...)."""
        for status, count in statuses.items():
            if count <= 0:
                continue
            known = labels.closed(status, labels.LEDGER_STATUSES)
            self.hands.labels(status=known).inc(count)
            if known in labels.LEDGER_FAILURE_REASONS:
                self.write_failures.labels(reason=known).inc(count)

    def observe_booked(self, records: Iterable[RecordLike]) -> None:
        """Hands just posted to the ledger (status ``posted``, committed): their money."""
        self.booked.observe_many(
            (labels.closed(record.game, labels.GAMES),
             labels.closed(record.rake_mode, labels.RAKE_MODES),
             hand_chips(record.status, record.movements)) for record in records)

    def observe_undecodable(self, count: int = 1) -> None:
        """Records on the adjudications topic that are not v1 records (never booked)."""
        if count > 0:
            self.hands.labels(status="undecodable").inc(count)
            self.write_failures.labels(reason="undecodable").inc(count)


P = ParamSpec("P")
S = TypeVar("S", bound=Mapping[str, int])


def timed_ledger_write(write: Callable[P, S], *args: P.args, **kwargs: P.kwargs) -> S:
    """Call ``write`` (e.g. the consumer's ``book``) and observe its duration and outcome.

    ``write`` returns counts by status (``Counter[str]``); an exception is a failed write,
    observed and re-raised unchanged.
    """
    started = time.perf_counter()
    try:
        statuses = write(*args, **kwargs)
    except BaseException:
        ledger_metrics().observe_write(time.perf_counter() - started, None)
        raise
    ledger_metrics().observe_write(time.perf_counter() - started, statuses)
    return statuses


class KafkaWatchMetrics:
    """What the broker says about the pipeline (``kafka_watch``)."""

    def __init__(self, registry: CollectorRegistry = REGISTRY) -> None:
        self.lag = Gauge(
            "pitwatch_consumer_lag_records",
            "Records of a partition not yet processed by a consumer group (log end offset "
            "minus the group's committed offset).",
            ["consumer_group", "topic", "partition"], registry=registry)
        self.dlq = Gauge(
            "pitwatch_dlq_records",
            "Records held in a dead-letter topic (end offsets minus start offsets).",
            ["topic"], registry=registry)
        self.polls = Counter(
            "pitwatch_kafka_watch_polls_total",
            "Reads of offsets from the broker by outcome (ok, error).",
            ["outcome"], registry=registry)
        for outcome in ("ok", "error"):
            self.polls.labels(outcome=outcome)

    def set_lag(self, group: str, lags: Iterable[tuple[str, int, int]]) -> None:
        """``lags``: (topic, partition, records behind) of one consumer group."""
        for topic, partition, behind in lags:
            self.lag.labels(consumer_group=group, topic=topic,
                            partition=str(partition)).set(max(behind, 0))

    def set_dlq(self, topic: str, records: int) -> None:
        self.dlq.labels(topic=topic).set(max(records, 0))


class SurveillanceMetrics:
    """The cross-hand surveillance service's metrics (services/pipeline/surveillance_service.py).

    The service replays table-events from the beginning at every start (its state is a
    function of the log), so most alerts it produces right after a start are the same
    alerts again, with the same ids. Alerts therefore carry ``phase``: ``replay`` while
    it catches up to the end offsets taken at start, ``live`` after. The page
    (PitwatchSurveillanceAlertCritical) reads only ``live``; a restart must not page.
    """

    def __init__(self, registry: CollectorRegistry = REGISTRY) -> None:
        self._replaying = False
        self.partitions = labels.BoundedValues(labels.MAX_PARTITIONS)
        self.consumed = Counter(
            "pitwatch_surveillance_records_consumed_total",
            "Records taken from table-events by the surveillance service (skipped ones "
            "included).",
            registry=registry)
        self.skipped = Counter(
            "pitwatch_surveillance_records_skipped_total",
            "Records not surveilled, by reason: malformed (no value, not JSON), schema "
            "(not an event envelope), rejected (dead-lettered by the adjudication).",
            ["reason"], registry=registry)
        self.hands = Counter(
            "pitwatch_surveillance_hands_total",
            "Hands observed by the surveillance engine (adjudicated, then surveilled).",
            registry=registry)
        self.alerts = Counter(
            "pitwatch_surveillance_alerts_total",
            "SURV-2..8 alerts produced to the alerts topic and acknowledged, by rule, code, "
            "severity and phase (replay: while catching up after a start; live: after).",
            ["rule", "code", "severity", "phase"], registry=registry)
        self.reviews = Counter(
            "pitwatch_surveillance_reviews_total",
            "SURV-8 / SURV-5 batch reviews run, by trigger: periodic (every review_every "
            "hands) or shutdown.",
            ["trigger"], registry=registry)
        self.replaying = Gauge(
            "pitwatch_surveillance_replaying",
            "1 while the service replays table-events up to the end offsets taken at its "
            "start, 0 once caught up.",
            registry=registry)
        self.replay_seconds = Gauge(
            "pitwatch_surveillance_replay_seconds",
            "Duration of the replay at the last start (set when it caught up).",
            registry=registry)
        self.lag = Gauge(
            "pitwatch_surveillance_lag_records",
            "Records of a table-events partition not yet surveilled: up to the partition's "
            "end (high watermark) from the consumer's position, plus those fetched and "
            "waiting in the merge.",
            ["partition"], registry=registry)
        # Closed label sets start at zero: an alert's first increase is then visible to
        # increase() (a series born at 1 has no increase), and "none" is data.
        for reason in sorted(labels.SURVEILLANCE_SKIP_REASONS):
            self.skipped.labels(reason=reason)
        for trigger in sorted(labels.REVIEW_TRIGGERS):
            self.reviews.labels(trigger=trigger)
        for rule, code in sorted(labels.SURVEILLANCE_CODES.items()):
            for severity in sorted(labels.SEVERITIES):
                for phase in sorted(labels.SURVEILLANCE_PHASES):
                    self.alerts.labels(rule, code, severity, phase)

    @property
    def phase(self) -> str:
        return "replay" if self._replaying else "live"

    def replay_started(self) -> None:
        """The service took the end offsets it replays up to."""
        self._replaying = True
        self.replaying.set(1)

    def replay_caught_up(self, seconds: float) -> None:
        self._replaying = False
        self.replaying.set(0)
        self.replay_seconds.set(seconds)

    def observe_skipped(self, value: bytes | None) -> None:
        """A record that is not a table event (no merge key): consumed, never fed."""
        self.consumed.inc()
        self.skipped.labels(reason=_skip_class(value)).inc()

    def observe_consumed(self, records: int) -> None:
        """Records fed to the step that produced nothing (fed in one call with others)."""
        self.consumed.inc(records)

    def observe_output(self, out: SurveillanceOutputLike, step: ReviewScheduleLike) -> None:
        """One record fed to the step (``out``: what it produced; ``step`` after it)."""
        self.consumed.inc()
        if out.dead_letters:
            self.skipped.labels(reason="rejected").inc(len(out.dead_letters))
        if out.hands_surveilled:
            self.hands.inc(out.hands_surveilled)
            # A review ran if this hand made the count a multiple of review_every (run.py).
            if step.review_every and step.hands_surveilled % step.review_every == 0:
                self.observe_review("periodic")

    def observe_review(self, trigger: str) -> None:
        self.reviews.labels(trigger=labels.known_or_other(trigger, labels.REVIEW_TRIGGERS)).inc()

    def observe_alert(self, alert: AlertLike) -> None:
        """One alert produced and acknowledged (unknown rule, code, severity: ``other``)."""
        self.alerts.labels(
            labels.known_or_other(alert.rule, labels.SURVEILLANCE_RULES),
            labels.known_or_other(alert.code, labels.SURVEILLANCE_CODE_SET),
            labels.known_or_other(alert.severity, labels.SEVERITIES),
            self.phase).inc()

    def set_lag(self, partition: int, behind: int) -> None:
        self.lag.labels(partition=self.partitions(str(partition))).set(max(behind, 0))


def _skip_class(value: bytes | None) -> str:
    """``malformed`` when the record is empty or not JSON, else ``schema`` (JSON, but not
    an event: services/surveillance/merge.py ``order_key`` found no ts or table_id)."""
    if not value:
        return "malformed"
    try:
        msgspec.json.decode(value)
    except msgspec.DecodeError:
        return "malformed"
    return "schema"


@cache
def adjudicator_metrics() -> AdjudicatorMetrics:
    """The process's adjudicator metrics (default registry), created on first use."""
    return AdjudicatorMetrics()


@cache
def ledger_metrics() -> LedgerMetrics:
    """The process's ledger metrics (default registry), created on first use."""
    return LedgerMetrics()


@cache
def kafka_watch_metrics() -> KafkaWatchMetrics:
    """The process's broker-side metrics (default registry), created on first use."""
    return KafkaWatchMetrics()


@cache
def surveillance_metrics() -> SurveillanceMetrics:
    """The process's surveillance-service metrics (default registry), created on first use."""
    return SurveillanceMetrics()
