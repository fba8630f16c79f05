"""Reaching the broker: a broker that cannot be reached, a topic that does not exist or an
address that is none is one line, and nothing is left open.

Why: every Kafka command (``pitwatch produce``, ``topics create``, each ``serve``) used to
end in a traceback of aiokafka's internals when no broker answered at ``--bootstrap``,
followed by "Unclosed AIOKafkaProducer" errors, because a client whose ``start`` failed is
still open; a missing topic and ``--bootstrap localhost:abc`` did the same. These are
environment errors like a missing file: the user needs to hear where pitwatch looked and
what to do, in one line (exit 2).

That line is the only one: aiokafka logs its own error for each bootstrap address it
cannot reach (``Unable connect to "127.0.0.1:1": ...``), which came first and said half of
it again. While a command run under ``broker_as_usage_error`` makes its first connection
(``start_clients``), those records of aiokafka's are held back: dropped if no broker
answers (``BrokerUnreachable`` says it), logged as they were if one does (one dead address
of several is still shown). Once the command has reached the broker, nothing is held: a
broker that goes away while a service runs is logged by aiokafka as always, and so is
every other record of aiokafka's, and everything of the lag watch's own thread.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Final, Protocol

import typer
from aiokafka.admin import AIOKafkaAdminClient
from aiokafka.errors import (
    InvalidSessionTimeoutError,
    KafkaConnectionError,
    UnknownTopicOrPartitionError,
)

from services.events.numerals import is_ascii_number


def bootstrap_servers(value: str) -> str:
    """Typer callback for ``--bootstrap``: ``host[:port]``, comma-separated, each port a
    number from 1 to 65535 (aiokafka raised ``ValueError`` from deep inside for
    ``localhost:abc``, a traceback)."""
    entries = [entry.strip() for entry in value.split(",")]
    for entry in entries:
        host, colon, port = entry.rpartition(":") if ":" in entry else (entry, "", "")
        if not host or (colon and not (is_ascii_number(port) and 1 <= int(port) <= 65535)):
            raise typer.BadParameter(f"{value!r} is not host:port (a broker's address, e.g. "
                                     "localhost:9092; several: a comma-separated list)")
    return value


class BrokerUnreachable(Exception):
    """No Kafka broker answered at the bootstrap address."""

    def __init__(self, bootstrap: str) -> None:
        super().__init__(f"no Kafka broker answers at {bootstrap}: start it (`bash "
                         "scripts/services.sh up` starts the project's own) or give the "
                         "address of one (--bootstrap or PITWATCH_KAFKA)")


class TopicMissing(Exception):
    """A topic to read or write does not exist (the broker does not create topics)."""

    def __init__(self, what: str, bootstrap: str) -> None:
        super().__init__(f"{what} does not exist at {bootstrap}: create the pipeline's "
                         "topics first (pitwatch topics create, with the same "
                         "--topic-prefix)")


class _Startable(Protocol):
    async def start(self) -> None: ...


# What aiokafka's bootstrap (``aiokafka.client.AIOKafkaClient.bootstrap``, logger
# ``aiokafka``) logs for an address that does not answer, or answers but not as a broker.
_BOOTSTRAP_FAILURES: Final = frozenset({'Unable connect to "%s:%s": %s',
                                        'Unable to request metadata from "%s:%s": %s'})
_AIOKAFKA_LOGGER: Final = "aiokafka"


class _FirstConnection:
    """A command's way to its broker until it first gets there: the records of aiokafka's
    bootstrap held back meanwhile (``held`` is None while nothing is being held)."""

    def __init__(self) -> None:
        self.reached = False
        self.held: list[logging.LogRecord] | None = None


# Set by ``broker_as_usage_error`` for the command it runs: asyncio copies the context
# into the command's tasks, and the lag watch's thread starts with a context of its own.
_first_connection: ContextVar[_FirstConnection | None] = ContextVar(
    "pitwatch_first_connection", default=None)


class _HoldBootstrapFailures(logging.Filter):
    """Holds aiokafka's bootstrap failures back while the command's first connection is
    being made; lets every other record through."""

    def filter(self, record: logging.LogRecord) -> bool:
        first = _first_connection.get()
        if first is None or first.held is None or record.msg not in _BOOTSTRAP_FAILURES:
            return True
        first.held.append(record)
        return False


_HOLD: Final = _HoldBootstrapFailures()


async def start_clients(bootstrap: str, *clients: _Startable) -> None:
    """Start ``clients`` in order. If one fails, every one of them is closed (an aiokafka
    client is open from its creation, started or not); a connection failure is raised
    as ``BrokerUnreachable``. The command's first start holds aiokafka's bootstrap
    failures back (module docstring)."""
    first = _first_connection.get()
    holding = first is not None and not first.reached and first.held is None
    if first is not None and holding:
        first.held = []
    try:
        await _start_in_order(bootstrap, clients)
    except BrokerUnreachable:
        if first is not None and holding:
            first.held = None  # said by the one line
        raise
    finally:
        if first is not None and holding:
            held, first.held = first.held or [], None
            for record in held:  # a broker answered, or the failure was another one
                logging.getLogger(record.name).handle(record)
    if first is not None:
        first.reached = True


async def _start_in_order(bootstrap: str, clients: tuple[_Startable, ...]) -> None:
    for client in clients:
        try:
            await client.start()
        except BaseException as exc:
            for opened in clients:
                await close_client(opened)
            if isinstance(exc, KafkaConnectionError):
                raise BrokerUnreachable(bootstrap) from exc
            if isinstance(exc, UnknownTopicOrPartitionError):  # a consumer of named topics
                raise TopicMissing("a topic this service reads", bootstrap) from exc
            raise


async def require_topics(bootstrap: str, topics: list[str]) -> None:
    """``TopicMissing`` for the first of ``topics`` the broker does not have, asked once
    (a consumer started on a missing topic waits out its 40 s request timeout first)."""
    missing = await missing_topics(bootstrap, topics)
    if missing:
        raise TopicMissing(f"topic {missing[0]}", bootstrap)


async def missing_topics(bootstrap: str, topics: list[str]) -> list[str]:
    """Those of ``topics`` the broker does not have, in their order (asked once)."""
    admin = AIOKafkaAdminClient(bootstrap_servers=bootstrap)
    await start_clients(bootstrap, admin)
    try:
        existing = set(await admin.list_topics())
    finally:
        await admin.close()
    return [topic for topic in topics if topic not in existing]


async def close_client(client: _Startable) -> None:
    """Stop a consumer or producer, close an admin client (aiokafka names them apart)."""
    if isinstance(client, AIOKafkaAdminClient):
        await client.close()
    else:
        await client.stop()  # type: ignore[attr-defined]


@contextmanager
def broker_as_usage_error() -> Iterator[None]:
    """A command's ``BrokerUnreachable`` or ``TopicMissing`` as the command line's
    one-line error (exit 2); and a session timeout the broker's group settings refuse
    (it was a traceback ending in ``InvalidSessionTimeoutError``). Until the command first
    reaches the broker, aiokafka's own line for an address that does not answer is held
    back (module docstring), so that the command's line is the only one."""
    logging.getLogger(_AIOKAFKA_LOGGER).addFilter(_HOLD)  # once: a filter is added once
    token = _first_connection.set(_FirstConnection())
    try:
        yield
    except BrokerUnreachable as exc:
        raise typer.BadParameter(str(exc), param_hint="--bootstrap") from None
    except TopicMissing as exc:
        raise typer.BadParameter(str(exc), param_hint="--topic-prefix") from None
    except InvalidSessionTimeoutError:
        raise typer.BadParameter(
            "the broker refuses this session timeout: give one between its "
            "group.min.session.timeout.ms and group.max.session.timeout.ms (6,000 and "
            "1,800,000 ms by default)", param_hint="--session-timeout-ms") from None
    finally:
        _first_connection.reset(token)
