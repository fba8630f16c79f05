"""``pitwatch produce``, ``pitwatch serve adjudicator|ledger|archive``, ``pitwatch topics
create``.

The Kafka side of the command line. ``services/cli.py`` mounts these with::

    app.add_typer(serve_app, name="serve")
    app.add_typer(topics_app, name="topics")
    app.command()(produce)

and ``python -m services.pipeline.cli ...`` runs the same commands on their own
(the integration tests start workers that way). Every option has an environment
variable (shown in ``--help``) and a default that works with ``scripts/kafka.sh``.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from services.ledger.db import DB_ENV_VAR, DEFAULT_URL, LedgerUnavailable
from services.pipeline.clients import bootstrap_servers, broker_as_usage_error
from services.pipeline.monitoring import check_monitoring_settings
from services.pipeline.topics import (
    DEFAULT_APP_ID,
    DEFAULT_BOOTSTRAP,
    DEFAULT_PARTITIONS,
    StreamSettings,
    TopicMismatchError,
    TopicRefused,
    create_topics,
)

err = Console(stderr=True)

serve_app = typer.Typer(help="Run a pipeline service (until SIGTERM / Ctrl-C).",
                        no_args_is_help=True)
topics_app = typer.Typer(help="The pipeline's Kafka topics.", no_args_is_help=True)

Bootstrap = Annotated[str, typer.Option("--bootstrap", envvar="PITWATCH_KAFKA",
                                        callback=bootstrap_servers,
                                        help="Kafka bootstrap server(s), host:port")]
Prefix = Annotated[str, typer.Option("--topic-prefix", envvar="PITWATCH_TOPIC_PREFIX",
                                     help="prefix of every topic name (several pipelines "
                                          "on one broker)")]
AppId = Annotated[str, typer.Option("--app-id", envvar="PITWATCH_APP_ID",
                                    help="adjudicator app id: its consumer group and the "
                                         "prefix of its changelog topic")]
SessionTimeout = Annotated[int, typer.Option(
    "--session-timeout-ms", envvar="PITWATCH_SESSION_TIMEOUT_MS", min=1,
    help="consumer group session timeout: a dead member's partitions move after this "
         "long (the broker's group.min.session.timeout.ms bounds it)")]
Partitions = Annotated[int, typer.Option("--partitions", envvar="PITWATCH_PARTITIONS", min=1,
                                         help="partitions of every pipeline topic")]


def _seconds(value: float) -> float:
    """``nan`` passes Click's range check and ``inf`` is within it: with either, a worker
    never checkpointed by time, so a crash re-processed everything since it started."""
    if not math.isfinite(value):
        raise typer.BadParameter(f"{value} is not a number of seconds: give one from 0 up "
                                 "(0.5, 1, 5)")
    return value


def _settings(bootstrap: str, prefix: str, app_id: str = DEFAULT_APP_ID,
              partitions: int = DEFAULT_PARTITIONS, replication: int = 1) -> StreamSettings:
    return StreamSettings(bootstrap=bootstrap, topic_prefix=prefix, app_id=app_id,
                          partitions=partitions, replication=replication)


def produce(
    file: Annotated[Path, typer.Argument(exists=True, dir_okay=False, allow_dash=True,
                                         help="JSONL event log (- reads standard input)")],
    bootstrap: Bootstrap = DEFAULT_BOOTSTRAP,
    topic_prefix: Prefix = "",
) -> None:
    """Publish an event log to table-events (key = table_id, file order per table)."""
    from services.pipeline.producer import MAX_PUBLISHED_BYTES, produce_file

    settings = _settings(bootstrap, topic_prefix)
    with broker_as_usage_error():
        report = asyncio.run(produce_file(file, settings))
    err.print(f"published {report.records} record(s) to {settings.topics.events} in "
              f"{report.seconds:.1f}s"
              + (f"; {report.unkeyed} without a table_id (they will be dead-lettered)"
                 if report.unkeyed else ""), markup=False, soft_wrap=True)
    if report.too_large:
        where = ", ".join(f"{line} ({size:,} bytes)" for line, size in report.too_large[:5])
        more = f" and {len(report.too_large) - 5} more" if len(report.too_large) > 5 else ""
        err.print(f"not published: {len(report.too_large)} line(s) over {MAX_PUBLISHED_BYTES:,} "
                  f"bytes with their key (table_id), more than the topic takes: {where}{more} "
                  "(a record over "
                  "1,000,000 bytes is refused by the intake in any case)", markup=False,
                  soft_wrap=True)
        raise typer.Exit(1)


@topics_app.command("create")
def topics_create(
    bootstrap: Bootstrap = DEFAULT_BOOTSTRAP,
    topic_prefix: Prefix = "",
    app_id: AppId = DEFAULT_APP_ID,
    partitions: Partitions = DEFAULT_PARTITIONS,
    replication: Annotated[int, typer.Option("--replication", envvar="PITWATCH_REPLICATION",
                                             min=1, help="replication factor")] = 1,
) -> None:
    """Create every pipeline topic (and the adjudicator's changelog) if missing.

    Fails if a topic exists with another partition count.
    """
    settings = _settings(bootstrap, topic_prefix, app_id, partitions, replication)
    try:
        with broker_as_usage_error():
            outcome = asyncio.run(create_topics(settings))
    except TopicMismatchError as exc:  # the broker's state, not the input: a usage error
        raise typer.BadParameter(str(exc), param_hint=exc.option) from None
    except TopicRefused as exc:  # the broker's reason (a replication factor, a policy)
        raise typer.BadParameter(f"{exc}: check --replication and the broker's settings",
                                 param_hint="--replication") from None
    for name, what in outcome:
        err.print(f"{what:>7}  {name}")


@serve_app.command("adjudicator")
def serve_adjudicator(
    bootstrap: Bootstrap = DEFAULT_BOOTSTRAP,
    topic_prefix: Prefix = "",
    app_id: AppId = DEFAULT_APP_ID,
    partitions: Annotated[int | None, typer.Option(
        "--partitions", envvar="PITWATCH_PARTITIONS", min=1,
        help="the partitions table-events was created with: the worker refuses to start "
             "on another count (default: whatever it has); its changelog must have as "
             "many either way")] = None,
    batch_max: Annotated[int, typer.Option(
        "--batch-max", envvar="PITWATCH_BATCH_MAX", min=1,
        help="records per poll (their outputs go out in one round trip)")] = 2000,
    checkpoint_seconds: Annotated[float, typer.Option(
        "--checkpoint-seconds", envvar="PITWATCH_CHECKPOINT_SECONDS", min=0.0,
        callback=_seconds,
        help="how often changed table states go to the changelog and offsets are "
             "committed (a crash re-processes at most about this much)")] = 1.0,
    checkpoint_batches: Annotated[int, typer.Option(
        "--checkpoint-batches", envvar="PITWATCH_CHECKPOINT_BATCHES", min=0,
        help="also checkpoint after this many batches (0: by time only); bounds the "
             "work a crash re-processes in records")] = 0,
    session_timeout_ms: SessionTimeout = 15_000,
    archive: Annotated[bool, typer.Option(
        "--archive/--no-archive", envvar="PITWATCH_ARCHIVE",
        help="emit every event's archive segment to topic archive (pitwatch serve "
             "archive keeps them)")] = True,
    engine: Annotated[str | None, typer.Option(
        "--engine", help="per-event path: native (the Rust core, default) or python "
                         "(the reference); default $PITWATCH_ENGINE. "
                         "Every worker of a group must run the same one (their changelog "
                         "states differ)")] = None,
) -> None:
    """Run one adjudicator worker; start more with the same --app-id to scale out."""
    from services.adjudicator.engine import EngineUnavailable, UnknownEngine, make_runner
    from services.games.profiles import read_profiles
    from services.pipeline.worker import WorkerOptions, run_worker

    check_monitoring_settings("adjudicator")
    try:
        make_runner(read_profiles(), engine, archive)  # the engine exists and is built
    except (EngineUnavailable, UnknownEngine) as exc:
        raise typer.BadParameter(str(exc), param_hint="--engine") from None
    from services.ledger.gc_policy import tune_for_batches

    tune_for_batches()  # the tables' states live as long as the worker (gc_policy.py)
    try:
        with broker_as_usage_error():
            run_worker(_settings(bootstrap, topic_prefix, app_id,
                                 partitions or DEFAULT_PARTITIONS),
                       WorkerOptions(batch_max, checkpoint_seconds, checkpoint_batches,
                                     session_timeout_ms, engine, archive, partitions))
    except TopicMismatchError as exc:
        raise typer.BadParameter(str(exc), param_hint=exc.option) from None


@serve_app.command("ledger")
def serve_ledger(
    bootstrap: Bootstrap = DEFAULT_BOOTSTRAP,
    topic_prefix: Prefix = "",
    group: Annotated[str | None, typer.Option(
        "--group", envvar="PITWATCH_LEDGER_GROUP",
        help="consumer group of the ledger service (default: the topic prefix, then "
             "pitwatch-ledger)")] = None,
    db: Annotated[str, typer.Option("--db", "--ledger", envvar=DB_ENV_VAR,
                                    help="SQLAlchemy URL of the ledger database")] = DEFAULT_URL,
    batch: Annotated[int, typer.Option("--batch", envvar="PITWATCH_LEDGER_BATCH", min=1,
                                       help="records booked per poll (offsets are committed "
                                            "after each batch's transaction)")] = 2000,
    in_flight: Annotated[int, typer.Option("--in-flight", envvar="PITWATCH_LEDGER_IN_FLIGHT",
                                           min=1, max=8,
                                           help="database transactions at once (offsets "
                                                "are still committed in batch order)")] = 2,
    session_timeout_ms: SessionTimeout = 15_000,
) -> None:
    """Book every adjudication into the ledger (idempotent; offsets after the commit)."""
    from services.pipeline.ledger_service import DEFAULT_GROUP, LedgerServiceSettings, serve
    from services.pipeline.topics import TopicNames, service_group

    logging.basicConfig(level=logging.INFO,
                        format="[%(asctime)s] [%(process)d] [%(levelname)s] %(message)s")
    settings = LedgerServiceSettings(
        bootstrap=bootstrap,
        topic=TopicNames.with_prefix(topic_prefix).adjudications,
        group_id=group or service_group(topic_prefix, DEFAULT_GROUP),
        db_url=db,
        batch=batch,
        in_flight=in_flight,
        session_timeout_ms=session_timeout_ms,
    )
    check_monitoring_settings("ledger")
    with broker_as_usage_error(), _database_as_usage_error():
        asyncio.run(serve(settings))


@serve_app.command("archive")
def serve_archive(
    bootstrap: Bootstrap = DEFAULT_BOOTSTRAP,
    topic_prefix: Prefix = "",
    group: Annotated[str | None, typer.Option(
        "--group", envvar="PITWATCH_ARCHIVE_GROUP",
        help="consumer group of the archive service (default: the topic prefix, then "
             "pitwatch-archive)")] = None,
    db: Annotated[str, typer.Option("--db", "--ledger", envvar=DB_ENV_VAR,
                                    help="SQLAlchemy URL of the pitwatch database")]
    = DEFAULT_URL,
    batch: Annotated[int, typer.Option("--batch", envvar="PITWATCH_ARCHIVE_BATCH", min=1,
                                       help="records kept per poll (offsets are committed "
                                            "after each batch's transaction)")] = 2000,
    session_timeout_ms: SessionTimeout = 15_000,
) -> None:
    """Keep every event (topic archive), alert and finding's case in the database.

    Idempotent; the offsets are committed after the database commit."""
    from services.pipeline.archive_service import DEFAULT_GROUP, ArchiveServiceSettings, serve
    from services.pipeline.topics import TopicNames, service_group

    logging.basicConfig(level=logging.INFO,
                        format="[%(asctime)s] [%(process)d] [%(levelname)s] %(message)s")
    settings = ArchiveServiceSettings(
        bootstrap=bootstrap, topics=TopicNames.with_prefix(topic_prefix),
        group_id=group or service_group(topic_prefix, DEFAULT_GROUP), db_url=db, batch=batch,
        session_timeout_ms=session_timeout_ms)
    check_monitoring_settings("archive")
    with broker_as_usage_error(), _database_as_usage_error():
        asyncio.run(serve(settings))


@contextmanager
def _database_as_usage_error() -> Iterator[None]:
    """A ``--db`` the service cannot open as the command line's one line (exit 2), as
    ``pitwatch adjudicate --ledger`` says it: it was a traceback ending in that line."""
    try:
        yield
    except LedgerUnavailable as exc:
        raise typer.BadParameter(str(exc), param_hint="--db") from None


main_app = typer.Typer(help="pitwatch's Kafka commands (also mounted on `pitwatch`).",
                       no_args_is_help=True, add_completion=False)
main_app.add_typer(serve_app, name="serve")
main_app.add_typer(topics_app, name="topics")
main_app.command()(produce)

if __name__ == "__main__":  # pragma: no cover
    main_app()
